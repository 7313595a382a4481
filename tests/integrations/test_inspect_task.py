"""The inspect_ai task ``jiancha/pdp_bench``: found through the package entry point, jiancha's messages, and an
inspect log whose metrics equal ``jiancha pdp score`` of a live run that got the same answers."""

from __future__ import annotations

import json

import pytest
from pdp_answers import answer_for, responder
from typer.testing import CliRunner

pytest.importorskip("inspect_ai", reason="inspect_ai is not installed: .venv/bin/pip install -e '.[integrations]'")

from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from jiancha.cli.main import app
from jiancha.integrations.inspect_task import METRICS
from jiancha.pdp.scoring import score_run_dirs

N = 12


def _mock_model():
    def generate(messages, tools, tool_choice, config):
        out = ModelOutput.from_content(model="mockllm", content=answer_for(messages[-1].text))
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)   # no tokenizer download
        return out

    return get_model("mockllm/model", custom_outputs=generate)


def _inspect(tmp_path, **task_args):
    logs = inspect_eval("jiancha/pdp_bench", model=_mock_model(), task_args=task_args,
                        log_dir=str(tmp_path / "logs"), display="none")
    assert logs[0].status == "success", logs[0].error
    return read_eval_log(logs[0].location)       # the log as written to disk


def test_inspect_log_score_equals_pdp_score(fake_openai, tmp_path):
    fake_openai.responder = responder
    run = tmp_path / "run"
    res = CliRunner().invoke(app, ["pdp", "eval", "--data", "sample", "--limit", str(N), "--model", "fake",
                                   "--base-url", fake_openai.url, "--out", str(run), "--no-progress"])
    assert res.exit_code == 0, res.output
    pooled = score_run_dirs([run], write=False)["pooled"]
    assert 0 < pooled["invalid_rate"] < 1 and 0 < pooled["decision_level2_macro_f1"] < 1   # a test that can fail

    log = _inspect(tmp_path, data="sample", limit=N)
    (scores,) = log.results.scores
    got = {name: m.value for name, m in scores.metrics.items()}
    assert got == {name: pooled[name] for name in METRICS}

    # inspect sent jiancha's exact messages
    sent = {json.dumps([{"role": m["role"], "content": m["content"]} for m in b["messages"]], ensure_ascii=False)
            for b in fake_openai.bodies}
    seen = {json.dumps([{"role": m.role, "content": m.text} for m in s.input], ensure_ascii=False)
            for s in log.samples}
    assert seen == sent and len(seen) == N


def test_precedent_prompts_through_inspect_record_the_precedents(tmp_path):
    from jiancha.datasets.pdp import load_pdp
    from jiancha.pdp.precedent_prompts import PrecedentConfig, PrecedentSelector

    records = load_pdp("sample", "test")
    ev, pool = tmp_path / "eval.jsonl", tmp_path / "pool.jsonl"
    ev.write_text("".join(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in records[:30]), encoding="utf-8")
    pool.write_text("".join(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in records[30:]),
                    encoding="utf-8")
    log = _inspect(tmp_path, data=str(ev), prompt="precedents", precedents_from=str(pool), precedents_k=2, limit=3)
    sel = PrecedentSelector(records[30:], PrecedentConfig(str(pool), k=2), evaluation=records[:30])
    by_id = {r.id: r for r in records[:3]}
    assert sorted(s.id for s in log.samples) == sorted(by_id)
    for sample in log.samples:
        assert sample.metadata["precedents"] == [p.id for p in sel.shown(by_id[sample.id])]
        assert len(sample.input) == 2 + 2 * 2
