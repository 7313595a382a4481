"""`jiancha pdp parse | score | compare` through typer's CliRunner."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from jiancha._util.io import write_json
from jiancha._util.jsonl import write_jsonl
from jiancha.cli.main import app
from jiancha.errors import DataError
from jiancha.pdp.answers import render_answer
from jiancha.pdp.reference_results import write_reference_dir

runner = CliRunner()
P, DNP, SNP, IENP = "起诉", "相对不起诉", "法定不起诉", "存疑不起诉"
EXAMPLE = [(P, P), (P, DNP), (DNP, DNP), (DNP, None), (SNP, P), (IENP, IENP), ("不起诉", P)]


def run_dir(path, pairs, manifest, runs=(0,)):
    path.mkdir(parents=True)
    rows = [{"case_id": f"c{i}", "run_id": r, "status": "ok", "gold_decision": g, "gold_articles": [],
             "raw_output": render_answer(p, [], "分析") if p else "决定不了"}
            for r in runs for i, (g, p) in enumerate(pairs)]
    write_jsonl(path / "records.jsonl", rows)
    write_json(path / "manifest.json", manifest)
    return path


def test_parse_stdout_and_out(tmp_path):
    f = tmp_path / "in.jsonl"
    write_jsonl(f, [{"raw_output": "## 最终结论\n决定: 酌定不起诉"},
                    {"raw_output": "<think>…", "finish_reason": "length"}, {"raw_output": None}])
    res = runner.invoke(app, ["pdp", "parse", str(f)])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert lines == [{"decision": DNP, "relevant_articles": [], "valid": True, "reason": None},
                     {"decision": None, "relevant_articles": [], "valid": False, "reason": "truncated"},
                     {"decision": None, "relevant_articles": [], "valid": False, "reason": "empty_output"}]
    out = tmp_path / "out.jsonl"
    res = runner.invoke(app, ["pdp", "parse", str(f), "--compat", "reference", "--out", str(out)])
    assert res.exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8").splitlines()[0])["reason"] == "no_conclusion"


def test_parse_missing_field(tmp_path):
    f = tmp_path / "in.jsonl"
    write_jsonl(f, [{"raw_output": "x"}, {"text": "y"}])
    res = runner.invoke(app, ["pdp", "parse", str(f)])
    assert res.exit_code != 0 and isinstance(res.exception, DataError)
    assert "line 2" in str(res.exception) and "raw_output" in str(res.exception)


@pytest.mark.parametrize("compat", ["reference", "default"])
def test_score_json_shape(tmp_path, compat):
    d = run_dir(tmp_path / "r", EXAMPLE, {"identity": {"model": "m"}}, runs=(0, 1))
    res = runner.invoke(app, ["pdp", "score", str(d), "--compat", compat, "--json", "--no-write"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert list(out) == ["pooled", "per_run", "mean_se"]
    assert list(out["per_run"]) == ["0", "1"]
    assert out["pooled"]["decision_level2_macro_f1"] == pytest.approx(0.5)
    for lab in (P, DNP, SNP, IENP):
        assert out["mean_se"][f"level2_f1_{lab}"]["se"] == 0.0
    assert out["pooled"]["decision_per_class"][DNP] == {"precision": 0.5, "recall": 0.5, "f1": 0.5, "count": 4}
    assert not (d / "metrics.json").exists()


def test_score_tables_and_reference_dir(tmp_path):
    write_reference_dir(tmp_path / "ref", [
        {"index": i, "prediction": {"relevant_articles": [], "decision": p or ""},
         "reference": {"relevant_articles": [], "decision": g}, "raw_output": None}
        for i, (g, p) in enumerate(EXAMPLE)])
    res = runner.invoke(app, ["pdp", "score", str(tmp_path / "ref"), "--compat", "reference"])
    assert res.exit_code == 0, res.output
    assert "L2 Macro-F1" in res.stdout and "0.5000" in res.stdout
    res = runner.invoke(app, ["pdp", "score", str(tmp_path / "ref"), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "rep" / "report.md").exists() and (tmp_path / "rep" / "confusion.png").exists()


def test_compare_detects_the_differing_setting(tmp_path):
    a = run_dir(tmp_path / "low", EXAMPLE, {"identity": {"model": "m", "reasoning_effort": "low"}})
    b = run_dir(tmp_path / "high", [(g, g if g != "不起诉" else P) for g, _ in EXAMPLE], {"identity": {"model": "m",
                                                                               "reasoning_effort": "high"}})
    out = tmp_path / "cmp"
    res = runner.invoke(app, ["pdp", "compare", str(a), str(b), "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["setting"] == "reasoning_effort"
    assert [r["value"] for r in data["runs"]] == ["low", "high"]
    assert data["runs"][1]["mean_se"]["level2_macro_f1"]["mean"] == pytest.approx(1.0)
    assert (out / "compare.png").stat().st_size > 0
    assert "| reasoning_effort |" in (out / "compare.md").read_text(encoding="utf-8")
    # how the runs were scored and with which versions sits next to the comparison
    meta = json.loads((out / "compare.json").read_text(encoding="utf-8"))["meta"]
    assert (meta["compat"], meta["bootstrap"]) == ("default", {"n_boot": 0, "seed": 0})
    assert {"jiancha", "numpy"} <= set(meta["environment"]["packages"]) and "git_revision" in meta["environment"]
    res = runner.invoke(app, ["pdp", "compare", str(a), str(b), "--out", str(out)])
    assert res.exit_code == 0 and "reasoning_effort" in res.stdout


def test_differing_setting_prefers_chosen_settings():
    from jiancha.pdp.compare import differing_settings

    a = {"identity": {"model": "m", "prompt": {"variant": "baseline", "messages_hash": "1", "template_hash": "a"}}}
    b = {"identity": {"model": "m", "prompt": {"variant": "one-shot", "messages_hash": "2", "template_hash": "b",
                                               "one_shot_classes": ["P"]}}}
    # the one-shot classes exist only for the one-shot variant: a sweep over prompt variants is one setting (the
    # paper's Table 5); the hashes that follow from the variant do not count either
    assert differing_settings([a, b]) == ["prompt.variant"]
    b2 = {"identity": {"model": "m", "prompt": {"variant": "one-shot", "messages_hash": "4", "template_hash": "c",
                                                "one_shot_classes": ["DNP"]}}}
    assert differing_settings([b, b2]) == ["prompt.one_shot_classes"]   # same variant: the classes are the setting
    c = {"identity": {"model": "m", "prompt": {"variant": "baseline", "messages_hash": "3", "template_hash": "a"}}}
    assert differing_settings([a, c]) == ["prompt.messages_hash"]
    assert differing_settings([a, a]) == []


# ---- regression: a served model against an offline baseline differs in every setting, not just the seed

RULES_MANIFEST = {"task": "pdp", "identity": {"task": "pdp", "data_fingerprint": "f1", "model": "baseline:rules",
                                              "seed": 0}}
SERVED_MANIFEST = {"task": "pdp", "identity": {
    "task": "pdp", "data_fingerprint": "f1", "seed": None,
    "backend": {"model": "qwen3-8b", "preset": "vllm"}, "generation": {"max_tokens": 512},
    "prompt": {"variant": "baseline", "messages_hash": "h1"}}}


def test_differing_settings_names_every_setting_and_groups_missing_ones():
    from jiancha.pdp.compare import differing_settings

    assert differing_settings([RULES_MANIFEST, SERVED_MANIFEST]) == ["backend", "generation", "model", "prompt",
                                                                     "seed"]
    two = {"identity": {**RULES_MANIFEST["identity"], "model": "baseline:majority", "seed": 1}}
    assert differing_settings([RULES_MANIFEST, two]) == ["model", "seed"]
    # a differing data fingerprint is kept even when a chosen setting differs as well
    other_data = {"identity": {**RULES_MANIFEST["identity"], "data_fingerprint": "f2", "seed": 1}}
    assert differing_settings([RULES_MANIFEST, other_data]) == ["data_fingerprint", "seed"]


def test_compare_reports_every_differing_setting_with_a_note(tmp_path):
    a = run_dir(tmp_path / "rules", EXAMPLE, RULES_MANIFEST)
    b = run_dir(tmp_path / "served", EXAMPLE, {"task": "pdp", "identity": {**RULES_MANIFEST["identity"],
                                                                           "model": "baseline:majority",
                                                                           "seed": 1}})
    out = tmp_path / "cmp"
    res = runner.invoke(app, ["pdp", "compare", str(a), str(b), "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert (data["setting"], data["settings"]) == ("model, seed", ["model", "seed"])
    assert [r["value"] for r in data["runs"]] == ["baseline:rules, 0", "baseline:majority, 1"]
    note = ("these runs differ in 2 settings (model, seed): a difference in the metrics cannot be attributed to "
            "any one of them")
    assert data["note"] == note
    assert json.loads((out / "compare.json").read_text(encoding="utf-8"))["note"] == note
    md = (out / "compare.md").read_text(encoding="utf-8")
    assert md.startswith(f"# PDP metrics by model, seed\n\n> Note: {note}.\n\n| model, seed |")
    res = runner.invoke(app, ["pdp", "compare", str(a), str(b), "--out", str(out)])
    assert res.exit_code == 0 and "note: these runs differ in 2 settings (model, seed)" in " ".join(res.stdout.split())
    # one differing setting: no note
    c = run_dir(tmp_path / "seed1", EXAMPLE, {"task": "pdp", "identity": {**RULES_MANIFEST["identity"], "seed": 1}})
    res = runner.invoke(app, ["pdp", "compare", str(a), str(c), "--out", str(out), "--json"])
    assert (json.loads(res.stdout)["setting"], json.loads(res.stdout)["note"]) == ("seed", None)


def test_compare_served_model_against_rules_baseline(tmp_path):
    a = run_dir(tmp_path / "rules", EXAMPLE, RULES_MANIFEST)
    b = run_dir(tmp_path / "served", EXAMPLE, SERVED_MANIFEST)
    res = runner.invoke(app, ["pdp", "compare", str(a), str(b), "--out", str(tmp_path / "cmp"), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["setting"] == "backend, generation, model, prompt, seed"
    assert [r["value"] for r in data["runs"]] == [
        "not set, not set, baseline:rules, not set, 0",
        "model=qwen3-8b, preset=vllm, max_tokens=512, not set, variant=baseline, messages_hash=h1, None"]
    assert data["note"].startswith("these runs differ in 5 settings (backend, generation, model, prompt, seed)")


# ---- regression: an LJP run directory is not scored as PDP

def _ljp_dir(path):
    path.mkdir(parents=True)
    write_jsonl(path / "records.jsonl", [{"case_id": "0", "run_id": 0, "status": "ok", "gold": ["盗窃"],
                                          "raw_output": '{"charges": ["盗窃"]}'}])
    write_json(path / "manifest.json", {"task": "ljp", "identity": {"task": "ljp"},
                                        "candidates": {"labels": ["盗窃"]}})
    return path


def test_pdp_score_refuses_an_ljp_run_dir_and_writes_nothing(tmp_path):
    from jiancha.errors import ConfigError
    from jiancha.pdp.rundir import is_project_dir, read_project_dir

    d = _ljp_dir(tmp_path / "ljp")
    before = sorted(p.name for p in d.iterdir())
    res = runner.invoke(app, ["pdp", "score", str(d)])
    assert res.exit_code != 0 and isinstance(res.exception, ConfigError)
    assert str(res.exception) == (f"{d / 'manifest.json'} names task 'ljp', expected 'pdp': this is not a PDP run "
                                  f"directory; score it with 'jiancha ljp score {d}'")
    assert sorted(p.name for p in d.iterdir()) == before == ["manifest.json", "records.jsonl"]
    for fn in (is_project_dir, read_project_dir):
        with pytest.raises(ConfigError, match="names task 'ljp', expected 'pdp'"):
            fn(d)
    res = runner.invoke(app, ["pdp", "compare", str(d), str(d), "--out", str(tmp_path / "cmp")])
    assert isinstance(res.exception, ConfigError) and "jiancha ljp score" in str(res.exception)
    # a manifest naming PDP (or no task, hand-made) is accepted
    ok = run_dir(tmp_path / "pdp", EXAMPLE, {"task": "pdp"})
    assert is_project_dir(ok) and len(read_project_dir(ok)) == len(EXAMPLE)


def test_score_warns_about_missing_requests_and_pools_over_different_cases(tmp_path):
    from jiancha.pdp.scoring import completeness_warnings, score_run_dirs

    a, b = tmp_path / "a", tmp_path / "b"
    for out, limit in ((a, 10), (b, 12)):
        res = runner.invoke(app, ["pdp", "eval", "--data", "sample", "--model", "baseline:rules", "--limit",
                                  str(limit), "--repeats", "2", "--out", str(out), "--no-progress"])
        assert res.exit_code == 0, res.output
    lines = (a / "records.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (a / "records.jsonl").write_text("".join(lines[:15]), encoding="utf-8")      # as if interrupted
    r = score_run_dirs([a], write=False)
    assert {k: r["pooled"]["completeness"][k] for k in ("planned", "stored", "missing")} == \
        {"planned": 20, "stored": 15, "missing": 5}
    res = runner.invoke(app, ["pdp", "score", str(a), "--no-write"])
    assert res.exit_code == 0 and "5 of 20 planned requests are missing" in " ".join(res.stderr.split())
    both = score_run_dirs([a, b], write=False)
    warnings = completeness_warnings(both)
    assert len(warnings) == 2 and "do not cover the same cases" in warnings[1]
    full = score_run_dirs([b], write=False)
    assert full["pooled"]["completeness"]["missing"] == 0 and completeness_warnings(full) == []
