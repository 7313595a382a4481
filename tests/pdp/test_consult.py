"""One-case use: the recommendation, cited-article texts, precedents (CLI, Python and the web page)."""

from __future__ import annotations

import html
import json

import pytest
from typer.testing import CliRunner

from jiancha.cli.main import app
from jiancha.datasets.pdp import load_pdp
from jiancha.datasets.records import PDPRecord
from jiancha.pdp.consult import analysis_section, consult
from jiancha.retrieval.precedents import PrecedentIndex

THEFT = PDPRecord(
    id="", decision="",
    person_info="犯罪嫌疑人王某，男，1990年3月出生，汉族，初中文化，无业。2023年5月因涉嫌盗窃罪被取保候审。",
    procedure="本案由某县公安局侦查终结，以犯罪嫌疑人王某涉嫌盗窃罪，于2023年6月1日移送本院审查起诉。",
    fact="2023年5月2日，犯罪嫌疑人王某在某县某超市内盗窃白酒两瓶，价值300元。案发后王某主动投案，如实供述，"
         "退赔全部损失并取得被害单位谅解，系初犯。",
)


def test_analysis_section_cuts_between_markers():
    answer = "【适用法条】\n刑法：第二百六十四条\n【审查分析】\n情节轻微。\n【最终结论】\n决定：相对不起诉"
    assert analysis_section(answer) == "情节轻微。"
    assert analysis_section("只有一句话") == "只有一句话"


def test_rules_baseline_recommends_discretionary_non_prosecution_with_articles():
    c = consult(THEFT, model="baseline:rules")
    assert c.valid and c.decision == "相对不起诉"
    assert c.relevant_articles[0] == "cl:第二百六十四条"
    assert "cpl:第一百七十七条第二款" in c.relevant_articles
    assert c.precedents == ()


def test_precedents_share_the_charge_first_and_exclude_the_case_itself():
    records = load_pdp("sample")
    index = PrecedentIndex(records)
    target = next(r for r in records if "盗窃罪" in r.procedure)
    found = index.search(target, k=3, exclude_id=target.id)
    assert len(found) == 3
    assert all(p.id != target.id for p in found)
    assert all("盗窃罪" in p.shared_charges for p in found)
    # deterministic: same query, same order
    assert [p.id for p in index.search(target, k=3, exclude_id=target.id)] == [p.id for p in found]


def test_tfidf_baseline_needs_precedents_to_learn_from():
    from jiancha.errors import ConfigError

    with pytest.raises(ConfigError, match="learns from data"):
        consult(THEFT, model="baseline:tfidf-lr")
    c = consult(THEFT, model="baseline:tfidf-lr", precedents=load_pdp("sample"), k=2)
    assert c.valid and len(c.precedents) == 2


def test_cli_predict_json():
    res = CliRunner().invoke(app, ["case", "predict", "--fact", THEFT.fact, "--procedure", THEFT.procedure,
                                   "--k", "2", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["decision"] == "相对不起诉"
    assert len(out["precedents"]) == 2


def test_cli_predict_without_a_case_is_a_clear_error():
    res = CliRunner().invoke(app, ["case", "predict"])
    assert res.exit_code != 0
    assert "--fact" in str(res.exception) or "--fact" in res.output


def test_web_page_and_api():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from jiancha.web.app import create_app

    client = TestClient(create_app(precedents=load_pdp("sample"), k=3))
    page = client.get("/")
    assert page.status_code == 200 and "【案件事实】" in page.text and page.url.path == "/workbench"
    posted = client.post("/workbench", data={"person_info": THEFT.person_info, "procedure": THEFT.procedure,
                                             "fact": THEFT.fact})
    assert posted.status_code == 200
    assert "决定：相对不起诉" in posted.text and "相似先例" in posted.text
    api = client.post("/api/consult", json={"fact": THEFT.fact, "procedure": THEFT.procedure})
    assert api.status_code == 200 and api.json()["decision"] == "相对不起诉"
    assert len(api.json()["precedents"]) == 3
    assert client.post("/api/consult", json={"fact": ""}).status_code == 422


def test_model_endpoint_answer_goes_through_the_evaluation_parser(fake_openai):
    case = PDPRecord(id="", decision="", person_info=THEFT.person_info, procedure=THEFT.procedure,
                     fact="CASE-web1 " + THEFT.fact)
    fake_openai.answers["CASE-web1"] = "相对不起诉"
    c = consult(case, model="test-model", base_urls=(fake_openai.url,))
    assert c.valid and c.decision == "相对不起诉"
    assert c.relevant_articles == ("cl:第二百六十四条", "cpl:第一百七十六条")
    assert c.analysis == "虚构的分析。"
    assert fake_openai.counts["CASE-web1"] == 1


def test_model_endpoint_failure_is_reported(fake_openai):
    from jiancha.errors import BackendError

    fake_openai.script("CASE-web2", ["400"])
    case = PDPRecord(id="", decision="", person_info="", procedure="", fact="CASE-web2 " + THEFT.fact)
    with pytest.raises(BackendError, match="failed"):
        consult(case, model="test-model", base_urls=(fake_openai.url,))


def test_empty_facts_are_refused():
    from jiancha.errors import ConfigError

    empty = PDPRecord(id="", decision="", person_info=THEFT.person_info, procedure=THEFT.procedure, fact=" \n ")
    with pytest.raises(ConfigError, match="no facts"):
        consult(empty)
    with pytest.raises(ConfigError, match=r"k must be ≥ 0 \(0 lists no precedents\), got -1"):
        consult(THEFT, k=-1)
    assert consult(THEFT, k=0).precedents == ()


def test_a_failing_endpoint_is_tried_twice_not_six_times(fake_openai):
    from jiancha.errors import BackendError

    fake_openai.script("CASE-web4", ["500"] * 6)
    case = PDPRecord(id="", decision="", person_info="", procedure="", fact="CASE-web4 " + THEFT.fact)
    with pytest.raises(BackendError, match="failed"):
        consult(case, model="test-model", base_urls=(fake_openai.url,))
    assert fake_openai.counts["CASE-web4"] == 2   # a person is waiting: two attempts, not an evaluation's six


def test_consult_runs_where_an_event_loop_is_already_running(fake_openai):
    import asyncio

    case = PDPRecord(id="", decision="", person_info="", procedure="", fact="CASE-web3 " + THEFT.fact)
    fake_openai.answers["CASE-web3"] = "存疑不起诉"

    async def inside_a_loop():
        return consult(case, model="test-model", base_urls=(fake_openai.url,))

    assert asyncio.run(inside_a_loop()).decision == "存疑不起诉"


def test_precedents_from_a_case_index_folder(tmp_path):
    """`--precedents DIR` with a folder written by `jiancha retrieval index`: the CLI and the web workbench search
    it (judgments: their sentence is the decision shown)."""
    for i, (fact, charge, term) in enumerate((
            ("被告人赵某在超市内盗窃白酒两瓶，价值300元，到案后如实供述。", "盗窃罪", "拘役三个月"),
            ("被告人钱某盗窃电动车一辆，价值2000元。", "盗窃罪", "有期徒刑八个月"),
            ("被告人孙某醉酒驾驶机动车，血液酒精含量150mg/100ml。", "危险驾驶罪", "拘役二个月"))):
        (tmp_path / "src").mkdir(exist_ok=True)
        (tmp_path / "src" / f"{i}.txt").write_text(
            f"经审理查明，{fact}\n本院认为，其行为已构成{charge}。" + ("依照《中华人民共和国刑法》第二百六十四条、第六十七条"
                                                           "第三款之规定，" if i == 1 else "")
            + f"判决如下：被告人犯{charge}，判处{term}。",
            encoding="utf-8")
    res = CliRunner().invoke(app, ["retrieval", "index", str(tmp_path / "src"), "--out", str(tmp_path / "ix")])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(app, ["case", "predict", "--fact", THEFT.fact, "--procedure", THEFT.procedure,
                                   "--precedents", str(tmp_path / "ix"), "--k", "2", "--json"])
    assert res.exit_code == 0, res.output
    found = json.loads(res.stdout)["precedents"]
    assert [(p["id"], p["decision"], p["shared_charges"]) for p in found] == [
        ("0", "拘役3个月", ["盗窃罪"]), ("1", "有期徒刑8个月", ["盗窃罪"])]
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from jiancha.cli.case import workbench_settings
    from jiancha.web.app import create_app

    settings = workbench_settings("baseline:rules", str(tmp_path / "ix"), "test", None, None, None)
    assert settings["precedents"] is None and len(settings["index"]) == 3
    client = TestClient(create_app(**settings))
    assert f"先例库：{tmp_path / 'ix'}，3 件。" in html.unescape(client.get("/workbench").text)   # which index
    page = client.post("/workbench", data={"procedure": THEFT.procedure, "fact": THEFT.fact})
    assert page.status_code == 200 and "有期徒刑8个月" in page.text and "同罪名：盗窃罪" in page.text
    assert "1</span> · 盗窃罪 · <strong>有期徒刑8个月" in page.text     # each precedent's own charges
    assert page.text.count("引用法条：") == 1 and "引用法条：刑法第二百六十四条、刑法第六十七条第三款" in page.text
    # the drink-driving judgment shares no charge and hardly a word: listed, but folded away under the others
    listed, folded = page.text.split('id="folded-precedents"')
    assert "另有 1 件先例没有本案的罪名" in folded and "危险驾驶罪" in folded and "危险驾驶罪" not in listed
    assert '<ol class="precedents" start="3">' in folded and 'id="absent-charge"' not in page.text
    # a charge named that no precedent has: the page says the list is for the facts only
    page = client.post("/workbench", data={"procedure": "以犯罪嫌疑人王某涉嫌诈骗罪移送审查起诉。", "fact": THEFT.fact})
    assert "所列先例均无本案写明的罪名" in page.text
    # no charge named: the shared charge is a guess, and the page says so
    page = client.post("/workbench", data={"fact": "某人在超市内盗窃白酒两瓶"})
    assert "推定罪名相同（本案未写明涉嫌罪名，系推定）：盗窃罪" in page.text and "同罪名" not in page.text
    # no charge named and no Criminal Law article recommended: the charge the precedents are guessed to share, with
    # its article, is pointed out; not when the recommendation cites one
    page = client.post("/workbench", data={"fact": "某人在超市内窃取白酒两瓶，价值三百元"})
    assert "相似先例推定的罪名及其条文为 盗窃罪：刑法第二百六十四条" in html.unescape(page.text)
    page = client.post("/workbench", data={"fact": "某人在超市内盗窃白酒两瓶"})
    assert 'id="guessed-charge"' not in page.text and 'title="cl:第二百六十四条"' in page.text
    # facts that share no word with the precedents: the recommendation still comes, without precedents
    api = client.post("/api/consult", json={"fact": "，。！"}).json()
    assert api["decision"] and api["precedents"] == []


def test_a_folder_of_judgments_given_as_precedents_points_to_the_index_command(tmp_path):
    (tmp_path / "a.txt").write_text("经审理查明，被告人赵某盗窃白酒两瓶。", encoding="utf-8")
    res = CliRunner().invoke(app, ["case", "predict", "--fact", THEFT.fact, "--precedents", str(tmp_path)])
    assert res.exit_code != 0 and f"jiancha retrieval index {tmp_path} --out IDX" in str(res.exception)


def test_a_precedents_articles_are_named_once_with_their_paragraphs():
    from types import SimpleNamespace

    from jiancha.web.workbench import SHOWN_PRECEDENT_ARTICLES, precedent_articles

    cited = ["cl:第二百六十四条", "cl:第六十七条第一款", "cl:第六十七条第三款", "cl:第二百六十四条"]
    assert precedent_articles(SimpleNamespace(relevant_articles=cited)) == ("刑法第二百六十四条、刑法第六十七条第一款、"
                                                                            "刑法第六十七条第三款")
    many = [f"cl:第{n}条" for n in ("二十五", "二十六", "二十七", "六十五", "六十七", "七十二", "七十三", "二百六十四")]
    said = precedent_articles(SimpleNamespace(relevant_articles=many))
    assert said.endswith("，共 8 条") and said.count("、") == SHOWN_PRECEDENT_ARTICLES - 1
    assert precedent_articles(SimpleNamespace(relevant_articles=())) == ""


def test_a_precedents_similarity_is_that_of_its_facts_not_of_its_charge_tier():
    from types import SimpleNamespace

    from jiancha.web.workbench import precedent_reasons

    same_charge = SimpleNamespace(score=3.2, fact_score=2.0, shared_charges=("盗窃罪",), charges_guessed=False,
                                  relevant_articles=(), charges=("盗窃罪",), accused=())
    other_charge = SimpleNamespace(score=0.9, fact_score=8.0, shared_charges=(), charges_guessed=False,
                                   relevant_articles=(), charges=("诈骗罪",), accused=())
    result = SimpleNamespace(relevant_articles=(), precedents=(same_charge, other_charge))
    assert precedent_reasons(same_charge, result) == ["同罪名：盗窃罪", "事实表述：远不及最相近的一件"]
    assert precedent_reasons(other_charge, result) == ["事实表述：所列先例中最相近"]
