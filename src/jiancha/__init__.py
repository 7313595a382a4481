"""jiancha (检察): a toolkit for Chinese criminal legal AI.

Prosecution decision prediction (PDP-Bench), legal case retrieval (LeCaRD v1 / LeCaRDv2),
PDP-style dataset construction, and SFT / RLVR training recipes.

The public API (``jiancha.api``, imported on first use so that ``import jiancha`` stays light):
``load_pdp``, ``evaluate``, ``score`` (→ ``PDPScores``), ``search`` (→ a list of ``SearchHit``).
"""

from typing import Any

__version__ = "0.1.0"

__all__ = ["MeanSE", "PDPScores", "SearchHit", "__version__", "evaluate", "load_pdp", "score", "search"]
_API = frozenset(__all__) - {"__version__"}


def __getattr__(name: str) -> Any:
    if name in _API:
        from jiancha import api

        return getattr(api, name)
    raise AttributeError(f"module 'jiancha' has no attribute {name!r}")
