"""Self-check of the blind corpus: every gold file against its document.

Stand-alone (standard library only); does not import or run the pipeline.
Usage:  python3 check_gold.py [DIR]   (DIR: a folder of corpus folders, or one corpus folder; default: this file's)
Checks: JSON shape; document exists and decodes; id / field starts occur in the
cleaned text; PII and keep strings occur; articles cited between the reasoning
start and the decision sentence equal the gold list; decision date matches the
gold date; CPL numbering matches the date; decision label matches the CPL
article; label counts per folder.  Exits 1 on any error.
"""

import collections
import glob
import html
import json
import os
import re
import sys

FW = str.maketrans("０１２３４５６７８９", "0123456789")
CN = "一二三四五六七八九十百零〇"
FURN = [
    re.compile(r"^.{0,60}?第\s*\d+\s*页\s*[，,/]?\s*共\s*\d+\s*页\s*$"),
    re.compile(r"^\s*[—\-_=─]{10,}\s*$"),
    re.compile(r"^\s*-\s*\d+\s*-\s*$"),
    re.compile(r"^\s*第\s*\d+\s*页\s*$"),
    re.compile(r"^\s*\d+\s*/\s*\d+\s*$"),
]


def decode(raw):
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("gb18030")


def clean(text, is_html):
    text = text.replace("\r\n", "\n")
    if is_html:
        text = re.sub(r"(?is)<(script|style)[^>]*>.*?</\1>", "", text)
        text = re.sub(r"(?i)<br\s*/?>|</p>|</div>|</tr>|</h\d>", "\n", text)
        text = re.sub(r"<[^>]+>", "", text)
        text = html.unescape(text)
    return text


def flat(text, headers=()):
    out = []
    for line in text.split("\n"):
        s = line.strip()
        if any(p.match(s.translate(FW)) for p in FURN):
            continue
        if s and s in headers:
            continue
        out.append(s)
    return "".join(out).replace("\xa0", "").translate(FW)


def running_headers(text):
    # lines repeated 2+ times that look like page headers (contain 检察院/法院 and a doc title or 文号)
    c = collections.Counter(l.strip() for l in text.split("\n") if l.strip())
    return {
        l
        for l, n in c.items()
        if n >= 2 and re.search(r"(检察院|法院|检察网).{0,40}(书|号|公开)", l) and len(l) < 90
    }


TOK = re.compile(
    r"(?P<law>《[^》]{1,60}》|刑事诉讼法|刑法)"
    r"|(?P<art>第[%s]+条(?:之[%s]+)?)(?P<kuan>第[%s]+款)?(?P<xiang>第?[（(][%s]+[）)]项|第[%s]+项)?"
    % ((CN,) * 5)
    + r"|(?P<ckuan>第[%s]+款)(?P<cxiang>第?[（(][%s]+[）)]项|第[%s]+项)?" % ((CN,) * 3)
    + r"|(?P<cx>第?[（(][%s]+[）)]项|第[%s]+项)" % ((CN,) * 2)
)


def norm_xiang(x):
    n = re.search(f"[{CN}]+", x).group(0)
    return f"第（{n}）项"


def articles(region):
    law = None
    art = None
    kuan = ""
    res = []
    for m in TOK.finditer(region):
        if m.group("law"):
            t = m.group("law")
            if "刑事诉讼法" in t:
                law = "cpl"
            elif "刑法" in t and "修正案" not in t and "解释" not in t and "规定" not in t:
                law = "cl"
            else:
                law = "other"
            art = None
            kuan = ""
            continue
        if m.group("art"):
            art = m.group("art")
            kuan = m.group("kuan") or ""
            x = norm_xiang(m.group("xiang")) if m.group("xiang") else ""
        elif m.group("ckuan"):
            if not art:
                continue
            kuan = m.group("ckuan")
            x = norm_xiang(m.group("cxiang")) if m.group("cxiang") else ""
        else:
            if not art:
                continue
            x = norm_xiang(m.group("cx"))
        if law in ("cl", "cpl"):
            s = f"{law}:{art}{kuan}{x}"
            if s not in res:
                res.append(s)
    return res


CNUM = {c: i for i, c in enumerate("〇一二三四五六七八九")}
CNUM.update({"O": 0, "o": 0, "○": 0, "Ｏ": 0, "零": 0})


def cn_year(s):
    return int("".join(str(CNUM[c]) for c in s))


def cn_small(s):
    if s.isdigit():
        return int(s)
    if s == "十":
        return 10
    if s.startswith("十"):
        return 10 + CNUM[s[1]]
    if s.endswith("十"):
        return CNUM[s[0]] * 10
    if "十" in s:
        return CNUM[s[0]] * 10 + CNUM[s[2]]
    return CNUM[s]


DATE = re.compile(
    r"([〇一二三四五六七八九Oo○Ｏ零]{4}|\d{4})\s*年\s*([一二三四五六七八九十]{1,3}|\d{1,2})\s*月\s*([一二三四五六七八九十]{1,3}|\d{1,2})\s*日"
)


def parse_date(m):
    y = m.group(1)
    y = int(y) if y.isdigit() else cn_year(y)
    return f"{y:04d}-{cn_small(m.group(2)):02d}-{cn_small(m.group(3)):02d}"


DEC_CPL = {
    ("起诉", "2012"): "cpl:第一百七十二条",
    ("起诉", "2018"): "cpl:第一百七十六条",
    ("相对不起诉", "2012"): "cpl:第一百七十三条第二款",
    ("相对不起诉", "2018"): "cpl:第一百七十七条第二款",
    ("法定不起诉", "2012"): "cpl:第一百七十三条第一款",
    ("法定不起诉", "2018"): "cpl:第一百七十七条第一款",
    ("存疑不起诉", "2012"): "cpl:第一百七十一条第四款",
    ("存疑不起诉", "2018"): "cpl:第一百七十五条第四款",
}
KINDS = {"name", "id_number", "phone", "address", "plate", "account", "wechat", "email"}
ROLES = {"suspect", "victim", "witness", "relative", "co_offender", "counsel", "official", "other"}


def main(root):
    errors = []
    warn = []
    counts = collections.Counter()
    docs = 0

    def err(f, msg):
        errors.append(f"{f}: {msg}")

    root = os.path.abspath(root)
    if glob.glob(os.path.join(root, "*.gold.json")):
        # one corpus folder given: check it alone
        root, folders = os.path.dirname(root), [os.path.basename(root)]
    else:
        folders = sorted(
            d for d in os.listdir(root) if glob.glob(os.path.join(root, d, "*.gold.json"))
        )
    for folder in folders:
        golds = sorted(glob.glob(os.path.join(root, folder, "*.gold.json")))
        files = {
            os.path.basename(p)
            for p in glob.glob(os.path.join(root, folder, "*"))
            if not p.endswith((".gold.json", ".md"))
        }
        named = set()
        ids_seen = {}
        for gp in golds:
            with open(gp, encoding="utf-8") as fh:
                g = json.load(fh)
            f = "{}/{}".format(folder, g["file"])
            named.add(g["file"])
            path = os.path.join(root, folder, g["file"])
            if not os.path.exists(path):
                err(f, "document missing")
                continue
            docs += 1
            for k in ("file", "expect", "doc_type", "reject_reason", "records", "pii", "keep"):
                if k not in g:
                    err(f, "missing key " + k)
            is_html = g["file"].endswith(".html")
            with open(path, "rb") as fh:
                text = clean(decode(fh.read()), is_html)
            fl = flat(text, running_headers(text))
            textn = text.replace("\xa0", " ")
            for p in g["pii"]:
                if p["kind"] not in KINDS or p["role"] not in ROLES:
                    err(f, f"bad pii kind/role {p!r}")
                if p["text"] not in textn:
                    err(f, "pii not in text: {}".format(p["text"]))
            pts = [p["text"] for p in g["pii"]]
            if len(set(pts)) != len(pts):
                err(f, "duplicate pii entries")
            for k in g["keep"]:
                if k not in textn and k not in fl:
                    err(f, f"keep not in text: {k}")
                for p in pts:
                    if p in k or k in p:
                        err(f, f"keep {k} overlaps pii {p}")
            # unlisted identifiers
            for m in re.finditer(r"(?<!\d)\d{17}[\dXx](?!\d)", fl):
                if not any(m.group(0) in p.translate(FW) for p in pts):
                    err(f, f"unlisted 18-digit number {m.group(0)}")
            for m in re.finditer(
                r"[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-Z]·?[A-Z0-9]{5}", fl
            ):
                if not any(m.group(0) in p for p in pts):
                    err(f, f"unlisted plate-like string {m.group(0)}")
            for m in re.finditer(r"(?<![\d.])\d{15,19}(?![\d.])", fl):
                if not any(m.group(0) in p.translate(FW) for p in pts):
                    err(f, f"unlisted long number {m.group(0)}")
            for m in re.finditer(r"[A-Za-z0-9._-]+@[A-Za-z0-9.-]+\.[a-z]{2,}", fl):
                if not any(m.group(0) in p for p in pts):
                    err(f, f"unlisted email {m.group(0)}")
            for m in re.finditer(r"(?<!\d)1[3-9]\d{9}(?!\d)", fl):
                if not any(m.group(0) in p.translate(FW) for p in pts):
                    err(f, f"unlisted phone-like number {m.group(0)}")
            if g["expect"] == "reject":
                counts[(folder, "reject:" + str(g["reject_reason"]))] += 1
                if g["records"]:
                    err(f, "reject with records")
                if g["reject_reason"] == "duplicate":
                    d = g.get("duplicate_of")
                    if d not in files:
                        err(f, f"duplicate_of missing: {d}")
                continue
            if not g["records"]:
                err(f, "no records")
            if not (2 <= len(pts) <= 8):
                warn.append(f"{f}: {len(pts)} pii")
            labels = {r["decision"] for r in g["records"]}
            if len(labels) != 1:
                err(f, "mixed decisions")
            counts[(folder, g["records"][0]["decision"])] += 1
            for r in g["records"]:
                if r["id"] not in fl:
                    err(f, "id not in text: " + r["id"])
                for k in ("person_info_start", "procedure_start", "fact_start", "reasoning_start"):
                    v = r[k]
                    if len(v) != 12:
                        err(f, f"{k} not 12 chars: {v!r}")
                    if v not in fl:
                        err(f, f"{k} not in text: {v!r}")
                    if re.search(r"\s", v):
                        err(f, f"{k} has whitespace: {v!r}")
                if r["cpl_numbering"] != ("2012" if r["date"] <= "2018-10-25" else "2018"):
                    err(f, "numbering vs date")
                exp = DEC_CPL[(r["decision"], r["cpl_numbering"])]
                if exp not in r["articles"]:
                    err(f, f"decision article {exp} missing")
                for other, a in DEC_CPL.items():
                    if other[1] == r["cpl_numbering"] and a != exp and a in r["articles"]:
                        err(f, f"conflicting decision article {a}")
                i = fl.find(r["reasoning_start"])
                pat = r"提起公诉" if r["decision"] == "起诉" else r"不起诉(?:决定)?[。．]"
                m = re.compile(pat).search(fl, i)
                if i < 0 or not m:
                    err(f, "cannot delimit reasoning")
                    continue
                got = articles(fl[i : m.end()])
                if got != r["articles"]:
                    err(f, "articles differ:\n   gold {}\n   text {}".format(r["articles"], got))
                dm = DATE.search(fl, m.end())
                if not dm or parse_date(dm) != r["date"]:
                    err(f, "date {} vs text {}".format(r["date"], dm and parse_date(dm)))
                if (
                    r["decision"] == "法定不起诉"
                    and r["cpl_numbering"] == "2018"
                    and "cpl:第十五条" in r["articles"]
                ):
                    err(f, "2018 第十五条 is plea leniency, not a statutory ground")
            key = (g["records"][0]["id"], tuple(sorted(r["person_info_start"] for r in g["records"])))
            if key in ids_seen:
                err(f, f"same id and persons as {ids_seen[key]} but not marked duplicate")
            ids_seen[key] = f
        extra = files - named
        for e in sorted(extra):
            err(folder + "/" + e, "document without gold file")
    print("documents checked:", docs)
    for k in sorted(counts):
        print(f"  {k[0]:<7} {k[1]:<22} {counts[k]}")
    for w in warn:
        print("WARN", w)
    for e in errors:
        print("ERROR", e)
    print("errors:", len(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))))
