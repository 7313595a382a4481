"""Stage 4, de-identification of the four text fields of a record, and a residue scan.

Masked: names of natural persons (suspects, victims, witnesses, relatives, co-offenders, counsel, officials),
found by a named-entity recogniser (``jiancha.corpus.ner``, Baidu LAC) and by context rules (after words such as
犯罪嫌疑人 / 被害人 / 证人 / 辩护人 / 路人 / 职工, in lists after them, in the person headers, after a kinship word,
before a gloss on a co-offender's case (伙同X（在逃）), nicknames and former names), then replaced everywhere in
the record; consistent within a record: 张伟 → 张某, 张伟明 → 张某某, several people sharing a
surname → 张某甲 / 张某乙 in order of appearance), 18-digit ID numbers, mobile numbers, exact birth dates (year
and month kept), licence plates (province and letter kept), bank card / account numbers, e-mail addresses,
WeChat / QQ / Alipay account names and house numbers. Amounts, times, charges, articles, public bodies and
procedural events are left as they are. Pure functions; the patterns are compiled once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from jiancha.corpus.names import COMPOUND_SURNAMES, SINGLE_SURNAMES, surname_of
from jiancha.corpus.ner import DEFAULT_NER, person_names
from jiancha.datasets.records import PDPRecord
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

#: The record fields that are de-identified.
DEID_FIELDS: tuple[str, ...] = ("person_info", "procedure", "fact", "raw_reasoning_and_decision")
#: What a masked number or account becomes.
MASK = "×××"

#: Words after a cue that look like names but are not (全部 after 店主…).
NOT_NAMES: frozenset[str] = frozenset({"全部", "全体", "全家", "全额", "于是", "关于", "和解", "方面", "单位", "管理",
                                       "时许", "同日", "同年", "高度", "明确", "明显", "陈述", "许可", "华人",
                                       # statutory wording (刑法第三百四十一条: 陆生野生动物)
                                       "陆生", "水生",
                                       # people named by what they are, before a gloss (证人家属（系…）)
                                       "本人", "亲属", "家属", "同事", "朋友", "邻居", "老板", "工友", "同学", "群众",
                                       # words after a bystander cue (朋友关系, 司机师傅, 店主要求)
                                       "关系", "师傅", "主要", "要求", "双方", "一同", "相约",
                                       # words opened by the surname 强
                                       "强行", "强迫", "强制", "强奸", "强令", "强拉", "强抢", "强占", "强取", "强烈",
                                       "强调", "强硬", "强化", "强度", "强大",
                                       # and by 满, 相
                                       "满足", "满意", "满分", "满月", "满载", "相关", "相应", "相互", "相同",
                                       "近亲属"})
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
#: The characters of ``_STOP`` as the body of a regex character class.
_STOP_CLASS = re.escape("".join(sorted(_STOP)))
_SURNAME = "(?:" + "|".join(COMPOUND_SURNAMES) + "|[" + "".join(sorted(SINGLE_SURNAMES)) + "])"
_CUE_RE = re.compile("|".join(sorted(PERSON_CUES, key=len, reverse=True)))
_SURNAME_NAME_RE = re.compile(f"{_SURNAME}[{_CJK}]{{1,2}}")
#: A further name in a list after a found one, delimited on both sides (``被告人张伟、李强、王小燕等``,
#: ``证人赵某某、和志强的证言``).
_LISTED_NAME_RE = re.compile(f"、(?P<name>{_SURNAME}[{_CJK}]{{1,2}}?)"
                             f"(?=[、，,。；;：:（(等的\\s]|[二三四五六七八九几]人|涉嫌|伙同|共同|分别)")
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
_GLOSSED_NAME_RE = re.compile(f"[{_CJK}]{{2,4}}?(?={_CUE_GLOSS})")
#: A co-offender or companion named after the verb that joins them to the suspect or after punctuation, before a
#: gloss on their case: ``伙同阙海洋（在逃）``, ``与卓玛（另案处理）``, ``纠集巴图、乌兰（均已判刑）``, ``“老板”岩香（在逃）``.
_COMPANION_RE = re.compile(f"(?:伙同|纠集|雇佣|雇用|指使|教唆|邀约|约上|叫上|带领|与|和|由|向|给|将|把|[、，,；;：:”\"」』])"
                           f"(?P<name>(?:(?![{_STOP_CLASS}])[{_CJK}·]){{2,6}}?)(?={_GLOSS})")
#: What a person gave, in an evidence list or a narrative (``证人巴图的证言``, ``邻居格桑、巴桑证实``).
_TESTIMONY = "(?:的(?:证言|陈述|证词|辨认|供述|询问笔录)|(?:均|都|也|亦|共同)?(?:证实|证明(?![书材文信])|指认|辨认出|陈述|证称))"
#: A name without a known surname in a list after a found one, in a list of people whose testimony follows
#: (``证人巴某某、宝音德力格尔的证言``).
_LISTED_ANY_RE = re.compile(f"、(?P<name>(?:(?![{_STOP_CLASS}])[{_CJK}·]){{2,6}})"
                            f"(?=(?:、[^，,。；;：:]{{2,30}}?)?{_TESTIMONY})")
#: The first name of a list of witnesses after a context word, whatever its form: the list delimiter ends it
#: (``证人巴图、宝音德力格尔的证言``).
_LIST_HEAD_RE = re.compile(f"(?P<name>(?:(?![{_STOP_CLASS}])[{_CJK}·]){{2,6}}?)"
                           f"(?=、[^，,。；;：:]{{2,30}}?{_TESTIMONY})")
#: A name of any form right before what the person said or showed (``邻居拓海军证实了…``).
_BEFORE_TESTIMONY_RE = re.compile(f"(?P<name>(?:(?![{_STOP_CLASS}])[{_CJK}·]){{2,4}}?)(?={_TESTIMONY})")
#: A surname and one or two characters right before what a person does (``被害人方向驾驶的电动自行车``,
#: ``邻居强国闻声赶到``): the verb ends the name even where its second character would stop it (向).
_BEFORE_ACTION_RE = re.compile(f"(?P<name>{_SURNAME}[{_CJK}]{{1,2}}?)(?=驾驶|骑行|报警|报案|闻声|赶到|赶来|目睹|证实|证称|"
                               f"路过|到场|在场)")
#: Context words after which a person's name nearly always follows, so that a run of three characters closed by a
#: conjunction or a comma is taken for a name whatever its surname (``辩护人太京哲和…``).
_STRONG_CUES = frozenset({"被告人", "被不起诉人", "犯罪嫌疑人", "被害人", "证人", "辩护人", "法定代理人", "诉讼代理人"})
_THREE_BEFORE_STOP_RE = re.compile(f"(?P<name>(?:(?![{_STOP_CLASS}])[{_CJK}]){{3}})(?=[和及、，,的])")
#: A transliterated name with a middle dot after a context word (``被害人阿依古丽·吐尔逊的丈夫``).
_DOTTED_NAME_RE = re.compile(f"(?:(?![{_STOP_CLASS}])[{_CJK}]){{1,8}}"
                             f"(?:[·•・](?:(?![{_STOP_CLASS}])[{_CJK}]){{1,8}})+")
#: A transliterated name with a middle dot standing between punctuation or after a copula, anywhere
#: (``，古丽娜尔·艾力及努某某在场``, ``（伊万诺娃·奥莉加）``, ``经营者为古丽娜尔·艾则孜``): the first part at most six
#: characters.
_DELIMITED_DOTTED_RE = re.compile(f"(?:(?<=[、，,。；;：:（(“\"\\s为是系叫])|^)(?P<name>(?:(?![{_STOP_CLASS}])[{_CJK}]){{1,6}}"
                                  f"(?:[·•・](?:(?![{_STOP_CLASS}])[{_CJK}]){{1,8}})+)"
                                  f"(?=[、，,。；;：:）)”\"\\s及和与等的在称证向]|$)", re.M)
#: A foreigner's name in Latin letters after their nationality (``俄罗斯籍旅客IVANOVA OLGA``, ``日本籍商人TANAKA``).
_NATIONAL_LATIN_RE = re.compile(f"籍[{_CJK}]{{0,6}}?(?P<name>{LATIN_NAME_RE.pattern})")
#: A name listed after another person (``麦某某、羊春梅证实``, ``麦家豪、羊春梅在场``), whatever its surname.
_LISTED_AFTER_RE = f"、(?P<name>(?:(?![{_STOP_CLASS}])[{_CJK}·]){{2,6}}?)(?=[、及和等对均都也]|{_TESTIMONY}|在场|二人|三人)"
#: A name listed before an already-masked one (``王立、李某某的证言``).
_LISTED_BEFORE_MASKED_RE = re.compile(f"(?:(?<=[、，,；;：:（(\\s对与和向将把给由])|^)(?P<name>(?:(?![{_STOP_CLASS}])[{_CJK}·]){{2,4}}?)、"
                                      f"(?=[{_CJK}]{{1,3}}?{PSEUDONYM_MARK})", re.M)
#: A name as written in a person header: two to six ideographs (乌云其其格, 阿卜杜热合曼), a transliterated
#: foreign or minority name with a middle dot (奥孔克沃·奇迪, 买买提·艾力), or a name in Latin letters.
_HEADER_NAME_RE = re.compile(f"[{_CJK}]{{2,6}}|[{_CJK}]{{1,8}}(?:[·•・][{_CJK}]{{1,8}})+|" + LATIN_NAME_RE.pattern)
_PSEUDONYM_TAIL = f"(?![{PSEUDONYM_MARK}{PSEUDONYM_SUFFIXES}])"

#: The number of an identity document after its name (护照号码A10473825, 公民身份号码…, 港澳通行证号码…): an
#: 18-character ID number even when other text follows without a break, else a run of letters and digits.
#: (The leading lookahead tests the cue's first character cheaply at each position before the alternation.)
ID_DOCUMENT_RE = re.compile(
    r"(?=[公身护往港台通居证])(?P<cue>公民身份号码|身份证号码|身份证号|身份证|护照号码|护照号|护照|(?:往来)?(?:港澳|台湾)?通行证号码?|"
    r"居留证号码?|证件号码|证件号)(?P<sep>(?:为|是)?[:：]?\s*)"
    r"(?P<id>\d(?: ?\d){16} ?[\dXx](?![0-9A-Za-z])|\d{17}[\dXx]|[A-Za-z]{0,3}\d[A-Za-z0-9]{4,19}(?![A-Za-z0-9]))"
)
ID_NUMBER_RE = re.compile(
    r"(?<![0-9A-Za-z])\d{6}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![0-9A-Za-z])"
)
MOBILE_RE = re.compile(r"(?<!\d)1[3-9]\d[ -]?\d{4}[ -]?\d{4}(?!\d)")
ACCOUNT_NUMBER_RE = re.compile(r"(?<![0-9A-Za-z])\d{16,19}(?![0-9A-Za-z])")
#: A card, account or ID number printed in groups (6222 0212 3456 7890 123, 1101 0519 9602 2940 26): 16 to 19
#: characters in at least three space-separated groups.
GROUPED_NUMBER_RE = re.compile(r"(?<![0-9A-Za-z] )(?<![0-9A-Za-z])(?=(?:\d ?){15,18}[\dXx](?![0-9A-Za-z]))"
                               r"\d{2,6}(?: \d{2,6}){2,8}(?: ?[Xx])?(?![0-9A-Za-z])")
EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
ONLINE_ACCOUNT_RE = re.compile(r"(?P<cue>(?:微信|QQ|qq|支付宝|抖音|快手|微博|钉钉)(?:号码|账号|帐号|账户|号|ID|id)?)"
                               r"(?P<sep>(?:[（(](?:号码|账号|帐号|号)?)?(?:为|是)?[:：]?\s*[“\"「『]?)"
                               r"(?P<acc>[A-Za-z][A-Za-z0-9_-]{4,}|\d{5,12})(?![A-Za-z0-9_-])")
#: A boat's registration (``皖芜湖渔12073号``, ``浙岱渔运05678``): the province, port and kind are kept.
BOAT_RE = re.compile(r"(?P<p>[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼黔滇陇秦蜀][\u4e00-\u9fff]{0,4}?"
                     r"渔[运捕养辅冷]?)(?P<n>\d{4,6})(?=号|[^\d]|$)")
#: An online nickname in quotes (``昵称“山城老冼”``, ``网名为“夜行者”``).
NICKNAME_RE = re.compile(r"(?P<cue>(?:微信|QQ|抖音|快手|微博|游戏)?(?:昵称|网名|用户名))(?P<sep>(?:为|是|叫)?[:：]?\s*[“\"「『])"
                         r"(?P<nick>[^”\"」』\n]{1,20})(?=[”\"」』])")
#: A phone number with an international prefix (+852 9137 4482, +86-138-1234-5678).
INTERNATIONAL_PHONE_RE = re.compile(r"\+\d{1,3}[ -]?\d{2,4}(?:[ -]?\d{3,4}){1,3}(?![\d])")
PLATE_RE = re.compile(r"(?P<p>[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼黔滇陇秦蜀])(?P<l>[A-HJ-NP-Z])[·•]?"
                      r"[A-HJ-NP-Z0-9]{5,6}(?![A-Za-z0-9])")
BIRTH_DATE_RE = re.compile(r"(?P<ym>\d{4}年\d{1,2}月)\d{1,2}日(?=出生|生)")
#: A landline number with its area code (0311-86651207, 024-2284 6110, (024)22846110).
LANDLINE_RE = re.compile(r"(?<![\d-])(?:0\d{2,3}-(?:\d{7,8}|\d{3,4}[ -]\d{4})|[（(]0\d{2,3}[）)]\s?\d{7,8})(?![\d-])")
#: One level of an address below the street: a number (Arabic or Chinese) and its unit (号院 / 号楼 / 栋 / 幢 /
#: 座 / 单元 / 层 / 室 / 号 / 组 / 社 / 队 / 弄), optionally ``之三``.
_ADDRESS_UNIT = r"(?:号院|号楼|栋|幢|座|单元|层|室|号|组|社|队|弄)(?:之[一二三四五六七八九十]{1,2})?"
_ADDRESS_LEVEL = r"(?:\d+|[一二三四五六七八九十]{1,3})" + _ADDRESS_UNIT
#: Two or more address levels in a row, one of them in Arabic digits: 14栋1单元2203室, 四社26号, 569弄12号1402室,
#: 12号院3号楼1单元402室. Masked as a house number (×号), wherever it stands; the place names before it are kept.
ADDRESS_UNITS_RE = re.compile(rf"(?=[\d一二三四五六七八九十])(?<![\d\-])(?=(?:[一二三四五六七八九十]{{1,3}}{_ADDRESS_UNIT})*\d)(?:{_ADDRESS_LEVEL}){{2,}}")
#: A house number after a street or village, with what follows it: 18号3幢502室, 1046号3-5-2 (楼-单元-室).
#: The part of a home address below the town after the word that introduces it (户籍地 / 住 / 现住 / 暂住 / 家住 /
#: 住址 …): ``现住安溪县凤城镇河滨北路12号…`` → ``河滨北路12号…``, ``户籍地…升钟镇石龙村委会二组`` → ``石龙村委会二组``.
#: Province, city, county and town (``keep``) stay; the rest must name a road, village, group or building.
_ADMIN_UNIT = r"(?:自治区|自治州|自治县|省|市|盟|地区|县|旗|镇|乡|苏木|街道办事处|街道|办事处|(?<![小社园校营厂矿景商])区)"
_ADDRESS_MARKERS = r"路|街|巷|弄|道|村|组|社|屯|号|室|楼|栋|幢|单元|嘎查|浩特|小区|公寓|大厦|花园|苑|里|庄|寨|坊|队"
HOME_ADDRESS_RE = re.compile(
    r"(?P<cue>(?:(?<=[，,；;。：:（(\s])|(?<=生前)|^)(?:户籍(?:所在)?地|户籍|现住(?:址|地)?|暂住(?:地|址)?|家住|住址|居住地|"
    r"住(?![院宿处手房所]))(?:为|是|在|于)?[:：]?)"
    rf"(?P<keep>(?>(?:[{_CJK}]{{1,12}}?{_ADMIN_UNIT})*))"
    rf"(?P<addr>(?=[^，,。；;、（）()\n]*?(?:{_ADDRESS_MARKERS}))[^，,。；;、（）()\n]{{2,40}}?)(?=[，,。；;、（）()\n]|$)",
    re.M,
)
HOUSE_NUMBER_RE = re.compile(r"(?<=[路街巷弄道村组里段])\d+号(?:院)?(?:\d+(?:幢|栋|号楼|楼))?(?:\d+单元)?(?:\d+(?:室|号))?"
                             r"(?:\d{1,4}(?:-\d{1,4}){1,3}(?![\d\-年月日]))?")


def _name_at(cand: str, text: str) -> str | None:
    """The name at the start of ``cand`` (surname + one or two characters), its length judged from ``text``."""
    surname = surname_of(cand)
    if surname is None:
        return None
    given = cand[len(surname):]
    if not given or given[0] in _STOP or given[1:2] == PSEUDONYM_MARK:   # 吉克某某: a masked compound surname
        return None
    two = surname + given[0]
    if two in NOT_NAMES:
        return None
    if len(given) == 1 or given[1] in _NOT_THIRD:
        return two
    three = surname + given[:2]
    # a third character belongs to the name only if the two-character form never occurs without it
    return three if text.count(three) == text.count(two) else two


def header_names(person_info: str) -> list[str]:
    """Names declared in the person block, where punctuation fixes their length: ``犯罪嫌疑人张三，男，…`` → 张三,
    ``法定代表人李四，`` → 李四, ``（曾用名王小五）`` → 王小五. Units and names already masked are skipped.

    >>> header_names("犯罪嫌疑人欧阳明，男，1990年出生（曾用名欧阳小明）。\\n被不起诉人王某某，女。")
    ['欧阳明', '欧阳小明']
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
            out.append(name)
        out += [a["name"] for a in NAME_ALIAS_RE.finditer(s)]
    return [n for n in dict.fromkeys(out)
            if _HEADER_NAME_RE.fullmatch(n) and PSEUDONYM_MARK not in n and n not in NOT_NAMES]


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


def _name_after_cue(text: str, start: int, by_length: list[str], cue: str = "") -> tuple[str, bool] | None:
    """The name that starts at ``start`` (right after a context word) and whether it is a real one (False: an
    already-masked form, after which a list of real names may still follow): a known header name as it is, a
    name in Latin letters (辩护人Lucia Bianchi), a masked form, a name before a gloss (证人海燕（系…）), else a
    surname and one or two characters."""
    if (known := next((k for k in by_length if text.startswith(k, start)), None)) is not None:
        return known, True
    if (latin := LATIN_NAME_RE.match(text, start)) is not None and len(latin.group(0)) >= 4:
        return latin.group(0), True
    if (masked := _MASKED_NAME_RE.match(text, start)) is not None:
        return masked.group(0), False
    if (dotted := _DOTTED_NAME_RE.match(text, start)) is not None:
        return dotted.group(0), True
    if (head := _LIST_HEAD_RE.match(text, start)) is not None and plausible_name(head["name"]):
        return head["name"], True
    if (said := _BEFORE_TESTIMONY_RE.match(text, start)) is not None and plausible_name(said["name"]):
        return said["name"], True
    if (actor := _BEFORE_ACTION_RE.match(text, start)) is not None and plausible_name(actor["name"]):
        return actor["name"], True
    if cue in _STRONG_CUES and (three := _THREE_BEFORE_STOP_RE.match(text, start)) and plausible_name(three["name"]):
        return three["name"], True
    glossed = _GLOSSED_NAME_RE.match(text, start)
    if glossed is not None and glossed.group(0)[0] not in _STOP and glossed.group(0) not in NOT_NAMES:
        return glossed.group(0), True
    plain = _SURNAME_NAME_RE.match(text, start)
    name = _name_at(plain.group(0), text) if plain is not None else None
    return (name, True) if name else None


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
        start = m.end()
        found = _name_after_cue(text, start, by_length, m.group(0))
        if found is None or any(p in found[0] for p in NOT_NAME_PARTS):   # 辩护人和认罪认罚…: 和 is a conjunction
            continue
        if found[1] and not plausible_name(found[0]):   # 企业主管部门: 业主 inside a word, 管部门 is no name
            continue
        name, real = found
        if real and name not in names:
            names.append(name)
        end = start + len(name)
        while True:
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

    >>> [plausible_name(w) for w in ("卓玛", "被害人", "和认罪", "张某某", "家属")]
    [True, False, False, False, False]
    """
    return (word not in NOT_NAMES and not any(p in word for p in NOT_NAME_PARTS) and PSEUDONYM_MARK not in word
            and not word.endswith(_ROLE_ENDINGS) and not any(c in word for c in PERSON_CUES))


def companion_names(text: str) -> list[str]:
    """Co-offenders and companions named after the verb that joins them to the suspect and before a gloss on
    their case (see ``_COMPANION_RE``), whatever their surname.

    >>> companion_names("伙同阙海洋（在逃）、与卓玛（另案处理）及被害人（系其妻）")
    ['阙海洋', '卓玛']
    """
    return list(dict.fromkeys(m["name"] for m in _COMPANION_RE.finditer(text) if plausible_name(m["name"])))


def name_mapping(names: list[str], text: str) -> dict[str, str]:
    """Real name → 某-form, consistent within one record (see module docstring)."""
    by_surname: dict[str, list[str]] = {}
    for n in names:
        by_surname.setdefault(surname_of(n) or n[0], []).append(n)
    out: dict[str, str] = {}
    mark, first = PSEUDONYM_MARK, PSEUDONYM_SUFFIXES[0]
    for surname, group in by_surname.items():
        if len(group) == 1:
            n = group[0]
            masked = surname + (mark if len(n) - len(surname) == 1 else mark * 2)
            taken = re.search(re.escape(masked) + _PSEUDONYM_TAIL, text)
            out[n] = surname + mark + first if taken else masked
        else:
            for k, n in enumerate(group):
                out[n] = surname + mark + PSEUDONYM_SUFFIXES[k % len(PSEUDONYM_SUFFIXES)]
    return out


@dataclass(frozen=True)
class MaskedSpan:
    """One piece of text replaced by de-identification: field, kind (name / id_number / mobile / …), the text."""

    field: str
    kind: str
    text: str


#: Non-name patterns, in the order they are applied, with their replacement.
_PATTERN_MASKS: tuple[tuple[str, re.Pattern[str], object], ...] = (
    ("id_document", ID_DOCUMENT_RE, lambda m: m["cue"] + m["sep"] + MASK),
    ("address", HOME_ADDRESS_RE, lambda m: m["cue"] + m["keep"] + MASK),
    ("grouped_number", GROUPED_NUMBER_RE, MASK),
    ("id_number", ID_NUMBER_RE, MASK),
    ("email", EMAIL_RE, MASK),
    ("phone", INTERNATIONAL_PHONE_RE, MASK),
    ("nickname", NICKNAME_RE, lambda m: m["cue"] + m["sep"] + MASK),
    ("online_account", ONLINE_ACCOUNT_RE, lambda m: m["cue"] + m["sep"] + MASK),
    ("mobile", MOBILE_RE, MASK),
    ("landline", LANDLINE_RE, MASK),
    ("account_number", ACCOUNT_NUMBER_RE, MASK),
    ("plate", PLATE_RE, lambda m: m["p"] + m["l"] + "×××××"),
    ("boat", BOAT_RE, lambda m: m["p"] + "×××××"),
    ("birth_date", BIRTH_DATE_RE, lambda m: m["ym"]),
    ("house_number", ADDRESS_UNITS_RE, "×号"),
    ("house_number", HOUSE_NUMBER_RE, "×号"),
)


#: The group of a pattern that holds the masked text, where the cue before it is kept.
_SPAN_GROUP: dict[str, str] = {"online_account": "acc", "id_document": "id", "address": "addr", "nickname": "nick",
                               "boat": "n"}


#: The registered address of a company or body (``公司（住所地：上海市浦东新区张杨路1088号12楼）``): public, kept.
UNIT_ADDRESS_RE = re.compile(r"(?:住所地|住所|注册地址?|经营地址?|营业地址?)(?:为|是|在|位于)?[:：]?[^，,。；;）)\n]{2,40}")
#: What names a body shortly before its address, in the same sentence.
_BODY_BEFORE_RE = re.compile(r"(?:公司|单位|集团|工厂|中心|协会|学校|医院|银行|企业|统一社会信用代码)[^。；;\n]{0,60}$")
#: Kinds of masked values that are also masked wherever else the same value stands in the record
#: (``QQ（号码1097734652）`` … ``号码为1097734652的QQ账号``).
_REPEATED_KINDS = frozenset({"id_document", "id_number", "online_account", "mobile", "phone", "landline",
                             "account_number", "grouped_number", "email", "nickname"})


def mask_patterns(text: str, field: str = "", spans: list[MaskedSpan] | None = None) -> str:
    """Mask every non-name PII pattern in ``text`` (a body's registered address is kept as it is); with ``spans``,
    append what was replaced.

    >>> mask_patterns("某公司（住所地：郑州市花园路18号）的员工，住郑州市金水区文化路9号3单元")
    '某公司（住所地：郑州市花园路18号）的员工，住郑州市金水区×××'
    """
    kept = [m.group(0) for m in UNIT_ADDRESS_RE.finditer(text)
            if _BODY_BEFORE_RE.search(text, max(0, m.start() - 80), m.start())]
    for k, piece in enumerate(kept):
        text = text.replace(piece, f"\x00{chr(0xE000 + k)}\x00", 1)
    for kind, pattern, repl in _PATTERN_MASKS:
        if spans is not None:
            spans += [MaskedSpan(field, kind, m.group(_SPAN_GROUP.get(kind, 0)))
                      for m in pattern.finditer(text)]
        text = pattern.sub(repl, text)  # type: ignore[arg-type]
    for k, piece in enumerate(kept):
        text = text.replace(f"\x00{chr(0xE000 + k)}\x00", piece, 1)
    return text


def mask_repeats(text: str, spans: list[MaskedSpan], field: str = "") -> str:
    """``text`` with every further occurrence of a masked number or account (of ``_REPEATED_KINDS``, five
    characters or more) masked too; the replacements are appended to ``spans``.

    >>> mask_repeats("号码为1097734652的QQ账号", [MaskedSpan("fact", "online_account", "1097734652")])
    '号码为×××的QQ账号'
    """
    values = sorted({sp.text for sp in spans if sp.kind in _REPEATED_KINDS and len(sp.text) >= 5}, key=len,
                    reverse=True)
    if not values:
        return text
    pattern = re.compile("(?<![0-9A-Za-z])(?:" + "|".join(map(re.escape, values)) + ")(?![0-9A-Za-z])")
    spans += [MaskedSpan(field, "repeat", m.group(0)) for m in pattern.finditer(text)]
    return pattern.sub(MASK, text)


@dataclass(frozen=True)
class DeidResult:
    record: PDPRecord
    names: dict[str, str]
    masked: tuple[MaskedSpan, ...] = ()


#: A relative named right after the kinship word (``其妻乌云其木格向…``, ``其子孙立东``): the name runs to the next
#: function character or a verb that follows a person, whatever its surname (names without a surname: Mongolian,
#: Tibetan).
#: Verbs that follow a relative's name (其妻乌云其其格代表家属出具谅解书): the name ends before them.
_AFTER_PERSON_VERBS: tuple[str, ...] = ("代表", "代为", "出具", "提供", "证实", "证明", "签署", "签字", "表示", "要求",
                                        "同意", "前往", "作为", "陪同", "书写", "报警", "来到")
_KIN_NAME_RE = re.compile(f"[其之](?:丈夫|妻子|儿子|女儿|父亲|母亲|哥哥|姐姐|弟弟|妹妹|妻|夫|子|女|父|母|兄|弟|姐|妹)"
                          f"(?P<name>(?:(?![{_STOP_CLASS}])[{_CJK}·]){{2,6}})"
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

    >>> kin_names("其妻乌云其木格向本院提交了证明。其子孙立东、其女在场。")
    ['乌云其木格', '孙立东']
    """
    matches = list(_KIN_NAME_RE.finditer(text))
    out = [m["name"] for m in matches]
    closed = {m["name"] for m in matches if _KIN_CLOSE_RE.match(text, m.end())}   # 其妻其其格，
    # without a surname, a run is a name only when long (乌云其木格, 扎西多吉) and not opened by a verb (之子办理…)
    return [n for n in dict.fromkeys(out) if n not in NOT_NAMES and not any(p in n for p in NOT_NAME_PARTS)
            and (surname_of(n) or ((len(n) >= 4 or (len(n) == 3 and n in closed)) and n[0] not in _VERB_START
                                   and not n.startswith(_AFTER_PERSON_VERBS + _EVENT_STARTS)))]


def record_names(rec: PDPRecord, ner: str = DEFAULT_NER) -> list[str]:
    """Every natural-person name of a record, in order of first appearance: the person headers, the context
    rules, and the recogniser's person names (filtered as in ``ner.is_person_name`` and ``NOT_NAMES``)."""
    joined = "\n".join(getattr(rec, f) for f in DEID_FIELDS)
    known = header_names(rec.person_info)
    anywhere = [a["name"] for a in NAME_ALIAS_RE.finditer(joined) if plausible_name(a["name"])]   # 绰号“阿彪”
    anywhere += [m["name"] for m in _DELIMITED_DOTTED_RE.finditer(joined) if plausible_name(m["name"])]
    anywhere += [m["name"] for m in _NATIONAL_LATIN_RE.finditer(joined) if len(m["name"]) >= 4]
    found = dict.fromkeys([*known, *find_names(joined, known), *kin_names(joined), *companion_names(joined),
                           *anywhere])
    for name in person_names(joined, ner):
        if name not in NOT_NAMES and not _is_masked_form(name) and not any(p in name for p in NOT_NAME_PARTS) \
                and not _quoted_thing(name, joined):
            found.setdefault(name)
    found.update(dict.fromkeys(listed_beside(joined, list(found))))
    names = [n for n in found if n in joined]
    # a piece of a longer name that never stands alone is not a second person (周立 inside 周立新)
    names = [n for n in names if not any(n != m and n in m and joined.count(n) == joined.count(m) * m.count(n)
                                         for m in names)]
    return sorted(names, key=joined.find)


#: Words before a quoted nickname of a person (``上家“阿浪”``, ``外号“黑仔”``).
_NICKNAME_CUES = ("上家", "下家", "老板", "男子", "女子", "绰号", "外号", "网名", "昵称", "人称", "自称")


def _quoted_thing(name: str, text: str) -> bool:
    """Whether a recogniser's name is only ever written in quotes with nothing saying it is a person: the name of
    a product or a scheme (``“融鑫宝”“月月盈”等理财产品``), not a nickname (``上家“阿浪”（身份不明）``).

    >>> _quoted_thing("月月盈", "以“融鑫宝”“月月盈”等理财产品名义"), _quoted_thing("阿浪", "出租给上家“阿浪”（身份不明）")
    (True, False)
    """
    quoted = f"“{name}”"
    if text.count(name) != text.count(quoted):
        return False
    return not any(f"{cue}{quoted}" in text for cue in _NICKNAME_CUES) and f"{quoted}（" not in text \
        and f"{quoted}(" not in text


def listed_beside(text: str, names: list[str]) -> list[str]:
    """Names listed right after one of ``names`` or after a masked form, or right before a masked form, whatever
    their surname (``麦某某、羊春梅证实``, ``王立、李某某的证言``).

    >>> listed_beside("但麦家豪、羊春梅证实案发当晚；王立、李某某的证言", ["麦家豪"])
    ['羊春梅', '王立']
    """
    before = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    anchor = f"(?:{PSEUDONYM_MARK}[{PSEUDONYM_SUFFIXES}]?" + (f"|{before}" if before else "") + ")"
    found = [m["name"] for m in re.finditer(anchor + _LISTED_AFTER_RE, text)]
    found += [m["name"] for m in _LISTED_BEFORE_MASKED_RE.finditer(text)]
    return [n for n in dict.fromkeys(found) if plausible_name(n) and n not in names]


def _is_masked_form(word: str) -> bool:
    """``张某甲`` / ``某甲``: a pseudonym with a sequence suffix."""
    return PSEUDONYM_MARK in word or bool(re.fullmatch(f".{{1,2}}[{PSEUDONYM_SUFFIXES}]", word)
                                           and word[-2:-1] == PSEUDONYM_MARK)


def deidentify_record(rec: PDPRecord, ner: str = DEFAULT_NER) -> DeidResult:
    """The record with its four text fields de-identified, the name mapping used, and every span replaced."""
    joined = "\n".join(getattr(rec, f) for f in DEID_FIELDS)
    names = record_names(rec, ner)
    aliases = {a: n for a, n in header_aliases(rec.person_info).items() if a in joined}
    names = [n for n in names if n not in aliases]
    mapping = name_mapping(names, joined)
    # a foreigner's name in the original script gets the pseudonym of its transliteration, or the transliteration
    # itself where that is already masked (丹某某（KOVÁCS DÁNIEL，匈牙利国籍）)
    mapping.update({a: mapping.get(n, n) for a, n in aliases.items() if n in mapping or PSEUDONYM_MARK in n})
    # a name followed by 某 is part of a masked form (巴桑 in 巴桑某某) and stays
    name_re = (re.compile("(?:" + "|".join(map(re.escape, sorted(mapping, key=len, reverse=True))) + f")(?!{PSEUDONYM_MARK})")
               if mapping else None)
    changes = {}
    spans: list[MaskedSpan] = []
    for f in DEID_FIELDS:
        text = getattr(rec, f)
        if name_re is not None:
            spans += [MaskedSpan(f, "name", m.group(0)) for m in name_re.finditer(text)]
            text = name_re.sub(lambda m: mapping[m.group(0)], text)
        changes[f] = mask_patterns(text, f, spans)
    for f in DEID_FIELDS:
        changes[f] = mask_repeats(changes[f], spans, f)
    return DeidResult(replace(rec, **changes), mapping, tuple(spans))


@dataclass(frozen=True)
class Residue:
    """Something that still looks like PII after de-identification."""

    record_id: str
    field: str
    kind: str
    span: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.record_id, "field": self.field, "kind": self.kind, "span": self.span}


_RESIDUE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("id_number", ID_NUMBER_RE),
    ("mobile", MOBILE_RE),
    ("long_number", re.compile(r"(?<![0-9A-Za-z.])\d{12,}(?![0-9A-Za-z])")),
    ("email", re.compile(r"[A-Za-z0-9._%+-]*@[A-Za-z0-9.-]+")),
    ("plate", PLATE_RE),
    ("birth_date", re.compile(r"\d{4}年\d{1,2}月\d{1,2}日(?:出生|生)")),
    ("online_account", ONLINE_ACCOUNT_RE),
    ("house_number", re.compile(r"(?<=[路街巷弄道村组里段])\d+号")),
    ("house_number", ADDRESS_UNITS_RE),
    ("landline", LANDLINE_RE),
    ("address", HOME_ADDRESS_RE),
    ("grouped_number", GROUPED_NUMBER_RE),
)


def scan_residue(rec: PDPRecord) -> list[Residue]:
    """Anything in the four text fields that still looks like PII: the patterns above, names after a context
    word, and names declared in the person headers wherever they occur."""
    out: list[Residue] = []
    known = header_names(rec.person_info)
    for f in DEID_FIELDS:
        text = getattr(rec, f)
        for kind, pat in _RESIDUE_PATTERNS:
            for m in pat.finditer(text):
                if kind == "online_account" and m["acc"] == MASK:
                    continue
                out.append(Residue(rec.id, f, kind, m.group(0)))
        names = dict.fromkeys([*find_names(text, known), *(n for n in known if n in text)])
        out += [Residue(rec.id, f, "name", n) for n in names]
    return out
