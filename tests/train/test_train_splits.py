"""Class-ratio splits: exact counts, determinism, reference mode, shortage errors, leakage check."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from pdp_fixtures import make_pool, make_record, write_pool
from typer.testing import CliRunner

from jiancha.errors import ConfigError, DataError
from jiancha.law.labels import LEVEL2_LABELS, Decision
from jiancha.train.splits import (
    SplitSpec,
    build_splits,
    canonical_split_name,
    check_leakage,
    create_splits,
    fact_hash,
    split_counts,
    split_names,
)

P, DNP, SNP, IENP = (d.value for d in Decision)

# The paper's Table 15 plus the reference's natural and P splits (docs/pdp-protocol.md §1), (P, DNP, SNP, IENP).
PAPER_COUNTS = {
    "natural": (1731, 207, 18, 44), "balanced": (500, 500, 500, 500),
    "P-40": (800, 400, 400, 400), "P-55": (1100, 300, 300, 300),
    "DNP-40": (400, 800, 400, 400), "DNP-55": (300, 1100, 300, 300),
    "SNP-40": (400, 400, 800, 400), "SNP-55": (300, 300, 1100, 300),
    "IENP-40": (400, 400, 400, 800), "IENP-55": (300, 300, 300, 1100),
}


def test_split_names_cover_every_class_and_share():
    assert set(split_names()) == set(PAPER_COUNTS)
    assert canonical_split_name("ienp_55") == "IENP-55"
    with pytest.raises(ConfigError, match="expected one of natural, balanced"):
        canonical_split_name("IENP-70")


@pytest.mark.parametrize("name", sorted(PAPER_COUNTS))
def test_default_size_reproduces_the_paper_counts(name):
    assert tuple(split_counts(name).values()) == PAPER_COUNTS[name]


def test_counts_at_other_sizes_use_largest_remainder():
    # natural at 100: exact 86.57 / 10.37 / 0.89 / 2.18 -> floors 86+10+0+2 = 98, the two largest remainders
    # (SNP .89, P .57) get the missing rows
    assert tuple(split_counts("natural", 100).values()) == (87, 10, 1, 2)
    assert tuple(split_counts("IENP-55", 8).values()) == (1, 1, 1, 5)    # 4.4 -> 5, 1.2 -> 1
    assert tuple(split_counts("balanced", 10).values()) == (3, 3, 2, 2)  # 2.5 each, ties to table order
    assert sum(split_counts("SNP-40", 999).values()) == 999


def _pool():
    return make_pool({Decision.PROSECUTE: 14, Decision.DISCRETIONARY: 12, Decision.STATUTORY: 12,
                      Decision.INSUFFICIENT_EVIDENCE: 12})


def test_corpus_splits_exact_counts_and_determinism():
    spec = SplitSpec(size=8)
    a = build_splits(_pool(), spec)
    b = build_splits(_pool(), spec)
    assert [s.ids for s in a.values()] == [s.ids for s in b.values()]
    for name, s in a.items():
        got = tuple(sum(r.decision == lab for r in s.records) for lab in LEVEL2_LABELS)
        assert got == tuple(split_counts(name, 8).values())
        assert len(set(s.ids)) == 8          # no duplicates without replacement
    c = build_splits(_pool(), dataclasses.replace(spec, seed=7))
    assert [s.ids for s in c.values()] != [s.ids for s in a.values()]


def test_default_mode_shuffles_but_keeps_per_class_prefixes():
    splits = build_splits(_pool(), SplitSpec(size=8))
    bal, p55 = splits["balanced"], splits["P-55"]
    p_bal = {r.id for r in bal.records if r.decision == P}
    p_p55 = {r.id for r in p55.records if r.decision == P}
    assert p_bal < p_p55                      # nested: the same per-class order, a longer prefix
    # shuffled: not in class blocks
    labels = [r.decision for r in bal.records]
    assert labels != sorted(labels, key=LEVEL2_LABELS.index)


def test_reference_mode_is_prefixes_of_one_seed_42_shuffle_per_class_not_shuffled():
    pool = _pool()
    splits = build_splits(pool, SplitSpec(size=8, compat="reference"))
    rng = random.Random(42)
    pools = {}
    for lab in LEVEL2_LABELS:                 # the documented reference algorithm
        rows = [r for r in pool if r.decision == lab]
        rng.shuffle(rows)
        pools[lab] = rows
    for name, s in splits.items():
        expected = [r.id for lab, n in split_counts(name, 8).items() for r in pools[lab][:n]]
        assert s.ids == expected


def test_shortage_is_a_clear_error_and_replacement_is_opt_in():
    pool = make_pool({Decision.PROSECUTE: 10, Decision.DISCRETIONARY: 10, Decision.STATUTORY: 3,
                      Decision.INSUFFICIENT_EVIDENCE: 10})
    with pytest.raises(DataError) as exc:
        build_splits(pool, SplitSpec(names=("balanced",), size=20))
    msg = str(exc.value)
    assert "needs 5 SNP" in msg and "only 3" in msg and "--with-replacement" in msg
    s = build_splits(pool, SplitSpec(names=("balanced",), size=20, with_replacement=True))["balanced"]
    assert sum(r.decision == SNP for r in s.records) == 5
    assert s.resampled == 2
    assert len({r.id for r in s.records if r.decision == SNP}) == 3
    with pytest.raises(ConfigError):
        SplitSpec(compat="reference", with_replacement=True)


def test_unlabelled_pool_rows_are_rejected():
    bad = [dataclasses.replace(make_record(Decision.PROSECUTE, 0), decision="不起诉")]
    with pytest.raises(DataError, match="decision"):
        build_splits(bad + _pool(), SplitSpec(size=8))


def test_leakage_by_id_and_by_normalised_fact():
    pool = _pool()
    same_id = dataclasses.replace(pool[0], id=pool[0].id.replace("〔", "[").replace("〕", "]"), fact="别的事实")
    # same fact up to whitespace, punctuation and full-width forms
    near_dup = dataclasses.replace(pool[20], id="别的案号", fact=" " + pool[20].fact.replace("，", ",") + "  ")
    unrelated = make_record(Decision.STATUTORY, 999, fact="完全不同的案件事实。")
    report = check_leakage(pool, [same_id, near_dup, unrelated])
    assert report.id_overlap == (pool[0].id,)
    assert report.fact_overlap == (pool[20].id,)
    assert not report.clean
    assert fact_hash(near_dup.fact) == fact_hash(pool[20].fact)
    assert check_leakage(pool, [unrelated]).clean

    with pytest.raises(DataError, match="--on-leak drop"):
        create_splits(pool, SplitSpec(size=8), evaluation=[same_id, near_dup])
    splits, manifest = create_splits(pool, SplitSpec(size=8), evaluation=[same_id, near_dup], on_leak="drop")
    assert manifest["dropped_for_leakage"] == sorted([pool[0].id, pool[20].id])
    used = {i for s in splits.values() for i in s.ids}
    assert not used & {pool[0].id, pool[20].id}
    assert manifest["leakage"]["id_overlap"] == [pool[0].id]


def test_cli_writes_splits_and_manifest(tmp_path):
    from jiancha.cli.main import app

    pool = write_pool(tmp_path / "pool.jsonl", _pool())
    evaluation = write_pool(tmp_path / "test.jsonl", [make_record(Decision.STATUTORY, 999, fact="无关事实。")])
    out = tmp_path / "splits"
    res = CliRunner().invoke(app, ["train", "splits", "--pool", str(pool), "--out", str(out), "--size", "8",
                                   "--names", "balanced,dnp_40,natural", "--natural", "pool",
                                   "--eval-set", str(evaluation)])
    assert res.exit_code == 0, res.output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert list(manifest["splits"]) == ["balanced", "DNP-40", "natural"]
    # the pool's own distribution (14, 12, 12, 12) at 8 rows: 2.24 / 1.92 ×3 -> 2 each
    assert manifest["splits"]["natural"]["counts"] == {lab: 2 for lab in LEVEL2_LABELS}
    assert manifest["spec"]["natural"] == [14.0, 12.0, 12.0, 12.0]
    assert manifest["leakage"]["clean"] is True
    for name in ("balanced", "DNP-40"):
        rows = [json.loads(line) for line in (out / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
        assert [r["id"] for r in rows] == manifest["splits"][name]["ids"]
        assert manifest["splits"][name]["counts"] == split_counts(name, 8)


def test_split_folder_records_pool_and_environment_and_refuses_other_settings(tmp_path):
    from jiancha._util.hashing import records_fingerprint
    from jiancha.errors import ResumeMismatchError
    from jiancha.train.splits import write_splits

    pool = _pool()
    out = tmp_path / "splits"
    splits, manifest = create_splits(pool, SplitSpec(names=("balanced",), size=8, seed=3))
    write_splits(splits, out, manifest)
    stored = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert stored["pool_fingerprint"] == records_fingerprint(r.to_dict() for r in pool)
    assert {"jiancha", "datasets"} <= set(stored["environment"]["packages"])
    assert "git_revision" in stored["environment"]
    first = (out / "balanced.jsonl").read_bytes()

    def again(rows, seed, **kw):
        made, man = create_splits(rows, SplitSpec(names=("balanced",), size=8, seed=seed))
        return write_splits(made, out, man, **kw)

    again(pool, 3)                                                              # same settings: allowed
    assert (out / "balanced.jsonl").read_bytes() == first
    with pytest.raises(ResumeMismatchError, match=r"spec\.seed: 3 \(stored\) → 4 \(now\)"):
        again(pool, 4)
    with pytest.raises(ResumeMismatchError, match=r"pool_fingerprint: '[0-9a-f]+' \(stored\) → '[0-9a-f]+' \(now\)"):
        again(pool[1:], 3)
    assert (out / "balanced.jsonl").read_bytes() == first                       # nothing was written over
    again(pool, 4, replace=True)
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["spec"]["seed"] == 4
