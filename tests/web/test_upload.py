"""The workbench filled from an uploaded document: split as the dataset builder splits it, other documents put
whole into the facts, every failure a message that keeps what was typed."""

from __future__ import annotations

import html
import io
import re
import zipfile
from importlib.resources import files
from pathlib import Path

import pytest

from jiancha.datasets.pdp import load_pdp

pytest.importorskip("fastapi", reason="the web extra is not installed")
from fastapi.testclient import TestClient

from jiancha.web.app import create_app
from jiancha.web.upload import MAX_UPLOAD_BYTES, case_from_document
from jiancha.web.workbench import InputError

RAW = files("jiancha") / "data" / "raw_docs"
JUDGMENT_DOC = Path(__file__).parents[1] / "util" / "data" / "judgment.doc"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(None, precedents=load_pdp("sample"), k=3), raise_server_exceptions=False)


def _field(page: str, name: str) -> str:
    m = re.search(rf'<textarea id="{name}" name="{name}"[^>]*>(.*?)</textarea>', page, re.DOTALL)
    assert m, name
    return html.unescape(m.group(1))


def _hidden_decision(page: str) -> str:
    return re.search(r'name="document_decision" value="([^"]*)"', page).group(1)


def _docx(text: str) -> bytes:
    buf = io.BytesIO()
    paras = "".join(f"<w:p><w:r><w:t>{html.escape(line)}</w:t></w:r></w:p>" for line in text.splitlines())
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("word/document.xml", '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/'
                                        f'2006/main"><w:body>{paras}</w:body></w:document>')
    return buf.getvalue()


def test_a_decision_fills_the_three_fields_and_its_own_decision_is_shown_beside_the_result(client):
    text = (RAW / "d03_ienp_2018_police_first.txt").read_text(encoding="utf-8")
    page = client.post("/workbench/document", files={"document": ("决定书.docx", _docx(text))})
    assert page.status_code == 200
    assert "已从 决定书.docx（不起诉决定书）读出三部分" in page.text
    person, procedure, fact = (_field(page.text, n) for n in ("person_info", "procedure", "fact"))
    assert person.startswith("被不起诉人陈某某，男，1978年11月出生") and "辩护人" not in person
    assert procedure.startswith("本案由某某市公安局侦查终结") and fact.startswith("2019年5月至8月间，陈某某以帮助他人")
    assert "本院认为" not in fact + procedure + person          # the decision's reasoning is not an input
    assert _hidden_decision(page.text) == "存疑不起诉"
    assert re.search(r'name="document_person" value="([^"]*)"', page.text).group(1) == html.escape(person, False)
    form = {"person_info": person, "procedure": procedure, "fact": fact, "document_decision": "存疑不起诉",
            "document_person": person}
    reviewed = client.post("/workbench", data=form)
    own = re.search(r'id="document-decision">(.*?)</p>', reviewed.text).group(1)
    decided = re.search(r'id="decision">决定：(.*?)</p>', reviewed.text).group(1)
    assert own == f"所读文书自身的决定：存疑不起诉（{'与建议相同' if decided == '存疑不起诉' else '与建议不同'}）"
    # a case typed over the one read (another person) is not that document's: its decision is not shown
    other = client.post("/workbench", data={**form, "person_info": "犯罪嫌疑人另某，男。"})
    assert 'id="decision"' in other.text and "document-decision" not in other.text


def test_the_same_case_is_read_from_any_format():
    text = (RAW / "d01_dnp_2018.txt").read_text(encoding="utf-8")
    as_txt = case_from_document(text.encode("gb18030"), "a.txt").read
    assert case_from_document(_docx(text), "a.docx").read == as_txt
    assert (as_txt.title, as_txt.decision, as_txt.suspects) == ("不起诉决定书", "相对不起诉", 1)
    assert all(as_txt.case.values()) and as_txt.missing == []


def test_a_decision_on_two_people_fills_the_first_and_says_so():
    up = case_from_document((RAW / "d09_multi_differing.txt").read_bytes(), "d09.txt")
    assert up.note == "已从 d09.txt（不起诉决定书）读出三部分；文书对 2 名犯罪嫌疑人作出决定，这里填入第 1 名，可在下面换成其他人。"
    assert up.read.case["person_info"].startswith("被不起诉人吴某") and "被不起诉人" not in up.read.case["person_info"][5:]


def test_another_person_of_a_decision_on_several_can_be_picked(client):
    page = client.post("/workbench/document", files={"document": ("d09.txt", (RAW / "d09_multi_differing.txt").read_bytes())})
    buttons = re.findall(r'name="pick" value="(\d)"[^>]*>([^<]*)</button>', page.text, re.DOTALL)
    assert [(v, html.unescape(label)) for v, label in buttons] == [("0", "被不起诉人吴某（相对不起诉）"),
                                                                  ("1", "被不起诉人冯某某（存疑不起诉）")]
    people = html.unescape(re.search(r'name="people" value="([^"]*)"', page.text).group(1))
    form = {"person_info": _field(page.text, "person_info"), "procedure": _field(page.text, "procedure"),
            "fact": "改过的事实", "people": people, "pick": "1", "upload_note": "注"}
    picked = client.post("/workbench/pick", data=form)
    assert _field(picked.text, "person_info").startswith("被不起诉人冯某某")
    assert _field(picked.text, "fact") == "改过的事实" and _hidden_decision(picked.text) == "存疑不起诉"
    bad = client.post("/workbench/pick", data={**form, "people": "[1, 2]"})
    assert bad.status_code == 422 and "无法切换犯罪嫌疑人" in bad.text and _field(bad.text, "fact") == "改过的事实"


def test_a_document_of_another_kind_goes_whole_into_the_facts(client):
    page = client.post("/workbench/document", files={"document": ("判决.doc", JUDGMENT_DOC.read_bytes())})
    assert page.status_code == 200
    assert "判决.doc 不是起诉意见书、起诉书或不起诉决定书，未分出三部分：全文已填入【案件事实】" in page.text
    assert _field(page.text, "fact").startswith("浙江省杭州市西湖区人民法院\n刑事判决书")
    assert _field(page.text, "person_info") == "" and _hidden_decision(page.text) == ""


@pytest.mark.parametrize("name, data, expected", [
    ("", b"", "没有选择文件"),
    ("empty.doc", b"", "无法读取 empty.doc：文件是空的。（an empty file）"),
    ("a.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504), "无法读取 a.doc：文件已损坏或不完整：请重新下载"),
    ("scan.doc", b"\xff\xd8\xff\xe0\x00\x10JFIF", "无法读取 scan.doc：这是图片而不是文书（扫描件？）：请先做文字识别（OCR）"),
    ("a.txt", b"\xff\xfe\x00\xd8 binary", "无法读取 a.txt：不是 UTF-8 或 GB18030 编码的文本"),
    ("a.txt", "　\n".encode(), "a.txt 中没有文字"),
    ("big.pdf", b"%PDF" + bytes(MAX_UPLOAD_BYTES), f"超过上限 {MAX_UPLOAD_BYTES // 2**20} MB"),
])
def test_an_unreadable_upload_is_a_message_and_the_typed_case_is_kept(client, name, data, expected):
    typed = {"procedure": "程序文字", "fact": "事实文字"}
    upload = {"document": (name, data)} if name else None
    for headers in ({}, {"HX-Request": "true"}):
        page = client.post("/workbench/document", data=typed, files=upload, headers=headers)
        assert page.status_code == (200 if headers else 422)
        # the message stands by the upload (id upload-error), not where a review's result goes
        (alert,) = re.findall(r'role="alert" id="upload-error">(.*?)</p>', page.text, re.DOTALL)
        alert = html.unescape(alert)
        assert expected in alert and alert.endswith("表单内容已保留。")
        assert (_field(page.text, "procedure"), _field(page.text, "fact")) == ("程序文字", "事实文字")
    with pytest.raises(InputError, match=expected):
        case_from_document(data, name)
