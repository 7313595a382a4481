"""Scoring run directories: this project's format and the reference result format, both modes."""

from __future__ import annotations

import json

import pytest

from jiancha._util.io import write_json
from jiancha._util.jsonl import write_jsonl
from jiancha.errors import ConfigError, DataError
from jiancha.pdp.answers import render_answer
from jiancha.pdp.reference_results import read_reference_dir, read_reference_metrics_md, write_reference_dir
from jiancha.pdp.scoring import score_items, score_run_dirs, score_run_dirs_full

P, DNP, SNP, IENP = "起诉", "相对不起诉", "法定不起诉", "存疑不起诉"
POOLED_KEYS = {"articles_precision", "articles_recall", "articles_f1", "decision_level1_accuracy",
               "decision_level2_accuracy", "level1_per_class", "decision_per_class", "decision_level1_macro_f1",
               "decision_level2_macro_f1", "decision_level1_micro", "decision_level2_micro",
               "decision_parse_fail_count", "decision_eval_count", "reference_parse_fail_count"}
# the hand-built example of test_pdp_metrics (gold, pred) — pred None = an answer without a valid label
EXAMPLE = [(P, P), (P, DNP), (DNP, DNP), (DNP, None), (SNP, P), (IENP, IENP), ("不起诉", P)]


def rec(case, run, pred, gold, *, arts=(), gold_arts=(), status="ok", finish_reason="stop", date=None,
        charges=(), raw=None):
    if raw is None and status == "ok":
        raw = render_answer(pred, list(arts), "分析") if pred else "【最终结论】\n决定：不起诉"
    return {"case_id": case, "run_id": run, "status": status, "raw_output": raw, "finish_reason": finish_reason,
            "gold_decision": gold, "gold_articles": list(gold_arts), "date": date, "charges": list(charges)}


def make_dir(path, rows, manifest=None):
    path.mkdir(parents=True, exist_ok=True)
    write_jsonl(path / "records.jsonl", rows)
    if manifest is not None:
        write_json(path / "manifest.json", manifest)
    return path


@pytest.mark.parametrize("compat", ["reference", "default"])
def test_project_dir_example(tmp_path, compat):
    d = make_dir(tmp_path / "run", [rec(f"c{i}", 0, p, g) for i, (g, p) in enumerate(EXAMPLE)])
    res = score_run_dirs([d], compat=compat, write=False)
    assert set(res) == {"pooled", "per_run", "mean_se"}
    assert list(res["per_run"]) == ["0"]
    pooled = res["pooled"]
    assert POOLED_KEYS <= set(pooled)
    if compat == "reference":
        assert set(pooled) == POOLED_KEYS
    assert pooled["decision_level2_macro_f1"] == pytest.approx(0.5)
    assert pooled["decision_level1_macro_f1"] == pytest.approx(15 / 28)
    assert pooled["decision_level2_micro"]["f1"] == pytest.approx(6 / 11)
    assert (pooled["decision_parse_fail_count"], pooled["decision_eval_count"],
            pooled["reference_parse_fail_count"]) == (1, 6, 1)
    assert res["mean_se"]["level2_macro_f1"] == {"mean": pytest.approx(0.5), "se": 0.0}


def test_default_extras(tmp_path):
    rows = [rec(f"c{i}", 0, p, g, date="2016-05-01", charges=["盗窃罪"]) for i, (g, p) in enumerate(EXAMPLE)]
    rows.append(rec("c9", 0, None, P, status="failed"))
    rows.append(rec("c10", 0, None, DNP, raw="<think>想", finish_reason="length", date="2020-01-01"))
    res = score_run_dirs([make_dir(tmp_path / "r", rows)], write=False)
    pooled = res["pooled"]
    assert pooled["decision_eval_count"] == 8 and pooled["decision_parse_fail_count"] == 3
    assert pooled["invalid_rate"] == pytest.approx(3 / 8)
    assert pooled["truncation_rate"] == pytest.approx(1 / 9) and pooled["truncated_count"] == 1
    assert pooled["request_failed_count"] == 1
    assert pooled["invalid_reasons"] == {"request_failed": 1, "truncated": 1, "unknown_label": 1}
    assert pooled["confusion_level2"]["matrix"] == [[1, 1, 0, 0, 1], [0, 1, 0, 0, 2], [1, 0, 0, 0, 0],
                                                    [0, 0, 0, 1, 0]]
    assert set(pooled["breakdowns"]) == {"year", "charge"}
    assert pooled["breakdowns"]["year"]["2020"]["n"] == 1
    assert pooled["breakdowns"]["charge"]["盗窃罪"]["n"] == 6
    assert pooled["n_cases"] == 9 and pooled["n_runs"] == 1
    assert "level2_macro_f1" in pooled["ci95"]


def test_latest_line_wins_and_failed_retry(tmp_path):
    rows = [rec("a", 0, None, P, status="failed"), rec("a", 0, P, P), rec("b", 0, DNP, DNP),
            rec("b", 0, None, DNP, status="failed")]
    pooled = score_run_dirs([make_dir(tmp_path / "r", rows)], write=False)["pooled"]
    assert pooled["decision_eval_count"] == 2
    assert pooled["decision_level2_accuracy"] == 0.5 and pooled["request_failed_count"] == 1


def test_articles_normalised_and_cpl_unified_in_default_mode_only(tmp_path):
    rows = [rec("a", 0, DNP, DNP, arts=["cl:第六十七条第三款", "cpl:第一百七十七条第二款"],
                gold_arts=["cl:第六十七条第一款", "cpl:第一百七十三条第二款"], date="2016-03-01")]
    d = make_dir(tmp_path / "r", rows)
    ref = score_run_dirs([d], compat="reference", write=False)["pooled"]
    assert ref["articles_f1"] == 0.0
    dflt = score_run_dirs([d], write=False)["pooled"]
    assert dflt["articles_precision"] == 0.5 and dflt["articles_recall"] == 0.5
    assert dflt["articles_article_level_f1"] == 1.0


def test_both_empty_articles(tmp_path):
    d = make_dir(tmp_path / "r", [rec("a", 0, P, P), rec("b", 0, P, P, arts=["cl:第二百六十四条"])])
    assert score_run_dirs([d], compat="reference", write=False)["pooled"]["articles_f1"] == 0.5
    pooled = score_run_dirs([d], write=False)["pooled"]
    assert pooled["articles_f1"] == 0.0
    assert (pooled["articles_scored_count"], pooled["articles_both_empty_count"]) == (1, 1)


@pytest.mark.parametrize("compat", ["reference", "default"])
def test_unequal_runs(tmp_path, compat):
    rows = [rec(f"c{i}", 0, p, g) for i, (g, p) in enumerate(EXAMPLE)]
    rows += [rec("c0", 1, P, P), rec("c2", 1, DNP, DNP), rec("c5", 1, P, IENP)]
    res = score_run_dirs([make_dir(tmp_path / "r", rows)], compat=compat, write=False)
    assert res["mean_se"]["level2_macro_f1"] == pytest.approx({"mean": 11 / 24, "se": 1 / 24})
    assert res["pooled"]["decision_level2_macro_f1"] == pytest.approx(10 / 21)
    assert [res["per_run"][r]["decision_eval_count"] for r in ("0", "1")] == [6, 3]
    # every record has empty article sets on both sides: 1.0 in the reference, left out (0 scored) by default
    assert res["mean_se"]["articles_f1"]["mean"] == (1.0 if compat == "reference" else 0.0)
    if compat == "default":
        assert res["mean_se"]["invalid_rate"] == pytest.approx({"mean": (1 / 6 + 0) / 2, "se": (1 / 6) / 2})


def test_torn_last_line_skipped_bad_middle_line_reported(tmp_path):
    d = make_dir(tmp_path / "r", [rec("a", 0, P, P)])
    with open(d / "records.jsonl", "a", encoding="utf-8") as fh:
        fh.write('{"case_id": "b", "run')
    assert score_run_dirs([d], write=False)["pooled"]["decision_eval_count"] == 1
    with open(d / "records.jsonl", "a", encoding="utf-8") as fh:
        fh.write("\n" + json.dumps(rec("c", 0, P, P)) + "\n")
    with pytest.raises(DataError, match="line 2"):
        score_run_dirs([d], write=False)


def test_missing_field_is_reported(tmp_path):
    d = make_dir(tmp_path / "r", [{"case_id": "a", "status": "ok"}])
    with pytest.raises(DataError, match="run_id"):
        score_run_dirs([d], write=False)


def test_pooling_refuses_different_settings_and_separates_clashing_runs(tmp_path):
    a = make_dir(tmp_path / "a", [rec("x", 0, P, P)], {"identity": {"model": "m", "seed": 1}})
    b = make_dir(tmp_path / "b", [rec("x", 0, DNP, P)], {"identity": {"model": "m", "seed": 2}})
    res = score_run_dirs([a, b], write=False)
    assert set(res["per_run"]) == {"0:0", "1:0"}
    assert res["mean_se"]["level2_micro_f1"]["mean"] == 0.5
    c = make_dir(tmp_path / "c", [rec("x", 0, P, P)], {"identity": {"model": "other", "seed": 1}})
    with pytest.raises(ConfigError, match="model"):
        score_run_dirs([a, c], write=False)


def test_not_a_run_dir(tmp_path):
    with pytest.raises(ConfigError, match="records.jsonl"):
        score_run_dirs([tmp_path], write=False)
    with pytest.raises(ConfigError, match="does not exist"):
        score_run_dirs([tmp_path / "nope"], write=False)


# --- reference result directories --------------------------------------------------------------------------------

def ref_entry(case, pred, gold, *, run=None, raw=None, arts=(), gold_arts=()):
    e = {"prediction": {"relevant_articles": list(arts), "decision": pred},
         "reference": {"relevant_articles": list(gold_arts), "decision": gold},
         "person_info": "某甲", "procedure": "程序", "fact": "事实", "raw_output": raw, "raw_reasoning": ""}
    if run is None:
        e["index"] = case
    else:
        e["sample_index"], e["run_id"] = case, run
    return e


def test_reference_dir_groups_and_reading(tmp_path):
    entries = [ref_entry(i, p if p else "", g, run=r) for r in (0, 1) for i, (g, p) in enumerate(EXAMPLE)]
    paths = write_reference_dir(tmp_path, entries)
    names = sorted(p.name for p in paths)
    assert "details_正确.json" in names and "details_解析错误.json" in names
    assert "details_参考标签解析错误.json" in names and f"details_{P}_{DNP}.json" in names
    items = read_reference_dir(tmp_path)
    assert len(items) == 14 and [it.run_id for it in items[:7]] == ["0"] * 7
    res = score_run_dirs([tmp_path], compat="reference", write=False)
    assert set(res["per_run"]) == {"0", "1"}
    assert res["pooled"]["decision_level2_macro_f1"] == pytest.approx(0.5)
    assert res["mean_se"]["level2_macro_f1"] == {"mean": pytest.approx(0.5), "se": 0.0}


def test_reference_dir_default_mode_reparses_raw_output(tmp_path):
    raw = "## 最终结论\n决定：酌定不起诉"
    write_reference_dir(tmp_path, [ref_entry(0, "", DNP, raw=raw), ref_entry(1, P, P, raw=None)])
    ref = score_run_dirs([tmp_path], compat="reference", write=False)["pooled"]
    assert ref["decision_level2_accuracy"] == 0.5
    assert score_run_dirs([tmp_path], write=False)["pooled"]["decision_level2_accuracy"] == 1.0


def test_reference_dir_duplicate_and_bad_entries(tmp_path):
    write_json(tmp_path / "details_正确.json", [ref_entry(0, P, P)])
    write_json(tmp_path / "details_解析错误.json", [ref_entry(0, "", P)])
    with pytest.raises(DataError, match="also appears"):
        read_reference_dir(tmp_path)
    write_json(tmp_path / "details_解析错误.json", [{"prediction": {}, "reference": {}}])
    with pytest.raises(DataError, match="index"):
        read_reference_dir(tmp_path)


def test_reference_metrics_md(tmp_path):
    p = tmp_path / "metrics.md"
    p.write_text("# Metrics\n| metric | value |\n|---|---|\n| decision_level2_macro_f1 | 0.5000 |\n"
                 "- articles_f1: 0.4524 ± 0.0100\n", encoding="utf-8")
    assert read_reference_metrics_md(p) == {"decision_level2_macro_f1": 0.5, "articles_f1": 0.4524}


def test_score_items_requires_items():
    with pytest.raises(DataError, match="nothing to score"):
        score_items([])


def test_write_reports(tmp_path):
    d = make_dir(tmp_path / "r", [rec(f"c{i}", r, p, g) for r in (0, 1) for i, (g, p) in enumerate(EXAMPLE)])
    score_run_dirs([d])
    for name in ("metrics.json", "report.md", "confusion.png", "per_class_f1.png"):
        assert (d / name).stat().st_size > 0
    saved = json.loads((d / "metrics.json").read_text(encoding="utf-8"))
    assert saved["pooled"]["decision_level2_macro_f1"] == pytest.approx(0.5) and saved["meta"]["compat"] == "default"
    # the scorer's versions and git revision sit next to the metrics (a --out folder holds no run manifest)
    assert {"jiancha", "numpy"} <= set(saved["meta"]["environment"]["packages"])
    assert "git_revision" in saved["meta"]["environment"]
    report = (d / "report.md").read_text(encoding="utf-8")
    assert "| gold \\ pred | P | DNP | SNP | IENP | INVALID |" in report
    assert "Worst confusions" in report and "c1" in report
    score_run_dirs([d], compat="reference")
    assert (d / "metrics.reference.json").exists() and (d / "metrics.json").exists()
    ref_report = (d / "report.reference.md").read_text(encoding="utf-8")
    assert "| P | 2 | 2 | 0 | 0 | 0 |" in ref_report and (d / "confusion.reference.png").exists()
    assert score_run_dirs_full([d]).case_ids[:2] == ("c0", "c1")


def test_reference_dir_report_shows_published_metrics(tmp_path):
    ref = tmp_path / "ref"
    write_reference_dir(ref, [ref_entry(i, p or "", g) for i, (g, p) in enumerate(EXAMPLE)])
    (ref / "metrics.md").write_text("| decision_level2_macro_f1 | 0.5000 |\n| articles_f1 | 1.0 |\n",
                                    encoding="utf-8")
    score_run_dirs([ref], compat="reference", out_dir=tmp_path / "out")
    report = (tmp_path / "out" / "report.reference.md").read_text(encoding="utf-8")
    assert "| decision_level2_macro_f1 | 0.5000 | 0.5000 |" in report
    assert "| articles_f1 | 1.0000 | 1.0000 |" in report
    assert not (ref / "report.md").exists()


def test_bad_gold_articles_field(tmp_path):
    row = rec("a", 0, P, P)
    row["gold_articles"] = "cl:第二百六十四条"
    with pytest.raises(DataError, match="gold_articles"):
        score_run_dirs([make_dir(tmp_path / "r", [row])], write=False)


def test_two_objects_on_one_line_is_an_error(tmp_path):
    d = make_dir(tmp_path / "r", [rec("a", 0, P, P)])
    with open(d / "records.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps(rec("b", 0, P, P)) + ", " + json.dumps(rec("c", 0, P, P)) + "\n")
    with pytest.raises(DataError, match="line 2"):
        score_run_dirs([d], write=False)


def test_scores_do_not_depend_on_the_order_records_were_stored_in(tmp_path):
    # a model run stores records in completion order; the scores, the bootstrap and the case ids listed in the
    # report must be those of the (run id, case id) order, byte for byte
    laws = ["cl:第二百六十四条", "cl:第六十七条第一款", "cl:第七十二条第一款", "cl:第五十二条", "cl:第六十四条",
            "cl:第二十五条第一款", "cl:第二十六条第一款"]
    rows = [rec(f"c{i:02d}", run, (P, DNP, SNP)[(i + run) % 3], (P, DNP, IENP, SNP)[i % 4], arts=laws[: 1 + i % 3],
                gold_arts=laws[: 1 + (i * 5) % 7]) for run in (0, 1) for i in range(23)]
    fwd = make_dir(tmp_path / "fwd", rows)
    rev = make_dir(tmp_path / "rev", rows[::-1])
    a, b = score_run_dirs_full([fwd]), score_run_dirs_full([rev])
    assert json.dumps(a.result, sort_keys=True) == json.dumps(b.result, sort_keys=True)
    assert a.case_ids == b.case_ids == tuple(f"c{i:02d}" for i in range(23)) * 2
    assert a.run_ids == ("0",) * 23 + ("1",) * 23
    score_run_dirs([fwd]), score_run_dirs([rev])
    def body(d):
        text = (d / "report.md").read_text(encoding="utf-8").replace(str(d), "DIR").replace(d.name, "DIR")
        return [line for line in text.splitlines() if "scored" not in line]

    assert body(fwd) == body(rev)
