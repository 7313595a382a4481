"""Penalties as verdicts word them: the principal penalty (主刑) with its term, suspension and accessory penalties
(:class:`Penalty`, :func:`parse_penalty`), months of prison, and the sentencing band they fall in."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

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


def term_months(years: str | None, months: str | None) -> int:
    """Months of a term worded in years and months (Chinese or Arabic numerals, either absent); a numeral that does
    not parse counts 0."""
    from jiancha.errors import ParseError
    from jiancha.law.numerals import parse_number

    def number(s: str | None) -> int:
        try:
            return parse_number(s) if s else 0
        except ParseError:
            return 0

    return 12 * number(years) + number(months)


def parse_prison_months(verdict: str) -> float | None:
    """The longest fixed prison term the verdict imposes, in months; 0 for only 拘役/管制/罚金/免予处罚,
    :data:`LIFE_MONTHS` for life or death; None when the verdict names no penalty.

    >>> parse_prison_months("判处有期徒刑三年六个月，并处罚金"), parse_prison_months("判处拘役四个月")
    (42.0, 0.0)
    """
    if any(w in verdict for w in LIFE_OR_DEATH):
        return LIFE_MONTHS
    terms = [term_months(m.group(1), m.group(2)) for m in PRISON_TERM_RE.finditer(verdict)]
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
#: The accessory penalties (附加刑, Criminal Law arts. 34–35) besides the fine: deprivation of political rights for
#: a term or for life (剥夺政治权利三年 / 剥夺政治权利终身), confiscation of property (并处没收个人全部财产 / 没收财产
#: 二十五万元; not 没收违法所得, which is no penalty) and, for a foreigner, expulsion.
RIGHTS_DEPRIVED_RE = re.compile(rf"剥夺政治权利(?:(终身)|(?:([{CN_NUMERAL_CHARS}\d]+)年)?(?:([{CN_NUMERAL_CHARS}\d]+)个?月)?)")
FOR_LIFE = "终身"
CONFISCATION_RE = re.compile(r"没收(?:其)?(?:个人)?(?:全部|部分)?财产")
ALL_PROPERTY = "全部"
#: Where the amount of a fine or of property confiscated is looked for: the characters after 罚金 / 没收…财产, up to
#: the end of its clause (并处罚金人民币五千元，… / 罚金1.5万元（已缴纳）).
AMOUNT_WINDOW = 30
AMOUNT_CLAUSE_END_RE = re.compile(r"[，,；;。）)]")
#: The probation of a suspended sentence: 缓刑二年 / 缓刑考验期限为一年六个月.
PROBATION_RE = re.compile(rf"缓刑(?:考验期限?为?)?(?:([{CN_NUMERAL_CHARS}\d]+)年)?(?:([{CN_NUMERAL_CHARS}\d]+)个?月)?")
EXPULSION = "驱逐出境"
#: A sentence after the one imposing a penalty that goes on with its accessory penalties (…止）。剥夺政治权利一年。 /
#: 刑满后驱逐出境。).
ACCESSORY_GOES_ON_RE = re.compile(r"\s*(?:剥夺政治权利|并处|附加|(?:刑满后|并)?驱逐出境)")
#: A suspended death sentence whose commutation the court limits (同时决定对其限制减刑, Criminal Law art. 50).
COMMUTATION_LIMITED = "限制减刑"

#: What a verdict says it quashes, or of a suspension it revokes (撤销…宣告缓刑).
QUASHED = "撤销"


#: The principal penalties (主刑) a :class:`Penalty` names; 免予刑事处罚 and 单处罚金 stand for a conviction without
#: one and for a fine alone.
PRINCIPAL_PENALTIES: tuple[str, ...] = ("有期徒刑", "拘役", "管制", "无期徒刑", "死刑", "免予刑事处罚", "单处罚金")


@dataclass(frozen=True)
class Penalty:
    """A principal penalty as a verdict imposes it: one of :data:`PRINCIPAL_PENALTIES`, its months for 有期徒刑 /
    拘役 / 管制 (else None), whether it is suspended (缓刑; for 死刑, 缓期二年执行), and the accessory penalties that
    come with it: a fine, deprivation of political rights (its term as :func:`render_rights_term` words it, '' when
    none), confiscation of property, expulsion; for a suspended death sentence, whether commutation is limited; and
    the details a verdict states: the probation term, the amounts of the fine and of property confiscated."""

    principal: str
    months: int | None = None
    suspended: bool = False
    fine: bool = False
    rights_deprived: str = ""
    confiscation: bool = False
    expulsion: bool = False
    commutation_limited: bool = False
    probation_months: int | None = None    # the 缓刑考验期, when the verdict states it
    fine_yuan: float | None = None          # the fine's amount (of 单处罚金 too), when stated
    confiscation_all: bool = False          # 没收个人全部财产
    confiscation_yuan: float | None = None  # 没收财产人民币二十万元

    def __post_init__(self):
        if self.principal not in PRINCIPAL_PENALTIES:
            raise ValueError(f"{self.principal!r} is not one of {', '.join(PRINCIPAL_PENALTIES)}")

    def __repr__(self) -> str:   # the fields a verdict sets, after the first four
        shown = [f for i, f in enumerate(fields(self)) if i < 4 or getattr(self, f.name) != f.default]
        return f"Penalty({', '.join(f'{f.name}={getattr(self, f.name)!r}' for f in shown)})"

    def describe(self, *, accessory: bool = True) -> str:
        """有期徒刑1年6个月（缓刑2年），并处罚金5000元 / 拘役4个月 / 死刑缓期二年执行，限制减刑，剥夺政治权利终身，并处没收个人
        全部财产 / 无期徒刑 / 单处罚金3万元 / 免予刑事处罚; without the accessory penalties when not ``accessory``."""
        from jiancha.law.amounts import render_yuan

        if self.principal == "死刑":
            core = "死刑缓期二年执行" if self.suspended else "死刑"
            core += "，限制减刑" if self.commutation_limited else ""
        elif self.principal in ("有期徒刑", "拘役", "管制"):
            core = render_term(self.months) if self.principal == "有期徒刑" else f"{self.principal}{self.months}个月"
            probation = render_term(self.probation_months).removeprefix("有期徒刑") if self.probation_months else ""
            core += f"（缓刑{probation}）" if self.suspended else ""
        else:
            core = self.principal
        if not accessory:
            return core
        if self.principal == "单处罚金" and self.fine_yuan:
            core += render_yuan(self.fine_yuan)
        added = [f"剥夺政治权利{self.rights_deprived}"] if self.rights_deprived else []
        fine = "罚金" + (render_yuan(self.fine_yuan) if self.fine_yuan else "")
        confiscated = ("没收个人全部财产" if self.confiscation_all else
                       "没收财产" + (render_yuan(self.confiscation_yuan) if self.confiscation_yuan else ""))
        joined = [word for word, on in ((fine, self.fine), (confiscated, self.confiscation)) if on]
        added += ["并处" + "、".join(joined)] if joined else []
        added += [EXPULSION] if self.expulsion else []
        return "，".join([core, *added])


def render_rights_term(match: re.Match) -> str:
    """The term of a :data:`RIGHTS_DEPRIVED_RE` match: 终身, 3年, 1年6个月; '' when it names none."""
    if match.group(1):
        return FOR_LIFE
    months = term_months(match.group(2), match.group(3))
    y, m = divmod(months, 12)
    return (f"{y}年" if y else "") + (f"{m}个月" if m else "")


def _accessory(text: str) -> dict[str, object]:
    from jiancha.law.amounts import parse_amounts

    def amount_after(end: int | None) -> float | None:
        if end is None:
            return None
        found = parse_amounts(AMOUNT_CLAUSE_END_RE.split(text[end:end + AMOUNT_WINDOW], maxsplit=1)[0])
        return found[0] if found else None

    rights = next((t for m in RIGHTS_DEPRIVED_RE.finditer(text) if (t := render_rights_term(m))), "")
    confiscated = CONFISCATION_RE.search(text)
    fine_at = text.find(FINE)
    return {"fine": fine_at >= 0, "rights_deprived": rights, "confiscation": confiscated is not None,
            "expulsion": EXPULSION in text, "fine_yuan": amount_after(fine_at + len(FINE) if fine_at >= 0 else None),
            "confiscation_all": bool(confiscated and ALL_PROPERTY in confiscated.group(0)),
            "confiscation_yuan": amount_after(confiscated.end() if confiscated else None)}


def _probation(text: str) -> int | None:
    """Months of the probation (缓刑考验期) ``text`` states in a clause that does not revoke one."""
    from jiancha.law.patterns import CLAUSE_RE

    for c in (m.group(0) for m in CLAUSE_RE.finditer(text)):
        if QUASHED not in c and (m := PROBATION_RE.search(c)) and (m.group(1) or m.group(2)):
            return term_months(m.group(1), m.group(2)) or None
    return None


def parse_penalty(text: str) -> Penalty | None:
    """The principal penalty ``text`` imposes (the longest prison term where it names several), with the accessory
    penalties it names; None when it imposes none.

    >>> parse_penalty("判处有期徒刑一年零六个月，缓刑二年，并处罚金人民币二千元")
    Penalty(principal='有期徒刑', months=18, suspended=True, fine=True, probation_months=24, fine_yuan=2000.0)
    >>> parse_penalty("判处死刑，缓期二年执行，剥夺政治权利终身").describe(), parse_penalty("驳回上诉，维持原判")
    ('死刑缓期二年执行，剥夺政治权利终身', None)
    """
    extra = _accessory(text)
    months = parse_prison_months(text)
    if months is not None and months >= LIFE_MONTHS:
        if "死刑" in text:
            return Penalty("死刑", suspended=DEATH_SUSPENDED in text,
                           commutation_limited=COMMUTATION_LIMITED in text, **extra)
        return Penalty("无期徒刑", **extra)
    if months:
        suspended = _suspended(text)
        return Penalty("有期徒刑", int(months), suspended, probation_months=_probation(text) if suspended else None,
                       **extra)
    short = next((m for m in SHORT_TERM_RE.finditer(text) if m.group(2) or m.group(3)), None)
    if short:
        suspended = _suspended(text)
        return Penalty(short.group(1), term_months(short.group(2), short.group(3)), suspended,
                       probation_months=_probation(text) if suspended else None, **extra)
    if any(w in text for w in EXEMPTION):
        return Penalty(EXEMPTION[0])
    if extra["fine"]:     # no prison, detention or control imposed: the fine alone, which is then no accessory
        return Penalty("单处罚金", **(extra | {"fine": False}))
    return None


def _suspended(text: str) -> bool:
    """Whether ``text`` suspends a sentence: 缓刑 in a clause that does not revoke one (撤销…宣告缓刑…)."""
    from jiancha.law.patterns import CLAUSE_RE

    return any(SUSPENDED in c and QUASHED not in c for c in (m.group(0) for m in CLAUSE_RE.finditer(text)))
