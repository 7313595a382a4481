import pytest

from jiancha.errors import DataError
from jiancha.law.articles import Law, parse_canonical
from jiancha.law.statutes import article_text, load_statutes, parse_statute_markdown

SAMPLE = """# 示例法

<!-- INFO END -->

## 第一章

第一条 第一款正文。

第二款正文：

（一）第一项；

（二）第二项。

第二条之一 之一条文。

第 三 条 不是条文头（格式不符）。

第三条 第三条正文。
"""


def test_parse_markdown_sample():
    arts = parse_statute_markdown(SAMPLE, Law.CRIMINAL_LAW)
    assert sorted(arts) == [(1, 0), (2, 1), (3, 0)]
    first = arts[(1, 0)]
    assert [p.text for p in first.paragraphs] == ["第一款正文。", "第二款正文："]
    assert first.paragraphs[1].items == ("（一）第一项；", "（二）第二项。")


def test_missing_directory_and_file(tmp_path):
    with pytest.raises(DataError, match="statutes directory not found"):
        load_statutes(tmp_path / "nope")
    with pytest.raises(DataError, match="no statute file for cl"):
        load_statutes(tmp_path)


def test_load_from_user_directory(tmp_path):
    (tmp_path / "刑法.md").write_text(SAMPLE, encoding="utf-8")
    st = load_statutes(tmp_path, laws=(Law.CRIMINAL_LAW,))
    assert st.article_text(parse_canonical("cl:第一条第二款第（二）项")) == "（二）第二项。"
    assert st.article_text(parse_canonical("cl:第一条第一款")) == "第一款正文。"
    assert st.article_text(parse_canonical("cl:第一条第三款")) is None
    assert st.article_text(parse_canonical("cl:第二条之一第一款")) == "之一条文。"
    # a line that only looks like an article head is a further paragraph of the article before it
    assert st.article_text(parse_canonical("cl:第二条之一第二款")) == "第 三 条 不是条文头（格式不符）。"
    assert st.article_text(parse_canonical("cl:第三条")) == "第三条正文。"
    assert st.article_text(parse_canonical("cpl:第一条")) is None


@pytest.fixture
def statutes(shared_file):
    return load_statutes(shared_file("statutes"))


def test_shared_statutes_counts(statutes):
    counts = {law.value: len(arts) for law, arts in statutes.articles.items()}
    assert counts["cpl"] == 308
    assert counts["cpr"] == 684
    assert (133, 2) in statutes.articles[Law.CRIMINAL_LAW]  # Amendment XI
    assert max(a for a, _ in statutes.articles[Law.CRIMINAL_LAW]) == 452


@pytest.mark.parametrize("ref, start", [
    ("cpl:第一百七十七条第二款", "对于犯罪情节轻微，依照刑法规定不需要判处刑罚或者免除刑罚的"),
    ("cpl:第一百七十五条第四款", "对于二次补充侦查的案件"),
    ("cpl:第十六条第（一）项", "（一）情节显著轻微、危害不大，不认为是犯罪的"),
    ("cl:第一百三十三条之一第一款第（二）项", "（二）醉酒驾驶机动车的"),
    ("cl:第二百六十四条", "盗窃公私财物，数额较大的"),
    ("cpr:第三百七十条", "人民检察院对于犯罪情节轻微"),
    ("cpl:第一百二十八条", "侦查人员对于与犯罪有关的"),
])
def test_shared_article_text(statutes, ref, start):
    assert article_text(parse_canonical(ref), statutes).startswith(start)
