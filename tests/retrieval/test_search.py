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
    assert obj["article"] == [52, 53, 65, 67, 264]
    assert d.articles == ("cl:第五十二条", "cl:第五十三条", "cl:第六十五条", "cl:第六十七条", "cl:第二百六十四条")
    assert d.decision.startswith("有期徒刑")


def test_reads_pdp_jsonl_and_txt_folders(tmp_path):
    (tmp_path / "x.jsonl").write_text(
        json.dumps({"id": "a1", "procedure": "以涉嫌盗窃罪移送审查起诉", "fact": "窃取手机一部",
                    "decision": "相对不起诉", "relevant_articles": ["刑法第264条", "cpl:第一百七十七条第二款"]},
                   ensure_ascii=False) + "\n")
    (d,) = read_case_docs(tmp_path / "x.jsonl")
    assert (d.id, d.charges, d.decision, d.articles) == ("a1", ("盗窃罪",), "相对不起诉",
                                                         ("cl:第二百六十四条", "cpl:第一百七十七条第二款"))
    (tmp_path / "txt").mkdir()
    (tmp_path / "txt" / "c9.txt").write_text("公诉机关指控被告人犯诈骗罪。", encoding="utf-8")
    (t,) = read_case_docs(tmp_path / "txt")
    assert t.id == "c9" and t.charges == ("诈骗罪",)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match=r"holds no documents \(.json, .jsonl, .txt, .html"):
        list(read_case_docs(tmp_path / "empty"))
    with pytest.raises(ConfigError, match="missing: no such file or folder"):
        list(read_case_docs(tmp_path / "missing"))
    with pytest.raises(ConfigError, match="neither a folder of documents nor a .jsonl file"):
        list(read_case_docs(tmp_path / "txt" / "c9.txt"))
    with pytest.raises(ConfigError, match="c9.txt: a file, not a case index folder"):
        SearchIndex.load(tmp_path / "txt" / "c9.txt")


def test_search_puts_same_charge_cases_first_with_passage_and_reason(mini_index):
    idx = SearchIndex.load(mini_index)
    hits = idx.search("被告人深夜撬门进入被害人家中，窃取现金人民币3000元", 5)
    assert len(hits) == 5 and all(h.shared_charges == ("盗窃罪",) for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert all(h.passage and h.passage in next(d.fact for d in idx.docs if d.id == h.id) for h in hits)
    assert all(h.reason.startswith("推定罪名：盗窃罪") for h in hits)   # guessed from the closest cases
    assert [h.id for h in idx.search("被告人深夜撬门进入被害人家中，窃取现金人民币3000元", 5)] == [h.id for h in hits]
    # explicit charges override the prediction
    fraud = idx.search("被告人深夜撬门进入被害人家中，窃取现金人民币3000元", 3, charges=("诈骗罪",))
    assert all("诈骗罪" in h.charges for h in fraud)


def test_passage_and_reason_are_pure():
    p, words = best_passage("被告人驾车。被告人窃取手机一部。", {"窃取", "手机", "车"})
    assert p == "被告人窃取手机一部。" and set(words) == {"窃取", "手机"}
    assert render_reason(("盗窃罪",), ["手机"], "自首，盗窃3000元", "系自首，窃得5000元") == \
        "同罪名：盗窃罪；共同情节：自首；最大金额：3000元 / 5000元；共同词语：手机"
    assert render_reason((), [], "", "") == "无共同罪名、情节、金额或词语"
    assert render_reason((), ["被告人", "公诉", "手机"], "", "") == "共同词语：手机"   # formula words are no reason


def test_load_refuses_a_folder_that_is_no_index(tmp_path):
    with pytest.raises(ConfigError, match="jiancha retrieval index"):
        SearchIndex.load(tmp_path)


def test_cli_index_refuses_a_file_as_its_folder(tmp_path):
    from jiancha.cli.main import app

    (tmp_path / "out.txt").write_text("x", encoding="utf-8")
    r = CliRunner().invoke(app, ["retrieval", "index", str(MINI / "candidate"), "--out", str(tmp_path / "out.txt")])
    assert r.exit_code != 0 and "is a file; give a folder" in str(r.exception)


def test_cli_index_and_search(tmp_path):
    from jiancha.cli.main import app

    r = CliRunner()
    res = r.invoke(app, ["retrieval", "index", str(MINI / "candidate"), "--out", str(tmp_path / "ix")])
    assert res.exit_code == 0 and "indexed 248 documents" in res.output
    res = r.invoke(app, ["retrieval", "search", "被告人醉酒驾驶机动车", "--index", str(tmp_path / "ix"), "-k", "2",
                         "--json"])
    assert res.exit_code == 0, res.output
    hits = [json.loads(x) for x in res.stdout.splitlines()]
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
    assert idx.docs[1].decision == "无罪" and idx.docs[0].decision == "拘役2个月，并处罚金3000元"
    hits = idx.search("被告人醉酒驾驶机动车", 5)
    assert [(h.id, h.also) for h in hits] == [("1972/14776", ("5156/14776",)), ("5156/9", ())]
    assert [h.id for h in idx.search("被告人醉酒驾驶机动车", 5, exclude_id="5156/14776")] == ["5156/9"]


JUDGMENT = """浙江省杭州市西湖区人民法院
刑事判决书
（2023）浙0106刑初501号
公诉机关浙江省杭州市西湖区人民检察院。
被告人沈某，男，汉族，初中文化，无业。
浙江省杭州市西湖区人民检察院以起诉书指控被告人沈某犯抢劫罪，向本院提起公诉。
经审理查明：2023年9月1日晚，被告人沈某在某偏僻路段，持水果刀威胁被害人韩某，劫取其现金人民币1200元。
本院认为，被告人沈某以暴力胁迫方法劫取他人财物，其行为已构成抢劫罪。依照《中华人民共和国刑法》第二百六十三条、第五十二条之规定，判决如下：
被告人沈某犯抢劫罪，判处有期徒刑四年，并处罚金人民币八千元。
如不服本判决，可在接到判决书的第二日起十日内提出上诉。
审判员　王某
"""


def test_txt_judgments_are_split_into_facts_reasoning_verdict(tmp_path):
    (tmp_path / "a.txt").write_text(JUDGMENT, encoding="utf-8")
    (tmp_path / "b.txt").write_bytes(JUDGMENT.replace("沈某", "吴某").encode("gb18030"))
    from jiancha.retrieval.search import SourceReport

    report = SourceReport()
    a, b = read_case_docs(tmp_path, report)
    assert a.fact.startswith("经审理查明：2023年9月1日晚") and a.fact.endswith("1200元。")
    assert (a.charges, a.decision, a.articles) == (("抢劫罪",), "有期徒刑4年，并处罚金8000元", ("cl:第二百六十三条", "cl:第五十二条"))
    assert b.fact.startswith("经审理查明") and "吴某" in b.fact and b.charges == ("抢劫罪",)
    assert report.gb18030 == [str(tmp_path / "b.txt")] and not report.skipped


def test_files_without_a_case_are_skipped_and_reported(tmp_path):
    (tmp_path / "empty.txt").write_text("  \n", encoding="utf-8")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    (tmp_path / "other.json").write_text('{"title": "无关"}', encoding="utf-8")
    (tmp_path / "ok.txt").write_text(JUDGMENT, encoding="utf-8")
    (tmp_path / "random.txt").write_bytes(bytes(range(128, 256)) * 4)     # neither UTF-8 nor GB18030
    (tmp_path / "broken.json").write_text('{"fact": "窃取', encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "export.jsonl").write_text(
        json.dumps({"id": "p1", "fact": "窃取手机一部", "charges": ["盗窃罪"]}, ensure_ascii=False) + "\n",
        encoding="utf-8")
    from jiancha.retrieval.search import SourceReport

    report = SourceReport()
    assert [d.id for d in read_case_docs(tmp_path, report)] == ["ok", "p1"]
    assert sorted(p.rsplit("/", 1)[-1] for p, _ in report.skipped) == ["broken.json", "empty.txt", "list.json",
                                                                        "other.json", "random.txt"]
    (line,) = report.lines()
    assert line.startswith("skipped 5 files: ") and "(a JSON list, not an object)" in line and "(an empty file)" in line
    assert "random.txt (cannot decode; expected UTF-8 or GB18030 text; save it as UTF-8)" in line
    assert "broken.json (not a JSON document (" in line


def _small_collection(tmp_path):
    """One robbery and three injury judgments: the injury cases outnumber the robbery among any query's
    neighbours, so a plain majority vote would guess 故意伤害罪 for a robbery query."""
    cases = {
        "rob": ("被告人沈某持水果刀威胁被害人韩某，劫取其现金人民币1200元及手机一部。", "抢劫罪", "有期徒刑四年"),
        "inj1": ("被告人孙某持啤酒瓶击打被害人钱某头部，致钱某轻伤，被害人手机摔坏。", "故意伤害罪", "有期徒刑一年"),
        "inj2": ("被告人钱某持木棍殴打被害人冯某，致冯某骨折，抢走冯某手中木棍。", "故意伤害罪", "有期徒刑三年"),
        "inj3": ("被告人冯某用拳头多次击打被害人褚某面部，致褚某鼻骨骨折，被害人现金散落。", "故意伤害罪", "拘役六个月"),
    }
    for name, (fact, charge, term) in cases.items():
        (tmp_path / f"{name}.txt").write_text(
            f"经审理查明：{fact}\n本院认为，其行为已构成{charge}。判决如下：\n被告人犯{charge}，判处{term}。\n",
            encoding="utf-8")
    SearchIndex.build(read_case_docs(tmp_path)).save(tmp_path / "ix")
    return SearchIndex.load(tmp_path / "ix")


def test_guessed_charges_weigh_votes_by_rank_and_do_not_bury_the_best_match(tmp_path):
    idx = _small_collection(tmp_path)
    query = "被告人持水果刀威胁被害人，劫取现金和手机"
    weights, named = idx.query_charges(query, idx.rank(query).docs)
    assert not named and weights["抢劫罪"] == pytest.approx(1 / (1 + 1 / 2 + 1 / 3 + 1 / 4))
    hits = idx.search(query, 4)
    assert hits[0].id == "rob"
    # the guess claims only its likeliest charge (故意伤害罪, share 0.52) as shared, and says it is a guess
    assert hits[0].shared_charges == () and hits[0].guessed and "罪名" not in hits[0].reason
    assert all(h.reason.startswith("推定罪名：故意伤害罪") for h in hits[1:])
    # the plain majority of the five best matches buries it under the three injury cases
    assert [h.id for h in idx.search(query, 4, voting="hard-uniform")][-1] == "rob"
    # a charge the text names is taken as given: hard tiers, 同罪名
    named_hits = idx.search("公诉机关指控被告人犯故意伤害罪。" + query, 4)
    assert named_hits[-1].id == "rob" and named_hits[0].reason.startswith("同罪名：故意伤害罪")


def test_a_query_without_indexed_words_is_refused_unless_it_names_a_charge(mini_index):
    idx = SearchIndex.load(mini_index)
    for text, msg in (("", "the query is empty"), ("   ", "the query is empty"),
                      ("hello world", "the query holds no Chinese text; describe the facts of the case in Chinese"),
                      ("的", "no word of the query"),
                      ("涉嫌偷越国境罪", r"names no charge the indexed cases have \(偷越国（边）境罪\)")):
        with pytest.raises(ConfigError, match=msg):
            idx.search(text, 3)
    # a charge named and no word of the facts: the cases of that charge, as 同罪名
    hits = idx.search("涉嫌盗窃罪", 3)
    assert len(hits) == 3 and all("盗窃罪" in h.charges and h.shared_charges == ("盗窃罪",) for h in hits)
    assert [h.id for h in hits] == sorted(h.id for h in hits)       # equal scores: by id


def test_cli_index_warns_and_search_prints_articles(tmp_path):
    from jiancha.cli.main import app

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.txt").write_text(JUDGMENT, encoding="utf-8")
    (tmp_path / "src" / "b.json").write_text("[]", encoding="utf-8")
    r = CliRunner()
    res = r.invoke(app, ["retrieval", "index", str(tmp_path / "src"), "--out", str(tmp_path / "ix")])
    assert res.exit_code == 0 and "indexed 1 documents" in res.output
    assert "warning: skipped 1 files:" in res.output and "b.json (a JSON list, not an object)" in res.output
    res = r.invoke(app, ["retrieval", "search", "持刀劫取现金", "--index", str(tmp_path / "ix")])
    assert res.exit_code == 0, res.output
    assert "引用法条：刑法第二百六十三条、刑法第五十二条" in res.output and "有期徒刑4年" in res.output
    (tmp_path / "src_other").mkdir()
    (tmp_path / "src_other" / "mine.txt").write_text("x", encoding="utf-8")
    for out, msg in ((tmp_path / "src", "is inside the source folder"), (tmp_path / "src" / "ix", "is inside"),
                     (tmp_path / "src_other", "is a folder of other files")):
        bad = r.invoke(app, ["retrieval", "index", str(tmp_path / "src"), "--out", str(out)])
        assert isinstance(bad.exception, ConfigError) and msg in str(bad.exception)
    res = r.invoke(app, ["retrieval", "search", "", "--index", str(tmp_path / "ix")])
    assert isinstance(res.exception, ConfigError) and "the query is empty" in str(res.exception)


def test_only_a_charge_attributed_to_the_suspect_is_named(tmp_path):
    idx = _small_collection(tmp_path)
    assert not idx.rank("被告人持水果刀威胁被害人，劫取其电信诈骗所得的现金").named   # a crime word in the facts
    r = idx.rank("犯罪嫌疑人因涉嫌抢劫罪被刑事拘留。经查，其持水果刀威胁被害人")
    assert r.named and r.charges == {"抢劫罪": 1.0}


def test_cited_articles_keep_zhi_yi_and_paragraphs_in_citation_order():
    from jiancha.retrieval.sources import cited_criminal_law

    assert cited_criminal_law([("依照《中华人民共和国刑法》第一百三十三条之一第一款第（二）项、第五十二条、"
                               "第一百三十三条之规定"), "刑法第五十二条"]) == (
        "cl:第一百三十三条之一第一款第（二）项", "cl:第五十二条", "cl:第一百三十三条")


def test_reason_words_and_amounts_read_as_a_person_writes_them():
    from jiancha.law.amounts import render_yuan

    assert [render_yuan(x) for x in (500.0, 18600.0, 2_300_000.0)] == ["500元", "1.86万元", "230万元"]
    _, words = best_passage("2022年11月30日，被告人窃取手机。", {"30", "200", "手机", "窃取"})
    assert words == ["手机", "窃取"]


def test_corrupt_or_foreign_index_folders_are_one_line_errors(tmp_path, mini_index):
    import shutil

    from jiancha.errors import DataError

    bad = tmp_path / "bad"
    shutil.copytree(mini_index, bad)
    (bad / "docs.jsonl").write_bytes((mini_index / "docs.jsonl").read_bytes()[:3001])
    with pytest.raises(DataError, match="corrupt case index"):
        SearchIndex.load(bad)
    (bad / "docs.jsonl").write_text((mini_index / "docs.jsonl").read_text(encoding="utf-8").split("\n", 1)[0] + "\n",
                                    encoding="utf-8")
    with pytest.raises(DataError, match="1 documents, index.json says 248"):
        SearchIndex.load(bad)
    lines = (mini_index / "docs.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (bad / "docs.jsonl").write_text("".join([lines[0], lines[0], *lines[2:]]), encoding="utf-8")
    with pytest.raises(DataError, match=r"docs.jsonl, line 2, field 'id': corrupt case index: id '.+' is also on line 1"):
        SearchIndex.load(bad)
    (bad / "docs.jsonl").write_text("".join([lines[0].replace("盗窃", "抢劫", 1), *lines[1:]]), encoding="utf-8")
    assert lines[0] != lines[0].replace("盗窃", "抢劫", 1)
    with pytest.raises(DataError, match="docs.jsonl was changed after the index was built"):
        SearchIndex.load(bad)
    meta = json.loads((bad / "index.json").read_text(encoding="utf-8"))
    del meta["docs_sha256"]   # an index from before the fingerprint: loads as it did
    (bad / "index.json").write_text(json.dumps(meta), encoding="utf-8")
    assert len(SearchIndex.load(bad).docs) == 248
    (bad / "index.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match="index.json: corrupt case index"):
        SearchIndex.load(bad)
    (bad / "index.json").write_text('{"x": 1}', encoding="utf-8")
    with pytest.raises(ConfigError, match="holds no jiancha case index"):
        SearchIndex.load(bad)
    gone = tmp_path / "gone"
    shutil.copytree(mini_index, gone)
    shutil.rmtree(gone / "bm25")
    with pytest.raises(DataError, match=r"corrupt case index \(FileNotFoundError.*rebuild it") as err:
        SearchIndex.load(gone)
    assert str(gone / "bm25") in str(err.value)
    with pytest.raises(ConfigError, match="no such folder"):
        SearchIndex.load(tmp_path / "missing")


def test_a_judgment_keeps_its_court_case_number_through_the_index(tmp_path):
    (tmp_path / "judg_robbery.txt").write_text(JUDGMENT, encoding="utf-8")
    SearchIndex.build(read_case_docs(tmp_path)).save(tmp_path / "ix")
    idx = SearchIndex.load(tmp_path / "ix")
    assert idx.docs[0].case_number == "（2023）浙0106刑初501号"
    (hit,) = idx.search("持刀威胁被害人劫取现金", 1)
    assert (hit.id, hit.case_number) == ("judg_robbery", "（2023）浙0106刑初501号")


def test_unreadable_files_and_index_folders_inside_a_source_are_left_out_and_reported(tmp_path):
    from jiancha.retrieval.search import SourceReport

    (tmp_path / "a.txt").write_text(JUDGMENT, encoding="utf-8")
    (tmp_path / "b.docx").write_bytes(b"PK\x03\x04 not a zip")
    (tmp_path / "c.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504))
    (tmp_path / "d.rtf").write_bytes(rb"{\rtf1\ansi\ansicpg936 " + "".join(
        f"\\'{b:02x}" if b > 0x7F else chr(b) for b in JUDGMENT.replace("\n", "\\par ").encode("gbk")).encode() + b"}")
    (tmp_path / "e.doc").write_bytes(f"<html><body><p>{JUDGMENT}</p></body></html>".encode("gb18030"))
    SearchIndex.build(read_case_docs(tmp_path)).save(tmp_path / "ix")   # an index written into the folder
    report = SourceReport()
    docs = {d.id: d for d in read_case_docs(tmp_path, report)}
    assert sorted(docs) == ["a", "d", "e"]     # an RTF file and a .doc that is an HTML page are read
    assert docs["d"].fact == docs["e"].fact == docs["a"].fact
    assert report.gb18030 == [str(tmp_path / "e.doc")]
    assert [(p, why.split(";")[0]) for p, why in report.skipped] == [
        (str(tmp_path / "ix"), "a case index folder"),
        (str(tmp_path / "b.docx"), "not a readable Word .docx (File is not a zip file)"),
        (str(tmp_path / "c.doc"), "a Word file: a damaged compound file (bytes length not a multiple of item size)")]
    assert all("save it" in why for _, why in report.skipped[1:])
    with pytest.raises(ConfigError, match="is a case index, not a folder of documents"):
        list(read_case_docs(tmp_path / "ix"))


def test_a_prior_conviction_casts_no_vote_and_a_ruling_on_appeal_shows_the_upheld_articles(tmp_path):
    idx = _small_collection(tmp_path)
    facts = "后持水果刀威胁被害人，劫取现金和手机"
    with_prior = idx.rank("嫌疑人曾因犯故意伤害罪被判处有期徒刑一年。" + facts).charges
    assert with_prior == idx.rank("嫌疑人曾因打架被处罚。" + facts).charges   # the 前科 casts no vote
    assert idx.rank("嫌疑人故意伤害他人。" + facts).charges["故意伤害罪"] > with_prior["故意伤害罪"]
    ruling = ("上诉人（原审被告人）王某。\n原判认定：被告人王某虚构事实骗取钱款18.6万元。原判依照《中华人民共和国刑法》"
              "第二百六十六条、第五十二条之规定，以诈骗罪判处被告人王某有期徒刑四年。\n本院认为，原判认定事实清楚。"
              "依照《中华人民共和国刑事诉讼法》第二百三十六条第一款第（一）项之规定，裁定如下：\n驳回上诉，维持原判。\n本裁定为终审裁定。")
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "ruling.txt").write_text(ruling, encoding="utf-8")
    (doc,) = read_case_docs(tmp_path / "r")
    assert doc.decision == "驳回上诉，维持原判（原判有期徒刑4年）"
    assert doc.articles == ("cl:第二百六十六条", "cl:第五十二条")


def test_the_evidence_formula_is_never_the_matching_passage():
    p, _ = best_passage("被告人持刀劫取手机。上述事实，有被害人陈述、证人证言等证据证实，足以认定。", {"被害人", "证人证言", "手机"})
    assert p == "被告人持刀劫取手机。"


def test_a_judgments_charges_are_those_named_as_charges(tmp_path):
    """Acts (参与赌博), the titles the reasoning cites and prior convictions are not the judgment's charges."""
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "1.json").write_text(json.dumps({
        "ajjbqk": "被告人丁某在其经营的棋牌室内组织他人赌博，抽头渔利。被告人曾因犯盗窃罪被判处有期徒刑一年。",
        "cpfxgc": "本院认为，被告人以营利为目的开设赌场，参与赌博人员多，其行为已构成开设赌场罪。依照《最高人民法院"
                  "关于审理抢劫、抢夺刑事案件适用法律若干问题的意见》……被告人曾因犯盗窃罪被判处刑罚，系累犯。",
        "pjjg": "被告人丁某犯开设赌场罪，判处有期徒刑三年，并处罚金人民币三万元。"}, ensure_ascii=False),
        encoding="utf-8")
    (d,) = read_case_docs(tmp_path / "c")
    assert d.charges == ("开设赌场罪",)


def test_two_documents_under_one_id_are_refused_naming_both(tmp_path):
    from jiancha.errors import DataError

    src = tmp_path / "cases.jsonl"
    src.write_text('{"id": "a", "fact": "盗窃手机一部"}\n{"id": "b", "fact": "抢劫现金"}\n{"id": "a", "fact": "诈骗"}\n',
                   encoding="utf-8")
    with pytest.raises(DataError, match=rf"cases.jsonl, line 3, field 'id': id 'a' is also that of {src} line 1"):
        list(read_case_docs(src))
    for line, why in (('{"id": "x"}', ""), ('{"id": "x", "fact": 5}', ""), ('["盗窃"]', ", not a JSON list")):
        src.write_text(line + "\n", encoding="utf-8")
        with pytest.raises(DataError, match=rf"cases.jsonl, line 1, field 'fact': expected a JSON object whose 'fact' is "
                                            rf"the case's facts as text{why}$"):
            list(read_case_docs(src))
    src.write_text("{oops\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"cases.jsonl, line 1: not JSON \(Expecting"):
        list(read_case_docs(src))
    folder = tmp_path / "judgments"
    folder.mkdir()
    (folder / "101.txt").write_text(JUDGMENT, encoding="utf-8")
    (folder / "101.html").write_text(f"<p>{JUDGMENT}</p>", encoding="utf-8")
    with pytest.raises(DataError, match=r"101.txt: id '101' is also that of .*101.html") as err:
        next(read_case_docs(folder))   # before any document is read
    assert "rename one" in str(err.value)


def test_piped_search_output_keeps_each_passage_on_one_line(tmp_path):
    from jiancha.cli.main import app

    long = "被告人张某于2023年5月在杭州市西湖区某小区" + "，先后多次撬开被害人家中房门窃取财物" * 12 + "。"
    src = tmp_path / "cases.jsonl"
    src.write_text("".join(json.dumps({"id": i, "fact": f}, ensure_ascii=False) + "\n"
                           for i, f in (("a", long), ("b", "被告人李某醉酒驾驶机动车。"))), encoding="utf-8")
    r = CliRunner()
    assert r.invoke(app, ["retrieval", "index", str(src), "--out", str(tmp_path / "ix")]).exit_code == 0
    res = r.invoke(app, ["retrieval", "search", "撬开房门窃取财物", "--index", str(tmp_path / "ix"), "-k", "1"])
    assert res.exit_code == 0, res.output
    (passage,) = [line for line in res.stdout.splitlines() if line.startswith("   「")]
    assert len(passage) > 120 and passage.endswith("」")   # wider than the 200 cells of a piped console


def test_a_charge_the_court_rejects_is_not_the_judgments(tmp_path):
    (tmp_path / "j.txt").write_text(
        "某某市某某区人民法院\n刑事判决书\n公诉机关指控被告人赵某某犯抢劫罪。经审理查明，被告人赵某某趁被害人不备，夺走其手机一部。"
        "本院认为，被告人赵某某以非法占有为目的，公然夺取他人财物，其行为已构成抢夺罪。公诉机关指控被告人赵某某犯抢劫罪的罪名不当，"
        "本院予以纠正。判决如下：被告人赵某某犯抢夺罪，判处有期徒刑一年十个月，并处罚金人民币五千元。", encoding="utf-8")
    (d,) = read_case_docs(tmp_path)
    assert d.charges == ("抢夺罪",) and d.decision == "有期徒刑1年10个月，并处罚金5000元"


def test_another_persons_offence_in_the_facts_casts_no_vote():
    docs = [CaseDoc(f"fence{i}", f"被告人明知电动车系赃物，仍以{300 + i}元低价收购后转卖。", ("掩饰、隐瞒犯罪所得、犯罪所得收益罪",),
                    "拘役3个月", ()) for i in range(2)]
    docs += [CaseDoc(f"theft{i}", f"被告人撬锁窃取电动车一辆，价值{1000 + i}元。", ("盗窃罪",), "拘役4个月", ())
             for i in range(3)]
    idx = SearchIndex.build(docs, charge_model=False)
    fence = "被告人明知是他人盗窃所得的电动车，仍低价收购后转卖"
    weights, named = idx.query_charges(fence, idx.rank(fence).docs)
    assert not named and max(weights, key=weights.get) == "掩饰、隐瞒犯罪所得、犯罪所得收益罪"
    # the suspect's own theft, with an accomplice, still votes
    own = "被告人伙同他人盗窃所得电动车后低价转卖"
    weights, _ = idx.query_charges(own, idx.rank(own).docs)
    assert max(weights, key=weights.get) == "盗窃罪"


def test_an_acquittal_is_listed_by_the_charge_it_was_accused_of(tmp_path):
    from jiancha.cli.main import app

    src = tmp_path / "src"
    src.mkdir()
    (src / "acquit.txt").write_text(
        "公诉机关指控被告人赵某犯故意伤害罪。经审理查明，被害人持刀追砍赵某，赵某夺刀反击致被害人轻伤。本院认为，赵某的行为"
        "属于正当防卫，不负刑事责任，公诉机关指控的罪名不能成立。判决如下：被告人赵某无罪。", encoding="utf-8")
    (src / "guilty.txt").write_text(
        "公诉机关指控被告人钱某犯故意伤害罪。经审理查明，钱某因琐事持木棍殴打被害人致其轻伤。本院认为，钱某的行为已构成"
        "故意伤害罪。判决如下：被告人钱某犯故意伤害罪，判处有期徒刑一年。", encoding="utf-8")
    (src / "theft.txt").write_text(
        "经审理查明，孙某窃取他人手机一部。本院认为，孙某的行为已构成盗窃罪。判决如下：被告人孙某犯盗窃罪，判处拘役三个月。",
        encoding="utf-8")
    idx = SearchIndex.build(read_case_docs(src))
    acquittal = next(d for d in idx.docs if d.id == "acquit")
    assert acquittal.charges == () and acquittal.accused == ("故意伤害罪",)
    hits = idx.search("涉嫌故意伤害罪。被害人持刀追砍，嫌疑人夺刀反击致其轻伤", 3)
    assert [h.id for h in hits][:2] == ["acquit", "guilty"]          # both in the tier of the named charge
    assert hits[0].reason.startswith("同罪名（仅指控，法院未认定）：故意伤害罪") and hits[1].reason.startswith("同罪名：")
    idx.save(tmp_path / "ix")
    assert SearchIndex.load(tmp_path / "ix").docs == idx.docs            # kept in docs.jsonl
    r = CliRunner().invoke(app, ["retrieval", "search", "涉嫌故意伤害罪。夺刀反击致轻伤", "--index", str(tmp_path / "ix")])
    assert r.exit_code == 0 and "指控故意伤害罪（未认定）  无罪" in r.output
