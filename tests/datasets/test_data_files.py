"""`_util.jsonl.iter_jsonl` and `_util.io.read_json` on a missing path or a folder: a DataError naming the path and
what was expected, which callers catching OSError still catch."""

from __future__ import annotations

import errno

import pytest

from jiancha._util.io import DataFileNotFoundError, DataIsADirectoryError, read_json
from jiancha._util.jsonl import iter_jsonl, read_jsonl
from jiancha.errors import DataError


@pytest.mark.parametrize("reader, expected", [(read_jsonl, "a JSON Lines file (one JSON object per line)"),
                                              (lambda p: list(iter_jsonl(p)), "a JSON Lines file"),
                                              (read_json, "a JSON file")])
def test_missing_file_and_folder_are_data_errors(tmp_path, reader, expected):
    missing = tmp_path / "nope.jsonl"
    with pytest.raises(DataError) as info:
        reader(missing)
    assert str(info.value).startswith(f"{missing}: no such file; expected {expected}")
    assert info.value.path == str(missing)
    assert isinstance(info.value, DataFileNotFoundError) and isinstance(info.value, FileNotFoundError)
    # the OSError side keeps what the CLI's one-line "unreadable file" message uses
    assert (info.value.errno, info.value.strerror, info.value.filename) == (
        errno.ENOENT, "No such file or directory", str(missing))

    with pytest.raises(DataError) as info:
        reader(tmp_path)
    assert str(info.value).startswith(f"{tmp_path}: this is a folder; expected {expected}")
    assert isinstance(info.value, DataIsADirectoryError) and isinstance(info.value, IsADirectoryError)


def test_callers_catching_oserror_still_catch_it(tmp_path):
    with pytest.raises(OSError, match="no such file"):
        read_json(tmp_path / "absent.json")


def test_files_still_read(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"a": 1}\n\n{"b": 2}\n', encoding="utf-8")
    assert list(iter_jsonl(p)) == [(1, {"a": 1}), (3, {"b": 2})]
    j = tmp_path / "x.json"
    j.write_text('{"k": [1, 2]}', encoding="utf-8")
    assert read_json(j) == {"k": [1, 2]}
