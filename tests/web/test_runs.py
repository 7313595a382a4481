"""The runs folder layer: path containment, run discovery, the record index against the scorer, the disk cache."""

from __future__ import annotations

import json

import numpy as np
import pytest

from jiancha.pdp.scoring import score_run_dirs_full
from jiancha.web.runs import (
    NotFoundError,
    RunCache,
    build_record_index,
    discover_runs,
    inside,
    load_index,
    save_index,
)


@pytest.mark.parametrize("name", ["", "..", "../x", "a/../../x", "/etc/passwd", "C:/x", "a\\..\\b", "x\x00"])
def test_inside_refuses_names_that_could_leave_the_folder(tmp_path, name):
    with pytest.raises(NotFoundError):
        inside(tmp_path, name)


def test_inside_follows_symlinks_only_within_the_folder(tmp_path):
    root = tmp_path / "root"
    (root / "a").mkdir(parents=True)
    (tmp_path / "out.txt").write_text("x", encoding="utf-8")
    (root / "a" / "in.txt").write_text("y", encoding="utf-8")
    (root / "link-in").symlink_to(root / "a" / "in.txt")
    (root / "link-out").symlink_to(tmp_path / "out.txt")
    assert inside(root, "link-in") == (root / "a" / "in.txt").resolve()
    assert inside(root, "a/in.txt") == (root / "a" / "in.txt").resolve()
    with pytest.raises(NotFoundError):
        inside(root, "link-out")


def test_discovery_finds_each_kind_and_skips_links_out(runs_dir):
    found = {r.key: r.kind for r in discover_runs(runs_dir)}
    assert found == {"hostile": "pdp", "more/majority": "pdp", "rules": "pdp", "retrieval/bm25": "retrieval",
                     "ljp/cail": "ljp"}


def test_record_index_agrees_with_the_scorer(runs_dir):
    idx = build_record_index(runs_dir / "hostile" / "records.jsonl")
    scored = score_run_dirs_full([runs_dir / "hostile"])
    order = {(c, r): i for i, (c, r) in enumerate(zip(scored.case_ids, scored.run_ids))}
    pos = [order[(c, r)] for c, r in zip(idx.case_ids, idx.run_ids)]
    assert np.array_equal(idx.gold, scored.gold[pos]) and np.array_equal(idx.pred, scored.pred[pos])
    assert int(idx.failed.sum()) == 1 and int(idx.truncated.sum()) == 1
    assert int(idx.outcome_mask("invalid").sum()) == scored.result["pooled"]["decision_parse_fail_count"]
    rec = idx.record(0)
    assert rec["case_id"] == idx.case_ids[0] and "<script>" in rec["raw_output"]


def test_text_search_matches_a_plain_scan(runs_dir):
    path = runs_dir / "rules" / "records.jsonl"
    idx = build_record_index(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    def strings(v):
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict | list):
            for x in v.values() if isinstance(v, dict) else v:
                yield from strings(x)

    for needle in ("交通肇事", "盗窃", "不存在的词语", "【最终结论】\n决定：起诉", "浙江省"):
        want = [any(needle in s for s in strings(json.loads(line))) for line in lines]
        assert any(want) or needle == "不存在的词语"
        assert idx.search(needle).tolist() == want, needle


def test_the_disk_cache_gives_back_the_same_index(runs_dir, tmp_path):
    path = runs_dir / "hostile" / "records.jsonl"
    idx = build_record_index(path)
    save_index(idx, tmp_path / "k")
    back = load_index(tmp_path / "k", path)
    for name in ("offsets", "gold", "pred", "truncated", "failed", "prompt_tokens", "cost", "latency"):
        assert np.array_equal(getattr(back, name), getattr(idx, name), equal_nan=True), name
    assert back.case_ids == idx.case_ids and back.charges == idx.charges and back.by_case == idx.by_case
    assert load_index(tmp_path / "missing", path) is None
    cache = RunCache(disk=tmp_path / "cache")
    run = next(r for r in discover_runs(runs_dir) if r.key == "hostile")
    first = cache.index(run)
    assert len(list((tmp_path / "cache").glob("*.npz"))) == 1
    again = RunCache(disk=tmp_path / "cache").index(run)
    assert again.case_ids == first.case_ids and np.array_equal(again.pred, first.pred)


def test_warming_with_worker_processes_gives_the_same_indexes(runs_dir, tmp_path):
    from jiancha.web.explorer import Explorer

    serial = Explorer(runs_dir)
    serial.warm()
    parallel = Explorer(runs_dir, cache=RunCache(disk=tmp_path / "cache"))
    seen: list[str] = []
    parallel.warm(seen.append, workers=2)
    assert sorted(seen) == ["hostile", "more/majority", "rules"]
    assert len(list((tmp_path / "cache").glob("*.npz"))) == 3
    for run in parallel.runs("pdp"):
        a, b = serial.cache.index(run), parallel.cache.index(run)
        assert a.case_ids == b.case_ids and np.array_equal(a.pred, b.pred) and np.array_equal(a.offsets, b.offsets)
