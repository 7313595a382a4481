"""Parity of ``--compat reference`` with an independent re-implementation of docs/pdp-protocol.md §3–§4.

The functions ``ref_parse`` and ``ref_block`` below are written straight from the protocol's prose with plain
loops; they share no code with ``jiancha.pdp`` (only the four label strings). Thousands of seeded random answers
and label pairs, in one run and in several runs of unequal size, must give *exactly* the same numbers.

Sums of floats are taken with ``math.fsum`` (correctly rounded, so independent of record order); the package
does the same, which is why equality can be exact.
"""

from __future__ import annotations

import json
import math
import random
import re

import pytest

from jiancha.pdp.parsing import parse_answer
from jiancha.pdp.reference_results import write_reference_dir
from jiancha.pdp.rundir import ScoreItem
from jiancha.pdp.scoring import score_items, score_run_dirs

LABELS = ["起诉", "相对不起诉", "法定不起诉", "存疑不起诉"]
NP_LABELS = LABELS[1:]
LEVEL1 = ["起诉", "不起诉"]


# --------------------------------------------------------------------------------------------------------------
# §3, from the prose


def ref_parse(text: str | None) -> tuple[str | None, list[str]]:
    """(decision or None, prefixed article strings)."""
    text = text or ""
    # 1. keep only what follows the first </think>
    if "</think>" in text:
        text = text.split("</think>", 1)[1]
    # 2. articles: 【适用法条】 up to the next 【审查分析】/【最终结论】
    articles: list[str] = []
    if "【适用法条】" in text:
        region = text.split("【适用法条】", 1)[1]
        cut = len(region)
        for end in ("【审查分析】", "【最终结论】"):
            if end in region:
                cut = min(cut, region.index(end))
        region = region[:cut]
        for prefix, name in (("cl", "刑法"), ("cpl", "刑事诉讼法"), ("cpr", "刑事诉讼规则")):
            starts = [i for i in range(len(region))
                      if region.startswith(name + "：", i) or region.startswith(name + ":", i)]
            if not starts:
                continue
            line = region[starts[0] + len(name) + 1:].split("\n", 1)[0]
            piece = ""
            for ch in line + "、":
                if ch in "、，,;；":
                    if piece.strip():
                        articles.append(f"{prefix}:{piece.strip()}")
                    piece = ""
                else:
                    piece += ch
    # 3. decision: from the first 【最终结论】, the first 决定[：:]\s*(.*) line
    decision = None
    if "【最终结论】" in text:
        tail = text.split("【最终结论】", 1)[1]
        m = re.search(r"决定[：:]\s*(.*)", tail)
        if m is not None:
            value = ref_normalise(m.group(1))
            if value in LABELS:
                decision = value
    return decision, articles


def ref_normalise(value: str) -> str:
    """§3 step 3: strip, delete every ``**``, drop one trailing ``。``, strip again."""
    value = value.strip().replace("**", "")
    value = value.removesuffix("。")
    return value.strip()


# --------------------------------------------------------------------------------------------------------------
# §4, from the prose


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def _level(golds: list[str], preds: list[str | None], classes: list[str]) -> dict:
    per_class = {}
    sum_tp = sum_fp = sum_fn = 0
    for c in classes:
        tp = sum(1 for g, p in zip(golds, preds) if g == c and p == c)
        fp = sum(1 for g, p in zip(golds, preds) if p == c and g != c)
        fn = sum(1 for g, p in zip(golds, preds) if g == c and p != c)   # invalid predictions included
        p_, r_, f_ = _prf(tp, fp, fn)
        per_class[c] = {"precision": p_, "recall": r_, "f1": f_, "count": sum(1 for g in golds if g == c)}
        sum_tp, sum_fp, sum_fn = sum_tp + tp, sum_fp + fp, sum_fn + fn
    mp, mr, mf = _prf(sum_tp, sum_fp, sum_fn)
    correct = sum(1 for g, p in zip(golds, preds) if g == p)
    return {"per_class": per_class, "macro": math.fsum(v["f1"] for v in per_class.values()) / len(classes),
            "micro": {"precision": mp, "recall": mr, "f1": mf},
            "accuracy": correct / len(golds) if golds else 0.0}


def _to_level1(label: str | None) -> str | None:
    if label is None:
        return None
    return "起诉" if label == "起诉" else "不起诉"


def _article_prf(pred: list[str], gold: list[str]) -> tuple[float, float, float]:
    ps, gs = set(pred), set(gold)
    if not ps and not gs:
        return 1.0, 1.0, 1.0
    if not ps or not gs:
        return 0.0, 0.0, 0.0
    tp = len(ps & gs)
    p, r = tp / len(ps), tp / len(gs)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def ref_block(rows: list[tuple[str | None, str | None, list[str], list[str]]]) -> dict:
    """rows: (gold decision, predicted decision or None, predicted articles, gold articles)."""
    kept = [(g, p) for g, p, _, _ in rows if g in LABELS]
    golds, preds = [g for g, _ in kept], [p for _, p in kept]
    l2 = _level(golds, preds, LABELS)
    l1 = _level([_to_level1(g) for g in golds], [_to_level1(p) for p in preds], LEVEL1)
    arts = [_article_prf(pa, ga) for _, _, pa, ga in rows]
    n = len(arts)
    return {
        "articles_precision": math.fsum(a[0] for a in arts) / n,
        "articles_recall": math.fsum(a[1] for a in arts) / n,
        "articles_f1": math.fsum(a[2] for a in arts) / n,
        "decision_level1_accuracy": l1["accuracy"],
        "decision_level2_accuracy": l2["accuracy"],
        "level1_per_class": l1["per_class"],
        "decision_per_class": l2["per_class"],
        "decision_level1_macro_f1": l1["macro"],
        "decision_level2_macro_f1": l2["macro"],
        "decision_level1_micro": l1["micro"],
        "decision_level2_micro": l2["micro"],
        "decision_parse_fail_count": sum(1 for p in preds if p is None),
        "decision_eval_count": len(golds),
        "reference_parse_fail_count": len(rows) - len(golds),
    }


def _mean_se(xs: list[float]) -> dict[str, float]:
    n = len(xs)
    mean = math.fsum(xs) / n
    if n == 1:
        return {"mean": mean, "se": 0.0}
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
    return {"mean": mean, "se": sd / math.sqrt(n)}


def ref_result(rows_by_run: dict[str, list]) -> dict:
    per_run = {run: ref_block(rows) for run, rows in rows_by_run.items()}
    pooled = ref_block([r for rows in rows_by_run.values() for r in rows])
    names = {"level1_macro_f1": lambda b: b["decision_level1_macro_f1"],
             "level1_micro_f1": lambda b: b["decision_level1_micro"]["f1"],
             "level2_macro_f1": lambda b: b["decision_level2_macro_f1"],
             "level2_micro_f1": lambda b: b["decision_level2_micro"]["f1"],
             "articles_f1": lambda b: b["articles_f1"]}
    for lab in LEVEL1:
        names[f"level1_f1_{lab}"] = lambda b, lab=lab: b["level1_per_class"][lab]["f1"]
    for lab in LABELS:
        names[f"level2_f1_{lab}"] = lambda b, lab=lab: b["decision_per_class"][lab]["f1"]
    mean_se = {name: _mean_se([get(b) for b in per_run.values()]) for name, get in names.items()}
    return {"pooled": pooled, "per_run": per_run, "mean_se": mean_se}


# --------------------------------------------------------------------------------------------------------------
# random answers that exercise every rule


ARTICLE_POOL = ["第二百六十四条", "第一百三十三条之一", "第六十七条第三款", "第264条", "《刑法》第七十二条",
                "第十六条第（一）项", "第十六条第(一)项", "第一百七十七条第二款", " 第一百七十五条第四款 ", "",
                "第三百七十条", "第一百七十七条第二款。"]
SEPARATORS = ["、", "，", ",", ";", "；", "、 ", " ", "和"]
LAWS = ["刑法", "刑事诉讼法", "刑事诉讼规则", "中华人民共和国刑法", "人民检察院刑事诉讼规则"]
VALUES = LABELS * 4 + ["不起诉", "酌定不起诉", "DNP", "", "起诉（建议）", "相对不起诉；", "相对不起 诉"]
DECISION_KEYS = ["决定：", "决定:", "决定： ", "决定:\u3000", "决定 ：", "处理决定：", "决定：\n", "决定：\n\n"]


def _law_line(rng: random.Random) -> str:
    law = rng.choice(LAWS)
    colon = rng.choice(["：", ":", "：", "："])
    pieces = [rng.choice(ARTICLE_POOL) for _ in range(rng.randint(0, 4))]
    body = ""
    for i, p in enumerate(pieces):
        body += (rng.choice(SEPARATORS) if i else "") + p
    gap = rng.choice(["", "", " ", "\n"])          # "\n": articles on the next line (must not match)
    lead, end = rng.choice(["", "", "- ", "**"]), rng.choice(["", "", "。", "\r"])
    return f"{lead}{law}{colon}{gap}{body}{end}"


def _decision_line(rng: random.Random) -> str:
    value = rng.choice(VALUES)
    if rng.random() < 0.25:
        value = f"**{value}**"
    if rng.random() < 0.1:
        value = f"**{value}"
    value += rng.choice(["", "", "。", "。。", " ", "；", " 。", "\r"])
    return rng.choice(["", "", " ", "  "]) + rng.choice(DECISION_KEYS) + value


def random_answer(rng: random.Random) -> str | None:
    if rng.random() < 0.03:
        return rng.choice([None, "", "   "])
    parts: list[str] = []
    r = rng.random()
    if r < 0.2:
        parts.append("<think>先想一想。决定：起诉\n【最终结论】决定：法定不起诉</think>")
    elif r < 0.25:
        parts.append("<think>a</think>中间</think>")
    if rng.random() < 0.85:
        parts.append(rng.choice(["【适用法条】", "【适用法条】\n", "【适用法条】 ", "适用法条："]))
        parts.extend(_law_line(rng) for _ in range(rng.randint(0, 4)))
    if rng.random() < 0.8:
        parts.append(rng.choice(["【审查分析】", "【审查分析】\n"]))
        parts.append(rng.choice(["情节轻微。", "依据刑法：第一条、第二条", "本案决定：起诉", "证据不足。"]))
    for _ in range(rng.choice([0, 1, 1, 1, 1, 2])):
        parts.append(rng.choice(["【最终结论】", "【最终结论】\n", "## 【最终结论】", "**【最终结论】**"]))
        if rng.random() < 0.9:
            parts.append(_decision_line(rng))
        if rng.random() < 0.2:
            parts.append(_decision_line(rng))
    if rng.random() < 0.05:
        parts.append("</think>【最终结论】决定：存疑不起诉")
    text = rng.choice(["\n", "\n\n", "\r\n", ""]).join(parts)
    return text


def random_gold(rng: random.Random) -> str | None:
    r = rng.random()
    if r < 0.05:
        return rng.choice(["不起诉", None, "起诉 ", "DNP", ""])
    return rng.choices(LABELS, weights=[60, 20, 8, 12])[0]


GOLD_ARTICLES = [[], ["cl:第二百六十四条"], ["cl:第二百六十四条", "cpl:第一百七十七条第二款"],
                 ["cl:第六十七条第三款", "cl:第264条"], ["cpl:第十六条第（一）项", "cpr:第三百七十条"]]


def _check_answer(text: str | None) -> None:
    decision, articles = ref_parse(text)
    got = parse_answer(text, compat="reference")
    assert (got.decision, list(got.relevant_articles), got.valid) == (decision, articles, decision is not None), \
        text


def test_parser_matches_the_protocol_on_random_answers():
    rng = random.Random(20240501)
    n_valid = n_invalid = n_articles = 0
    for _ in range(4000):
        text = random_answer(rng)
        _check_answer(text)
        decision, articles = ref_parse(text)
        n_valid += decision is not None
        n_invalid += decision is None
        n_articles += bool(articles)
    # the generator exercises both outcomes, and articles, in quantity
    assert n_valid > 800 and n_invalid > 800 and n_articles > 1500


@pytest.mark.parametrize("text, decision, articles", [
    # first </think> only; the decision is read from what follows it
    ("<think>x</think>【最终结论】决定：起诉\n</think>【最终结论】决定：法定不起诉", "起诉", []),
    # the first 决定 line after the first 【最终结论】, even when it is not a label
    ("【最终结论】决定：不起诉\n决定：起诉", None, []),
    # 决定 with either colon; \s* may cross a line break; one 。 dropped, not two
    ("【最终结论】决定:\n相对不起诉。", "相对不起诉", []),
    ("【最终结论】决定：相对不起诉。。", None, []),
    # ** deleted after the first strip, and the value stripped again after the 。 is dropped
    ("【最终结论】决定：**存疑不起诉**。", "存疑不起诉", []),
    ("【最终结论】决定：存疑不起诉 **", "存疑不起诉", []),
    ("【最终结论】决定：** 法定不起诉 **。", "法定不起诉", []),
    ("【最终结论】决定：起诉（提起公诉）", None, []),
    # a trailing ； is not dropped (the published reward accepts it, evaluation does not)
    ("【最终结论】决定：起诉；", None, []),
    # articles: first line after each law name, either colon, split on 、，,;； — no normalisation
    ("【适用法条】\n刑法:第264条，《刑法》第七十二条;第一条\n刑事诉讼法：\n第十六条\n【审查分析】刑事诉讼规则：第一条",
     None, ["cl:第264条", "cl:《刑法》第七十二条", "cl:第一条"]),
])
def test_parser_hand_cases(text, decision, articles):
    assert ref_parse(text) == (decision, articles)
    _check_answer(text)


# --------------------------------------------------------------------------------------------------------------
# metrics: package vs ref_result, one run and several unequal runs


def _random_items(rng: random.Random, n_cases: int, runs: int) -> list[ScoreItem]:
    golds = [(random_gold(rng), rng.choice(GOLD_ARTICLES)) for _ in range(n_cases)]
    items = []
    for run in range(runs):
        for case in range(n_cases):
            if runs > 1 and rng.random() < 0.15:          # unequal runs: some cases missing from some runs
                continue
            g, ga = golds[case]
            items.append(ScoreItem(case_id=str(case), run_id=str(run), raw_output=random_answer(rng),
                                   gold_decision=g, gold_articles=tuple(ga), finish_reason="stop"))
    return items


def _expected(items: list[ScoreItem]) -> dict:
    by_run: dict[str, list] = {}
    for it in items:
        d, a = ref_parse(it.raw_output)
        by_run.setdefault(it.run_id, []).append((it.gold_decision, d, a, list(it.gold_articles)))
    return ref_result(dict(sorted(by_run.items(), key=lambda kv: int(kv[0]))))


def _assert_same(got: dict, want: dict) -> None:
    assert list(got["per_run"]) == list(want["per_run"])
    assert set(got["pooled"]) == set(want["pooled"])
    assert got["pooled"] == want["pooled"]
    assert got["per_run"] == want["per_run"]
    assert got["mean_se"] == want["mean_se"]


@pytest.mark.parametrize("n_cases, runs, seed", [(3000, 1, 1), (400, 8, 2), (7, 3, 3), (1, 2, 4)])
def test_metrics_match_the_protocol(n_cases, runs, seed):
    items = _random_items(random.Random(seed), n_cases, runs)
    got = score_items(items, compat="reference").result
    want = _expected(items)
    _assert_same(got, want)
    if runs == 1:
        assert all(v["se"] == 0.0 for v in got["mean_se"].values())


def _entry(it: ScoreItem, multi: bool) -> dict:
    d, a = ref_parse(it.raw_output)
    e = {"prediction": {"relevant_articles": a, "decision": d},
         "reference": {"relevant_articles": list(it.gold_articles), "decision": it.gold_decision},
         "person_info": "某某", "procedure": "移送审查起诉", "fact": "经审查查明……",
         "raw_output": it.raw_output, "raw_reasoning": ""}
    if multi:
        e.update(sample_index=int(it.case_id), run_id=int(it.run_id))
    else:
        e["index"] = int(it.case_id)
    return e


@pytest.mark.parametrize("runs", [1, 4])
def test_reference_result_directories_rescore_to_the_protocol(tmp_path, runs):
    items = _random_items(random.Random(10 + runs), 300, runs)
    rng = random.Random(99)
    entries = [_entry(it, runs > 1) for it in items]
    rng.shuffle(entries)                            # file order is irrelevant
    paths = write_reference_dir(tmp_path, entries)
    assert {p.name for p in paths} >= {"details_正确.json", "details_解析错误.json"}
    got = score_run_dirs([tmp_path], compat="reference", write=False)
    _assert_same(got, _expected(items))
    # and the raw outputs of those files parse, in reference mode, to exactly what the reference stored
    for p in paths:
        for e in json.loads(p.read_text(encoding="utf-8")):
            parsed = parse_answer(e["raw_output"], compat="reference")
            assert (parsed.decision, list(parsed.relevant_articles)) == (e["prediction"]["decision"],
                                                                         e["prediction"]["relevant_articles"])


# Stored predictions as real reference directories hold them: the reference normalises a stored
# ``prediction.decision`` before comparing it, so these decorations are valid (a gloss stays invalid).
DECORATIONS = [
    ("**{}**", True), ("{}。", True), ("{}。。", False), ("  {} ", True), ("**{}**。", True), ("{} 。", True),
    ("{}（建议）", False), ("{}(不起诉)", False), ("{}", True), ("决定{}", False),
]


@pytest.mark.parametrize("runs", [1, 3])
def test_stored_predictions_are_normalised_as_the_reference_does(tmp_path, runs):
    rng = random.Random(50 + runs)
    entries, by_run = [], {}
    for run in range(runs):
        for case in range(120):
            gold = rng.choice(LABELS)
            label = rng.choice(LABELS)
            form, valid = DECORATIONS[(case + run) % len(DECORATIONS)]
            stored = form.format(label)
            assert (ref_normalise(stored) in LABELS) is valid
            pred = ref_normalise(stored) if valid else None
            arts = ["cpl:第一百七十七条第二款"] if case % 3 else []
            e = {"prediction": {"relevant_articles": arts, "decision": stored},
                 "reference": {"relevant_articles": ["cpl:第一百七十七条第二款"], "decision": gold},
                 "person_info": "某某", "procedure": "", "fact": "", "raw_output": None, "raw_reasoning": ""}
            if runs > 1:
                e.update(sample_index=case, run_id=run)
            else:
                e["index"] = case
            entries.append(e)
            by_run.setdefault(str(run), []).append((gold, pred, arts, ["cpl:第一百七十七条第二款"]))
    # write the files grouped by the normalised decision, as the reference would have
    groups: dict[str, list] = {}
    for e in entries:
        p = ref_normalise(e["prediction"]["decision"])
        g = e["reference"]["decision"]
        name = "解析错误" if p not in LABELS else ("正确" if p == g else f"{g}_{p}")
        groups.setdefault(name, []).append(e)
    for name, es in groups.items():
        (tmp_path / f"details_{name}.json").write_text(json.dumps(es, ensure_ascii=False), encoding="utf-8")
    got = score_run_dirs([tmp_path], compat="reference", write=False)
    _assert_same(got, ref_result(by_run))
    invalid = sum(1 for rows in by_run.values() for _, p, _, _ in rows if p is None)
    assert got["pooled"]["decision_parse_fail_count"] == invalid > 0
