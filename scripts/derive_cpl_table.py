"""Check (and, given a 2012 text, re-derive) the CPL 2012 → 2018 renumbering table in ``jiancha.law.cpl``.

The table is computed from the 18 insertions listed in the 2018 amendment decision (全国人民代表大会常务委员会
关于修改《中华人民共和国刑事诉讼法》的决定, 2018-10-26); no 2012 text was available offline. This script

1. loads the 2018 text (``--statutes`` folder, LawRefBook layout) and checks that it has 308 articles and that
   each inserted article holds the subject the decision gives it;
2. with ``--cpl2012 FILE`` (2012 text in the same layout) aligns the two texts with difflib (best match of
   each 2012 article among 2018 articles near its expected position) and prints every disagreement.

    .venv/bin/python scripts/derive_cpl_table.py --statutes ../shared/data/statutes [--cpl2012 FILE]
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from jiancha.law.articles import Law
from jiancha.law.cpl import CPL_2012_TO_2018, CPL_2018_ARTICLES, INSERTED_2018
from jiancha.law.statutes import load_statutes, parse_statute_markdown

#: Words each inserted 2018 article must contain (its new subject).
INSERTED_SUBJECTS = {
    15: "愿意接受处罚", 36: "值班律师", 170: "监察机关", 174: "具结书", 182: "最高人民检察院核准", 201: "认罪认罚",
    222: "速裁程序", 223: "速裁程序", 224: "速裁程序", 225: "速裁程序", 226: "速裁程序",
    291: "缺席", 292: "", 293: "", 294: "", 295: "", 296: "", 297: "",
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--statutes", type=Path, required=True)
    ap.add_argument("--cpl2012", type=Path)
    args = ap.parse_args(argv)
    cpl18 = load_statutes(args.statutes, laws=(Law.CRIMINAL_PROCEDURE,)).articles[Law.CRIMINAL_PROCEDURE]
    problems = []
    if len(cpl18) != CPL_2018_ARTICLES:
        problems.append(f"2018 text has {len(cpl18)} articles, expected {CPL_2018_ARTICLES}")
    for art in INSERTED_2018:
        text = cpl18[(art, 0)].text
        word = INSERTED_SUBJECTS[art]
        if word not in text:
            problems.append(f"2018 art. {art} should be inserted ({word}) but reads {text[:30]!r}")
    # Trial in absentia (291–297) and fast-track (222–226) chapters: the articles around them must be the old ones.
    if "缺席" not in "".join(cpl18[(a, 0)].text for a in range(292, 298)):
        problems.append("2018 arts. 292–297 do not mention 缺席 (trial in absentia)")
    if args.cpl2012:
        cpl12 = parse_statute_markdown(args.cpl2012.read_text(encoding="utf-8"), Law.CRIMINAL_PROCEDURE,
                                       path=str(args.cpl2012))
        for (old, _), a12 in sorted(cpl12.items()):
            expected = CPL_2012_TO_2018.get(old)
            window = [k for k in cpl18 if expected and abs(k[0] - expected) <= 3]
            best = max(window, key=lambda k: difflib.SequenceMatcher(None, a12.text, cpl18[k].text).ratio())
            if best[0] != expected:
                problems.append(f"2012 art. {old}: table says {expected}, text aligns best with {best[0]}")
    print(f"table: {len(CPL_2012_TO_2018)} articles of 2012, "
          f"{sum(o != n for o, n in CPL_2012_TO_2018.items())} moved; inserted in 2018: {list(INSERTED_2018)}")
    print("\n".join(problems) if problems else "all checks passed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
