"""Criminal Law 分则 divisions (chapters and sections as article ranges)."""

from __future__ import annotations

import pytest

from jiancha.law.divisions import (
    DIVISIONS,
    Division,
    charge_divisions,
    criminal_law_division,
    division_heading,
)


@pytest.mark.parametrize(("article", "expected"), [
    (101, None), (102, Division(1, 0)), (113, Division(1, 0)), (114, Division(2, 0)), (139, Division(2, 0)),
    (140, Division(3, 1)), (150, Division(3, 1)), (151, Division(3, 2)), (231, Division(3, 8)),
    (232, Division(4, 0)), (262, Division(4, 0)), (263, Division(5, 0)), (276, Division(5, 0)),
    (277, Division(6, 1)), (293, Division(6, 1)), (347, Division(6, 7)), (357, Division(6, 7)),
    (367, Division(6, 9)), (368, Division(7, 0)), (382, Division(8, 0)), (397, Division(9, 0)),
    (420, Division(10, 0)), (451, Division(10, 0)), (452, None),
])
def test_article_ranges(article, expected):
    assert criminal_law_division(article) == expected


def test_divisions_are_ordered_and_headed():
    starts = [d[0] for d in DIVISIONS]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)
    assert division_heading(Division(6, 7)) == "走私、贩卖、运输、制造毒品罪"
    assert division_heading(Division(5, 0)) == "侵犯财产罪"
    assert division_heading(Division(6, 0)) == ""


def test_charge_divisions_by_any_alias():
    assert charge_divisions("盗窃罪") == (Division(5, 0),)
    assert charge_divisions("贩卖毒品罪") == charge_divisions("非法持有毒品罪") == (Division(6, 7),)
    assert charge_divisions("危险驾驶罪") == (Division(2, 0),)        # art. 133之一 belongs with 133
    assert charge_divisions("妨害公务") == (Division(6, 1),)
    assert charge_divisions("不存在的罪名") == ()
