"""Offline baselines: rules on constructed signals, majority, TF-IDF + LR (CV and train modes), via the runner."""

from __future__ import annotations

import json

import pytest
from pdp_runner_cases import CLASSES, make_case, make_cases, write_cases

from jiancha.errors import ConfigError
from jiancha.pdp.baselines import get_baseline
from jiancha.pdp.baselines.base import majority_label
from jiancha.pdp.baselines.rules import count_supplementary, find_leniency, predict_rules_one
from jiancha.pdp.baselines.signals import parse_amounts
from jiancha.pdp.baselines.tfidf import predict_tfidf_lr
from jiancha.pdp.spec import RunSpec
from jiancha.pdp.task import run_pdp_eval


def test_parse_amounts():
    assert parse_amounts("窃取人民币3,723元，另有价值1.2万元的手机及5000余元现金") == [3723.0, 12000.0, 5000.0]
    assert parse_amounts("无金额") == []


def test_signal_counters():
    assert count_supplementary("本院于5月1日退回公安机关补充侦查，6月1日补查重报。") == 1
    assert count_supplementary("第一次退回补充侦查……第二次退回补充侦查") == 2
    assert count_supplementary("经二次退回，补充侦查完毕") == 2
    assert find_leniency("主动投案，如实供述，取得谅解") == ["自首", "坦白", "谅解"]


@pytest.mark.parametrize("label", CLASSES)
def test_rules_predict_each_constructed_class(label):
    p = predict_rules_one(make_case(1, label))
    assert p.decision == label
    rule_no = {"法定不起诉": "规则1", "存疑不起诉": "规则2", "相对不起诉": "规则3", "起诉": "规则4"}[label]
    assert p.analysis.startswith(rule_no)


def test_rules_articles_and_large_amount_blocks_dnp():
    snp = predict_rules_one(make_case(2, "法定不起诉"))
    # the charge named in the inputs (盗窃罪) gives its Criminal Law article, then the statutory ground's CPL ones
    assert snp.articles == ("cl:第二百六十四条", "cpl:第十六条第（一）项", "cpl:第一百七十七条第一款")
    dnp = predict_rules_one(make_case(1, "相对不起诉"))
    assert dnp.articles[-1] == "cpl:第一百七十七条第二款" and "cl:第三十七条" in dnp.articles
    big = make_case(1, "相对不起诉")
    big = type(big)(**{**big.__dict__, "fact": big.fact.replace("2000元", "80000元")})
    p = predict_rules_one(big)
    assert p.decision == "起诉" and "8万元" in p.analysis


def test_majority_label_ties_in_table_order():
    assert majority_label(["相对不起诉", "起诉", "相对不起诉", "起诉"]) == "起诉"
    assert majority_label(["存疑不起诉", "法定不起诉"]) == "法定不起诉"
    out = get_baseline("baseline:majority")(make_cases(6), train=None)
    assert {p.decision for p in out.predictions} == {"起诉"} and out.info["support"] == 2


def test_tfidf_cv_is_deterministic_and_says_so():
    cases = make_cases(24)
    a = predict_tfidf_lr(cases, seed=3, folds=3)
    b = predict_tfidf_lr(cases, seed=3, folds=3)
    assert [p.analysis for p in a.predictions] == [p.analysis for p in b.predictions]
    assert a.info["fit_on"] == "cross-validation on the evaluation split" and a.info["folds"] == 3
    assert "3折分层交叉验证" in a.predictions[0].analysis
    # the constructed classes are separable from their wording
    assert sum(p.decision == r.decision for p, r in zip(a.predictions, cases)) >= 20


def test_tfidf_train_mode_and_errors():
    out = predict_tfidf_lr(make_cases(4), train=make_cases(16))
    assert out.info["fit_on"] == "train" and [p.decision for p in out.predictions] == list(CLASSES)
    with pytest.raises(ConfigError, match="at least 2 decision classes"):
        predict_tfidf_lr([make_case(i, "起诉") for i in range(5)])
    with pytest.raises(ConfigError, match="unknown baseline"):
        get_baseline("baseline:svm")


def test_baseline_through_the_runner_resumes_and_refuses_other_seed(tmp_path):
    data = write_cases(tmp_path / "cases.jsonl", 12)
    out = tmp_path / "run"
    spec = RunSpec(model="baseline:tfidf-lr", data=str(data), out=str(out), cv_folds=3, repeats=2)
    s = run_pdp_eval(spec, score=False)
    assert (s.sent, s.total) == (24, 24) and s.baseline_info["fit_on"].startswith("cross-validation")
    rows = [json.loads(x) for x in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all(r["status"] == "ok" and "【最终结论】" in r["raw_output"] for r in rows)
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert m["baseline"]["folds"] == 3 and m["identity"]["train"] == {"cross_validation_folds": 3}
    assert run_pdp_eval(spec, score=False).sent == 0
    from jiancha.errors import ResumeMismatchError

    with pytest.raises(ResumeMismatchError, match="seed: 0 \\(stored\\) → 5"):
        run_pdp_eval(RunSpec(model="baseline:tfidf-lr", data=str(data), out=str(out), cv_folds=3, seed=5),
                     score=False)
    with pytest.raises(ConfigError, match="does not learn"):
        run_pdp_eval(RunSpec(model="baseline:rules", data=str(data), out=str(tmp_path / "x"),
                             train_data=str(data)), score=False)


@pytest.mark.parametrize("name", ["majority", "rules", "tfidf-lr"])
def test_baselines_on_the_bundled_sample_through_the_cli(tmp_path, name):
    from typer.testing import CliRunner

    from jiancha.cli.main import app

    out = tmp_path / name
    res = CliRunner().invoke(app, ["pdp", "eval", "--data", "sample", "--model", f"baseline:{name}", "--out",
                                   str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "metrics: decision_level2_macro_f1" in res.output
    metrics = json.loads((out / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["pooled"]["n_records"] == metrics["pooled"]["n_cases"] > 0
    assert metrics["pooled"]["decision_parse_fail_count"] == 0   # baselines answer in the scored format
    if name == "tfidf-lr":
        assert "cross-validation on the evaluation split" in res.output
