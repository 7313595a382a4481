"""Cell formatting of the paper-layout tables (regression: an SE of exactly 0 was hidden, float noise shown)."""

from __future__ import annotations

from jiancha.pdp.reports import fmt_value, paper_table


def test_fmt_value_always_shows_the_se_it_is_given():
    assert fmt_value(0.5, 0.0) == "0.5000 ± 0.0000"
    assert fmt_value(0.5, 1.96e-17) == "0.5000 ± 0.0000"
    assert fmt_value(0.5, -1e-17) == "0.5000 ± 0.0000"         # noise below zero does not print "-0.0000"
    assert fmt_value(0.5, 0.012345) == "0.5000 ± 0.0123"
    assert fmt_value(0.5) == "0.5000" and fmt_value(0.123456, None, digits=2) == "0.12"


def _result(n_runs: int, se: float) -> dict:
    return {"per_run": {str(i): {} for i in range(n_runs)},
            "mean_se": {"level2_macro_f1": {"mean": 0.75, "se": se}, "level1_macro_f1": {"mean": 0.5, "se": 0.0}}}


def test_paper_table_one_style_per_run_count():
    headers, rows = paper_table([("exact", _result(3, 0.0)), ("noise", _result(3, 1.96e-17)),
                                 ("one run", _result(1, 0.0))])
    l1, l2 = headers.index("L1 Macro-F1"), headers.index("L2 Macro-F1")
    assert [(r[l1], r[l2]) for r in rows] == [("0.5000 ± 0.0000", "0.7500 ± 0.0000"),
                                              ("0.5000 ± 0.0000", "0.7500 ± 0.0000"),
                                              ("0.5000", "0.7500")]
    assert rows[0][headers.index("Articles F1")] == "–"
