"""Compare run directories that differ in one setting (reasoning budget, prompt variant, model…), like the
paper's Tables 3 and 5: detect the differing setting from the manifests, score each directory, tabulate and plot."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jiancha.errors import ConfigError
from jiancha.pdp.rundir import settings_of
from jiancha.pdp.scoring import DEFAULT_BOOTSTRAP, DEFAULT_SEED, score_run_dirs_full

ABSENT = "<absent>"
#: How a setting that a run does not have is shown (an offline baseline has no backend, a model no train set).
NOT_SET = "not set"


@dataclass(frozen=True)
class Comparison:
    """Several run directories and the settings they differ in, with their scores, for ``jiancha pdp compare``."""

    setting: str                    # the differing setting(s), comma-separated, e.g. "reasoning.effort"
    values: tuple[str, ...]         # their values per directory, in the given order
    dirs: tuple[str, ...]
    results: tuple[dict, ...]       # score results ({"pooled", "per_run", "mean_se"}) per directory
    settings: tuple[str, ...] = ()  # each differing setting (empty when the manifests say nothing)
    #: how the directories were scored: compat mode and bootstrap (resamples, seed)
    scoring: dict[str, Any] = field(default_factory=dict)

    #: every directory has a manifest and no setting differs (repeats of one configuration)
    same_settings: bool = False

    @property
    def note(self) -> str | None:
        """A warning when the runs differ in more than one setting (no single setting explains the metrics), or in
        none (the differences are run-to-run noise)."""
        if self.same_settings:
            return ("these runs were made with the same settings: their differences are run-to-run variation "
                    "(pool them with 'jiancha pdp score DIR...' for mean ± SE)")
        if len(self.settings) < 2:
            return None
        return (f"these runs differ in {len(self.settings)} settings ({', '.join(self.settings)}): a difference "
                "in the metrics cannot be attributed to any one of them")

    def to_dict(self) -> dict[str, Any]:
        return {"setting": self.setting, "settings": list(self.settings), "note": self.note,
                "runs": [{"dir": d, "value": v, "mean_se": r["mean_se"]}
                         for d, v, r in zip(self.dirs, self.values, self.results)]}


_DERIVED = ("hash", "fingerprint", "sha256")
#: Settings that exist only for some value of another (one-shot classes only for the one-shot prompt, a template
#: only for the custom one): when the governing setting differs too, they are part of that one difference.
_SUBORDINATE = {"prompt.one_shot_classes": "prompt.variant", "prompt.template": "prompt.variant"}


def _parent(key: str) -> str:
    return key.rsplit(".", 1)[0] if "." in key else ""


def _has(flat: dict[str, Any], key: str) -> bool:
    return key in flat or any(k.startswith(key + ".") for k in flat)


def differing_settings(manifests: list[dict | None]) -> list[str]:
    """Every setting whose value differs between the manifests (a setting missing from one of them differs),
    sorted. Two reductions keep the list to what a person chose: a hash or fingerprint is dropped when a
    non-derived setting next to it (same parent) differs too (``prompt.messages_hash`` follows from
    ``prompt.variant``), a setting that only exists for some value of another is folded into it
    (``prompt.one_shot_classes`` into ``prompt.variant``), and a group missing from some manifest is named once (``backend`` rather than each
    ``backend.*`` key when one run is an offline baseline without a backend)."""
    flats = [settings_of(m) for m in manifests]
    keys = sorted(set().union(*flats)) if flats else []
    diff = [k for k in keys if len({repr(f.get(k, ABSENT)) for f in flats}) > 1]
    chosen_parents = {_parent(k) for k in diff if not k.rsplit(".", 1)[-1].endswith(_DERIVED)}
    kept = [k for k in diff
            if not (k.rsplit(".", 1)[-1].endswith(_DERIVED) and _parent(k) and _parent(k) in chosen_parents)
            and not any(k == sub or k.startswith(sub + ".") for sub, gov in _SUBORDINATE.items()
                        if gov in diff)]
    out: list[str] = []
    for k in kept:
        parts = k.split(".")
        name = k
        for i in range(1, len(parts)):
            prefix = ".".join(parts[:i])
            if not all(_has(f, prefix) for f in flats):
                name = prefix
                break
        if name not in out:
            out.append(name)
    return out


def setting_value(flat: dict[str, Any], key: str) -> Any:
    """The value of a (possibly grouped) setting in a flattened manifest: the leaf, the sub-dict of a group, or
    ``ABSENT``."""
    if key in flat:
        return flat[key]
    sub = {k[len(key) + 1:]: v for k, v in flat.items() if k.startswith(key + ".")}
    return sub or ABSENT


def _short(v: Any) -> str:
    if v == ABSENT:
        return NOT_SET
    if isinstance(v, dict):
        v = ", ".join(f"{k}={x}" for k, x in v.items() if x is not None)
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
        setting = ", ".join(keys)
        values = tuple(", ".join(_short(setting_value(f, k)) for k in keys) for f in flats)
    else:
        setting = "run directory"
        values = tuple(Path(d).name for d in run_dirs)
    return Comparison(setting, values, tuple(str(d) for d in run_dirs), tuple(s.result for s in scored),
                      tuple(keys), {"compat": compat, "bootstrap": {"n_boot": n_boot, "seed": seed}},
                      same_settings=all(manifests) and not keys)


def write_comparison(comp: Comparison, out_dir: str | Path) -> list[Path]:
    """compare.md (paper-layout table against the setting), compare.json and compare.png."""
    from jiancha._util.io import atomic_write_text, write_json
    from jiancha.pdp.plots import plot_compare
    from jiancha.pdp.reports import markdown_table, paper_table

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    headers, rows = paper_table(list(zip(comp.values, comp.results)), name_header=comp.setting)
    md = out / "compare.md"
    note = f"> Note: {comp.note}.\n\n" if comp.note else ""
    atomic_write_text(md, f"# PDP metrics by {comp.setting}\n\n{note}{markdown_table(headers, rows)}\n")
    from jiancha._util.provenance import environment_info

    js = out / "compare.json"
    write_json(js, {**comp.to_dict(), "meta": {**comp.scoring, "environment": environment_info()}})
    png = plot_compare(comp.setting, list(comp.values), list(comp.results), out / "compare.png")
    return [md, js, png]
