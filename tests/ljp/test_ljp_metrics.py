import pytest

from jiancha.ljp.metrics import compute_charge_metrics
from jiancha.ljp.parsing import parse_charges


def test_hand_computed_metrics():
    gold = [["盗窃"], ["盗窃", "诈骗"], ["抢劫"]]
    pred = [["盗窃", "故意伤害"], ["盗窃"], None]
    m = compute_charge_metrics(gold, pred)
    # 盗窃 tp2 → F1 1; 诈骗 fn1 → 0; 抢劫 fn1 (invalid answer) → 0; 故意伤害 fp1, no support → left out
    assert m["labels_with_support"] == 3
    assert m["macro_f1"] == pytest.approx(1 / 3)
    assert m["per_label"]["故意伤害"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "support": 0, "tp": 0,
                                       "fp": 1, "fn": 0}
    assert m["micro_precision"] == pytest.approx(2 / 3)   # tp 2, fp 1
    assert m["micro_recall"] == pytest.approx(2 / 4)      # fn 2
    assert m["micro_f1"] == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))
    assert m["exact_match"] == 0.0 and m["invalid"] == 1 and m["n"] == 3


def test_perfect_and_empty():
    m = compute_charge_metrics([["a"], ["b", "c"]], [["a"], ["c", "b"]])
    assert (m["macro_f1"], m["micro_f1"], m["exact_match"]) == (1.0, 1.0, 1.0)
    e = compute_charge_metrics([], [])
    assert (e["macro_f1"], e["micro_f1"], e["exact_match"], e["n"]) == (0.0, 0.0, 0.0, 0)
    with pytest.raises(ValueError, match="gold has 1 cases but pred has 0"):
        compute_charge_metrics([["a"]], [])


@pytest.mark.parametrize(("text", "charges", "valid", "reason"), [
    ('{"charges": ["盗窃"]}', ("盗窃",), True, None),
    ('["抢劫罪", "盗窃"]', ("抢劫", "盗窃"), True, None),
    ('<think>也许是{"charges": ["诈骗"]}</think>\n答案：{"charges": ["盗窃罪"]}', ("盗窃",), True, None),
    ('```json\n{"charges": []}\n```', (), True, None),
    ("被告人构成盗窃罪。", (), False, "no_json"),
    ('{"charges": "盗窃"}', (), False, "bad_shape"),
    ("", (), False, "empty_output"),
    (None, (), False, "empty_output"),
])
def test_parse_charges(text, charges, valid, reason):
    p = parse_charges(text, ("盗窃", "抢劫", "诈骗"))
    assert (p.charges, p.valid, p.reason) == (charges, valid, reason)


def test_unknown_charges_are_reported_not_kept():
    p = parse_charges('{"charges": ["盗窃", "飞行罪"]}', ("盗窃",))
    assert p.charges == ("盗窃",) and p.unknown == ("飞行罪",)
