"""LeCaRD v1 and LeCaRDv2 loaders (official layouts).

Both datasets load into the same typed records: :class:`LecardQuery` (a query case) and
:class:`LecardDocument` (a candidate judgment, with its fields mapped onto one vocabulary:
``fact``, ``reason``, ``result``, ``qw``), plus relevance grades and per-query pools.

LeCaRD v1 (``myx666/LeCaRD``): ``data/query/query.json`` (JSON lines: ``ridx``, ``q``, ``crime``),
candidates ``candidates/<ridx>/<doc>.json`` either as a directory (``data/candidates``, ``candidates``,
``LeCaRD/data/candidates``) or the ``candidates.tar.xz`` archive, unpacked once into a cache directory
(env ``JIANCHA_CACHE``, default ``~/.cache/jiancha``); labels ``data/label/label_top30_dict.json`` and the
judged pools ``data/label/judged_pool.json``.

LeCaRDv2 (``THUIR/LeCaRDv2``): ``query/query.json`` or the union of the ``query/*_query.json`` files
(fields ``id``, ``query``, ``fact``), ``label/relevence.trec`` (``qid 0 pid label``), ``label/ranking_pool.json``
and, when present, ``candidate/<pid>.json`` (the pid is taken from the file name).
"""

from __future__ import annotations

import os
import tarfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jiancha._util.cache import resolve_cache_dir
from jiancha._util.hashing import file_sha256, stable_hash
from jiancha._util.io import read_json
from jiancha._util.jsonl import iter_jsonl
from jiancha.errors import DataError

#: LeCaRDv2 test split: query ids 5, 10, ..., 800.
LECARD_V2_TEST_IDS: tuple[str, ...] = tuple(str(i) for i in range(5, 801, 5))
#: LeCaRD v1 candidate JSON keys mapped onto the shared document fields.
LECARD_V1_FIELD_MAP: Mapping[str, str] = {"fact": "ajjbqk", "reason": "cpfxgc", "result": "pjjg", "qw": "qw"}
STOPWORD_FILE = Path("others") / "stopword.txt"
CHARGE_LIST_FILE = Path("others") / "criminal charges.txt"


@dataclass(frozen=True)
class LecardQuery:
    """One query case. ``fact`` is the fact description; ``query`` the longer query text (v2 only, else = fact)."""

    id: str
    fact: str
    query: str
    charges: tuple[str, ...] = ()


@dataclass(frozen=True)
class LecardDocument:
    """One candidate judgment; v1 fields are mapped (ajjbqk→fact, cpfxgc→reason, pjjg→result)."""

    id: str
    fact: str = ""
    reason: str = ""
    result: str = ""
    qw: str = ""
    title: str = ""
    charges: tuple[str, ...] = ()
    articles: tuple[int, ...] = ()


@dataclass(frozen=True)
class LecardDataset:
    """A loaded LeCaRD dataset.

    ``qrels``: ``{qid: {doc id: grade}}`` in file order (the v1 official NDCG depends on key order).
    ``pools``: ``{qid: [doc ids]}`` of the candidates to rank per query (v1: judged or all 100; v2: ranking pool).
    ``documents``: candidates by id (empty for LeCaRDv2 without a candidate directory).
    """

    name: str                      # "lecard-v1" | "lecard-v2"
    root: Path
    queries: tuple[LecardQuery, ...]
    qrels: Mapping[str, Mapping[str, int]]
    pools: Mapping[str, tuple[str, ...]]
    documents: Mapping[str, LecardDocument] = field(default_factory=dict)
    stopwords_path: Path | None = None
    charge_list_path: Path | None = None
    fingerprint: str = ""

    def query(self, qid: str) -> LecardQuery:
        for q in self.queries:
            if q.id == qid:
                return q
        raise DataError(f"unknown query id {qid!r}; the dataset has {len(self.queries)} queries")


def _read_json_file(path: Path, what: str) -> Any:
    if not path.exists():
        raise DataError(f"{what} not found; expected the official layout (see `jiancha data info`)", path=str(path))
    return read_json(path)


def _as_str_list(value: Any, path: Path, fld: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise DataError(f"expected a list, got {type(value).__name__}", path=str(path), field=fld)
    return tuple(str(v) for v in value)


# ----------------------------------------------------------------------------- LeCaRD v1

def _v1_data(root: Path) -> Path:
    for cand in (root / "data", root / "LeCaRD" / "data", root):
        if (cand / "query" / "query.json").exists():
            return cand
    raise DataError("LeCaRD v1 query file not found: expected data/query/query.json under the data directory "
                    "(the layout of myx666/LeCaRD)", path=str(root))


def _v1_candidates_dir(root: Path, data: Path, cache: Path | None) -> Path:
    for cand in (data / "candidates", root / "candidates", root / "LeCaRD" / "data" / "candidates"):
        if cand.is_dir() and any(p.is_dir() for p in cand.iterdir()):
            return cand
    archive = next((p for p in (root / "candidates.tar.xz", data / "candidates.tar.xz") if p.exists()), None)
    if archive is None:
        raise DataError("LeCaRD v1 candidates not found: expected a directory data/candidates/<ridx>/<doc>.json "
                        "or the archive candidates.tar.xz", path=str(root))
    return unpack_archive(archive, cache)


def unpack_archive(archive: Path, cache: Path | None = None) -> Path:
    """Unpack ``candidates.tar.xz`` once into ``<cache>/lecard_v1/<sha>/`` and return its candidates directory."""
    key = file_sha256(archive)[:16]
    dest = resolve_cache_dir(cache) / "lecard_v1" / key
    done = dest / ".complete"
    if not done.exists():
        dest.mkdir(parents=True, exist_ok=True)
        with tarfile.open(archive, "r:xz") as tf:
            tf.extractall(dest, filter="data")
        done.write_text("ok\n")
    for cand in (dest / "LeCaRD" / "data" / "candidates", dest / "data" / "candidates", dest / "candidates"):
        if cand.is_dir():
            return cand
    raise DataError("archive has no candidates/ directory (expected LeCaRD/data/candidates/<ridx>/<doc>.json)",
                    path=str(archive))


def parse_v1_candidate(obj: Any, doc_id: str, path: Path) -> LecardDocument:
    """Map one LeCaRD v1 candidate JSON onto a :class:`LecardDocument`."""
    if not isinstance(obj, dict):
        raise DataError(f"expected a JSON object, got {type(obj).__name__}", path=str(path))
    vals = {}
    for ours, theirs in LECARD_V1_FIELD_MAP.items():
        v = obj.get(theirs, "")
        if v is None:
            v = ""
        if not isinstance(v, str):
            raise DataError(f"expected a string, got {type(v).__name__}", path=str(path), field=theirs)
        vals[ours] = v.strip()
    charges = obj.get("charge") or ()
    return LecardDocument(id=doc_id, title=str(obj.get("ajName") or ""), charges=tuple(charges), **vals)


def read_v1_labels(lpath: Path) -> dict[str, dict[str, int]]:
    """LeCaRD v1 graded labels (``label_top30_dict.json``: ``{query ridx: {doc id: grade 0-3}}``), key order kept."""
    labels_raw = _read_json_file(lpath, "LeCaRD v1 labels")
    if not isinstance(labels_raw, dict):
        raise DataError("expected {query id: {doc id: grade}}", path=str(lpath))
    qrels: dict[str, dict[str, int]] = {}
    for qid, grades in labels_raw.items():
        if not isinstance(grades, dict):
            raise DataError("expected {doc id: grade}", path=str(lpath), field=str(qid))
        try:
            qrels[str(qid)] = {str(d): int(g) for d, g in grades.items()}
        except (TypeError, ValueError):
            raise DataError("grades must be integers 0-3", path=str(lpath), field=str(qid)) from None
    return qrels


#: LeCaRDv2 qrels file names under ``label/``: the official one, then the name the bundled fictional corpus uses
#: (so that no file of the project carries an official dataset file's name).
V2_QRELS_FILES = ("relevence.trec", "qrels.trec")


def v2_qrels_path(root: Path) -> Path:
    """The LeCaRDv2 qrels file of a data folder (``label/relevence.trec``, else ``label/qrels.trec``)."""
    for name in V2_QRELS_FILES:
        if (root / "label" / name).is_file():
            return root / "label" / name
    raise DataError(f"LeCaRDv2 qrels not found (label/{' or label/'.join(V2_QRELS_FILES)})",
                    path=str(root / "label"))


def load_lecard_qrels(name: str, data_dir: str | os.PathLike, *, setting: str = "zero-shot"
                      ) -> dict[str, dict[str, int]]:
    """Only the relevance labels (no candidates needed): v1 ``label_top30_dict.json`` (file order kept),
    v2 ``label/relevence.trec`` or ``label/qrels.trec`` (restricted to ids 5, 10, ..., 800 for ``setting='test'``)."""
    root = Path(data_dir)
    if name == "lecard-v1":
        return read_v1_labels(_v1_data(root) / "label" / "label_top30_dict.json")
    if name == "lecard-v2":
        if setting not in ("zero-shot", "test"):
            raise DataError(f"unknown LeCaRDv2 setting {setting!r}; expected 'zero-shot' or 'test'")
        qrels = read_qrels_file(v2_qrels_path(root))
        if setting == "test":
            test = set(LECARD_V2_TEST_IDS)
            qrels = {q: g for q, g in qrels.items() if q in test}
        return qrels
    raise DataError(f"unknown dataset {name!r}; expected one of {list(DATASETS)}")


def load_lecard_v1(data_dir: str | os.PathLike, *, pool: str = "judged",
                   cache: str | os.PathLike | None = None) -> LecardDataset:
    """Load LeCaRD v1. ``pool``: ``judged`` (official: the judged candidates) or ``all`` (all 100 per query)."""
    if pool not in ("judged", "all"):
        raise DataError(f"unknown LeCaRD v1 pool {pool!r}; expected 'judged' or 'all'")
    root = Path(data_dir)
    data = _v1_data(root)
    qpath = data / "query" / "query.json"
    queries = []
    for lineno, obj in iter_jsonl(qpath):
        for key in ("ridx", "q"):
            if key not in obj:
                raise DataError("missing field", path=str(qpath), line=lineno, field=key)
        if not isinstance(obj["q"], str):
            raise DataError("expected a string", path=str(qpath), line=lineno, field="q")
        crime = obj.get("crime") or []
        queries.append(LecardQuery(id=str(obj["ridx"]), fact=obj["q"].strip(), query=obj["q"].strip(),
                                   charges=_as_str_list(crime, qpath, "crime")))
    lpath = data / "label" / "label_top30_dict.json"
    qrels = read_v1_labels(lpath) if lpath.exists() else {}
    cdir = _v1_candidates_dir(root, data, Path(cache) if cache else None)
    all_pools: dict[str, tuple[str, ...]] = {}
    documents: dict[str, LecardDocument] = {}
    for q in queries:
        qdir = cdir / q.id
        if not qdir.is_dir():
            raise DataError(f"no candidate directory for query {q.id}", path=str(qdir))
        files = sorted(qdir.glob("*.json"), key=lambda p: (len(p.stem), p.stem))
        all_pools[q.id] = tuple(p.stem for p in files)
        for p in files:
            if p.stem not in documents:
                documents[p.stem] = parse_v1_candidate(_read_json_file(p, "candidate"), p.stem, p)
    if pool == "judged":
        jpath = data / "label" / "judged_pool.json"
        if jpath.exists():
            jraw = _read_json_file(jpath, "judged pool")
            pools = {str(q): _as_str_list(v, jpath, str(q)) for q, v in jraw.items()}
        else:  # only the labelled queries can be re-ranked then
            pools = {q: tuple(g) for q, g in qrels.items()}
        missing = [q.id for q in queries if q.id not in pools]
        if missing and jpath.exists():
            raise DataError(f"judged pool lacks queries {missing[:5]}", path=str(jpath))
        for qid, ids in pools.items():
            unknown = [d for d in ids if d not in set(all_pools.get(qid, ()))]
            if unknown:
                raise DataError(f"judged ids {unknown[:3]} are not candidates of query {qid}", path=str(cdir / qid))
    else:
        pools = all_pools
    others = data / STOPWORD_FILE
    charges = data / CHARGE_LIST_FILE
    fp = stable_hash({"q": file_sha256(qpath), "l": file_sha256(lpath) if lpath.exists() else None,
                      "pools": pools, "n_docs": len(documents), "pool": pool})
    return LecardDataset(name="lecard-v1", root=root, queries=tuple(queries), qrels=qrels, pools=pools,
                         documents=documents, stopwords_path=others if others.exists() else None,
                         charge_list_path=charges if charges.exists() else None, fingerprint=fp)


# ----------------------------------------------------------------------------- LeCaRDv2

def read_qrels_file(path: str | os.PathLike) -> dict[str, dict[str, int]]:
    """Read TREC qrels ``qid iter docid grade`` (whitespace separated) keeping file order."""
    p = Path(path)
    out: dict[str, dict[str, int]] = {}
    with p.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 4:
                raise DataError(f"expected 4 columns 'qid 0 docid grade', got {len(parts)}: {line.strip()!r}",
                                path=str(p), line=lineno)
            try:
                grade = int(parts[3])
            except ValueError:
                raise DataError(f"grade {parts[3]!r} is not an integer", path=str(p), line=lineno,
                                field="grade") from None
            out.setdefault(parts[0], {})[parts[2]] = grade
    return out


def v2_query_files(qdir: Path) -> list[Path]:
    """The LeCaRDv2 query files of a ``query/`` folder: ``query.json`` when present, else every ``*_query.json``."""
    if (qdir / "query.json").exists():
        return [qdir / "query.json"]
    files = sorted(p for p in qdir.glob("*query*.json") if p.name != "query_allcontext.json")
    if not files:
        raise DataError("no LeCaRDv2 query file: expected query/query.json or query/*_query.json", path=str(qdir))
    return files


def parse_v2_candidate(obj: Any, pid: str, path: Path) -> LecardDocument:
    if not isinstance(obj, dict):
        raise DataError(f"expected a JSON object, got {type(obj).__name__}", path=str(path))
    vals = {}
    for key in ("fact", "reason", "result", "qw"):
        v = obj.get(key) or ""
        if not isinstance(v, str):
            raise DataError(f"expected a string, got {type(v).__name__}", path=str(path), field=key)
        vals[key] = v.strip()
    charges = obj.get("charge") or []
    articles = obj.get("article") or []
    if not isinstance(charges, list):
        raise DataError("expected a list of charge names", path=str(path), field="charge")
    try:
        arts = tuple(int(a) for a in articles)
    except (TypeError, ValueError):
        raise DataError(f"expected integers, got {articles!r}", path=str(path), field="article") from None
    return LecardDocument(id=pid, charges=tuple(str(c) for c in charges), articles=arts, **vals)


def load_lecard_v2(data_dir: str | os.PathLike, *, setting: str = "zero-shot",
                   load_candidates: bool = True) -> LecardDataset:
    """Load LeCaRDv2. ``setting``: ``zero-shot`` (all queries) or ``test`` (ids 5, 10, ..., 800).

    Candidates are read from ``candidate/<pid>.json`` when that directory holds any; otherwise ``documents`` is empty
    (qrels and pools still load, so external runs can be scored).
    """
    if setting not in ("zero-shot", "test"):
        raise DataError(f"unknown LeCaRDv2 setting {setting!r}; expected 'zero-shot' or 'test'")
    root = Path(data_dir)
    if not (root / "query").is_dir():
        raise DataError("LeCaRDv2 query/ directory not found (layout of THUIR/LeCaRDv2)", path=str(root))
    seen: dict[str, LecardQuery] = {}
    for qpath in v2_query_files(root / "query"):
        for lineno, obj in iter_jsonl(qpath):
            if "id" not in obj:
                raise DataError("missing field", path=str(qpath), line=lineno, field="id")
            fact, query = obj.get("fact") or "", obj.get("query") or ""
            if not isinstance(fact, str) or not isinstance(query, str):
                raise DataError("expected strings", path=str(qpath), line=lineno, field="fact/query")
            qid = str(obj["id"])
            seen.setdefault(qid, LecardQuery(id=qid, fact=fact.strip(), query=query.strip() or fact.strip()))
    queries = sorted(seen.values(), key=lambda q: (len(q.id), q.id))
    if setting == "test":
        test = set(LECARD_V2_TEST_IDS)
        queries = [q for q in queries if q.id in test]
    qrels = load_lecard_qrels("lecard-v2", root, setting=setting)
    qids = {q.id for q in queries}
    ppath = root / "label" / "ranking_pool.json"
    pools: dict[str, tuple[str, ...]] = {}
    if ppath.exists():
        for lineno, obj in iter_jsonl(ppath):
            if "qid" not in obj or "rank_doc_id" not in obj:
                raise DataError("expected fields 'qid' and 'rank_doc_id'", path=str(ppath), line=lineno)
            pools[str(obj["qid"])] = _as_str_list(obj["rank_doc_id"], ppath, "rank_doc_id")
    documents: dict[str, LecardDocument] = {}
    cdir = root / "candidate"
    if load_candidates and cdir.is_dir():
        files = sorted(cdir.glob("*.json"), key=lambda p: (len(p.stem), p.stem))
        for p in files:
            documents[p.stem] = parse_v2_candidate(_read_json_file(p, "candidate"), p.stem, p)
    others, charges = root / STOPWORD_FILE, root / CHARGE_LIST_FILE
    fp = stable_hash({"qrels": file_sha256(v2_qrels_path(root)), "queries": sorted(qids), "n_docs": len(documents),
                      "docs": stable_hash(sorted(documents)), "setting": setting})
    return LecardDataset(name="lecard-v2", root=root, queries=tuple(queries), qrels=qrels, pools=pools,
                         documents=documents, stopwords_path=others if others.exists() else None,
                         charge_list_path=charges if charges.exists() else None, fingerprint=fp)


def load_lecard(name: str, data_dir: str | os.PathLike, *, pool: str = "judged", setting: str = "zero-shot",
                cache: str | os.PathLike | None = None) -> LecardDataset:
    """Load ``lecard-v1`` or ``lecard-v2`` by name."""
    if name == "lecard-v1":
        return load_lecard_v1(data_dir, pool=pool, cache=cache)
    if name == "lecard-v2":
        return load_lecard_v2(data_dir, setting=setting)
    raise DataError(f"unknown dataset {name!r}; expected one of {list(DATASETS)}")


DATASETS: tuple[str, ...] = ("lecard-v1", "lecard-v2")


def read_word_list(path: str | os.PathLike) -> tuple[str, ...]:
    """One word per line (stopwords, charge names), stripped, blank lines skipped, order kept."""
    with open(path, encoding="utf-8") as fh:
        return tuple(w for w in (line.strip() for line in fh) if w)


def read_charge_list(path: str | os.PathLike) -> tuple[str, ...]:
    """The dataset's ``criminal charges.txt`` as charge names ending in 罪."""
    return tuple(w if w.endswith("罪") else w + "罪" for w in read_word_list(path))


