"""Which person names of the named-entity recogniser de-identification keeps (``accept_recognised``): not a word
the context rules know is none, not a masked form, not legal wording, not the name of a body, a place, a company
or a quoted product, not a preposition before a verb. The recogniser reads context but knows nothing of these
documents; these checks use the text around every occurrence of the name and the rjieba dictionary."""

from __future__ import annotations

import re

import rjieba

from jiancha.corpus.name_rules import NICKNAME_CUES
from jiancha.corpus.name_shape import NOT_NAME_PARTS, NOT_NAMES, is_masked_form

#: Word classes of the segmenter's dictionary that open no name: verbs, adjectives, adverbs (发生, 值班, 指定).
_VERB_CLASSES = frozenset({"v", "vn", "vd", "a", "ad", "d"})
#: Surnames that are also prepositions or conjunctions (向, 于, 和, 同, 对, 把, 将): before a verb they are that.
_PREPOSITION_SURNAMES = frozenset("向于和同对把将")


def _preposition_then_verb(name: str) -> bool:
    """``向指定`` (in 向指定账户转账), ``和值班`` (被害人和值班律师): a surname that is also a preposition, then a verb or
    adjective of the dictionary.

    >>> _preposition_then_verb("向指定"), _preposition_then_verb("和值班"), _preposition_then_verb("和志强")
    (True, True, False)

    (Taken only for the recogniser's names: a context rule can tell 辩护人向前进 from 被害人和值班律师.)
    """
    rest = name[1:]
    if name[:1] not in _PREPOSITION_SURNAMES or not rjieba.has_word(rest):
        return False
    tagged = rjieba.tag(rest)
    return len(tagged) == 1 and tagged[0][1] in _VERB_CLASSES


def _quoted_thing(name: str, text: str) -> bool:
    """Whether a recogniser's name is only ever written in quotes with nothing saying it is a person: the name of
    a product or a scheme (``“融鑫宝”“月月盈”等理财产品``), not a nickname (``上家“阿浪”（身份不明）``).

    >>> _quoted_thing("月月盈", "以“融鑫宝”“月月盈”等理财产品名义"), _quoted_thing("阿浪", "出租给上家“阿浪”（身份不明）")
    (True, False)
    """
    quoted = f"“{name}”"
    if text.count(name) != text.count(quoted):
        return False
    return not any(f"{cue}{quoted}" in text for cue in NICKNAME_CUES) and f"{quoted}（" not in text \
        and f"{quoted}(" not in text


#: What follows a place name's first part (桥西 in 桥西区 / 桥西分局, 海德 in 海德三道).
_PLACE_AFTER = ("区", "县", "市", "镇", "乡", "村", "路", "街", "道", "大道", "分局", "派出所", "三道", "二道", "一道",
                "苏木", "嘎查",   # townships and villages of Inner Mongolia (洪格尔苏木, 拉图雅嘎查)
                "一带", "附近", "境内", "辖区", "片区",   # 巴南区李家沱一带
                "检")   # 桥西检公诉刑不诉〔…〕: the procuratorate in a case number
#: Units of a place that open no name and that the recogniser runs into one (苏木萨 in …苏木萨如拉图雅嘎查, 孟根楚鲁嘎
#: in 孟根楚鲁嘎查).
_PLACE_UNITS = ("苏木", "嘎查")
#: The rest of such a place's name after a recogniser's "name" inside it (孟根 | 楚鲁嘎查).
_INSIDE_VILLAGE_RE = re.compile(r"[\u4e00-\u9fff]{0,6}?(?:苏木|嘎查)")
#: A numbered road after a place's first part (高新南九道, 科技南十二路).
_NUMBERED_ROAD_RE = re.compile(r"[东南西北中]?[一二三四五六七八九十\d]{1,3}[道路街巷]")
#: What follows the name of a city, county or district (景洪市, 勐腊县, 青秀区): a recogniser's "name" that stands
#: once before one of them is that place's name wherever it stands (带给景洪的亲戚, 青秀万达).
_CITY_AFTER = ("市", "县", "州", "盟", "旗", "区")
#: What follows a company's distinctive name (上海星澜网络科技有限公司, 星澜公司).
_ORG_AFTER = ("公司", "有限", "集团", "网络", "科技", "传媒", "贸易", "实业", "商贸", "电子", "信息", "物流", "建设", "置业",
              "投资", "文化", "餐饮", "酒店", "工作室", "商行", "超市", "门市", "矿业", "能源", "农业", "牧业", "林业",
              "渔业", "养殖", "食品", "药业", "化工", "机械", "汽车", "房地产", "开发", "律师事务所", "事务所")


def _org_part(name: str, text: str) -> bool:
    """Whether every occurrence of a recogniser's name is the distinctive part of a company's name, or of a brand
    in quotes (``“星澜影视”APP``), and one at least of a company's.

    >>> _org_part("星澜", "被告单位上海星澜网络科技有限公司；搭建“星澜影视”APP"), _org_part("星澜", "星澜称")
    (True, False)
    """
    spans = [(m.start(), m.end()) for m in re.finditer(re.escape(name), text)]
    company = [text.startswith(_ORG_AFTER, e) for _, e in spans]
    return any(company) and all(c or text[b - 1: b] in "“\"「" for c, (b, _) in zip(company, spans, strict=True))


def _place_part(name: str, text: str) -> bool:
    """Whether a recogniser's name is a place: every occurrence is the first part of a place's name
    (``石家庄市桥西区``), or one is the name of a city or county (``景洪市``).

    >>> _place_part("桥西", "住石家庄市桥西区，石家庄市公安局桥西分局"), _place_part("桥西", "桥西说")
    (True, False)
    >>> _place_part("景洪", "前往景洪市；带给景洪的亲戚")
    True
    >>> [_place_part(n, "住锡尼河西苏木孟根楚鲁嘎查") for n in ("孟根楚鲁嘎", "苏木孟根", "孟根")]
    [True, True, True]
    """
    if name.startswith(_PLACE_UNITS) or all(_INSIDE_VILLAGE_RE.match(text, m.end())
                                            for m in re.finditer(re.escape(name), text)):
        return True
    at = [m.end() for m in re.finditer(re.escape(name), text)]
    return bool(at) and (all(text.startswith(_PLACE_AFTER, k) or _NUMBERED_ROAD_RE.match(text, k)
                             or text.startswith(_PLACE_UNITS, k - 1) for k in at)
                         or any(text.startswith(_CITY_AFTER, k) for k in at))


#: How the names of bodies and units end (陈仓大队, 城关中队, 东城站): a recogniser's "name" of three characters or
#: more ending so is one of them.
_BODY_ENDINGS = tuple("队局院司所部处厂店站科室组")
#: Characters that name a relative after 其 / 之 (其子, 之女).
_KIN_CHARS = frozenset("子女妻夫父母兄弟姐妹")
#: How words for people by their trade end (牛贩子, 菜贩): a recogniser's "name" of three characters so is one.
_TRADE_ENDINGS = ("贩子", "贩")
#: Words that follow a name and that the recogniser sometimes runs into it (证人次仁卓玛系在… → 仁卓玛系).
_FOLLOWER_ENDINGS = tuple("系的称在于将被向对说是等已")


def accept_recognised(name: str, text: str) -> bool:
    """Whether a person name of the recogniser is kept: not a known non-name, not already masked, no legal wording
    inside, not the name of a body (陈仓大队) or a trade (牛贩子) nor run into the word after it (仁卓玛系), not only
    ever a quoted product name, the first part of a place's name or the distinctive part of a company's."""
    return (name not in NOT_NAMES and not is_masked_form(name) and not any(p in name for p in NOT_NAME_PARTS)
            and not (len(name) == 2 and name[0] in "其之" and name[1] in _KIN_CHARS)   # 由其子于洪波监护
            and not (len(name) >= 3 and name.endswith((*_BODY_ENDINGS, *_FOLLOWER_ENDINGS, *_TRADE_ENDINGS)))
            and not _preposition_then_verb(name)
            and not _quoted_thing(name, text) and not _place_part(name, text) and not _org_part(name, text))
