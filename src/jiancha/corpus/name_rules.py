"""Context rules that find the names of natural persons in the text of a record (the recogniser in
``jiancha.corpus.ner`` finds the others): names in the person headers, after context words (犯罪嫌疑人 / 被害人 /
证人 / 辩护人 / 路人 / 职工 …) and in the lists after them, after a kinship word, before a gloss on a co-offender's
case (伙同X（在逃）), beside an already-masked name, nicknames and former names; the transliterated and foreign
names of ``jiancha.corpus.transliterated``. Pure functions; the patterns are compiled once.
"""

from __future__ import annotations

import re

import rjieba

from jiancha.corpus.name_shape import (
    CJK,
    COMMONEST_NOUN_FREQ,
    NOT_NAME_PARTS,
    NOT_NAMES,
    NOT_THIRD,
    NOUN_TAGS_COMMONEST,
    PARTICLES,
    STOP_CHARS,
    STOP_CLASS,
    TIME_TAGS,
    TIME_WORD_FREQ,
    WORD_RE,
    common_function_word,
    common_word_inside,
    dictionary_word,
    is_masked_form,
    opens_with_verb_or_modifier,
    plausible_name,
    segmenter_allows_name,
    word_ends,
)
from jiancha.corpus.names import (
    COMPOUND_SURNAMES,
    SINGLE_SURNAMES,
    TRANSLIT_CHARS,
    WORDLIKE_SURNAMES,
    surname_of,
)
from jiancha.corpus.transliterated import (
    NATIONAL_LATIN_RE,
    dotted_name_at,
    dotted_names,
    latin_names,
    long_transliterated_name,
)
from jiancha.law.phrases import (
    HEADER_NAME_END,
    LATIN_ALIAS_RE,
    LATIN_NAME_RE,
    NAME_ALIAS_RE,
    PERSON_CUES,
    PSEUDONYM_MARK,
    PSEUDONYM_SUFFIXES,
    REPRESENTATIVE_HEADER_RE,
    SUSPECT_HEADER_RE,
)

#: A transliterated name with a middle dot (阿不都热依木·买买提): its parts may hold characters that end other names
#: (都, 提), so the name ends at the first stop character, non-ideograph or verb that follows a person after it.
_DOTTED = f"[{CJK}]{{1,8}}(?:[·•・][{CJK}]{{1,8}}?)+"
#: One character of a name whatever its form (not one that ends a name), with or without the middle dot.
_NAME_CHAR = f"(?:(?![{STOP_CLASS}])[{CJK}·])"
_NAME_CHAR_NO_DOT = f"(?:(?![{STOP_CLASS}])[{CJK}])"
_DOTTED_END = f"(?=[{STOP_CLASS}]|[^{CJK}·•・]|陪同|代表|出具|提供|证实|签字|报警|前往|来到|表示|$)"
_SURNAME = "(?:" + "|".join(COMPOUND_SURNAMES) + "|[" + "".join(sorted(SINGLE_SURNAMES)) + "])"
_CUE_RE = re.compile("|".join(sorted(PERSON_CUES, key=len, reverse=True)))
_SURNAME_NAME_RE = re.compile(f"{_SURNAME}[{CJK}]{{1,2}}")
#: A further name in a list after a found one, delimited on both sides (``被告人张伟、李强、王小燕等``,
#: ``证人赵某某、和志强的证言``).
_LISTED_NAME_RE = re.compile(f"、(?P<name>{_SURNAME}[{CJK}]{{1,2}}?)"
                             f"(?=[、，,。；;：:（(等的\\s]|[二三四五六七八九几]人|涉嫌|伙同|共同|分别|之间|人民币|现金)")
#: An already-masked name after a context word (张某某, 吉克某某, 王某甲): not masked again, but a list may follow.
_MASKED_NAME_RE = re.compile(f"(?:{_SURNAME}|[{CJK}]{{1,2}}?){PSEUDONYM_MARK}(?:{PSEUDONYM_MARK}|[{PSEUDONYM_SUFFIXES}])?")
#: A gloss after a name that says who the person is or where their case stands: ``（系被告人之妻）``, ``，女，``,
#: ``（另案处理）``, ``（在逃）``, ``（已判刑）``.
_GLOSS = (r"[（(](?:系|另案|在逃|已判|已被|已另|已死亡|已故|未到案|未归案|尚未|不起诉|已作|已于|均已|另行处理|"
          r"不予追究|未成年|化名|绰号|外号|曾用名|[^（）()]{2,24}?律师事务所|[^（）()]{1,8}?之(?:妻|夫|子|女|父|母|兄|弟|姐|妹)[）)])|"
          r"[（(，,][男女][，,）)]")
#: A gloss after a context word's name that only a person can have (``法定代理人满秋生，系其父亲``).
_CUE_GLOSS = _GLOSS + r"|[，,]系(?:其|被|该)"
#: A name of any form before such a gloss (``证人海燕（系被告人之妻）``, ``阿依古丽，女，``).
_GLOSSED_NAME_RE = re.compile(f"[{CJK}]{{2,6}}?(?={_CUE_GLOSS})")
#: A co-offender or companion named after the verb that joins them to the suspect or after punctuation, before a
#: gloss on their case: ``伙同阙海洋（在逃）``, ``与卓玛（另案处理）``, ``纠集巴图、乌兰（均已判刑）``, ``“老板”岩香（在逃）``.
#: Verbs that join a companion to the suspect (伙同, 纠集, 雇佣 …).
_JOINING = "(?:伙同|纠集|雇佣|雇用|指使|教唆|邀约|约上|叫上|带领)"
_COMPANION_RE = re.compile(f"(?:{_JOINING}|与|和|由|向|给|将|把|[、，,；;：:”\"」』])"
                           f"(?P<name>(?!{_JOINING}){_NAME_CHAR}{{2,6}}?)(?={_GLOSS})")
#: The same after a description of the person (``送给时任某厅副厅长的宫学礼（已判刑）``): no word of the dictionary
#: (``的同伙（在逃）``, ``的男子（另案处理）``).
_DESCRIBED_COMPANION_RE = re.compile(f"(?<=的)(?P<name>{_NAME_CHAR}{{2,4}}?)(?={_GLOSS})")
#: What a person gave, in an evidence list or a narrative (``证人巴图的证言``, ``邻居格桑、巴桑证实``).
_TESTIMONY = "(?:的(?:证言|陈述|证词|辨认|供述|询问笔录|意见)|(?:均|都|也|亦|共同)?(?:证实|证明(?![书材文信（(])|指认|辨认出|陈述|证称))"
#: A gloss in brackets after a person's name (``扎西卓玛（扎青乡副乡长）``), which a list may carry on after.
_BRACKET_GLOSS = r"(?:[（(][^（）()，。；\n]{1,30}[）)])"
#: A name without a known surname in a list after a found one, in a list of people whose testimony follows
#: (``证人巴某某、宝音德力格尔的证言``).
_LISTED_ANY_RE = re.compile(f"、(?P<name>{_NAME_CHAR}{{2,6}})"
                            f"(?={_BRACKET_GLOSS}?(?:、[^，,。；;：:]{{2,30}}?)?{_TESTIMONY})")
#: The first name of a list of witnesses after a context word, whatever its form: the list delimiter ends it
#: (``证人巴图、宝音德力格尔的证言``).
_LIST_HEAD_RE = re.compile(f"(?P<name>{_NAME_CHAR}{{2,6}}?)"
                           f"(?=、[^，,。；;：:]{{2,30}}?{_TESTIMONY})")
#: A name or nickname in quotes right after a context word (``同案人“老六”未到案``).
_QUOTED_NAME_RE = re.compile(r"[“\"「](?P<name>[^”\"」，。\n]{1,8})[”\"」]")
#: A name of any form right before what the person said or showed (``邻居拓海军证实了…``).
_BEFORE_TESTIMONY_RE = re.compile(f"(?P<name>{_NAME_CHAR}{{2,4}}?)(?={_TESTIMONY})")
#: A surname and one or two characters right before what a person does (``被害人方向驾驶的电动自行车``,
#: ``邻居强国闻声赶到``): the verb ends the name even where its second character would stop it (向).
_BEFORE_ACTION_RE = re.compile(f"(?P<name>{_SURNAME}[{CJK}]{{1,2}}?)(?=驾驶|骑行|报警|报案|闻声|赶到|赶来|目睹|证实|证称|"
                               f"路过|到场|在场)")
#: Context words after which a person's name nearly always follows, so that a run of three characters closed by a
#: conjunction or a comma is taken for a name whatever its surname (``辩护人太京哲和…``).
_STRONG_CUES = frozenset({"被告人", "被不起诉人", "犯罪嫌疑人", "被害人", "证人", "辩护人", "法定代理人", "诉讼代理人",
                          "翻译人员", "语翻译", "文翻译"})
_THREE_BEFORE_STOP_RE = re.compile(f"(?P<name>{_NAME_CHAR_NO_DOT}{{3}})(?=[和及、，,的])")


#: A name listed after another person (``麦某某、羊春梅证实``, ``麦家豪、羊春梅在场``), whatever its surname.
_LIST_GLOSS_RE = re.compile(_BRACKET_GLOSS + "(?=、)")
_LISTED_AFTER_RE = (f"、(?P<name>{_NAME_CHAR}{{2,6}}?)(?=[、及和等对均都也为将在]|涉嫌|伙同|共同|分别|是否|不起诉|{_TESTIMONY}|"
                    f"在场|二人|三人|之间|人民币)")
#: The same after a real name and its gloss, the next name glossed too (``扎西卓玛（副乡长）、尼玛（主任）的证言``).
_LISTED_AFTER_GLOSS_RE = f"{_BRACKET_GLOSS}、(?P<name>{_NAME_CHAR}{{2,6}}?)(?={_BRACKET_GLOSS}?(?:[、及和等]|{_TESTIMONY}))"
#: A name listed before an already-masked one (``王立、李某某的证言``).
_LISTED_BEFORE_MASKED_RE = re.compile(f"(?:(?<=[、，,；;：:（(\\s对与和向将把给由])|^)(?P<name>{_NAME_CHAR}{{2,4}}?)、"
                                      f"(?=[{CJK}]{{1,3}}?{PSEUDONYM_MARK})", re.MULTILINE)
#: A name as written in a person header: two to six ideographs (乌云其其格, 阿卜杜热合曼), a transliterated
#: foreign or minority name with a middle dot (奥孔克沃·奇迪, 买买提·艾力), or a name in Latin letters.
_HEADER_NAME_RE = re.compile(f"[{CJK}]{{2,6}}|[{CJK}]{{1,8}}(?:[·•・][{CJK}]{{1,8}})+|" + LATIN_NAME_RE.pattern)


def _name_at(cand: str, text: str) -> str | None:
    """The name at the start of ``cand`` (surname + one or two characters), its length judged from ``text``."""
    surname = surname_of(cand)
    if surname is None:
        return None
    given = cand[len(surname):]
    if not given or given[0] in STOP_CHARS or given[1:2] == PSEUDONYM_MARK:   # 吉克某某: a masked compound surname
        return None
    two = surname + given[0]
    if two in NOT_NAMES or (len(cand) > len(two) and common_function_word(two)):
        return None   # 安排采购, 连夜逃离: a surname opening a verb run into the words after it; not 证人甘露（…）
    if dictionary_word(given[:2], TIME_TAGS, TIME_WORD_FREQ) \
            or dictionary_word(two, NOUN_TAGS_COMMONEST, COMMONEST_NOUN_FREQ):
        return None   # 被告人于次日被抓获, 被害人时间金额: a surname before a time word, or opening a common noun
    if len(given) == 1 or given[1] in NOT_THIRD:
        return two
    three = surname + given[:2]
    # a third character belongs to the name only if the two-character form never occurs without it
    return three if text.count(three) == text.count(two) else two


def header_names(person_info: str) -> list[str]:
    """Names declared in the person block, where punctuation fixes their length: ``犯罪嫌疑人张三，男，…`` → 张三,
    ``法定代表人李四，`` → 李四, ``（曾用名王小五）`` → 王小五. Units and names already masked are skipped.

    >>> header_names("犯罪嫌疑人欧阳明，男，1990年出生（曾用名欧阳小明）。\\n被不起诉人王某某，女。\\n被告人于是，男。")
    ['欧阳明', '欧阳小明', '于是']
    """
    out: list[str] = []
    for line in person_info.splitlines():
        s = line.strip()
        for m in (SUSPECT_HEADER_RE.match(s), REPRESENTATIVE_HEADER_RE.match(s)):
            if m is None or m["address"].endswith("单位"):
                continue
            name, end = m["name"], m.end()
            if (latin := LATIN_NAME_RE.match(s, m.start("name"))) is not None:   # OKONKWO CHIDI EMEKA，男
                name, end = latin.group(0), latin.end()
            if end >= len(s) or s[end] not in HEADER_NAME_END:
                continue
            out.append(name)   # punctuation fixes it: a name even when it is also a word (被告人于是，男，)
        out += [a["name"] for a in NAME_ALIAS_RE.finditer(s) if a["name"] not in NOT_NAMES]
    return [n for n in dict.fromkeys(out) if _HEADER_NAME_RE.fullmatch(n) and PSEUDONYM_MARK not in n]


def header_aliases(person_info: str) -> dict[str, str]:
    """Foreigners' names in the original script, each with the header name it belongs to, so both get one
    pseudonym: ``被告人颂猜·蓬玛（SOMCHAI PHROMMA），男`` → {'SOMCHAI PHROMMA': '颂猜·蓬玛'}.

    >>> header_aliases("被不起诉人奥孔克沃·奇迪（OKONKWO CHIDI EMEKA），男，尼日利亚国籍。")
    {'OKONKWO CHIDI EMEKA': '奥孔克沃·奇迪'}
    """
    out: dict[str, str] = {}
    for line in person_info.splitlines():
        s = line.strip()
        for m in (SUSPECT_HEADER_RE.match(s), REPRESENTATIVE_HEADER_RE.match(s)):
            if m is None or m["address"].endswith("单位"):
                continue
            if (alias := LATIN_ALIAS_RE.match(s, m.end())) is not None:
                out[alias["name"] or alias["name2"]] = m["name"]
    return out


#: A law firm's or a legal service's name right after a context word (辩护人甘肃河州律师事务所律师…).
_LAW_FIRM_AHEAD_RE = re.compile(f"(?:(?![{STOP_CLASS}])[{CJK}]){{2,16}}?(?:律师事务所|法律服务所|法律援助中心|公证处)")


def _name_after_cue(text: str, start: int, by_length: list[str], cue: str = "") -> tuple[str, bool] | None:
    """The name that starts at ``start`` (right after a context word) and whether it is a real one (False: an
    already-masked form, after which a list of real names may still follow): a known header name as it is, a
    name in Latin letters (辩护人Lucia Bianchi), a masked form, a name before a gloss (证人海燕（系…）), else a
    surname and one or two characters."""
    if (known := next((k for k in by_length if text.startswith(k, start)), None)) is not None:
        return known, True
    if _LAW_FIRM_AHEAD_RE.match(text, start):
        return None   # 辩护人甘肃河州律师事务所律师孔某: the firm first, the name after 律师
    if (latin := LATIN_NAME_RE.match(text, start)) is not None and len(latin.group(0)) >= 4:
        return latin.group(0), True
    if (masked := _MASKED_NAME_RE.match(text, start)) is not None:
        return masked.group(0), False
    if (dotted := dotted_name_at(text, start + text.startswith(("为", "是", "系"), start))) is not None:
        return dotted, True   # 经营者为古丽娜尔·艾则孜: the copula is not part of the name
    if (quoted := _QUOTED_NAME_RE.match(text, start)) is not None:   # 同案人“老六”
        return quoted["name"], True
    if (head := _LIST_HEAD_RE.match(text, start)) is not None and plausible_name(head["name"]):
        return head["name"], True
    if (said := _BEFORE_TESTIMONY_RE.match(text, start)) is not None and plausible_name(said["name"]) \
            and not dictionary_word(said["name"], NOUN_TAGS_COMMONEST, COMMONEST_NOUN_FREQ):   # 被害人代表的意见
        return said["name"], True
    if (actor := _BEFORE_ACTION_RE.match(text, start)) is not None and plausible_name(actor["name"]):
        return actor["name"], True
    if (long := long_transliterated_name(text, start)) is not None:
        return long, True   # 牧民乌力吉巴雅尔发现…
    if (three := _three_before_stop_or_verb(text, start, verb_only=cue not in _STRONG_CUES)) and plausible_name(three) \
            and not opens_with_verb_or_modifier(three) and segmenter_allows_name(three):
        return three, True
    glossed = _GLOSSED_NAME_RE.match(text, start)
    if glossed is not None and glossed.group(0)[0] not in STOP_CHARS and glossed.group(0) not in NOT_NAMES:
        return glossed.group(0), True
    plain = _SURNAME_NAME_RE.match(text, start)
    if plain is not None and _CUE_RE.match(text, start + len(surname_of(plain.group(0)) or "x")):
        return None   # 被害人和值班律师: 和 is the conjunction before another word for a person
    name = _name_at(plain.group(0), text) if plain is not None else _wordlike_surname_name(text, start)
    if name is None and (two := _TWO_BEFORE_CONJUNCTION_RE.match(text, start)) is not None \
            and segmenter_allows_name(two["name"]) and plausible_name(two["name"]):
        name = two["name"]   # 出纳海燕及其他工作人员: a given name alone, closed by a conjunction
    if name is None and cue in _STRONG_CUES and (two := _TWO_BEFORE_STOP_RE.match(text, start)) is not None \
            and segmenter_allows_name(two["name"]) and plausible_name(two["name"]) \
            and 2 in word_ends(text[start: start + 6]):
        name = two["name"]   # 被害人旺堆在…: a given name alone after a word only a person follows
    if name is None and (two := _two_before_verb(text, start)) is not None:
        name = two   # 其妻子春梅陪同其到案
    return (name, True) if name else None


def _two_before_verb(text: str, start: int) -> str | None:
    """Two characters at ``start`` that the segmenter reads as no common word, followed by what it reads as a verb of
    two characters or more (``其妻子春梅陪同其到案``), else None.

    >>> [_two_before_verb(t, 0) for t in ("春梅陪同其到案", "现场勘查", "巴图放牧", "当场抓获")]
    ['春梅', None, '巴图', None]
    """
    cand = text[start: start + 2]
    if len(cand) < 2 or not WORD_RE.fullmatch(cand) or any(c in STOP_CHARS for c in cand) \
            or not segmenter_allows_name(cand) or not plausible_name(cand):
        return None
    first, tag = rjieba.tag(text[start + 2: start + 8] or "。")[0]
    return cand if len(first) >= 2 and tag in {"v", "vd"} and 2 in word_ends(text[start: start + 8]) else None


def _three_before_stop_or_verb(text: str, start: int, *, verb_only: bool = False) -> str | None:
    """Three name characters at ``start`` closed by a conjunction or a comma, or followed by what the segmenter
    reads as a verb of two characters or more (``被害人其木格放牧于…``, ``证人巴特尔看见``), else None; with
    ``verb_only`` (after a weaker context word), only the verb.

    >>> [_three_before_stop_or_verb(t, 0) for t in ("其木格放牧于草场", "太京哲和", "巴特尔看见", "左眼球破裂",
    ...                                            "其其格拴养在", "勒排干使用")]
    ['其木格', '太京哲', '巴特尔', None, '其其格', '勒排干']
    """
    if not verb_only and (three := _THREE_BEFORE_STOP_RE.match(text, start)) is not None:
        return three["name"]
    cand = text[start: start + 3]
    if len(cand) < 3 or not WORD_RE.fullmatch(cand) or any(c in STOP_CHARS for c in cand) or cand.endswith("时"):
        return None   # 护林员巡山时发现: a time clause, not a name
    first, tag = rjieba.tag(text[start + 3: start + 9] or "。")[0]
    # after a transliterated name's characters a verb of one character is enough (牧民其其格拴养的黄牛), or any word
    # of the dictionary (牧民乌日根发生争执); after a word only a person follows, any character that ends names
    # (景颇语翻译木然诺为其提供翻译)
    translit = all(c in TRANSLIT_CHARS for c in cand)
    verb = tag in {"v", "vd"} and len(first) >= (1 if translit else 2)
    closed = not verb_only and text[start + 3: start + 4] in PARTICLES   # the segmenter may join it on (诺为)
    word_after = (len(first) >= 2 and rjieba.has_word(first) and not tag.startswith("nr")
                  and not all(c in TRANSLIT_CHARS for c in first))   # not 额尔敦 | 巴特尔: one name goes on
    if not closed and (not (verb or (translit and word_after))
                       or 3 not in word_ends(text[start: start + 9])):
        return None   # 始终否认为: the segmenter reads no word ending after the three characters
    # 左眼球破裂, 在场的情况下签署, 按照上级, 如不服: a common noun or verb inside is a thing or a phrase, not a name
    return None if any(common_word_inside(w) for w in (cand[:2], cand[1:])) else cand


#: Two characters closed by a conjunction or a list mark (``出纳海燕及…``, ``村民卓玛、…``).
_TWO_BEFORE_CONJUNCTION_RE = re.compile(f"(?P<name>{_NAME_CHAR_NO_DOT}{{2}})(?=[和及、与])")
#: Two characters closed by a character that ends names (``被害人旺堆在…``, ``被害人次仁的``).
_TWO_BEFORE_STOP_RE = re.compile(f"(?P<name>{_NAME_CHAR_NO_DOT}{{2}})(?=[{STOP_CLASS}])")


def _wordlike_surname_name(text: str, start: int) -> str | None:
    """A three-character name at ``start`` whose surname is also the start of common words (``WORDLIKE_SURNAMES``):
    taken when the segmenter reads the surname alone before a given name of two characters (危 | 秀英) or the
    three characters as one unknown word (权五哲), and neither they nor their first two characters are a word of
    its dictionary (权利义务, 支付, 后脑勺, 山东人).

    >>> [_wordlike_surname_name(t, 0) for t in ("权五哲支付货款", "危秀英证实", "权利义务告知书", "后脑勺受伤", "山东人")]
    ['权五哲', '危秀英', None, None, None]
    """
    if text[start: start + 1] not in WORDLIKE_SURNAMES:
        return None
    words = rjieba.cut(text[start: start + 8])
    name = words[0] + words[1] if len(words[0]) == 1 and len(words) > 1 and len(words[1]) == 2 else words[0]
    if len(name) != 3 or not WORD_RE.fullmatch(name) or rjieba.has_word(name) or rjieba.has_word(name[:2]):
        return None
    return name if plausible_name(name) else None


def find_names(text: str, known: tuple[str, ...] | list[str] = ()) -> list[str]:
    """Natural-person names introduced by a context word in ``text`` (and the names listed after them with
    ``、``), in order of first appearance. Where a ``known`` name (from the person headers) stands after the
    context word, it is taken as it is, so its length is never guessed.

    >>> find_names("证人赵某某、和志强的证言；证人海燕（系被告人之妻）的证言；辩护人Lucia Bianchi及黎春梅")
    ['和志强', '海燕', 'Lucia Bianchi']
    """
    by_length = sorted(known, key=len, reverse=True)
    names: list[str] = []
    for m in _CUE_RE.finditer(text):
        start, cue = m.end(), m.group(0)
        for k in range(m.start() + 1, m.end()):   # 其妻子春梅: 妻子 reaches further than 其妻
            if (longer := _CUE_RE.match(text, k)) is not None and longer.end() > start:
                start, cue = longer.end(), longer.group(0)
        if rjieba.has_word(cue + text[start: start + 1]) or rjieba.has_word(cue + text[start: start + 2]):
            continue   # 居民区, 村民小组, 证人证言: the context word is the start of a longer one
        found = _name_after_cue(text, start, by_length, cue)
        if found is None or any(p in found[0] for p in NOT_NAME_PARTS):   # 辩护人和认罪认罚…: 和 is a conjunction
            continue
        if found[1] and not plausible_name(found[0]):   # 企业主管部门: 业主 inside a word, 管部门 is no name
            continue
        name, real = found
        if real and name not in names:
            names.append(name)
        end = start + len(name)
        while True:
            if (gloss := _LIST_GLOSS_RE.match(text, end)) is not None:   # 证人甲（副乡长）、乙（主任）的证言
                end = gloss.end()
            if text.startswith("、", end) and (masked := _MASKED_NAME_RE.match(text, end + 1)) is not None:
                end = masked.end()   # 证人巴某某、李某、宝音德力格尔的证言: masked ones stay, the list goes on
                continue
            listed = _LISTED_NAME_RE.match(text, end) or _LISTED_ANY_RE.match(text, end)
            if listed is None:
                break
            cand = listed["name"]
            given = cand[len(surname_of(cand) or cand[0]):]
            if not given or given[0] in STOP_CHARS or not plausible_name(cand):
                break
            if cand not in names:
                names.append(cand)
            end = listed.end("name")
    return names


#: A companion hired, led or joined by the suspect, before 等人 or a list (``雇用于德水等人``, ``纠集马强、…``):
#: a surname name, whose first character may be one that usually ends a name (于, 向), or the familiar form
#: people are known by when nobody took their full name (``大老李``, ``小王``, ``阿强``).
_FAMILIAR_FORM = f"(?:[大小]?老{_SURNAME}|小{_SURNAME}|阿[{CJK}]{{1,2}}?)"
_HIRED_RE = re.compile(f"{_JOINING}"
                       f"(?:(?P<closed>{_SURNAME}[{CJK}]{{1,2}})(?=[，,；;])|"   # 伙同段家和，以…: the run to the comma
                       f"(?P<name>{_SURNAME}[{CJK}]{{1,2}}?|{_FAMILIAR_FORM})(?=等人|等[二三四五六七八九十\\d]|[、和及]))")


#: A person who runs, owns or holds something, after the preposition or verb of motion before them (``运至门立新经营的
#: 木材收购点``, ``在王建军开设的麻将馆``).
_OWNER_RE = re.compile(f"(?<=[至到在向给从与])(?P<name>{_SURNAME}[{CJK}]{{1,2}}?|[{''.join(sorted(WORDLIKE_SURNAMES))}][{CJK}]{{2}})"
                       f"(?=经营的|开设的|开办的|承包的|名下的|租住的|居住的)")


def companion_names(text: str) -> list[str]:
    """Co-offenders and companions named after the verb that joins them to the suspect and before a gloss on
    their case (see ``_COMPANION_RE``), whatever their surname.

    >>> companion_names("伙同阙海洋（在逃）、与卓玛（另案处理）及被害人（系其妻）；雇用于德水等人采伐，雇佣大老李等人；"
    ...                 "指使时间、地点；伙同段家和，以投资为名；运至门立新经营的收购点；送给副厅长的宫学礼（已判刑），"
    ...                 "与其的同伙（在逃）")
    ['阙海洋', '卓玛', '宫学礼', '门立新', '于德水', '大老李', '段家和']
    """
    found = [m["name"] for m in _COMPANION_RE.finditer(text)]
    found += [n for m in _DESCRIBED_COMPANION_RE.finditer(text) if segmenter_allows_name(n := m["name"])]
    found += [m["name"] for m in _OWNER_RE.finditer(text)
              if surname_of(m["name"]) or _wordlike_surname_name(m["name"], 0) == m["name"]]
    found += [n for m in _HIRED_RE.finditer(text) if len(n := m["closed"] or m["name"]) > 2 or segmenter_allows_name(n)]
    return list(dict.fromkeys(n for n in found if plausible_name(n)))


#: A relative named right after the kinship word (``其妻乌云其木格向…``, ``其子孙立东``): the name runs to the next
#: function character or a verb that follows a person, whatever its surname (names without a surname: Mongolian,
#: Tibetan).
#: Verbs that follow a relative's name (其妻乌云其其格代表家属出具谅解书): the name ends before them.
_AFTER_PERSON_VERBS: tuple[str, ...] = ("代表", "代为", "出具", "提供", "证实", "证明", "签署", "签字", "表示", "要求",
                                        "同意", "前往", "作为", "陪同", "书写", "报警", "来到")
#: Surnames that are also characters ending names (于, 向, 和 …): a relative's name may open with one before a gloss
#: (``其弟于长河（已死亡）``).
_STOP_SURNAMES = "".join(sorted(c for c in SINGLE_SURNAMES if c in STOP_CHARS))
_KIN_NAME_RE = re.compile(f"[其之](?:丈夫|妻子|儿子|女儿|父亲|母亲|哥哥|姐姐|弟弟|妹妹|妻|夫|子|女|父|母|兄|弟|姐|妹)"
                          f"(?P<name>[{_STOP_SURNAMES}](?!其){_NAME_CHAR}{{1,2}}(?={_GLOSS})|{_DOTTED}{_DOTTED_END}|"
                          f"{_NAME_CHAR}{{2,6}})"
                          f"(?=[{STOP_CLASS}]|{'|'.join(_AFTER_PERSON_VERBS)}|$)")


#: Words that open what happened to a relative rather than their name (其母突发疾病, 其父因病 …).
_EVENT_STARTS: tuple[str, ...] = ("突发", "突然", "因病", "病重", "病危", "生病", "去世", "过世", "年迈", "身患", "一同",
                                  "赶到", "赶来", "得知", "发现", "闻讯")
#: Characters that open a verb phrase after a kinship word rather than a name (办理, 上学, 患病 …).
_VERB_START = NOT_THIRD | set("办作做上下读入考报申患生病死亡参加很非不没正刚")


#: What closes a relative's name of three characters without a surname (``其妻其其格，``, ``之子乌日根的意见``).
_KIN_CLOSE_RE = re.compile(r"[，,。；;、]|的(?:意见|陈述|证言|谅解|同意|帮助|陪同)")


#: Nouns of what a person owns or where they live that follow a relative's name (其妻子金燕名下的账户, 其子X家中).
_POSSESSIONS = ("名下", "家中", "住处", "住所", "账户", "手机")


def _without_possession(name: str) -> str:
    """``name`` without a noun of ``_POSSESSIONS`` run on after it (金燕名下 → 金燕), nor a verb that follows persons
    and what comes after it (蒙德荣陪同下 → 蒙德荣), nor a passive 受 (穆立新受被不起诉人委托 → 穆立新)."""
    cut = next((name[: -len(p)] for p in _POSSESSIONS if name.endswith(p)), name)
    cut = next((cut[:k] for k in range(2, len(cut)) if cut.startswith(_AFTER_PERSON_VERBS, k)), cut)
    cut = cut[:-1] if len(cut) == 4 and cut.endswith("受") else cut
    return cut if len(cut) >= 2 else name


#: Words for two relatives together, which a kinship word opens (其父母, 其子女): no name follows the first.
_KIN_PAIRS = frozenset({"父母", "子女", "夫妻", "儿女", "兄弟", "姐妹", "兄妹", "姐弟", "父子", "母子", "父女", "母女"})


def kin_names(text: str) -> list[str]:
    """Relatives named right after a kinship word (see ``_KIN_NAME_RE``).

    >>> kin_names("其妻乌云其木格向本院提交了证明。其子孙立东、其女在场。被害人之子海军（联系电话…）到场。祭扫其父母坟墓；"
    ...           "在其丈夫蒙德荣陪同下到案；其子穆立新受被不起诉人委托")
    ['乌云其木格', '孙立东', '海军', '蒙德荣', '穆立新']
    """
    # 其父母坟墓, 其子女: the kinship word runs into a longer one, no name follows
    matches = [m for m in _KIN_NAME_RE.finditer(text) if text[m.start("name") - 1: m.start("name") + 1] not in _KIN_PAIRS]
    out = [_without_possession(m["name"]) for m in matches]
    closed = {m["name"] for m in matches if _KIN_CLOSE_RE.match(text, m.end())}   # 其妻其其格，
    glossed = {m["name"] for m in matches if text.startswith(("（", "("), m.end())}   # 之子海军（联系电话…）

    def without_surname(n: str) -> bool:
        """A run without a surname is a name only when long (乌云其木格, 扎西多吉), of three transliteration characters
        (之女其木格在…) or closed by punctuation, and not opened by a verb (之子办理…)."""
        shaped = (len(n) >= 4 or (len(n) == 3 and (n in closed or all(c in TRANSLIT_CHARS for c in n)))
                  or (len(n) == 2 and n in glossed))
        return shaped and n[0] not in _VERB_START and not opens_with_verb_or_modifier(n) \
            and not n.startswith(_AFTER_PERSON_VERBS + _EVENT_STARTS)

    return [n for n in dict.fromkeys(out) if n not in NOT_NAMES and not any(p in n for p in NOT_NAME_PARTS)
            and not common_function_word(n[:2])   # 之子安排工作
            and (surname_of(n) or without_surname(n))]


#: Words before a quoted nickname of a person (``上家“阿浪”``, ``外号“黑仔”``, ``“马三”的上线“阿杰”``, ``被称为“老K”``,
#: ``群主“发财哥”``).
NICKNAME_CUES = ("上家", "下家", "上线", "下线", "老板", "男子", "女子", "绰号", "外号", "网名", "昵称", "人称", "自称",
                 "称为", "称作", "群主", "管理员")
#: A quoted name after one of them, shaped as people's nicknames are (阿杰, 老K, 马三, 小胖, 彪哥, Tony), so that an
#: activity after the same word stays (帮助上线“刷流水”).
_NICKNAME_SHAPE = (f"(?:[阿老小大][{CJK}A-Za-z]{{1,2}}|[{CJK}A-Za-z]{{1,2}}[哥姐总仔弟妹叔姨]|{_SURNAME}[{CJK}]{{1,2}}|"
                   f"[A-Za-z][A-Za-z .]{{1,20}})")
_CUED_NICKNAME_RE = re.compile("(?:" + "|".join(NICKNAME_CUES) + r")(?:为|是|叫)?[“\"「]" + f"(?P<name>{_NICKNAME_SHAPE})"
                               + r"[”\"」]")


#: Right after a word only a person follows (``被不起诉人``, ``证人`` …).
_AFTER_STRONG_CUE = "(?:" + "|".join(f"(?<={c})" for c in sorted(_STRONG_CUES)) + ")"


def listed_beside(text: str, names: list[str]) -> list[str]:
    """Names listed right after one of ``names`` or after a masked form, right before a masked form, or right before
    one of ``names`` after a word only a person follows, whatever their surname (``麦某某、羊春梅证实``,
    ``王立、李某某的证言``, ``被不起诉人额尔敦巴雅尔、那顺乌力吉``).

    >>> listed_beside("但麦家豪、羊春梅证实案发当晚；王立、李某某的证言；扎西卓玛（副乡长）、尼玛（主任）的证言；"
    ...               "被不起诉人额尔敦巴雅尔、那顺乌力吉涉嫌", ["麦家豪", "扎西卓玛", "那顺乌力吉"])
    ['羊春梅', '尼玛', '王立', '额尔敦巴雅尔']
    """
    before = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    anchor = f"(?:{PSEUDONYM_MARK}[{PSEUDONYM_SUFFIXES}]?" + (f"|{before}" if before else "") + ")"
    found = [m["name"] for m in re.finditer(anchor + _LISTED_AFTER_RE, text)]
    if before:
        found += [m["name"] for m in re.finditer(f"(?:{before})" + _LISTED_AFTER_GLOSS_RE, text)]
    found += [m["name"] for m in _LISTED_BEFORE_MASKED_RE.finditer(text)]
    if before:   # 被不起诉人额尔敦巴雅尔、那顺乌力吉涉嫌…, where only the second is known
        found += [m["name"] for m in re.finditer(_AFTER_STRONG_CUE + f"(?P<name>{_NAME_CHAR_NO_DOT}{{2,6}}?)、(?:{before})",
                                                 text) if segmenter_allows_name(m["name"])]
    return [n for n in dict.fromkeys(found) if plausible_name(n) and n not in names]


#: A name in a row of a table written as text, between the row's number and a figure (``序号 被害人 金额 … 4 解红梅
#: 12万元``, ``2 刘晓燕 2012年8月``).
_TABLE_ROW_NAME_RE = re.compile(f"(?<![\\d.])\\d{{1,3}} (?P<name>[{CJK}]{{2,4}}) (?=\\d)")


def rule_names(text: str, known: list[str]) -> list[str]:
    """Names the context rules find in ``text`` given the person headers' ``known`` names, in the order the rules
    run: the known names, names after context words and in lists after them, relatives after a kinship word,
    co-offenders before a gloss, nicknames and former names, dotted names between punctuation, foreigners' Latin
    names after their nationality, in capitals or in brackets after their Chinese name."""
    anywhere = [a["name"] for a in NAME_ALIAS_RE.finditer(text) if plausible_name(a["name"])]   # 绰号“阿彪”
    anywhere += dotted_names(text)
    anywhere += [m["name"] for m in NATIONAL_LATIN_RE.finditer(text) if len(m["name"]) >= 4]
    anywhere += [n for m in _GLOSSED_NICKNAME_RE.finditer(text)   # “小红帽”（网名，…）; not “王某”（另案处理）
                 if not is_masked_form(n := m["name"] or m["called"])]
    anywhere += latin_names(text)
    anywhere += [n for m in _CUED_NICKNAME_RE.finditer(text) if not is_masked_form(n := m["name"])]   # 上线“阿杰”
    anywhere += [n for m in _TABLE_ROW_NAME_RE.finditer(text)   # 4 解红梅 12万元; not 3 单元 201室
                 if plausible_name(n := m["name"]) and segmenter_allows_name(n)]
    return list(dict.fromkeys([*known, *find_names(text, known), *kin_names(text), *companion_names(text),
                               *anywhere]))


#: A quoted nickname glossed as one (``“小红帽”（网名，真实姓名不详）``) or as the name of someone unidentified
#: (``同村人“老三”（身份不详）``, ``“老K”的男子（身份不详）``), or given as what a person is called
#: (``一名叫“岩坎”的缅甸籍男子``).
_GLOSSED_NICKNAME_RE = re.compile(r"[“\"「](?P<name>[^”\"」，。\n]{1,12})[”\"」](?:的(?:男子|女子|男性|女性|人))?"
                                  r"[（(](?:网名|绰号|外号|昵称|化名|诨名|自称|"
                                  r"[^（）()]{0,6}?(?:身份不详|姓名不详|身份不明|真实姓名不详|另案处理|在逃))|"
                                  r"(?:名叫|叫做|人称|自称)[“\"「](?P<called>[^”\"」，。\n]{1,12})[”\"」]")
