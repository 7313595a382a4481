import asyncio
import json

import pytest

from jiancha._util.dicts import identity_diff
from jiancha.errors import DataError, ResumeMismatchError
from jiancha.llm.batch import GroupCommitter
from jiancha.llm.store import RunStore


def test_create_append_resume(tmp_path):
    store = RunStore(tmp_path / "run")
    assert store.open({"model": "m", "gen": {"t": 0.5}}, {"started_at": "t0", "invocations": [{"n": 1}]}) is False
    store.append({"case_id": "a", "run_id": 0, "status": "failed"})
    store.append_many([{"case_id": "b", "run_id": 0, "status": "ok"}, {"case_id": "a", "run_id": 0,
                                                                         "status": "ok"}])
    store.close()
    again = RunStore(tmp_path / "run")
    assert again.open({"model": "m", "gen": {"t": 0.5}}, {"started_at": "t1", "invocations": [{"n": 2}]}) is True
    assert again.latest_status() == {("a", 0): "ok", ("b", 0): "ok"}
    assert again.manifest["started_at"] == "t0" and again.manifest["invocations"] == [{"n": 1}, {"n": 2}]
    again.close()


def test_torn_last_line_is_dropped_on_open(tmp_path):
    store = RunStore(tmp_path)
    store.open({"x": 1}, {})
    store.append({"case_id": "a", "run_id": 0, "status": "ok"})
    store.close()
    with (tmp_path / "records.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"case_id": "b", "run_id": 0, "sta')          # killed in the middle of a write
    assert [r["case_id"] for r in RunStore(tmp_path).iter_rows()] == ["a"]
    store = RunStore(tmp_path)
    store.open({"x": 1}, {})
    store.append({"case_id": "b", "run_id": 0, "status": "ok"})
    store.close()
    lines = (tmp_path / "records.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["case_id"] for x in lines] == ["a", "b"]


def test_corrupt_middle_line_names_file_and_line(tmp_path):
    (tmp_path / "records.jsonl").write_text('{"a": 1}\nnot json\n{"b": 2}\n', encoding="utf-8")
    with pytest.raises(DataError, match="records.jsonl, line 2: invalid JSON"):
        list(RunStore(tmp_path).iter_rows())


def test_mismatch_lists_every_difference(tmp_path):
    RunStore(tmp_path).open({"model": "a", "gen": {"temperature": 0.0, "top_p": 1.0}, "seed": 1}, {})
    with pytest.raises(ResumeMismatchError) as err:
        RunStore(tmp_path).open({"model": "b", "gen": {"temperature": 0.0}, "seed": 1}, {})
    msg = str(err.value)
    assert "model: 'a' (stored) → 'b' (now)" in msg
    assert "gen.top_p: 1.0 (stored) → '<absent>' (now)" in msg
    assert "seed" not in msg


def test_records_without_manifest_are_refused(tmp_path):
    (tmp_path / "records.jsonl").write_text('{"case_id": "a"}\n', encoding="utf-8")
    with pytest.raises(ResumeMismatchError, match="manifest.json does not"):
        RunStore(tmp_path).open({"x": 1}, {})


def test_identity_diff_is_sorted_and_empty_when_equal():
    assert identity_diff({"a": {"b": 1}}, {"a": {"b": 1}}) == []
    assert identity_diff({"z": 1, "a": 1}, {"z": 2, "a": 2}) == ["a: 1 (stored) → 2 (now)", "z: 1 (stored) → 2 (now)"]


def test_group_commit_batches_fsyncs_and_waits_for_them():
    calls: list[list[dict]] = []

    def append_many(rows):
        calls.append(list(rows))

    async def go():
        gc = GroupCommitter(append_many)
        await asyncio.gather(*(gc.commit({"i": i}) for i in range(50)))
    asyncio.run(go())
    assert sorted(r["i"] for batch in calls for r in batch) == list(range(50))
    assert len(calls) < 50


def test_group_commit_propagates_write_errors():
    def append_many(rows):
        raise OSError("disk full")

    async def go():
        await GroupCommitter(append_many).commit({"i": 1})
    with pytest.raises(OSError, match="disk full"):
        asyncio.run(go())
