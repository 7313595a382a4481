"""Case search for a user: a persisted index over any collection of judgments, searched with free text.

Sources (:func:`read_case_docs`): a folder of LeCaRD v1 candidates (``<id>.json`` with ``ajjbqk``/``cpfxgc``/
``pjjg``, in subfolders or not), of LeCaRDv2 candidates (``fact``/``reason``/``result``/``charge``/``article``),
a folder of ``.txt`` documents, or a PDP-style JSONL export (``id``, ``fact``, ``decision``,
``relevant_articles``, optional ``procedure``/``charges``).

Ranking is the ``charge`` method of the benchmark: BM25 over the facts, then candidates whose charges match the
query's first (tier = shared 1 + same primary charge 1 + Jaccard, :func:`~jiancha.retrieval.charge.charge_tiers`),
BM25 ordering each tier. A query's charges are those its text names after 指控 (or anywhere), else the most common
primary charge of its :data:`CHARGE_VOTERS` best BM25 matches. Only the :data:`RERANK_DEPTH` best BM25 documents
are re-ranked, so a search costs one sparse column sum plus a small sort.

Identical copies of a document (the same judgment under several ids) are indexed once (:func:`fold_duplicates`).
The index folder holds ``docs.jsonl`` (one :class:`CaseDoc` a line), ``bm25/`` (bm25s arrays), ``vocab.json``
and ``index.json`` (format, count, tokeniser).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np

from jiancha.errors import ConfigError, DataError
from jiancha.retrieval.bm25 import BM25Config, BM25Index
from jiancha.retrieval.charge import CHARGE_VOTERS
from jiancha.retrieval.tokenise import TokenizerConfig, encode_tokens, query_ids, tokenise

INDEX_FORMAT = "jiancha-case-index/1"
RERANK_DEPTH = 200
PASSAGE_CHARS = 160
_SENTENCE = re.compile(r"[^。；！？\n]+[。；！？]?")


@dataclass(frozen=True)
class CaseDoc:
    """One judgment or decision of a collection: ``decision`` is the sentence or the prosecution decision."""

    id: str
    fact: str
    charges: tuple[str, ...] = ()
    decision: str = ""
    articles: tuple[str, ...] = ()
    also: tuple[str, ...] = ()      # ids of identical copies folded into this one when indexed


@dataclass(frozen=True)
class SearchHit:
    """A ranked case: its charges (``shared_charges`` those it has in common with the query), decision or
    sentence, cited articles, the passage of its facts that best matches the query, and why it ranks here."""

    id: str
    score: float
    charges: tuple[str, ...]
    shared_charges: tuple[str, ...]
    decision: str
    articles: tuple[str, ...]
    passage: str
    reason: str
    also: tuple[str, ...] = ()


# ------------------------------------------------------------------------------------------------ reading
def _finder():
    from jiancha.law.charges import find_charges

    return find_charges


def _from_candidate(obj: dict, doc_id: str, find) -> CaseDoc:
    from jiancha.law.penalties import describe_verdict
    from jiancha.retrieval.charge import document_charges

    fact = str(obj.get("ajjbqk") or obj.get("fact") or "")
    reason = str(obj.get("cpfxgc") or obj.get("reason") or "")
    result = str(obj.get("pjjg") or obj.get("result") or "")
    given = tuple(str(c) for c in obj.get("charge") or ())
    charges = document_charges((result, reason, fact), given, find, extra=(reason,))
    articles = tuple(f"cl:{a}" for a in obj.get("article") or ())
    if not articles:
        from jiancha.retrieval.ltr.features import cited_articles

        articles = tuple(f"cl:{a}" for a in sorted(cited_articles((reason, result))))
    return CaseDoc(doc_id, fact or str(obj.get("qw") or ""), charges, describe_verdict(result), articles)


def read_case_docs(src: str | os.PathLike) -> Iterator[CaseDoc]:
    """The documents of ``src`` (see module docstring), in sorted path order; a file that cannot be read raises
    DataError naming it."""
    p = Path(src)
    find = _finder()
    if p.is_file() and p.suffix == ".jsonl":
        from jiancha.retrieval.charge import document_charges

        for lineno, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                o = json.loads(line)
                fact = str(o["fact"])
            except (json.JSONDecodeError, KeyError, TypeError) as e:
                raise DataError(f"expected a JSON object with 'fact' ({e})", path=str(p), line=lineno) from None
            given = tuple(o.get("charges") or ())
            charges = document_charges((f"{o.get('procedure', '')}\n{fact}",), given, find)
            yield CaseDoc(str(o.get("id", lineno)), fact, charges, str(o.get("decision", "")),
                          tuple(str(a) for a in o.get("relevant_articles") or ()))
        return
    if not p.is_dir():
        raise ConfigError(f"{p} is neither a folder of documents nor a .jsonl file; give one of those")
    files = sorted(x for x in p.rglob("*") if x.suffix in (".json", ".txt") and x.is_file())
    if not files:
        raise ConfigError(f"{p} holds no .json or .txt documents")
    for f in files:
        doc_id = f.stem if f.parent == p else f"{f.parent.name}/{f.stem}"
        if f.suffix == ".txt":
            text = f.read_text(encoding="utf-8", errors="replace")
            from jiancha.retrieval.charge import query_charges_from_text

            yield CaseDoc(doc_id, text, query_charges_from_text((text,), find))
            continue
        try:
            obj = json.loads(f.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise DataError(f"not a JSON document ({e})", path=str(f)) from None
        if isinstance(obj, dict):
            yield _from_candidate(obj, doc_id, find)


def fold_duplicates(docs: Iterable[CaseDoc]) -> list[CaseDoc]:
    """One document per distinct content (facts, charges, decision, articles), the first in order, with the ids of
    the later identical copies in ``also``: a collection gathered per query (LeCaRD v1's pools) holds the same
    judgment under several ids, and each copy would take a place in the results.

    >>> a, b, c = CaseDoc("1/7", "盗窃手机"), CaseDoc("2/7", "盗窃手机"), CaseDoc("3", "抢劫")
    >>> [(d.id, d.also) for d in fold_duplicates([a, b, c])]
    [('1/7', ('2/7',)), ('3', ())]
    """
    first: dict[tuple, int] = {}
    out: list[CaseDoc] = []
    for d in docs:
        key = (d.fact, d.charges, d.decision, d.articles)
        if key in first:
            i = first[key]
            out[i] = replace(out[i], also=out[i].also + (d.id,))
        else:
            first[key] = len(out)
            out.append(d)
    return out


# ------------------------------------------------------------------------------------------------- index
def _tokenizer() -> TokenizerConfig:
    from jiancha.retrieval.pipeline import protected_charge_words

    return TokenizerConfig(protected=protected_charge_words())


class SearchIndex:
    """BM25 over the facts of :class:`CaseDoc` s plus their charges; build, save, load, search."""

    def __init__(self, docs: Sequence[CaseDoc], bm25: BM25Index, vocab: dict[str, int], tok: TokenizerConfig):
        self.docs = list(docs)
        self._bm25 = bm25
        self._vocab = vocab
        self._tok = tok
        self._ids = np.argsort(np.argsort(np.array([d.id for d in self.docs], dtype=object), kind="stable"))

    @classmethod
    def build(cls, docs: Iterable[CaseDoc], *, tokenizer: TokenizerConfig | None = None,
              progress: Callable | None = None) -> SearchIndex:
        docs = fold_duplicates(docs)
        if not docs:
            raise ConfigError("no documents to index")
        tok = tokenizer or _tokenizer()
        it = progress(docs, "tokenising", len(docs)) if progress else docs
        corpus = encode_tokens(tokenise(d.fact, tok) for d in it)
        return cls(docs, BM25Index.build(corpus, BM25Config()), dict(corpus.vocab), tok)

    def save(self, out: str | os.PathLike) -> Path:
        from jiancha._util.io import atomic_write_text

        d = Path(out)
        d.mkdir(parents=True, exist_ok=True)
        atomic_write_text(d / "docs.jsonl", "".join(json.dumps(asdict(x), ensure_ascii=False) + "\n"
                                                    for x in self.docs))
        self._bm25.save(d / "bm25")
        atomic_write_text(d / "vocab.json", json.dumps(self._vocab, ensure_ascii=False))
        atomic_write_text(d / "index.json", json.dumps({
            "format": INDEX_FORMAT, "num_docs": len(self.docs), "tokenizer": self._tok.describe(),
            "protected": list(self._tok.protected)}, ensure_ascii=False))
        return d

    @classmethod
    def load(cls, path: str | os.PathLike) -> SearchIndex:
        d = Path(path)
        meta_path = d / "index.json"
        if not meta_path.exists():
            raise ConfigError(f"{d} is not a case index (no index.json); build one with "
                              "`jiancha retrieval index SRC --out DIR`")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if meta.get("format") != INDEX_FORMAT:
            raise ConfigError(f"{d} holds a {meta.get('format')!r} index, expected {INDEX_FORMAT}; rebuild it")
        docs = []
        with (d / "docs.jsonl").open(encoding="utf-8") as fh:
            for line in fh:
                o = json.loads(line)
                docs.append(CaseDoc(o["id"], o["fact"], tuple(o["charges"]), o["decision"], tuple(o["articles"]),
                                    tuple(o.get("also", ()))))
        tok = TokenizerConfig(protected=tuple(meta.get("protected", ())))
        vocab = json.loads((d / "vocab.json").read_text(encoding="utf-8"))
        return cls(docs, BM25Index.load(d / "bm25", BM25Config()), vocab, tok)

    # ---------------------------------------------------------------- search
    def query_charges(self, text: str, best: Sequence[int] = ()) -> tuple[str, ...]:
        from jiancha.retrieval.charge import predict_query_charges

        return predict_query_charges((text,), _finder(), [self.docs[i].charges for i in best[:CHARGE_VOTERS]])

    def search(self, text: str, k: int = 10, *, charges: Sequence[str] | None = None,
               exclude_id: str | None = None) -> list[SearchHit]:
        """The ``k`` best cases for ``text`` (ties by id); ``charges`` overrides the predicted query charges."""
        from jiancha.retrieval.charge import ChargeConfig, charge_scores, charge_tiers

        if k < 1:
            raise ConfigError(f"k must be ≥ 1, got {k}")
        toks = tokenise(text, self._tok)
        bm = np.asarray(self._bm25.scores(query_ids(toks, self._vocab)), dtype=np.float64)
        depth = min(RERANK_DEPTH, len(bm))
        top = np.argpartition(-bm, depth - 1)[:depth] if depth < len(bm) else np.arange(len(bm))
        top = top[np.lexsort((self._ids[top], -bm[top]))]
        qc = tuple(charges) if charges is not None else self.query_charges(text, top)
        tiers = charge_tiers(qc, [self.docs[i].charges for i in top], ChargeConfig())
        s = charge_scores(tiers, bm[top])
        order = np.lexsort((self._ids[top], -s))
        qset = set(toks)
        out: list[SearchHit] = []
        for j in order:
            d = self.docs[int(top[j])]
            if exclude_id is not None and (d.id == exclude_id or exclude_id in d.also):
                continue
            shared = tuple(c for c in d.charges if c in qc)
            passage, words = best_passage(d.fact, qset)
            out.append(SearchHit(d.id, round(float(s[j]), 4), d.charges, shared, d.decision, d.articles, passage,
                                 render_reason(shared, words, text, d.fact), d.also))
            if len(out) == k:
                break
        return out


def best_passage(fact: str, query_tokens: set[str]) -> tuple[str, list[str]]:
    """The sentence of ``fact`` containing the most distinct query words of two or more characters (first on
    ties; plain substring tests, so no sentence is re-tokenised), cut to :data:`PASSAGE_CHARS`, and those words
    (longest first).

    >>> best_passage("被告人驾车。被告人窃取手机一部。", {"窃取", "手机", "被告人"})
    ('被告人窃取手机一部。', ['被告人', '手机', '窃取'])
    """
    words_all = sorted((t for t in query_tokens if len(t) > 1), key=lambda w: (-len(w), w))
    best, best_words = "", []
    for m in _SENTENCE.finditer(fact):
        sent = m.group(0).strip()
        if not sent:
            continue
        words = [w for w in words_all if w in sent]
        if len(words) > len(best_words) or not best:
            best, best_words = sent, words
    return best[:PASSAGE_CHARS], best_words


def render_reason(shared: Sequence[str], words: Sequence[str], query: str, fact: str) -> str:
    """A short reason in Chinese: shared charges, shared sentencing circumstances, amounts, shared words."""
    from jiancha.law.amounts import largest, parse_amounts
    from jiancha.law.circumstances import find_circumstances

    parts = []
    if shared:
        parts.append("同罪名：" + "、".join(shared))
    circ = sorted(find_circumstances(query) & find_circumstances(fact))
    if circ:
        parts.append("共同情节：" + "、".join(circ))
    qa, da = largest(parse_amounts(query)), largest(parse_amounts(fact))
    if qa is not None and da is not None:
        parts.append(f"金额：{qa:g}元 / {da:g}元")
    if words:
        parts.append("共同词语：" + "、".join(words[:5]))
    return "；".join(parts) or "文本相似"
