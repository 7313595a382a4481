"""A case for the workbench read from an uploaded document file (:mod:`jiancha.corpus.document_case`), with what
was read, or why nothing could be, worded for the page."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from jiancha._util.documents import UnreadableDocument
from jiancha.corpus.document_case import DocumentCase, NoText, document_case
from jiancha.errors import DataError
from jiancha.web.workbench import InputError

#: Why a file cannot be read (``UnreadableDocument.kind``), and what to do, as the page says it.
UNREADABLE_ZH = {
    "empty": "文件是空的",
    "image": "这是图片而不是文书（扫描件？）：请先做文字识别（OCR），或把文字另存为 .txt",
    "scan": "PDF 中没有文字层（扫描件？）：请先做文字识别（OCR），或把文字另存为 .txt",
    "encrypted": "文件设有密码：请在 Word 或 WPS 中取消密码后另存，再上传",
    "old": "这是 Word 6/95 的旧格式：请在 Word 或 WPS 中另存为 .docx，再上传",
    "damaged": "文件已损坏或不完整：请重新下载，或在原程序中另存后再上传",
    "unknown": "无法识别的文件格式：请另存为 .docx 或 .txt（UTF-8 或 GB18030）后再上传",
}
#: Largest accepted upload (a judgment or decision is well under 1 MB, a PDF with pictures a few MB).
MAX_UPLOAD_BYTES = 10 * 1024 * 1024


@dataclass(frozen=True)
class UploadedCase:
    """The case read and ``note``, the page's sentence on what was read (Chinese)."""

    read: DocumentCase
    note: str


def case_from_document(data: bytes, filename: str) -> UploadedCase:
    """The case an uploaded file holds; InputError says why none can be read (Chinese, the reader's reason in
    English in parentheses)."""
    if not filename:
        raise InputError("没有选择文件：请先选择一份文书（.docx、.doc、.pdf、.txt、.rtf、.html），再点「读取文书」。",
                         "no file was chosen: choose a document file, then read it")
    name = filename
    if len(data) > MAX_UPLOAD_BYTES:
        raise InputError(f"文件有 {len(data) / 2**20:.1f} MB，超过上限 {MAX_UPLOAD_BYTES // 2**20} MB。",
                         f"the file has {len(data) / 2**20:.1f} MB, over the limit of {MAX_UPLOAD_BYTES // 2**20} MB")
    try:
        read = document_case(data, name)
    except UnreadableDocument as exc:
        raise InputError(f"无法读取 {name}：{UNREADABLE_ZH.get(exc.kind, UNREADABLE_ZH['unknown'])}。（{exc.message}）",
                         f"cannot read {name}: {exc.message}") from None
    except NoText:
        raise InputError(f"{name} 中没有文字。", f"{name} holds no text") from None
    except DataError as exc:
        raise InputError(f"无法读取 {name}：不是 UTF-8 或 GB18030 编码的文本。", f"cannot read {name}: {exc.message}") \
            from None
    if not read.title:
        return UploadedCase(read, f"{name} 不是起诉意见书、起诉书或不起诉决定书，未分出三部分：全文已填入【案件事实】，"
                                  "请删去与案情无关的部分后审查。")
    note = f"已从 {name}（{read.title}）读出三部分"
    if read.missing:
        note = f"已从 {name}（{read.title}）读取，但没有找到【{'】【'.join(read.missing)}】，请补上"
    if read.suspects > 1:
        note += f"；文书对 {read.suspects} 名犯罪嫌疑人作出决定，这里填入第 1 名，可在下面换成其他人"
    return UploadedCase(read, note + "。")


def person_label(person_info: str) -> str:
    """How the page names a person of a decision: the address and name that open the paragraph.

    >>> person_label("被不起诉人吴某，男，1975年1月出生")
    '被不起诉人吴某'
    """
    return re.split(r"[，,（(。]", person_info, maxsplit=1)[0][:24]


def picked_person(people_json: str, pick: str) -> tuple[list[list[str]], int]:
    """The people of an uploaded decision as the form carried them back (JSON [[person_info, decision], …]) and
    the index picked; InputError when the form was altered."""
    try:
        people = json.loads(people_json)
        k = int(pick)
        if not (isinstance(people, list) and 0 <= k < len(people)
                and all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in people)):
            raise ValueError(pick)
    except (ValueError, TypeError):
        raise InputError("无法切换犯罪嫌疑人：页面数据不完整，请重新读取文书。",
                         "cannot switch to that person: the form's data is incomplete; read the document again") from None
    return people, k
