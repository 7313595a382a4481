"""PDP-Bench loader: every source format round-trips, validation errors name file/line/row/field, test_rq2 is
recreated exactly as the reference does, and the hub fails fast offline. All data here is fictional."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jiancha._util.hashing import records_fingerprint, stable_hash
from jiancha.datasets.pdp import (
    HUB_ID,
    check_pdp,
    compute_fingerprint,
    list_pdp_splits,
    load_pdp,
    make_test_rq2,
)
from jiancha.datasets.records import PDPRecord
from jiancha.errors import DataError

CODE_LABEL = {"P": "起诉", "DNP": "相对不起诉", "SNP": "法定不起诉", "IENP": "存疑不起诉"}
ARTICLES = {
    "P": ["cl:第二百六十四条", "cl:第六十七条第三款", "cpl:第一百七十六条"],
    "DNP": ["cl:第一百三十三条之一", "cl:第三十七条", "cpl:第一百七十七条第二款"],
    "SNP": ["cpl:第十六条第（一）项", "cpl:第一百七十七条第一款"],
    "IENP": ["cpl:第一百七十五条第四款", "cpr:第三百六十七条"],
}


def make_row(rid: str, code: str = "P", **over) -> dict:
    row = {
        "id": rid,
        "meta": {"date": "2021-03-15", "province": "某某省"},
        "person_info": f"犯罪嫌疑人甲{rid}，男，1990年出生。",
        "procedure": "本案由某县公安局侦查终结，移送审查起诉。",
        "fact": "经依法审查查明：……。认定上述事实的证据如下：书证、证人证言。",
        "relevant_articles": list(ARTICLES[code]),
        "decision": CODE_LABEL[code],
        "raw_reasoning_and_decision": "本院认为，……",
        "source_url": f"https://example.invalid/{rid}",
    }
    row.update(over)
    return row


def tiny_rows() -> list[dict]:
    rows = [make_row(f"某检刑诉〔2021〕{i}号", code) for i, code in enumerate(["P", "DNP", "SNP", "IENP", "P"], 1)]
    rows[1]["meta"] = {"date": "2016-07-01", "province": "内蒙古自治区"}
    return rows


def write_jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def assert_same(records: list[PDPRecord], rows: list[dict]) -> None:
    assert [r.to_dict() for r in records] == rows


# --------------------------------------------------------------------------------------------- round trips


def test_jsonl_round_trip(tmp_path):
    rows = tiny_rows()
    recs = load_pdp(str(write_jsonl(tmp_path / "pdp.jsonl", rows)))
    assert_same(recs, rows)
    assert recs[1].date == "2016-07-01" and recs[1].province == "内蒙古自治区"
    assert recs[2].relevant_articles == ("cpl:第十六条第（一）项", "cpl:第一百七十七条第一款")


def test_json_list_and_split_object(tmp_path):
    rows = tiny_rows()
    (tmp_path / "list.json").write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    assert_same(load_pdp(str(tmp_path / "list.json")), rows)
    (tmp_path / "splits.json").write_text(json.dumps({"test": rows, "test_rq2": rows[:2]}, ensure_ascii=False),
                                          encoding="utf-8")
    assert_same(load_pdp(str(tmp_path / "splits.json"), "test_rq2"), rows[:2])
    assert list_pdp_splits(str(tmp_path / "splits.json")) == ("test", "test_rq2")


def test_parquet_round_trip(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = tiny_rows()
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "test.parquet")
    assert_same(load_pdp(str(tmp_path / "test.parquet")), rows)


def test_save_to_disk_dataset_dict_and_dataset(tmp_path):
    from datasets import Dataset, DatasetDict

    rows = tiny_rows()
    DatasetDict({"test": Dataset.from_list(rows), "test_rq2": Dataset.from_list(rows[:3])}).save_to_disk(
        str(tmp_path / "dd"))
    assert_same(load_pdp(str(tmp_path / "dd")), rows)
    assert_same(load_pdp(str(tmp_path / "dd"), split="test_rq2"), rows[:3])
    Dataset.from_list(rows).save_to_disk(str(tmp_path / "single"))
    assert_same(load_pdp(str(tmp_path / "single")), rows)


def test_directory_of_split_files_and_hub_layout(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = tiny_rows()
    write_jsonl(tmp_path / "test.jsonl", rows)
    write_jsonl(tmp_path / "test_rq2.jsonl", rows[:2])
    assert_same(load_pdp(str(tmp_path), "test_rq2"), rows[:2])
    hub = tmp_path / "snapshot" / "data"
    hub.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows[:2]), hub / "test-00000-of-00002.parquet")
    pq.write_table(pa.Table.from_pylist(rows[2:]), hub / "test-00001-of-00002.parquet")
    assert_same(load_pdp(str(tmp_path / "snapshot")), rows)


def test_file_named_after_a_split_is_that_split(tmp_path):
    rows = tiny_rows()
    p = write_jsonl(tmp_path / "test_rq2.jsonl", rows)
    assert list_pdp_splits(str(p)) == ("test_rq2",)
    assert_same(load_pdp(str(p), "test_rq2"), rows)


# -------------------------------------------------------------------------------------------------- errors


def _error(tmp_path, rows_or_text, **kw) -> DataError:
    p = tmp_path / "bad.jsonl"
    if isinstance(rows_or_text, str):
        p.write_text(rows_or_text, encoding="utf-8")
    else:
        write_jsonl(p, rows_or_text)
    with pytest.raises(DataError) as ei:
        load_pdp(str(p), **kw)
    return ei.value


def test_bad_json_line_number(tmp_path):
    rows = tiny_rows()
    text = json.dumps(rows[0], ensure_ascii=False) + "\n\n" + '{"id": "x", "meta": \n'
    err = _error(tmp_path, text)
    assert err.line == 3 and str(tmp_path / "bad.jsonl") in str(err) and "invalid JSON" in str(err)


def test_missing_field(tmp_path):
    rows = tiny_rows()
    del rows[2]["fact"]
    err = _error(tmp_path, rows)
    assert (err.line, err.field) == (3, "fact")
    assert "line 3, field 'fact': missing field" in str(err)


def test_wrong_label_names_the_four_labels(tmp_path):
    rows = tiny_rows()
    rows[3]["decision"] = "不起诉"
    err = _error(tmp_path, rows)
    assert (err.line, err.field) == (4, "decision")
    assert "'不起诉'" in str(err) and "exactly one of 起诉, 相对不起诉, 法定不起诉, 存疑不起诉" in str(err)


def test_bad_article_string(tmp_path):
    rows = tiny_rows()
    rows[0]["relevant_articles"] = ["cl:第二百六十四条", "cl:第264条"]
    err = _error(tmp_path, rows)
    assert (err.line, err.field) == (1, "relevant_articles[1]")
    assert "'cl:第264条'" in str(err) and "canonical" in str(err)


def test_bad_articles_type(tmp_path):
    rows = tiny_rows()
    rows[0]["relevant_articles"] = "cl:第二百六十四条"
    err = _error(tmp_path, rows)
    assert err.field == "relevant_articles" and "wrong type str" in str(err)


@pytest.mark.parametrize("date, why", [("2021/03/15", "bad date"), ("2021-02-30", "no such calendar date"),
                                       (20210315, "bad date")])
def test_bad_date(tmp_path, date, why):
    rows = tiny_rows()
    rows[4]["meta"]["date"] = date
    err = _error(tmp_path, rows)
    assert (err.line, err.field) == (5, "meta.date") and why in str(err) and "YYYY-MM-DD" in str(err)


def test_duplicate_id_points_at_first(tmp_path):
    rows = tiny_rows()
    rows[4]["id"] = rows[1]["id"]
    err = _error(tmp_path, rows)
    assert (err.line, err.field) == (5, "id") and "first seen at line 2" in str(err)


def test_row_numbers_in_parquet_and_json(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = tiny_rows()
    rows[1]["decision"] = "起诉书"
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "x.parquet")
    with pytest.raises(DataError) as ei:
        load_pdp(str(tmp_path / "x.parquet"))
    assert str(ei.value).startswith(f"{tmp_path / 'x.parquet'}, row 2, field 'decision'")
    assert ei.value.path == str(tmp_path / "x.parquet") and ei.value.row == 2
    (tmp_path / "x.json").write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(DataError, match=r"x\.json, row 2, field 'decision'"):
        load_pdp(str(tmp_path / "x.json"))


def test_report_mode_collects_every_problem(tmp_path):
    rows = tiny_rows()
    rows[0]["decision"] = "?"
    del rows[1]["meta"]["province"]
    rows[2]["relevant_articles"] = ["刑法第十六条"]
    rows[3]["id"] = rows[0]["id"]
    p = write_jsonl(tmp_path / "bad.jsonl", rows)
    records, issues = check_pdp(str(p))
    assert len(records) == 5
    assert [(i.line, i.field) for i in issues] == [(1, "decision"), (2, "meta.province"),
                                                   (3, "relevant_articles[0]"), (4, "id")]
    with pytest.raises(DataError, match="and 3 more problems"):
        load_pdp(str(p))
    assert len(load_pdp(str(p), validate=False)) == 5  # lenient load keeps everything


def test_source_errors(tmp_path):
    with pytest.raises(DataError, match="no such file or folder"):
        load_pdp(str(tmp_path / "nope.jsonl"))
    (tmp_path / "x.csv").write_text("a,b\n")
    with pytest.raises(DataError, match="unsupported file type '.csv'"):
        load_pdp(str(tmp_path / "x.csv"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="no PDP-Bench data found"):
        load_pdp(str(tmp_path / "empty"))
    p = write_jsonl(tmp_path / "t.jsonl", tiny_rows())
    with pytest.raises(DataError, match="no split 'train'"):
        load_pdp(str(p), "train")


# ------------------------------------------------------------------------------------------------ test_rq2


def interleaved(sizes: dict[str, int]) -> list[PDPRecord]:
    """Records '<code>-<k>' with the classes interleaved in file order (P-00, DNP-00, SNP-00, IENP-00, P-01...),
    so taking 'class records in file order' differs from taking them grouped."""
    out = []
    for k in range(max(sizes.values())):
        for code in CODE_LABEL:
            if k < sizes[code]:
                out.append(PDPRecord.from_dict(make_row(f"{code}-{k:02d}", code)))
    return out


def test_make_test_rq2_exact_ids():
    # Mirrors the reference: rng = random.Random(42); for the classes in the order P, DNP, SNP, IENP,
    # picked += rng.sample([r for r in test if r.decision == cls], n); then rng.shuffle(picked). The expected ids
    # were produced once by that recipe written out on plain id lists (one shared rng, sample then shuffle) and
    # are pinned here; any change of class order, pool order, rng sharing or the final shuffle changes them.
    recs = interleaved({"P": 12, "DNP": 8, "SNP": 6, "IENP": 7})
    got = [r.id for r in make_test_rq2(recs, per_class=3)]
    assert got == ["P-00", "DNP-06", "SNP-00", "SNP-04", "SNP-01", "IENP-03", "DNP-01", "IENP-00", "IENP-04",
                   "DNP-04", "P-01", "P-10"]


def test_make_test_rq2_full_size():
    recs = interleaved({"P": 40, "DNP": 30, "SNP": 26, "IENP": 28})
    got = [r.id for r in make_test_rq2(recs)]
    assert len(got) == 100 and len(set(got)) == 100
    assert {c: sum(i.startswith(c + "-") for i in got) for c in CODE_LABEL} == {c: 25 for c in CODE_LABEL}
    assert got[:10] == ["DNP-07", "IENP-17", "P-14", "DNP-06", "SNP-14", "DNP-26", "P-39", "P-17", "SNP-05",
                        "DNP-09"]
    import hashlib

    assert hashlib.sha256(",".join(got).encode()).hexdigest()[:16] == "77cae89a63a61aae"


def test_make_test_rq2_too_few_records():
    with pytest.raises(DataError, match="class '法定不起诉' has 6 records, 25 needed"):
        make_test_rq2(interleaved({"P": 30, "DNP": 30, "SNP": 6, "IENP": 30}))


def test_test_rq2_recreated_when_absent(tmp_path):
    recs = interleaved({"P": 12, "DNP": 8, "SNP": 6, "IENP": 7})
    p = write_jsonl(tmp_path / "pdp.jsonl", [r.to_dict() for r in recs])
    assert list_pdp_splits(str(p)) == ("test", "test_rq2")
    with pytest.raises(DataError, match="25 needed"):
        load_pdp(str(p), "test_rq2")
    (tmp_path / "big").mkdir()
    recs = interleaved({"P": 40, "DNP": 30, "SNP": 26, "IENP": 28})
    write_jsonl(tmp_path / "big" / "test.jsonl", [r.to_dict() for r in recs])
    assert [r.id for r in load_pdp(str(tmp_path / "big"), "test_rq2")] == [r.id for r in make_test_rq2(recs)]


# ---------------------------------------------------------------------------------------------- fingerprint


def test_fingerprint_of_records(tmp_path):
    rows = tiny_rows()
    recs = load_pdp(str(write_jsonl(tmp_path / "p.jsonl", rows)))
    assert compute_fingerprint(recs) == records_fingerprint(rows)
    assert compute_fingerprint(recs) != compute_fingerprint(recs[::-1])
    changed = [*recs[:-1], PDPRecord.from_dict({**rows[-1], "fact": rows[-1]["fact"] + "。"})]
    assert compute_fingerprint(changed) != compute_fingerprint(recs)
    assert len(compute_fingerprint(recs)) == 16 and stable_hash(rows) != compute_fingerprint(recs)


# ---------------------------------------------------------------------------------------------------- hub


def _no_load_dataset(monkeypatch):
    import datasets

    def load_dataset(*a, **k):
        raise AssertionError("datasets.load_dataset was called although the hub cannot be used")

    monkeypatch.setattr(datasets, "load_dataset", load_dataset)


def test_hub_fails_fast_when_silent(monkeypatch, socket_connections):
    from file_server import SilentServer

    from jiancha.datasets.hub import HUB_PROBE_TIMEOUT

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("HF_DATASETS_OFFLINE", raising=False)
    _no_load_dataset(monkeypatch)
    with SilentServer() as srv:
        monkeypatch.setenv("HF_ENDPOINT", srv.url)
        with pytest.raises(DataError) as ei:
            load_pdp(HUB_ID)
    # one probe, given up at its deadline; no retries, no download attempt
    assert len(socket_connections) == 1
    msg = str(ei.value)
    assert f"no answer from {srv.url} within {HUB_PROBE_TIMEOUT:g} s" in msg
    assert f"cannot load '{HUB_ID}'" in msg and "no answer" in msg
    assert "save_to_disk folder" in msg and "jiancha data download pdp" in msg and "'sample'" in msg


def test_hub_offline_env_is_immediate(monkeypatch, socket_connections):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    _no_load_dataset(monkeypatch)
    with pytest.raises(DataError, match="HF_HUB_OFFLINE is set"):
        load_pdp(HUB_ID, "test_rq2")
    assert socket_connections == []               # not even the probe


def test_registry_id_typo_is_not_a_hub_id():
    from jiancha.errors import ConfigError

    with pytest.raises(ConfigError, match="did you mean 'pdp/test'"):
        load_pdp("pdp/tset")


# ------------------------------------------------------------------------------------------------- sample


def test_bundled_sample_loads():
    recs = load_pdp("sample")  # validated: labels, dates, canonical article strings
    counts = {lab: sum(r.decision == lab for r in recs) for lab in CODE_LABEL.values()}
    assert counts == {"起诉": 24, "相对不起诉": 12, "法定不起诉": 12, "存疑不起诉": 12}  # issue: >= 40, >= 6 per NP class
    assert len({r.id for r in recs}) == 60


def test_json_lines_in_a_json_file(tmp_path):
    rows = tiny_rows()
    p = write_jsonl(tmp_path / "test.json", rows)
    assert_same(load_pdp(str(p)), rows)
    rows[2]["decision"] = "x"
    write_jsonl(p, rows)
    with pytest.raises(DataError, match=r"test\.json, line 3, field 'decision'"):
        load_pdp(str(p))


def test_folder_with_other_file_names_goes_through_datasets(tmp_path, monkeypatch):
    import datasets.config

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-cache")  # keep $HOME clean
    rows = tiny_rows()
    (tmp_path / "snap").mkdir()
    write_jsonl(tmp_path / "snap" / "pdp_bench-test.jsonl", rows)
    assert_same(load_pdp(str(tmp_path / "snap")), rows)


def test_timestamp_dates_from_arrow_become_strings(tmp_path):
    import datetime as dt

    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = tiny_rows()
    typed = [{**r, "meta": {**r["meta"], "date": dt.datetime.fromisoformat(r["meta"]["date"])}} for r in rows]
    pq.write_table(pa.Table.from_pylist(typed), tmp_path / "test.parquet")
    assert_same(load_pdp(str(tmp_path / "test.parquet")), rows)
    typed[0]["meta"]["date"] = dt.datetime(2021, 3, 15, 8, 30)  # a real time of day is not silently dropped
    pq.write_table(pa.Table.from_pylist(typed), tmp_path / "test.parquet")
    with pytest.raises(DataError, match="row 1, field 'meta.date': bad date"):
        load_pdp(str(tmp_path / "test.parquet"))


@pytest.mark.parametrize("s, problem", [
    ("cl:第二百六十四条", None),
    ("cl:第264条", "not in canonical form (canonical: 'cl:第二百六十四条')"),
    ("cpl:第十六条第(一)项", "not in canonical form (canonical: 'cpl:第十六条第（一）项')"),
    ("cl:第一十六条", "not in canonical form (canonical: 'cl:第十六条')"),
    ("盗窃罪", "not a canonical article string"),
    (264, "not a string (int)"),
])
def test_check_article_suggests_the_canonical_form(s, problem):
    from jiancha.datasets.pdp_validation import check_article

    assert check_article(s) == problem


# ------------------------------------------------------------------------------------ folder naming rule (QA)


def test_folder_files_are_matched_to_splits_by_name_only(tmp_path):
    rows = tiny_rows()
    folder = tmp_path / "out"
    folder.mkdir()
    p = write_jsonl(folder / "records.jsonl", rows)
    # a folder's only data file is read as that file: split 'test' (datasets would have called it 'train')
    assert list_pdp_splits(str(folder)) == list_pdp_splits(str(p)) == ("test", "test_rq2")
    assert_same(load_pdp(str(folder)), rows)
    with pytest.raises(DataError, match="no split 'train' in this source; it holds test"):
        load_pdp(str(folder), "train")
    write_jsonl(folder / "more_records.jsonl", rows[:1])  # two files that name no split: refused
    with pytest.raises(DataError) as info:
        load_pdp(str(folder))
    assert str(info.value) == (
        f"{folder}: no PDP-Bench data found in this folder: files are matched to splits by name; expected a "
        "save_to_disk folder (dataset_dict.json), files named test.jsonl|json|parquet, test_rq2.jsonl|json|parquet, "
        "test-00000-of-00001.parquet, test_rq2-00000-of-00001.parquet (also under data/, or with the split as a "
        "word in the name: pdp-test.jsonl), or a single data file (read as split 'test'); found: "
        "more_records.jsonl, records.jsonl; rename the files or pass one file itself")


def test_hub_snapshot_with_declared_configs_still_loads(tmp_path, monkeypatch):
    import datasets.config

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-cache")  # keep $HOME clean
    rows = tiny_rows()
    snap = tmp_path / "snap"
    snap.mkdir()
    write_jsonl(snap / "pdp_test_part.jsonl", rows)
    (snap / "README.md").write_text("---\nconfigs:\n- config_name: default\n  data_files:\n  - split: test\n"
                                    "    path: pdp_test_part.jsonl\n---\n# card\n", encoding="utf-8")
    assert list_pdp_splits(str(snap)) == ("test", "test_rq2")
    assert_same(load_pdp(str(snap)), rows)


def test_json_object_that_is_not_records_is_refused(tmp_path):
    stats = tmp_path / "stats.json"
    stats.write_text(json.dumps({"meta": {"dataset": "x", "total_samples": 10}, "summary": {"n": 3}}),
                     encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_pdp(str(stats))
    assert str(info.value) == (
        f"{stats}: found a JSON object that is not a record list (statistics or metadata?) with keys meta, summary; "
        "expected a list of PDP-Bench records [{id, meta, person_info, procedure, fact, relevant_articles, "
        "decision, ...}, ...], an object {split: [records]}, or one record per line (JSON lines)")
    one = tmp_path / "one.json"
    one.write_text(json.dumps(tiny_rows()[0], ensure_ascii=False), encoding="utf-8")
    with pytest.raises(DataError, match=r"found a single record object with keys id, meta, .*; expected a list"):
        load_pdp(str(one))
    lists = tmp_path / "lists.json"  # values are lists, but not lists of records: not a {split: [records]} object
    lists.write_text(json.dumps({"labels": ["起诉", "存疑不起诉"]}, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(DataError, match="found a JSON object that is not a record list"):
        load_pdp(str(lists))


def test_folder_of_train_named_files_keeps_its_split_names(tmp_path, monkeypatch):
    import datasets.config

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-cache")
    rows = tiny_rows()
    (tmp_path / "splits").mkdir()
    write_jsonl(tmp_path / "splits" / "train.jsonl", rows[:3])
    write_jsonl(tmp_path / "splits" / "validation.jsonl", rows[3:])
    assert list_pdp_splits(str(tmp_path / "splits")) == ("train", "validation")
    assert_same(load_pdp(str(tmp_path / "splits"), "train"), rows[:3])


def test_an_export_folder_loads_the_splits_its_manifest_lists(tmp_path):
    import json

    from jiancha.corpus.export import write_export
    from jiancha.datasets.exports import parse_export_manifest
    from jiancha.datasets.pdp import list_pdp_splits, load_pdp
    from jiancha.datasets.records import PDPRecord
    from jiancha.law.labels import Decision

    records = [PDPRecord(id=f"某检刑不诉〔2020〕{i}号", person_info="某甲。", procedure="移送。", fact="经审查……",
                         decision=d.value, relevant_articles=("cl:第二百六十四条",), date="2020-01-02",
                         province="某省") for i, d in enumerate(list(Decision) * 3)]
    write_export(records, tmp_path / "ds")
    # the manifest is never taken for a split of records
    assert list_pdp_splits(tmp_path / "ds") == ("test", "test_rq2")
    assert [r.id for r in load_pdp(str(tmp_path / "ds"))] == [r.id for r in records]
    write_export(records, tmp_path / "bal", balanced_per_class=2)
    assert list_pdp_splits(tmp_path / "bal") == ("test", "balanced_2", "test_rq2")
    assert len(load_pdp(str(tmp_path / "bal"), "balanced_2")) == 8
    manifest = json.loads((tmp_path / "bal" / "manifest.json").read_text(encoding="utf-8"))
    assert dict(parse_export_manifest(manifest).splits) == {"test": 12, "balanced_2": 8}


@pytest.mark.parametrize("doc", [{"format": "jiancha-export/1"}, {"format": "jiancha-export/2", "splits": []},
                                 {"format": "jiancha-export/1", "splits": {"test": "12"}}])
def test_a_malformed_export_manifest_is_refused(doc):
    from jiancha.datasets.exports import parse_export_manifest

    with pytest.raises(DataError, match="without a 'splits' object"):
        parse_export_manifest(doc)
