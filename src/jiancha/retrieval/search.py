"""Case search for a user: a persisted index over any collection of judgments, searched with free text.

Sources are read by :mod:`jiancha.retrieval.sources` (LeCaRD candidates, court documents as ``.txt``, JSONL
exports).

Ranking is the ``charge`` method of the benchmark: BM25 over the facts, then candidates whose charges match the
query's first (tier = shared 1 + same primary charge 1 + Jaccard, :func:`~jiancha.retrieval.charge.charge_tiers`),
BM25 ordering each tier. A query's charges are those its text attributes to the suspect (指控…, 涉嫌…); otherwise
they are guessed, and each document's tier is averaged over the guessed charges by their share (:data:`VOTINGS`):
by a classifier trained at index time on the collection's facts → verdict charges
(:mod:`jiancha.retrieval.charge_model`, when the collection holds enough judgments with charges), else by the votes
of the :data:`CHARGE_VOTERS` best BM25 matches, each for its primary charge by rank, and of the charges the text
mentions elsewhere (one vote each). Only the :data:`RERANK_DEPTH` best BM25 documents are re-ranked, so a search
costs one sparse column sum plus a small sort.

Identical copies of a document (the same judgment under several ids) are indexed once (:func:`fold_duplicates`).
The index folder holds ``docs.jsonl`` (one :class:`CaseDoc` a line; articles canonical, ``cl:第二百六十四条``),
``bm25/`` (bm25s arrays), ``vocab.json``, ``index.json`` (format, count, tokeniser, the sha256 of ``docs.jsonl``,
checked at load) and, when one was trained, ``charges/`` (the charge classifier's plain files).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from jiancha.errors import ConfigError, DataError
from jiancha.law.amounts import render_yuan
from jiancha.retrieval.bm25 import BM25Config, BM25Index
from jiancha.retrieval.charge import CHARGE_VOTERS, this_case
from jiancha.retrieval.charge_model import ChargeClassifier
from jiancha.retrieval.sources import (
    CaseDoc,
    SourceReport,
    criminal_law_article,
    finder,
    fold_duplicates,
    read_case_docs,
)
from jiancha.retrieval.tokenise import TokenizerConfig, encode_tokens, query_ids, tokenise

INDEX_FORMAT = "jiancha-case-index/2"
RERANK_DEPTH = 200
#: How a query's charges are guessed when its text names none (:meth:`SearchIndex.query_charges`).
VOTINGS: tuple[str, ...] = ("classifier", "soft-rank-text", "soft-rank", "hard-rank", "hard-uniform")
DEFAULT_VOTING = "classifier"
PASSAGE_CHARS = 160
#: Words every judgment's facts share (被告人, 公诉机关指控…): not a reason for a hit.
FORMULA_WORDS = frozenset({"被告人", "被告", "公诉", "机关", "公诉机关", "指控", "本院", "认为", "经审理", "审理", "查明",
                           "犯罪", "嫌疑人", "犯罪嫌疑人", "被害人"})
_SENTENCE = re.compile(r"[^。；！？\n]+[。；！？]?")
#: A word that can carry a query: two or more characters, one of them Chinese (a lone 的, 了, or a Latin letter
#: matching a licence plate, cannot).
#: The formula closing a statement of facts (上述事实，有…等证据证实，足以认定): it names evidence, never the case.
_EVIDENCE_FORMULA = re.compile(r"证据(?:予以)?证实|足以认定|上述事实[，,]?有")
_CONTENT_WORD = re.compile(r"^(?=.*[\u4e00-\u9fff]).{2,}$")
_CHINESE = re.compile(r"[\u4e00-\u9fff]")


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
    guessed: bool = False   # the query's charges were guessed from similar cases, not named: shared ones are 推定
    case_number: str = ""
    fact_score: float = 0.0   # BM25 of the query against the facts alone (``score`` adds the charge tier)
    accused: tuple[str, ...] = ()   # where the court found no charge: those the prosecution brought


@dataclass(frozen=True)
class Ranking:
    """A query's candidates before sorting: its tokens, the indices of the documents re-ranked, their scores, the
    query's charges with their weights, whether the query named them (or they were given), and the documents'
    BM25 scores on the facts alone."""

    tokens: tuple[str, ...]
    docs: np.ndarray
    scores: np.ndarray
    charges: dict[str, float]
    named: bool
    fact_scores: np.ndarray


# ------------------------------------------------------------------------------------------------- index
def _read_index_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise DataError(f"corrupt case index ({e}); rebuild it with `jiancha retrieval index`", path=str(path)) from None


def _tokenizer() -> TokenizerConfig:
    from jiancha.retrieval.pipeline import protected_charge_words

    return TokenizerConfig(protected=protected_charge_words())


class SearchIndex:
    """BM25 over the facts of :class:`CaseDoc` s plus their charges; build, save, load, search."""

    def __init__(self, docs: Sequence[CaseDoc], bm25: BM25Index, vocab: dict[str, int], tok: TokenizerConfig,
                 charge_model: ChargeClassifier | None = None):
        self.docs = list(docs)
        self._bm25 = bm25
        self._vocab = vocab
        self._tok = tok
        self.charge_model = charge_model
        self._ids = np.argsort(np.argsort(np.array([d.id for d in self.docs], dtype=object), kind="stable"))

    @classmethod
    def build(cls, docs: Iterable[CaseDoc], *, tokenizer: TokenizerConfig | None = None,
              progress: Callable | None = None, charge_model: bool = True,
              balanced_charges: bool = False) -> SearchIndex:
        """Index ``docs``; with ``charge_model``, also train the charge classifier when the collection is large
        enough (:data:`~jiancha.retrieval.charge_model.MIN_TRAINING_DOCS`; about a minute more for LeCaRD v1's
        9,079 judgments on two cores), with every charge weighted alike when ``balanced_charges``
        (:meth:`~jiancha.retrieval.charge_model.ChargeClassifier.fit`)."""
        docs = fold_duplicates(docs)
        if not docs:
            raise ConfigError("no documents to index")
        tok = tokenizer or _tokenizer()
        it = progress(docs, "tokenising", len(docs)) if progress else docs
        corpus = encode_tokens(tokenise(d.fact, tok) for d in it)
        labelled = [d for d in docs if d.charges]
        model = None
        if charge_model and ChargeClassifier.trainable([d.charges[0] for d in labelled]):
            desc = f"learning the charges of {len(labelled)} judgments"
            for _ in progress(range(1), desc, 1) if progress else range(1):
                model = ChargeClassifier.fit([this_case(d.fact) for d in labelled], [d.charges[0] for d in labelled],
                                             balanced=balanced_charges)
        return cls(docs, BM25Index.build(corpus, BM25Config()), dict(corpus.vocab), tok, model)

    def save(self, out: str | os.PathLike) -> Path:
        from jiancha._util.io import atomic_write_text

        d = Path(out)
        d.mkdir(parents=True, exist_ok=True)
        docs = "".join(json.dumps(asdict(x), ensure_ascii=False) + "\n" for x in self.docs)
        atomic_write_text(d / "docs.jsonl", docs)
        self._bm25.save(d / "bm25")
        atomic_write_text(d / "vocab.json", json.dumps(self._vocab, ensure_ascii=False))
        if self.charge_model is not None:
            self.charge_model.save(d / "charges")
        elif (d / "charges").is_dir():   # an index rebuilt without one: the old classifier must not stay
            import shutil

            shutil.rmtree(d / "charges")
        atomic_write_text(d / "index.json", json.dumps({
            "format": INDEX_FORMAT, "num_docs": len(self.docs), "tokenizer": self._tok.describe(),
            "protected": list(self._tok.protected), "charge_model": self.charge_model is not None,
            "charge_model_balanced": bool(self.charge_model and self.charge_model.balanced),
            "docs_sha256": hashlib.sha256(docs.encode("utf-8")).hexdigest()},
            ensure_ascii=False))
        return d

    @classmethod
    def load(cls, path: str | os.PathLike) -> SearchIndex:
        d = Path(path)
        meta_path = d / "index.json"
        if not d.is_dir():
            what = "a file, not a case index folder" if d.exists() else "no such folder"
            raise ConfigError(f"no case index at {d}: {what}; build one with `jiancha retrieval index SRC --out DIR`")
        if not meta_path.exists():
            raise ConfigError(f"{d} is not a case index (no index.json); build one with "
                              "`jiancha retrieval index SRC --out DIR`")
        meta = _read_index_json(meta_path)
        if not isinstance(meta, dict) or meta.get("format") != INDEX_FORMAT:
            found = meta.get("format") if isinstance(meta, dict) else None
            raise ConfigError(f"{d} holds {'a ' + repr(found) if found else 'no jiancha case'} index, expected "
                              f"{INDEX_FORMAT}; rebuild it with `jiancha retrieval index SRC --out {d}`")
        docs = []
        docs_path = d / "docs.jsonl"
        try:
            raw = docs_path.read_bytes()
            lines = raw.decode("utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise DataError(f"corrupt case index ({e}); rebuild it with `jiancha retrieval index`",
                            path=str(docs_path)) from None
        lines_of: dict[str, int] = {}
        for lineno, line in enumerate(lines, start=1):
            try:
                o = json.loads(line)
                docs.append(CaseDoc(o["id"], o["fact"], tuple(o["charges"]), o["decision"], tuple(o["articles"]),
                                    tuple(o.get("also", ())), o.get("case_number", ""), tuple(o.get("accused", ()))))
            except (json.JSONDecodeError, KeyError, TypeError) as e:
                raise DataError(f"corrupt case index ({type(e).__name__}: {e}); rebuild it with `jiancha retrieval "
                                "index`", path=str(docs_path), line=lineno) from None
            for i in (docs[-1].id, *docs[-1].also):
                if i in lines_of:
                    raise DataError(f"corrupt case index: id {i!r} is also on line {lines_of[i]}; rebuild it with "
                                    "`jiancha retrieval index`", path=str(docs_path), line=lineno, field="id")
                lines_of[i] = lineno
        if len(docs) != meta.get("num_docs"):
            raise DataError(f"corrupt case index: {len(docs)} documents, index.json says {meta.get('num_docs')}; "
                            "rebuild it with `jiancha retrieval index`", path=str(docs_path))
        if meta.get("docs_sha256") not in (None, hashlib.sha256(raw).hexdigest()):   # older indexes have none
            raise DataError("docs.jsonl was changed after the index was built (its sha256 is not the one index.json "
                            "records), so the bm25 arrays no longer describe it; rebuild it with `jiancha retrieval "
                            "index`", path=str(docs_path))
        tok = TokenizerConfig(protected=tuple(meta.get("protected", ())))
        vocab = _read_index_json(d / "vocab.json")
        try:
            bm25 = BM25Index.load(d / "bm25", BM25Config())
        except (ValueError, EOFError, OSError, KeyError) as e:   # bm25s: json, numpy, mmap and missing files
            raise DataError(f"corrupt case index ({type(e).__name__}: {e}); rebuild it with `jiancha retrieval "
                            "index`", path=str(d / "bm25")) from None
        if bm25.num_docs != len(docs):
            raise DataError(f"corrupt case index: {bm25.num_docs} documents in bm25/, {len(docs)} in docs.jsonl; "
                            "rebuild it with `jiancha retrieval index`", path=str(d / "bm25"))
        model = ChargeClassifier.load(d / "charges") if meta.get("charge_model") else None
        return cls(docs, bm25, vocab, tok, model)

    # ---------------------------------------------------------------- search
    def query_charges(self, text: str, best: Sequence[int] = (), voting: str = DEFAULT_VOTING
                      ) -> tuple[dict[str, float], bool]:
        """The query's charges with their weights, and whether its text names them: those it attributes to the
        suspect (指控…, 涉嫌…: :func:`~jiancha.retrieval.charge.stated_charges`) weigh 1 each; otherwise, by
        ``voting``: ``classifier``, the shares the index's charge classifier gives the likeliest charges
        (:meth:`~jiancha.retrieval.charge_model.ChargeClassifier.shares` of the clauses not about a prior
        conviction; an index without one falls back to ``soft-rank-text``); or the shares of the vote of its
        :data:`CHARGE_VOTERS` best matches ``best``: ``soft-rank-text``, votes weighted by rank plus one vote for
        each charge the text finds elsewhere (盗窃白酒; not 他人盗窃所得 or 接收他人电信诈骗资金, another's offence:
        :func:`~jiancha.law.charges.find_charges`), every charge by its share;
        ``soft-rank``, the same without the text's votes; ``hard-rank``, its winner alone; ``hard-uniform``, the
        most common primary charge alone."""
        from jiancha.law.charges import find_charges
        from jiancha.retrieval.charge import charge_votes, mentioned_charges, stated_charges

        named = stated_charges(text, finder())
        if named:
            return {c: 1.0 for c in named}, True
        if voting not in VOTINGS:
            raise ConfigError(f"unknown voting {voting!r}; expected one of {list(VOTINGS)}")
        if voting == "classifier":
            if self.charge_model is not None:
                return self.charge_model.shares(this_case(text)), False
            voting = "soft-rank-text"
        hard, weighting, *how = voting.split("-")
        mentioned = mentioned_charges(text, find_charges) if how == ["text"] else ()
        shares = charge_votes([self.docs[i].charges for i in best[:CHARGE_VOTERS]], weighting, mentioned)
        if hard == "hard" and shares:
            top = max(shares.values())
            return {next(c for c, v in shares.items() if v == top): 1.0}, False
        return shares, False

    def rank(self, text: str, charges: Sequence[str] | None = None, voting: str = DEFAULT_VOTING) -> Ranking:
        """The :data:`RERANK_DEPTH` best BM25 documents for ``text``, re-ranked by charge (not yet sorted)."""
        from jiancha.retrieval.charge import ChargeConfig, charge_scores, charge_tiers, expected_tiers

        if not text.strip():
            raise ConfigError("the query is empty; give the facts of a case")
        if not _CHINESE.search(text):
            raise ConfigError("the query holds no Chinese text; describe the facts of the case in Chinese (案情)")
        toks = tokenise(text, self._tok)
        qids = query_ids(toks, self._vocab)
        if any(_CONTENT_WORD.search(t) for t in toks if t in self._vocab):
            bm = np.asarray(self._bm25.scores(qids), dtype=np.float64)
            depth = min(RERANK_DEPTH, len(bm))
            top = np.argpartition(-bm, depth - 1)[:depth] if depth < len(bm) else np.arange(len(bm))
        else:   # no word of the facts indexed (抢劫, 涉嫌拐卖儿童罪): the cases of the charges it names, if any
            charges = tuple(charges) if charges is not None else tuple(finder()(text))
            bm = np.zeros(len(self.docs))
            top = np.array([i for i, d in enumerate(self.docs) if set(d.about) & set(charges)], dtype=np.int64)
            if not charges or not len(top):
                words = "、".join(t for t in toks if _CONTENT_WORD.search(t)) or text.strip()[:20]
                said = f"names no charge the indexed cases have ({'、'.join(charges)})" if charges else "names no charge"
                raise ConfigError(f"no word of the query ({words}) occurs in the facts of the indexed cases, and it "
                                  f"{said}; describe the facts in more words, or name the charge (涉嫌…罪)")
            top = top[:RERANK_DEPTH]
        top = top[np.lexsort((self._ids[top], -bm[top]))]
        doc_charges = [self.docs[i].about for i in top]
        if charges is not None:
            weights, named = {c: 1.0 for c in charges}, True
        else:
            weights, named = self.query_charges(text, top, voting)
        tiers = (charge_tiers(tuple(weights), doc_charges, ChargeConfig()) if named
                 else expected_tiers(weights, doc_charges))
        return Ranking(tuple(toks), top, charge_scores(tiers, bm[top]), weights, named, bm[top])

    def search(self, text: str, k: int = 10, *, charges: Sequence[str] | None = None,
               exclude_id: str | None = None, voting: str = DEFAULT_VOTING) -> list[SearchHit]:
        """The ``k`` best cases for ``text`` (ties by id); ``charges`` overrides the predicted query charges. A
        query that shares no word with the collection raises ConfigError."""
        if k < 1:
            raise ConfigError(f"k must be ≥ 1, got {k}")
        r = self.rank(text, charges, voting)
        top, s, weights = r.docs, r.scores, r.charges
        # a guess claims only its most likely charge(s) as shared; named charges are all shared
        top_share = max(weights.values(), default=0.0)
        likely = set(weights) if r.named else {c for c, w in weights.items() if w == top_share}
        order = np.lexsort((self._ids[top], -s))
        qset = set(r.tokens)
        out: list[SearchHit] = []
        for j in order:
            d = self.docs[int(top[j])]
            if exclude_id is not None and (d.id == exclude_id or exclude_id in d.also):
                continue
            shared = tuple(c for c in d.about if c in likely)
            passage, words = best_passage(d.fact, qset)
            out.append(SearchHit(d.id, round(float(s[j]), 4), d.charges, shared, d.decision, d.articles, passage,
                                 render_reason(shared, words, text, d.fact, guessed=not r.named,
                                               accused=not d.charges), d.also,
                                 not r.named, d.case_number, round(float(r.fact_scores[j]), 4), d.accused))
            if len(out) == k:
                break
        return out


def best_passage(fact: str, query_tokens: set[str]) -> tuple[str, list[str]]:
    """The sentence of ``fact`` containing the most distinct query words of two or more characters (first on
    ties; plain substring tests, so no sentence is re-tokenised; not an evidence formula or a lead-in such as
    经审理查明：), cut to :data:`PASSAGE_CHARS`, and those words (longest first).

    >>> best_passage("被告人驾车。被告人窃取手机一部。", {"窃取", "手机", "被告人"})
    ('被告人窃取手机一部。', ['被告人', '手机', '窃取'])
    >>> best_passage("经审理查明：\\n被告人驾车。", {"盗窃"})
    ('被告人驾车。', [])
    """
    words_all = sorted((t for t in query_tokens if _CONTENT_WORD.search(t)), key=lambda w: (-len(w), w))
    best, best_words = "", []
    for m in _SENTENCE.finditer(fact):
        sent = m.group(0).strip()
        if not sent or _EVIDENCE_FORMULA.search(sent) or sent.endswith(("：", ":")):   # a lead-in says nothing
            continue
        words = [w for w in words_all if w in sent]
        if len(words) > len(best_words) or not best:
            best, best_words = sent, words
    return (best or fact.strip())[:PASSAGE_CHARS], best_words


def render_reason(shared: Sequence[str], words: Sequence[str], query: str, fact: str, *, guessed: bool = False,
                  accused: bool = False) -> str:
    """A short reason in Chinese: shared charges (推定罪名 when the query's charges were guessed from similar cases,
    not named; 同指控罪名 when the case shares them only as the accusation the court did not find), shared
    sentencing circumstances, amounts, shared words."""
    from jiancha.law.amounts import largest, parse_amounts
    from jiancha.law.circumstances import find_circumstances

    parts = []
    if shared:
        parts.append(("推定罪名" if guessed else "同罪名") + ("（仅指控，法院未认定）：" if accused else "：")
                     + "、".join(shared))
    circ = sorted(find_circumstances(query) & find_circumstances(fact))
    if circ:
        parts.append("共同情节：" + "、".join(circ))
    qa, da = largest(parse_amounts(query)), largest(parse_amounts(fact))
    if qa is not None and da is not None:
        parts.append(f"最大金额：{render_yuan(qa)} / {render_yuan(da)}")
    words = [w for w in words if w not in FORMULA_WORDS]
    if words:
        parts.append("共同词语：" + "、".join(words[:5]))
    return "；".join(parts) or "无共同罪名、情节、金额或词语"


__all__ = ["DEFAULT_VOTING", "INDEX_FORMAT", "VOTINGS", "CaseDoc", "Ranking", "SearchHit", "SearchIndex",
           "SourceReport", "best_passage", "criminal_law_article", "fold_duplicates", "read_case_docs",
           "render_reason"]
