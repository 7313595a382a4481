from __future__ import annotations

import pytest

from jiancha.errors import DataError
from jiancha.retrieval.trec import parse_trec_run, read_qrels, read_trec_run, render_trec_run, write_trec_run


def test_render_and_parse_round_trip(tmp_path):
    run = {"1": [("d9", 2.5), ("d2", 1.25)], "2": [("d1", 0.5)]}
    text = render_trec_run(run, "bm25")
    assert text.splitlines() == ["1 Q0 d9 1 2.500000 bm25", "1 Q0 d2 2 1.250000 bm25", "2 Q0 d1 1 0.500000 bm25"]
    write_trec_run(tmp_path / "r.trec", run, "bm25")
    assert read_trec_run(tmp_path / "r.trec") == run


def test_parse_orders_by_score_then_rank_column():
    text = "1 Q0 a 2 1.0 t\n1 Q0 b 1 3.0 t\n1 Q0 c 3 1.0 t\n1 Q0 d 1 1.0 t\n"
    assert [d for d, _ in parse_trec_run(text)["1"]] == ["b", "d", "a", "c"]


@pytest.mark.parametrize("line,field", [("1 Q0 a 1 x t", "score"), ("1 Q0 a one 1.0 t", "rank")])
def test_bad_field_names_line_and_field(line, field):
    with pytest.raises(DataError) as exc:
        parse_trec_run("1 Q0 z 1 1.0 t\n" + line + "\n", path="run.trec")
    assert "run.trec, line 2" in str(exc.value) and field in str(exc.value)


def test_wrong_column_count_and_duplicates_are_errors():
    with pytest.raises(DataError, match="expected 6 columns"):
        parse_trec_run("1 Q0 a 1 1.0\n")
    with pytest.raises(DataError, match="appears twice"):
        parse_trec_run("1 Q0 a 1 1.0 t\n1 Q0 a 2 0.5 t\n")
    with pytest.raises(DataError, match="tag"):
        render_trec_run({"1": [("a", 1.0)]}, "has space")


def test_read_qrels_keeps_order_and_validates(tmp_path):
    p = tmp_path / "q.trec"
    p.write_text("1\t0\tb\t2\n1\t0\ta\t3\n2 0 c 0\n")
    q = read_qrels(p)
    assert q == {"1": {"b": 2, "a": 3}, "2": {"c": 0}} and list(q["1"]) == ["b", "a"]
    p.write_text("1 0 a high\n")
    with pytest.raises(DataError, match="line 1"):
        read_qrels(p)


def test_nan_score_is_an_error_naming_the_line():
    with pytest.raises(DataError, match=r"run\.trec, line 2, field 'score': score 'nan' is not a number"):
        parse_trec_run("1 Q0 a 1 1.0 t\n1 Q0 b 2 nan t\n", path="run.trec")
