"""LeCaRD v1 / LeCaRDv2 loaders on tiny fixtures in the official layouts, and on ../shared when present."""

from __future__ import annotations

import json

import pytest
from lecard_fixtures import write_v1, write_v2

from jiancha.datasets.lecard import (
    LECARD_V2_TEST_IDS,
    load_lecard_qrels,
    load_lecard_v1,
    load_lecard_v2,
)
from jiancha.errors import DataError


def test_v1_archive_is_unpacked_once_into_the_cache(tmp_path, monkeypatch):
    root = write_v1(tmp_path / "v1")
    monkeypatch.setenv("JIANCHA_CACHE", str(tmp_path / "cache"))
    ds = load_lecard_v1(root)
    marker = next((tmp_path / "cache" / "lecard_v1").glob("*/.complete"))
    mtime = marker.stat().st_mtime_ns
    assert [q.id for q in ds.queries] == ["1", "2", "3"]
    assert ds.queries[0].charges == ("盗窃罪",) and ds.queries[2].charges == ()
    assert ds.pools["1"] == ("11", "12", "13") and ds.pools["3"] == ("31", "14")
    assert list(ds.qrels["1"]) == ["12", "11", "13"]                # file order kept
    assert set(ds.documents) == {"11", "12", "13", "14", "21", "22", "23", "31"}
    doc = ds.documents["11"]
    assert doc.fact.startswith("被告人") and "盗窃罪" in doc.result and doc.title.startswith("某某")
    load_lecard_v1(root)
    assert marker.stat().st_mtime_ns == mtime


def test_v1_directory_layout_and_all_pool(tmp_path):
    root = write_v1(tmp_path / "v1", archive=False)
    ds = load_lecard_v1(root, pool="all")
    assert ds.pools["1"] == ("11", "12", "13", "14")
    with pytest.raises(DataError, match="pool"):
        load_lecard_v1(root, pool="some")


def test_v1_errors_name_the_file(tmp_path):
    root = write_v1(tmp_path / "v1", archive=False)
    qfile = root / "data" / "query" / "query.json"
    qfile.write_text(qfile.read_text(encoding="utf-8") + '{"ridx": 9}\n', encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load_lecard_v1(root)
    assert "query.json, line 4, field 'q'" in str(exc.value)
    with pytest.raises(DataError, match="query.json"):
        load_lecard_v1(tmp_path / "nowhere")


def test_v1_judged_ids_must_be_candidates(tmp_path):
    root = write_v1(tmp_path / "v1", archive=False)
    jp = root / "data" / "label" / "judged_pool.json"
    jp.write_text(json.dumps({"1": ["11", "99"], "2": ["21"], "3": ["31"]}))
    with pytest.raises(DataError, match="99"):
        load_lecard_v1(root)


def test_v2_queries_qrels_pools_candidates(tmp_path):
    root = write_v2(tmp_path / "v2")
    ds = load_lecard_v2(root)
    assert [q.id for q in ds.queries] == ["5", "7", "10"]
    assert ds.qrels["5"] == {"100": 3, "101": 2, "102": 1, "106": 0}
    assert len(ds.pools["5"]) == 12 and len(ds.documents) == 12
    assert ds.documents["100"].charges == ("盗窃罪",) and ds.documents["100"].articles == (264,)
    test = load_lecard_v2(root, setting="test")
    assert [q.id for q in test.queries] == ["5", "10"] and set(test.qrels) == {"5", "10"}
    assert set(load_lecard_qrels("lecard-v2", root, setting="test")) == {"5", "10"}
    no_docs = load_lecard_v2(write_v2(tmp_path / "v2b", with_candidates=False))
    assert no_docs.documents == {} and no_docs.qrels == ds.qrels


def test_v2_bad_candidate_field(tmp_path):
    root = write_v2(tmp_path / "v2")
    (root / "candidate" / "100.json").write_text(json.dumps({"fact": 3}))
    with pytest.raises(DataError) as exc:
        load_lecard_v2(root)
    assert "100.json" in str(exc.value) and "field 'fact'" in str(exc.value)


def test_v2_test_ids():
    assert LECARD_V2_TEST_IDS[:3] == ("5", "10", "15") and len(LECARD_V2_TEST_IDS) == 160


def test_shared_v2_labels_and_pools():
    from sharedpaths import shared_path

    root = shared_path("data", "lecard_v2")
    qrels = load_lecard_qrels("lecard-v2", root)
    assert len(qrels) == 800
    assert sum(1 for g in qrels.values() if any(v >= 2 for v in g.values())) == 798
    assert len(load_lecard_qrels("lecard-v2", root, setting="test")) == 160
    ds = load_lecard_v2(root)
    assert len(ds.pools) == 800 and len(ds.pools["701"]) == 30 and ds.documents == {}


@pytest.mark.slow
def test_shared_v1_counts(tmp_path, monkeypatch):
    from sharedpaths import shared_path

    root = shared_path("data", "lecard_v1")
    monkeypatch.setenv("JIANCHA_CACHE", str(tmp_path))
    ds = load_lecard_v1(root)
    assert len(ds.queries) == 107 and len(ds.qrels) == 77 and len(ds.documents) == 9088
    assert all(len(p) >= 30 for p in ds.pools.values())
