"""Export: JSONL, Parquet, DatasetDict on disk, dataset card counts, balanced subsets."""

from __future__ import annotations

import json

import pytest

from jiancha.corpus.export import compute_counts, write_export
from jiancha.datasets.records import PDPRecord
from jiancha.errors import DataError


def _decided(report):
    """The records with a decision (a flagged record whose decision could not be read is never exported)."""
    return [r for r in report.records if r.decision]


def test_records_without_a_decision_are_left_out_and_counted(report, tmp_path):
    undecided = [r for r in report.records if not r.decision]
    assert [r.extra["flags"] for r in undecided] == [["label_contradictory"]]
    summary = write_export(report.records, tmp_path / "ds")
    assert summary["left_out_undecided"] == 1 and summary["splits"] == {"test": len(report.records) - 1}
    assert "flags" not in (tmp_path / "ds" / "test.jsonl").read_text(encoding="utf-8")


def test_export_round_trip(report, tmp_path):
    import datasets
    import pyarrow.parquet as pq

    records = _decided(report)
    summary = write_export(records, tmp_path / "ds")
    assert summary["splits"] == {"test": len(records)}
    rows = [json.loads(line) for line in (tmp_path / "ds" / "test.jsonl").read_text().splitlines()]
    assert [PDPRecord.from_dict(r) for r in rows] == records
    table = pq.read_table(tmp_path / "ds" / "test.parquet")
    assert table.num_rows == len(records) and table.column("id").to_pylist() == [r.id for r in records]
    dd = datasets.load_from_disk(str(tmp_path / "ds" / "hf"))
    assert list(dd) == ["test"] and dd["test"][0]["meta"] == rows[0]["meta"]
    assert dd["test"]["relevant_articles"][0] == list(records[0].relevant_articles)


def test_export_folder_and_its_hf_folder_load_as_pdp_sources(report, tmp_path):
    from jiancha.datasets.pdp import load_pdp

    records = _decided(report)
    write_export(records, tmp_path / "ds")
    assert load_pdp(str(tmp_path / "ds"), "test") == records
    assert load_pdp(str(tmp_path / "ds" / "hf"), "test") == records


def test_balanced_subset_of_an_export_folder_loads_by_its_file_name(report, tmp_path):
    from jiancha.datasets.pdp import list_pdp_splits, load_pdp

    records = _decided(report)
    per_class = min(sum(r.decision == lab for r in records) for lab in {r.decision for r in records})
    write_export(records, tmp_path / "ds", balanced_per_class=per_class)
    name = f"balanced_{per_class}"
    assert set(list_pdp_splits(str(tmp_path / "ds"))) >= {"test", name}
    subset = load_pdp(str(tmp_path / "ds"), name)
    assert len(subset) == per_class * len({r.decision for r in records})
    assert load_pdp(str(tmp_path / "ds" / "hf"), name) == subset


def test_card_counts(report, tmp_path):
    records = _decided(report)
    counts = compute_counts(records)
    assert counts["label"] == {lab: sum(r.decision == lab for r in records)
                               for lab in ("起诉", "相对不起诉", "法定不起诉", "存疑不起诉")}
    assert counts["year"]["2023"] == 2 and counts["province"]["安徽省"] == 2
    assert counts["charge"]["盗窃罪"] == 2 and counts["charge"]["诈骗罪"] == 2
    write_export(records, tmp_path / "ds")
    card = (tmp_path / "ds" / "README.md").read_text(encoding="utf-8")
    assert f"| 相对不起诉 | {counts['label']['相对不起诉']} |" in card
    assert "| 安徽省 | 2 |" in card and "| 2023 | 2 |" in card and "| 盗窃罪 | 2 |" in card


def test_balanced_subset(report, tmp_path):
    import datasets

    summary = write_export(_decided(report), tmp_path / "ds", balanced_per_class=2)
    assert summary["splits"]["balanced_2"] == 8
    dd = datasets.load_from_disk(str(tmp_path / "ds" / "hf"))
    labels = dd["balanced_2"]["decision"]
    assert sorted(set(labels)) == sorted({"起诉", "相对不起诉", "法定不起诉", "存疑不起诉"})
    assert all(labels.count(lab) == 2 for lab in set(labels))
    with pytest.raises(DataError, match="cannot build the balanced subset: --balanced 25 needs 25 records"):
        write_export(_decided(report), tmp_path / "ds2", balanced_per_class=25)


def _recs(counts: dict[str, int]) -> list[PDPRecord]:
    return [PDPRecord(id=f"{lab}{i}", person_info="犯罪嫌疑人某甲。", procedure="某县公安局移送。", fact="某事实。",
                      decision=lab) for lab, n in counts.items() for i in range(n)]


def test_balanced_subset_too_few_records_says_what_is_needed(tmp_path):
    recs = _recs({"起诉": 6, "相对不起诉": 3, "法定不起诉": 5, "存疑不起诉": 2})
    with pytest.raises(DataError) as info:
        write_export(recs, tmp_path / "ds", balanced_per_class=5)
    assert str(info.value) == (
        "cannot build the balanced subset: --balanced 5 needs 5 records per class (20 in all), but 相对不起诉, "
        "存疑不起诉 have fewer (available: 起诉 6, 相对不起诉 3, 法定不起诉 5, 存疑不起诉 2); pass --balanced 2 or smaller")
    assert "test_rq2" not in str(info.value) and "PDP-Bench test split" not in str(info.value)
    assert not (tmp_path / "ds" / "test.jsonl").exists()  # refused before writing anything
    assert write_export(recs, tmp_path / "ok", balanced_per_class=2)["splits"] == {"test": 16, "balanced_2": 8}


def test_balanced_subset_with_an_empty_class(tmp_path):
    recs = _recs({"起诉": 3, "相对不起诉": 3, "法定不起诉": 0, "存疑不起诉": 1})
    with pytest.raises(DataError, match=r"but 法定不起诉 has fewer \(available: 起诉 3, 相对不起诉 3, 法定不起诉 0, "
                       r"存疑不起诉 1\); leave --balanced out \(no records labelled 法定不起诉\)$"):
        write_export(recs, tmp_path / "ds", balanced_per_class=1)


def test_nothing_to_export(tmp_path):
    with pytest.raises(DataError, match="no records to export"):
        write_export([], tmp_path / "empty")


def test_export_records_its_settings_and_refuses_other_settings(report, tmp_path):
    from jiancha._util.hashing import records_fingerprint
    from jiancha.errors import ResumeMismatchError

    records = _decided(report)
    assert len(records) == 17
    out = tmp_path / "ds"
    write_export(records, out, balanced_per_class=2, seed=7)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["format"] == "jiancha-export/1"
    assert manifest["settings"] == {"records_fingerprint": records_fingerprint(r.to_dict() for r in records),
                                    "n_records": len(records), "balanced_per_class": 2, "seed": 7}
    assert manifest["splits"] == {"test": len(records), "balanced_2": 8}
    assert {"jiancha", "datasets", "pyarrow"} <= set(manifest["environment"]["packages"])
    balanced = (out / "balanced_2.jsonl").read_bytes()
    write_export(records, out, balanced_per_class=2, seed=7)          # same settings: written again, same bytes
    assert (out / "balanced_2.jsonl").read_bytes() == balanced
    with pytest.raises(ResumeMismatchError, match=r"seed: 7 \(stored\) → 8 \(now\)"):
        write_export(records, out, balanced_per_class=2, seed=8)
    with pytest.raises(ResumeMismatchError, match=r"records_fingerprint: .*n_records: 17 \(stored\) → 16 \(now\)"):
        write_export(records[:-1], out, balanced_per_class=2, seed=7)
    assert (out / "balanced_2.jsonl").read_bytes() == balanced           # nothing was written over
    write_export(records, out, balanced_per_class=2, seed=8, replace=True)
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["settings"]["seed"] == 8
