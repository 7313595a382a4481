"""Personal details other than names, found by their shape: identity numbers and documents, phones, bank cards and
accounts, e-mail addresses, online accounts and nicknames, licence plates and boats' numbers, exact birth dates,
home addresses below the town and house numbers; a body's registered address is kept. Pure functions; the patterns
are compiled once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: What a masked number or account becomes.
MASK = "×××"
_CJK = r"\u4e00-\u9fff"

#: The number of an identity document after its name (护照号码A10473825, 公民身份号码…, 港澳通行证号码…): an
#: 18-character ID number even when other text follows without a break, else a run of letters and digits.
#: (The leading lookahead tests the cue's first character cheaply at each position before the alternation.)
ID_DOCUMENT_RE = re.compile(
    r"(?=[公身护往港台通居证驾档社医])(?P<cue>公民身份号码|身份证号码|身份证号|身份证|护照号码|护照号|护照|(?:往来)?(?:港澳|台湾)?通行证号码?|"
    r"居留证号码?|证件号码|证件号|驾驶证档案编号|驾驶证号码?|档案编号|社保卡号|医保卡号)(?P<sep>(?:为|是)?[:：]?\s*)"
    r"(?P<id>\d(?: ?\d){16} ?[\dXx](?![0-9A-Za-z])|\d{17}[\dXx]|[A-Za-z]{0,3}\d{1,4}[ -]\d{5,9}(?![0-9A-Za-z])|"
    r"[A-Za-z]{0,3}\d[A-Za-z0-9]{4,19}(?![A-Za-z0-9]))"
)
ID_NUMBER_RE = re.compile(
    r"(?<![0-9A-Za-z])\d{6}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![0-9A-Za-z])"
)
MOBILE_RE = re.compile(r"(?<!\d)1[3-9]\d[ -]?\d{4}[ -]?\d{4}(?!\d)")
#: A bank card or account number: 16 to 20 digits (a company's account may have 20: 51001870836051512345).
ACCOUNT_NUMBER_RE = re.compile(r"(?<![0-9A-Za-z])\d{16,20}(?![0-9A-Za-z])")
#: A card, account or ID number printed in groups (6222 0212 3456 7890 123, 1101 0519 9602 2940 26): 16 to 19
#: characters in at least three space-separated groups (62170037 6000 1289 455, a space lost at a line's end), or in
#: two long ones (621700351000 2468135).
GROUPED_NUMBER_RE = re.compile(r"(?<![0-9A-Za-z] )(?<![0-9A-Za-z])(?=(?:\d ?){15,18}[\dXx](?![0-9A-Za-z]))"
                               r"(?:\d{2,8}(?: \d{2,8}){2,8}(?: ?[Xx])?|\d{6,13} \d{6,13})(?![0-9A-Za-z])")
#: A handle on a messaging app (``账号@hung_vn96``).
HANDLE_RE = re.compile(r"(?<![A-Za-z0-9._%+-])@[A-Za-z][A-Za-z0-9_]{3,30}(?![A-Za-z0-9_.@])")
EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
ONLINE_ACCOUNT_RE = re.compile(r"(?P<cue>(?:微信|QQ|qq|支付宝|抖音|快手|微博|钉钉)(?:号码|账号|帐号|账户|号|ID|id)?|(?<!银行)(?<!卡)账号)"
                               r"(?P<sep>(?:[（(](?:号码|账号|帐号|号)?)?(?:为|是)?[:：]?\s*[“\"「『]?)"
                               r"(?P<acc>[A-Za-z][A-Za-z0-9_-]{4,}|\d{5,12})(?![A-Za-z0-9_-])")
#: A cryptocurrency wallet or other long key (``TJ8sK2mXq7wPzLr4vN6bY3cHdF5gA1eRtU``, ``0x…``): 25 letters and digits
#: or more, both present.
WALLET_RE = re.compile(r"(?<![A-Za-z0-9])(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{25,90}(?![A-Za-z0-9])")
#: A boat's registration (``皖芜湖渔12073号``, ``浙岱渔运05678``): the province, port and kind are kept.
BOAT_RE = re.compile(r"(?P<p>[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼黔滇陇秦蜀][\u4e00-\u9fff]{0,4}?"
                     r"渔[运捕养辅冷]?)(?P<n>\d{4,6})(?=号|[^\d]|$)")
#: An online nickname in quotes (``昵称“山城老冼”``, ``网名为“夜行者”``).
NICKNAME_RE = re.compile(r"(?P<cue>(?:微信|QQ|抖音|快手|微博|游戏)?(?:昵称|网名|用户名|账号|帐号))(?P<sep>(?:为|是|叫)?[:：]?\s*[“\"「『])"
                         r"(?P<nick>[^”\"」』\n]{1,20})(?=[”\"」』])")
#: A quoted account name before the word for it (``“山城老冉”账号``).
QUOTED_ACCOUNT_RE = re.compile(r"(?P<sep>[“\"「『])(?P<nick>[^“”\"「」『』\n，。；;]{1,20})(?=[”\"」』](?:的)?(?:微信|QQ|抖音)?(?:账号|帐号))")
#: A quoted account or nickname listed right after one already masked (``账号“jkah0619”“xc_ticket2021”等``).
LISTED_AFTER_MASKED_RE = re.compile(r"(?<=×××[”\"」』])(?P<sep>[、，,]?[“\"「『])(?!×××[”\"」』])"
                                    r"(?P<nick>[^“”\"「」『』\n，。；]{1,20})(?=[”\"」』])")
#: A phone number with an international prefix (+852 9137 4482, +86-138-1234-5678, +95 9 4501 23678): 8 to 15
#: digits in groups.
INTERNATIONAL_PHONE_RE = re.compile(r"(?P<num>\+(?=(?:[ -]?\d){8,15}(?![ -]?\d))\d{1,3}(?:[ -]?\d{1,5}){1,6})(?![\d])")
#: A phone number of any shape after the word for it (``澳门手机号码66123478``, ``电话：8765 4321``): six digits or
#: more, so that counts (``拨打电话20余次``) stay.
CUED_PHONE_RE = re.compile(r"(?P<cue>(?:手机|电话|座机|固话|联系方式)(?:号码|号)?)(?P<sep>(?:为|是)?[:：]?\s*)"
                           r"(?P<num>(?=(?:\d[ -]?){5,}\d)\d[\d -]{4,16}\d)(?![\d])")
#: A vehicle plate, the province and the letter of the issuing city kept; a cross-border or special plate ends in
#: a character (粤Z·H823港, 粤Z·A123澳, 京A·1234警).
PLATE_RE = re.compile(r"(?P<p>[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼黔滇陇秦蜀])(?P<l>[A-HJ-NP-Z])[·•]?"
                      r"(?:[A-HJ-NP-Z0-9]{5,6}(?![A-Za-z0-9])|[A-HJ-NP-Z0-9]{4}[港澳学警挂领使试超])")
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
#: Administrative units kept above a home address; a state farm or forest farm is one (萝北县宝泉岭农场), a village
#: group's farm is not, and a sub-district's name may end in a unit's character (西乡街道, 红旗街道).
_ADMIN_UNIT = (r"(?:(?:自治区|自治州|自治县|省|市|盟|地区|县|旗|镇|乡|苏木)(?!街道)|街道办事处|街道|办事处|"
               r"(?<![村社组队])(?:农场|林场)|(?<![小社园校营厂矿景商])区)")
_ADDRESS_MARKERS = r"路|街|巷|弄|道|村|组|社|屯|号|室|楼|栋|幢|单元|嘎查|浩特|小区|公寓|大厦|花园|苑|里|庄|寨|坊|队"
_ROAD = rf"[{_CJK}]{{1,10}}?(?:大道|路|街)"
_LANDMARK = rf"(?:{_ROAD}(?:与{_ROAD})?(?:交叉口|交汇处|路口|旁|附近|[东南西北]侧|对面)(?:[东南西北]{{1,2}}\d+米)?)"
#: The part of a home address below the town after the word that introduces it (户籍地 / 住 / 现住 / 暂住 / 家住 /
#: 住址 …): ``现住安溪县凤城镇河滨北路12号…`` → ``河滨北路12号…``, ``户籍地…升钟镇石龙村委会二组`` → ``石龙村委会二组``.
#: Province, city, county and town (``keep``) stay, and so does a road used as a landmark (``金山路旁``,
#: ``文化路与东风路交叉口北300米``); the rest must name a road, village, group or building.
HOME_ADDRESS_RE = re.compile(
    r"(?P<cue>(?:(?<=[，,；;。：:（(\s])|(?<=生前)|^)(?:户籍(?:所在)?地|户籍|现住(?:址|地)?|暂住(?:地|址)?|家住|住址|居住地|在华住所|在华住址|在华居住地|"
    r"住(?![院宿处手房所]))(?:为|是|在|于)?[:：]?)"
    rf"(?P<keep>(?>(?:[{_CJK}]{{1,12}}?{_ADMIN_UNIT})*){_LANDMARK}?)"
    rf"(?P<addr>(?=[^，,。；;、（）()\n]*?(?:{_ADDRESS_MARKERS}))[^，,。；;、（）()\n]{{2,40}}?)(?=[，,。；;、（）()\n]|$)",
    re.MULTILINE,
)
#: A house number after a street or village, with what follows it: 18号3幢502室, 1046号3-5-2 (楼-单元-室).
HOUSE_NUMBER_RE = re.compile(r"(?<=[路街巷弄道村组里段])\d+号(?:院)?(?:\d+(?:幢|栋|号楼|楼))?(?:\d+单元)?(?:\d+(?:室|号))?"
                             r"(?:\d{1,4}(?:-\d{1,4}){1,3}(?![\d\-年月日]))?")


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
    ("handle", HANDLE_RE, MASK),
    ("nickname", NICKNAME_RE, lambda m: m["cue"] + m["sep"] + MASK),
    ("nickname", QUOTED_ACCOUNT_RE, lambda m: m["sep"] + MASK),
    ("nickname", LISTED_AFTER_MASKED_RE, lambda m: m["sep"] + MASK),
    ("online_account", ONLINE_ACCOUNT_RE, lambda m: m["cue"] + m["sep"] + MASK),
    ("mobile", MOBILE_RE, MASK),
    ("landline", LANDLINE_RE, MASK),
    ("phone", CUED_PHONE_RE, lambda m: m["cue"] + m["sep"] + MASK),
    ("account_number", ACCOUNT_NUMBER_RE, MASK),
    ("wallet", WALLET_RE, MASK),
    ("plate", PLATE_RE, lambda m: m["p"] + m["l"] + "×××××"),
    ("boat", BOAT_RE, lambda m: m["p"] + "×××××"),
    ("birth_date", BIRTH_DATE_RE, lambda m: m["ym"]),
    ("house_number", ADDRESS_UNITS_RE, "×号"),
    ("house_number", HOUSE_NUMBER_RE, "×号"),
)


#: The group of a pattern that holds the masked text, where the cue before it is kept.
_SPAN_GROUP: dict[str, str] = {"online_account": "acc", "id_document": "id", "address": "addr", "nickname": "nick",
                               "boat": "n", "phone": "num"}


#: The registered address of a company or body (``公司（住所地：上海市浦东新区张杨路1088号12楼）``): public, kept.
UNIT_ADDRESS_RE = re.compile(r"(?:住所地|住所|注册地址?|经营地址?|营业地址?)(?:为|是|在|位于)?[:：]?[^，,。；;）)\n]{2,40}")
#: What names a body right before its address, with nothing between but punctuation and its registration number.
_BODY_BEFORE_RE = re.compile(r"(?:公司|单位|集团|工厂|中心|协会|学校|医院|银行|企业)[）)]?"
                             r"(?:[（(，,；;\s]|(?:统一社会信用代码|注册号)[:：]?[0-9A-Z]+)*$")
#: Kinds of masked values that are also masked wherever else the same value stands in the record
#: (``QQ（号码1097734652）`` … ``号码为1097734652的QQ账号``).
_REPEATED_KINDS = frozenset({"id_document", "id_number", "online_account", "mobile", "phone", "landline",
                             "account_number", "grouped_number", "email", "nickname", "wallet", "address"})


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
        while True:
            found = list(pattern.finditer(text))
            if spans is not None:
                spans += [MaskedSpan(field, kind, m.group(_SPAN_GROUP.get(kind, 0))) for m in found]
            text = pattern.sub(repl, text)  # type: ignore[arg-type]
            if not found or pattern is not LISTED_AFTER_MASKED_RE:
                break   # a list goes on after each item masked: “a”“b”、“c”
    for k, piece in enumerate(kept):
        text = text.replace(f"\x00{chr(0xE000 + k)}\x00", piece, 1)
    return text


def mask_repeats(text: str, spans: list[MaskedSpan], field: str = "") -> str:
    """``text`` with every further occurrence of a masked number, account or home address (of ``_REPEATED_KINDS``,
    five characters or more: ``住…熊口镇赵脑村二组`` … ``在赵脑村二组其兄家中``; a nickname from two, ``网名为“老K”`` …
    ``出售给“老K”``) masked too; the replacements are appended to ``spans``.

    >>> mask_repeats("号码为1097734652的QQ账号", [MaskedSpan("fact", "online_account", "1097734652")])
    '号码为×××的QQ账号'
    """
    values = sorted({sp.text for sp in spans if sp.kind in _REPEATED_KINDS
                     and len(sp.text) >= (2 if sp.kind == "nickname" else 5)}, key=len, reverse=True)
    if not values:
        return text
    pattern = re.compile("(?<![0-9A-Za-z])(?:" + "|".join(map(re.escape, values)) + ")(?![0-9A-Za-z])")
    spans += [MaskedSpan(field, "repeat", m.group(0)) for m in pattern.finditer(text)]
    return pattern.sub(MASK, text)
