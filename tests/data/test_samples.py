"""The bundled fictional sample data: PDP sample set and mini retrieval corpus (``jiancha/data``)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from jiancha.datasets.records import PDPRecord
from jiancha.law.articles import canonical_sort, parse_canonical
from jiancha.law.cpl import decision_from_articles, detect_numbering
from jiancha.law.labels import LEVEL2_LABELS

DATA = Path(str(resources.files("jiancha").joinpath("data")))
PDP_SAMPLE = DATA / "pdp_sample.jsonl"
MINI = DATA / "mini_retrieval"
SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"

PDP_FIELDS = {"id", "meta", "person_info", "procedure", "fact", "relevant_articles", "decision",
              "raw_reasoning_and_decision", "source_url"}
# Same shape as the canonical form, written independently of jiancha.law so that both must agree.
CANONICAL_SHAPE = re.compile(r"^(cl|cpl|cpr):第[零一二三四五六七八九十百千]+条(之[一二三四五六七八九十]+)?"
                             r"(第[一二三四五六七八九十]+款)?(第（[一二三四五六七八九十]+）项)?$")


def _rows() -> list[dict]:
    with PDP_SAMPLE.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _load_script(name: str):
    """Import ``scripts/<name>.py`` (not a package) as a module."""
    path = SCRIPTS / f"{name}.py"
    if not path.exists():  # pragma: no cover - scripts/ is not shipped in wheels
        pytest.skip(f"{path} not present")
    mod_name = f"_jiancha_script_{name}"
    if mod_name in sys.modules:
        return sys.modules[mod_name]
    spec = importlib.util.spec_from_file_location(mod_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


# ----------------------------------------------------------------------------------------------- PDP sample

def test_pdp_sample_records_have_every_field():
    rows = _rows()
    assert len(rows) == 60
    for i, row in enumerate(rows, 1):
        assert set(row) == PDP_FIELDS, f"line {i}"
        assert set(row["meta"]) == {"date", "province"}, f"line {i}"
        rec = PDPRecord.from_dict(row)
        assert rec.to_dict() == row, f"line {i}: does not round-trip through PDPRecord"
        for field in ("id", "person_info", "procedure", "fact", "raw_reasoning_and_decision", "source_url"):
            assert isinstance(row[field], str) and row[field].strip(), f"line {i}: empty {field}"
        assert re.fullmatch(r"20(1[4-9]|2[0-5])-\d\d-\d\d", rec.date), f"line {i}: date {rec.date}"
        assert re.fullmatch(r".+(省|自治区|市)", rec.province), f"line {i}: province {rec.province}"
        assert row["source_url"].startswith("https://www.example.org/"), f"line {i}"


def test_pdp_sample_label_counts():
    counts = Counter(row["decision"] for row in _rows())
    assert dict(counts) == {"起诉": 24, "相对不起诉": 12, "法定不起诉": 12, "存疑不起诉": 12}
    assert set(counts) <= set(LEVEL2_LABELS)


def test_pdp_sample_ids_unique_and_both_bracket_styles():
    ids = [row["id"] for row in _rows()]
    assert len(set(ids)) == len(ids)
    assert any("〔" in i for i in ids) and any("[" in i for i in ids)
    assert all(re.fullmatch(r"某检\w*刑(不)?诉[〔\[]\d{4}[〕\]]\d+号", i) for i in ids)


def test_pdp_sample_articles_are_canonical_and_ordered():
    for row in _rows():
        arts = row["relevant_articles"]
        assert arts, row["id"]
        assert len(set(arts)) == len(arts), row["id"]
        for a in arts:
            assert CANONICAL_SHAPE.match(a), f"{row['id']}: {a}"
            assert parse_canonical(a).canonical() == a, f"{row['id']}: {a}"
        assert canonical_sort(arts) == arts, row["id"]
        laws = [a.split(":")[0] for a in arts]
        assert laws == sorted(laws, key=["cl", "cpl", "cpr"].index), row["id"]


def test_pdp_sample_decision_article_matches_label_and_numbering():
    """The cited CPL decision provision gives the label, in the numbering the signature date implies."""
    rows = _rows()
    old = 0
    for row in rows:
        refs = [parse_canonical(a) for a in row["relevant_articles"]]
        numbering = detect_numbering(row["meta"]["date"], refs)
        expected = "2012" if row["meta"]["date"] < "2018-10-26" else "2018"
        old += expected == "2012"
        assert numbering == expected, row["id"]
        got = decision_from_articles(refs, numbering)
        assert got.decision is not None and got.decision.value == row["decision"], (row["id"], got)
    assert 15 <= old <= 25  # about a third use 2012-CPL numbers


def test_pdp_sample_inputs_do_not_leak_the_label():
    for row in _rows():
        text = row["person_info"] + row["procedure"] + row["fact"]
        for word in ("被不起诉人", "被告人", "不起诉决定", "提起公诉", "相对不起诉", "法定不起诉", "存疑不起诉"):
            assert word not in text, f"{row['id']}: {word}"


def test_pdp_sample_shape_and_coverage():
    rows = _rows()
    for row in rows:
        assert 80 <= len(row["person_info"]) <= 300, row["id"]
        assert 100 <= len(row["procedure"]) <= 400, row["id"]
        assert 200 <= len(row["fact"]) <= 900, row["id"]
        assert row["person_info"].startswith("犯罪嫌疑人")
        assert "移送审查起诉" in row["procedure"]
        if row["decision"] == "存疑不起诉":
            assert "移送审查起诉认定" in row["fact"], row["id"]
        else:
            assert "认定上述事实的证据如下：1." in row["fact"], row["id"]
    returns = Counter((row["decision"], row["procedure"].count("退回")) for row in rows)
    assert returns[("存疑不起诉", 2)] == 11 and returns[("存疑不起诉", 1)] == 1  # IENP: typically two
    assert returns[("起诉", 2)] == 2  # two supplementary investigations alone do not give the label away
    assert len({row["meta"]["province"] for row in rows}) >= 12
    years = {int(row["meta"]["date"][:4]) for row in rows}
    assert min(years) == 2014 and max(years) == 2025


def test_pdp_sample_is_what_the_script_generates():
    script = _load_script("make_pdp_sample")
    assert script.render_jsonl(script.generate()) == PDP_SAMPLE.read_text(encoding="utf-8")


def test_pdp_sample_loads_with_load_pdp():
    from jiancha.datasets.pdp import load_pdp

    records = load_pdp("sample")
    assert len(records) == 60
    assert all(isinstance(r, PDPRecord) for r in records)
    assert [r.to_dict() for r in records] == _rows()


# ----------------------------------------------------------------------------------------- mini retrieval

def _trec(path: Path) -> list[tuple[str, str, str, int]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        assert len(parts) == 4, line
        out.append((parts[0], parts[1], parts[2], int(parts[3])))
    return out


def test_mini_retrieval_files_parse():
    queries = [json.loads(line) for line in (MINI / "query" / "test_query.json").read_text("utf-8").splitlines()]
    assert len(queries) == 12
    for q in queries:
        assert set(q) == {"id", "query", "fact"} and isinstance(q["id"], int)
        assert q["fact"] in q["query"]
    assert [q["id"] for q in queries] == list(range(5, 61, 5))
    docs = {}
    for p in (MINI / "candidate").glob("*.json"):
        d = json.loads(p.read_text(encoding="utf-8"))
        assert set(d) == {"pid", "qw", "fact", "reason", "result", "charge", "article"}, p.name
        assert str(d["pid"]) == p.stem
        assert all(isinstance(a, int) for a in d["article"]) and d["article"]
        assert isinstance(d["charge"], list) and d["charge"]
        assert d["fact"] in d["qw"] and d["reason"] in d["qw"] and d["result"] in d["qw"]
        docs[p.stem] = d
    assert len(docs) >= 240
    charges = set((MINI / "others" / "criminal charges.txt").read_text("utf-8").split())
    assert {c for d in docs.values() for c in d["charge"]} == charges
    assert "的" in (MINI / "others" / "stopword.txt").read_text("utf-8").split()
    size = sum(p.stat().st_size for p in MINI.rglob("*") if p.is_file())
    assert size < 1.5 * 2**20


def test_mini_retrieval_qrels_pools_and_grades():
    docs = {p.stem for p in (MINI / "candidate").glob("*.json")}
    qrels = _trec(MINI / "label" / "qrels.trec")
    gold = _trec(MINI / "label" / "qrels_gold.trec")
    assert all(z == "0" and 0 <= g <= 3 for _, z, _, g in qrels)
    assert {pid for _, _, pid, _ in qrels} <= docs
    assert gold == [r for r in qrels if r[3] >= 2]
    pools = {str(o["qid"]): o["rank_doc_id"]
             for o in map(json.loads, (MINI / "label" / "ranking_pool.json").read_text("utf-8").splitlines())}
    assert set(pools) == {q for q, *_ in qrels} and len(pools) == 12
    by_query: dict[str, Counter] = {}
    for q, _, pid, g in qrels:
        by_query.setdefault(q, Counter())[g] += 1
        assert int(pid) in pools[q], (q, pid)
    for q, pool in pools.items():
        assert len(pool) == 100 == len(set(pool)) and {str(p) for p in pool} <= docs
        c = by_query[q]
        assert 27 <= sum(c.values()) <= 31, (q, c)
        assert 3 <= c[3] <= 6 and 4 <= c[2] <= 8 and c[1] >= 3 and c[0] >= 5, (q, c)


def test_mini_retrieval_grades_follow_charges():
    """Grade >= 1 means the document shares the query's charge; judged 0s have another charge."""
    docs = {p.stem: json.loads(p.read_text("utf-8")) for p in (MINI / "candidate").glob("*.json")}
    by_query: dict[str, list[tuple[str, int]]] = {}
    for q, _, pid, g in _trec(MINI / "label" / "qrels.trec"):
        by_query.setdefault(q, []).append((pid, g))
    for q, judged in by_query.items():
        (charge,) = {docs[pid]["charge"][0] for pid, g in judged if g == 3}
        for pid, g in judged:
            assert (docs[pid]["charge"][0] == charge) == (g >= 1), (q, pid, g)


def test_mini_retrieval_is_what_the_script_generates(tmp_path):
    script = _load_script("make_mini_retrieval")
    script.main(tmp_path / "mini")
    made = {p.relative_to(tmp_path / "mini"): p.read_bytes() for p in (tmp_path / "mini").rglob("*") if p.is_file()}
    bundled = {p.relative_to(MINI): p.read_bytes() for p in MINI.rglob("*") if p.is_file()}
    assert made.keys() == bundled.keys()
    assert all(made[k] == bundled[k] for k in made)


def test_mini_retrieval_loads_with_lecard_v2_loader():
    from jiancha.datasets.lecard import load_lecard_v2

    ds = load_lecard_v2(MINI)
    assert len(ds.queries) == 12 and len(ds.documents) >= 240
    assert all(pid in ds.documents for grades in ds.qrels.values() for pid in grades)
    assert len(load_lecard_v2(MINI, setting="test").queries) == 12
