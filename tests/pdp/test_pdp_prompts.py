"""Prompt variants, custom templates, message hashes, answer rendering."""

from __future__ import annotations

import pytest

from jiancha.datasets.records import PDPRecord
from jiancha.errors import ConfigError, DataError, ParseError
from jiancha.law.labels import LEVEL2_LABELS
from jiancha.pdp import format as fmt
from jiancha.pdp.answers import render_answer
from jiancha.pdp.parsing import parse_answer
from jiancha.pdp.prompts import build_messages, load_examples, messages_hash, prompt_spec, prompt_version

CASE = PDPRecord(id="案1", person_info="犯罪嫌疑人某甲", procedure="移送审查起诉", fact="盗窃财物", decision="起诉")


def test_baseline_structure():
    msgs = build_messages(CASE)
    assert [m["role"] for m in msgs] == ["system", "user"]
    system, user = msgs[0]["content"], msgs[1]["content"]
    for s in (fmt.SECTION_ARTICLES, fmt.SECTION_ANALYSIS, fmt.SECTION_CONCLUSION, fmt.DECISION_PREFIX,
              *fmt.LAW_LINE_PREFIXES.values(), *LEVEL2_LABELS):
        assert s in system
    assert system.index(fmt.SECTION_ARTICLES) < system.index(fmt.SECTION_ANALYSIS) < system.index(
        fmt.SECTION_CONCLUSION)
    assert user.index(fmt.INPUT_PERSON) < user.index("犯罪嫌疑人某甲") < user.index(fmt.INPUT_PROCEDURE) \
        < user.index("移送审查起诉") < user.index(fmt.INPUT_FACT) < user.index("盗窃财物")
    assert "\n\n" + fmt.INPUT_PROCEDURE in user


def test_definitions_appends_to_the_baseline_system_prompt():
    base, defs = build_messages(CASE)[0]["content"], build_messages(CASE, "definitions")[0]["content"]
    assert defs.startswith(base) and len(defs) > len(base)
    for article in ("第一百七十六条", "第一百七十七条第一款", "第一百七十五条第四款", "第一百七十七条第二款", "第三百七十条"):
        assert article in defs
    assert build_messages(CASE, "definitions")[1] == build_messages(CASE)[1]


def test_one_shot_default_has_one_example_per_decision():
    msgs = build_messages(CASE, "one-shot")
    assert [m["role"] for m in msgs] == ["system"] + ["user", "assistant"] * 4 + ["user"]
    decisions = [parse_answer(m["content"]).decision for m in msgs if m["role"] == "assistant"]
    assert decisions == list(LEVEL2_LABELS)
    assert msgs[-1] == build_messages(CASE)[-1]
    assert msgs[0] == build_messages(CASE)[0]


@pytest.mark.parametrize("classes", [("DNP",), ("相对不起诉",), ("dnp",)])
def test_one_shot_single_example(classes):
    msgs = build_messages(CASE, "one_shot", one_shot_classes=classes)
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "user"]
    assert parse_answer(msgs[2]["content"]).decision == "相对不起诉"


def test_examples_parse_in_reference_mode_with_their_articles():
    for code, ex in load_examples().items():
        parsed = parse_answer(render_answer(code, list(ex.articles), ex.analysis), compat="reference")
        assert parsed.decision == ex.decision
        assert list(parsed.relevant_articles) == list(ex.articles)


def test_bad_variant_and_classes():
    with pytest.raises(ConfigError, match="baseline"):
        build_messages(CASE, "zero-shot")
    with pytest.raises(ConfigError, match="one-shot class"):
        build_messages(CASE, "one-shot", one_shot_classes=("XNP",))
    with pytest.raises(ConfigError, match="template"):
        build_messages(CASE, "custom")


def test_messages_hash_is_stable_and_sensitive():
    a = build_messages(CASE)
    assert messages_hash(a) == messages_hash(build_messages(CASE))
    assert len(messages_hash(a)) == 16
    other = PDPRecord(id="案1", person_info="犯罪嫌疑人某乙", procedure="移送审查起诉", fact="盗窃财物", decision="起诉")
    assert messages_hash(build_messages(other)) != messages_hash(a)
    assert messages_hash(build_messages(CASE, "definitions")) != messages_hash(a)


def test_prompt_spec_records_version_and_classes():
    spec = prompt_spec("one-shot", one_shot_classes=("IENP", "P"))
    assert spec["version"] == prompt_version() and spec["variant"] == "one-shot"
    assert spec["one_shot_classes"] == ["P", "IENP"]
    assert prompt_spec("baseline")["template_hash"] != prompt_spec("definitions")["template_hash"]


def test_custom_yaml_jinja(tmp_path):
    p = tmp_path / "t.yaml"
    p.write_text("system: 你是助手。标签：{{ labels }}\nuser: |\n  信息：{{ person_info }}\n  事实：{{ fact }}\n",
                 encoding="utf-8")
    msgs = build_messages(CASE, "custom", template_path=str(p))
    assert msgs == [{"role": "system", "content": "你是助手。标签：起诉、相对不起诉、法定不起诉、存疑不起诉"},
                    {"role": "user", "content": "信息：犯罪嫌疑人某甲\n事实：盗窃财物"}]


def test_custom_plain_text_str_format(tmp_path):
    p = tmp_path / "t.txt"
    p.write_text("{person_info}|{procedure}|{fact}", encoding="utf-8")
    assert build_messages(CASE, "custom", template_path=str(p)) == [
        {"role": "user", "content": "犯罪嫌疑人某甲|移送审查起诉|盗窃财物"}]


def test_custom_json_explicit_engine(tmp_path):
    p = tmp_path / "t.json"
    p.write_text('{"engine": "format", "system": "S", "user": "{fact}{sec_conclusion}"}', encoding="utf-8")
    assert build_messages(CASE, "custom", template_path=str(p))[1]["content"] == "盗窃财物【最终结论】"


def test_custom_unknown_field_names_file_and_field(tmp_path):
    p = tmp_path / "t.yaml"
    p.write_text("user: '{{ facts }}'\n", encoding="utf-8")
    with pytest.raises(DataError) as e:
        build_messages(CASE, "custom", template_path=str(p))
    assert "facts" in str(e.value) and "t.yaml" in str(e.value) and "user" in str(e.value)


def test_render_answer_layout_and_errors():
    text = render_answer("起诉", [], "理由")
    assert text == "【适用法条】\n无\n\n【审查分析】\n理由\n\n【最终结论】\n决定：起诉"
    with pytest.raises(ParseError):
        render_answer("不起诉", [], "")
    with pytest.raises(ParseError, match="canonical"):
        render_answer("P", ["第二百六十四条"], "")


def _article_text(statute: str, number_cn: str) -> str:
    for line in statute.splitlines():
        if line.startswith(f"第{number_cn}条"):
            return line
    raise AssertionError(f"第{number_cn}条 not found")


def test_definitions_cite_the_right_provisions():
    """The definitions block names provisions whose statutory text says what the block says (needs ../shared)."""
    from sharedpaths import shared_path

    cpl = shared_path("data", "statutes", "刑事诉讼法(2018-10-26).md").read_text(encoding="utf-8")
    rules = shared_path("data", "statutes", "人民检察院刑事诉讼规则(2019-12-02).md").read_text(encoding="utf-8")
    defs = build_messages(CASE, "definitions")[0]["content"]
    assert "起诉决定" in _article_text(cpl, "一百七十六")
    art177 = cpl[cpl.index("第一百七十七条"):cpl.index("第一百七十八条")]
    assert "第十六条规定的情形" in art177 and "犯罪情节轻微" in art177
    assert "二次补充侦查" in cpl[cpl.index("第一百七十五条"):cpl.index("第一百七十六条")]
    assert "犯罪情节轻微" in _article_text(rules, "三百七十")
    for ground in ("追诉时效", "特赦令", "告诉才处理", "死亡"):
        assert ground in cpl[cpl.index("第十六条"):cpl.index("第十七条")] and ground in defs
