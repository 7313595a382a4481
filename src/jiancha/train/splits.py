"""Class-ratio training splits (the paper's RL interventions), their manifest, and the leakage check.

Split names: ``natural``, ``balanced`` and ``<CODE>-40`` / ``<CODE>-55`` for every class code (P, DNP, SNP, IENP).
Counts come from ratios by largest-remainder rounding, so with the default size of 2,000 they are exactly the
paper's (``balanced`` 500 ×4; ``X-40`` 800 + 400 ×3; ``X-55`` 1,100 + 300 ×3; ``natural`` 1,731/207/18/44 from the
PDP-Bench ``test`` class distribution).

Two modes (docs/training.md §1):

- ``compat="default"``: per class, one seeded shuffle of the class's rows (so every split of one run takes a prefix
  of the same per-class order and the splits are nested), then each split is shuffled with its own seeded RNG.
- ``compat="reference"``: exactly the reference builder: one ``random.Random(seed)``; for the classes in the order
  P, DNP, SNP, IENP, ``rng.shuffle`` the class's rows in file order; a split is the concatenation, in class order,
  of the prefixes of those shuffled pools, and is not shuffled afterwards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from jiancha._util.hashing import records_fingerprint
from jiancha._util.io import read_json, write_json
from jiancha._util.jsonl import write_jsonl
from jiancha.datasets.leakage import LeakageReport, check_leakage, fact_hash, normalise_fact  # noqa: F401 (re-exported)
from jiancha.datasets.records import PDPRecord
from jiancha.errors import ConfigError, DataError, ResumeMismatchError
from jiancha.law.labels import LEVEL2_LABELS, Decision

SplitCompat = Literal["default", "reference"]

#: PDP-Bench ``test`` class counts (P, DNP, SNP, IENP); the ``natural`` split follows this distribution.
BENCH_CLASS_COUNTS: tuple[int, int, int, int] = (4008, 480, 41, 101)
#: The reference builder's per-class pool sizes (P, DNP, SNP, IENP), reported for information in reference mode.
REFERENCE_POOL_SIZES: tuple[int, int, int, int] = (1731, 1100, 1100, 1100)
DEFAULT_SIZE = 2000
DEFAULT_SEED = 42
TARGET_SHARES = (40, 55)

CLASS_CODES: tuple[str, ...] = tuple(d.code for d in Decision)


def split_names() -> tuple[str, ...]:
    """Every split name, in a fixed order."""
    names = ["natural", "balanced"]
    for code in CLASS_CODES:
        names += [f"{code}-{share}" for share in TARGET_SHARES]
    return tuple(names)


def canonical_split_name(name: str) -> str:
    """``ienp_55`` → ``IENP-55``; raise ConfigError with the known names otherwise."""
    s = name.strip().replace("_", "-")
    for known in split_names():
        if s.lower() == known.lower():
            return known
    raise ConfigError(f"unknown split {name!r}; expected one of {', '.join(split_names())}")


def split_shares(name: str, natural: Sequence[float] = BENCH_CLASS_COUNTS) -> tuple[float, float, float, float]:
    """Class shares (P, DNP, SNP, IENP) of a split; they sum to 1."""
    name = canonical_split_name(name)
    if name == "natural":
        total = float(sum(natural))
        return tuple(x / total for x in natural)  # type: ignore[return-value]
    if name == "balanced":
        return (0.25, 0.25, 0.25, 0.25)
    code, share = name.split("-")
    target = int(share) / 100
    other = (1 - target) / (len(CLASS_CODES) - 1)
    return tuple(target if c == code else other for c in CLASS_CODES)  # type: ignore[return-value]


def largest_remainder(shares: Sequence[float], total: int) -> tuple[int, ...]:
    """Integer counts summing to ``total``, proportional to ``shares`` (Hamilton's method, ties to the first class).

    >>> largest_remainder([4008, 480, 41, 101], 2000)
    (1731, 207, 18, 44)
    >>> largest_remainder([0.55, 0.15, 0.15, 0.15], 2000)
    (1100, 300, 300, 300)
    """
    s = float(sum(shares))
    exact = [x / s * total for x in shares]
    counts = [int(e) for e in exact]
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - counts[i]), i))
    for i in order[: total - sum(counts)]:
        counts[i] += 1
    return tuple(counts)


def split_counts(name: str, size: int = DEFAULT_SIZE,
                 natural: Sequence[float] = BENCH_CLASS_COUNTS) -> dict[str, int]:
    """``{label: count}`` in table order for one split of ``size`` rows.

    >>> split_counts("DNP-40")
    {'起诉': 400, '相对不起诉': 800, '法定不起诉': 400, '存疑不起诉': 400}
    """
    if size <= 0:
        raise ConfigError(f"split size must be positive, got {size}")
    counts = largest_remainder(split_shares(name, natural), size)
    return dict(zip(LEVEL2_LABELS, counts, strict=True))


def parse_natural(value: str | None, pool: Sequence[PDPRecord] = ()) -> tuple[float, ...]:
    """The ``natural`` distribution from a CLI value: unset → PDP-Bench ``test``; ``pool`` → the pool's own class
    counts; else four comma-separated numbers (P, DNP, SNP, IENP).

    >>> parse_natural("1,1,0,2")
    (1.0, 1.0, 0.0, 2.0)
    """
    if value is None or value == "bench":
        return tuple(float(x) for x in BENCH_CLASS_COUNTS)
    if value == "pool":
        return tuple(float(sum(r.decision == lab for r in pool)) for lab in LEVEL2_LABELS)
    try:
        out = tuple(float(x) for x in value.split(","))
    except ValueError:
        out = ()
    if len(out) != len(LEVEL2_LABELS):
        raise ConfigError(f"natural distribution {value!r} is not 'bench', 'pool' or {len(LEVEL2_LABELS)} "
                          "comma-separated numbers in the order P,DNP,SNP,IENP")
    return out


# --------------------------------------------------------------------------------------------------------------
# building


@dataclass(frozen=True)
class SplitSpec:
    """Everything that defines a set of splits (recorded in the manifest)."""

    names: tuple[str, ...] = field(default_factory=split_names)
    size: int = DEFAULT_SIZE
    seed: int = DEFAULT_SEED
    compat: SplitCompat = "default"
    with_replacement: bool = False
    natural: tuple[float, ...] = BENCH_CLASS_COUNTS

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", tuple(canonical_split_name(n) for n in self.names))
        if self.compat not in ("default", "reference"):
            raise ConfigError(f"unknown split compat {self.compat!r}; expected 'default' or 'reference'")
        if self.compat == "reference" and self.with_replacement:
            raise ConfigError("with_replacement is not part of the reference builder; use compat='default'")
        if len(self.natural) != len(LEVEL2_LABELS) or min(self.natural) < 0 or sum(self.natural) <= 0:
            raise ConfigError(f"natural distribution needs {len(LEVEL2_LABELS)} non-negative numbers, "
                              f"got {self.natural}")
        if self.size <= 0:
            raise ConfigError(f"split size must be positive, got {self.size}")


@dataclass(frozen=True)
class Split:
    name: str
    records: tuple[PDPRecord, ...]
    counts: dict[str, int]
    resampled: int = 0          # rows drawn a second time (with_replacement only)

    @property
    def ids(self) -> list[str]:
        return [r.id for r in self.records]


def _by_class(pool: Sequence[PDPRecord], source: str) -> dict[str, list[PDPRecord]]:
    buckets: dict[str, list[PDPRecord]] = {lab: [] for lab in LEVEL2_LABELS}
    bad: dict[str, int] = {}
    for r in pool:
        if r.decision in buckets:
            buckets[r.decision].append(r)
        else:
            bad[r.decision] = bad.get(r.decision, 0) + 1
    if bad:
        raise DataError(f"records with a decision that is not one of {', '.join(LEVEL2_LABELS)}: {bad}; "
                        "fix or drop them before building splits", path=source, field="decision")
    return buckets


def _shuffled_pools(buckets: dict[str, list[PDPRecord]], spec: SplitSpec) -> dict[str, list[PDPRecord]]:
    pools: dict[str, list[PDPRecord]] = {}
    if spec.compat == "reference":
        rng = random.Random(spec.seed)
        for lab in LEVEL2_LABELS:
            rows = list(buckets[lab])
            rng.shuffle(rows)
            pools[lab] = rows
    else:
        for i, lab in enumerate(LEVEL2_LABELS):
            rows = list(buckets[lab])
            random.Random(f"{spec.seed}:pool:{Decision(lab).code}:{i}").shuffle(rows)
            pools[lab] = rows
    return pools


def _take(pool: list[PDPRecord], n: int, *, label: str, split: str, spec: SplitSpec,
          source: str) -> tuple[list[PDPRecord], int]:
    if n <= len(pool):
        return pool[:n], 0
    if not spec.with_replacement:
        code = Decision(label).code
        raise DataError(f"split {split!r} needs {n} {code} ({label}) rows but the pool has only {len(pool)}; "
                        f"lower the split size (--size), add {n - len(pool)} more {code} rows to the pool, or allow "
                        "sampling with replacement (--with-replacement)", path=source, field="decision")
    if not pool:
        raise DataError(f"split {split!r} needs {n} {Decision(label).code} ({label}) rows but the pool has none; "
                        "sampling with replacement needs at least one", path=source, field="decision")
    rng = random.Random(f"{spec.seed}:resample:{split}:{label}")
    extra = [pool[rng.randrange(len(pool))] for _ in range(n - len(pool))]
    return list(pool) + extra, len(extra)


def build_splits(pool: Sequence[PDPRecord], spec: SplitSpec = SplitSpec(), *,
                 source: str = "<pool>") -> dict[str, Split]:
    """Build every split of ``spec`` from a labelled pool. Deterministic for a given pool order and seed."""
    buckets = _by_class(pool, source)
    pools = _shuffled_pools(buckets, spec)
    out: dict[str, Split] = {}
    for name in spec.names:
        counts = split_counts(name, spec.size, spec.natural)
        rows: list[PDPRecord] = []
        resampled = 0
        for lab in LEVEL2_LABELS:
            chunk, extra = _take(pools[lab], counts[lab], label=lab, split=name, spec=spec, source=source)
            rows += chunk
            resampled += extra
        if spec.compat == "default":
            random.Random(f"{spec.seed}:split:{name}").shuffle(rows)
        out[name] = Split(name, tuple(rows), counts, resampled)
    return out


def split_manifest(splits: dict[str, Split], spec: SplitSpec, *, source: str, pool_size: int,
                   leakage: LeakageReport | None = None, dropped: Sequence[str] = (),
                   pool_fingerprint: str | None = None) -> dict:
    """The manifest written next to the splits: spec, pool fingerprint, counts, ids, fingerprints, leakage
    report (``write_splits`` adds the environment)."""
    return {
        "spec": {"names": list(spec.names), "size": spec.size, "seed": spec.seed, "compat": spec.compat,
                 "with_replacement": spec.with_replacement, "natural": list(spec.natural)},
        "source": source,
        "pool_size": pool_size,
        "pool_fingerprint": pool_fingerprint,
        "dropped_for_leakage": list(dropped),
        "leakage": leakage.to_dict() if leakage is not None else None,
        "splits": {
            name: {
                "total": len(s.records),
                "counts": s.counts,
                "resampled": s.resampled,
                "fingerprint": records_fingerprint(r.to_dict() for r in s.records),
                "ids": s.ids,
            }
            for name, s in splits.items()
        },
    }


#: Manifest entries that define a set of splits: a folder made with other values is not written over.
IDENTITY_KEYS = ("spec", "pool_fingerprint", "dropped_for_leakage")


def check_split_folder(out: Path, manifest: dict) -> None:
    """Refuse to write splits into a folder holding splits made with other settings or from another pool."""
    path = out / "manifest.json"
    if not path.is_file():
        return
    stored = read_json(path) or {}
    diffs = []
    for key in IDENTITY_KEYS:
        old, new = stored.get(key, "<absent>"), manifest.get(key, "<absent>")
        if isinstance(old, dict) and isinstance(new, dict):
            diffs += [f"{key}.{k}: {old.get(k, '<absent>')!r} (stored) → {new.get(k, '<absent>')!r} (now)"
                      for k in sorted(set(old) | set(new)) if old.get(k, "<absent>") != new.get(k, "<absent>")]
        elif old != new:
            diffs.append(f"{key}: {old!r} (stored) → {new!r} (now)")
    if diffs:
        raise ResumeMismatchError(f"{out} holds splits made with other settings or from another pool "
                                  f"({'; '.join(diffs)}); choose another --out, or delete the folder first")


def write_splits(splits: dict[str, Split], out_dir: str | Path, manifest: dict, *, replace: bool = False) -> Path:
    """``<out_dir>/<split>.jsonl`` (PDP-Bench layout) for every split, plus ``manifest.json`` (with the package
    versions and git revision). Splits made with other settings are not written over unless ``replace``."""
    from jiancha._util.provenance import environment_info

    out = Path(out_dir)
    if not replace:
        check_split_folder(out, manifest)
    out.mkdir(parents=True, exist_ok=True)
    for name, s in splits.items():
        write_jsonl(out / f"{name}.jsonl", (r.to_dict() for r in s.records))
    write_json(out / "manifest.json", {**manifest, "environment": environment_info()})
    return out / "manifest.json"


def create_splits(pool: Sequence[PDPRecord], spec: SplitSpec = SplitSpec(), *,
                  evaluation: Sequence[PDPRecord] | None = None, on_leak: Literal["fail", "drop"] = "fail",
                  source: str = "<pool>") -> tuple[dict[str, Split], dict]:
    """Leakage check against ``evaluation`` (fail, or drop the leaking rows first), then ``build_splits``.

    Returns the splits and their manifest.
    """
    if on_leak not in ("fail", "drop"):
        raise ConfigError(f"unknown on_leak {on_leak!r}; expected 'fail' or 'drop'")
    report = None
    dropped: list[str] = []
    rows = list(pool)
    if evaluation is not None:
        report = check_leakage(rows, evaluation)
        if not report.clean:
            leaked = set(report.leaked_ids)
            if on_leak == "fail":
                shown = ", ".join(sorted(leaked)[:10]) + (" ..." if len(leaked) > 10 else "")
                raise DataError(f"{len(leaked)} pool rows also occur in the evaluation set "
                                f"({len(report.id_overlap)} by id, {len(report.fact_overlap)} by normalised fact): "
                                f"{shown}; remove them or pass --on-leak drop", path=source)
            dropped = sorted(leaked)
            rows = [r for r in rows if r.id not in leaked]
    splits = build_splits(rows, spec, source=source)
    manifest = split_manifest(splits, spec, source=source, pool_size=len(pool), leakage=report, dropped=dropped,
                              pool_fingerprint=records_fingerprint(r.to_dict() for r in pool))
    return splits, manifest
