"""Case search over a persisted index: sources, ranking, passages, reasons, the CLI and the precedents API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jiancha.errors import ConfigError
from jiancha.retrieval.search import CaseDoc, SearchIndex, best_passage, read_case_docs, render_reason

MINI = Path(__file__).resolve().parents[2] / "src" / "jiancha" / "data" / "mini_retrieval"


@pytest.fixture(scope="module")
def mini_index(tmp_path_factory):
    d = tmp_path_factory.mktemp("idx")
    SearchIndex.build(read_case_docs(MINI / "candidate")).save(d)
    return d


def test_reads_lecard_v2_candidates_with_charges_sentence_articles():
    docs = {d.id: d for d in read_case_docs(MINI / "candidate")}
    assert len(docs) == 248
    obj = json.loads((MINI / "candidate" / "1874068.json").read_text(encoding="utf-8"))
    d = docs["1874068"]
    assert d.charges[0] == obj["charge"][0] and d.fact == obj["fact"]
    assert d.articles == tuple(f"cl:{a}" for a in obj["article"])
    assert d.decision.startswith("有期徒刑")


def test_reads_pdp_jsonl_and_txt_folders(tmp_path):
    (tmp_path / "x.jsonl").write_text(
        json.dumps({"id": "a1", "procedure": "以涉嫌盗窃罪移送审查起诉", "fact": "窃取手机一部",
                    "decision": "相对不起诉", "relevant_articles": ["cl:第二百六十四条"]}, ensure_ascii=False) + "\n")
    (d,) = read_case_docs(tmp_path / "x.jsonl")
    assert (d.id, d.charges, d.decision, d.articles) == ("a1", ("盗窃罪",), "相对不起诉", ("cl:第二百六十四条",))
    (tmp_path / "txt").mkdir()
    (tmp_path / "txt" / "c9.txt").write_text("公诉机关指控被告人犯诈骗罪。", encoding="utf-8")
    (t,) = read_case_docs(tmp_path / "txt")
    assert t.id == "c9" and t.charges == ("诈骗罪",)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="holds no .json or .txt"):
        list(read_case_docs(tmp_path / "empty"))
    with pytest.raises(ConfigError, match="neither a folder of documents nor a .jsonl file"):
        list(read_case_docs(tmp_path / "missing"))


def test_search_puts_same_charge_cases_first_with_passage_and_reason(mini_index):
    idx = SearchIndex.load(mini_index)
    hits = idx.search("被告人深夜撬门进入被害人家中，窃取现金人民币3000元", 5)
    assert len(hits) == 5 and all(h.shared_charges == ("盗窃罪",) for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert all(h.passage and h.passage in next(d.fact for d in idx.docs if d.id == h.id) for h in hits)
    assert all(h.reason.startswith("同罪名：盗窃罪") for h in hits)
    assert [h.id for h in idx.search("被告人深夜撬门进入被害人家中，窃取现金人民币3000元", 5)] == [h.id for h in hits]
    # explicit charges override the prediction
    fraud = idx.search("被告人深夜撬门进入被害人家中，窃取现金人民币3000元", 3, charges=("诈骗罪",))
    assert all("诈骗罪" in h.charges for h in fraud)


def test_passage_and_reason_are_pure():
    p, words = best_passage("被告人驾车。被告人窃取手机一部。", {"窃取", "手机", "车"})
    assert p == "被告人窃取手机一部。" and set(words) == {"窃取", "手机"}
    assert render_reason(("盗窃罪",), ["手机"], "自首，盗窃3000元", "系自首，窃得5000元") == \
        "同罪名：盗窃罪；共同情节：自首；金额：3000元 / 5000元；共同词语：手机"
    assert render_reason((), [], "", "") == "文本相似"


def test_load_refuses_a_folder_that_is_no_index(tmp_path):
    with pytest.raises(ConfigError, match="jiancha retrieval index"):
        SearchIndex.load(tmp_path)


def test_cli_index_and_search(tmp_path):
    from jiancha.cli.main import app

    r = CliRunner()
    res = r.invoke(app, ["retrieval", "index", str(MINI / "candidate"), "--out", str(tmp_path / "ix")])
    assert res.exit_code == 0 and "indexed 248 documents" in res.output
    res = r.invoke(app, ["retrieval", "search", "被告人醉酒驾驶机动车", "--index", str(tmp_path / "ix"), "-k", "2",
                         "--json"])
    assert res.exit_code == 0, res.output
    hits = [json.loads(x) for x in res.output.splitlines()]
    assert len(hits) == 2 and all("危险驾驶罪" in h["charges"] for h in hits)


def test_precedents_api(mini_index):
    from jiancha.retrieval import precedents

    idx = precedents.load_index(mini_index)
    hits = precedents.search(idx, "被告人冒充客服拨打电话骗取被害人钱款", 3)
    assert len(hits) == 3 and isinstance(hits[0], precedents.SearchHit)
    assert all(isinstance(d, CaseDoc) for d in idx.docs[:3])


def test_identical_copies_are_indexed_once_and_listed(tmp_path):
    # LeCaRD v1 keeps a judgment once per query pool: <query>/<id>.json files with the same content
    obj = {"ajjbqk": "被告人张某醉酒驾驶小型轿车，血液中乙醇含量为180毫克/100毫升。", "cpfxgc": "其行为已构成危险驾驶罪。",
           "pjjg": "被告人张某犯危险驾驶罪，判处拘役二个月，并处罚金人民币三千元。"}
    other = {"ajjbqk": "被告人李某醉酒驾驶二轮摩托车，血液中乙醇含量为95毫克/100毫升。", "cpfxgc": "其行为已构成危险驾驶罪。",
             "pjjg": "被告人李某无罪。如不服本判决，可在接到判决书的第二日起十日内提出上诉。"}
    for q, name, o in (("1972", "14776", obj), ("5156", "14776", obj), ("5156", "9", other)):
        (tmp_path / "cand" / q).mkdir(parents=True, exist_ok=True)
        (tmp_path / "cand" / q / f"{name}.json").write_text(json.dumps(o, ensure_ascii=False), encoding="utf-8")
    SearchIndex.build(read_case_docs(tmp_path / "cand")).save(tmp_path / "ix")
    idx = SearchIndex.load(tmp_path / "ix")
    assert [(d.id, d.also) for d in idx.docs] == [("1972/14776", ("5156/14776",)), ("5156/9", ())]
    assert idx.docs[1].decision == "无罪" and idx.docs[0].decision == "非监禁刑"
    hits = idx.search("被告人醉酒驾驶机动车", 5)
    assert [(h.id, h.also) for h in hits] == [("1972/14776", ("5156/14776",)), ("5156/9", ())]
    assert [h.id for h in idx.search("被告人醉酒驾驶机动车", 5, exclude_id="5156/14776")] == ["5156/9"]
