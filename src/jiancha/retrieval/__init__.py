"""Legal case retrieval on LeCaRD v1 / LeCaRDv2.

Modules: ``tokenise`` (rjieba + stopwords + charge protection, cached ids), ``bm25`` (bm25s), ``qld`` (Dirichlet
query likelihood), ``dense`` (sentence-transformers + faiss, extra ``dense``), ``charge`` (charge-aware re-ranking),
``fuse`` (RRF / weighted fusion), ``ranking`` (deterministic top-k), ``fields`` (query / candidate fields),
``trec`` (run and qrels I/O), ``metrics`` and ``evaluate`` (trec_eval and LeCaRD v1 official conventions),
``pipeline`` (``RetrievalSpec``, ``Retriever``, ``run_and_evaluate`` for the CLI and ``jiancha demo``).
"""
