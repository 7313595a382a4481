"""What a person's name can look like in these documents, judged without context: characters that end names,
words that are none, already-masked forms, and what the rjieba segmenter's dictionary says of a run of characters
(a word of it or not, how common, which word class). Pure functions shared by the context rules
(``jiancha.corpus.name_rules``), the transliterated names (``jiancha.corpus.transliterated``) and the checks on the
recogniser's names (``jiancha.corpus.recognised``).
"""

from __future__ import annotations

import itertools
import re

import rjieba

from jiancha.corpus.names import WORDLIKE_SURNAMES, surname_of
from jiancha.law.phrases import PERSON_CUES, PSEUDONYM_MARK, PSEUDONYM_SUFFIXES

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
STOP_CHARS = set("的称证于在与和及系因将被向对等家所说供陈辩未已是为从到把让使经即均曾又也都就并还以由男女之驾出涉处后共"
                 "先现一二三四五六七八九十、，。；：（）()报案拨") | set(PSEUDONYM_MARK + PSEUDONYM_SUFFIXES)
#: Verbs and adverbs that often follow a two-character name and are rarely the third character of a name
#: (``李明开车`` is 李明 + 开车, ``金燕名下`` is 金燕 + 名下): a candidate third character among them ends the name.
NOT_THIRD = STOP_CHARS | set("开骑持拿打踢砍捅用去回找叫给带逃窃偷抢骗盗卖买借欠收付交约邀帮吸喝吃住租进离返至往遂便"
                             "则却仍再才竟随趁看听签写要想拒名")
#: The range of CJK ideographs, for regex character classes.
CJK = r"\u4e00-\u9fff"
#: The characters of ``STOP_CHARS`` as the body of a regex character class.
STOP_CLASS = re.escape("".join(sorted(STOP_CHARS)))
#: A run of ideographs.
WORD_RE = re.compile(f"[{CJK}]+")
#: Tags of verbs, adverbs, adjectives, conjunctions and prepositions in the segmenter's dictionary.
_FUNCTION_WORD_TAGS = frozenset({"v", "vn", "vd", "d", "a", "an", "ad", "b", "c", "p"})


def common_function_word(word: str) -> bool:
    """Whether the segmenter's dictionary holds ``word`` as a common verb, adverb, adjective, conjunction or
    preposition, which no name after a context word is (安排 v, 连夜 d; 高峰 nr, 海燕 nr are names).

    >>> [common_function_word(w) for w in ("安排", "连夜", "明知", "高峰", "海燕", "钱包")]
    [True, True, True, False, False, False]
    """
    return dictionary_word(word, _FUNCTION_WORD_TAGS, _COMMON_WORD_FREQ)


def dictionary_word(word: str, tags: frozenset[str], least: int) -> bool:
    """Whether the segmenter's dictionary holds ``word`` with one of ``tags`` and seen at least ``least`` times."""
    return rjieba.has_word(word) and rjieba.tag(word)[0][1] in tags and rjieba.suggest_freq(word) >= least


#: Time words and numerals (次日 1720, 当日; 国庆 131 is a given name too).
TIME_TAGS = frozenset({"t", "m", "mq"})
#: Nouns (时间 33288, 公司 45605; 黄金 3087, 海军 7228 are names' parts too).
NOUN_TAGS_COMMONEST = frozenset({"n", "vn"})
#: How often the dictionary has seen a time word for it to be one and not a part of a name (次日 1720; 国庆 131).
TIME_WORD_FREQ = 500
#: How often it has seen a noun for it to be one and not a part of a name (时间 33288, 代表 32777; 海军 7228).
COMMONEST_NOUN_FREQ = 10_000
#: Particles, prepositions and conjunctions that close a name run into them (木然诺为其提供翻译, 旺堆在).
PARTICLES = frozenset("的称在于与和及系因将被向对等为")
#: How often the segmenter's dictionary has seen a word for it to count as a common one (眼球 559; 木格 13).
_COMMON_WORD_FREQ = 100
#: How often it has seen a verb or adverb for it to be one that opens no name (不服 825, 同意 5349; 木然 123).
_VERY_COMMON_WORD_FREQ = 500
#: Tags of nouns, places and directions in the segmenter's dictionary.
_NOUN_TAGS = frozenset({"n", "nz", "ns", "s", "f"})
#: How seldom it has seen a noun or a place for it to be free to be a name (旺堆 2, 扎西 17; 案发 61, 钱包 99).
_RARE_WORD_FREQ = 30


def common_word_inside(word: str) -> bool:
    """Whether two characters inside a candidate name are a common noun (眼球 559) or a very common verb, adverb or
    preposition (按照, 同意, 不服 825) of the segmenter's dictionary, not one names are made of (木然 b 123)."""
    return dictionary_word(word, _NOUN_TAGS, _COMMON_WORD_FREQ) \
        or dictionary_word(word, _FUNCTION_WORD_TAGS, _VERY_COMMON_WORD_FREQ)


def word_ends(text: str) -> set[int]:
    """Offsets in ``text`` where the segmenter ends a word."""
    return set(itertools.accumulate(map(len, rjieba.cut(text))))


def opens_with_verb_or_modifier(word: str) -> bool:
    """Whether the segmenter reads ``word`` as a verb of two characters or more and what follows (发生 | 口角), or an
    adjective, direction or numeral of one character that is no surname before a noun (旧 | 手机, 右 | 眼眶): a
    phrase, not a name.

    >>> [opens_with_verb_or_modifier(w) for w in ("发生口角", "旧手机", "右眼眶", "扎西多吉", "岩罕叫", "太京哲")]
    [True, True, True, False, False, False]
    """
    tagged = rjieba.tag(word)
    first, tag = tagged[0]
    if len(first) >= 2 and tag in {"v", "vn", "vd"} and len(tagged) > 1 and rjieba.has_word(first):
        return True   # (a word the dictionary does not hold is the segmenter's guess: 勒排 in 勒排干)
    return (len(tagged) == 2 and len(first) == 1 and tag in {"a", "b", "f", "m"} and surname_of(word) is None
            and first not in WORDLIKE_SURNAMES and rjieba.has_word(tagged[1][0]))


def segmenter_allows_name(word: str) -> bool:
    """Whether the segmenter's dictionary leaves ``word`` free to be a name: not a word of it, one tagged as a
    person's name, or a noun or place of two characters it has hardly seen, as Tibetan and Mongolian names are
    (海燕 nr, 旺堆 n 2, 乌兰 ns 8; 小组 n, 家属 n, 案发 n 61, 卷帘门 n 2 are words).

    >>> [segmenter_allows_name(w) for w in ("海燕", "卓玛", "旺堆", "乌兰", "小组", "家属", "案发", "卷帘门")]
    [True, True, True, True, False, False, False, False]
    """
    if not rjieba.has_word(word):
        return True
    tag = rjieba.tag(word)[0][1]
    return tag.startswith("nr") or (len(word) == 2 and tag in {"n", "ns", "nz", "ng"}
                                    and rjieba.suggest_freq(word) < _RARE_WORD_FREQ)


#: How words for people or bodies end (被害人, 目击者, 对方, 民警, 公安局, 牛贩子): such a word is not a name.
_ROLE_ENDINGS = (*"人者方员局院司所队部处厂店", "部门", "贩子")


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
    if len(word) < 4 or not WORD_RE.fullmatch(word) or (surname and len(word) - len(surname) <= 2):
        return False   # 令狐 | 建国: a compound surname and a given name that is a word
    pieces = rjieba.tag(word)
    last, tag = pieces[-1]
    return len(pieces) > 1 and len(last) >= 2 and not tag.startswith("nr") and rjieba.has_word(last) \
        and rjieba.suggest_freq(last) >= _COMMON_WORD_FREQ


def is_masked_form(word: str) -> bool:
    """``张某甲`` / ``某甲``: a pseudonym with a sequence suffix."""
    return PSEUDONYM_MARK in word or bool(re.fullmatch(f".{{1,2}}[{PSEUDONYM_SUFFIXES}]", word)
                                           and word[-2:-1] == PSEUDONYM_MARK)
