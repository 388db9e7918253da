"""The record reader never crashes: on any input it returns a match or a RecordError.

Hostile or broken records come from other programs (RECORD.md: "Readers ignore nothing
silently"), so every defect must surface as a clear rejection, never as a traceback.
"""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour import record
from parlour.cli.commands.check_command import check_file
from parlour.record import RecordError
from playout import random_playout

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False)
    | st.text(max_size=6) | st.sampled_from(["7D", "10H", "TH", "fanti", "fantan", "low"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)

MATCHES = [random_playout(g, n, seed=3, rules={"rounds": 2}) for g, n in (("fanti", 2), ("fantan", 4))]
VALID = [record.dump(m) for m in MATCHES]


def _paths(obj, prefix=()):
    """Every (container, key) path inside a JSON value."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield (*prefix, k)
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield (*prefix, i)
            yield from _paths(v, (*prefix, i))


PATHS = [list(_paths(v)) for v in VALID]


def _load_or_reject(data) -> None:
    try:
        record.load(data)
    except RecordError as e:
        assert str(e), "a rejection must say why"


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_arbitrary_json_is_rejected_cleanly(data):
    _load_or_reject(data)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 1), st.data())
def test_mutated_records_never_crash_the_reader(which, data):
    """Replace or delete one value anywhere in a valid record: it loads or is rejected."""
    rec = copy.deepcopy(VALID[which])
    path = data.draw(st.sampled_from(PATHS[which]))
    parent = rec
    for key in path[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()):
        parent[path[-1]] = data.draw(JSON)
    elif isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent.pop(path[-1])
    _load_or_reject(rec)


LINES = st.one_of(st.sampled_from([json.dumps(v) for v in VALID]), JSON.map(json.dumps),
                  st.text(max_size=30))
FILES = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200).map(str.encode),
    st.lists(LINES, max_size=4).map(lambda lines: "\n".join(lines).encode()),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FILES)
def test_files_of_any_bytes_are_reported_not_raised(tmp_path_factory, blob):
    """Any file gives one verdict per record, each valid or with its reason -- the reader
    returns a match exactly when it records no error -- and bytes that are not UTF-8
    are one finding that says so (what ``parlour check`` prints)."""
    path = tmp_path_factory.mktemp("fuzz") / "records.jsonl"
    path.write_bytes(blob)
    findings = list(check_file(path))
    assert findings, "every file gets a verdict"
    try:
        blob.decode("utf-8")
    except UnicodeDecodeError:
        assert len(findings) == 1 and findings[0].error.startswith("not UTF-8 text")
        return
    entries = list(record.read_entries(path))
    for entry in entries:
        match = record.check_entry(entry)
        assert (match is None) == (entry.error is not None)
        assert entry.error is None or entry.error.strip(), "a rejection must say why"
    assert [f.error for f in findings] == [e.error for e in entries]


def test_a_valid_record_survives_a_json_round_trip():
    """``load(dump(m))`` is the same match, and dumping it again gives the same record."""
    for m, rec in zip(MATCHES, VALID, strict=True):
        loaded = record.load(json.loads(json.dumps(rec)))
        assert loaded == m
        assert record.dump(loaded) == rec
        assert loaded.totals == m.totals and loaded.winners == m.winners
