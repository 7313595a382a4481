"""Where a charge sits in the Criminal Law 分则: its chapter (章) and, in chapters 3 and 6, its section (节).

The 分则 chapters and sections are fixed article ranges (Criminal Law as amended through amendment XII; the
headings were checked against the statute text): an article ``N`` or ``N之k`` belongs to the division whose first
article is the largest one ≤ N. Charges in the same section protect the same legal interest (e.g. 第六章第七节
走私、贩卖、运输、制造毒品罪 holds every drug offence), which makes the division a measure of how related two
charges are.

>>> criminal_law_division(264)
Division(chapter=5, section=0)
>>> charge_divisions("非法持有毒品罪")
(Division(chapter=6, section=7),)
"""

from __future__ import annotations

import bisect
from functools import lru_cache
from typing import NamedTuple

from jiancha.law.articles import Law

#: (first article, chapter, section, heading) of every 分则 division; section 0 = a chapter without sections.
DIVISIONS: tuple[tuple[int, int, int, str], ...] = (
    (102, 1, 0, "危害国家安全罪"),
    (114, 2, 0, "危害公共安全罪"),
    (140, 3, 1, "生产、销售伪劣商品罪"),
    (151, 3, 2, "走私罪"),
    (158, 3, 3, "妨害对公司、企业的管理秩序罪"),
    (170, 3, 4, "破坏金融管理秩序罪"),
    (192, 3, 5, "金融诈骗罪"),
    (201, 3, 6, "危害税收征管罪"),
    (213, 3, 7, "侵犯知识产权罪"),
    (221, 3, 8, "扰乱市场秩序罪"),
    (232, 4, 0, "侵犯公民人身权利、民主权利罪"),
    (263, 5, 0, "侵犯财产罪"),
    (277, 6, 1, "扰乱公共秩序罪"),
    (305, 6, 2, "妨害司法罪"),
    (318, 6, 3, "妨害国（边）境管理罪"),
    (324, 6, 4, "妨害文物管理罪"),
    (330, 6, 5, "危害公共卫生罪"),
    (338, 6, 6, "破坏环境资源保护罪"),
    (347, 6, 7, "走私、贩卖、运输、制造毒品罪"),
    (358, 6, 8, "组织、强迫、引诱、容留、介绍卖淫罪"),
    (363, 6, 9, "制作、贩卖、传播淫秽物品罪"),
    (368, 7, 0, "危害国防利益罪"),
    (382, 8, 0, "贪污贿赂罪"),
    (397, 9, 0, "渎职罪"),
    (420, 10, 0, "军人违反职责罪"),
)
#: Last article of the 分则 (第四百五十一条; 第四百五十二条 is the 附则).
LAST_SPECIAL_PART_ARTICLE = 451
_STARTS = [d[0] for d in DIVISIONS]


class Division(NamedTuple):
    """A 分则 chapter and section (0 when the chapter has no sections)."""

    chapter: int
    section: int


def criminal_law_division(article: int) -> Division | None:
    """The 分则 division of Criminal Law article ``article`` (any 之N suffix belongs with N); None outside 102–451."""
    if article < _STARTS[0] or article > LAST_SPECIAL_PART_ARTICLE:
        return None
    _, chapter, section, _ = DIVISIONS[bisect.bisect_right(_STARTS, article) - 1]
    return Division(chapter, section)


def division_heading(division: Division) -> str:
    """The heading of a division (the section's when it has one, else the chapter's)."""
    for _, chapter, section, heading in DIVISIONS:
        if (chapter, section) == (division.chapter, division.section):
            return heading
    return ""


@lru_cache(maxsize=4096)
def charge_divisions(name: str) -> tuple[Division, ...]:
    """Divisions of the Criminal Law articles of a charge given by any alias; () for unknown names."""
    from jiancha.law.charges import charge_articles

    out: dict[Division, None] = {}
    for ref in charge_articles(name):
        if Law(ref.law) is Law.CRIMINAL_LAW:
            d = criminal_law_division(ref.article)
            if d is not None:
                out.setdefault(d, None)
    return tuple(out)
