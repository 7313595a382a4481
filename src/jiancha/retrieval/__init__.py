"""Legal case retrieval on LeCaRD v1 / LeCaRDv2, and case search over any collection of judgments.

Modules: ``tokenise`` (rjieba + stopwords + charge protection, cached ids), ``bm25`` (bm25s), ``qld`` (Dirichlet
query likelihood), ``dense`` (bundled offline encoders USE / e5, or sentence-transformers; extras ``dense``,
``dense-st``), ``charge`` (charge-aware re-ranking), ``fuse`` (RRF / weighted fusion), ``ltr`` (learned re-ranking
on legal and text features, cross-validated by query), ``ranking`` (deterministic top-k), ``fields`` (query /
candidate fields), ``trec`` (run I/O), ``metrics`` and ``evaluate`` (trec_eval, LeCaRD v1 official and KELLER
conventions), ``compare`` (paired significance tests, floor and ceiling), ``pipeline`` (``RetrievalSpec``,
``Retriever``, ``run_spec``), ``search`` (persisted case index, free-text search) and ``precedents`` (its API for
the workbench).
"""
