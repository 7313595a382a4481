"""Context rules that find the names of natural persons in the text of a record (the recogniser in
``jiancha.corpus.ner`` finds the others): names in the person headers, after context words (犯罪嫌疑人 / 被害人 /
证人 / 辩护人 / 路人 / 职工 …) and in the lists after them, after a kinship word, before a gloss on a co-offender's
case (伙同X（在逃）), beside an already-masked name, nicknames and former names, transliterated and foreign names.
Pure functions; the patterns are compiled once.
"""

from __future__ import annotations

import itertools
import re

import rjieba

from jiancha.corpus.names import (
    COMPOUND_SURNAMES,
    SINGLE_SURNAMES,
    TRANSLIT_CHARS,
    WORDLIKE_SURNAMES,
    surname_of,
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

#: Words after a cue that look like names but are not (全部 after 店主…).
NOT_NAMES: frozenset[str] = frozenset({"全部", "全体", "全家", "全额", "于是", "关于", "和解", "方面", "单位", "管理",
                                       "时许", "同日", "同年", "高度", "明确", "明显", "陈述", "许可", "华人",
                                       # statutory wording (刑法第三百四十一条: 陆生野生动物)
                                       "陆生", "水生",
                                       # people named by what they are, before a gloss (证人家属（系…）)
                                       "本人", "亲属", "家属", "同事", "朋友", "邻居", "老板", "工友", "同学", "群众",
                                       # what a list of payees may go on with (户名为刘某、账号为…)
                                       "账号", "账户", "户名", "卡号",
                                       # words after a bystander cue (朋友关系, 司机师傅, 店主要求)
                                       "关系", "师傅", "主要", "要求", "双方", "一同", "相约",
                                       # words opened by the surname 强
                                       "强行", "强迫", "强制", "强奸", "强令", "强拉", "强抢", "强占", "强取", "强烈",
                                       "强调", "强硬", "强化", "强度", "强大",
                                       # and by 满, 相
                                       "满足", "满意", "满分", "满月", "满载", "相关", "相应", "相互", "相同",
                                       "近亲属", "达成",
                                       # money and goods, opened by the surnames 钱 and 财
                                       "钱款", "钱财", "钱物", "财物", "财产",
                                       # verbs opened by the surname 具 (被不起诉人具有非法占有的目的)
                                       "具有", "具备"})
#: Pieces of legal wording the recogniser and the context rules sometimes take for a name (``和认罪`` in ``…和认罪认罚…``).
NOT_NAME_PARTS: tuple[str, ...] = ("认罪", "认罚", "犯罪", "自首", "立功", "供述", "辩护", "检察", "公安", "刑事",
                                   "诉讼", "审查", "起诉", "侦查")
#: Characters that end a name (particles, verbs and function words that follow names in these documents).
_STOP = set("的称证于在与和及系因将被向对等家所说供陈辩未已是为从到把让使经即均曾又也都就并还以由男女之驾出涉处后共"
            "先现一二三四五六七八九十、，。；：（）()报案拨") | set(PSEUDONYM_MARK + PSEUDONYM_SUFFIXES)
#: Verbs and adverbs that often follow a two-character name and are rarely the third character of a name
#: (``李明开车`` is 李明 + 开车): a candidate third character among them ends the name.
_NOT_THIRD = _STOP | set("开骑持拿打踢砍捅用去回找叫给带逃窃偷抢骗盗卖买借欠收付交约邀帮吸喝吃住租进离返至往遂便"
                         "则却仍再才竟随趁看听签写要想拒")
_CJK = r"\u4e00-\u9fff"
#: A transliterated name with a middle dot (阿不都热依木·买买提): its parts may hold characters that end other names
#: (都, 提), so the name ends at the first stop character, non-ideograph or verb that follows a person after it.
_DOTTED = f"[{_CJK}]{{1,8}}(?:[·•・][{_CJK}]{{1,8}}?)+"
#: The characters of ``_STOP`` as the body of a regex character class.
_STOP_CLASS = re.escape("".join(sorted(_STOP)))
#: One character of a name whatever its form (not one that ends a name), with or without the middle dot.
_NAME_CHAR = f"(?:(?![{_STOP_CLASS}])[{_CJK}·])"
_NAME_CHAR_NO_DOT = f"(?:(?![{_STOP_CLASS}])[{_CJK}])"
_DOTTED_END = f"(?=[{_STOP_CLASS}]|[^{_CJK}·•・]|陪同|代表|出具|提供|证实|签字|报警|前往|来到|表示|$)"
_SURNAME = "(?:" + "|".join(COMPOUND_SURNAMES) + "|[" + "".join(sorted(SINGLE_SURNAMES)) + "])"
_CUE_RE = re.compile("|".join(sorted(PERSON_CUES, key=len, reverse=True)))
_SURNAME_NAME_RE = re.compile(f"{_SURNAME}[{_CJK}]{{1,2}}")
_WORD_RE = re.compile(f"[{_CJK}]+")
#: A further name in a list after a found one, delimited on both sides (``被告人张伟、李强、王小燕等``,
#: ``证人赵某某、和志强的证言``).
_LISTED_NAME_RE = re.compile(f"、(?P<name>{_SURNAME}[{_CJK}]{{1,2}}?)"
                             f"(?=[、，,。；;：:（(等的\\s]|[二三四五六七八九几]人|涉嫌|伙同|共同|分别|之间|人民币|现金)")
#: An already-masked name after a context word (张某某, 吉克某某, 王某甲): not masked again, but a list may follow.
_MASKED_NAME_RE = re.compile(f"(?:{_SURNAME}|[{_CJK}]{{1,2}}?){PSEUDONYM_MARK}(?:{PSEUDONYM_MARK}|[{PSEUDONYM_SUFFIXES}])?")
#: A gloss after a name that says who the person is or where their case stands: ``（系被告人之妻）``, ``，女，``,
#: ``（另案处理）``, ``（在逃）``, ``（已判刑）``.
_GLOSS = (r"[（(](?:系|另案|在逃|已判|已被|已另|已死亡|已故|未到案|未归案|尚未|不起诉|已作|已于|均已|另行处理|"
          r"不予追究|未成年|化名|绰号|外号|曾用名|[^（）()]{2,24}?律师事务所|[^（）()]{1,8}?之(?:妻|夫|子|女|父|母|兄|弟|姐|妹)[）)])|"
          r"[（(，,][男女][，,）)]")
#: A gloss after a context word's name that only a person can have (``法定代理人满秋生，系其父亲``).
_CUE_GLOSS = _GLOSS + r"|[，,]系(?:其|被|该)"
#: A name of any form before such a gloss (``证人海燕（系被告人之妻）``, ``阿依古丽，女，``).
_GLOSSED_NAME_RE = re.compile(f"[{_CJK}]{{2,6}}?(?={_CUE_GLOSS})")
#: A co-offender or companion named after the verb that joins them to the suspect or after punctuation, before a
#: gloss on their case: ``伙同阙海洋（在逃）``, ``与卓玛（另案处理）``, ``纠集巴图、乌兰（均已判刑）``, ``“老板”岩香（在逃）``.
#: Verbs that join a companion to the suspect (伙同, 纠集, 雇佣 …).
_JOINING = "(?:伙同|纠集|雇佣|雇用|指使|教唆|邀约|约上|叫上|带领)"
_COMPANION_RE = re.compile(f"(?:{_JOINING}|与|和|由|向|给|将|把|[、，,；;：:”\"」』])"
                           f"(?P<name>(?!{_JOINING}){_NAME_CHAR}{{2,6}}?)(?={_GLOSS})")
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
_BEFORE_ACTION_RE = re.compile(f"(?P<name>{_SURNAME}[{_CJK}]{{1,2}}?)(?=驾驶|骑行|报警|报案|闻声|赶到|赶来|目睹|证实|证称|"
                               f"路过|到场|在场)")
#: Context words after which a person's name nearly always follows, so that a run of three characters closed by a
#: conjunction or a comma is taken for a name whatever its surname (``辩护人太京哲和…``).
_STRONG_CUES = frozenset({"被告人", "被不起诉人", "犯罪嫌疑人", "被害人", "证人", "辩护人", "法定代理人", "诉讼代理人",
                          "翻译人员", "语翻译", "文翻译"})
_THREE_BEFORE_STOP_RE = re.compile(f"(?P<name>{_NAME_CHAR_NO_DOT}{{3}})(?=[和及、，,的])")
#: A run of ideographs holding middle dots (``并聘请古丽娜尔·艾山担任翻译``), where transliterated names stand: the
#: segmenter decides where each name begins and ends (``dotted_names``); not in a title (《…》), and a compound's
#: name (``碧桂园·凤凰城``) is none.
_DOTTED_RUN = f"[{_CJK}]+(?:[·•・][{_CJK}]+)+"
_RUN_DOTTED_RE = re.compile(f"(?<![{_CJK}《]){_DOTTED_RUN}")
_DOTTED_AT_RE = re.compile(_DOTTED_RUN)
_DOT_SPLIT_RE = re.compile("([·•・])")
#: The middle dot of a transliterated name, in any of its forms.
DOTTED_NAME_MARK = re.compile("[·•・]")
_COMPOUND_ENDINGS = ("城", "园", "苑", "府", "湾", "居", "庭", "小区", "广场", "大厦", "公馆", "中心", "国际")
#: A foreigner's name in Latin letters after their nationality (``俄罗斯籍旅客IVANOVA OLGA``, ``日本籍商人TANAKA``).
_NATIONAL_LATIN_RE = re.compile(f"籍[{_CJK}]{{0,6}}?(?P<name>{LATIN_NAME_RE.pattern})")
#: Words of a company's or a body's name in capitals, which a run of capitals holding one is (``ABC TRADING CO``).
_LATIN_BODY_WORDS = frozenset({"LTD", "CO", "INC", "LLC", "LIMITED", "COMPANY", "CORP", "CORPORATION", "GROUP",
                               "TRADING", "BANK", "INTERNATIONAL", "TECHNOLOGY", "INDUSTRIAL", "HOLDINGS", "CHINA",
                               "HOTEL", "KTV", "CLUB", "BAR", "SHOP", "STORE", "CENTER", "CENTRE", "UNIVERSITY"})
#: A foreigner's name in capitals, two words or more (``与韩国商人KIM SUNG HO签订``, ``HOANG THI MAI``): in Chinese
#: text such a run is a person's name unless it holds a company's word or a company follows it.
_CAPITALS_NAME_RE = re.compile(r"(?<![A-Za-z0-9])(?P<name>[A-Z]{2,}(?: [A-Z]{2,}){1,4})(?![A-Za-z0-9])(?!\s*(?:公司|有限|集团))")
#: A name in Latin letters in brackets right after a name in ideographs (``翻译人员黄氏梅（HOANG THI MAI）``,
#: ``证人宋蓬（SOMPHONE，老挝籍）``, ``卞凯文（英文名Kevin）``), not after a company's name.
_BRACKETED_LATIN_RE = re.compile(f"(?<=[{_CJK}])(?<!公司)(?<!集团)(?<!银行)[（(](?:(?:英文|外文|[{_CJK}]{{1,3}}(?:文|语))名[:：]?)?"
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


#: A name listed after another person (``麦某某、羊春梅证实``, ``麦家豪、羊春梅在场``), whatever its surname.
_LIST_GLOSS_RE = re.compile(_BRACKET_GLOSS + "(?=、)")
_LISTED_AFTER_RE = (f"、(?P<name>{_NAME_CHAR}{{2,6}}?)(?=[、及和等对均都也为将在]|涉嫌|伙同|共同|分别|是否|不起诉|{_TESTIMONY}|"
                    f"在场|二人|三人|之间|人民币)")
#: The same after a real name and its gloss, the next name glossed too (``扎西卓玛（副乡长）、尼玛（主任）的证言``).
_LISTED_AFTER_GLOSS_RE = f"{_BRACKET_GLOSS}、(?P<name>{_NAME_CHAR}{{2,6}}?)(?={_BRACKET_GLOSS}?(?:[、及和等]|{_TESTIMONY}))"
#: A name listed before an already-masked one (``王立、李某某的证言``).
_LISTED_BEFORE_MASKED_RE = re.compile(f"(?:(?<=[、，,；;：:（(\\s对与和向将把给由])|^)(?P<name>{_NAME_CHAR}{{2,4}}?)、"
                                      f"(?=[{_CJK}]{{1,3}}?{PSEUDONYM_MARK})", re.MULTILINE)
#: A name as written in a person header: two to six ideographs (乌云其其格, 阿卜杜热合曼), a transliterated
#: foreign or minority name with a middle dot (奥孔克沃·奇迪, 买买提·艾力), or a name in Latin letters.
_HEADER_NAME_RE = re.compile(f"[{_CJK}]{{2,6}}|[{_CJK}]{{1,8}}(?:[·•・][{_CJK}]{{1,8}})+|" + LATIN_NAME_RE.pattern)


def _name_at(cand: str, text: str) -> str | None:
    """The name at the start of ``cand`` (surname + one or two characters), its length judged from ``text``."""
    surname = surname_of(cand)
    if surname is None:
        return None
    given = cand[len(surname):]
    if not given or given[0] in _STOP or given[1:2] == PSEUDONYM_MARK:   # 吉克某某: a masked compound surname
        return None
    two = surname + given[0]
    if two in NOT_NAMES or (len(cand) > len(two) and _common_function_word(two)):
        return None   # 安排采购, 连夜逃离: a surname opening a verb run into the words after it; not 证人甘露（…）
    if len(given) == 1 or given[1] in _NOT_THIRD:
        return two
    three = surname + given[:2]
    # a third character belongs to the name only if the two-character form never occurs without it
    return three if text.count(three) == text.count(two) else two


#: Tags of verbs, adverbs, adjectives, conjunctions and prepositions in the segmenter's dictionary.
_FUNCTION_WORD_TAGS = frozenset({"v", "vn", "vd", "d", "a", "an", "ad", "b", "c", "p"})


def _common_function_word(word: str) -> bool:
    """Whether the segmenter's dictionary holds ``word`` as a common verb, adverb, adjective, conjunction or
    preposition, which no name after a context word is (安排 v, 连夜 d; 高峰 nr, 海燕 nr are names).

    >>> [_common_function_word(w) for w in ("安排", "连夜", "明知", "高峰", "海燕", "钱包")]
    [True, True, True, False, False, False]
    """
    return rjieba.has_word(word) and rjieba.tag(word)[0][1] in _FUNCTION_WORD_TAGS \
        and rjieba.suggest_freq(word) >= _COMMON_WORD_FREQ


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
_LAW_FIRM_AHEAD_RE = re.compile(f"(?:(?![{_STOP_CLASS}])[{_CJK}]){{2,16}}?(?:律师事务所|法律服务所|法律援助中心|公证处)")


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
    if (dotted := _dotted_name_at(text, start + text.startswith(("为", "是", "系"), start))) is not None:
        return dotted, True   # 经营者为古丽娜尔·艾则孜: the copula is not part of the name
    if (quoted := _QUOTED_NAME_RE.match(text, start)) is not None:   # 同案人“老六”
        return quoted["name"], True
    if (head := _LIST_HEAD_RE.match(text, start)) is not None and plausible_name(head["name"]):
        return head["name"], True
    if (said := _BEFORE_TESTIMONY_RE.match(text, start)) is not None and plausible_name(said["name"]):
        return said["name"], True
    if (actor := _BEFORE_ACTION_RE.match(text, start)) is not None and plausible_name(actor["name"]):
        return actor["name"], True
    if (long := _long_transliterated_name(text, start)) is not None:
        return long, True   # 牧民乌力吉巴雅尔发现…
    if (three := _three_before_stop_or_verb(text, start, verb_only=cue not in _STRONG_CUES)) and plausible_name(three) \
            and not _opens_with_verb_or_modifier(three) and _segmenter_allows_name(three):
        return three, True
    glossed = _GLOSSED_NAME_RE.match(text, start)
    if glossed is not None and glossed.group(0)[0] not in _STOP and glossed.group(0) not in NOT_NAMES:
        return glossed.group(0), True
    plain = _SURNAME_NAME_RE.match(text, start)
    if plain is not None and _CUE_RE.match(text, start + len(surname_of(plain.group(0)) or "x")):
        return None   # 被害人和值班律师: 和 is the conjunction before another word for a person
    name = _name_at(plain.group(0), text) if plain is not None else _wordlike_surname_name(text, start)
    if name is None and (two := _TWO_BEFORE_CONJUNCTION_RE.match(text, start)) is not None \
            and _segmenter_allows_name(two["name"]) and plausible_name(two["name"]):
        name = two["name"]   # 出纳海燕及其他工作人员: a given name alone, closed by a conjunction
    if name is None and cue in _STRONG_CUES and (two := _TWO_BEFORE_STOP_RE.match(text, start)) is not None \
            and _segmenter_allows_name(two["name"]) and plausible_name(two["name"]) \
            and 2 in _word_ends(text[start: start + 6]):
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
    if len(cand) < 2 or not _WORD_RE.fullmatch(cand) or any(c in _STOP for c in cand) \
            or not _segmenter_allows_name(cand) or not plausible_name(cand):
        return None
    first, tag = rjieba.tag(text[start + 2: start + 8] or "。")[0]
    return cand if len(first) >= 2 and tag in {"v", "vd"} and 2 in _word_ends(text[start: start + 8]) else None


#: Particles, prepositions and conjunctions that close a name run into them (木然诺为其提供翻译, 旺堆在).
_PARTICLES = frozenset("的称在于与和及系因将被向对等为")
#: How often the segmenter's dictionary has seen a word for it to count as a common one (眼球 559; 木格 13).
_COMMON_WORD_FREQ = 100
#: How often it has seen a verb or adverb for it to be one that opens no name (不服 825, 同意 5349; 木然 123).
_VERY_COMMON_WORD_FREQ = 500
#: Tags of nouns, places and directions in the segmenter's dictionary.
_NOUN_TAGS = frozenset({"n", "nz", "ns", "s", "f"})
#: How seldom it has seen a noun or a place for it to be free to be a name (旺堆 2, 扎西 17; 案发 61, 钱包 99).
_RARE_WORD_FREQ = 30


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
    if len(cand) < 3 or not _WORD_RE.fullmatch(cand) or any(c in _STOP for c in cand):
        return None
    first, tag = rjieba.tag(text[start + 3: start + 9] or "。")[0]
    # after a transliterated name's characters a verb of one character is enough (牧民其其格拴养的黄牛), or any word
    # of the dictionary (牧民乌日根发生争执); after a word only a person follows, any character that ends names
    # (景颇语翻译木然诺为其提供翻译)
    translit = all(c in TRANSLIT_CHARS for c in cand)
    verb = tag in {"v", "vd"} and len(first) >= (1 if translit else 2)
    closed = not verb_only and text[start + 3: start + 4] in _PARTICLES   # the segmenter may join it on (诺为)
    word_after = (len(first) >= 2 and rjieba.has_word(first) and not tag.startswith("nr")
                  and not all(c in TRANSLIT_CHARS for c in first))   # not 额尔敦 | 巴特尔: one name goes on
    if not closed and (not (verb or (translit and word_after))
                       or 3 not in _word_ends(text[start: start + 9])):
        return None   # 始终否认为: the segmenter reads no word ending after the three characters
    # 左眼球破裂, 在场的情况下签署, 按照上级, 如不服: a common noun or verb inside is a thing or a phrase, not a name
    return None if any(_common_word_inside(w) for w in (cand[:2], cand[1:])) else cand


def _common_word_inside(word: str) -> bool:
    """Whether two characters inside a candidate name are a common noun (眼球 559) or a very common verb, adverb or
    preposition (按照, 同意, 不服 825) of the segmenter's dictionary, not one names are made of (木然 b 123)."""
    if not rjieba.has_word(word):
        return False
    tag, freq = rjieba.tag(word)[0][1], rjieba.suggest_freq(word)
    return (tag in _NOUN_TAGS and freq >= _COMMON_WORD_FREQ) or (tag in _FUNCTION_WORD_TAGS
                                                                and freq >= _VERY_COMMON_WORD_FREQ)


def _long_transliterated_name(text: str, start: int) -> str | None:
    """A name of four characters or more at ``start`` written in the characters of transliterated names, up to a
    word that is not (``牧民乌力吉巴雅尔发现草场被挖``, ``巴特尔多次``: 巴特尔 is three), else None."""
    run = _WORD_RE.match(text, start)
    if run is None or run.group(0)[0] not in TRANSLIT_CHARS:
        return None
    name = _name_head(run.group(0)[:_PART_MAX + 4])
    if len(name) < 4 or not all(c in TRANSLIT_CHARS for c in name) or not _segmenter_allows_name(name) \
            or not plausible_name(name) or any(c in _STOP for c in name):
        return None
    return name


def _word_ends(text: str) -> set[int]:
    """Offsets in ``text`` where the segmenter ends a word."""
    return set(itertools.accumulate(map(len, rjieba.cut(text))))


#: Two characters closed by a conjunction or a list mark (``出纳海燕及…``, ``村民卓玛、…``).
_TWO_BEFORE_CONJUNCTION_RE = re.compile(f"(?P<name>{_NAME_CHAR_NO_DOT}{{2}})(?=[和及、与])")
#: Two characters closed by a character that ends names (``被害人旺堆在…``, ``被害人次仁的``).
_TWO_BEFORE_STOP_RE = re.compile(f"(?P<name>{_NAME_CHAR_NO_DOT}{{2}})(?=[{_STOP_CLASS}])")


def _opens_with_verb_or_modifier(word: str) -> bool:
    """Whether the segmenter reads ``word`` as a verb of two characters or more and what follows (发生 | 口角), or an
    adjective, direction or numeral of one character that is no surname before a noun (旧 | 手机, 右 | 眼眶): a
    phrase, not a name.

    >>> [_opens_with_verb_or_modifier(w) for w in ("发生口角", "旧手机", "右眼眶", "扎西多吉", "岩罕叫", "太京哲")]
    [True, True, True, False, False, False]
    """
    tagged = rjieba.tag(word)
    first, tag = tagged[0]
    if len(first) >= 2 and tag in {"v", "vn", "vd"} and len(tagged) > 1 and rjieba.has_word(first):
        return True   # (a word the dictionary does not hold is the segmenter's guess: 勒排 in 勒排干)
    return (len(tagged) == 2 and len(first) == 1 and tag in {"a", "b", "f", "m"} and surname_of(word) is None
            and first not in WORDLIKE_SURNAMES and rjieba.has_word(tagged[1][0]))


def _segmenter_allows_name(word: str) -> bool:
    """Whether the segmenter's dictionary leaves ``word`` free to be a name: not a word of it, one tagged as a
    person's name, or a noun or place of two characters it has hardly seen, as Tibetan and Mongolian names are
    (海燕 nr, 旺堆 n 2, 乌兰 ns 8; 小组 n, 家属 n, 案发 n 61, 卷帘门 n 2 are words).

    >>> [_segmenter_allows_name(w) for w in ("海燕", "卓玛", "旺堆", "乌兰", "小组", "家属", "案发", "卷帘门")]
    [True, True, True, True, False, False, False, False]
    """
    if not rjieba.has_word(word):
        return True
    tag = rjieba.tag(word)[0][1]
    return tag.startswith("nr") or (len(word) == 2 and tag in {"n", "ns", "nz", "ng"}
                                    and rjieba.suggest_freq(word) < _RARE_WORD_FREQ)


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
    if len(name) != 3 or not _WORD_RE.fullmatch(name) or rjieba.has_word(name) or rjieba.has_word(name[:2]):
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
            if not given or given[0] in _STOP or not plausible_name(cand):
                break
            if cand not in names:
                names.append(cand)
            end = listed.end("name")
    return names


#: How words for people or bodies end (被害人, 目击者, 对方, 民警, 公安局): such a word is not a name.
_ROLE_ENDINGS = (*"人者方员局院司所队部处厂店", "部门")


def plausible_name(word: str) -> bool:
    """Whether a name found by a context rule could be one: not a known non-name, no legal wording inside, not
    already masked, not a word for a role or a body.

    >>> [plausible_name(w) for w in ("卓玛", "扎西多吉", "被害人", "和认罪", "张某某", "家属", "个人账户流水")]
    [True, True, False, False, False, False, False]
    """
    return (word not in NOT_NAMES and not any(p in word for p in NOT_NAME_PARTS) and PSEUDONYM_MARK not in word
            and not word.endswith(_ROLE_ENDINGS) and not any(c in word for c in PERSON_CUES)
            and not _ends_in_common_word(word))


def _ends_in_common_word(word: str) -> bool:
    """Whether a run of four characters or more ends in a common word of the segmenter's dictionary that is no
    name, after other words: a phrase (个人账户 | 流水), not a long name (扎西 | 多吉, 额尔敦巴 | 雅尔)."""
    surname = surname_of(word)
    if len(word) < 4 or not _WORD_RE.fullmatch(word) or (surname and len(word) - len(surname) <= 2):
        return False   # 令狐 | 建国: a compound surname and a given name that is a word
    pieces = rjieba.tag(word)
    last, tag = pieces[-1]
    return len(pieces) > 1 and len(last) >= 2 and not tag.startswith("nr") and rjieba.has_word(last) \
        and rjieba.suggest_freq(last) >= _COMMON_WORD_FREQ


#: A companion hired, led or joined by the suspect, before 等人 or a list (``雇用于德水等人``, ``纠集马强、…``):
#: a surname name, whose first character may be one that usually ends a name (于, 向), or the familiar form
#: people are known by when nobody took their full name (``大老李``, ``小王``, ``阿强``).
_FAMILIAR_FORM = f"(?:[大小]?老{_SURNAME}|小{_SURNAME}|阿[{_CJK}]{{1,2}}?)"
_HIRED_RE = re.compile(f"{_JOINING}"
                       f"(?:(?P<closed>{_SURNAME}[{_CJK}]{{1,2}})(?=[，,；;])|"   # 伙同段家和，以…: the run to the comma
                       f"(?P<name>{_SURNAME}[{_CJK}]{{1,2}}?|{_FAMILIAR_FORM})(?=等人|等[二三四五六七八九十\\d]|[、和及]))")


#: A person who runs, owns or holds something, after the preposition or verb of motion before them (``运至门立新经营的
#: 木材收购点``, ``在王建军开设的麻将馆``).
_OWNER_RE = re.compile(f"(?<=[至到在向给从与])(?P<name>{_SURNAME}[{_CJK}]{{1,2}}?|[{''.join(sorted(WORDLIKE_SURNAMES))}][{_CJK}]{{2}})"
                       f"(?=经营的|开设的|开办的|承包的|名下的|租住的|居住的)")


def companion_names(text: str) -> list[str]:
    """Co-offenders and companions named after the verb that joins them to the suspect and before a gloss on
    their case (see ``_COMPANION_RE``), whatever their surname.

    >>> companion_names("伙同阙海洋（在逃）、与卓玛（另案处理）及被害人（系其妻）；雇用于德水等人采伐，雇佣大老李等人；"
    ...                 "指使时间、地点；伙同段家和，以投资为名；运至门立新经营的收购点")
    ['阙海洋', '卓玛', '门立新', '于德水', '大老李', '段家和']
    """
    found = [m["name"] for m in _COMPANION_RE.finditer(text)]
    found += [m["name"] for m in _OWNER_RE.finditer(text)
              if surname_of(m["name"]) or _wordlike_surname_name(m["name"], 0) == m["name"]]
    found += [n for m in _HIRED_RE.finditer(text) if len(n := m["closed"] or m["name"]) > 2 or _segmenter_allows_name(n)]
    return list(dict.fromkeys(n for n in found if plausible_name(n)))


#: A relative named right after the kinship word (``其妻乌云其木格向…``, ``其子孙立东``): the name runs to the next
#: function character or a verb that follows a person, whatever its surname (names without a surname: Mongolian,
#: Tibetan).
#: Verbs that follow a relative's name (其妻乌云其其格代表家属出具谅解书): the name ends before them.
_AFTER_PERSON_VERBS: tuple[str, ...] = ("代表", "代为", "出具", "提供", "证实", "证明", "签署", "签字", "表示", "要求",
                                        "同意", "前往", "作为", "陪同", "书写", "报警", "来到")
_KIN_NAME_RE = re.compile(f"[其之](?:丈夫|妻子|儿子|女儿|父亲|母亲|哥哥|姐姐|弟弟|妹妹|妻|夫|子|女|父|母|兄|弟|姐|妹)"
                          f"(?P<name>{_DOTTED}{_DOTTED_END}|{_NAME_CHAR}{{2,6}})"
                          f"(?=[{_STOP_CLASS}]|{'|'.join(_AFTER_PERSON_VERBS)}|$)")


#: Words that open what happened to a relative rather than their name (其母突发疾病, 其父因病 …).
_EVENT_STARTS: tuple[str, ...] = ("突发", "突然", "因病", "病重", "病危", "生病", "去世", "过世", "年迈", "身患", "一同",
                                  "赶到", "赶来", "得知", "发现", "闻讯")
#: Characters that open a verb phrase after a kinship word rather than a name (办理, 上学, 患病 …).
_VERB_START = _NOT_THIRD | set("办作做上下读入考报申患生病死亡参加很非不没正刚")


#: What closes a relative's name of three characters without a surname (``其妻其其格，``, ``之子乌日根的意见``).
_KIN_CLOSE_RE = re.compile(r"[，,。；;、]|的(?:意见|陈述|证言|谅解|同意|帮助|陪同)")


def kin_names(text: str) -> list[str]:
    """Relatives named right after a kinship word (see ``_KIN_NAME_RE``).

    >>> kin_names("其妻乌云其木格向本院提交了证明。其子孙立东、其女在场。被害人之子海军（联系电话…）到场。")
    ['乌云其木格', '孙立东', '海军']
    """
    matches = list(_KIN_NAME_RE.finditer(text))
    out = [m["name"] for m in matches]
    closed = {m["name"] for m in matches if _KIN_CLOSE_RE.match(text, m.end())}   # 其妻其其格，
    glossed = {m["name"] for m in matches if text.startswith(("（", "("), m.end())}   # 之子海军（联系电话…）
    # without a surname, a run is a name only when long (乌云其木格, 扎西多吉) or closed by punctuation, and not
    # opened by a verb (之子办理…)
    return [n for n in dict.fromkeys(out) if n not in NOT_NAMES and not any(p in n for p in NOT_NAME_PARTS)
            and (surname_of(n) or ((len(n) >= 4 or (len(n) == 3 and n in closed) or (len(n) == 2 and n in glossed))
                                   and n[0] not in _VERB_START and not _opens_with_verb_or_modifier(n)
                                   and not n.startswith(_AFTER_PERSON_VERBS + _EVENT_STARTS)))]


#: Words before a quoted nickname of a person (``上家“阿浪”``, ``外号“黑仔”``, ``“马三”的上线“阿杰”``).
NICKNAME_CUES = ("上家", "下家", "上线", "下线", "老板", "男子", "女子", "绰号", "外号", "网名", "昵称", "人称", "自称")
#: A quoted name after one of them, shaped as people's nicknames are (阿杰, 老K, 马三, 小胖, 彪哥, Tony), so that an
#: activity after the same word stays (帮助上线“刷流水”).
_NICKNAME_SHAPE = (f"(?:[阿老小大][{_CJK}A-Za-z]{{1,2}}|[{_CJK}A-Za-z]{{1,2}}[哥姐总仔弟妹叔姨]|{_SURNAME}[{_CJK}]{{1,2}}|"
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
                                                 text) if _segmenter_allows_name(m["name"])]
    return [n for n in dict.fromkeys(found) if plausible_name(n) and n not in names]


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


def _dotted_name_at(text: str, start: int) -> str | None:
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
_EDGE_STOPS = _STOP | {"不"}


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


def is_masked_form(word: str) -> bool:
    """``张某甲`` / ``某甲``: a pseudonym with a sequence suffix."""
    return PSEUDONYM_MARK in word or bool(re.fullmatch(f".{{1,2}}[{PSEUDONYM_SUFFIXES}]", word)
                                           and word[-2:-1] == PSEUDONYM_MARK)


def rule_names(text: str, known: list[str]) -> list[str]:
    """Names the context rules find in ``text`` given the person headers' ``known`` names, in the order the rules
    run: the known names, names after context words and in lists after them, relatives after a kinship word,
    co-offenders before a gloss, nicknames and former names, dotted names between punctuation, foreigners' Latin
    names after their nationality, in capitals or in brackets after their Chinese name."""
    anywhere = [a["name"] for a in NAME_ALIAS_RE.finditer(text) if plausible_name(a["name"])]   # 绰号“阿彪”
    anywhere += dotted_names(text)
    anywhere += [m["name"] for m in _NATIONAL_LATIN_RE.finditer(text) if len(m["name"]) >= 4]
    anywhere += [n for m in _GLOSSED_NICKNAME_RE.finditer(text)   # “小红帽”（网名，…）; not “王某”（另案处理）
                 if not is_masked_form(n := m["name"] or m["called"])]
    anywhere += latin_names(text)
    anywhere += [n for m in _CUED_NICKNAME_RE.finditer(text) if not is_masked_form(n := m["name"])]   # 上线“阿杰”
    return list(dict.fromkeys([*known, *find_names(text, known), *kin_names(text), *companion_names(text),
                               *anywhere]))


#: A quoted nickname glossed as one (``“小红帽”（网名，真实姓名不详）``) or as the name of someone unidentified
#: (``同村人“老三”（身份不详）``, ``“老K”的男子（身份不详）``), or given as what a person is called
#: (``一名叫“岩坎”的缅甸籍男子``).
_GLOSSED_NICKNAME_RE = re.compile(r"[“\"「](?P<name>[^”\"」，。\n]{1,12})[”\"」](?:的(?:男子|女子|男性|女性|人))?"
                                  r"[（(](?:网名|绰号|外号|昵称|化名|诨名|自称|"
                                  r"[^（）()]{0,6}?(?:身份不详|姓名不详|身份不明|真实姓名不详|另案处理|在逃))|"
                                  r"(?:名叫|叫做|人称|自称)[“\"「](?P<called>[^”\"」，。\n]{1,12})[”\"」]")
