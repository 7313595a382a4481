"""PDP as an lm-evaluation-harness task folder (``jiancha export lm-eval-task DIR``).

The folder holds ``pdp_bench.yaml`` (the task), ``utils.py`` (four lines binding the hooks below) and
``jiancha_task.json`` (data source, split, prompt, scoring mode). Run it with a chat model, e.g.
``lm_eval --model local-chat-completions --model_args model=M,base_url=URL/chat/completions --apply_chat_template
--tasks pdp_bench --include_path DIR``.

Each document carries jiancha's own messages for the case (``system`` and ``user``, built by
``jiancha.pdp.prompts.build_messages``): the YAML names them as the task's ``description`` (lm-eval's system
message under ``--apply_chat_template``) and ``doc_to_text``, so the model sees exactly what ``jiancha pdp eval``
sends. Only two-message prompts fit (baseline, definitions, custom); one-shot and precedent prompts are several
turns per case: run them with ``jiancha pdp eval`` or the inspect task. ``process_results`` hands each answer to the
aggregations, which score all answers together with ``jiancha.pdp.scoring.score_items`` (jiancha's parser and
metrics), so lm-eval's macro-F1 is ``jiancha pdp score``'s. lm-eval gives no finish reason: truncation is unseen.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from jiancha.errors import ConfigError

TASK_NAME = "pdp_bench"
CONFIG_FILE = "jiancha_task.json"
UTILS_FILE = "utils.py"
#: lm-eval metric name → key of ``jiancha pdp score``'s pooled block.
METRICS: dict[str, str] = {
    "level2_macro_f1": "decision_level2_macro_f1",
    "level1_macro_f1": "decision_level1_macro_f1",
    "level2_accuracy": "decision_level2_accuracy",
    "articles_f1": "articles_f1",
    "invalid_rate": "invalid_rate",
}
LOWER_IS_BETTER = ("invalid_rate",)
#: Prompt variants that are one system and one user message (the shape lm-eval builds from a document).
TWO_MESSAGE_VARIANTS = ("baseline", "definitions", "custom")


@dataclass(frozen=True)
class LmEvalTaskConfig:
    """What the exported task evaluates (written to ``jiancha_task.json``)."""

    data: str = "sample"
    split: str = "test"
    prompt: str = "baseline"
    template: str | None = None
    compat: str = "default"
    limit: int | None = None
    max_gen_toks: int = 4096

    def __post_init__(self) -> None:
        from jiancha.pdp.parsing import check_compat
        from jiancha.pdp.prompts import normalise_variant

        check_compat(self.compat)
        v = normalise_variant(self.prompt)
        if v not in TWO_MESSAGE_VARIANTS:
            raise ConfigError(f"prompt {v!r} shows worked examples as extra turns, which an lm-eval document cannot "
                              f"carry; export one of {', '.join(TWO_MESSAGE_VARIANTS)}, or run {v!r} with "
                              "'jiancha pdp eval' or 'inspect eval jiancha/pdp_bench'")
        if self.limit is not None and self.limit < 1:
            raise ConfigError(f"--limit must be at least 1, got {self.limit}")
        if self.max_gen_toks < 1:
            raise ConfigError(f"--max-gen-toks must be at least 1, got {self.max_gen_toks}")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if d["template"] is not None:
            d["template"] = str(Path(d["template"]).resolve())
        return d


def read_config(path: str | os.PathLike) -> LmEvalTaskConfig:
    from jiancha._util.io import read_json

    return LmEvalTaskConfig(**read_json(path))


# ---------------------------------------------------------------------------------------------------- documents

def build_docs(config: LmEvalTaskConfig) -> list[dict[str, Any]]:
    """One document per case: jiancha's messages (``system``, ``user``) and the gold fields the scorer reads."""
    from jiancha.datasets.pdp import load_pdp
    from jiancha.evaluation.runner import unique_ids
    from jiancha.law.charges import find_charges
    from jiancha.pdp.prompts import build_messages

    records = load_pdp(config.data, config.split)
    pairs = list(zip(unique_ids([r.id for r in records]), records))
    if config.limit:
        pairs = pairs[:config.limit]
    docs = []
    for cid, r in pairs:
        msgs = build_messages(r, config.prompt, template_path=config.template)
        system = "".join(m["content"] for m in msgs if m["role"] == "system")
        user = msgs[-1]["content"]
        docs.append({"case_id": cid, "system": system, "user": user, "decision": r.decision,
                     "relevant_articles": list(r.relevant_articles), "date": r.date or "",
                     "province": r.province or "", "charges": list(find_charges(r.fact))})
    return docs


def load_dataset_dict(config_path: str | os.PathLike):
    """The ``custom_dataset`` hook: a ``datasets.DatasetDict`` with one split, ``test``."""
    import datasets

    return datasets.DatasetDict({"test": datasets.Dataset.from_list(build_docs(read_config(config_path)))})


# ---------------------------------------------------------------------------------------------------- scoring

def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, tuple]:
    """The ``process_results`` hook: the same answer record under every metric name (aggregated together)."""
    item = (doc["case_id"], results[0], doc["decision"], tuple(doc["relevant_articles"]), doc["date"] or None,
            doc["province"] or None, tuple(doc["charges"]))
    return {name: item for name in METRICS}


def pooled_block(items: list[tuple], compat: str) -> dict[str, Any]:
    """``jiancha pdp score``'s pooled block of the answers (no bootstrap)."""
    from jiancha.pdp.rundir import ScoreItem
    from jiancha.pdp.scoring import score_items

    score_items_in = [ScoreItem(case_id=cid, run_id="0", raw_output=raw, gold_decision=gold,
                                gold_articles=tuple(arts), date=date, province=prov, charges=tuple(charges))
                      for cid, raw, gold, arts, date, prov, charges in items]
    return score_items(score_items_in, compat=compat, n_boot=0).result["pooled"]


def aggregation(metric: str, config_path: str | os.PathLike) -> Callable[[list[tuple]], float]:
    """The aggregation hook of one metric (a name of ``METRICS``)."""
    key = METRICS[metric]

    def aggregate(items: list[tuple]) -> float:
        return float(pooled_block(items, read_config(config_path).compat)[key])

    aggregate.__name__ = f"agg_{metric}"
    return aggregate


# ---------------------------------------------------------------------------------------------------- export

def render_yaml(config: LmEvalTaskConfig) -> str:
    """The task YAML (lm-eval's ``!function`` tags refer to ``utils.py`` next to it)."""
    metrics = "\n".join(f"  - metric: {m}\n    aggregation: !function utils.agg_{m}\n"
                        f"    higher_is_better: {'false' if m in LOWER_IS_BETTER else 'true'}" for m in METRICS)
    return (f"# Written by 'jiancha export lm-eval-task': jiancha's PDP prompts, parser and metrics.\n"
            f"task: {TASK_NAME}\n"
            "custom_dataset: !function utils.load_docs\n"
            "test_split: test\n"
            "output_type: generate_until\n"
            "description: system\n"
            "doc_to_text: user\n"
            "doc_to_target: decision\n"
            "target_delimiter: \"\"\n"
            "fewshot_delimiter: \"\"\n"
            "generation_kwargs:\n"
            "  until: []\n"
            f"  max_gen_toks: {config.max_gen_toks}\n"
            "process_results: !function utils.process_results\n"
            f"metric_list:\n{metrics}\n"
            "metadata:\n"
            "  version: 1.0\n")


def render_utils() -> str:
    names = "\n".join(f"agg_{m} = _jc.aggregation({m!r}, _CONFIG)" for m in METRICS)
    return ('"""lm-evaluation-harness hooks of the jiancha PDP task (written by \'jiancha export lm-eval-task\')."""\n\n'
            "from pathlib import Path\n\n"
            "from jiancha.integrations import lm_eval_task as _jc\n\n"
            f"_CONFIG = Path(__file__).with_name({CONFIG_FILE!r})\n"
            "process_results = _jc.process_results\n\n\n"
            "def load_docs(**_kwargs):\n"
            "    return _jc.load_dataset_dict(_CONFIG)\n\n\n"
            f"{names}\n")


def write_task_folder(out_dir: str | os.PathLike, config: LmEvalTaskConfig) -> list[Path]:
    """Write the task folder; the data is read (and checked) now, so a bad source fails here, not in lm-eval."""
    from jiancha._util.io import atomic_write_text, write_json

    build_docs(config)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{TASK_NAME}.yaml", out / UTILS_FILE, out / CONFIG_FILE]
    atomic_write_text(paths[0], render_yaml(config))
    atomic_write_text(paths[1], render_utils())
    write_json(paths[2], config.to_dict())
    return paths


def results_metrics(results: dict[str, Any]) -> dict[str, float]:
    """``{metric: value}`` of the pdp_bench entry of an lm-eval results JSON (keys ``<metric>,<filter>``)."""
    entry = results.get("results", {}).get(TASK_NAME, {})
    return {k.split(",", 1)[0]: float(v) for k, v in entry.items()
            if k.split(",", 1)[0] in METRICS and isinstance(v, int | float)}


def read_results(path: str | os.PathLike) -> dict[str, float]:
    return results_metrics(json.loads(Path(path).read_text(encoding="utf-8")))
