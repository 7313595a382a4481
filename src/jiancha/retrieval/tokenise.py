"""Chinese tokenisation for lexical retrieval: rjieba (HMM off), stopwords, optional charge-name protection.

``tokenise`` is a pure function of the text and a :class:`TokenizerConfig`. ``encode_corpus`` turns a corpus into
integer ids over a vocabulary (``TokenizedCorpus``: one flat ``int32`` array plus offsets), cached per corpus as
``tokens.npz`` + ``vocab.json`` under a key that hashes the texts and every tokeniser setting.
"""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from jiancha._util.hashing import stable_hash, text_hash
from jiancha._util.io import atomic_write_bytes, atomic_write_text

#: Word frequency given to protected words (charge names) so that jieba keeps them whole.
PROTECTED_WORD_FREQ = 10_000_000


@dataclass(frozen=True)
class TokenizerConfig:
    """What defines a tokenisation. ``protected``: words kept as one token (e.g. charge names such as 交通肇事罪)."""

    stopwords: frozenset[str] = frozenset()
    protected: tuple[str, ...] = ()
    hmm: bool = False
    lowercase: bool = True

    def key(self) -> str:
        return stable_hash({"stop": sorted(self.stopwords), "prot": sorted(self.protected), "hmm": self.hmm,
                            "lower": self.lowercase, "v": 1})

    def describe(self) -> dict:
        return {"segmenter": "rjieba", "hmm": self.hmm, "n_stopwords": len(self.stopwords),
                "n_protected": len(self.protected), "lowercase": self.lowercase, "key": self.key()}


@lru_cache(maxsize=8)
def _segmenter(protected: tuple[str, ...]):
    import rjieba

    if not protected:
        return rjieba.cut
    jb = rjieba.Jieba()
    for w in protected:
        jb.add_word(w, PROTECTED_WORD_FREQ, None)
    return jb.cut


def _is_content(tok: str) -> bool:
    """True when the token has a letter, digit or CJK character (drops punctuation and whitespace)."""
    return any(unicodedata.category(c)[0] in "LN" for c in tok)


def tokenise(text: str, config: TokenizerConfig = TokenizerConfig()) -> list[str]:
    """Segment ``text`` with rjieba (HMM per config), drop stopwords, whitespace and punctuation-only tokens.

    >>> tokenise("被告人犯盗窃罪。", TokenizerConfig(stopwords=frozenset({"犯"})))
    ['被告人', '盗窃罪']
    """
    cut = _segmenter(tuple(sorted(config.protected)))
    if config.lowercase:
        text = text.lower()
    stop = config.stopwords
    return [t for t in cut(text, config.hmm) if t not in stop and not t.isspace() and _is_content(t)]


@dataclass(frozen=True)
class TokenizedCorpus:
    """Documents as token ids: document ``i`` is ``ids[offsets[i]:offsets[i+1]]``; ``vocab`` maps token → id."""

    ids: np.ndarray
    offsets: np.ndarray
    vocab: dict[str, int] = field(compare=False)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def doc(self, i: int) -> np.ndarray:
        return self.ids[self.offsets[i]:self.offsets[i + 1]]

    def as_lists(self) -> list[list[int]]:
        return [self.doc(i).tolist() for i in range(len(self))]

    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)


def encode_tokens(docs: Iterable[Sequence[str]]) -> TokenizedCorpus:
    """Assign ids to tokens in order of first appearance."""
    vocab: dict[str, int] = {}
    flat: list[int] = []
    offsets = [0]
    for toks in docs:
        for t in toks:
            i = vocab.get(t)
            if i is None:
                i = vocab[t] = len(vocab)
            flat.append(i)
        offsets.append(len(flat))
    return TokenizedCorpus(np.asarray(flat, dtype=np.int32), np.asarray(offsets, dtype=np.int64), vocab)


def query_ids(tokens: Sequence[str], vocab: dict[str, int]) -> list[int]:
    """Token ids of a query, out-of-vocabulary tokens dropped, repeats kept (each counts once per occurrence)."""
    return [vocab[t] for t in tokens if t in vocab]


def corpus_key(texts: Sequence[str], config: TokenizerConfig) -> str:
    return stable_hash({"texts": [text_hash(t) for t in texts], "tok": config.key()})


def encode_corpus(texts: Sequence[str], config: TokenizerConfig, *, cache: str | os.PathLike | None = None,
                  progress: Callable[[Iterable[str]], Iterable[str]] | None = None) -> TokenizedCorpus:
    """Tokenise and encode ``texts``; with ``cache`` (a directory) reuse ``<cache>/<key>/tokens.npz``."""
    key = corpus_key(texts, config)
    d = Path(cache) / key if cache is not None else None
    if d is not None and (d / "tokens.npz").exists() and (d / "vocab.json").exists():
        with np.load(d / "tokens.npz") as z:
            ids, offsets = z["ids"], z["offsets"]
        vocab = json.loads((d / "vocab.json").read_text(encoding="utf-8"))
        return TokenizedCorpus(ids, offsets, vocab)
    it = progress(texts) if progress is not None else texts
    corpus = encode_tokens(tokenise(t, config) for t in it)
    if d is not None:
        import io

        buf = io.BytesIO()
        np.savez(buf, ids=corpus.ids, offsets=corpus.offsets)
        atomic_write_bytes(d / "tokens.npz", buf.getvalue())
        atomic_write_text(d / "vocab.json", json.dumps(corpus.vocab, ensure_ascii=False))
    return corpus
