"""Self-consistency (vote) and any-correct-of-k on constructed repeats, figures worked out by hand."""

from __future__ import annotations

import pytest

from jiancha.errors import ConfigError
from jiancha.pdp.aggregate import aggregate_items, majority_articles, score_aggregates, vote
from jiancha.pdp.answers import render_answer
from jiancha.pdp.rundir import ScoreItem

P, DNP, SNP, IENP = "起诉", "相对不起诉", "法定不起诉", "存疑不起诉"
A264, A176, A37 = "cl:第二百六十四条", "cpl:第一百七十六条", "cl:第三十七条"
GARBAGE = "我无法判断。"


def _item(case: str, run: int, gold: str, answer: str | None, *, failed: bool = False,
          arts: tuple[str, ...] = (A264,)) -> ScoreItem:
    raw = None if failed else (GARBAGE if answer is None else render_answer(answer, list(arts), "分析。"))
    return ScoreItem(case_id=case, run_id=str(run), raw_output=raw, gold_decision=gold, gold_articles=(A264, A176),
                     finish_reason=None if failed else "stop", failed=failed)


#: 4 cases × 3 repeats. A: 2 of 3 right; B: majority wrong, one right; C: a 1-1 tie (the invalid answer does
#: not vote) won by run 0's wrong answer; D: no valid answer (two unparseable, one failed request).
ITEMS = [
    _item("A", 0, P, P, arts=(A264, A176)), _item("A", 1, P, DNP, arts=(A264,)), _item("A", 2, P, P, arts=(A264, A176)),
    _item("B", 0, DNP, P), _item("B", 1, DNP, P), _item("B", 2, DNP, DNP, arts=(A264, A176, A37)),
    _item("C", 0, SNP, IENP), _item("C", 1, SNP, None), _item("C", 2, SNP, SNP, arts=(A176,)),
    _item("D", 0, IENP, None), _item("D", 1, IENP, None), _item("D", 2, IENP, None, failed=True),
]


def test_vote_and_any_predictions_per_case():
    voted, stats = aggregate_items(ITEMS, "vote")
    assert [(it.case_id, it.stored.decision) for it in voted] == [("A", P), ("B", P), ("C", IENP), ("D", None)]
    assert voted[0].stored.relevant_articles == (A264, A176)        # each cited by 2 or 3 of 3 answers
    assert voted[1].stored.relevant_articles == (A264,)
    assert voted[2].stored.relevant_articles == ()                   # 1 of 2 valid answers each: no majority
    assert stats.to_dict() == {"mode": "vote", "n_cases": 4, "k_min": 3, "k_max": 3, "n_ties": 1, "n_no_valid": 1,
                               "tie_rule": "lowest run id among the tied decisions"}
    oracle, _ = aggregate_items(ITEMS, "any")
    assert [it.stored.decision for it in oracle] == [P, DNP, SNP, None]
    # the answer with the best article F1 against gold {264, 176}: run 2 (F1 0.8) over runs 0 and 1 (F1 2/3)
    assert set(oracle[1].stored.relevant_articles) == {A264, A176, A37}


def test_vote_and_any_figures_match_hand_computation():
    blocks = score_aggregates(ITEMS)
    vote_b, any_b = blocks["vote"], blocks["any"]
    # vote: A right; B and C wrong; D invalid. P: tp 1, fp 1 → F1 2/3; other classes 0.
    assert vote_b["decision_level2_accuracy"] == 0.25
    assert vote_b["decision_level2_macro_f1"] == pytest.approx((2 / 3) / 4)
    assert vote_b["decision_parse_fail_count"] == 1
    # any-correct-of-3: A, B, C right, D invalid: F1 1 for P, DNP, SNP, 0 for IENP.
    assert any_b["decision_level2_accuracy"] == 0.75
    assert any_b["decision_level2_macro_f1"] == 0.75
    # Level 1 (起诉 vs 不起诉) under the oracle: A→P ✓, B,C→不起诉 ✓, D invalid: P F1 1; NP tp 2, fn 1 → 0.8
    assert any_b["decision_level1_macro_f1"] == pytest.approx((1 + 0.8) / 2)
    assert any_b["aggregate"]["mode"] == "any" and vote_b["n_records"] == 4


def test_vote_rule_in_isolation():
    assert vote([IENP, None, SNP]) == (IENP, True)
    assert vote([SNP, IENP, IENP]) == (IENP, False)
    assert vote([None]) == (None, False)
    assert majority_articles([]) == ()
    assert majority_articles([("x",), ("x", "x")]) == ("x",)      # a repeated citation counts once per answer


def test_unknown_mode_is_refused():
    with pytest.raises(ConfigError, match="unknown aggregate 'mean'; expected one of vote, any"):
        aggregate_items(ITEMS, "mean")


def _write_run(run_dir) -> None:
    import json

    run_dir.mkdir()
    rows = [{"case_id": it.case_id, "run_id": int(it.run_id), "status": "failed" if it.failed else "ok",
             "raw_output": it.raw_output, "finish_reason": it.finish_reason, "gold_decision": it.gold_decision,
             "gold_articles": list(it.gold_articles)} for it in ITEMS]
    (run_dir / "records.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                                           encoding="utf-8")


def test_score_cli_reports_vote_and_any_next_to_mean_se(tmp_path):
    import json

    from typer.testing import CliRunner

    from jiancha.cli.main import app

    run = tmp_path / "run"
    _write_run(run)
    res = CliRunner().invoke(app, ["pdp", "score", str(run), "--aggregate", "vote,any", "--bootstrap", "0"])
    assert res.exit_code == 0, res.output
    flat = " ".join(res.output.split())
    assert "Repeats: mean ± SE, majority vote, any correct of k" in flat
    assert "vote: 4 cases; 1 tie(s) broken by lowest run id among the tied decisions; 1 case(s) without a valid" in flat
    metrics = json.loads((run / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["aggregates"]["vote"]["decision_level2_macro_f1"] == pytest.approx(1 / 6)
    assert metrics["aggregates"]["any"]["decision_level2_accuracy"] == 0.75
    report = (run / "report.md").read_text(encoding="utf-8")
    assert "## Repeats: mean ± SE, majority vote, any correct of k" in report
    # the vote row of the paper table: L2 Macro-F1 1/6 = 0.1667
    assert "| any correct of k (oracle), k = 3 |" in report
    vote_row = next(line for line in report.splitlines() if line.startswith("| majority vote (self-consistency), k = 3"))
    assert "0.1667" in vote_row and "±" not in vote_row
    bad = CliRunner().invoke(app, ["pdp", "score", str(run), "--aggregate", "mean"])
    assert bad.exit_code != 0 and "unknown aggregate 'mean'; expected one of vote, any" in str(bad.exception)
