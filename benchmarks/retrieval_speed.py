"""Retrieval speed: tokenisation and indexing docs/s, BM25 top-1000 queries/s, against rank_bm25.

Builds a corpus of ``--docs`` (default 55,000) legal-length texts (``--doc-chars``, default 4,766 = LeCaRDv2's
mean) by sampling and recombining paragraphs (sentences ending in 。) of the LeCaRD v1 candidates in ../shared,
tokenises it (rjieba, HMM off, dataset stopwords, charge names protected), indexes it with bm25s, and times BM25
top-1000 retrieval for the LeCaRD v1 queries, and the full case search (:mod:`jiancha.retrieval.search`) per query.
rank_bm25 (``BM25Okapi`` with Lucene's idf, so that its scores are
(k1 + 1) × ours) is timed in the same run on the same token ids; it is too slow for every query on 55k documents,
so it runs on the first ``--rank-bm25-queries`` queries and our top-10 is compared with its top-10 on those
(identical up to score ties). Figures are medians over ``--repeats`` timings.

    .venv/bin/python benchmarks/retrieval_speed.py [--docs 55000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import tempfile
import time

import numpy as np
from _lecard import shared


def build_corpus(paragraphs: list[str], n_docs: int, doc_chars: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    docs = []
    for _ in range(n_docs):
        target = max(200, int(rng.gauss(doc_chars, doc_chars * 0.3)))
        parts, size = [], 0
        while size < target:
            p = paragraphs[rng.randrange(len(paragraphs))]
            parts.append(p)
            size += len(p)
        docs.append("".join(parts))
    return docs


def _timed(fn, repeats: int):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def search_latency(docs: list[str], index, vocab, cfg, queries: list[str]) -> None:
    """``jiancha retrieval search`` on this corpus: charges found in every document (timed), then the full search
    (tokenise, BM25, charge prediction and tiers, top 10 with passages and reasons) per query, median latency."""
    from jiancha.law.charges import find_charges
    from jiancha.retrieval.search import CaseDoc, SearchIndex

    t0 = time.perf_counter()
    cases = [CaseDoc(str(i), d, tuple(find_charges(d))) for i, d in enumerate(docs)]
    t_ch = time.perf_counter() - t0
    idx = SearchIndex(cases, index, vocab, cfg)
    lat = []
    for q in queries:
        t = time.perf_counter()
        idx.search(q, 10)
        lat.append(time.perf_counter() - t)
    lat.sort()
    print(f"case search (jiancha retrieval search, k=10, with passages and reasons) on {len(docs)} documents: "
          f"median {statistics.median(lat) * 1000:.0f} ms, p90 {lat[int(0.9 * (len(lat) - 1))] * 1000:.0f} ms over "
          f"{len(queries)} queries; charges of every document found in {t_ch:.1f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=55_000)
    ap.add_argument("--doc-chars", type=int, default=4766)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rank-bm25-queries", type=int, default=10)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()

    root = shared() / "data" / "lecard_v1"
    if not root.exists():
        print(f"skipped: needs the LeCaRD v1 data in ../shared ({root} not present)")
        return 0
    from jiancha.datasets.lecard import load_lecard_v1, read_word_list
    from jiancha.retrieval.bm25 import BM25Config, BM25Index
    from jiancha.retrieval.pipeline import protected_charge_words
    from jiancha.retrieval.ranking import doc_id_order, top_k
    from jiancha.retrieval.tokenise import TokenizerConfig, encode_tokens, query_ids, tokenise

    ds = load_lecard_v1(root, pool="all")
    paragraphs = sorted({s + "。" for d in ds.documents.values() for s in d.qw.split("。") if len(s) >= 8})
    docs = build_corpus(paragraphs, args.docs, args.doc_chars, args.seed)
    n_chars = sum(map(len, docs))
    print(f"corpus: {len(docs)} documents from {len(paragraphs)} distinct paragraphs, "
          f"{n_chars / len(docs):.0f} chars/doc on average")

    cfg = TokenizerConfig(stopwords=frozenset(read_word_list(ds.stopwords_path)),
                          protected=protected_charge_words())
    tokenise("预热", cfg)
    t0 = time.perf_counter()
    tokens = [tokenise(d, cfg) for d in docs]
    t_tok = time.perf_counter() - t0
    corpus = encode_tokens(tokens)
    del tokens
    print(f"tokenise (rjieba, 1 process, single timing): {len(docs) / t_tok:,.0f} docs/s "
          f"({n_chars / t_tok / 1e6:.2f} M chars/s, {t_tok:.1f} s); {len(corpus.ids) / len(docs):.0f} tokens/doc")

    conf = BM25Config()
    t_idx, index = _timed(lambda: BM25Index.build(corpus, conf), args.repeats)
    with tempfile.TemporaryDirectory() as tmp:
        index.save(tmp)
        t_load, index = _timed(lambda: BM25Index.load(tmp, conf, mmap=True), 1)
    print(f"index (bm25s, k1={conf.k1}, b={conf.b}): {len(docs) / t_idx:,.0f} docs/s ({t_idx:.1f} s, median of "
          f"{args.repeats}); reload memory-mapped {t_load:.2f} s")

    qs = [query_ids(tokenise(q.fact, cfg), corpus.vocab) for q in ds.queries]
    order = doc_id_order([str(i) for i in range(len(docs))])

    def ours(batch):
        return [top_k(index.scores(q), order, args.depth) for q in batch]

    t_q, results = _timed(lambda: ours(qs), args.repeats)
    qps = len(qs) / t_q
    print(f"bm25s top-{args.depth}: {qps:,.1f} queries/s ({len(qs)} LeCaRD v1 queries, "
          f"{statistics.mean(map(len, qs)):.0f} tokens/query, median of {args.repeats})")

    search_latency(docs, index, corpus.vocab, cfg, [q.fact for q in ds.queries])

    try:
        from rank_bm25 import BM25Okapi
    except ImportError:
        print("rank_bm25 not installed (dev extra): comparison skipped")
        return 0

    class LuceneIdfOkapi(BM25Okapi):
        def _calc_idf(self, nd):
            for word, freq in nd.items():
                self.idf[word] = math.log(1 + (self.corpus_size - freq + 0.5) / (freq + 0.5))

    ints = list(range(len(corpus.vocab)))          # shared int objects keep rank_bm25's dicts small
    t0 = time.perf_counter()
    rb = LuceneIdfOkapi([[ints[i] for i in corpus.doc(d)] for d in range(len(corpus))], k1=conf.k1, b=conf.b)
    t_rb_idx = time.perf_counter() - t0
    sub = qs[: args.rank_bm25_queries]

    def theirs():
        out = []
        for q in sub:
            s = rb.get_scores([ints[i] for i in q])
            out.append((s, top_k(s, order, args.depth)))
        return out

    t_rb, rb_results = _timed(theirs, args.repeats)
    rb_qps = len(sub) / t_rb
    print(f"rank_bm25 (BM25Okapi, Lucene idf): index {len(docs) / t_rb_idx:,.0f} docs/s; top-{args.depth}: "
          f"{rb_qps:,.2f} queries/s (first {len(sub)} queries, median of {args.repeats})")
    print(f"speed-up on query throughput: {qps / rb_qps:,.0f}x (target >= 50x)")

    same = 0
    for q, (s_rb, top_rb), top_ours in zip(sub, rb_results, results, strict=False):
        ours_scores = index.scores(q).astype(np.float64) * (conf.k1 + 1)
        a, b = top_ours[:10], top_rb[:10]
        tenth = s_rb[b[-1]]
        tie_ok = all(np.isclose(ours_scores[i], s_rb[j], rtol=1e-4) for i, j in zip(a, b, strict=True))
        diff = set(a.tolist()) ^ set(b.tolist())
        if tie_ok and all(np.isclose(s_rb[i], tenth, rtol=1e-4) for i in diff):
            same += 1
    print(f"identical top-10 up to score ties: {same}/{len(sub)} queries")
    return 0 if same == len(sub) else 1


if __name__ == "__main__":
    sys.exit(main())
