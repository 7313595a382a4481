"""``jiancha ljp eval`` on fictional CAIL2018 lines: the offline matcher and a model on the loopback server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jiancha.cli.main import app
from jiancha.errors import ResumeMismatchError
from jiancha.ljp.baselines import charge_terms, predict_charge_match
from jiancha.ljp.scoring import score_ljp_run
from jiancha.ljp.task import LJPSpec, run_ljp_eval
from jiancha.llm.config import ClientConfig, GenerationConfig

GOLD = [["盗窃"], ["诈骗"], ["盗窃", "故意伤害"], ["[走私、贩卖、运输、制造]毒品"]]
FACTS = ["CASE-000 被告人某甲秘密窃取他人财物，构成盗窃。", "CASE-001 被告人某乙虚构事实骗取钱款。",
         "CASE-002 被告人某丙盗窃后将被害人打伤，构成故意伤害。", "CASE-003 被告人某丁贩卖毒品海洛因5克。"]


def _write_cail(path: Path) -> Path:
    lines = []
    for fact, gold in zip(FACTS, GOLD):
        meta = {"accusation": gold, "relevant_articles": [264], "criminals": ["某甲"], "punish_of_money": 0,
                "term_of_imprisonment": {"death_penalty": False, "imprisonment": 6, "life_imprisonment": False}}
        lines.append(json.dumps({"fact": fact, "meta": meta}, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_charge_terms_expand_brackets():
    assert charge_terms("[走私、贩卖]毒品") == ("走私毒品", "贩卖毒品", "走私、贩卖毒品")
    assert charge_terms("盗窃") == ("盗窃",)
    cands = ("盗窃", "诈骗", "故意伤害", "[走私、贩卖、运输、制造]毒品")
    assert [predict_charge_match(f, cands) for f in FACTS] == [["盗窃"], [], ["盗窃", "故意伤害"],
                                                              ["[走私、贩卖、运输、制造]毒品"]]


def test_baseline_through_the_cli_and_rescoring(tmp_path):
    data = _write_cail(tmp_path / "cail.jsonl")
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["ljp", "eval", "--data", str(data), "--model", "baseline:charge-match",
                                   "--out", str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    m = json.loads((out / "metrics.json").read_text(encoding="utf-8"))
    # gold labels: 盗窃 (2), 诈骗, 故意伤害, 毒品; predictions miss 诈骗 only → 盗窃/伤害/毒品 F1 1, 诈骗 0
    run0 = m["per_run"]["0"]
    assert run0["macro_f1"] == pytest.approx(0.75) and run0["exact_match"] == pytest.approx(0.75)
    assert (run0["micro_precision"], run0["micro_recall"]) == (1.0, 0.8)
    assert "macro_f1" in (out / "report.md").read_text(encoding="utf-8")
    assert score_ljp_run(out, write=False)["per_run"]["0"]["macro_f1"] == pytest.approx(0.75)


def test_model_run_with_faults_and_resume(fake_openai, tmp_path):
    data = _write_cail(tmp_path / "cail.jsonl")
    answers = {"CASE-000": '{"charges": ["盗窃罪"]}', "CASE-001": "我认为是诈骗。",
               "CASE-002": '```json\n{"charges": ["盗窃", "故意伤害"]}\n```', "CASE-003": '{"charges": []}'}
    fake_openai.responder = lambda body, key: answers[key]
    fake_openai.script("CASE-002", ["500", "reset"])
    spec = LJPSpec(model="m", data=str(data), out=str(tmp_path / "run"), base_urls=(fake_openai.url,),
                   api_key_env="JIANCHA_TEST_UNSET_KEY", repeats=2, seed=1,
                   generation=GenerationConfig(max_tokens=64))
    cfg = ClientConfig(concurrency=3, timeout_s=2, max_attempts=3, backoff_base_s=0.01)
    s = run_ljp_eval(spec, cfg)
    assert (s.sent, s.failed) == (8, 0)
    sent_prompt = fake_openai.bodies[0]["messages"][1]["content"]
    assert sent_prompt.startswith("候选罪名：") and "[走私、贩卖、运输、制造]毒品" in sent_prompt
    mean = s.metrics["mean_se"]
    # per run: 盗窃 tp2, 故意伤害 tp1, 诈骗 fn1 (invalid answer), 毒品 fn1 → macro 0.5, micro P 1 R 3/5
    assert mean["macro_f1"]["mean"] == pytest.approx(0.5) and mean["macro_f1"]["se"] == 0.0
    assert mean["micro_recall"]["mean"] == pytest.approx(0.6) and mean["exact_match"]["mean"] == 0.5
    assert s.metrics["invalid_reasons"] == {"no_json": 2}
    n = fake_openai.total()
    assert run_ljp_eval(spec, cfg).sent == 0 and fake_openai.total() == n
    with pytest.raises(ResumeMismatchError, match="generation.max_tokens: 64 \\(stored\\) → 65"):
        run_ljp_eval(LJPSpec(**{**spec.__dict__, "generation": GenerationConfig(max_tokens=65)}), cfg)


def test_shared_cail_sample_loads_and_scores(tmp_path):
    from sharedpaths import shared_path

    data = shared_path("data", "cail2018", "brightmart", "data_test_sample.json")
    labels = shared_path("data", "cail2018", "meta", "accu.txt")
    s = run_ljp_eval(LJPSpec(model="baseline:charge-match", data=str(data), out=str(tmp_path / "r"),
                             candidates=str(labels), limit=200))
    assert s.total == 200 and s.metrics["per_run"]["0"]["n"] == 200
    m = json.loads((tmp_path / "r" / "manifest.json").read_text(encoding="utf-8"))
    assert m["candidates"]["n"] == 202 and m["data"]["n_records"] == 1000


# ---- regressions: a PDP run directory is refused by ljp score; failed requests make ljp eval exit 3

def test_ljp_score_refuses_a_pdp_run_dir(tmp_path):
    from jiancha._util.io import write_json
    from jiancha._util.jsonl import write_jsonl
    from jiancha.errors import ConfigError

    d = tmp_path / "pdp"
    d.mkdir()
    write_jsonl(d / "records.jsonl", [{"case_id": "c0", "run_id": 0, "status": "ok", "gold_decision": "起诉",
                                       "raw_output": "x"}])
    write_json(d / "manifest.json", {"task": "pdp", "identity": {"task": "pdp"}})
    res = CliRunner().invoke(app, ["ljp", "score", str(d)])
    assert res.exit_code != 0 and isinstance(res.exception, ConfigError)
    assert str(res.exception) == (f"{d / 'manifest.json'} names task 'pdp', expected 'ljp': this is not an LJP run "
                                  f"directory; score it with 'jiancha pdp score {d}'")
    assert sorted(p.name for p in d.iterdir()) == ["manifest.json", "records.jsonl"]
    (d / "manifest.json").unlink()
    with pytest.raises(ConfigError, match="it has no manifest.json; pass a directory made by 'jiancha ljp eval'"):
        score_ljp_run(d)


def test_ljp_eval_exits_3_while_failed_requests_remain(fake_openai, tmp_path):
    data = _write_cail(tmp_path / "cail.jsonl")
    out = tmp_path / "run"
    args = ["ljp", "eval", "--data", str(data), "--model", "m", "--out", str(out), "--base-url", fake_openai.url,
            "--api-key-env", "JIANCHA_TEST_UNSET_KEY", "--max-attempts", "1", "--timeout", "2", "--no-progress"]
    fake_openai.default = "500"
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 3, res.output
    stdout = " ".join(res.stdout.split())
    assert "(4 failed); failed in store: 4 - re-send them with --retry-failed" in stdout
    assert "metrics: macro_f1 0.0000" in stdout and (out / "metrics.json").is_file()
    assert "4 request(s) failed and are stored as failed" in " ".join(res.stderr.split())
    fake_openai.default = "ok"
    fake_openai.responder = lambda body, key: '{"charges": ["盗窃"]}'
    res = CliRunner().invoke(app, [*args, "--retry-failed"])
    assert res.exit_code == 0, res.output
    assert "failed in store: 0 tokens:" in " ".join(res.stdout.split())
    assert "3 failed requests remain" in " ".join(CliRunner().invoke(app, ["ljp", "eval", "--help"]).stdout.split())


def test_ljp_scores_do_not_depend_on_the_order_records_were_stored_in(tmp_path):
    # a model run stores rows in completion order; the most frequent unknown charges (ties broken by name, at most
    # 20) and all metrics must not depend on it
    data = _write_cail(tmp_path / "cail.jsonl")
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["ljp", "eval", "--data", str(data), "--model", "baseline:charge-match",
                                   "--out", str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    names = [f"虚构罪名{k:02d}" for k in range(24)]
    for i, row in enumerate(rows):  # 4 cases × 6 unknown names each: 24 names, each given once
        row["raw_output"] = json.dumps({"charges": ["盗窃", *names[6 * i: 6 * i + 6]]}, ensure_ascii=False)
    metrics = []
    for order in (rows, rows[::-1]):
        (out / "records.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in order),
                                           encoding="utf-8")
        metrics.append(score_ljp_run(out, write=False))
    assert metrics[0] == metrics[1]
    assert list(metrics[0]["unknown_charges"]) == names[:20]
