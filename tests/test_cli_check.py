"""``parlour check``: valid and invalid records in JSON and JSON Lines files (RECORD.md)."""

from __future__ import annotations

import copy
import json

import pytest
from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour import record
from parlour.cli import app
from playout import random_playout

runner = CliRunner()


@pytest.fixture(scope="module")
def good() -> dict:
    return record.dump(random_playout("fantan", 4, seed=3, rules={"rounds": 2}))


@pytest.fixture(scope="module")
def good_fanti() -> dict:
    return record.dump(random_playout("fanti", 2, seed=3, rules={"rounds": 1}))


def broken(data: dict, how: str) -> dict:
    """A copy of a valid record, broken in one of the ways RECORD.md says a reader rejects."""
    d = copy.deepcopy(data)
    r0 = d["rounds"][0]
    if how == "wrong seat":
        r0["moves"][2]["seat"] = (r0["moves"][2]["seat"] + 1) % len(d["seats"])
    elif how == "illegal move":
        r0["moves"][0] = {"seat": r0["moves"][0]["seat"], "play": "KS"}
    elif how == "bad totals":
        d["totals"][0] += 1
    elif how == "deck":
        r0["deck"][0] = r0["deck"][1]
    elif how == "unknown key":
        d["colour"] = "red"
    elif how == "dealer":
        d["rounds"][1]["dealer"] = (d["rounds"][1]["dealer"] + 2) % len(d["seats"])
    return d


KINDS = {
    "wrong seat": "round 1, move 3: seat",
    "illegal move": "round 1, move 1: illegal move play KS",
    "bad totals": "totals",
    "deck": "round 1: deck is not a permutation of the 52 cards",
    "unknown key": "unknown key(s) 'colour'",
    "dealer": "round 2: dealer",
}


def write_jsonl(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_valid_files_exit_0(tmp_path, good, good_fanti):
    single = tmp_path / "one.json"
    single.write_text(json.dumps(good, indent=2), encoding="utf-8")
    lines = tmp_path / "many.jsonl"
    write_jsonl(lines, [good, good_fanti, good])
    res = runner.invoke(app, ["check", str(single), str(lines)])
    assert res.exit_code == 0, res.output
    assert "4 records checked in 2 files: 4 valid, 0 invalid" in res.stdout


@pytest.mark.parametrize("how", list(KINDS))
def test_each_kind_of_invalid_record_in_json(tmp_path, good, how):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(broken(good, how)), encoding="utf-8")
    res = runner.invoke(app, ["check", str(path)])
    assert res.exit_code == 1
    assert str(path) in res.stdout
    assert "record 0" in res.stdout and KINDS[how] in res.stdout


def test_invalid_records_in_jsonl_are_named_by_index_and_line(tmp_path, good, good_fanti):
    path = tmp_path / "mixed.jsonl"
    rows = [good, broken(good, "illegal move"), good_fanti, broken(good, "wrong seat")]
    text = "".join(json.dumps(r) + "\n" for r in rows) + '{"format": \n'
    path.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["check", str(path)])
    assert res.exit_code == 1
    out = res.stdout
    assert "record 1 (line 2): round 1, move 1: illegal move play KS" in out
    assert "record 3 (line 4): round 1, move 3: seat" in out
    assert "record 4 (line 5): not valid JSON" in out
    assert "5 records checked in 1 file: 2 valid, 3 invalid" in out


def test_json_output_shape(tmp_path, good):
    path = tmp_path / "mixed.jsonl"
    write_jsonl(path, [good, broken(good, "bad totals")])
    res = runner.invoke(app, ["check", "--json", str(path)])
    assert res.exit_code == 1
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert [set(r) for r in rows] == [{"file", "index", "valid", "error"}] * 2
    assert rows[0] == {"file": str(path), "index": 0, "valid": True, "error": None}
    assert rows[1]["index"] == 1 and rows[1]["valid"] is False
    assert rows[1]["error"].startswith("totals [")


def test_json_list_file_and_unfinished_record(tmp_path, good):
    """A JSON file may hold a list of records; an unfinished game is valid (RECORD.md)."""
    unfinished = copy.deepcopy(good)
    del unfinished["totals"], unfinished["winners"], unfinished["rounds"][1]
    r0 = unfinished["rounds"][0]
    del r0["score"]
    r0["moves"] = r0["moves"][:10]
    path = tmp_path / "list.json"
    path.write_text(json.dumps([good, unfinished]), encoding="utf-8")
    res = runner.invoke(app, ["check", "--json", str(path)])
    assert res.exit_code == 0
    assert [json.loads(x)["valid"] for x in res.stdout.splitlines()] == [True, True]


def test_missing_file_exits_2_and_others_still_checked(tmp_path, good):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(good), encoding="utf-8")
    res = runner.invoke(app, ["check", str(path), str(tmp_path / "nope.json")])
    assert res.exit_code == 2
    assert "cannot read" in res.stderr and "nope.json" in res.stderr
    assert "1 record checked in 1 file: 1 valid" in res.stdout
    assert runner.invoke(app, ["check"]).exit_code == 2  # no file at all: bad usage


def test_empty_and_non_utf8_files_are_invalid(tmp_path):
    empty = tmp_path / "empty.json"
    empty.write_text("", encoding="utf-8")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    res = runner.invoke(app, ["check", "--json", str(empty), str(binary)])
    assert res.exit_code == 1
    errors = [json.loads(x)["error"] for x in res.stdout.splitlines()]
    assert errors[0] == "the file holds no record" and errors[1].startswith("not UTF-8")
