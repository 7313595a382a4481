"""A case for the workbench read from an uploaded document file.

The file is read by its content (:mod:`jiancha._util.documents`: .txt, HTML, .docx, .doc, .rtf, a PDF's text
layer). A 起诉书 or 不起诉决定书 is split into the three fields exactly as the dataset builder splits it
(:mod:`jiancha.corpus`), and its own decision is kept aside so the page can show it next to the recommendation;
any other document (an 起诉意见书, a case summary) goes whole into the facts, with a note saying so, for the user to
trim before the review.
"""

from __future__ import annotations

from dataclasses import dataclass

from jiancha._util.documents import UnreadableDocument, read_document_bytes
from jiancha.corpus.extract import extract_document
from jiancha.corpus.ingest import Rejection, paragraphs, parse_document
from jiancha.errors import DataError
from jiancha.web.workbench import InputError

#: Largest accepted upload (a judgment or decision is well under 1 MB, a PDF with pictures a few MB).
MAX_UPLOAD_BYTES = 10 * 1024 * 1024


@dataclass(frozen=True)
class UploadedCase:
    """The form's fields read from a file; ``note`` says on the page what was read (Chinese), ``decision`` is the
    document's own decision ('' when it states none this reader finds), ``suspects`` how many people it decides on
    (the fields hold the first)."""

    case: dict[str, str]
    note: str
    decision: str = ""
    suspects: int = 1


def case_from_document(data: bytes, filename: str) -> UploadedCase:
    """The case an uploaded file holds (see the module docstring); InputError says why none can be read."""
    name = filename or "upload"
    if not data:
        raise InputError("没有收到文件内容：请选择一份文书（.docx、.doc、.pdf、.txt、.rtf、.html）再上传。",
                         "the upload is empty: choose a document file and upload it again")
    if len(data) > MAX_UPLOAD_BYTES:
        raise InputError(f"文件有 {len(data) / 2**20:.1f} MB，超过上限 {MAX_UPLOAD_BYTES // 2**20} MB。",
                         f"the file has {len(data) / 2**20:.1f} MB, over the limit of {MAX_UPLOAD_BYTES // 2**20} MB")
    try:
        read = read_document_bytes(data, name)
    except UnreadableDocument as exc:
        raise InputError(f"无法读取 {name}：{exc.message}。", f"cannot read {name}: {exc.message}") from None
    except DataError as exc:
        raise InputError(f"无法读取 {name}：不是 UTF-8 或 GB18030 编码的文本。",
                         f"cannot read {name}: {exc.message}") from None
    text = paragraphs(read)
    if not text.strip():
        raise InputError(f"{name} 中没有文字。", f"{name} holds no text")
    doc = parse_document(text, path=name, source_url=read.url)
    if isinstance(doc, Rejection):
        return UploadedCase({"person_info": "", "procedure": "", "fact": text.strip()},
                            f"{name} 不是起诉书或不起诉决定书，未分出三部分：全文已填入【案件事实】，请删去与案情无关的部分后审查。")
    records = extract_document(doc)
    first = records[0].record
    case = {"person_info": first.person_info, "procedure": first.procedure, "fact": first.fact}
    missing = [label for key, label in (("person_info", "犯罪嫌疑人信息"), ("procedure", "案件程序"),
                                        ("fact", "案件事实")) if not case[key].strip()]
    note = f"已从 {name}（{doc.title}）读出三部分"
    if missing:
        note = f"已从 {name}（{doc.title}）读取，但没有找到【{'】【'.join(missing)}】，请补上"
    if len(records) > 1:
        note += f"；文书对 {len(records)} 名犯罪嫌疑人作出决定，这里填入第 1 名"
    return UploadedCase(case, note + "。", first.decision, len(records))
