"""Tiny fictional LeCaRD v1 / LeCaRDv2 datasets in the official layouts, written by the tests themselves.

Import as ``from lecard_fixtures import write_v1, write_v2``.
"""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

SCENES = {
    "盗窃罪": ("被告人{n}趁夜色进入超市，窃取手机{k}部、现金{m}元，后被公安机关抓获。", "{n}犯盗窃罪"),
    "抢劫罪": ("被告人{n}持刀在街头拦截被害人，抢走手提包一个、现金{m}元。", "{n}犯抢劫罪"),
    "诈骗罪": ("被告人{n}冒充客服拨打电话，骗取被害人银行卡内存款{m}元。", "{n}犯诈骗罪"),
    "交通肇事罪": ("被告人{n}驾驶小型轿车超速行驶，与行人相撞，致一人死亡，负事故主要责任。", "{n}犯交通肇事罪"),
}
NAMES = ["张某", "李某", "王某", "赵某", "钱某", "孙某"]


def _doc(charge: str, i: int) -> dict:
    fact, res = SCENES[charge]
    n = NAMES[i % len(NAMES)]
    fact = fact.format(n=n, k=i + 1, m=1000 * (i + 1))
    return {"fact": fact, "reason": f"本院认为，被告人{n}的行为已构成{charge}。",
            "result": f"被告人{res.format(n=n)}，判处有期徒刑{i + 1}年。", "charge": [charge], "article": [264]}


def v2_documents() -> dict[str, dict]:
    """pid → LeCaRDv2 candidate; pids 100+ (3 per charge scene, plus noise)."""
    docs = {}
    pid = 100
    for charge in SCENES:
        for i in range(3):
            d = _doc(charge, i)
            docs[str(pid)] = {"pid": pid, "qw": f"某县人民法院刑事判决书。{d['fact']}{d['reason']}{d['result']}", **d}
            pid += 1
    return docs


def write_v2(root: Path, *, with_candidates: bool = True) -> Path:
    """LeCaRDv2 layout: query/test_query.json (ids 5, 10) + query/common_query.json (id 7), candidates,
    label/relevence.trec (tab separated), relevence_gold.trec, ranking_pool.json, others/."""
    docs = v2_documents()
    (root / "query").mkdir(parents=True)
    (root / "label").mkdir()
    (root / "others").mkdir()
    q5 = _doc("盗窃罪", 7)
    q10 = _doc("诈骗罪", 8)
    q7 = _doc("抢劫罪", 9)
    lines = [{"id": 5, "query": "公诉机关指控被告人犯盗窃罪。" + q5["fact"], "fact": q5["fact"]},
             {"id": 10, "query": "公诉机关指控被告人犯诈骗罪。" + q10["fact"], "fact": q10["fact"]}]
    (root / "query" / "test_query.json").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines),
                                                    encoding="utf-8")
    (root / "query" / "common_query.json").write_text(
        json.dumps({"id": 7, "query": "公诉机关指控被告人犯抢劫罪。" + q7["fact"], "fact": q7["fact"]},
                   ensure_ascii=False) + "\n", encoding="utf-8")
    qrels = {"5": {"100": 3, "101": 2, "102": 1, "106": 0}, "10": {"106": 3, "107": 2, "100": 0},
             "7": {"103": 1, "104": 1, "100": 0}}
    rows = [f"{q}\t0\t{d}\t{g}\n" for q, gs in qrels.items() for d, g in gs.items()]
    (root / "label" / "relevence.trec").write_text("".join(rows))
    (root / "label" / "relevence_gold.trec").write_text("".join(r for r in rows if int(r.split()[3]) >= 2))
    pool = "".join(json.dumps({"qid": int(q), "rank_doc_id": [int(p) for p in sorted(docs)]}) + "\n" for q in qrels)
    (root / "label" / "ranking_pool.json").write_text(pool)
    (root / "others" / "stopword.txt").write_text("的\n了\n")
    (root / "others" / "criminal charges.txt").write_text("\n".join(SCENES) + "\n", encoding="utf-8")
    if with_candidates:
        (root / "candidate").mkdir()
        for pid, d in docs.items():
            (root / "candidate" / f"{pid}.json").write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    return root


def _v1_candidate(charge: str, i: int) -> dict:
    d = _doc(charge, i)
    return {"ajId": f"aj-{i}", "ajName": f"某某{charge[:-1]}一案", "ajjbqk": d["fact"], "cpfxgc": d["reason"],
            "pjjg": d["result"], "qw": d["fact"] + d["reason"] + d["result"], "writId": f"w{i}", "writName": "判决书"}


def write_v1(root: Path, *, archive: bool = True) -> Path:
    """LeCaRD v1 layout: data/query/query.json (ridx 1, 2 labelled; 3 not), data/label/*, and the candidates as
    candidates.tar.xz (LeCaRD/data/candidates/<ridx>/<doc>.json) or as data/candidates/."""
    data = root / "data"
    for sub in ("query", "label", "others"):
        (data / sub).mkdir(parents=True)
    queries = [{"ridx": 1, "q": _doc("盗窃罪", 5)["fact"], "crime": ["盗窃罪"], "path": "x"},
               {"ridx": 2, "q": _doc("交通肇事罪", 5)["fact"], "crime": ["交通肇事罪"], "path": "y"},
               {"ridx": 3, "q": _doc("诈骗罪", 5)["fact"], "crime": [], "path": "z"}]
    (data / "query" / "query.json").write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in queries),
                                               encoding="utf-8")
    pools = {"1": {"11": ("盗窃罪", 0), "12": ("盗窃罪", 1), "13": ("抢劫罪", 0), "14": ("诈骗罪", 0)},
             "2": {"21": ("交通肇事罪", 0), "22": ("交通肇事罪", 1), "13": ("抢劫罪", 0), "23": ("盗窃罪", 2)},
             "3": {"31": ("诈骗罪", 1), "14": ("诈骗罪", 0), "11": ("盗窃罪", 0)}}
    labels = {"1": {"12": 3, "11": 2, "13": 1}, "2": {"21": 3, "22": 3, "23": 0}}
    judged = {"1": ["11", "12", "13"], "2": ["21", "22", "23"], "3": ["31", "14"]}
    (data / "label" / "label_top30_dict.json").write_text(json.dumps(labels))
    (data / "label" / "judged_pool.json").write_text(json.dumps(judged))
    (data / "others" / "stopword.txt").write_text("的\n")
    (data / "others" / "criminal charges.txt").write_text("\n".join(c[:-1] for c in SCENES) + "\n",
                                                          encoding="utf-8")
    files = {f"{q}/{d}.json": json.dumps(_v1_candidate(c, i), ensure_ascii=False)
             for q, docs in pools.items() for d, (c, i) in docs.items()}
    if archive:
        with tarfile.open(root / "candidates.tar.xz", "w:xz") as tf:
            for name, text in files.items():
                raw = text.encode("utf-8")
                info = tarfile.TarInfo(f"LeCaRD/data/candidates/{name}")
                info.size = len(raw)
                tf.addfile(info, io.BytesIO(raw))
    else:
        for name, text in files.items():
            p = data / "candidates" / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text, encoding="utf-8")
    return root
