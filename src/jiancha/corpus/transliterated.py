"""Names written by their sound: transliterated names with a middle dot (古丽娜尔·艾山, 伊万诺娃·奥莉加), long ones
without it (乌力吉巴雅尔), and foreigners' names in Latin letters (KIM SUNG HO, 黄氏梅（Hoang Thi Mai）). Where such a
name begins and ends is read from the characters transliterations use (``TRANSLIT_CHARS``) and the segmenter's
dictionary, wherever it stands, with or without a context word before it.
"""

from __future__ import annotations

import itertools
import re

import rjieba

from jiancha.corpus.name_shape import CJK, STOP_CHARS, WORD_RE, plausible_name, segmenter_allows_name
from jiancha.corpus.names import TRANSLIT_CHARS
from jiancha.law.phrases import LATIN_NAME_RE

#: A run of ideographs holding middle dots (``并聘请古丽娜尔·艾山担任翻译``), where transliterated names stand
#: (``dotted_names`` decides where each begins and ends); not in a title (《…》).
_DOTTED_RUN = f"[{CJK}]+(?:[·•・][{CJK}]+)+"
_RUN_DOTTED_RE = re.compile(f"(?<![{CJK}《]){_DOTTED_RUN}")
_DOTTED_AT_RE = re.compile(_DOTTED_RUN)
_DOT_SPLIT_RE = re.compile("([·•・])")
#: The middle dot of a transliterated name, in any of its forms.
DOTTED_NAME_MARK = re.compile("[·•・]")
#: How the names of housing compounds and buildings end, which take a middle dot too (``碧桂园·凤凰城``).
_COMPOUND_ENDINGS = ("城", "园", "苑", "府", "湾", "居", "庭", "小区", "广场", "大厦", "公馆", "中心", "国际")
#: A foreigner's name in Latin letters after their nationality (``俄罗斯籍旅客IVANOVA OLGA``, ``日本籍商人TANAKA``).
NATIONAL_LATIN_RE = re.compile(f"籍[{CJK}]{{0,6}}?(?P<name>{LATIN_NAME_RE.pattern})")
#: Words of a company's or a body's name in capitals, which a run of capitals holding one is (``ABC TRADING CO``).
_LATIN_BODY_WORDS = frozenset({"LTD", "CO", "INC", "LLC", "LIMITED", "COMPANY", "CORP", "CORPORATION", "GROUP",
                               "TRADING", "BANK", "INTERNATIONAL", "TECHNOLOGY", "INDUSTRIAL", "HOLDINGS", "CHINA",
                               "HOTEL", "KTV", "CLUB", "BAR", "SHOP", "STORE", "CENTER", "CENTRE", "UNIVERSITY"})
#: A foreigner's name in capitals, two words or more (``与韩国商人KIM SUNG HO签订``, ``HOANG THI MAI``): in Chinese
#: text such a run is a person's name unless it holds a company's word or a company follows it.
_CAPITALS_NAME_RE = re.compile(r"(?<![A-Za-z0-9])(?P<name>[A-Z]{2,}(?: [A-Z]{2,}){1,4})(?![A-Za-z0-9])(?!\s*(?:公司|有限|集团))")
#: A name in Latin letters in brackets right after a name in ideographs (``翻译人员黄氏梅（HOANG THI MAI）``,
#: ``证人宋蓬（SOMPHONE，老挝籍）``, ``卞凯文（英文名Kevin）``), not after a company's name.
_BRACKETED_LATIN_RE = re.compile(f"(?<=[{CJK}])(?<!公司)(?<!集团)(?<!银行)[（(](?:(?:英文|外文|[{CJK}]{{1,3}}(?:文|语))名[:：]?)?"
                                 f"(?P<name>{LATIN_NAME_RE.pattern})[）)，,；;]")


def latin_names(text: str) -> list[str]:
    """Foreigners' names in Latin letters that no context word introduces: runs of two or more words in
    capitals, and a Latin name in brackets after a name in ideographs; not a company's name, not an acronym, not a
    species' name (its last word in lower case).

    >>> latin_names("与韩国商人KIM SUNG HO签订合同；翻译人员黄氏梅（Hoang Thi Mai）；ABC TRADING CO公司；经DNA鉴定；"
    ...             "检出甲基苯丙胺（MA）；在某酒吧（LUCKY BAR）；蜂猴（Nycticebus bengalensis）")
    ['KIM SUNG HO', 'Hoang Thi Mai']
    """
    found = [m["name"] for m in _CAPITALS_NAME_RE.finditer(text)]
    found += [m["name"] for m in _BRACKETED_LATIN_RE.finditer(text)
              if (" " in m["name"] and not m["name"].rsplit(" ", 1)[1].islower())   # 蜂猴（Nycticebus bengalensis）
              or (" " not in m["name"] and len(m["name"]) >= 4 and not (m["name"].isupper() and len(m["name"]) <= 5))]
    return list(dict.fromkeys(n for n in found if not _LATIN_BODY_WORDS.intersection(n.upper().split())))


def dotted_names(text: str) -> list[str]:
    """Transliterated names with a middle dot wherever they stand, the words around them left out: the segmenter's
    words next to each dot belong to the name, and the characters of transliterated names around them
    (``TRANSLIT_CHARS``) up to a word that is not all of them.

    >>> dotted_names("并聘请古丽娜尔·艾山担任维吾尔语翻译人员，通知买买提·吐尔逊不起诉；住碧桂园·凤凰城；"
    ...              "阿依古丽·吐尔逊亦证实艾力·买买提明，经营者为古丽娜尔·阿不都拉。")
    ['古丽娜尔·艾山', '买买提·吐尔逊', '阿依古丽·吐尔逊', '艾力·买买提明', '古丽娜尔·阿不都拉']
    """
    out = []
    for m in _RUN_DOTTED_RE.finditer(text):
        first, *parts = _DOT_SPLIT_RE.split(m.group(0))
        out += _dotted_run(_name_tail(first), parts)
    return [n for n in out if plausible_name(n)]


def dotted_name_at(text: str, start: int) -> str | None:
    """The transliterated name with a middle dot that begins at ``start`` (right after a context word), if any."""
    if (m := _DOTTED_AT_RE.match(text, start)) is None:
        return None
    first, *parts = _DOT_SPLIT_RE.split(m.group(0))
    names = _dotted_run(first, parts) if len(first) <= 8 else []
    return names[0] if names else None


def _dotted_run(first: str, parts: list[str]) -> list[str]:
    """The names in a run of parts joined by middle dots, ``first`` the first part of the first name and ``parts``
    the dots and parts after it: a part that is not all name (``吐尔逊亦证实艾力``) ends one name and begins the
    next."""
    names = []
    name = first
    for i in range(1, len(parts), 2):
        dot, part, last = parts[i - 1], parts[i], i == len(parts) - 1
        if not last and len(part) <= _PART_MAX and all(c in TRANSLIT_CHARS for c in part):
            name += dot + part
            continue
        head = _name_head(part)
        name += dot + head
        if not (first + part).endswith(_COMPOUND_ENDINGS) and not part[len(head):].startswith(_COMPOUND_ENDINGS) \
                and not name.endswith(_COMPOUND_ENDINGS):
            names.append(name)
        name = _name_tail(part)
    return names


#: Tags of the segmenter's words that a name stops at even when written in its characters: numerals, measure
#: words, times, adverbs, prepositions, conjunctions (彼得罗娃 | 多次).
_FUNCTION_TAGS = frozenset({"m", "mq", "q", "t", "d", "p", "c"})
#: The longest part of a transliterated name between dots (阿不都热依木).
_PART_MAX = 10
#: Characters of transliterated names that are also function words (吐尔逊不 | 起诉, 和 | 阿依古丽): not at a
#: name's edge.
_EDGE_STOPS = STOP_CHARS | {"不"}


def _name_tail(run: str) -> str:
    """The end of ``run`` that is the first part of a dotted name: the segmenter's last word, and the characters of
    transliterated names before it up to a word of the dictionary that is not all of them (委托 | 阿依古丽)."""
    j = len(run) - _edge_word(rjieba.tag(run)[-1], reverse=True)
    while j > 0 and run[j - 1] in TRANSLIT_CHARS and len(run) - j < _PART_MAX and not any(
            _ends_name(run[j - k: j]) for k in (2, 3, 4) if k <= j):
        j -= 1
    while j < len(run) - 1 and run[j] in _EDGE_STOPS:   # 因 | 艾力, even in one word of the segmenter
        j += 1
    return run[j:]


def _name_head(run: str) -> str:
    """The start of ``run`` that is the last part of a dotted name: the segmenter's first word, and the characters of
    transliterated names after it up to a word of the dictionary that is not all of them (买买提明 | 到场,
    托合提 | 参与, 吐尔逊 | 利用)."""
    first = _edge_word(rjieba.tag(run)[0], reverse=False)
    i = first
    while i < len(run) and run[i] in TRANSLIT_CHARS and i < _PART_MAX and not any(
            _ends_name(run[i: i + k]) for k in (2, 3, 4) if i + k <= len(run)):
        i += 1
    while i > first and run[i - 1] in _EDGE_STOPS:   # not inside the first word: 阿不都 ends in 都
        i -= 1
    return run[:i]


def _edge_word(tagged: tuple[str, str], *, reverse: bool) -> int:
    """How many characters of the segmenter's word next to a dot surely belong to the name: the run of
    transliterated names' characters next to the dot (吐尔逊经 at a line's end: 吐尔逊), else all of a word tagged
    as a name, else one."""
    word, tag = tagged
    chars = reversed(word) if reverse else word
    run = sum(1 for _ in itertools.takewhile(TRANSLIT_CHARS.__contains__, chars))
    return run if run else len(word) if tag.startswith("nr") else 1


def _ends_name(word: str) -> bool:
    """Whether ``word``, next to a part of a transliterated name, is a word of the dictionary that the name stops
    at: one not all of the characters of transliterated names (委托, 利用; not 热合, 德克), or a numeral, adverb,
    preposition or conjunction (多次)."""
    return rjieba.has_word(word) and (not all(c in TRANSLIT_CHARS for c in word)
                                      or rjieba.tag(word)[0][1] in _FUNCTION_TAGS)


def long_transliterated_name(text: str, start: int) -> str | None:
    """A name of four characters or more at ``start`` written in the characters of transliterated names, up to a
    word that is not (``牧民乌力吉巴雅尔发现草场被挖``, ``巴特尔多次``: 巴特尔 is three), else None."""
    run = WORD_RE.match(text, start)
    if run is None or run.group(0)[0] not in TRANSLIT_CHARS:
        return None
    name = _name_head(run.group(0)[:_PART_MAX + 4])
    if len(name) < 4 or not all(c in TRANSLIT_CHARS for c in name) or not segmenter_allows_name(name) \
            or not plausible_name(name) or any(c in STOP_CHARS for c in name):
        return None
    return name
