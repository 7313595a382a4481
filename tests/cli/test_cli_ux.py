"""Regression tests for the command line's user experience: one-line errors instead of tracebacks, Ctrl-C with a
resume note, rich markup never eating bracketed text, clean --json output, consistent options and help texts."""

from __future__ import annotations

import json
import sys
from importlib.resources import files
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from jiancha.cli import main as cli_main
from jiancha.cli.main import app

runner = CliRunner()
MINI = str(files("jiancha") / "data" / "mini_retrieval")


def run_main(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """Run the real entry point (``jiancha.cli.main:main``, which turns errors into one line and exit 2)."""
    monkeypatch.setattr(sys, "argv", ["jiancha", *args])
    monkeypatch.delenv("JIANCHA_DEBUG", raising=False)
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as exc:
        cli_main.main()
    out, err = capsys.readouterr()
    return exc.value.code, out, err


# ------------------------------------------------------------------------------------------- error messages


@pytest.mark.parametrize("argv", [
    ("pdp", "parse", "{missing}"),
    ("build", "check", "{missing}"),
    ("build", "deid", "{missing}", "--out", "{tmp}/clean.jsonl"),
    ("build", "export", "{missing}", "--out", "{tmp}/export"),
    ("case", "predict", "{missing}"),
])
def test_missing_input_file_is_one_line_error(monkeypatch, capsys, tmp_path, argv):
    missing = str(tmp_path / "nope.jsonl")
    code, _, err = run_main(monkeypatch, capsys, *(a.format(missing=missing, tmp=tmp_path) for a in argv))
    assert code == 2
    assert "Traceback" not in err
    assert err.strip() == f"error: {missing}: no such file or directory; check the path"


def test_folder_given_for_a_file_is_one_line_error(monkeypatch, capsys, tmp_path):
    code, _, err = run_main(monkeypatch, capsys, "pdp", "parse", str(tmp_path))
    assert code == 2
    assert err.strip() == f"error: {tmp_path}: is a directory; pass a file, not a folder"


def test_error_text_with_brackets_is_printed_verbatim_on_one_line(monkeypatch, capsys, tmp_path):
    # "[bad]" looks like a rich markup tag; printed with markup it vanished from the message.
    code, _, err = run_main(monkeypatch, capsys, "retrieval", "eval", "--dataset", "lecard-v2", "--data-dir", MINI,
                            "--out", str(tmp_path / "r"), "--doc-field", "[bad]")
    assert code == 2
    assert "'[bad]'" in err
    assert err.startswith("error: unknown candidate field") and err.count("\n") == 1  # long, yet one line


def test_debug_env_shows_the_traceback(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "argv", ["jiancha", "pdp", "parse", str(tmp_path / "nope.jsonl")])
    monkeypatch.setenv("JIANCHA_DEBUG", "1")
    with pytest.raises(FileNotFoundError):
        cli_main.main()


def test_case_serve_checks_the_model_before_serving(monkeypatch, capsys):
    import uvicorn

    def never(*a, **k):
        raise AssertionError("served with an unusable model")

    monkeypatch.setattr(uvicorn, "run", never)
    code, _, err = run_main(monkeypatch, capsys, "case", "serve", "--model", "baseline:rule", "--precedents", "none")
    assert code == 2
    assert err.startswith("error: unknown baseline 'baseline:rule'; expected one of baseline:majority")
    code, _, err = run_main(monkeypatch, capsys, "case", "serve", "--model", "some-model", "--precedents", "none")
    assert code == 2 and "no --base-url was given" in err


# ------------------------------------------------------------------------------------------------- Ctrl-C


@pytest.mark.parametrize("group, target", [("pdp", "jiancha.pdp.task.run_pdp_eval"),
                                           ("ljp", "jiancha.ljp.task.run_ljp_eval")])
def test_ctrl_c_says_how_to_resume_and_exits_130(monkeypatch, tmp_path, group, target):
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(target, interrupted)
    out = str(tmp_path / "run")
    res = runner.invoke(app, [group, "eval", "--data", "sample", "--model", "baseline:rules", "--out", out])
    assert res.exit_code == 130
    assert "interrupted" in res.stderr and out in res.stderr.replace("\n", "") and "resume" in res.stderr


# --------------------------------------------------------------------------------------------- retrieval


def test_retrieval_score_table_keeps_bracketed_metric_names(tmp_path):
    run = tmp_path / "mini.trec"
    res = runner.invoke(app, ["retrieval", "run", "--dataset", "lecard-v2", "--data-dir", MINI, "--out", str(run),
                              "--cache-dir", str(tmp_path / "cache")])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["retrieval", "score", str(run), "--dataset", "lecard-v2", "--data-dir", MINI],
                        env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    rows = {line.split("│")[1].strip() for line in res.stdout.splitlines() if line.startswith("│")}
    assert {"recall@100", "recall@100[rel>=1]", "map", "map[rel>=1]", "hit@10[rel>=1]"} <= rows
    assert "lecard-v2" in res.stdout.splitlines()[0] and "12 queries" in res.stdout.splitlines()[0]


def test_retrieval_json_output_is_pure_json_and_run_matches_eval(tmp_path):
    cache = str(tmp_path / "cache")
    opts = ["--dataset", "lecard-v2", "--data-dir", MINI, "--method", "charge", "--exact-weight", "0.5",
            "--jaccard-weight", "2", "--cache-dir", cache]
    res = runner.invoke(app, ["retrieval", "eval", *opts, "--out", str(tmp_path / "ev"), "--json"])
    assert res.exit_code == 0, res.output
    parsed = json.loads(res.stdout)  # progress bars go to standard error, never into the JSON
    assert res.stdout.startswith("{") and parsed["num_queries"] == 12
    res = runner.invoke(app, ["retrieval", "run", *opts, "--out", str(tmp_path / "run.trec")])
    assert res.exit_code == 0, res.output
    # `run` accepts the charge weights too and ranks exactly as `eval` did
    assert (tmp_path / "run.trec").read_text() == (tmp_path / "ev" / "run.trec").read_text()
    res = runner.invoke(app, ["retrieval", "score", str(tmp_path / "run.trec"), "--dataset", "lecard-v2",
                              "--data-dir", MINI, "--json"])
    assert json.loads(res.stdout)["metrics"] == parsed["metrics"]


def test_retrieval_run_and_eval_offer_the_same_method_options():
    group = typer.main.get_command(app).commands["retrieval"]
    eval_opts = {p.name for p in group.commands["eval"].params}
    run_opts = {p.name for p in group.commands["run"].params}
    assert eval_opts - run_opts == {"as_json", "setting"}


# ----------------------------------------------------------------------------------------------- help texts


def _leaf_commands():
    def walk(cmd, path):
        if hasattr(cmd, "commands"):
            for name, sub in cmd.commands.items():
                yield from walk(sub, (*path, name))
        else:
            yield path, cmd

    yield from walk(typer.main.get_command(app), ())


def test_every_option_has_a_help_text():
    missing = [(" ".join(path), p.name) for path, cmd in _leaf_commands() for p in cmd.params
               if isinstance(p, typer.core.TyperOption) and p.name != "help" and not p.help]
    assert missing == []


def test_root_help_lists_only_existing_retrieval_commands():
    res = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    line = next(ln for ln in res.stdout.splitlines() if "retrieval" in ln and "Legal case retrieval" in ln)
    group = typer.main.get_command(app).commands["retrieval"]
    for word in ("eval", "run", "score", "compare", "index", "search"):
        assert word in line and word in group.commands
    assert set(group.commands) == {"eval", "run", "score", "compare", "index", "search"}


@pytest.mark.parametrize("recipe", ["sft", "dapo", "gspo"])
def test_train_help_shows_defaults_once(recipe):
    res = runner.invoke(app, ["train", recipe, "--help"], env={"COLUMNS": "300"})
    assert res.exit_code == 0
    lines = {ln.split("│")[1].split()[0]: ln for ln in res.stdout.splitlines() if ln.startswith("│ --")}
    assert "[default: 42]" in lines["--seed"]
    assert "[default: 1536]" in lines["--max-prompt-length"]
    assert "[default: no-bf16]" in lines["--bf16"]
    assert "[default: q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj]" in lines["--lora-target-modules"]
    assert lines["--lora-target-modules"].count("comma-separated") == 1
    assert "default:" not in lines["--limit"]  # no default: nothing shown


def test_train_flag_left_unset_keeps_the_preset_value():
    res = runner.invoke(app, ["train", "dapo", "--preset", "paper", "--print-config"])
    assert res.exit_code == 0, res.output
    assert "seed: 42" in res.stdout and "gradient_accumulation_steps: 64" in res.stdout and "bf16: true" in res.stdout
    res = runner.invoke(app, ["train", "dapo", "--preset", "paper", "--print-config", "--no-bf16", "--seed", "7"])
    assert "bf16: false" in res.stdout and "seed: 7" in res.stdout


def test_data_info_prints_no_datasets_progress_noise(tmp_path):
    row = {"id": "某检刑不诉〔2020〕1号", "meta": {"date": "2020-05-06", "province": "某某省"},
           "person_info": "犯罪嫌疑人某甲，男。", "procedure": "某县公安局移送审查起诉。", "fact": "经审查查明：……",
           "relevant_articles": ["cl:第二百六十四条"], "decision": "起诉", "raw_reasoning_and_decision": "本院认为……",
           "source_url": "https://example.invalid"}
    # a folder with a file of another name goes through the `datasets` JSON builder, which draws a progress bar
    (tmp_path / "records.jsonl").write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["data", "info", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "Generating" not in res.stderr and "Generating" not in res.stdout


@pytest.mark.parametrize("content, message", [
    ('[1, 2]', "expected a JSON object with person_info, procedure, fact, got a list"),
    ('{"fact": 5}', "field 'fact': expected text, got int"),
    ('{"person_info": "犯罪嫌疑人某甲。"}', "field 'fact': missing or empty"),
])
def test_case_predict_checks_the_case_file(monkeypatch, capsys, tmp_path, content, message):
    case = tmp_path / "case.json"
    case.write_text(content, encoding="utf-8")
    code, _, err = run_main(monkeypatch, capsys, "case", "predict", str(case), "--precedents", "none")
    assert code == 2 and "Traceback" not in err
    assert err.startswith((f"error: {case}, ", f"error: {case}: "))
    assert message in err


def test_case_predict_reads_a_document_file(monkeypatch, capsys, tmp_path):
    from importlib.resources import files

    doc = Path(__file__).parents[1] / "util" / "data" / "judgment.doc"   # a judgment: its whole text is the facts
    code, out, err = run_main(monkeypatch, capsys, "case", "predict", "--document", str(doc), "--precedents",
                              "none", "--json")
    said = err.splitlines()
    assert code == 0 and said[0] == f"{doc}: not a 起诉意见书, 起诉书 or 不起诉决定书: its whole text is taken as the facts"
    assert said[1:3] == ["  【犯罪嫌疑人信息】0 字: ", "  【案件程序】0 字: "] and said[3].startswith("  【案件事实】260 字: 浙江省")
    assert json.loads(out)["document_decision"] == "" and json.loads(out)["case"]["fact"].startswith("浙江省")
    decision = tmp_path / "d.txt"
    decision.write_bytes((files("jiancha") / "data" / "raw_docs" / "d09_multi_differing.txt").read_bytes())
    code, out, err = run_main(monkeypatch, capsys, "case", "predict", "--document", str(decision), "--precedents",
                              "none", "--json")
    assert code == 0 and err.splitlines()[0] == f"{decision}: a 不起诉决定书 on 2 people: the first one's case"
    assert json.loads(out)["document_decision"] == "相对不起诉"
    (tmp_path / "scan.pdf").write_bytes(b"%PDF-1.4")
    code, _, err = run_main(monkeypatch, capsys, "case", "predict", "--document", str(tmp_path / "scan.pdf"))
    assert code == 2 and err.startswith(f"error: {tmp_path / 'scan.pdf'}: unreadable PDF")
    code, _, err = run_main(monkeypatch, capsys, "case", "predict", "--document", str(doc), "--fact", "事实")
    assert code == 2 and err.strip() == "error: give one of: a case file, --document FILE, --fact TEXT"


@pytest.mark.parametrize("command", [("build", "extract", "{dir}", "--out", "{dir}/r.jsonl"),
                                     ("build", "run", "{dir}", "--out", "{dir}/out")])
def test_corpus_refuses_a_folder_without_documents(monkeypatch, capsys, tmp_path, command):
    (tmp_path / "notes.md").write_text("不是文书", encoding="utf-8")
    code, _, err = run_main(monkeypatch, capsys, *(c.format(dir=tmp_path) for c in command))
    assert code == 2
    assert err.startswith(f"error: {tmp_path}: no documents in this folder (looked for ")
    assert not (tmp_path / "r.jsonl").exists() and not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, message", [
    (("retrieval", "eval", "--dataset", "lecard-v2", "--data-dir", MINI, "--out", "{tmp}/r", "--pool", "all"),
     "--pool has no effect with --dataset lecard-v2: it applies to lecard-v1 only; drop it"),
    (("retrieval", "run", "--dataset", "lecard-v1", "--data-dir", "{tmp}", "--out", "{tmp}/r.trec", "--scope",
      "pool"), "--scope has no effect with --dataset lecard-v1: it applies to lecard-v2 only; drop it"),
    (("retrieval", "score", "{tmp}/r.trec", "--dataset", "lecard-v1", "--data-dir", "{tmp}", "--setting", "test"),
     "--setting has no effect with --dataset lecard-v1: it applies to lecard-v2 only; drop it"),
])
def test_retrieval_refuses_options_of_the_other_dataset(monkeypatch, capsys, tmp_path, args, message):
    code, _, err = run_main(monkeypatch, capsys, *(a.format(tmp=tmp_path) for a in args))
    assert code == 2
    assert err.strip() == f"error: {message}"


def test_retrieval_options_of_the_same_dataset_are_accepted(tmp_path):
    res = runner.invoke(app, ["retrieval", "eval", "--dataset", "lecard-v2", "--data-dir", MINI, "--out",
                              str(tmp_path / "r"), "--scope", "pool", "--setting", "test", "--json",
                              "--cache-dir", str(tmp_path / "cache")])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["num_queries"] == 12


@pytest.mark.parametrize("model, option, value", [
    ("baseline:rules", "--prompt", "definitons"),
    ("baseline:majority", "--temperature", "0.5"),
    ("baseline:tfidf-lr", "--base-url", "http://127.0.0.1:9/v1"),
    ("openai:gpt-x", "--cv-folds", "3"),
    ("openai:gpt-x", "--train-data", "sample"),
])
def test_pdp_eval_refuses_options_the_model_kind_ignores(monkeypatch, capsys, tmp_path, model, option, value):
    code, _, err = run_main(monkeypatch, capsys, "pdp", "eval", "--data", "sample", "--model", model,
                            "--out", str(tmp_path / "run"), option, value)
    assert code == 2
    assert err.startswith(f"error: {option} has no effect with --model {model}: ") and err.endswith("drop it\n")
    assert not (tmp_path / "run").exists()


def test_ljp_eval_refuses_decoding_options_for_the_offline_baseline(monkeypatch, capsys, tmp_path):
    code, _, err = run_main(monkeypatch, capsys, "ljp", "eval", "--data", str(tmp_path / "cail.json"), "--model",
                            "baseline:charge-match", "--out", str(tmp_path / "run"), "--temperature", "0.7")
    assert code == 2
    assert err.startswith("error: --temperature has no effect with --model baseline:charge-match: ")
