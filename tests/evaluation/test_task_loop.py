"""A third task on the one evaluation loop: a tiny arithmetic benchmark in one small class, run against the
loopback chat server, resumed, refused under other settings, and summarised like PDP and LJP runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jiancha.errors import ResumeMismatchError
from jiancha.evaluation.runner import run_task
from jiancha.evaluation.summary import render_summary
from jiancha.evaluation.task import Sample, Task, Verdict
from jiancha.llm.config import ClientConfig, ModelRunSpec

PROBLEMS = [(f"CASE-{i}", i, i + 1) for i in range(6)]


class AdditionTask(Task):
    """'What is a + b?': the answer must be the number alone."""

    name = "addition"
    run_format = "test-addition/1"

    def load_samples(self):
        return [Sample(cid, (a, b)) for cid, a, b in PROBLEMS]

    def fingerprint(self, samples):
        return "-".join(s.id for s in samples)

    def is_offline(self):
        return False

    def messages(self, sample):
        a, b = sample.record
        return [{"role": "user", "content": f"{sample.id}: {a} + {b} = ?"}]

    def gold_fields(self, sample):
        return {"gold": sum(sample.record)}

    def verdict(self, row):
        if row["status"] != "ok":
            return Verdict(False, "request_failed")
        text = (row.get("raw_output") or "").strip()
        return Verdict(True) if text.isdigit() else Verdict(False, "not_a_number")

    def score(self, run_dir: Path):
        rows = [json.loads(line) for line in (run_dir / "records.jsonl").read_text().splitlines()]
        ok = [r for r in rows if r["status"] == "ok" and r["raw_output"].strip() == str(r["gold"])]
        return {"accuracy": len(ok) / len(rows)}

    def headline(self, metrics):
        return metrics


def _spec(url: str, out: Path, **kw) -> ModelRunSpec:
    return ModelRunSpec(model="m", data="addition", out=str(out), base_urls=(url,),
                        api_key_env="JIANCHA_TEST_UNSET_KEY", **kw)


def test_a_new_task_runs_resumes_and_reports(fake_openai, tmp_path):
    def answer(body, key):
        i = int(key.split("-")[1])
        return "oops" if i == 5 else str(2 * i + 1 if i != 4 else 0)

    fake_openai.responder = answer
    fake_openai.script("CASE-3", ["length"])
    out = tmp_path / "run"
    config = ClientConfig(max_attempts=1, timeout_s=5)
    s = run_task(AdditionTask(_spec(fake_openai.url, out, repeats=2)), config)
    assert (s.total, s.sent, s.failed, s.already_done) == (12, 12, 0, 0)
    # CASE-4 is wrong and CASE-5 does not parse in both repeats; CASE-3's first answer was cut at the token
    # limit (20 characters: the number survives, and the cut is still counted)
    assert s.metrics == {"accuracy": 8 / 12}
    assert (s.health.records, s.health.failed, s.health.truncated, s.health.invalid) == (12, 0, 1, 2)
    assert s.health.reasons == {"not_a_number": 2}
    lines = render_summary(s)
    assert lines[-2] == ("answers: 12 stored; failed requests 0/12 (0.0 %); truncated 1/12 (8.3 %); invalid "
                         "2/12 (16.7 %): not_a_number 2")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["task"] == "addition" and manifest["identity"]["data_fingerprint"].startswith("CASE-0")

    # resume: nothing is sent again
    again = run_task(AdditionTask(_spec(fake_openai.url, out, repeats=2)), config)
    assert (again.sent, again.already_done, again.resumed) == (0, 12, True)
    # a third repeat sends only the new one
    more = run_task(AdditionTask(_spec(fake_openai.url, out, repeats=3)), config)
    assert (more.sent, more.already_done) == (6, 12)
    # another seed changes answers: refused
    with pytest.raises(ResumeMismatchError, match="seed"):
        run_task(AdditionTask(_spec(fake_openai.url, out, repeats=3, seed=7)), config)


def test_public_api_evaluates_and_scores_with_typed_results(tmp_path):
    import jiancha

    summary = jiancha.evaluate("baseline:rules", "sample", tmp_path / "rules")
    scores = jiancha.score(tmp_path / "rules")
    assert isinstance(scores, jiancha.PDPScores)
    assert (scores.records, scores.runs, scores.invalid) == (60, 1, 0)
    assert scores.level2_macro_f1 == summary.headline["decision_level2_macro_f1"]
    assert scores.mean_se["level2_macro_f1"] == jiancha.MeanSE(scores.level2_macro_f1, 0.0)
    assert set(scores.per_class_f1) == {"起诉", "相对不起诉", "法定不起诉", "存疑不起诉"}
    with pytest.raises(AttributeError):
        jiancha.no_such_function  # noqa: B018


def test_public_api_searches_a_persisted_index(tmp_path):
    import jiancha
    from jiancha.retrieval.search import CaseDoc, SearchIndex

    docs = [CaseDoc("a", "被告人甲在超市盗窃手机一部，价值人民币三千元。", ("盗窃罪",), "有期徒刑六个月"),
            CaseDoc("b", "被告人乙醉酒驾驶机动车，血液酒精含量为一百二十毫克。", ("危险驾驶罪",), "拘役两个月"),
            CaseDoc("c", "被告人丙持刀抢劫路人财物。", ("抢劫罪",), "有期徒刑三年")]
    SearchIndex.build(docs).save(tmp_path / "idx")
    hits = jiancha.search("某人酒后驾驶机动车被查获，血液酒精含量超标。", tmp_path / "idx", k=2)
    assert isinstance(hits[0], jiancha.SearchHit) and hits[0].id == "b" and len(hits) == 2
