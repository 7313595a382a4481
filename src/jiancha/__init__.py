"""jiancha (检察): a toolkit for Chinese criminal legal AI.

Prosecution decision prediction (PDP-Bench), legal case retrieval (LeCaRD v1 / LeCaRDv2),
PDP-style dataset construction, and SFT / RLVR training recipes.
"""

__version__ = "0.1.0"
