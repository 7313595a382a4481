"""`jiancha pdp eval` exit status and what it prints (regressions: exit 0 with every request failed; the training
source of a baseline reported as "train")."""

from __future__ import annotations

import json

from pdp_runner_cases import write_cases
from typer.testing import CliRunner

from jiancha.cli.main import app
from jiancha.cli.pdp import EXIT_FAILED

runner = CliRunner()


def _eval(server, data, out, *extra):
    return runner.invoke(app, ["pdp", "eval", "--data", str(data), "--model", "fake-model", "--out", str(out),
                               "--base-url", server.url, "--api-key-env", "JIANCHA_TEST_UNSET_KEY",
                               "--max-attempts", "1", "--backoff", "0.01", "--timeout", "2", "--no-progress",
                               *extra])


def _flat(text: str) -> str:
    """Rich wraps long lines at the terminal width; compare on single spaces."""
    return " ".join(text.split())


def test_eval_exits_3_while_failed_requests_remain(fake_openai, tmp_path):
    data = write_cases(tmp_path / "cases.jsonl", 4)
    out = tmp_path / "run"
    fake_openai.default = "500"
    res = _eval(fake_openai, data, out)
    assert EXIT_FAILED == 3 and res.exit_code == 3, res.output
    stdout = _flat(res.stdout)
    assert "(4 failed); failed in store: 4 - re-send them with --retry-failed" in stdout
    # the metrics are printed and written before the non-zero exit
    assert "metrics: decision_level2_macro_f1 0.0000" in stdout and (out / "metrics.json").is_file()
    assert "4 request(s) failed and are stored as failed" in _flat(res.stderr)
    # nothing new to send: the failures are still there, still exit 3
    assert _eval(fake_openai, data, out).exit_code == 3
    fake_openai.default = "ok"
    res = _eval(fake_openai, data, out, "--retry-failed")
    assert res.exit_code == 0, res.output
    assert "(0 failed); failed in store: 0" in _flat(res.stdout) and "request(s) failed" not in res.output


def test_eval_help_documents_the_exit_codes():
    res = runner.invoke(app, ["pdp", "eval", "--help"])
    assert res.exit_code == 0 and "3 failed requests remain" in _flat(res.stdout) and "130 interrupted" in _flat(res.stdout)


def test_baseline_reports_its_training_source_and_split(tmp_path):
    train = write_cases(tmp_path / "train.jsonl", 8)
    out = tmp_path / "run"
    res = runner.invoke(app, ["pdp", "eval", "--data", "sample", "--model", "baseline:majority", "--out", str(out),
                              "--train-data", str(train), "--no-progress", "--no-score"])
    assert res.exit_code == 0, res.output
    # write_cases has no split column: the JSONL file is its own 'test' split (the --train-split default)
    assert f"baseline fitted on: {train}, split 'test', 8 records" in _flat(res.stdout)
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert m["train"]["source"] == str(train) and m["train"]["split"] == "test" and m["train"]["n"] == 8
    assert (m["baseline"]["train_source"], m["baseline"]["train_split"]) == (str(train), "test")
    assert m["baseline"]["fit_on"] == f"{train}, split 'test', 8 records"

    res = runner.invoke(app, ["pdp", "eval", "--data", "sample", "--model", "baseline:majority", "--out",
                              str(tmp_path / "cv"), "--no-progress", "--no-score"])
    assert res.exit_code == 0 and "baseline fitted on: evaluation split" in res.stdout


def test_eval_summary_shows_truncated_invalid_and_failed_answers(fake_openai, tmp_path):
    data = write_cases(tmp_path / "cases.jsonl", 5)
    out = tmp_path / "run"
    keys = sorted({json.loads(line)["fact"].split()[0] for line in data.read_text(encoding="utf-8").splitlines()})
    fake_openai.script(keys[0], ["length"])
    fake_openai.script(keys[1], ["length"])
    fake_openai.script(keys[2], ["500"])
    res = _eval(fake_openai, data, out)
    assert res.exit_code == 3, res.output
    assert ("answers: 5 stored; failed requests 1/5 (20.0 %); truncated 2/5 (40.0 %); invalid 3/5 (60.0 %): "
            "request_failed 1, truncated 2") in res.stdout
