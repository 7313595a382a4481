"""CAIL2018 loader on fictional fixtures (exact values, error locations) and, with ../shared, on the samples
(the ``shared_data`` fixture of tests/conftest.py skips those when ../shared is absent)."""

from __future__ import annotations

import json

import pytest

from jiancha.datasets.cail import (
    CAILRecord,
    CAILTerm,
    check_cail,
    count_accusations,
    count_articles,
    iter_cail,
    load_article_labels,
    load_cail,
    load_cail_labels,
    load_label_list,
)
from jiancha.errors import DataError


def cail_line(fact: str, accusation: list[str], articles: list[int], months: int = 6, money: int = 1000,
              death: bool = False, life: bool = False, criminals: tuple[str, ...] = ("甲某",)) -> dict:
    return {"fact": fact, "meta": {
        "relevant_articles": articles, "accusation": accusation, "punish_of_money": money,
        "criminals": list(criminals),
        "term_of_imprisonment": {"death_penalty": death, "imprisonment": months, "life_imprisonment": life}}}


FIXTURE = [
    cail_line("公诉机关指控：某日，被告人甲某在某超市窃取商品若干，价值人民币八百元。", ["盗窃"], [264]),
    cail_line("公诉机关指控：被告人乙某与他人发生争执，持木棍将其打致轻伤。", ["故意伤害"], [234], months=10,
              money=0, criminals=("乙某",)),
    cail_line("公诉机关指控：被告人丙某贩卖毒品并容留他人吸毒。", ["[走私、贩卖、运输、制造]毒品", "容留他人吸毒"],
              [347, 354], months=-2, money=50000, death=True, criminals=("丙某", "丁某")),
]


def write_lines(path, objs, extra: str = "") -> str:
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objs) + extra, encoding="utf-8")
    return str(path)


def test_load_fixture_exact(tmp_path):
    p = write_lines(tmp_path / "cail.json", FIXTURE)
    recs = load_cail(p)
    assert len(recs) == 3
    assert recs[2] == CAILRecord(fact=FIXTURE[2]["fact"], accusations=("[走私、贩卖、运输、制造]毒品", "容留他人吸毒"),
                                 relevant_articles=(347, 354), term=CAILTerm(True, -2, False),
                                 punish_of_money=50000, criminals=("丙某", "丁某"), index=3)
    assert [r.to_dict() for r in recs] == FIXTURE
    assert list(iter_cail(p)) == recs
    assert count_accusations(recs) == {"盗窃": 1, "故意伤害": 1, "[走私、贩卖、运输、制造]毒品": 1, "容留他人吸毒": 1}
    assert count_articles(recs)[347] == 1 and sum(count_articles(recs).values()) == 4
    assert len(load_cail(p, limit=2)) == 2


def test_bad_json_line(tmp_path):
    p = write_lines(tmp_path / "cail.json", FIXTURE[:2], extra='{"fact": "x", "meta": {\n')
    with pytest.raises(DataError) as ei:
        load_cail(p)
    assert ei.value.line == 3 and "invalid JSON" in str(ei.value) and p in str(ei.value)


@pytest.mark.parametrize("mutate, field, words", [
    (lambda o: o["meta"].pop("accusation"), "meta.accusation", "missing field"),
    (lambda o: o["meta"].__setitem__("relevant_articles", ["第264条"]), "meta.relevant_articles", "wrong type"),
    (lambda o: o["meta"]["term_of_imprisonment"].__setitem__("imprisonment", "六个月"),
     "meta.term_of_imprisonment.imprisonment", "integer (months)"),
    (lambda o: o.pop("fact"), "fact", "missing field"),
    (lambda o: o["meta"].__setitem__("punish_of_money", None), "meta.punish_of_money", "a number"),
])
def test_field_errors(tmp_path, mutate, field, words):
    objs = json.loads(json.dumps(FIXTURE))
    mutate(objs[1])
    p = write_lines(tmp_path / "cail.json", objs)
    with pytest.raises(DataError) as ei:
        load_cail(p)
    assert (ei.value.line, ei.value.field) == (2, field) and words in str(ei.value)
    records, issues = check_cail(p)
    assert len(records) == 2 and len(issues) == 1


def test_missing_and_non_utf8_files(tmp_path):
    with pytest.raises(DataError, match="no such file"):
        load_cail(tmp_path / "none.json")
    (tmp_path / "gbk.json").write_bytes(json.dumps(FIXTURE[0], ensure_ascii=False).encode("gbk") + b"\n")
    with pytest.raises(DataError, match="not UTF-8"):
        load_cail(tmp_path / "gbk.json")


def test_label_lists(tmp_path):
    (tmp_path / "accu.txt").write_text("盗窃\n故意伤害\n\n[走私、贩卖、运输、制造]毒品\n", encoding="utf-8")
    (tmp_path / "law.txt").write_text("264\n234\n347\n", encoding="utf-8")
    labels = load_cail_labels(tmp_path)
    assert labels.accusations == ("盗窃", "故意伤害", "[走私、贩卖、运输、制造]毒品")
    assert labels.articles == (264, 234, 347) and labels.article_index()[347] == 2
    (tmp_path / "dup.txt").write_text("盗窃\n诈骗\n盗窃\n", encoding="utf-8")
    with pytest.raises(DataError) as ei:
        load_label_list(tmp_path / "dup.txt")
    assert ei.value.line == 3 and "first on line 1" in str(ei.value)
    (tmp_path / "badlaw.txt").write_text("264\n第二百三十四条\n", encoding="utf-8")
    with pytest.raises(DataError) as ei:
        load_article_labels(tmp_path / "badlaw.txt")
    assert ei.value.line == 2 and "not an article number" in str(ei.value)


# ----------------------------------------------------------------------------------------- ../shared samples


@pytest.mark.parametrize("rel, count, top", [
    ("brightmart/data_test_sample.json", 1000, ("盗窃", 606)),
    ("brightmart/data_valid_sample.json", 1000, ("盗窃", 734)),
    ("sihuajian/data_test.json", 1397, ("滥用职权", 157)),
    ("sihuajian/data_train.utf8.json", 3675, ("[走私、贩卖、运输、制造]毒品", 852)),
])
def test_shared_samples_exact_counts(shared_data, rel, count, top):
    recs = load_cail(shared_data / "cail2018" / rel)
    assert len(recs) == count
    assert count_accusations(recs).most_common(1)[0] == top


def test_shared_brightmart_details_and_labels(shared_data):
    labels = load_cail_labels(shared_data / "cail2018" / "meta")
    assert (len(labels.accusations), len(labels.articles)) == (202, 183)
    recs = load_cail(shared_data / "cail2018" / "brightmart" / "data_test_sample.json")
    acc, arts = count_accusations(recs), count_articles(recs)
    assert (len(acc), len(arts)) == (21, 23)
    assert (acc["故意伤害"], arts[264], arts[234]) == (312, 606, 310)
    assert set(acc) <= set(labels.accusations) and set(arts) <= set(labels.articles)
    assert sum(len(r.accusations) > 1 for r in recs) == 19
