"""Dense encoders on LeCaRD v1: encoding speed (chunks/s), query latency and quality, for each bundled encoder.

Ranks the judged candidates of the first ``--queries`` labelled queries (ids in numeric order) with each encoder
of ``--encoders`` (chunks as ``jiancha retrieval run --method dense`` makes them) and prints chunks/s, the median
query-encoding latency and the official NDCG@10/@30 on those queries. Embeddings go to the cache
(``$JIANCHA_CACHE``), so a second run only times the queries.

    .venv/bin/python benchmarks/retrieval_dense.py [--queries 6] [--encoders use,e5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=6)
    ap.add_argument("--encoders", default="use,e5")
    ap.add_argument("--data-dir", default=str(Path(__file__).resolve().parents[2] / "shared/data/lecard_v1"))
    a = ap.parse_args()
    if not Path(a.data_dir).exists():
        print(f"skipped: {a.data_dir} is absent (LeCaRD v1 in ../shared)")
        return 0
    from jiancha._util.cache import resolve_cache_dir as cache_dir
    from jiancha.datasets.lecard import load_lecard
    from jiancha.retrieval.dense import (
        DenseConfig,
        EmbeddingCache,
        build_dense_index,
        chunk_text,
        load_encoder,
    )
    from jiancha.retrieval.evaluate import evaluate
    from jiancha.retrieval.fields import doc_text, query_text

    ds = load_lecard("lecard-v1", a.data_dir, pool="judged", cache=cache_dir())
    qids = sorted(ds.qrels, key=lambda q: (len(q), q))[: a.queries]
    queries = [ds.query(q) for q in qids]
    for name in a.encoders.split(","):
        cfg = DenseConfig(model=name)
        t0 = time.perf_counter()
        enc = load_encoder(cfg)
        load_s = time.perf_counter() - t0
        cache = EmbeddingCache(cache_dir(), f"{enc.name}|{cfg.chunk_chars}")
        run, lat = {}, []
        chunks = encoded = 0
        enc_s = 0.0
        for q in queries:
            docs = list(ds.pools[q.id])
            texts = [doc_text(ds.documents[d], "fact") for d in docs]
            idx, st = build_dense_index(texts, list(range(len(docs))), len(docs), cfg, enc, cache)
            chunks += sum(len(chunk_text(t, cfg.chunk_chars, cfg.max_chunks)) for t in texts)
            encoded += st.encoded
            enc_s += st.seconds
            t = time.perf_counter()
            qe = enc.queries([query_text(q, "fact")[: cfg.chunk_chars]])[0]
            lat.append(time.perf_counter() - t)
            s = idx.scores(qe)
            run[q.id] = sorted(((d, float(x)) for d, x in zip(docs, s)), key=lambda x: (-x[1], x[0]))
        m = evaluate("lecard-v1", run, {q: ds.qrels[q] for q in qids}).metrics
        rate = f"{encoded / enc_s:.1f} chunks/s" if encoded else "all cached"
        print(f"{name}: load {load_s:.1f}s, {chunks} chunks ({rate}), query latency median "
              f"{statistics.median(lat) * 1000:.0f} ms, NDCG@10 {m['ndcg@10']:.4f} NDCG@30 {m['ndcg@30']:.4f} "
              f"on {len(qids)} labelled queries ({os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
