"""Run a retrieval method over a LeCaRD dataset, write the TREC run, metrics and manifest.

``RetrievalSpec`` is everything that defines a run (dataset, method, fields, parameters). ``Retriever`` tokenises
the candidates once (cached), builds or loads the method indexes (persisted under the cache directory) and scores
queries; ``run_and_evaluate`` is the one-call entry point used by the CLI and ``jiancha demo``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from jiancha._util.cache import resolve_cache_dir
from jiancha._util.dicts import identity_diff
from jiancha._util.hashing import canonical_json, stable_hash
from jiancha._util.io import read_json, write_json
from jiancha._util.provenance import environment_info
from jiancha.datasets.lecard import (
    DATASETS,
    LecardDataset,
    LecardQuery,
    load_lecard,
    load_lecard_qrels,
    read_charge_list,
    read_word_list,
)
from jiancha.errors import ConfigError, ResumeMismatchError
from jiancha.retrieval.bm25 import BM25_VARIANTS, BM25Config, BM25Index
from jiancha.retrieval.charge import (
    ChargeConfig,
    charge_scores,
    charge_tiers,
    document_charges,
    expected_tiers,
    feedback_charges,
    lexical_scores,
    query_charges_from_text,
    resolve_charge_finder,
    this_case,
)
from jiancha.retrieval.dense import (
    ENCODERS,
    DenseConfig,
    DenseIndex,
    EmbeddingCache,
    build_dense_index,
    encode,
)
from jiancha.retrieval.evaluate import EvalResult, evaluate
from jiancha.retrieval.fields import canonical_doc_field, check_query_field, doc_text, query_text
from jiancha.retrieval.fuse import FUSION_KINDS, FuseConfig, rrf, weighted
from jiancha.retrieval.ltr.model import LTRConfig
from jiancha.retrieval.qld import QLDConfig, QLDIndex
from jiancha.retrieval.ranking import doc_id_order, top_k
from jiancha.retrieval.tokenise import TokenizerConfig, corpus_key, encode_corpus, query_ids, tokenise
from jiancha.retrieval.trec import Run, write_trec_run

#: Methods that score each query on their own (fusable), and every method a run can use (``ltr`` learns to
#: re-rank from the features of :mod:`jiancha.retrieval.ltr`).
METHODS: tuple[str, ...] = ("bm25", "qld", "dense", "charge", "fuse")
RUN_METHODS: tuple[str, ...] = (*METHODS, "ltr")
POOLS: tuple[str, ...] = ("judged", "all")
SCOPES: tuple[str, ...] = ("corpus", "pool")
SETTINGS: tuple[str, ...] = ("zero-shot", "test")
#: Default candidate field per dataset (tuned on LeCaRD v1's labelled queries, see docs/retrieval-results.md).
DEFAULT_DOC_FIELD = {"lecard-v1": "fact", "lecard-v2": "fact"}
DEFAULT_QUERY_FIELD = {"lecard-v1": "fact", "lecard-v2": "fact"}

Progress = Callable[[Iterable, str, int], Iterable]


@dataclass(frozen=True)
class RetrievalSpec:
    """What defines a run. Empty ``doc_field``/``query_field`` mean the dataset default (resolved, then recorded).

    ``pool`` (LeCaRD v1): ``judged`` (official) or ``all``. ``scope`` (LeCaRDv2): ``corpus`` ranks every candidate
    document available, ``pool`` ranks each query's ``ranking_pool.json`` entry. ``setting`` (LeCaRDv2 scoring):
    ``zero-shot`` or ``test``. ``depth``: documents written per query.
    """

    dataset: str = field(metadata={"choices": tuple(DATASETS), "help": "Dataset."})
    method: str = field(default="bm25", metadata={"choices": RUN_METHODS, "help": "Retrieval method."})
    query_field: str = field(default="", metadata={"help": "fact, query or both (default: the dataset's)."})
    doc_field: str = field(default="", metadata={"help": "fact, qw, reason, result, fact+reason or "
                                                         "fact+reason+result (LeCaRD v1 names ajjbqk, cpfxgc, pjjg "
                                                         "also work; default: the dataset's)."})
    pool: str = field(default="judged", metadata={"choices": POOLS, "help": "LeCaRD v1 candidates: judged "
                                                                           "(official) or all (100 per query)."})
    scope: str = field(default="corpus", metadata={"choices": SCOPES, "help": "LeCaRDv2: corpus (all candidates) "
                                                                             "or pool (ranking pools)."})
    setting: str = field(default="zero-shot", metadata={"choices": SETTINGS, "help": "LeCaRDv2 scoring: zero-shot "
                                                                                    "(all queries) or test (160)."})
    depth: int = field(default=1000, metadata={"help": "Documents per query in the run."})
    protect_charges: bool = field(default=True, metadata={"help": "Keep charge names as one token."})
    bm25: BM25Config = field(default_factory=BM25Config)
    qld: QLDConfig = field(default_factory=QLDConfig)
    charge: ChargeConfig = field(default_factory=ChargeConfig)
    fuse: FuseConfig = field(default_factory=FuseConfig)
    dense: DenseConfig = field(default_factory=DenseConfig)
    ltr: LTRConfig = field(default_factory=LTRConfig)

    def resolved(self) -> RetrievalSpec:
        """Validate every choice and fill the dataset defaults; errors name the value and the choices."""
        if self.dataset not in DATASETS:
            raise ConfigError(f"unknown dataset {self.dataset!r}; expected one of {list(DATASETS)}")
        if self.method not in RUN_METHODS:
            raise ConfigError(f"unknown method {self.method!r}; expected one of {list(RUN_METHODS)}")
        if self.pool not in POOLS:
            raise ConfigError(f"unknown pool {self.pool!r}; expected one of {list(POOLS)}")
        if self.scope not in SCOPES:
            raise ConfigError(f"unknown scope {self.scope!r}; expected one of {list(SCOPES)}")
        if self.setting not in SETTINGS:
            raise ConfigError(f"unknown setting {self.setting!r}; expected one of {list(SETTINGS)}")
        if self.bm25.method not in BM25_VARIANTS:
            raise ConfigError(f"unknown BM25 variant {self.bm25.method!r}; expected one of {list(BM25_VARIANTS)}")
        self.ltr.check()
        if self.depth < 1:
            raise ConfigError(f"depth must be ≥ 1, got {self.depth}")
        if self.fuse.kind not in FUSION_KINDS:
            raise ConfigError(f"unknown fusion {self.fuse.kind!r}; expected one of {list(FUSION_KINDS)}")
        bad = [m for m in self.fuse.methods if m not in METHODS or m == "fuse"]
        if bad or not self.fuse.methods:
            raise ConfigError(f"cannot fuse {bad or '()'}; choose among {[m for m in METHODS if m != 'fuse']}")
        if self.fuse.weights and len(self.fuse.weights) != len(self.fuse.methods):
            raise ConfigError(f"{len(self.fuse.weights)} fusion weights for {len(self.fuse.methods)} methods; "
                              "give one weight per fused method")
        uses_dense = self.method == "dense" or (self.method == "fuse" and "dense" in self.fuse.methods)
        if uses_dense and self.dense.encoder_name() not in ENCODERS:
            from jiancha.datasets.model_source import check_model_path

            check_model_path(self.dense.model, extra="dense-st")     # a missing path fails before any loading
        qf = check_query_field(self.query_field or DEFAULT_QUERY_FIELD[self.dataset])
        df = canonical_doc_field(self.doc_field or DEFAULT_DOC_FIELD[self.dataset])
        # the encoder is written out, so a manifest names it even after the default changes
        dense = replace(self.dense, model=self.dense.encoder_name()) if uses_dense else self.dense
        return replace(self, query_field=qf, doc_field=df, dense=dense)

    def to_dict(self) -> dict:
        return asdict(self)

    def key(self) -> str:
        return stable_hash(self.to_dict())

    def tag(self) -> str:
        return f"jiancha-{self.method}"


def protected_charge_words(extra: Iterable[str] = ()) -> tuple[str, ...]:
    """Words the tokeniser keeps whole: official charge names and their selective partial forms
    (贩卖毒品罪 for 走私、贩卖、运输、制造毒品罪) from :mod:`jiancha.law.charges`, plus ``extra`` (the dataset's list)."""
    from jiancha.law.charges import charge_names, selective_forms

    words = set(extra)
    for name in charge_names():
        words.add(name)
        words.update(selective_forms(name))
    return tuple(sorted(words))


def _no_progress(it: Iterable, desc: str, total: int) -> Iterable:
    return it


@dataclass
class Retriever:
    """Indexes one dataset's candidates under a spec; ``score(method, query)`` gives scores over every document."""

    dataset: LecardDataset
    spec: RetrievalSpec
    cache: Path | None = None
    progress: Progress = _no_progress
    doc_ids: list[str] = field(init=False)
    _indexes: dict = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        if not self.dataset.documents:
            raise ConfigError(f"{self.dataset.name} at {self.dataset.root} has no candidate documents to rank "
                              "(LeCaRDv2: put the candidates in candidate/<pid>.json); score an external run "
                              "with `jiancha retrieval score` instead")
        spec = self.spec
        if spec.method == "dense" or (spec.method == "fuse" and "dense" in spec.fuse.methods):
            self._dense_model()     # before tokenising: an unusable model (offline hub) fails in seconds
        self.doc_ids = list(self.dataset.documents)
        self.id_order = doc_id_order(self.doc_ids)
        self.position = {d: i for i, d in enumerate(self.doc_ids)}
        stop = read_word_list(self.dataset.stopwords_path) if self.dataset.stopwords_path else ()
        self.charge_names = read_charge_list(self.dataset.charge_list_path) if self.dataset.charge_list_path else ()
        self.tok_config = TokenizerConfig(stopwords=frozenset(stop),
                                          protected=protected_charge_words(self.charge_names)
                                          if self.spec.protect_charges else ())
        texts = [doc_text(self.dataset.documents[d], self.spec.doc_field) for d in self.doc_ids]
        self.corpus_key = corpus_key(texts, self.tok_config)
        self.index_dir = (self.cache / "retrieval" / self.corpus_key) if self.cache is not None else None
        t0 = time.perf_counter()
        self.tokens = encode_corpus(texts, self.tok_config,
                                    cache=self.index_dir / "tokens" if self.index_dir else None,
                                    progress=lambda xs: self.progress(xs, "tokenising", len(texts)))
        self.texts = texts
        self.timings = {"tokenise_s": time.perf_counter() - t0}
        self.charge_finder_name = ""

    # ---------------------------------------------------------------- indexes
    def _path(self, name: str) -> Path | None:
        return self.index_dir / name if self.index_dir is not None else None

    def bm25(self) -> BM25Index:
        if "bm25" not in self._indexes:
            c = self.spec.bm25
            p = self._path(f"bm25-{c.method}-k1={c.k1}-b={c.b}")
            if p is not None and BM25Index.exists(p):
                idx = BM25Index.load(p, c)
            else:
                idx = BM25Index.build(self.tokens, c)
                if p is not None:
                    idx.save(p)
            self._indexes["bm25"] = idx
        return self._indexes["bm25"]

    def qld(self) -> QLDIndex:
        if "qld" not in self._indexes:
            p = self._path("qld")
            if p is not None and QLDIndex.exists(p):
                idx = QLDIndex.load(p, self.spec.qld)
            else:
                idx = QLDIndex.build(self.tokens, self.spec.qld)
                if p is not None:
                    idx.save(p)
            self._indexes["qld"] = idx
        return self._indexes["qld"]

    def dense(self) -> DenseIndex:
        """Chunk embeddings of the documents any query can rank (its pool, or all for corpus scope)."""
        if "dense" not in self._indexes:
            c = self.spec.dense
            enc = self._dense_model()
            needed = sorted({int(i) for q in self.dataset.queries for i in self.candidates_for(q.id)})
            cache = EmbeddingCache(self.cache, f"{enc.name}|{c.chunk_chars}")
            idx, stats = build_dense_index([self.texts[i] for i in needed], needed, len(self.doc_ids), c, enc,
                                           cache, progress=self.progress)
            self.timings["dense_encode_s"] = stats.seconds
            self.timings["dense_chunks_encoded"] = stats.encoded
            self._indexes["dense"] = idx
        return self._indexes["dense"]

    def dense_query(self, query: LecardQuery) -> np.ndarray:
        key = ("dense_q", query.id)
        if key not in self._indexes:
            self._indexes[key] = encode([query_text(query, self.spec.query_field)], self.spec.dense,
                                        model=self._dense_model(), kind="query")[0]
        return self._indexes[key]

    def _dense_model(self):
        if "dense_model" not in self._indexes:
            from jiancha.retrieval.dense import load_encoder

            self._indexes["dense_model"] = load_encoder(self.spec.dense)
        return self._indexes["dense_model"]

    def doc_charges(self) -> list[tuple[str, ...]]:
        key = ("charges", self.spec.charge.reason_charges)
        if key not in self._indexes:
            find, name = resolve_charge_finder(self.charge_names)
            self.charge_finder_name = name
            self._indexes["finder"] = find
            self._indexes[key] = [
                document_charges((d.result, d.reason, d.fact), d.charges, find,
                                 extra=(d.reason,) if self.spec.charge.reason_charges else ())
                for d in (self.dataset.documents[i] for i in self.doc_ids)]
        return self._indexes[key]

    def query_charges(self, query: LecardQuery) -> tuple[str, ...]:
        if query.charges:
            return query.charges
        self.doc_charges()
        return query_charges_from_text((query.query, query.fact), self._indexes["finder"])

    def guessed_charges(self, query: LecardQuery) -> dict[str, float]:
        """The shares of the likeliest charges of a query that has none, by a classifier trained (once) on the
        documents' facts → their primary charges (:mod:`jiancha.retrieval.charge_model`); none when the
        documents are too few to train on."""
        if "charge_model" not in self._indexes:
            from jiancha.retrieval.charge_model import ChargeClassifier

            labels = [c[0] if c else "" for c in self.doc_charges()]
            self._indexes["charge_model"] = ChargeClassifier.fit(
                [this_case(self.dataset.documents[d].fact) for d in self.doc_ids], labels,
                balanced=self.spec.charge.guess_balanced) if ChargeClassifier.trainable(labels) else None
        model = self._indexes["charge_model"]
        return model.shares(this_case(query.fact or query.query)) if model is not None else {}

    # ---------------------------------------------------------------- scoring
    def query_ids(self, query: LecardQuery) -> list[int]:
        return query_ids(tokenise(query_text(query, self.spec.query_field), self.tok_config), self.tokens.vocab)

    def score(self, method: str, query: LecardQuery, candidates: np.ndarray) -> np.ndarray:
        """Scores of ``candidates`` (document positions) for ``query`` under ``method``."""
        if method == "bm25":
            return self.bm25().scores(self.query_ids(query))[candidates]
        if method == "qld":
            return self.qld().scores(self.query_ids(query))[candidates]
        if method == "dense":
            return self.dense().scores(self.dense_query(query))[candidates]
        if method == "charge":
            charges = self.doc_charges()
            cand_charges = [charges[i] for i in candidates]
            c = self.spec.charge
            base = lexical_scores(self.score("bm25", query, candidates),
                                  self.score("qld", query, candidates) if c.qld_weight > 0 else None, c.qld_weight)
            fb = feedback_charges(cand_charges, base, self.id_order[candidates], self.spec.charge.prf_depth)
            named = self.query_charges(query)
            if named or not c.guess_charges:
                tiers = charge_tiers(named, cand_charges, c, fb)
            else:
                tiers = expected_tiers(self.guessed_charges(query), cand_charges, c)
            return charge_scores(tiers, base)
        if method == "fuse":
            c = self.spec.fuse
            lists = [self.score(m, query, candidates) for m in c.methods]
            if c.kind == "rrf":
                return rrf(lists, self.id_order[candidates], k=c.k, weights=c.resolved_weights())
            return weighted(lists, c.resolved_weights())
        raise ConfigError(f"unknown method {method!r}; expected one of {list(METHODS)}")

    def candidates_for(self, qid: str) -> np.ndarray:
        if self.dataset.name == "lecard-v1" or self.spec.scope == "pool":
            pool = self.dataset.pools.get(qid, ())
            return np.asarray([self.position[d] for d in pool if d in self.position], dtype=np.int64)
        return np.arange(len(self.doc_ids), dtype=np.int64)

    def run(self, queries: Iterable[LecardQuery] | None = None) -> dict[str, list[tuple[str, float]]]:
        qs = list(queries if queries is not None else self.dataset.queries)
        out: dict[str, list[tuple[str, float]]] = {}
        t0 = time.perf_counter()
        for q in self.progress(qs, f"ranking ({self.spec.method})", len(qs)):
            cand = self.candidates_for(q.id)
            if len(cand) == 0:
                out[q.id] = []
                continue
            s = self.score(self.spec.method, q, cand)
            best = top_k(s, self.id_order[cand], self.spec.depth)
            out[q.id] = [(self.doc_ids[cand[i]], float(s[i])) for i in best]
        self.timings["rank_s"] = time.perf_counter() - t0
        return out


def load_for_spec(spec: RetrievalSpec, data_dir: str | os.PathLike, cache: Path | None = None) -> LecardDataset:
    return load_lecard(spec.dataset, data_dir, pool=spec.pool, setting=spec.setting, cache=cache)


def run_retrieval(spec: RetrievalSpec, data_dir: str | os.PathLike, *, cache: str | os.PathLike | None = None,
                  progress: Progress = _no_progress) -> tuple[Run, dict, LecardDataset]:
    """Rank every query of the dataset; returns the run, a manifest (spec, data fingerprint, versions) and the
    loaded dataset."""
    spec = spec.resolved()
    cache_path = resolve_cache_dir(cache)
    ds = load_for_spec(spec, data_dir, cache_path)
    r = Retriever(ds, spec, cache=cache_path, progress=progress)
    run = r.run()
    manifest = {
        "spec": spec.to_dict(), "spec_key": spec.key(),
        "data": {"dataset": ds.name, "root": str(ds.root), "fingerprint": ds.fingerprint,
                 "num_queries": len(ds.queries), "num_documents": len(ds.documents)},
        "tokenizer": r.tok_config.describe(), "charge_matcher": r.charge_finder_name or None,
        "timings": {k: round(v, 3) for k, v in r.timings.items()},
        "environment": environment_info(),
    }
    return run, manifest, ds


def run_spec(spec: RetrievalSpec, data_dir: str | os.PathLike, *, cache: str | os.PathLike | None = None,
             progress: Progress = _no_progress, train_qrels=None, load_model=None,
             save_model=None) -> tuple[Run, dict, LecardDataset, dict]:
    """Any method of :data:`RUN_METHODS`: returns (run, manifest, dataset, the qrels to evaluate on). For ``ltr``
    these are the labelled queries no model scoring them was trained on (see :func:`~jiancha.retrieval.ltr.run_ltr`;
    ``train_qrels``/``load_model``/``save_model`` apply to it only)."""
    spec = spec.resolved()
    if spec.method == "ltr":
        from jiancha.retrieval.ltr.run import run_ltr

        return run_ltr(replace(spec, method="charge"), data_dir, spec.ltr, train_qrels_path=train_qrels,
                       load_model_path=load_model, save_model_path=save_model, cache=cache, progress=progress)
    if (train_qrels, load_model, save_model) != (None, None, None):
        raise ConfigError(f"--train-qrels, --load-model and --save-model apply to --method ltr, not {spec.method}")
    run, manifest, ds = run_retrieval(spec, data_dir, cache=cache, progress=progress)
    return run, manifest, ds, ds.qrels


def load_qrels(dataset: str, data_dir: str | os.PathLike, *, setting: str = "zero-shot") -> dict:
    """The dataset's relevance labels only (no candidates needed), for scoring external runs."""
    return load_lecard_qrels(dataset, data_dir, setting=setting)


def score_run(dataset: str, run: Run, data_dir: str | os.PathLike, *, setting: str = "zero-shot") -> EvalResult:
    """Evaluate an (external) run against the dataset's qrels."""
    return evaluate(dataset, run, load_qrels(dataset, data_dir, setting=setting), setting=setting)


def refuse_other_settings(where: str | os.PathLike, old: dict, manifest: dict) -> None:
    """Raise ResumeMismatchError naming every setting (and the data fingerprint) that differs between an existing
    output's manifest and this run's."""
    stored = {"spec": old.get("spec", {}), "data_fingerprint": old.get("data", {}).get("fingerprint")}
    now = {"spec": manifest["spec"], "data_fingerprint": manifest["data"]["fingerprint"]}
    diff = identity_diff(stored, json.loads(canonical_json(now)))   # as stored: tuples become lists
    if diff or old.get("spec_key") != manifest["spec_key"]:
        raise ResumeMismatchError(f"{where} holds a run made under other settings: "
                                  + ("; ".join(diff) or f"spec {old.get('spec_key')} → {manifest['spec_key']}")
                                  + "; choose a new --out")


def write_outputs(out: str | os.PathLike, run: Run, result: EvalResult | None, manifest: dict, tag: str) -> Path:
    """Write ``run.trec``, ``metrics.json`` and ``manifest.json``; refuse an --out made under other settings."""
    d = Path(out)
    mpath = d / "manifest.json"
    if mpath.exists():
        old = read_json(mpath)
        refuse_other_settings(d, old, manifest)
    d.mkdir(parents=True, exist_ok=True)
    write_trec_run(d / "run.trec", run, tag)
    if result is not None:
        write_json(d / "metrics.json", {**result.to_json(), "per_query": result.per_query})
    write_json(mpath, manifest)
    return d


def run_and_evaluate(dataset: str, data_dir: str | os.PathLike, method: str = "bm25", *,
                     out: str | os.PathLike | None = None, cache: str | os.PathLike | None = None,
                     progress: Progress = _no_progress, **options) -> dict:
    """Run ``method`` on a dataset and evaluate it; returns ``{"metrics": {...}, "num_queries": n}``.

    ``options`` are :class:`RetrievalSpec` fields (``doc_field="fact"``, ``bm25=BM25Config(...)`` ...). With ``out``,
    the run, metrics and manifest are written there. Used by ``jiancha retrieval eval`` and ``jiancha demo``.
    """
    spec = RetrievalSpec(dataset=dataset, method=method, **options).resolved()
    run, manifest, ds = run_retrieval(spec, data_dir, cache=cache, progress=progress)
    result = evaluate(spec.dataset, run, ds.qrels, setting=spec.setting)
    if out is not None:
        write_outputs(out, run, result, manifest, spec.tag())
    return result.to_json()
