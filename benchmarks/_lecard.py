"""What the LeCaRD v1 benchmark scripts share: where ../shared is, and their ``--data-dir`` argument."""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def shared() -> Path:
    """``$JIANCHA_SHARED``, else the ``shared`` folder beside the checkout."""
    return Path(os.environ.get("JIANCHA_SHARED", Path(__file__).resolve().parents[2] / "shared"))


def lecard_v1_parser(doc: str) -> argparse.ArgumentParser:
    """A parser described by the first line of ``doc`` with ``--data-dir`` (default ../shared/data/lecard_v1)."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, default=shared() / "data" / "lecard_v1")
    return ap


def missing(data_dir: Path) -> bool:
    """Whether ``data_dir`` is absent, saying so (a benchmark without its data is skipped, not failed)."""
    if data_dir.exists():
        return False
    print(f"skipped: {data_dir} not found (LeCaRD v1 lives in ../shared/data/lecard_v1)")
    return True


def load_judged(data_dir: Path):
    """LeCaRD v1 with its judged pools, and the cache folder it was read through."""
    from jiancha._util.cache import resolve_cache_dir
    from jiancha.datasets.lecard import load_lecard_v1

    cache = resolve_cache_dir(None)
    return load_lecard_v1(data_dir, pool="judged", cache=cache), cache


def paired(d) -> str:
    """Mean of per-query differences ``d`` with its paired bootstrap interval, randomisation p and the counts of
    queries better and worse."""
    import numpy as np

    from jiancha.retrieval.compare import paired_bootstrap, randomisation_test

    d = np.asarray(d, dtype=np.float64)
    lo, hi = paired_bootstrap(d)
    return (f"{d.mean():+.4f} [{lo:+.4f}, {hi:+.4f}], p {randomisation_test(d):.4f} ({int((d > 0).sum())} better, "
            f"{int((d < 0).sum())} worse)")


def lecard_v1_args(doc: str) -> argparse.Namespace | None:
    """The command line of a script whose only option is ``--data-dir``; None (said) when the data is absent."""
    args = lecard_v1_parser(doc).parse_args()
    return None if missing(args.data_dir) else args
