"""Penalties a verdict imposes (主刑), parsed to months of prison, and the sentencing band they fall in."""

from __future__ import annotations

import re

from jiancha.law.numerals import CN_NUMERAL_CHARS

#: A fixed-term prison sentence: 有期徒刑X年(Y个月) or 有期徒刑Y个月 (Chinese or Arabic numerals).
PRISON_TERM_RE = re.compile(rf"有期徒刑(?:([{CN_NUMERAL_CHARS}\d]+)年)?(?:([{CN_NUMERAL_CHARS}\d]+)个?月)?")
LIFE_OR_DEATH: tuple[str, ...] = ("无期徒刑", "死刑")
#: Penalties without prison: 拘役 (detention) and 管制 count as no prison for the band.
SHORT_PENALTIES: tuple[str, ...] = ("拘役", "管制", "单处罚金", "免予刑事处罚", "免除刑事处罚")
#: A conviction without penalty, as verdicts word it (shown as the first).
EXEMPTION: tuple[str, ...] = ("免予刑事处罚", "免除刑事处罚")
#: Months standing for life imprisonment or death in comparisons.
LIFE_MONTHS = 600.0
#: Verdicts that impose no penalty, as they are worded.
NO_PENALTY_OUTCOMES: tuple[str, ...] = ("无罪", "不负刑事责任", "驳回上诉，维持原判")
#: Where the notice of the right to appeal begins, after the operative part of a verdict.
APPEAL_NOTICE = "如不服"


def _int(s: str | None) -> int:
    if not s:
        return 0
    from jiancha.errors import ParseError
    from jiancha.law.numerals import parse_number

    try:
        return parse_number(s)
    except ParseError:
        return 0


def parse_prison_months(verdict: str) -> float | None:
    """The longest fixed prison term the verdict imposes, in months; 0 for only 拘役/管制/罚金/免予处罚,
    :data:`LIFE_MONTHS` for life or death; None when the verdict names no penalty.

    >>> parse_prison_months("判处有期徒刑三年六个月，并处罚金"), parse_prison_months("判处拘役四个月")
    (42.0, 0.0)
    """
    if any(w in verdict for w in LIFE_OR_DEATH):
        return LIFE_MONTHS
    terms = [12 * _int(m.group(1)) + _int(m.group(2)) for m in PRISON_TERM_RE.finditer(verdict)]
    terms = [t for t in terms if t > 0]
    if terms:
        return float(max(terms))
    if any(w in verdict for w in SHORT_PENALTIES):
        return 0.0
    return None


def term_band(months: float | None) -> int:
    """Sentence band: -1 unknown, 0 no prison, 1 under 3 years, 2 3–10 years, 3 over 10 years / life / death
    (the statutory ranges 三年以下 / 三年以上十年以下 / 十年以上)."""
    if months is None:
        return -1
    if months <= 0:
        return 0
    return 1 if months < 36 else 2 if months <= 120 else 3


def render_term(months: float | None) -> str:
    """Human form of a term: 有期徒刑3年6个月 / 无期徒刑或死刑 / 非监禁刑 / 未知.

    >>> render_term(42.0), render_term(12.0)
    ('有期徒刑3年6个月', '有期徒刑1年')
    """
    if months is None:
        return "未知"
    if months >= LIFE_MONTHS:
        return "无期徒刑或死刑"
    if months <= 0:
        return "非监禁刑"
    y, m = divmod(int(months), 12)
    return "有期徒刑" + (f"{y}年" if y else "") + (f"{m}个月" if m else "")


#: Sentences without fixed-term prison, as a verdict words them: 拘役 / 管制 with their term (管制一年六个月).
SHORT_TERM_RE = re.compile(rf"(拘役|管制)(?=[{CN_NUMERAL_CHARS}\d])(?:([{CN_NUMERAL_CHARS}\d]+)年)?"
                           rf"(?:([{CN_NUMERAL_CHARS}\d]+)个?月)?")
#: A death sentence suspended for two years (判处死刑，缓期二年执行).
DEATH_SUSPENDED = "缓期二年执行"
SUSPENDED = "缓刑"
FINE = "罚金"


#: A sentence that tells the judgment under appeal (原判…判处 / 作出…刑事判决，以…罪判处…), and the words of a
#: prior conviction (曾因…被判处), which is not it.
ORIGINAL_JUDGMENT_MARKERS: tuple[str, ...] = ("原判", "原审", "一审", "刑事判决", "据此")
#: How a ruling words the sentence under appeal without naming the judgment: 以盗窃罪判处被告人…
SENTENCED_FOR_RE = re.compile(r"以[^，。；]{1,40}?罪判处")
PRIOR_CONVICTION_MARKERS: tuple[str, ...] = ("曾因", "曾于", "前科", "刑满释放")
UPHELD = "维持原判"


def upheld_penalty(context: str) -> str:
    """The penalty of the judgment under appeal, as :func:`describe_verdict` words it, from the first sentence of
    ``context`` (a ruling's header and facts) that names that judgment and imposes a penalty ('' when none does).

    >>> upheld_penalty("被告人甲曾因盗窃罪被判处有期徒刑八个月。原审法院以诈骗罪判处被告人甲有期徒刑四年。")
    '有期徒刑4年'
    >>> upheld_penalty("经审理查明…。以盗窃罪判处被告人冯某有期徒刑二年，并处罚金人民币六千元。")
    '有期徒刑2年，并处罚金'
    """
    from jiancha.law.patterns import CLAUSE_RE

    for m in CLAUSE_RE.finditer(context):
        sent = m.group(0)
        if ("判处" in sent and (any(w in sent for w in ORIGINAL_JUDGMENT_MARKERS) or SENTENCED_FOR_RE.search(sent))
                and not any(w in sent for w in PRIOR_CONVICTION_MARKERS)
                and (parse_prison_months(sent) is not None or FINE in sent)):
            return describe_verdict(sent)
    return ""


#: Where a verdict's item for one defendant begins: 被告人张某犯… / 被告单位某公司犯… / 上诉人（原审被告人）李某无罪 /
#: 上诉单位（原审被告单位）某公司犯…; not 被告人张某退赔犯罪所得.
DEFENDANT_ITEM_RE = re.compile(r"(?:被告人|上诉人)(?:[（(]原审被告人[）)])?"
                               r"(?P<name>[^，,。；;：:\s（()）、][^，,。；;：:\s（(、]{0,14}?(?:、[^，,。；;：:\s（(、]{1,15}?)*)"
                               r"(?<!所)(?=犯(?!罪)|无罪|不负刑事责任|免予)"
                               r"|(?:被告|上诉)单位(?:[（(]原审被告单位[）)])?(?P<unit>[^，,。；;：:\s（()）][^，,。；;：:\s]{1,39}?)"
                               r"(?=犯(?!罪)|无罪)")
#: What a verdict on appeal says of a sentence it quashes (二、撤销…判决的第一项，即被告人王某犯…): not the sentence;
#: what it says is quashed runs to the next numbered item (or the end of the sentence where items are not numbered).
QUASHED = "撤销"
ITEM_START_RE = re.compile(r"(?:^|(?<=[。；;\s]))[一二三四五六七八九十]+、")
#: Defendants a description names before it says how many more there are.
SHOWN_DEFENDANTS = 4


def _by_defendant(operative: str) -> list[tuple[str, str]]:
    """(name, the verdict's text for that defendant) for each defendant the verdict names in order (each of those
    named together, 被告人甲、乙犯…罪，各判处…), from the name to the next defendant or numbered item, the text of a
    name named twice put together, a sentence the verdict quashes left out; [] when it names fewer than two."""
    found = list(DEFENDANT_ITEM_RE.finditer(operative))
    if not found:
        return []
    starts = [m.end() for m in ITEM_START_RE.finditer(operative)]

    def quashed(at: int) -> bool:
        begin = max([i for i in starts if i <= at], default=0) if starts else operative.rfind("。", 0, at) + 1
        return QUASHED in operative[begin:at]

    parts: dict[str, str] = {}
    for m, nxt in zip(found, [*found[1:], None], strict=True):
        if quashed(m.start()):
            continue
        end = min([i for i in starts if i > m.start()] + [nxt.start() if nxt else len(operative)])
        for name in (m.group("name") or m.group("unit")).split("、"):   # 甲、乙犯…，各判处…
            parts[name] = parts.get(name, "") + operative[m.start():end]
    return list(parts.items()) if len(parts) >= 2 else []


def describe_verdict(verdict: str, max_chars: int = 60, *, context: str = "") -> str:
    """A verdict in a few characters: the principal penalty it imposes (有期徒刑 as :func:`render_term`, 拘役 /
    管制 with their months, 无期徒刑, 死刑, 免予刑事处罚, 单处罚金), marked （缓刑） when suspended and ，并处罚金 when a
    fine comes with it; else the
    first of :data:`NO_PENALTY_OUTCOMES` it names (a ruling that upholds the judgment under appeal adds that
    judgment's penalty when ``context``, the ruling's header and facts, tells it: :func:`upheld_penalty`); else its
    beginning up to the appeal notice.

    >>> describe_verdict("被告人李某犯盗窃罪，判处有期徒刑一年。"), describe_verdict("被告人邓某无罪。如不服本判决，可在…")
    ('有期徒刑1年', '无罪')
    >>> describe_verdict("判处拘役四个月，缓刑六个月，并处罚金二千元"), describe_verdict("判处有期徒刑三年，缓刑四年")
    ('拘役4个月（缓刑），并处罚金', '有期徒刑3年（缓刑）')
    >>> describe_verdict("被告人王某犯非法吸收公众存款罪，判处罚金人民币五万元。"), describe_verdict("判处死刑，缓期二年执行")
    ('单处罚金', '死刑缓期二年执行')
    >>> describe_verdict("准许上诉人撤回上诉。如不服本裁定……")
    '准许上诉人撤回上诉。'

    A verdict on several defendants is described for each, by name (the first :data:`SHOWN_DEFENDANTS`):

    >>> describe_verdict("一、被告人张某犯盗窃罪，判处有期徒刑三年；二、被告人李某犯盗窃罪，判处有期徒刑一年，缓刑二年。")
    '张某 有期徒刑3年；李某 有期徒刑1年（缓刑）'
    """
    operative = verdict.split(APPEAL_NOTICE)[0]
    each = [(name, _describe_one(part)) for name, part in _by_defendant(operative)]
    each = [(name, said) for name, said in each if said]   # an item that imposes nothing (维持…的定罪部分)
    if len(each) >= 2:
        shown = "；".join(f"{name} {said}" for name, said in each[:SHOWN_DEFENDANTS])
        return shown + (f"；等{len(each)}人" if len(each) > SHOWN_DEFENDANTS else "")
    return _describe_one(operative, context) or operative.strip()[:max_chars]


def _suspended(text: str) -> bool:
    """Whether ``text`` suspends a sentence: 缓刑 in a clause that does not revoke one (撤销…宣告缓刑…)."""
    from jiancha.law.patterns import CLAUSE_RE

    return any(SUSPENDED in c and QUASHED not in c for c in (m.group(0) for m in CLAUSE_RE.finditer(text)))


def _describe_one(operative: str, context: str = "") -> str:
    """:func:`describe_verdict` of one defendant's verdict; '' when it names no penalty or outcome."""
    suspended = ("（缓刑）" if _suspended(operative) else "") + ("，并处罚金" if FINE in operative else "")
    months = parse_prison_months(operative)
    if months is not None and months >= LIFE_MONTHS:
        if "死刑" in operative:
            return "死刑缓期二年执行" if DEATH_SUSPENDED in operative else "死刑"
        return "无期徒刑"
    if months:
        return render_term(months) + suspended
    short = next((m for m in SHORT_TERM_RE.finditer(operative) if m.group(2) or m.group(3)), None)
    if short:
        return f"{short.group(1)}{12 * _int(short.group(2)) + _int(short.group(3))}个月{suspended}"
    if any(w in operative for w in EXEMPTION):
        return EXEMPTION[0]
    if FINE in operative:     # no prison, detention or control imposed: the fine alone
        return "单处罚金"
    named = next((w for w in NO_PENALTY_OUTCOMES if w in operative), None)
    if named:
        upheld = upheld_penalty(context) if UPHELD in named and context else ""
        return f"{named}（原判{upheld}）" if upheld else named
    if months == 0.0:
        return render_term(0.0)
    return ""
