"""parlour.delta: ``apply(old, diff(old, new)) == new`` for any JSON objects, through the
wire (JSON text), and logs that grow at the end or are cut at the start travel as
appended entries."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.delta import Mirror, apply, diff

# (true/1 and false/0 are not mixed: deep equality takes them as equal, see parlour.delta)
scalars = st.none() | st.booleans() | st.integers(2, 9) | st.sampled_from(["a", "b", "7D"])
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.sampled_from(["x", "y", "z", "log"]), inner, max_size=4),
    max_leaves=20)
objects = st.dictionaries(st.sampled_from(["a", "b", "c", "view", "log"]), values, max_size=5)


def wire(x):
    return json.loads(json.dumps(x))


def roundtrip(old, new):
    before = copy.deepcopy(old)
    ops = diff(old, new)
    assert old == before  # diff changes neither side
    out = apply(wire(old), wire(ops))
    assert out == new
    assert json.dumps(out, sort_keys=True) == json.dumps(new, sort_keys=True)
    return ops


@settings(max_examples=400, deadline=None)
@given(objects, objects)
def test_any_two_objects(old, new):
    roundtrip(old, new)


@settings(max_examples=200, deadline=None)
@given(st.lists(values, max_size=30), st.integers(0, 20), st.lists(values, max_size=4))
def test_a_list_cut_at_its_start_and_appended_to(log, drop, added):
    new_log = log[drop:] + added
    if len(log) >= 8:  # a capped list keeps its length
        new_log = new_log[-len(log):]
    ops = roundtrip({"log": log, "n": 1}, {"log": new_log, "n": 1})
    if log and added and drop == 0 and len(log) < 8:
        assert ops == [["+", ["log"], added]]


def test_a_capped_log_travels_as_its_new_entries():
    log = [{"n": i} for i in range(200)]
    new = log[3:] + [{"n": 200}, {"n": 201}, {"n": 202}]
    assert roundtrip({"log": log}, {"log": new}) == [["+", ["log"], new[-3:], 3]]


def test_a_move_sends_what_changed_only():
    old = {"view": {"hand": ["7D", "8D"], "moves": [{"seat": 1, "play": "7C"}],
                    "current_player": 0, "rules": {"ace": "low"}},
           "log": [{"kind": "deal"}], "seats": [{"connected": True}, {"connected": True}]}
    new = copy.deepcopy(old)
    new["view"]["hand"] = ["8D"]
    new["view"]["moves"].append({"seat": 0, "play": "7D"})
    new["view"]["current_player"] = 1
    new["log"].append({"kind": "move", "seat": 0})
    new["seats"][1]["connected"] = False
    assert diff(old, new) == [
        ["=", ["view", "hand"], ["8D"]],
        ["+", ["view", "moves"], [{"seat": 0, "play": "7D"}]],
        ["=", ["view", "current_player"], 1],
        ["+", ["log"], [{"kind": "move", "seat": 0}]],
        ["=", ["seats", 1, "connected"], False],
    ]
    assert diff(new, new) == []
    assert diff({"pot": 3}, {}) == [["-", ["pot"]]]


def test_the_mirror_takes_snapshots_and_following_deltas_only():
    m = Mirror()
    assert m.take({"type": "update", "v": 2, "delta": []}) is False  # nothing held yet
    assert m.take({"type": "welcome", "seq": 0, "v": 1, "state": {"a": 1}})
    assert m.take({"type": "update", "seq": 1, "v": 2, "delta": [["=", ["a"], 2]]})
    assert m.state == {"a": 2} and m.v == 2 and m.seq == 1
    assert m.take({"type": "state", "seq": 1, "v": 4, "delta": [["=", ["a"], 3]]}) is False
    assert m.state == {"a": 2}  # a delta after a gap is not applied
    assert m.take({"type": "pong", "seq": 1})  # no state: nothing to do
    assert m.take({"type": "snapshot", "seq": 1, "v": 5, "state": {"a": 3}})
    assert m.state == {"a": 3} and m.v == 5


def test_messages_a_client_keeps_never_change_later():
    welcome = {"type": "welcome", "v": 1, "state": {"log": [{"n": 1}], "hand": ["7D"]}}
    first = {"type": "state", "v": 2, "delta": [["=", ["hand"], ["8D"]]]}
    second = {"type": "update", "v": 3, "delta": [["+", ["log"], [{"n": 2}]],
                                                   ["=", ["hand", 0], "9D"]]}
    kept = copy.deepcopy([welcome, first, second])
    m = Mirror()
    for msg in (welcome, first, second):
        assert m.take(msg)
    assert m.state == {"log": [{"n": 1}, {"n": 2}], "hand": ["9D"]}
    assert [welcome, first, second] == kept


def test_a_mirror_without_copies_builds_the_same_states():
    """``Mirror(copies=False)`` (the load generator's, which keeps no message) holds the
    same state after every message as the copying one."""
    welcome = {"type": "welcome", "v": 1, "state": {"log": [{"n": 1}], "hand": ["7D"]}}
    msgs = [welcome,
            {"type": "state", "v": 2, "delta": [["=", ["hand"], ["8D", "9D"]]]},
            {"type": "update", "v": 3, "delta": [["+", ["log"], [{"n": 2}]],
                                                 ["=", ["hand", 0], "TD"]]},
            {"type": "update", "v": 4, "delta": [["+", ["log"], [{"n": 3}], 1],
                                                 ["-", ["hand"]]]}]
    copying, sharing = Mirror(), Mirror(copies=False)
    for msg in msgs:
        assert copying.take(copy.deepcopy(msg)) and sharing.take(copy.deepcopy(msg))
        assert sharing.state == copying.state
    assert sharing.state == {"log": [{"n": 2}, {"n": 3}]}
    mine = copy.deepcopy(welcome)
    shared = Mirror(copies=False)
    shared.take(mine)
    assert shared.state is mine["state"]  # no copy made: the message is the state
