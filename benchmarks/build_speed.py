"""Documents per second of the rule-based build stages on 10,000 synthesised documents (one process, one core).

The documents are the bundled raw documents (src/jiancha/data/raw_docs: .txt and .html) varied: case numbers
made unique, amounts and dates' days shifted, suspects' surnames rotated. Timed separately:

- extraction: raw page text → body (HTML stripped, banners dropped) → sections → PDP records with labels and
  canonical articles (``parse_document`` + ``extract_document``);
- de-identification: ``deidentify_record`` on the extracted records;
- checks: ``check_record`` on the extracted records.

Target: ≥ 500 documents/s per core for rule-based extraction.

    python benchmarks/build_speed.py [--n 10000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import re
import time
from pathlib import Path

import jiancha
from jiancha.corpus.checks import check_record
from jiancha.corpus.deid import deidentify_record
from jiancha.corpus.extract import extract_document
from jiancha.corpus.ingest import Rejection, parse_document, read_text_and_url

RAW = Path(jiancha.__file__).parent / "data" / "raw_docs"
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁钱"
_CASE_NO = re.compile(r"(〔|\[)(\s*[0-9０-９]{4}\s*)(〕|\])(\s*)([A-Z]?)([0-9０-９ ]+)号")
_AMOUNT = re.compile(r"人民币([0-9]+)元")
_MOU = re.compile(f"([{SURNAMES}])(?=某)")


def synthesise(n: int, seed: int) -> list[str]:
    """``n`` raw document texts (HTML kept as HTML) varied from the bundled ones."""
    rng = random.Random(seed)
    templates = [read_text_and_url(p)[0] if p.suffix == ".txt" else p.read_text(encoding="utf-8")
                 for p in sorted(RAW.iterdir()) if p.suffix in (".txt", ".html")]
    out = []
    for i in range(n):
        t = templates[i % len(templates)]
        t = _CASE_NO.sub(lambda m, i=i: f"{m[1]}{m[2]}{m[3]}{m[4]}{m[5]}{i + 1}号", t, count=1)
        t = _AMOUNT.sub(lambda m: f"人民币{int(m[1]) + rng.randint(1, 999)}元", t)
        shift = rng.randrange(1, len(SURNAMES))  # a bijection: distinct suspects stay distinct
        t = _MOU.sub(lambda m, k=shift: SURNAMES[(SURNAMES.index(m[1]) + k) % len(SURNAMES)], t)
        out.append(t)
    return out


def _html_aware_parse(text: str):
    if text.lstrip().startswith("<"):
        from jiancha.corpus.ingest import parse_html

        body, url = parse_html(text)
        return parse_document(body, source_url=url)
    return parse_document(text)


def _peak_mib() -> tuple[float, float]:
    """Peak resident memory (MiB) of this process and of its largest finished child (Linux: ru_maxrss in KiB)."""
    import resource

    return (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)


def _cpu_s() -> float:
    """CPU seconds of this process and of its finished children (pools are closed when a stage ends)."""
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_folder(n: int, seed: int, workers: int, deid_sample: int) -> None:
    """Streaming stages over a folder of ``n`` documents on ``workers`` processes (see module doc)."""
    import tempfile

    from jiancha.corpus.ingest import list_documents
    from jiancha.corpus.pipeline import iter_deid, iter_outcomes

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        per_batch = 5_000
        for start in range(0, n, per_batch):   # write in batches: the texts never all sit in memory
            for k, text in enumerate(synthesise(min(per_batch, n - start), seed + start), start=start):
                suffix = ".html" if text.lstrip().startswith("<") else ".txt"
                (folder / f"doc{k:07d}{suffix}").write_text(_unique(text, k), encoding="utf-8")
        paths = list_documents(folder)
        c0 = _cpu_s()
        t0 = time.perf_counter()
        n_records = 0
        sample = []
        for i, outcome in enumerate(iter_outcomes(paths, workers=workers)):
            n_records += len(outcome.extracted)
            if i < deid_sample:
                sample += [e.record for e in outcome.extracted]
        t_extract, c_extract = time.perf_counter() - t0, _cpu_s() - c0
        c0 = _cpu_s()
        t0 = time.perf_counter()
        for _ in iter_deid(iter(sample), workers=workers):
            pass
        t_deid, c_deid = time.perf_counter() - t0, _cpu_s() - c0
    main_mib, worker_mib = _peak_mib()
    print(f"folder of {n} documents, {workers} worker(s): {n_records} records")
    print("(per core = per CPU-second of all processes, which does not depend on how busy the machine is)")
    print(f"extraction          {n / t_extract:8.0f} documents/s wall  {n / c_extract:8.0f} per core"
          f"  ({t_extract:.1f} s wall, {c_extract:.1f} s CPU)")
    if sample:
        print(f"de-identification   {len(sample) / t_deid:8.1f} records/s wall    {len(sample) / c_deid:8.1f} per "
              f"core  ({len(sample)} records, {t_deid:.1f} s wall, {c_deid:.1f} s CPU, model loading included)")
    print(f"peak memory: main process {main_mib:.0f} MiB, largest worker {worker_mib:.0f} MiB")


def _unique(text: str, k: int) -> str:
    """A distinct case number per file (synthesise() numbers within one call), so none is a duplicate."""
    return _CASE_NO.sub(lambda m: f"{m[1]}{m[2]}{m[3]}{m[4]}{m[5]}{k + 1}号", text, count=1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--folder", type=int, default=None, help="Documents in the folder (streaming stages).")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--deid-sample", type=int, default=2_000, help="With --folder: files whose records are "
                    "de-identified.")
    args = ap.parse_args()
    if args.folder:
        run_folder(args.folder, args.seed, args.workers, args.deid_sample)
        return
    texts = synthesise(args.n, args.seed)

    t0, c0 = time.perf_counter(), time.process_time()
    records = []
    rejected = 0
    for text in texts:
        doc = _html_aware_parse(text)
        result = doc if isinstance(doc, Rejection) else extract_document(doc)
        if isinstance(result, Rejection):
            rejected += 1
        else:
            records.extend(e.record for e in result)
    t_extract, c_extract = time.perf_counter() - t0, time.process_time() - c0

    t0, c0 = time.perf_counter(), time.process_time()
    for rec in records:
        deidentify_record(rec)
    t_deid, c_deid = time.perf_counter() - t0, time.process_time() - c0

    t0, c0 = time.perf_counter(), time.process_time()
    findings = sum(len(check_record(rec)) for rec in records)
    t_check, c_check = time.perf_counter() - t0, time.process_time() - c0

    print(f"documents: {len(texts)}  records: {len(records)}  rejected: {rejected} (some bundled "
          f"documents are negative examples)  findings: {findings}")
    print("stage                wall rate            CPU-time rate (per core)")
    for name, n, unit, wall, cpu in (("extraction", len(texts), "documents", t_extract, c_extract),
                                     ("de-identification", len(records), "records", t_deid, c_deid),
                                     ("refinement checks", len(records), "records", t_check, c_check)):
        print(f"{name:<20} {n / wall:8.0f} {unit}/s   {n / cpu:8.0f} {unit}/s   ({wall:.2f} s wall, {cpu:.2f} s CPU)")
    verdict = "meets" if len(texts) / c_extract >= 500 else "MISSES"
    print(f"target ≥ 500 documents/s per core for extraction: {verdict}")


if __name__ == "__main__":
    main()
