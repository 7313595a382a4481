"""The blind corpus's gold files agree with their documents (``tests/corpus/blind/check_gold.py``, the authors'
own self-check, standard library only), for the whole corpus and for one folder given alone."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BLIND = Path(__file__).parent / "blind"


def _check_gold():
    spec = importlib.util.spec_from_file_location("check_gold", BLIND / "check_gold.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_gold_file_agrees_with_its_document(capsys):
    assert _check_gold().main(str(BLIND)) == 0
    out = capsys.readouterr().out
    folders = sorted(p.name for p in BLIND.iterdir() if p.is_dir() and any(p.glob("*.gold.json")))
    checked = int(out.split("documents checked:")[1].split()[0])
    assert checked == sum(len(list((BLIND / f).glob("*.gold.json"))) for f in folders) and checked >= 400


def test_one_folder_given_alone_is_checked(capsys):
    assert _check_gold().main(str(BLIND / "open2")) == 0
    assert "documents checked: 24" in capsys.readouterr().out
