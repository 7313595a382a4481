import json
from pathlib import Path

import pytest

from jiancha.errors import ParseError
from jiancha.law.articles import (
    ArticleRef,
    Law,
    canonical_sort,
    normalize_article_string,
    parse_articles,
    parse_canonical,
    render_articles,
)

VECTORS = json.loads((Path(__file__).parent / "vectors" / "citations.json").read_text(encoding="utf-8"))["cases"]


def test_vector_file_has_enough_forms():
    assert len(VECTORS) >= 60


@pytest.mark.parametrize("case", VECTORS, ids=[c["text"][:30] for c in VECTORS])
def test_citation_vectors(case):
    default = Law(case["default_law"]) if case["default_law"] else None
    got = [r.canonical() for r in parse_articles(case["text"], default_law=default)]
    assert got == case["expected"]


@pytest.mark.parametrize("ref, s", [
    (ArticleRef(Law.CRIMINAL_LAW, 133, 1), "cl:第一百三十三条之一"),
    (ArticleRef(Law.CRIMINAL_PROCEDURE, 177, 0, 2), "cpl:第一百七十七条第二款"),
    (ArticleRef(Law.CRIMINAL_PROCEDURE, 16, 0, None, 1), "cpl:第十六条第（一）项"),
    (ArticleRef(Law.CRIMINAL_LAW, 133, 1, 1, 2), "cl:第一百三十三条之一第一款第（二）项"),
    (ArticleRef(Law.PROCURATORATE_RULES, 370), "cpr:第三百七十条"),
    (ArticleRef(Law.CRIMINAL_LAW, 1001), "cl:第一千零一条"),
])
def test_canonical_round_trip(ref, s):
    assert ref.canonical() == s
    assert str(ref) == s
    assert parse_canonical(s) == ref


def test_article_level_drops_paragraph_and_item():
    ref = parse_canonical("cl:第一百三十三条之一第一款第（二）项")
    assert ref.article_level() == ArticleRef(Law.CRIMINAL_LAW, 133, 1)


@pytest.mark.parametrize("bad", [
    "cl:第264条", "cl:第一十六条", "cl: 第二百六十四条", "xx:第一条", "cpl:第十六条第(一)项", "cpl:第十六条第一项",
    "第二百六十四条", "cl:第零条", "", "cl:第二百六十四条 ", "cl:第二百六十四条第二款第三款",
])
def test_parse_canonical_rejects(bad):
    with pytest.raises(ParseError):
        parse_canonical(bad)


def test_parse_canonical_error_names_expected_form():
    with pytest.raises(ParseError, match="expected 'cl:第十六条'"):
        parse_canonical("cl:第一十六条")


@pytest.mark.parametrize("s, expected", [
    ("cl:第264条", "cl:第二百六十四条"),
    ("cl:《刑法》第二百六十四条", "cl:第二百六十四条"),
    ("刑法第264条", "cl:第二百六十四条"),
    ("《中华人民共和国刑事诉讼法》第177条第2款", "cpl:第一百七十七条第二款"),
    ("cpl:第十六条第(一)项", "cpl:第十六条第（一）项"),
    ("cl:第二百六十四条", "cl:第二百六十四条"),
    ("第二百六十四条", None),
    ("cl:第1条、第2条", None),
    ("盗窃罪", None),
])
def test_normalize_article_string(s, expected):
    assert normalize_article_string(s) == expected


def test_normalize_with_default_law():
    assert normalize_article_string("第264条", default_law=Law.CRIMINAL_LAW) == "cl:第二百六十四条"


def test_canonical_sort():
    refs = ["cpr:第三百七十条", "cpl:第一百七十七条第二款", "cl:第二百六十四条", "cpl:第十六条",
            "cl:第六十七条第三款", "cl:第二百六十四条", "cpl:第一百七十七条第二款"]
    assert canonical_sort(refs) == ["cl:第二百六十四条", "cl:第六十七条第三款", "cpl:第一百七十七条第二款",
                                    "cpl:第十六条", "cpr:第三百七十条"]
    assert canonical_sort([]) == []


def test_render_articles_orders_laws():
    refs = parse_articles("《刑事诉讼法》第177条第2款、《刑法》第264条")
    assert render_articles(refs) == ["cl:第二百六十四条", "cpl:第一百七十七条第二款"]


def test_no_citation_text():
    assert parse_articles("") == []
    assert parse_articles("被告人张某犯盗窃罪") == []


def test_parse_is_fast_enough_for_long_text():
    # Not a timing test: a long text with many citations must parse completely and correctly.
    text = "依照《中华人民共和国刑法》第二百六十四条、第六十七条第三款的规定。" * 2000
    assert [r.canonical() for r in parse_articles(text)] == ["cl:第二百六十四条", "cl:第六十七条第三款"]
