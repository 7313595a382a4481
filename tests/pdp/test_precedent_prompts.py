"""Precedent-augmented prompts: the precedents each case is shown (pinned on the bundled sample), class-balanced
selection, example length, and the leakage refusal."""

from __future__ import annotations

import pytest

from jiancha.datasets.pdp import load_pdp
from jiancha.errors import ConfigError
from jiancha.pdp.parsing import parse_answer
from jiancha.pdp.precedent_prompts import PrecedentConfig, PrecedentSelector, ShownPrecedent, select_balanced
from jiancha.pdp.prompts import CLIP_MARK, build_messages, render_user


@pytest.fixture(scope="module")
def halves():
    records = load_pdp("sample", "test")
    return records[:30], records[30:]          # evaluation cases, precedent pool


def test_top_k_precedents_of_a_sample_case_are_pinned(halves):
    ev, pool = halves
    sel = PrecedentSelector(pool, PrecedentConfig("pool", k=3), evaluation=ev)
    shown = sel.shown(ev[0])   # 交通肇事罪, 法定不起诉 (suspect died)
    assert [p.id for p in shown] == ["某检刑不诉〔2025〕434号", "某检刑不诉〔2016〕387号", "某检刑诉〔2017〕52号"]
    assert [p.decision for p in shown] == ["存疑不起诉", "相对不起诉", "起诉"]
    # charge-aware: the two sharing 交通肇事罪 come first, whatever their BM25 score
    assert [p.shared_charges for p in shown] == [("交通肇事罪",), ("交通肇事罪",), ()]


def test_balanced_selection_adds_the_best_of_each_missing_decision(halves):
    ev, pool = halves
    sel = PrecedentSelector(pool, PrecedentConfig("pool", k=4, balanced=True), evaluation=ev)
    shown = sel.shown(ev[0])
    assert [p.id for p in shown] == ["某检刑不诉〔2025〕434号", "某检刑不诉〔2016〕387号", "某检刑诉〔2017〕52号",
                                     "某检刑不诉[2016]134号"]
    assert sorted(p.decision for p in shown) == sorted(["起诉", "相对不起诉", "法定不起诉", "存疑不起诉"])


def test_select_balanced_keeps_ranking_order_and_fills_with_the_best():
    ranked = [ShownPrecedent(str(i), d, 0.0, ()) for i, d in enumerate("AABACB")]
    assert [p.id for p in select_balanced(ranked, 3)] == ["0", "2", "4"]      # best A, best B, best C
    assert [p.id for p in select_balanced(ranked, 5)] == ["0", "1", "2", "3", "4"]


def test_balanced_needs_k_at_least_the_number_of_decisions(halves):
    ev, pool = halves
    with pytest.raises(ConfigError, match=r"--precedents-k 2 is smaller than the 4 decisions .* --precedents-k 4"):
        PrecedentSelector(pool, PrecedentConfig("pool", k=2, balanced=True), evaluation=ev)


def test_messages_show_each_precedent_as_a_worked_example_that_parses_back(halves):
    ev, pool = halves
    sel = PrecedentSelector(pool, PrecedentConfig("pool", k=3, max_chars=50), evaluation=ev)
    msgs = sel.messages(ev[0])
    assert [m["role"] for m in msgs] == ["system"] + ["user", "assistant"] * 3 + ["user"]
    assert msgs[-1]["content"] == render_user(ev[0])
    assert msgs[0]["content"] == build_messages(ev[0], "baseline")[0]["content"]
    for rec, (user, answer) in zip(sel.records(ev[0]), zip(msgs[1:-1:2], msgs[2:-1:2])):
        assert rec.fact[:50] + CLIP_MARK in user["content"] and rec.fact not in user["content"]
        parsed = parse_answer(answer["content"])
        assert parsed.decision == rec.decision and set(parsed.relevant_articles) == set(rec.relevant_articles)


def test_full_length_examples_without_max_chars(halves):
    ev, pool = halves
    sel = PrecedentSelector(pool, PrecedentConfig("pool", k=1, max_chars=None), evaluation=ev)
    (rec,) = sel.records(ev[0])
    assert rec.fact in sel.messages(ev[0])[1]["content"] and CLIP_MARK not in sel.messages(ev[0])[1]["content"]


def test_a_pool_overlapping_the_evaluation_set_is_refused(halves):
    ev, pool = halves
    with pytest.raises(ConfigError, match=r"overlaps the evaluation set: 1 case id\(s\) and 1 fact\(s\)"):
        PrecedentSelector([*pool, ev[3]], PrecedentConfig("pool"), evaluation=ev)
    # the same fact under another id (spacing and punctuation width differ) is a leak too
    from dataclasses import replace

    twin = replace(ev[5], id="另一个编号", fact=ev[5].fact.replace("，", ",") + " ")
    with pytest.raises(ConfigError, match=r"0 case id\(s\) and 1 fact\(s\) in common \(另一个编号\)"):
        PrecedentSelector([*pool, twin], PrecedentConfig("pool"), evaluation=ev)


def test_variant_and_pool_go_together(halves):
    ev, pool = halves
    with pytest.raises(ConfigError, match="needs a precedent pool; pass --precedents-from POOL"):
        build_messages(ev[0], "precedents")
    with pytest.raises(ConfigError, match="only shown by the 'precedents' variant"):
        build_messages(ev[0], "baseline", precedents=pool[:1])


def test_bad_settings_name_the_flag():
    with pytest.raises(ConfigError, match="--precedents-k must be at least 1"):
        PrecedentConfig("pool", k=0)
    with pytest.raises(ConfigError, match="--precedents-max-chars must be at least 1"):
        PrecedentConfig("pool", max_chars=0)


def _write(path, records):
    import json

    path.write_text("".join(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_eval_cli_sends_and_records_the_precedents(fake_openai, tmp_path, halves):
    import json

    from typer.testing import CliRunner

    from jiancha.cli.main import app

    ev, pool = halves
    data, pool_file = _write(tmp_path / "eval.jsonl", ev), _write(tmp_path / "pool.jsonl", pool)
    args = ["pdp", "eval", "--data", str(data), "--model", "fake", "--base-url", fake_openai.url, "--limit", "2",
            "--prompt", "precedents", "--precedents-from", str(pool_file), "--precedents-k", "3", "--no-progress"]
    res = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "run")])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in (tmp_path / "run" / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    first = next(r for r in rows if r["case_id"] == ev[0].id)
    assert [p["id"] for p in first["precedents"]] == ["某检刑不诉〔2025〕434号", "某检刑不诉〔2016〕387号",
                                                      "某检刑诉〔2017〕52号"]
    assert all(len(b["messages"]) == 8 for b in fake_openai.bodies)
    ident = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))["identity"]["prompt"]
    assert ident["variant"] == "precedents" and ident["precedents"]["k"] == 3 and ident["precedents"]["split"] == "test"
    # another k is another run: resuming under it is refused
    res = CliRunner().invoke(app, [*args[:-3], "--precedents-k", "2", "--no-progress", "--out", str(tmp_path / "run")])
    assert res.exit_code != 0 and "different settings" in str(res.exception)
    # the evaluation file as its own pool: refused before any request
    n = len(fake_openai.bodies)
    res = CliRunner().invoke(app, [*args[:8], "--prompt", "precedents", "--precedents-from", str(data),
                                   "--no-progress", "--out", str(tmp_path / "leak")])
    assert isinstance(res.exception, ConfigError) and "overlaps the evaluation set: 30 case id(s)" in str(res.exception)
    assert len(fake_openai.bodies) == n
    res = CliRunner().invoke(app, [*args[:8], "--prompt", "precedents", "--no-progress", "--out", str(tmp_path / "x")])
    assert isinstance(res.exception, ConfigError) and "pass --precedents-from POOL" in str(res.exception)
