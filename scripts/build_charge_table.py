"""Build ``src/jiancha/law/data/charges.json``: official charge names (罪名) and their Criminal Law articles.

Sources (official texts, read from a statutes directory in the ``../shared/data/statutes`` layout):

* 最高人民检察院关于适用刑法分则规定的犯罪的罪名的意见 (1997-12-25): the base list ``N．名称罪（第X条第Y款）``;
* 最高人民法院、最高人民检察院关于执行《刑法》确定罪名的补充规定 and （二）…（八） (2002–2024), applied in date
  order: table rows ``| 第X条 … | 名称罪（取消旧罪名罪名） |`` add names and cancel replaced ones; the prose of
  （八） renames ``由“旧”修改为“新”``.

Cross-check (printed, not merged): ``jurex/crime2article.json`` (THUlawtech/JUREX, MIT), 483 names.
Only names and article numbers are written (no law text). Run::

    .venv/bin/python scripts/build_charge_table.py --statutes ../shared/data/statutes \
        --jurex ../shared/data/jurex/crime2article.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from jiancha._util.io import write_json
from jiancha.law.articles import Law, parse_articles
from jiancha.law.numerals import int_to_cn

OUT = Path(__file__).resolve().parents[1] / "src" / "jiancha" / "law" / "data" / "charges.json"

BASE = "最高人民检察院关于适用刑法分则规定的犯罪的罪名的意见(1997-12-25).md"
SUPPLEMENT_GLOB = "最高人民法院、最高人民检察院关于执行*确定罪名的补充规定*.md"

_BASE_ITEM = re.compile(r"(?:^|\s)(?:\d+．)?\s*(?P<name>(?:[^\s（）．]|（边）)+?罪)（(?P<arts>第[^）]*)）", re.MULTILINE)
_ROW = re.compile(r"^\|\s*(?P<arts>(?:第|《)[^|]*?)?\s*\|\s*(?P<names>[^|]+?)\s*\|\s*$", re.MULTILINE)
_CANCEL = re.compile(r"[（(]?\s*取消(?P<old>[^（）()]+?罪)(?:罪名|(?=\s*[）)])|$)\s*[）)]?")
_NAME_SPLIT = re.compile(r"[；;]|(?<=罪)\s+|(?<=[^犯]罪)、")
_OLD_PREFIX = re.compile(r"^.*第[^罪]*?[条款项]")

#: Replacements the texts make without the word 取消 (the 2002 supplement renames these at the same article),
#: and one punctuation variant of the 1997 opinion, as the later official lists write them.
IMPLICIT_RENAMES = {
    "操纵证券交易价格罪": "操纵证券、期货交易价格罪",
    "编造并传播证券交易虚假信息罪": "编造并传播证券、期货交易虚假信息罪",
    "伪造变造国家有价证券罪": "伪造、变造国家有价证券罪",
}
_OLD_SPLIT = re.compile(r"(?<=罪)(?:[，；;\s]|和|及)+|(?<=[^犯]罪)、")
_RENAME = re.compile(r"第(?P<art>[^（“]+?)条[^“]*?的罪名由“(?P<old>[^”]+)”修改为“(?P<new>[^”]+)”")
_DATE = re.compile(r"\((\d{4}-\d{2}-\d{2})\)")


def _articles(cell: str) -> list[str]:
    """Article-level citation strings (cl:第N条[之M]) of a cell such as ``第114条、第115条第1款（《修正案…》）``."""
    cell = re.sub(r"[（(][^（）()]*《[^》]*》[^（）()]*[）)]", "", cell)  # drop （《刑法修正案（十一）》第二条）
    cell = re.sub(r"（[^（）]*修正案[^（）]*）", "", cell)
    refs = parse_articles(cell, default_law=Law.CRIMINAL_LAW)
    return list(dict.fromkeys(r.article_level().canonical() for r in refs))


def build(statutes: Path, jurex: dict[str, list[int]] | None = None
          ) -> tuple[dict[str, list[str]], dict[str, list[str]], list[str]]:
    """(current name → articles, former name → the names that replaced it, log lines)."""
    table: dict[str, list[str]] = {}
    former: dict[str, list[str]] = {}
    log: list[str] = []
    base = (statutes / BASE).read_text(encoding="utf-8").replace("剌探", "刺探")  # typo in the source text
    for m in _BASE_ITEM.finditer(base):
        table.setdefault(m["name"], []).extend(a for a in _articles(m["arts"]) if a not in table.get(m["name"], []))
    for old, new in IMPLICIT_RENAMES.items():
        if old in table and new.replace("、", "") == old.replace("、", ""):
            table[new] = table.pop(old)
    log.append(f"{BASE}: {len(table)} names")
    supplements = sorted(statutes.glob(SUPPLEMENT_GLOB), key=lambda p: _DATE.search(p.name).group(1))
    for path in supplements:
        text = path.read_text(encoding="utf-8")
        added = cancelled = renamed = 0
        for row in _ROW.finditer(text):
            if row["names"].strip().startswith("罪名"):
                continue  # header row
            arts = _articles(row["arts"] or "")
            cell = row["names"]
            gone: list[str] = []
            for c in _CANCEL.finditer(cell):
                for old in _OLD_SPLIT.split(c["old"]):
                    old = _OLD_PREFIX.sub("", re.sub(r"\s+", "", old))
                    if old and table.pop(old, None) is not None:
                        cancelled += 1
                        gone.append(old)
            cell = _CANCEL.sub("", cell)
            names = [n for n in (re.sub(r"\s+", "", x) for x in _NAME_SPLIT.split(cell)) if n.endswith("罪")]
            for old in gone:
                former[old] = names
            for name in names:
                # A longer name at the same article replaces the shorter one (盗窃、抢夺枪支、弹药、爆炸物罪 →
                # 盗窃、抢夺枪支、弹药、爆炸物、危险物质罪) even where the text does not say 取消.
                for old in [o for o in table if o != name and name.startswith(o[:-1] + "、")
                            and set(table[o]) & set(arts)]:
                    del table[old]
                    former[old] = [name]
                    cancelled += 1
                for old, new in IMPLICIT_RENAMES.items():
                    if name == new and old in table:
                        del table[old]
                        former[old] = [name]
                        cancelled += 1
                if name not in table:
                    added += 1
                table[name] = list(dict.fromkeys(table.get(name, []) + arts))
        for m in _RENAME.finditer(text):
            old, new = m["old"], m["new"]
            if old in table:
                table[new] = table.pop(old)
                former[old] = [new]
                renamed += 1
        log.append(f"{path.name}: +{added} -{cancelled} renamed {renamed} → {len(table)}")
    missing = [n for n, a in table.items() if not a]
    if jurex is not None:
        for n in missing:
            # Only articles of the Criminal Law's special part (102+): 骗购外汇罪 rests on the 1998 NPCSC
            # decision, whose article 1 is not a Criminal Law article.
            arts = [a for a in jurex.get(n.removesuffix("罪"), []) if a >= 102]
            table[n] = [f"cl:第{int_to_cn(a)}条" for a in arts]
        log.append(f"articles from jurex for {len(missing)} names: {missing}")
    return table, former, log


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--statutes", type=Path, required=True)
    ap.add_argument("--jurex", type=Path, help="crime2article.json for a cross-check")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    jurex = json.loads(args.jurex.read_text(encoding="utf-8")) if args.jurex else None
    table, former, log = build(args.statutes, jurex)
    print("\n".join(log))
    if jurex is not None:
        ours = {n.removesuffix("罪") for n in table}
        print(f"jurex: {len(jurex)} names; only in ours: {sorted(ours - set(jurex))}; "
              f"only in jurex: {sorted(set(jurex) - ours)}")
    payload = {
        "provenance": {
            "source": "最高人民检察院关于适用刑法分则规定的犯罪的罪名的意见(1997) + 最高人民法院、最高人民检察院"
                      "关于执行《中华人民共和国刑法》确定罪名的补充规定(2002)、（二）…（八）(2024); official texts",
            "builder": "scripts/build_charge_table.py",
            "content": "charge names and Criminal Law article numbers only",
            "count": len(table),
            "former_names": "names cancelled or renamed by a supplement → the names that replaced them",
        },
        "former_names": {old: former[old] for old in sorted(former)},
        "charges": {name: table[name] for name in sorted(table, key=lambda n: (_first_article(table[n]), n))},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_json(args.out, payload)
    print(f"wrote {len(table)} charges to {args.out}")
    return 0


def _first_article(arts: list[str]) -> tuple[int, int]:
    from jiancha.law.articles import parse_canonical

    if not arts:
        return (10_000, 0)
    r = parse_canonical(arts[0])
    return (r.article, r.suffix)


if __name__ == "__main__":
    sys.exit(main())
