"""Compare run directories that differ in one setting (reasoning budget, prompt variant, model…), like the
paper's Tables 3 and 5: detect the differing setting from the manifests, score each directory, tabulate and plot."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jiancha.errors import ConfigError
from jiancha.pdp.rundir import settings_of
from jiancha.pdp.scoring import DEFAULT_BOOTSTRAP, DEFAULT_SEED, score_run_dirs_full


@dataclass(frozen=True)
class Comparison:
    """Several run directories that differ in one setting, with their scores, for ``jiancha pdp compare``."""

    setting: str                    # the differing setting(s), e.g. "reasoning.effort"
    values: tuple[str, ...]         # its value per directory, in the given order
    dirs: tuple[str, ...]
    results: tuple[dict, ...]       # score results ({"pooled", "per_run", "mean_se"}) per directory


_DERIVED = ("hash", "fingerprint", "sha256")


def differing_settings(manifests: list[dict | None]) -> list[str]:
    """Flattened setting keys whose values differ between the manifests (sorted), reduced to the settings a
    person chose: hashes and fingerprints that merely follow from another differing setting are dropped, and
    keys present in every manifest are preferred (``prompt.variant`` over a ``prompt.one_shot_classes`` that
    only the one-shot run has)."""
    flats = [settings_of(m) for m in manifests]
    keys = sorted(set().union(*flats)) if flats else []
    diff = [k for k in keys if len({repr(f.get(k, "<absent>")) for f in flats}) > 1]
    chosen = [k for k in diff if not k.rsplit(".", 1)[-1].endswith(_DERIVED)] or diff
    everywhere = [k for k in chosen if all(k in f for f in flats)]
    return everywhere or chosen


def _short(v: Any) -> str:
    s = v if isinstance(v, str) else repr(v)
    return s if len(s) <= 40 else s[:37] + "..."


def compare_run_dirs(run_dirs: list[str | Path], *, compat: str = "default", n_boot: int = DEFAULT_BOOTSTRAP,
                     seed: int = DEFAULT_SEED) -> Comparison:
    if len(run_dirs) < 2:
        raise ConfigError(f"compare needs at least two run directories, got {len(run_dirs)}")
    scored = [score_run_dirs_full([d], compat=compat, n_boot=n_boot, seed=seed) for d in run_dirs]
    manifests = [s.manifests[0] if s.manifests else None for s in scored]
    keys = differing_settings(manifests) if all(manifests) else []
    if keys:
        flats = [settings_of(m) for m in manifests]
        setting = " / ".join(keys)
        values = tuple(", ".join(_short(f.get(k, "<absent>")) for k in keys) for f in flats)
    else:
        setting = "run directory"
        values = tuple(Path(d).name for d in run_dirs)
    return Comparison(setting, values, tuple(str(d) for d in run_dirs), tuple(s.result for s in scored))


def write_comparison(comp: Comparison, out_dir: str | Path) -> list[Path]:
    """compare.md (paper-layout table against the setting), compare.json and compare.png."""
    from jiancha._util.io import atomic_write_text, write_json
    from jiancha.pdp.plots import plot_compare
    from jiancha.pdp.reports import markdown_table, paper_table

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    headers, rows = paper_table(list(zip(comp.values, comp.results)), name_header=comp.setting)
    md = out / "compare.md"
    atomic_write_text(md, f"# PDP metrics by {comp.setting}\n\n{markdown_table(headers, rows)}\n")
    js = out / "compare.json"
    write_json(js, {"setting": comp.setting, "runs": [{"dir": d, "value": v, "mean_se": r["mean_se"]}
                                                       for d, v, r in zip(comp.dirs, comp.values, comp.results)]})
    png = plot_compare(comp.setting, list(comp.values), list(comp.results), out / "compare.png")
    return [md, js, png]
