"""Quality of the dataset pipeline on a blind corpus: yield per class, field accuracy, de-identification.

A blind folder holds documents ``NAME.EXT`` (.txt / .html / .pdf, or ``NAME.pdfsrc.txt``: text rendered to a
text-layer PDF first, as tests/corpus/pdfgen.py does) each with ``NAME.gold.json``:
``{file, expect: extract|reject, doc_type, reject_reason, records: [{id, decision, date, province,
cpl_numbering, articles, person_info_start, procedure_start, fact_start, reasoning_start}], pii: [{text, kind,
role}], keep: [...]}``. The documents are copied to a temporary folder and run through ``build extract``
(``extract_folder``: ingest, dedupe, rule track) and ``build deid`` (``deidentify_record``).

Printed (``--json``: the same as one JSON object, for tests):

- yield per class (gold class of the document: the decision of its first gold record, ``not_a_decision`` for
  documents to reject): documents seen, extracted, flagged, rejected; decision documents lost (rejected), and
  non-decisions let through;
- accuracy per field over the gold records (a gold record without a matching extracted record counts wrong):
  ``decision``, ``date``, ``province``, ``cpl_numbering``, ``articles`` (set equality of the canonical strings
  of 刑法 and 刑事诉讼法 articles, which the gold lists),
  and the four field starts (``person_info``, ``procedure``, ``fact``, ``raw_reasoning_and_decision``): right
  when the extracted field starts with the gold start, both with all whitespace removed. Records are matched
  by order within the document (see ``_match``);
- personal details left: gold ``pii`` texts still present in any de-identified field of the document's records;
- over-masking: masked spans that are not personal details (a name span that neither contains nor lies inside
  a gold PII text of its document), as a share of all masked spans; and ``keep`` strings present before
  de-identification and gone after it.

    python benchmarks/build_quality.py tests/corpus/blind/open tests/corpus/blind/sealed [--json] [--ner lac|none]
                                       [--show]

Targets on the sealed part: every decision document extracted, ≥ 95 % on each field, no personal detail left,
over-masking ≤ 2 % of masked spans.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from jiancha.corpus.deid import DEID_FIELDS, deidentify_record
from jiancha.corpus.ner import DEFAULT_NER, NER_BACKENDS
from jiancha.corpus.outcomes import NOT_A_DECISION, STATES, YIELD_CLASSES
from jiancha.corpus.pipeline import extract_folder

GOLD_SUFFIX = ".gold.json"
PDF_SOURCE_SUFFIX = ".pdfsrc.txt"
#: Gold record field → extracted record attribute, for the field starts.
START_FIELDS: dict[str, str] = {
    "person_info_start": "person_info",
    "procedure_start": "procedure",
    "fact_start": "fact",
    "reasoning_start": "raw_reasoning_and_decision",
}
#: Laws whose articles the gold lists (the extracted ``cpr:`` articles of the Procuratorate's Rules, which
#: PDP-Bench records carry too, are not scored).
SCORED_LAWS: tuple[str, ...] = ("cl:", "cpl:")
VALUE_FIELDS: tuple[str, ...] = ("decision", "date", "province", "cpl_numbering", "articles")
FIELDS: tuple[str, ...] = (*VALUE_FIELDS, *START_FIELDS)
_WS_RE = re.compile(r"\s+")


def _squash(text: str | None) -> str:
    return _WS_RE.sub("", text or "")


def _render_pdf(text: str, path: Path) -> None:
    """Text-layer PDF like tests/corpus/pdfgen.py (reportlab's STSong-Light CID font, wrapped at 34)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "corpus"))
    from pdfgen import write_text_pdf

    write_text_pdf(text, path)


def load_blind(folder: Path) -> dict[str, dict[str, Any]]:
    """Gold of each document, keyed by the document's file name in the folder."""
    out: dict[str, dict[str, Any]] = {}
    for gold_path in sorted(folder.glob(f"*{GOLD_SUFFIX}")):
        gold = json.loads(gold_path.read_text(encoding="utf-8"))
        out[gold.get("file") or gold_path.name[: -len(GOLD_SUFFIX)]] = gold
    return out


def stage_documents(folder: Path, golds: dict[str, dict[str, Any]], dest: Path) -> dict[str, str]:
    """Copy (or render) every gold document into ``dest``; returns staged file name → gold file name."""
    staged: dict[str, str] = {}
    for name in golds:
        src = folder / name
        if not src.exists():
            raise SystemExit(f"{folder}: gold names {name!r} but the file is missing")
        if name.endswith(PDF_SOURCE_SUFFIX):
            target = dest / (name[: -len(PDF_SOURCE_SUFFIX)] + ".pdf")
            _render_pdf(src.read_text(encoding="utf-8"), target)
        else:
            target = dest / name
            shutil.copyfile(src, target)
        staged[target.name] = name
    return staged


def gold_class(gold: dict[str, Any]) -> str:
    recs = gold.get("records") or []
    if gold.get("expect") == "reject" and not recs:
        return NOT_A_DECISION
    return recs[0]["decision"] if recs else NOT_A_DECISION


def _field_right(field: str, want: Any, rec: Any, numbering: str | None) -> bool:
    if rec is None:
        return False
    if field == "decision":
        return rec.decision == want
    if field == "date":
        return rec.date == want
    if field == "province":
        return rec.province == want
    if field == "cpl_numbering":
        return want is None or numbering == str(want)
    if field == "articles":   # the gold lists 刑法 and 刑事诉讼法 articles; 规则 (cpr:) ones are extracted besides
        return {a for a in rec.relevant_articles if a.startswith(SCORED_LAWS)} == set(want or [])
    got = _squash(getattr(rec, START_FIELDS[field]))
    return got.startswith(_squash(want)) if want else not got


def _match(gold_recs: list[dict[str, Any]], extracted: list[Any]) -> list[Any]:
    """The extracted record for each gold record, by order within the document (gold records of one document
    share its case number; the pipeline numbers them ``-1``, ``-2`` … in the same order); None past the end."""
    return [extracted[k] if k < len(extracted) else None for k in range(len(gold_recs))]


def evaluate(folder: Path, *, ner: str = DEFAULT_NER, show: bool = False) -> dict[str, Any]:
    golds = load_blind(folder)
    with tempfile.TemporaryDirectory() as tmp:
        staged = stage_documents(folder, golds, Path(tmp))
        report = extract_folder(tmp, keep_documents=False)
        by_doc: dict[str, list[Any]] = {}
        for e in report.extracted:
            by_doc.setdefault(staged[Path(e.path).name], []).append(e)
        rejected = {staged[Path(r.path).name]: r.reason for r in report.rejects}

    yields: dict[str, Counter[str]] = {c: Counter() for c in YIELD_CLASSES}
    right: Counter[str] = Counter()
    n_gold_records = 0
    pii_total = pii_left = 0
    masked_total = over_masked = 0
    keep_total = keep_lost = 0
    problems: list[str] = []
    pii_kinds_left: Counter[str] = Counter()
    for name, gold in golds.items():
        cls = gold_class(gold)
        yields.setdefault(cls, Counter())
        extracted = by_doc.get(name, [])
        state = "rejected" if name in rejected else ("flagged" if any(e.flagged for e in extracted)
                                                      else "extracted")
        yields[cls]["seen"] += 1
        yields[cls][state] += 1
        if gold.get("expect") == "reject":
            if state != "rejected":
                problems.append(f"{name}: expected rejection ({gold.get('reject_reason')}), got {state}")
            continue
        if state == "rejected":
            problems.append(f"{name}: decision document rejected: {rejected[name]}")
        elif state == "flagged":
            problems.append(f"{name}: flagged {sorted({f for e in extracted for f in e.flags})}")
        gold_recs = gold.get("records") or []
        matched = _match(gold_recs, extracted)
        for g, e in zip(gold_recs, matched, strict=True):
            n_gold_records += 1
            for f in FIELDS:
                want = g.get(f)
                ok = _field_right(f, want, e.record if e else None, e.numbering if e else None)
                right[f] += ok
                if not ok and show:
                    got = None if e is None else (
                        getattr(e.record, START_FIELDS[f])[:40] if f in START_FIELDS else
                        e.numbering if f == "cpl_numbering" else
                        list(e.record.relevant_articles) if f == "articles" else getattr(e.record, f))
                    problems.append(f"{name} [{g.get('id')}] {f}: want {want!r} got {got!r}")
        # de-identification over the document's extracted records
        # compared without whitespace: extraction normalises spaces (黎　明 in a signature is read as 黎明)
        pii_texts = [_squash(p["text"]) for p in gold.get("pii") or [] if p.get("text")]
        before = "\n".join(getattr(e.record, f) for e in extracted for f in DEID_FIELDS)
        results = [deidentify_record(e.record, ner) for e in extracted]
        after = "\n".join(getattr(r.record, f) for r in results for f in DEID_FIELDS)
        after_squashed = _squash(after)
        for p in gold.get("pii") or []:
            t = p.get("text")
            if not t:
                continue
            pii_total += 1
            if _squash(t) in after_squashed:
                pii_left += 1
                pii_kinds_left[f"{p.get('kind')}/{p.get('role')}"] += 1
                problems.append(f"{name}: PII left {p.get('kind')}/{p.get('role')} {t!r}")
        for r in results:
            for span in r.masked:
                masked_total += 1
                text = _squash(span.text)
                if span.kind == "name" and not any(text in t or t in text for t in pii_texts):
                    over_masked += 1
                    problems.append(f"{name}: over-masked {span.kind} {span.text!r}")
        for k in gold.get("keep") or []:
            text = k if isinstance(k, str) else k.get("text", "")
            if text and text in before:
                keep_total += 1
                if text not in after:
                    keep_lost += 1
                    problems.append(f"{name}: keep string masked {text!r}")
    decision_docs = sum(v["seen"] for c, v in yields.items() if c != NOT_A_DECISION)
    return {
        "folder": str(folder),
        "documents": len(golds),
        "yield": {c: {"seen": v["seen"], **{s: v[s] for s in STATES}} for c, v in yields.items() if v["seen"]},
        "decision_documents": decision_docs,
        "decision_documents_rejected": sum(v["rejected"] for c, v in yields.items() if c != NOT_A_DECISION),
        "non_decisions_accepted": sum(v["seen"] - v["rejected"] for c, v in yields.items() if c == NOT_A_DECISION),
        "gold_records": n_gold_records,
        "accuracy": {f: round(right[f] / n_gold_records, 4) if n_gold_records else None for f in FIELDS},
        "pii": {"planted": pii_total, "left": pii_left, "left_by_kind": dict(sorted(pii_kinds_left.items()))},
        "masking": {"spans": masked_total, "over_masked": over_masked,
                    "over_masking_rate": round(over_masked / masked_total, 4) if masked_total else 0.0,
                    "keep_present": keep_total, "keep_lost": keep_lost},
        "ner": ner,
        "problems": problems,
    }


def render(result: dict[str, Any]) -> str:
    lines = [(f"blind corpus {result['folder']}: {result['documents']} documents, "
             f"{result['gold_records']} gold records (NER: {result['ner']})"), "",
             f"{'class':<16}{'seen':>6}{'extracted':>11}{'flagged':>9}{'rejected':>10}"]
    for c, row in result["yield"].items():
        lines.append(f"{c:<16}{row['seen']:>6}{row['extracted']:>11}{row['flagged']:>9}{row['rejected']:>10}")
    lines += [(f"decision documents rejected: {result['decision_documents_rejected']} of "
              f"{result['decision_documents']}; non-decisions let through: {result['non_decisions_accepted']}"), "",
              "field accuracy:"]
    lines += [f"  {f:<20}{v:>8.1%}" if v is not None else f"  {f:<20}     n/a" for f, v in result["accuracy"].items()]
    p, m = result["pii"], result["masking"]
    lines += ["", (f"personal details left after de-identification: {p['left']} of {p['planted']} "
                  f"{p['left_by_kind'] or ''}"),
              (f"over-masking: {m['over_masked']} of {m['spans']} masked spans ({m['over_masking_rate']:.1%}); "
              f"keep strings lost: {m['keep_lost']} of {m['keep_present']}")]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", type=Path, nargs="+", help="Blind folders (documents + NAME.gold.json), each "
                    "measured on its own: e.g. tests/corpus/blind/open tests/corpus/blind/sealed.")
    ap.add_argument("--json", action="store_true", help="Print one JSON object instead of tables.")
    ap.add_argument("--ner", default=DEFAULT_NER, choices=NER_BACKENDS)
    ap.add_argument("--show", action="store_true", help="Also list every problem (wrong field, PII left, ...).")
    args = ap.parse_args()
    for folder in args.folders:
        if not folder.is_dir():
            raise SystemExit(f"{folder}: not a folder; pass a blind folder such as tests/corpus/blind/open")
    results = [evaluate(folder, ner=args.ner, show=args.show) for folder in args.folders]
    if args.json:
        print(json.dumps(results[0] if len(results) == 1 else results, ensure_ascii=False, indent=1))
        return
    for result in results:
        print(render(result))
        if args.show:
            print("\nproblems:")
            print("\n".join(f"  {p}" for p in result["problems"]))
        print()


if __name__ == "__main__":
    main()
