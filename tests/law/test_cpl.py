import datetime as dt

import pytest

from jiancha.errors import ParseError
from jiancha.law.articles import ArticleRef, Law, parse_articles, parse_canonical
from jiancha.law.cpl import (
    CPL_2012_TO_2018,
    CPL_2018_EFFECTIVE,
    CPL_MOVED_2012_TO_2018,
    INSERTED_2018,
    decision_articles,
    decision_from_articles,
    detect_numbering,
    insertions_before,
    parse_date,
    to_2012,
    to_2018,
)
from jiancha.law.labels import Decision


def cpl(article, paragraph=None, item=None):
    return ArticleRef(Law.CRIMINAL_PROCEDURE, article, 0, paragraph, item)


@pytest.mark.parametrize("old, new", [
    (1, 1), (14, 14), (15, 16), (18, 19), (33, 34), (34, 35), (35, 37), (79, 81), (167, 169), (168, 171),
    (170, 173), (171, 175), (172, 176), (173, 177), (177, 181), (178, 183), (181, 186), (195, 200), (196, 202),
    (208, 214), (215, 221), (216, 227), (225, 236), (279, 290), (280, 298), (284, 302), (290, 308),
])
def test_anchor_points(old, new):
    assert CPL_2012_TO_2018[old] == new
    assert to_2018(cpl(old)) == cpl(new)
    assert to_2012(cpl(new)) == cpl(old)


def test_table_shape():
    assert sorted(CPL_2012_TO_2018) == list(range(1, 291))
    values = [CPL_2012_TO_2018[o] for o in range(1, 291)]
    assert values == sorted(values) and len(set(values)) == 290  # strictly increasing: each 2018 article hit once
    assert set(range(1, 309)) - set(values) == set(INSERTED_2018)
    assert len(INSERTED_2018) == 308 - 290
    assert set(CPL_MOVED_2012_TO_2018) == set(range(15, 291))
    assert all(new - old == insertions_before(new) for old, new in CPL_2012_TO_2018.items())


def test_paragraph_and_item_are_kept():
    assert to_2018(parse_canonical("cpl:第一百七十一条第四款")).canonical() == "cpl:第一百七十五条第四款"
    assert to_2018(parse_canonical("cpl:第十五条第（一）项")).canonical() == "cpl:第十六条第（一）项"


def test_non_cpl_refs_unchanged():
    ref = parse_canonical("cl:第二百六十四条")
    assert to_2018(ref) is ref and to_2012(ref) is ref


def test_inserted_articles_have_no_2012_number():
    assert to_2012(cpl(15)) is None
    assert to_2012(cpl(182)) is None
    assert to_2012(cpl(291)) is None


def test_out_of_range_errors():
    with pytest.raises(ParseError, match="2012 CPL"):
        to_2018(cpl(300))
    with pytest.raises(ParseError, match="2018 CPL"):
        to_2012(cpl(309))


def test_decision_articles_both_numberings():
    d18 = decision_articles("2018")
    assert [r.canonical() for r in d18[Decision.DISCRETIONARY]] == ["cpl:第一百七十七条第二款"]
    assert [r.canonical() for r in d18[Decision.STATUTORY]] == ["cpl:第十六条", "cpl:第一百七十七条第一款"]
    d12 = decision_articles("2012")
    assert [r.canonical() for r in d12[Decision.INSUFFICIENT_EVIDENCE]] == ["cpl:第一百七十一条第四款"]
    assert [r.canonical() for r in d12[Decision.PROSECUTE]] == ["cpl:第一百七十二条"]
    assert [r.canonical() for r in d12[Decision.STATUTORY]] == ["cpl:第十五条", "cpl:第一百七十三条第一款"]


@pytest.mark.parametrize("text, numbering, decision", [
    ("依照《刑事诉讼法》第十六条第（一）项和第一百七十七条第一款", "2018", Decision.STATUTORY),
    ("依照《刑事诉讼法》第一百七十五条第四款", "2018", Decision.INSUFFICIENT_EVIDENCE),
    ("依照《刑事诉讼法》第一百七十七条第二款", "2018", Decision.DISCRETIONARY),
    ("依照《刑事诉讼法》第一百七十六条", "2018", Decision.PROSECUTE),
    ("依照《刑事诉讼法》第十五条第（一）项和第一百七十三条第一款", "2012", Decision.STATUTORY),
    ("依照《刑事诉讼法》第一百七十一条第四款", "2012", Decision.INSUFFICIENT_EVIDENCE),
    ("依照《刑事诉讼法》第一百七十三条第二款", "2012", Decision.DISCRETIONARY),
    ("依照《刑事诉讼法》第一百七十二条", "2012", Decision.PROSECUTE),
    ("《刑法》第三十七条、《刑事诉讼法》第一百七十七条第二款、《人民检察院刑事诉讼规则》第三百七十条", "2018",
     Decision.DISCRETIONARY),
])
def test_decision_from_articles(text, numbering, decision):
    result = decision_from_articles(parse_articles(text), numbering)
    assert result.decision is decision and result.reason is None
    decision_, _reason = result
    assert decision_ is decision


def test_decision_contradictory_and_missing():
    refs = parse_articles("《刑事诉讼法》第一百七十七条第二款、第一百七十五条第四款")
    result = decision_from_articles(refs, "2018")
    assert result.decision is None
    assert "contradictory" in result.reason and "相对不起诉" in result.reason and "存疑不起诉" in result.reason
    none = decision_from_articles(parse_articles("《刑法》第二百六十四条"), "2018")
    assert none.decision is None and "no decision-relevant" in none.reason
    ambiguous = decision_from_articles([cpl(177)], "2018")
    assert ambiguous.decision is None


def test_same_articles_mean_different_things_by_numbering():
    refs = [cpl(173, 2)]
    assert decision_from_articles(refs, "2012").decision is Decision.DISCRETIONARY
    assert decision_from_articles(refs, "2018").decision is None  # 2018 art. 173 is about hearing opinions
    with pytest.raises(ValueError, match="2012, 2018"):
        decision_from_articles(refs, "2019")


@pytest.mark.parametrize("date, text, expected", [
    ("2019-03-05", "", "2018"),
    ("2017-06-01", "", "2012"),
    ("2018-10-25", "", "2012"),
    ("2018-10-26", "", "2018"),
    ("2018年10月26日", "", "2018"),
    ("2016/5/4", "", "2012"),
    (None, "", "2018"),
    # citations overrule the date when they show one numbering only
    ("2018-09-01", "《刑事诉讼法》第一百七十七条第二款", "2018"),
    ("2018-09-01", "《刑事诉讼法》第十六条、第一百七十七条第一款", "2018"),
    ("2019-09-01", "《刑事诉讼法》第一百七十三条第二款", "2012"),
    ("2017-01-01", "《刑事诉讼法》第一百七十五条第四款", "2018"),
    (None, "《刑事诉讼法》第一百七十一条第四款", "2012"),
    ("2017-01-01", "《刑事诉讼法》第二百九十八条", "2018"),
    # both signatures or none: the date decides
    ("2017-01-01", "《刑事诉讼法》第一百七十三条第二款、第一百七十七条第二款", "2012"),
    ("2017-01-01", "《刑事诉讼法》第一百七十二条", "2012"),
    ("2020-01-01", "《刑事诉讼法》第一百七十二条", "2018"),
])
def test_detect_numbering(date, text, expected):
    assert detect_numbering(date, parse_articles(text)) == expected


def test_parse_date():
    assert parse_date("2019年3月5日") == dt.date(2019, 3, 5)
    assert parse_date(dt.date(2019, 3, 5)) == dt.date(2019, 3, 5)
    assert parse_date("2018-10-26") == CPL_2018_EFFECTIVE
    with pytest.raises(ParseError, match="cannot read date"):
        parse_date("yesterday")
    with pytest.raises(ParseError):
        parse_date("2019-02-30")


def test_derive_script_checks_pass_on_2018_text(shared_file, run_script):
    assert run_script("derive_cpl_table.py", "--statutes", str(shared_file("statutes"))) == 0
