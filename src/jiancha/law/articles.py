"""Article citations: parse any citation form into ``ArticleRef`` and format the PDP-Bench canonical string.

Canonical form (PDP-Bench ``relevant_articles``): ``<law>:第<N>条[之<M>][第<K>款][第（<I>）项]`` with Chinese
numerals, e.g. ``cl:第一百三十三条之一``, ``cpl:第一百七十七条第二款``, ``cpl:第十六条第（一）项``.

Parsing rules of :func:`parse_articles` (one left-to-right scan with a single precompiled regex):

* a law name (``《中华人民共和国刑法》``, ``刑法``, ``刑诉法``, ``人民检察院刑事诉讼规则（试行）``, ``cl:`` …) sets
  the current law; bare ``第N条`` citations after it belong to it until another law name or the end of the
  sentence (``。！？``), after which ``default_law`` applies again;
* the name of any other law or normative document (``《中华人民共和国道路交通安全法》``,
  ``最高人民法院关于适用《中华人民共和国刑事诉讼法》的解释``, ``刑法修正案（八）``) switches the current law to
  "other": its articles are skipped, never attributed to cl/cpl/cpr;
* ``第K款`` / ``第（I）项`` directly after a citation (only list separators between) continue that citation
  (``第六十七条第一款、第三款``), and several paragraphs or items in one phrase expand into one reference each
  (``第六十九条第一、三款``, ``第十六条第（一）、（二）项``, ``第二百三十六条第一款第（一）（二）项``);
* in a list, an article may lack its 第 (``第六十四条、七十二条第一款``) and 条 may be missing before a paragraph
  (``第三百四十七第一款``), two slips found in published judgments; a number with 条 outside a list or right
  after a law name is a count, not a citation (``卷烟二十条``);
* a 《title》 holding 关于 (``《最高人民法院〈关于…的解释〉》``) and any other title followed by an article
  (``《中华人民共和国民法通则》第一百一十九条``) is another document: its articles are skipped;
* ``该条第K款`` (also 本条, 同条, 此条) is paragraph K of the article cited last, in this sentence or before;
* a citation preceded by a negation (``不适用``, ``不依照`` … see ``patterns.NEGATION_PATTERN``) is skipped
  together with the rest of its list; ``不符合…第N条规定的…`` cites the article (the measure the facts fail).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from jiancha.errors import ParseError
from jiancha.law import patterns as P
from jiancha.law.numerals import CN_NUMERAL_CHARS, int_to_cn, parse_number


class Law(str, Enum):
    """Laws cited in PDP-Bench, by their canonical prefix."""

    CRIMINAL_LAW = "cl"          # 中华人民共和国刑法
    CRIMINAL_PROCEDURE = "cpl"   # 中华人民共和国刑事诉讼法
    PROCURATORATE_RULES = "cpr"  # 人民检察院刑事诉讼规则


#: Order of laws in canonical lists.
LAW_ORDER: tuple[Law, ...] = (Law.CRIMINAL_LAW, Law.CRIMINAL_PROCEDURE, Law.PROCURATORATE_RULES)


@dataclass(frozen=True, order=True)
class ArticleRef:
    """One cited provision. ``suffix`` is the N of 条之N (0 when absent); ``paragraph`` 款, ``item`` 项."""

    law: Law
    article: int
    suffix: int = 0
    paragraph: int | None = None
    item: int | None = None

    def canonical(self) -> str:
        """PDP-Bench canonical string, e.g. ``cl:第一百三十三条之一第一款第（二）项``."""
        parts = [Law(self.law).value, ":第", int_to_cn(self.article), "条"]
        if self.suffix:
            parts += ["之", int_to_cn(self.suffix)]
        if self.paragraph is not None:
            parts += ["第", int_to_cn(self.paragraph), "款"]
        if self.item is not None:
            parts += ["第（", int_to_cn(self.item), "）项"]
        return "".join(parts)

    def article_level(self) -> ArticleRef:
        """The same reference without paragraph and item (for article-level partial credit)."""
        return ArticleRef(self.law, self.article, self.suffix)

    def __str__(self) -> str:
        return self.canonical()


# --------------------------------------------------------------------------------------------------- regexes

_NAME_CHAR = r"[\u4e00-\u7b2b\u7b2d-\u9fff]"  # CJK ideographs except 第
_SUFFIXES = "|".join(sorted(P.NORMATIVE_SUFFIXES, key=len, reverse=True))
_ALIASES_BY_LENGTH = sorted(P.ALIAS_TO_LAW, key=len, reverse=True)
_PLAIN_ALIAS = "|".join(re.escape(a) for a in _ALIASES_BY_LENGTH if "(" not in a and "（" not in a)
_ARTICLE_AHEAD = rf"(?=\s*[:：]?\s*(?:第\s*{P.NUM}|[0-9０-９]+)\s*条)"

_TOKEN = re.compile(
    "|".join([
        rf"(?P<article>{P.ARTICLE_PATTERN})",
        r"(?<![A-Za-z])(?P<canon>[Cc][Pp][LlRr]|[Cc][Ll])\s*[:：]",
        r"《(?P<title>[^《》\n]{1,120})》",
        # A name followed by an article: classified by its ending (刑法 → cl, 道路交通安全法 → other law).
        rf"(?P<name>{_NAME_CHAR}{{0,30}}?(?:{_SUFFIXES})){P.VERSION_NOTE}?{_ARTICLE_AHEAD}",
        # A PDP law named without an article right after it (``刑法：…``).
        rf"(?P<alias>{_PLAIN_ALIAS})(?:{re.escape(P.TRIAL_VERSION_NOTE)}|\(试行\))?(?!修正|的?解释|实施)",
        # "that article": a paragraph or item of the article cited last (``第二百四十六条…，依照该条第二款``).
        r"(?P<same_art>(?:该|本|同|此)条)(?=\s*第)",
        rf"(?P<cont_para>{P.PARAGRAPH_PATTERN})",
        rf"(?P<cont_item>{P.ITEM_PATTERN})",
        rf"(?P<stop>[{P.SENTENCE_END_CHARS}])",
    ])
)
_VERSION_TAIL = re.compile(rf"{P.VERSION_NOTE}$")
_TITLE_NOISE = re.compile(r"[\s〈〉<>﹤﹥＜＞“”\"]")
_ARTICLE_AFTER = re.compile(_ARTICLE_AHEAD)
_INTERPRETATION_AFTER = re.compile(r"\s*的?(?:司法)?(?:解释|若干|实施|修正)")
_ABOUT_BEFORE = re.compile(rf"关于{_NAME_CHAR}{{0,12}}$")
_CURRENT_LAW_NAMES = ("本法", "该法", "同法", "前法")

_OTHER = "other"  # sentinel: a law that is not cl/cpl/cpr


def _classify_name(name: str) -> str | None:
    """Law prefix for a name (``…刑法`` → cl), ``_OTHER`` for any other law, None for 本法/该法."""
    if name.endswith(_CURRENT_LAW_NAMES):
        return None
    if "关于" in name:
        return _OTHER
    for alias in _ALIASES_BY_LENGTH:
        if name.endswith(alias):
            return P.ALIAS_TO_LAW[alias]
    return _OTHER


def _classify_title(title: str) -> str | None:
    """Law prefix of a 《title》, ``_OTHER`` for another normative document, None for non-laws (《起诉书》).

    Inner quotation marks are ignored (``最高人民法院〈关于…的解释〉``); a title holding ``关于`` names an
    interpretation, decision or opinion, never the law itself.
    """
    t = _TITLE_NOISE.sub("", title)
    if t in P.ALIAS_TO_LAW:
        return P.ALIAS_TO_LAW[t]
    core = _VERSION_TAIL.sub("", t)
    if core in P.ALIAS_TO_LAW and not core.endswith(P.AMENDMENT_SUFFIX):
        return P.ALIAS_TO_LAW[core]
    if "关于" in core or core.endswith(P.NORMATIVE_SUFFIXES):
        return _OTHER
    return None


def _negated(text: str, start: int) -> bool:
    return P.NEGATION_PATTERN.search(text, max(0, start - 14), start) is not None


def _number(s: str | None) -> int | None:
    return None if s is None else parse_number(s)


def _numbers(s: str | None) -> list[int | None]:
    """The numbers of a paragraph or item list (``一、三`` → [1, 3], ``（一）（二）`` → [1, 2]); [None] when absent."""
    if s is None:
        return [None]
    return [parse_number(n) for n in P.LIST_NUMBER.findall(s)]


def _expand(paras: list[int | None], items: list[int | None]) -> list[tuple[int | None, int | None]]:
    """(paragraph, item) pairs of one citation: each listed paragraph, or each listed item of the last paragraph
    (``第一、二款第（三）项`` → (1, None), (2, 3))."""
    if len(items) == 1:
        return [(p, None) for p in paras[:-1]] + [(paras[-1], items[0])]
    return [(p, None) for p in paras[:-1]] + [(paras[-1], i) for i in items]


# ---------------------------------------------------------------------------------------------------- parsing

def parse_articles(text: str, *, default_law: Law | None = None) -> list[ArticleRef]:
    """All citations in ``text``, in order of appearance, deduplicated. Negated mentions are skipped.

    Bare ``第N条`` citations with no law named before them (in the same sentence) get ``default_law``, or are
    skipped when it is None.

    >>> [r.canonical() for r in parse_articles("依照《中华人民共和国刑法》第二百六十四条、第六十七条第三款")]
    ['cl:第二百六十四条', 'cl:第六十七条第三款']
    """
    if "第" not in text and "条" not in text:
        return []
    default = None if default_law is None else Law(default_law).value
    law: str | None = default
    negated = False
    last: tuple[str | None, int, int, int | None, bool] | None = None  # law, art, suffix, para, skipped
    recent: tuple[str | None, int, int, int | None, bool] | None = None  # the article cited last, any sentence
    last_end = 0
    after_law = False  # the previous token was a law name
    seen: dict[ArticleRef, None] = {}

    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        start = m.start()
        gap_is_list = P.LIST_GAP_PATTERN.fullmatch(text, last_end, start) is not None
        if kind == "stop":
            law, negated, last, after_law = default, False, None, False
            last_end = m.end()
            continue
        if kind in ("title", "name", "alias", "canon"):
            new_law, core_start = _law_of_token(text, m, kind)
            if new_law is None and kind in ("title",):
                continue  # a document title such as 《起诉书》: no effect
            if new_law is not None:
                law = new_law
            core_gap_is_list = P.LIST_GAP_PATTERN.fullmatch(text, last_end, max(last_end, core_start)) is not None
            negated = _negated(text, core_start) or (negated and core_gap_is_list)
            last = None
            last_end = m.end()
            after_law = True
            continue
        if kind == "same_art":
            if recent is not None:
                last = (*recent[:3], None, recent[4] or _negated(text, start))
            last_end = m.end()
            continue
        # citations
        if kind == "article":
            if m["art"] is None and not (gap_is_list and (after_law or last is not None)):
                last, last_end, after_law = None, m.end(), False  # "共3条" is no citation
                continue
            negated = _negated(text, start) or (negated and gap_is_list)
            try:
                art = parse_number(m["art"] or m["art_d"])
                suf = _number(m["suf"]) or 0
                paras = _numbers(m["para"])
                items = _numbers(m["item_p"] or m["item_n"])
            except ParseError:
                last, last_end = None, m.end()
                continue
            skipped = negated or law is None or law == _OTHER
        else:
            if last is None or not gap_is_list:
                last, last_end = None, m.end()  # 判决第一项、第三项: items of a judgment, not of the last article
                continue
            _, art, suf, last_para, skipped = last
            try:
                if kind == "cont_para":
                    paras = _numbers(m["cpara"])
                    items = _numbers(m["citem_p"] or m["citem_n"])
                else:
                    paras = [last_para]
                    items = _numbers(m["iitem_p"] or m["iitem_n"])
            except ParseError:
                last_end = m.end()
                continue
        last = (law if kind == "article" else last[0], art, suf, paras[-1], skipped)
        recent = last
        last_end = m.end()
        after_law = False
        if not skipped:
            for para, item in _expand(paras, items):
                seen.setdefault(ArticleRef(Law(last[0]), art, suf, para, item), None)
    return list(seen)


def _law_of_token(text: str, m: re.Match[str], kind: str) -> tuple[str | None, int]:
    """(law prefix or ``_OTHER`` or None for no change, start of the law name proper)."""
    if kind == "canon":
        return m["canon"].lower(), m.start()
    if kind == "title":
        law = _classify_title(m["title"])
        if law is None and _ARTICLE_AFTER.match(text, m.end()):
            law = _OTHER  # a title followed by an article is a law, and not one of ours (《民法通则》第…条)
        if law is not None and law != _OTHER and (
                _INTERPRETATION_AFTER.match(text, m.end()) or _ABOUT_BEFORE.search(text, max(0, m.start() - 16), m.start())):
            law = _OTHER
        return law, m.start()
    if kind == "alias":
        alias = m["alias"]
        return P.ALIAS_TO_LAW[alias], m.start()
    name = m["name"]
    law = _classify_name(name)
    if law is None or law == _OTHER:
        return law, m.start()
    for alias in _ALIASES_BY_LENGTH:
        if name.endswith(alias):
            return law, m.start("name") + len(name) - len(alias)
    return law, m.start()  # pragma: no cover - _classify_name found an alias


# ----------------------------------------------------------------------------------------- canonical strings

_CN = CN_NUMERAL_CHARS
_CANONICAL = re.compile(
    rf"(?P<law>cl|cpl|cpr):第(?P<art>[{_CN}]+)条(?:之(?P<suf>[{_CN}]+))?(?:第(?P<para>[{_CN}]+)款)?"
    rf"(?:第（(?P<item>[{_CN}]+)）项)?"
)


def parse_canonical(s: str) -> ArticleRef:
    """Parse a canonical string (``cpl:第一百七十七条第二款``); raise ParseError on anything else.

    Strict: the string must be exactly what :meth:`ArticleRef.canonical` produces (no spaces, Chinese numerals
    in legal form, full-width parentheses). Use :func:`normalize_article_string` for lenient input.
    """
    if not isinstance(s, str):
        raise ParseError(f"article string must be a str, got {type(s).__name__} {s!r}")
    m = _CANONICAL.fullmatch(s)
    if m is None:
        raise ParseError(
            f"not a canonical article string: {s!r}; expected e.g. 'cl:第一百三十三条之一', "
            f"'cpl:第一百七十七条第二款' or 'cpl:第十六条第（一）项' (law one of cl/cpl/cpr)")
    try:
        ref = ArticleRef(Law(m["law"]), parse_number(m["art"]), _number(m["suf"]) or 0,
                         _number(m["para"]), _number(m["item"]))
    except ParseError as e:
        raise ParseError(f"bad number in article string {s!r}: {e}") from None
    if ref.canonical() != s:
        raise ParseError(f"article string {s!r} is not in canonical form; expected {ref.canonical()!r}")
    return ref


def normalize_article_string(s: str, *, default_law: Law | None = None) -> str | None:
    """Canonical string for any single-citation string (``cl:第264条``, ``刑法第264条``), else None.

    Returns None when the string holds no citation or more than one.

    >>> normalize_article_string("cl:《刑法》第二百六十四条"), normalize_article_string("第1条、第2条")
    ('cl:第二百六十四条', None)
    """
    if not isinstance(s, str):
        return None
    refs = parse_articles(s.strip(), default_law=default_law)
    return refs[0].canonical() if len(refs) == 1 else None


def canonical_sort(refs: list[str]) -> list[str]:
    """PDP-Bench order: all cl, then cpl, then cpr, each by first appearance, deduplicated.

    Strings with any other prefix keep their relative order after the cpr group.
    """
    rank = {law.value: i for i, law in enumerate(LAW_ORDER)}
    unique = list(dict.fromkeys(refs))
    order = {s: i for i, s in enumerate(unique)}
    return sorted(unique, key=lambda s: (rank.get(s.split(":", 1)[0], len(rank)), order[s]))


def render_articles(refs: list[ArticleRef]) -> list[str]:
    """Canonical strings of ``refs`` in PDP-Bench order (cl, cpl, cpr; first appearance; deduplicated)."""
    return canonical_sort([r.canonical() for r in refs])


def article_name(canonical: str) -> str:
    """How a citation is shown: the law's usual short name, then the article; any other string unchanged.

    >>> article_name("cl:第二百六十四条"), article_name("cpr:第三百七十条"), article_name("道路交通安全法第91条")
    ('刑法第二百六十四条', '人民检察院刑事诉讼规则第三百七十条', '道路交通安全法第91条')
    """
    names = {Law.CRIMINAL_LAW.value: P.LAW_ALIASES[Law.CRIMINAL_LAW.value][1],
             Law.CRIMINAL_PROCEDURE.value: P.LAW_ALIASES[Law.CRIMINAL_PROCEDURE.value][1],
             Law.PROCURATORATE_RULES.value: P.PROCURATORATE_RULES_TITLE}
    prefix, sep, rest = canonical.partition(":")
    name = names.get(prefix)
    return name + rest if sep and name else canonical
