"""What a verdict's operative part (判决主文) says of each defendant: the sentence for each charge, the sentence to
serve (决定执行), whether it was combined with a prior one, and a description in a few characters."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from jiancha.law.penalties import (
    ACCESSORY_GOES_ON_RE,
    APPEAL_NOTICE,
    COMMUTATION_LIMITED,
    EXPULSION,
    FINE,
    LIFE_MONTHS,
    NO_PENALTY_OUTCOMES,
    QUASHED,
    Penalty,
    parse_penalty,
    parse_prison_months,
    render_term,
)

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
    '有期徒刑2年，并处罚金6000元'
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
                               r"(?<!所)(?=犯(?!罪)|以[^，,。；;]{1,30}?罪(?:各|分别)?判处|无罪|不负刑事责任|免予)"
                               r"|(?:被告|上诉)人?单位(?:[（(]原审被告单位[）)])?(?P<unit>[^，,。；;：:\s（()）][^，,。；;：:\s]{1,39}?)"
                               r"(?=犯(?!罪)|无罪)")
#: What a verdict on appeal says of a sentence it quashes (二、撤销…判决的第一项，即被告人王某犯…): not the sentence;
#: what it says is quashed runs to the next numbered item (or the end of the sentence where items are not numbered).
REVOKED_RELEASES: tuple[str, ...] = ("缓刑", "假释")
RESENTENCED = "改判"
UPHOLD = "维持"
#: Where a ruling whose items are not numbered goes on from what it quashes to its own sentence: ；上诉人（原审被告人）…
NEW_SENTENCE_RE = re.compile(r"[；;]\s*上诉(?:人|单位)")
#: How a ruling introduces the sentence it quashes or upholds: …判决第一项，即被告人…
QUOTED = "即"
ITEM_START_RE = re.compile(r"(?:^|(?<=[。；;\s]))[一二三四五六七八九十]+、")
#: Limited commutation of a suspended death sentence, or expulsion, ordered in an item of its own: 对被告人王某限制减刑.
ORDERED_FOR_RE = re.compile(rf"对(?:被告人|上诉人|原审被告人)(?P<name>[^，,。；;：:\s（(、]{{1,15}}?)(?:附加)?"
                            rf"(?:{COMMUTATION_LIMITED}|{EXPULSION})")
#: Defendants a description names before it says how many more there are.
SHOWN_DEFENDANTS = 4


def _said_before(text: str, at: int, starts: list[int]) -> str:
    """What ``text`` says before position ``at`` in the same numbered item (``starts``: where items begin), or in
    the same sentence where items are not numbered."""
    begin = max([i for i in starts if i <= at], default=0) if starts else text.rfind("。", 0, at) + 1
    return text[begin:at]


def _quashed(text: str, at: int, starts: list[int]) -> bool:
    """Whether position ``at`` of ``text`` is in what the verdict says it quashes: after 撤销 in the same item
    (:func:`_said_before`), not after 改判 (撤销原判，改判…) or the ruling's own sentence (…；上诉人…犯…), nor after
    a revoked suspension or parole (撤销…宣告的缓刑，与…并罚) or, where items are not numbered, after the clause that
    quashes (撤销…的量刑部分；原审被告人…犯…), unless it quotes what it quashes (撤销…缓刑部分，即…)."""
    said = _said_before(text, at, starts)
    k = said.rfind(QUASHED)
    if k < 0 or RESENTENCED in said[k:] or NEW_SENTENCE_RE.search(said + text[at:at + 4], k):
        return False
    after = said[k:]
    if QUOTED in after:
        return True
    revoked_release = any(w in after for w in REVOKED_RELEASES)
    clause_ended = not starts and ("；" in after or ";" in after)
    return not (revoked_release or clause_ended)


def _ordered(text: str, word: str, starts: list[int]) -> bool:
    """Whether ``text`` says ``word`` outside what it quashes."""
    return any(not _quashed(text, m.start(), starts) for m in re.finditer(re.escape(word), text))


def _upheld_quote(text: str, at: int, starts: list[int]) -> bool:
    """Whether position ``at`` is in a quote of the sentence a ruling upholds (一、维持…判决第一项…，即被告人…)."""
    said = _said_before(text, at, starts)
    k = said.find(UPHOLD)
    return k >= 0 and QUOTED in said[k:]


def _by_defendant(operative: str) -> list[tuple[str, str]]:
    """(name, the verdict's text for that defendant) for each defendant the verdict names in order (each of those
    named together, 被告人甲、乙犯…罪，各判处…), from the name to the next defendant or numbered item, the text of a
    name named twice put together, a sentence the verdict quashes left out; [] when it names fewer than two."""
    found = list(DEFENDANT_ITEM_RE.finditer(operative))
    if not found:
        return []
    starts = [m.end() for m in ITEM_START_RE.finditer(operative)]
    parts: dict[str, str] = {}
    for m, nxt in zip(found, [*found[1:], None], strict=True):
        if _quashed(operative, m.start(), starts):
            continue
        end = min([i for i in starts if i > m.start()] + [nxt.start() if nxt else len(operative)])
        for name in (m.group("name") or m.group("unit")).split("、"):   # 甲、乙犯…，各判处…
            parts[name] = parts.get(name, "") + operative[m.start():end]
    for m in ORDERED_FOR_RE.finditer(operative):   # an item of its own: 二、对被告人王某限制减刑。
        if m.group("name") in parts and not _quashed(operative, m.start(), starts):
            parts[m.group("name")] += m.group(0)
    return list(parts.items()) if len(parts) >= 2 else []


def describe_verdict(verdict: str, max_chars: int = 60, *, context: str = "") -> str:
    """A verdict in a few characters: the principal penalty it imposes (有期徒刑 as :func:`render_term`, 拘役 /
    管制 with their months, 无期徒刑, 死刑, 免予刑事处罚, 单处罚金), marked （缓刑2年） when suspended, with the
    accessory penalties and the amounts stated (:meth:`~jiancha.law.penalties.Penalty.describe`); else the
    first of :data:`NO_PENALTY_OUTCOMES` it names (a ruling that upholds the judgment under appeal adds that
    judgment's penalty when ``context``, the ruling's header and facts, tells it: :func:`upheld_penalty`); else its
    beginning up to the appeal notice.

    >>> describe_verdict("被告人李某犯盗窃罪，判处有期徒刑一年。"), describe_verdict("被告人邓某无罪。如不服本判决，可在…")
    ('有期徒刑1年', '无罪')
    >>> describe_verdict("判处拘役四个月，缓刑六个月，并处罚金二千元"), describe_verdict("判处有期徒刑三年，缓刑四年")
    ('拘役4个月（缓刑6个月），并处罚金2000元', '有期徒刑3年（缓刑4年）')
    >>> describe_verdict("被告人王某犯非法吸收公众存款罪，判处罚金人民币五万元。"), describe_verdict("判处死刑，缓期二年执行")
    ('单处罚金5万元', '死刑缓期二年执行')
    >>> describe_verdict("准许上诉人撤回上诉。如不服本裁定……")
    '准许上诉人撤回上诉。'

    A verdict on several defendants is described for each, by name (the first :data:`SHOWN_DEFENDANTS`):

    >>> describe_verdict("一、被告人张某犯盗窃罪，判处有期徒刑三年；二、被告人李某犯盗窃罪，判处有期徒刑一年，缓刑二年。")
    '张某 有期徒刑3年；李某 有期徒刑1年（缓刑2年）'
    """
    operative = verdict.split(APPEAL_NOTICE)[0]
    each = [(name, _describe_one(part)) for name, part in _by_defendant(operative)]
    each = [(name, said) for name, said in each if said]   # an item that imposes nothing (维持…的定罪部分)
    if len(each) >= 2:
        shown = "；".join(f"{name} {said}" for name, said in each[:SHOWN_DEFENDANTS])
        return shown + (f"；等{len(each)}人" if len(each) > SHOWN_DEFENDANTS else "")
    return _describe_one(operative, context) or operative.strip()[:max_chars]


def _describe_one(operative: str, context: str = "") -> str:
    """:func:`describe_verdict` of one defendant's verdict; '' when it names no penalty or outcome."""
    if said := parse_sentencing(operative).describe():
        return said
    named = next((w for w in NO_PENALTY_OUTCOMES if w in operative), None)
    if named:
        upheld = upheld_penalty(context) if UPHELD in named and context else ""
        return f"{named}（原判{upheld}）" if upheld else named
    if parse_prison_months(operative) == 0.0:
        return render_term(0.0)
    return ""


#: Where the sentence for one charge begins: 犯受贿罪，判处… / 以贪污罪判处… / ；滥用职权罪，判处… / 犯非法经营罪，单处罚金 /
#: 犯…罪，免予刑事处罚 / 犯…罪，各判处…; not 与前罪判处的有期徒刑一年 (a prior sentence).
_CHARGE_CHAR = r"(?:(?!被告|上诉|原审|(?<!犯)罪)[^，,。；;：:\s])"   # a charge's names hold 罪 only in 犯罪
CHARGE_SENTENCE_RE = re.compile(rf"(?:(?:犯|以)(?P<charge>{_CHARGE_CHAR}{{1,30}}?)罪[，,]?"
                                rf"|(?<=[；;])(?![一二三四五六七八九十]+、|与)"
                                rf"(?P<bare>(?:(?!犯[^罪]){_CHARGE_CHAR}){{1,30}}?)罪[，,])"
                                r"(?=(?:各|分别)?(?:判处|单处|免予|免除))")
#: Where the sentence to serve begins, after the sentences for each charge.
EXECUTED_RE = re.compile(r"决定执行|合并执行")
#: Where the sentences for each charge end: the total, 数罪并罚, or the sentence to serve.
CHARGE_SENTENCES_END_RE = re.compile(rf"总和刑期|数罪并罚|{EXECUTED_RE.pattern}")
#: A sentence passed before, combined with this one (与前罪判处的…并罚 / 与原判尚未执行完毕的刑期…并罚 / 连同前罪没有执行
#: 完毕的…数罪并罚 / 撤销前罪的缓刑，数罪实行并罚), after a suspension or parole is revoked or an earlier crime comes to
#: light: its span, from the prior sentence to 并罚, names crimes that are not this verdict's (与原判犯抢劫罪判处…);
#: not 撤销原判，改判…数罪并罚, which is this verdict's sentence.
COMBINED_WITH_PRIOR_RE = re.compile(r"(?:前罪|前犯|(?:与|连同|合并|同)原(?:判|审|犯)|余刑|执行完毕|漏罪)[^。；;]{0,60}?并罚")


@dataclass(frozen=True)
class Sentencing:
    """One defendant's sentences: (charge without 罪, penalty) for each charge in the verdict's order, the penalty
    to serve (None when the verdict names none), whether the verdict words it (决定执行 / 合并执行; else it is the
    longest penalty imposed), and whether it combines a sentence passed before."""

    charges: tuple[tuple[str, Penalty], ...]
    executed: Penalty | None
    decided: bool = False
    combined_with_prior: bool = False

    def describe(self) -> str:
        """The penalty to serve; after each charge's penalty (its fine not repeated) where there are several or a
        prior sentence was combined: 受贿罪有期徒刑11年，滥用职权罪有期徒刑3年，决定执行有期徒刑12年6个月，并处罚金."""
        if self.executed is None:
            return ""
        if not (self.decided and (len(self.charges) >= 2 or self.charges and self.combined_with_prior)):
            return self.executed.describe()
        parts = [f"{c}罪{p.describe(accessory=False)}" for c, p in self.charges]
        return "，".join(parts + ["与前罪并罚"] * self.combined_with_prior + [f"决定执行{self.executed.describe()}"])


def _sentence_end(text: str, start: int) -> int:
    """Where the sentence from ``start`` ends: at its first 。 outside brackets (…（刑期…止。）…), and past the sentences
    after it that go on with accessory penalties (:data:`ACCESSORY_GOES_ON_RE`)."""
    depth, end = 0, None
    for i in range(start, len(text)):
        ch = text[i]
        depth += (ch in "（(") - (ch in "）)" and depth > 0)
        if ch == "。" and depth == 0:
            end = i
            if not ACCESSORY_GOES_ON_RE.match(text, i + 1):
                return end
    if end is not None:
        return len(text)
    plain = text.find("。", start)   # brackets never closed
    return len(text) if plain < 0 else plain


def parse_sentencing(text: str) -> Sentencing:
    """One defendant's :class:`Sentencing` from the verdict's text for them (all of a verdict on one defendant).
    What the verdict says it quashes is left out, and of a charge sentenced twice (upheld, then sentenced again
    on appeal) the later sentence is kept.

    >>> s = parse_sentencing("被告人王某犯盗窃罪，判处有期徒刑八个月，并处罚金人民币三千元；与前罪判处的有期徒刑一年并罚，"
    ...                      "决定执行有期徒刑一年六个月，并处罚金人民币三千元。")
    >>> s.charges, s.executed.months, s.combined_with_prior
    ((('盗窃', Penalty(principal='有期徒刑', months=8, suspended=False, fine=True, fine_yuan=3000.0)),), 18, True)
    """
    text = text.split(APPEAL_NOTICE)[0]
    starts = [m.end() for m in ITEM_START_RE.finditer(text)]
    prior = [(m.start(), m.end()) for m in COMBINED_WITH_PRIOR_RE.finditer(text)]
    found = [m for m in CHARGE_SENTENCE_RE.finditer(text)
             if not any(a <= m.start() < b for a, b in prior) and not _quashed(text, m.start(), starts)]
    ends = [m.start() for m in CHARGE_SENTENCES_END_RE.finditer(text)] + [a for a, _ in prior]
    said: list[tuple[str, Penalty, bool]] = []   # (charge, penalty, quoted as upheld)
    for i, m in enumerate(found):
        nxt = found[i + 1].start() if i + 1 < len(found) else len(text)
        stop = min([e for e in ends if e > m.end()] + [nxt, _sentence_end(text, m.end())])
        if penalty := parse_penalty(text[m.end():stop]):
            said.append((m.group("charge") or m.group("bare"), penalty, _upheld_quote(text, m.start(), starts)))
    charges = [(c, p) for i, (c, p, upheld) in enumerate(said)
               if not (upheld and any(c == later for later, _, _ in said[i + 1:]))]
    served = [m.end() for m in EXECUTED_RE.finditer(text) if not _quashed(text, m.start(), starts)]
    executed = parse_penalty(text[served[-1]:_sentence_end(text, served[-1])]) if served else None
    decided = executed is not None
    if executed is None:
        executed = charges[0][1] if len(charges) == 1 else parse_penalty(text)
    if executed:   # often ordered in an item of their own: 二、对被告人…限制减刑。 / 对被告人…驱逐出境
        limited = executed.principal == "死刑" and executed.suspended and _ordered(text, COMMUTATION_LIMITED, starts)
        executed = replace(executed, commutation_limited=limited,
                           expulsion=executed.expulsion or _ordered(text, EXPULSION, starts))
    return Sentencing(tuple(charges), executed, decided, bool(prior))


def sentencing_by_defendant(verdict: str) -> list[tuple[str, Sentencing]]:
    """(name, :class:`Sentencing`) for each defendant a verdict sentences, in order ('' for the name of a verdict
    that names none)."""
    operative = verdict.split(APPEAL_NOTICE)[0]
    parts = _by_defendant(operative)
    if not parts:
        first = DEFENDANT_ITEM_RE.search(operative)
        parts = [((first.group("name") or first.group("unit")) if first else "", operative)]
    return [(name, s) for name, part in parts if (s := parse_sentencing(part)).executed is not None]


def served_months(verdict: str) -> float | None:
    """The longest sentence any defendant of ``verdict`` is to serve (:func:`sentencing_by_defendant`), in months as
    :func:`~jiancha.law.penalties.parse_prison_months` counts them (fixed-term prison; 0 for 拘役, 管制, a fine or
    exemption alone; ``LIFE_MONTHS`` for life or death); what the verdict quashes is left out. None when it sentences
    no one.

    >>> served_months("一、撤销原判，即被告人甲犯抢劫罪，判处有期徒刑十年。二、上诉人甲犯抢劫罪，判处有期徒刑三年。")
    36.0
    """
    months = [LIFE_MONTHS if p.principal in ("无期徒刑", "死刑") else float(p.months or 0) if p.principal == "有期徒刑"
              else 0.0 for _, s in sentencing_by_defendant(verdict) if (p := s.executed) is not None]
    return max(months) if months else None
