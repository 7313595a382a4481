"""`jiancha export lm-eval-task`: the folder lm-evaluation-harness runs against a local chat server, with jiancha's
messages, and a macro-F1 equal to ``jiancha pdp score`` of a live run that got the same answers."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest
from pdp_answers import responder
from typer.testing import CliRunner

from jiancha.cli.main import app
from jiancha.errors import ConfigError
from jiancha.integrations.lm_eval_task import METRICS, LmEvalTaskConfig, read_results
from jiancha.pdp.scoring import score_run_dirs

N = 12
runner = CliRunner()


def test_export_writes_the_task_folder(tmp_path):
    res = runner.invoke(app, ["export", "lm-eval-task", str(tmp_path / "task"), "--limit", "3",
                              "--prompt", "definitions"])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in (tmp_path / "task").iterdir()) == ["jiancha_task.json", "pdp_bench.yaml",
                                                                      "utils.py"]
    cfg = json.loads((tmp_path / "task" / "jiancha_task.json").read_text(encoding="utf-8"))
    assert cfg["prompt"] == "definitions" and cfg["limit"] == 3
    assert "lm_eval --model local-chat-completions" in res.output


def test_multi_turn_prompts_are_refused_with_the_alternative():
    with pytest.raises(ConfigError, match="'one-shot' shows worked examples as extra turns.*inspect eval"):
        LmEvalTaskConfig(prompt="one-shot")


@pytest.mark.skipif(importlib.util.find_spec("lm_eval") is None,
                    reason="lm-evaluation-harness is not installed: .venv/bin/pip install -e '.[integrations]'")
def test_lm_eval_result_equals_pdp_score(fake_openai, tmp_path):
    fake_openai.responder = responder
    run = tmp_path / "run"
    res = runner.invoke(app, ["pdp", "eval", "--data", "sample", "--limit", str(N), "--model", "fake",
                              "--base-url", fake_openai.url, "--out", str(run), "--no-progress"])
    assert res.exit_code == 0, res.output
    pooled = score_run_dirs([run], write=False)["pooled"]
    assert 0 < pooled["invalid_rate"] < 1 and 0 < pooled["decision_level2_macro_f1"] < 1
    live = [b["messages"] for b in fake_openai.bodies]
    fake_openai.bodies.clear()

    task = tmp_path / "task"
    assert runner.invoke(app, ["export", "lm-eval-task", str(task), "--limit", str(N)]).exit_code == 0
    out = tmp_path / "lm"
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run(  # noqa: PLW1510 (the return code is asserted, with stderr)
        [sys.executable, "-m", "lm_eval", "--model", "local-chat-completions", "--model_args",
         f"model=fake,base_url={fake_openai.url}/chat/completions,num_concurrent=1,max_retries=1",
         "--apply_chat_template", "--tasks", "pdp_bench", "--include_path", str(task), "--output_path", str(out)],
        capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (results,) = out.rglob("results_*.json")
    got = read_results(results)
    assert got == {name: pooled[key] for name, key in METRICS.items()}
    # lm-eval sent jiancha's exact messages (system + user of every case)
    key = lambda msgs: json.dumps([(m["role"], m["content"]) for m in msgs], ensure_ascii=False)
    assert sorted(map(key, (b["messages"] for b in fake_openai.bodies))) == sorted(map(key, live))
