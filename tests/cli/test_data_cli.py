"""`jiancha data list|info|download` end to end on fictional fixtures (and ../shared when present)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from file_server import FileServer
from typer.testing import CliRunner

from jiancha.cli.main import app

runner = CliRunner()
LABELS = ("起诉", "相对不起诉", "法定不起诉", "存疑不起诉")


def pdp_row(i: int, label: str, date: str = "2020-05-06", province: str = "某某省", **over) -> dict:
    row = {"id": f"某检刑不诉〔2020〕{i}号", "meta": {"date": date, "province": province},
           "person_info": "犯罪嫌疑人某甲，男。", "procedure": "某县公安局移送审查起诉。", "fact": "经审查查明：……",
           "relevant_articles": ["cl:第二百六十四条", "cpl:第一百七十七条第二款"], "decision": label,
           "raw_reasoning_and_decision": "本院认为……", "source_url": "https://example.invalid"}
    row.update(over)
    return row


def write_jsonl(path, rows) -> str:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def invoke(*args: str):
    res = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    return res


def table_row(out: str, first: str) -> list[str]:
    """Cells of the rich table row whose first cell is ``first``."""
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("│").split("│")]
        if line.lstrip().startswith("│") and cells[0] == first:
            return cells
    raise AssertionError(f"no table row {first!r} in:\n{out}")


def test_data_list():
    res = invoke("data", "list")
    assert res.exit_code == 0, res.output
    for i in ("pdp/test_rq2", "lecard-v1", "lecard-v2/test", "cail2018"):
        assert i in res.output


def test_info_pdp_jsonl(tmp_path):
    rows = [pdp_row(1, "起诉", "2019-01-02", "甲省"), pdp_row(2, "起诉", "2023-11-30", "乙省"),
            pdp_row(3, "法定不起诉", "2016-07-01", "甲省", charges=["盗窃罪"])]
    res = invoke("data", "info", write_jsonl(tmp_path / "p.jsonl", rows))
    assert res.exit_code == 0, res.output
    out = res.output
    assert table_row(out, "test") == ["test", "3", "2", "0", "1", "0", "2016-07-01…2023-11-30", "2"]
    assert "fields: id, meta, meta.date, meta.province, person_info" in out and "charges" in out
    assert "charges: 1 distinct; top: 盗窃罪 1" in out
    assert "validation: no problems" in out
    assert "cannot be recreated" in out and "25 needed" in out


def test_info_lists_problems(tmp_path):
    rows = [pdp_row(1, "起诉"), pdp_row(2, "不予起诉"), pdp_row(3, "起诉", date="2020-13-01"),
            pdp_row(4, "起诉", relevant_articles=["刑法第264条"])]
    res = invoke("data", "info", write_jsonl(tmp_path / "p.jsonl", rows), "--issues", "2")
    assert res.exit_code == 0, res.output
    assert "3 problem(s)" in res.output
    assert "p.jsonl, line 2, field 'decision': unknown decision label (got '不予起诉')" in res.output
    assert "line 3, field 'meta.date'" in res.output and "1 more" in res.output


def test_info_dataset_dict_folder(tmp_path):
    from datasets import Dataset, DatasetDict

    rows = [pdp_row(i, LABELS[i % 4]) for i in range(8)]
    DatasetDict({"test": Dataset.from_list(rows), "test_rq2": Dataset.from_list(rows[:4])}).save_to_disk(
        str(tmp_path / "dd"))
    res = invoke("data", "info", str(tmp_path / "dd"))
    assert res.exit_code == 0, res.output
    assert table_row(res.output, "test")[:6] == ["test", "8", "2", "2", "2", "2"]
    assert table_row(res.output, "test_rq2")[:6] == ["test_rq2", "4", "1", "1", "1", "1"]


def test_info_cail_folder(tmp_path):
    line = {"fact": "某某指控……", "meta": {"accusation": ["盗窃"], "relevant_articles": [264], "criminals": ["甲"],
                                          "punish_of_money": 0, "term_of_imprisonment": {
                                              "death_penalty": False, "imprisonment": 3, "life_imprisonment": False}}}
    other = json.loads(json.dumps(line))
    other["meta"]["accusation"] = ["诈骗"]
    other["meta"]["relevant_articles"] = [266]
    write_jsonl(tmp_path / "data_test.json", [line, line, other])
    (tmp_path / "accu.txt").write_text("盗窃\n", encoding="utf-8")
    (tmp_path / "law.txt").write_text("264\n", encoding="utf-8")
    res = invoke("data", "info", str(tmp_path))
    assert res.exit_code == 0, res.output
    assert "CAIL2018 format" in res.output and "3 records, 2 charges, 2 articles" in res.output
    assert table_row(res.output, "盗窃") == ["盗窃", "2", "264", "2"] and "charges not in accu.txt: 诈骗" in res.output
    assert "articles not in law.txt: 266" in res.output


def test_info_lecard_v2_layout_delegates(tmp_path):
    (tmp_path / "query").mkdir()
    (tmp_path / "label").mkdir()
    write_jsonl(tmp_path / "query" / "query.json", [{"id": 5, "query": "某案", "fact": "某事实"},
                                                   {"id": 7, "query": "另案", "fact": "另事实"}])
    (tmp_path / "label" / "relevence.trec").write_text("5 0 11 3\n5 0 12 0\n7 0 13 2\n", encoding="utf-8")
    write_jsonl(tmp_path / "label" / "ranking_pool.json", [{"qid": 5, "rank_doc_id": [11, 12, 14]}])
    res = invoke("data", "info", str(tmp_path))
    assert res.exit_code == 0, res.output
    out = res.output
    assert "lecard-v2" in out and table_row(out, "query texts available") == [
        "query texts available", "2 (2 in query.json)"]
    assert table_row(out, "queries with relevance labels") == ["queries with relevance labels", "2"]
    assert table_row(out, "judged pairs") == ["judged pairs", "3"]
    assert "0: 1, 2: 1, 3: 1" in out and "no candidate documents" in out


def test_info_shared_lecard_v2(shared_data):
    root = shared_data / "lecard_v2"
    res = invoke("data", "info", str(root))
    assert res.exit_code == 0, res.output
    assert table_row(res.output, "query texts available") == [
        "query texts available", ("320 (100 in controversial_query.json + 100 in procedural_query.json + 160 in "
        "test_query.json); ids in several files counted once")]
    assert table_row(res.output, "queries with relevance labels") == ["queries with relevance labels", "800"]
    assert table_row(res.output, "labelled queries without text") == [
        "labelled queries without text", "480 (can be scored from runs, not searched)"]
    assert table_row(res.output, "judged pairs") == ["judged pairs", "23964"]  # qrels cover all 800 queries


def test_download_lecard_v2_from_mirror_prints_manual_step(tmp_path):
    with FileServer() as srv:
        srv.state.default = b"fixture\n"
        res = invoke("data", "download", "lecard-v2", "--to", str(tmp_path / "v2"), "--base-url", srv.url,
                     "--no-verify")
        paths = [p for p, _ in srv.state.requests]
    assert res.exit_code == 0, res.output
    assert "/lecard-v2/label/relevence.trec" in paths and "/lecard-v2/others/criminal%20charges.txt" in paths
    assert (tmp_path / "v2" / "label" / "ranking_pool.json").read_bytes() == b"fixture\n"
    assert "manual step:" in res.output and f"{tmp_path / 'v2'}/candidate/" in res.output.replace("\n", "")


def test_errors_exit_2_with_one_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "jiancha", "data", "info", "Julian2002/PDP-Bench"],
                          check=False, capture_output=True, text=True, env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin",
                                                                 "COLUMNS": "300"}, timeout=60)
    assert proc.returncode == 2 and "error:" in proc.stderr and "local copy" in proc.stderr
    assert "HF_HUB_OFFLINE is set" in proc.stderr   # refused before any network use
    assert len(proc.stderr.strip().splitlines()) == 1
    res = invoke("data", "info", "lecard-v3")
    assert res.exit_code != 0


@pytest.mark.parametrize("name", ["lecard-v3"])
def test_unknown_download_name(name):
    from jiancha.errors import ConfigError

    res = invoke("data", "download", name)
    assert isinstance(res.exception, ConfigError) and "did you mean 'lecard-v2'" in str(res.exception)


def test_download_manual_only_dataset(tmp_path):
    res = invoke("data", "download", "lecard-v2/candidates", "--cache", str(tmp_path))
    assert res.exit_code == 0, res.output
    text = res.output.replace("\n", "")
    assert "manual step:" in text and f"{tmp_path / 'lecard-v2'}/candidate/" in text and " is in " not in text
    assert not (tmp_path / "lecard-v2").exists()


def test_info_registry_id_reads_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("JIANCHA_CACHE", str(tmp_path))
    (tmp_path / "pdp").mkdir()
    write_jsonl(tmp_path / "pdp" / "test.jsonl", [pdp_row(1, "起诉"), pdp_row(2, "存疑不起诉")])
    res = invoke("data", "info", "pdp/test")
    assert res.exit_code == 0, res.output
    assert res.output.startswith("pdp/test\n") and table_row(res.output, "test")[:6] == ["test", "2", "1", "0", "0", "1"]
    res = invoke("data", "info", "lecard-v1")
    assert "not in the cache" in str(res.exception) and "jiancha data download lecard-v1" in str(res.exception)


# ------------------------------------------------------------------------------------------- detection (QA)

CAIL_LINE = {"fact": "某某指控……", "meta": {"accusation": ["盗窃"], "relevant_articles": [264], "criminals": ["甲"],
                                          "punish_of_money": 0, "term_of_imprisonment": {
                                              "death_penalty": False, "imprisonment": 3, "life_imprisonment": False}}}


def test_info_lecard_v2_query_files_overlap(tmp_path):
    (tmp_path / "query").mkdir()
    (tmp_path / "label").mkdir()
    write_jsonl(tmp_path / "query" / "test_query.json", [{"id": 5, "query": "甲", "fact": "甲"},
                                                        {"id": 10, "query": "乙", "fact": "乙"}])
    write_jsonl(tmp_path / "query" / "procedural_query.json", [{"id": 10, "query": "乙", "fact": "乙"}])
    (tmp_path / "label" / "relevence.trec").write_text("5 0 11 3\n10 0 12 1\n15 0 13 2\n20 0 13 0\n",
                                                       encoding="utf-8")
    res = invoke("data", "info", str(tmp_path))
    assert res.exit_code == 0, res.output
    assert table_row(res.output, "query texts available") == [
        "query texts available", ("2 (1 in procedural_query.json + 2 in test_query.json); ids in several files "
        "counted once")]
    assert table_row(res.output, "queries with relevance labels") == ["queries with relevance labels", "4"]
    assert table_row(res.output, "labelled queries without text") == [
        "labelled queries without text", "2 (can be scored from runs, not searched)"]


def test_info_cail_top_folder_with_subfolders_and_meta(tmp_path):
    other = json.loads(json.dumps(CAIL_LINE))
    other["meta"]["accusation"] = ["诈骗"]
    other["meta"]["relevant_articles"] = [266]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "meta").mkdir()
    write_jsonl(tmp_path / "a" / "data_test.json", [CAIL_LINE, other])
    write_jsonl(tmp_path / "b" / "data_train.json", [CAIL_LINE, CAIL_LINE, CAIL_LINE])
    (tmp_path / "meta" / "accu.txt").write_text("盗窃\n诈骗\n", encoding="utf-8")
    (tmp_path / "meta" / "law.txt").write_text("264\n266\n", encoding="utf-8")
    res = invoke("data", "info", str(tmp_path))
    assert res.exit_code == 0, res.output
    out = res.output.replace("\n", "")
    assert "CAIL2018 format" in out and "PDP-Bench" not in out
    assert f"label lists: {tmp_path / 'meta'} (2 charges, 2 articles)" in out
    assert f"{tmp_path / 'a' / 'data_test.json'}: 2 records, 2 charges, 2 articles, 0 with several charges" in out
    assert f"{tmp_path / 'b' / 'data_train.json'}: 3 records, 1 charges, 1 articles, 0 with several charges" in out


def test_info_folder_with_a_test_named_statistics_file(tmp_path):
    (tmp_path / "counts_test.json").write_text('{"meta": {"total_samples": 3}, "summary": {}}', encoding="utf-8")
    res = invoke("data", "info", str(tmp_path))
    assert res.exit_code != 0
    assert str(res.exception).startswith(f"{tmp_path / 'counts_test.json'}: found a JSON object that is not a "
                                         "record list (statistics or metadata?) with keys meta, summary; expected")


def test_info_unclassifiable_folder_says_so(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "stats.json").write_text('{"meta": {"total_samples": 3}, "summary": {}}', encoding="utf-8")
    (tmp_path / "counts.json").write_text('{"n": 3}', encoding="utf-8")
    res = invoke("data", "info", str(tmp_path))
    assert res.exit_code != 0
    msg = str(res.exception)
    assert msg.startswith(f"{tmp_path}: cannot tell which dataset this folder holds; expected LeCaRD")
    assert "CAIL2018 (JSON lines of {fact, meta} records, here or in subfolders, or meta/accu.txt)" in msg
    assert msg.endswith("found: counts.json, notes/, stats.json. Pass a data file itself to summarise it")


def test_info_folder_with_one_statistics_file(tmp_path):
    (tmp_path / "stats.json").write_text('{"meta": {"total_samples": 3}, "summary": {}}', encoding="utf-8")
    res = invoke("data", "info", str(tmp_path))
    assert res.exit_code != 0
    assert str(res.exception).startswith(f"{tmp_path / 'stats.json'}: found a JSON object that is not a record "
                                         "list (statistics or metadata?) with keys meta, summary; expected")


def test_info_statistics_json_is_not_a_dataset(tmp_path, monkeypatch, capsys):
    from jiancha.cli import main as cli_main

    stats = tmp_path / "distribution.json"
    stats.write_text(json.dumps({"meta": {"total_samples": 3}, "summary": {"n": 1}, "counts": [1, 2]}),
                     encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["jiancha", "data", "info", str(stats)])
    monkeypatch.delenv("JIANCHA_DEBUG", raising=False)
    with pytest.raises(SystemExit) as info:
        cli_main.main()
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "found a JSON object that is not a record list (statistics or metadata?) with keys meta, summary, " \
           "counts; expected a list of PDP-Bench records" in err.replace("\n", "")


def test_info_shared_cail_top_folder(shared_data):
    res = invoke("data", "info", str(shared_data / "cail2018"))
    assert res.exit_code == 0, res.output
    out = res.output.replace("\n", "")
    assert "CAIL2018 format" in out and "(202 charges, 183 articles)" in out
    for name, n in (("brightmart/data_test_sample.json", "1,000"), ("brightmart/data_valid_sample.json", "1,000"),
                    ("sihuajian/data_test.json", "1,397"), ("sihuajian/data_train.utf8.json", "3,675")):
        assert f"cail2018/{name}: {n} records" in out


def test_info_shared_pdp_meta_is_refused(shared_data):
    stats = shared_data / "pdp_meta" / "police_accusation_distribution_test.json"
    # the folder's file name carries 'test', so it is read as a PDP split, and refused for what it holds
    for arg in (stats.parent, stats):
        res = invoke("data", "info", str(arg))
        assert res.exit_code != 0
        assert str(res.exception).startswith(f"{stats}: found a JSON object that is not a record list (statistics "
                                             "or metadata?) with keys meta, summary, ")


def _raw_docs() -> str:
    from importlib import resources

    return str(resources.files("jiancha") / "data" / "raw_docs")


def test_info_describes_the_folder_build_run_exports(tmp_path):
    # the worked run of docs/dataset-building.md: `jiancha build run raw_docs --out built`, then
    # `jiancha data info built/dataset` (test.jsonl beside manifest.json, test.parquet and hf/)
    res = invoke("build", "run", _raw_docs(), "--out", str(tmp_path / "built"))
    assert res.exit_code == 0, res.output
    export = tmp_path / "built" / "dataset"
    manifest = json.loads((export / "manifest.json").read_text(encoding="utf-8"))
    res = invoke("data", "info", str(export))
    assert res.exit_code == 0, res.output
    out = res.output
    assert f"`jiancha build export` folder ({manifest['format']}): splits test;" in out
    assert table_row(out, "test")[1] == str(manifest["splits"]["test"])
    assert "│ manifest" not in out                       # not taken for a split of records
    assert f"records_fingerprint {manifest['settings']['records_fingerprint']}" in out


def test_info_export_folder_with_a_balanced_split(tmp_path):
    from jiancha.corpus.export import write_export
    from jiancha.datasets.pdp import load_pdp

    records = load_pdp(write_jsonl(tmp_path / "p.jsonl", [pdp_row(i, LABELS[i % 4]) for i in range(12)]))
    write_export(records, tmp_path / "ds", balanced_per_class=2)
    res = invoke("data", "info", str(tmp_path / "ds"))
    assert res.exit_code == 0, res.output
    assert table_row(res.output, "test")[:6] == ["test", "12", "3", "3", "3", "3"]
    assert table_row(res.output, "balanced_2")[:6] == ["balanced_2", "8", "2", "2", "2", "2"]
    assert "splits test, balanced_2; records_fingerprint" in res.output
    assert "validation: no problems" in res.output


def test_info_export_folder_whose_files_disagree_with_the_manifest(tmp_path):
    from jiancha.corpus.export import write_export
    from jiancha.datasets.pdp import load_pdp

    records = load_pdp(write_jsonl(tmp_path / "p.jsonl", [pdp_row(i, LABELS[i % 4]) for i in range(8)]))
    write_export(records, tmp_path / "ds", balanced_per_class=1)
    lines = (tmp_path / "ds" / "test.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (tmp_path / "ds" / "test.jsonl").write_text("".join(lines[:-1]), encoding="utf-8")
    res = invoke("data", "info", str(tmp_path / "ds"))
    assert res.exit_code == 0, res.output
    assert "the manifest lists 8 records for split 'test', the folder holds 7" in res.output.replace("\n", "")
    (tmp_path / "ds" / "balanced_1.jsonl").unlink()
    res = invoke("data", "info", str(tmp_path / "ds"))
    assert res.exit_code != 0
    assert "lists the split 'balanced_1' but balanced_1.jsonl is missing" in str(res.exception)
