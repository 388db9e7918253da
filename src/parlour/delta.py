"""Small changes between two JSON states: what the server sends instead of a whole state.

A *delta* is a list of operations that turns one JSON value (``old``) into another
(``new``) when applied in order. It knows nothing of any game: it only compares
dicts, lists and scalars. Each operation is a list:

* ``["=", path, value]``: set the key (or index) at ``path`` to ``value``;
* ``["+", path, items]`` or ``["+", path, items, drop]``: remove the first ``drop``
  entries of the list at ``path``, then append ``items`` (a log grows at its end and
  may be cut at its start);
* ``["-", path]``: delete the key at ``path``.

``path`` is a list of object keys (strings) and list indices (integers) from the root;
it is never empty (the root itself is never replaced: a whole new state is a snapshot,
not a delta). :func:`diff` and :func:`apply` are inverse: ``apply(copy(old),
diff(old, new)) == new`` for any JSON values ``old`` and ``new`` that are objects. The
web page has the same ``apply`` in ``web/static/js/delta.js``.

Values are compared with Python's ``==``, so inside a list or object ``true`` and ``1``
(``false`` and ``0``, ``1`` and ``1.0``) count as equal: a state must not change one
into the other at the same place (the server's states never do).
"""

from __future__ import annotations

from typing import Any

Op = list[Any]

MAX_DROP = 16
"""How many entries cut from a list's start :func:`diff` looks for (a capped log drops a
few per message); beyond that the list is sent whole."""
MIN_CAPPED = 8
"""Only lists of at least this many entries that kept their length are looked at as
capped (cut at the start as much as appended at the end): shorter ones are sent whole."""


_ABSENT: Any = object()


def diff(old: dict[str, Any], new: dict[str, Any],
         memo: dict[tuple[int, int], list[Op]] | None = None) -> list[Op]:
    """The operations that turn ``old`` into ``new`` (both objects; neither is changed).

    Values in the operations are ``new``'s own objects (not copies): encode them
    before ``new`` changes. ``memo`` (one dict while the same objects are alive) keeps
    the operations of each top-level value, so states that share values (the public
    parts of several audiences' states) compare them once.
    """
    ops: list[Op] = []
    added = 0
    for k, v in new.items():
        o = old.get(k, _ABSENT)
        if o is v:
            continue
        if o is _ABSENT:
            ops.append(["=", [k], v])
            added += 1
        elif memo is not None and type(v) in (dict, list):
            key = (id(o), id(v))
            done = memo.get(key)
            if done is None:
                done = memo[key] = []
                if not (type(o) is type(v) and o == v):
                    _value(o, v, [k], done)
            ops.extend(done)
        elif not (type(o) is type(v) and o == v):
            _value(o, v, [k], ops)
    if len(old) != len(new) - added:  # some keys of old are gone
        ops.extend(["-", [k]] for k in old if k not in new)
    return ops


def _dict(old: dict[str, Any], new: dict[str, Any], path: list[Any], ops: list[Op]) -> None:
    for k, v in new.items():
        o = old.get(k, _ABSENT)
        if o is v or (type(o) is type(v) and o == v):
            continue
        if o is _ABSENT:
            ops.append(["=", [*path, k], v])
        else:
            _value(o, v, [*path, k], ops)
    for k in old:
        if k not in new:
            ops.append(["-", [*path, k]])


def _value(o: Any, v: Any, path: list[Any], ops: list[Op]) -> None:
    to, tv = type(o), type(v)
    if to is dict and tv is dict:
        _dict(o, v, path, ops)
    elif to is list and tv is list:
        _list(o, v, path, ops)
    else:
        ops.append(["=", path, v])


def _list(o: list[Any], v: list[Any], path: list[Any], ops: list[Op]) -> None:
    n, m = len(o), len(v)
    if n and m > n and v[:n] == o:  # appended at the end
        ops.append(["+", path, v[n:]])
        return
    if n and n == m and all(type(x) in (dict, list) for x in v):
        # the same number of entries (seats, piles): the entries that changed, when few
        changed = [i for i in range(n) if not (o[i] is v[i] or (type(o[i]) is type(v[i])
                                                                and o[i] == v[i]))]
        if len(changed) * 2 <= n:
            for i in changed:
                _value(o[i], v[i], [*path, i], ops)
            return
    if n == m and n >= MIN_CAPPED:
        for drop in range(1, min(n - 1, MAX_DROP) + 1):  # a capped list: cut, appended to
            kept = n - drop
            if o[drop:] == v[:kept]:
                ops.append(["+", path, v[kept:], drop])
                return
    ops.append(["=", path, v])


class Gap(ValueError):
    """A delta that does not follow the version held: ask for a snapshot."""


def copy(value: Any) -> Any:
    """A deep copy of a JSON value (dicts, lists and scalars)."""
    t = type(value)
    if t is dict:
        return {k: copy(v) for k, v in value.items()}
    if t is list:
        return [copy(v) for v in value]
    return value


def _same(value: Any) -> Any:
    return value


def apply(state: dict[str, Any], ops: list[Op], copies: bool = True) -> dict[str, Any]:
    """Apply ``ops`` to ``state`` in place (and return it). The values put into the state
    are copies: the message keeps its own (a kept message never changes later). With
    ``copies=False`` the operations' own values go into the state (cheaper, for a caller
    that keeps no message: later operations may change them)."""
    own = copy if copies else _same
    for op in ops:
        kind, path = op[0], op[1]
        parent: Any = state
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if kind == "=":
            parent[key] = own(op[2])
        elif kind == "+":
            target = parent[key]
            if len(op) > 3 and op[3]:
                del target[:op[3]]
            target.extend(own(op[2]))
        elif kind == "-":
            del parent[key]
        else:
            raise ValueError(f"unknown delta operation {kind!r}")
    return state


class Mirror:
    """A client's copy of its table state, kept from the server's messages.

    ``take(msg)`` reads one message: a snapshot (``state``) replaces the copy, a delta
    (``delta``) changes it when its version ``v`` is the next one; it answers False when
    a version was missed (the caller then sends ``{"type": "sync"}`` and gets a
    snapshot). Messages without either are left alone (True).

    ``copies=False``: the state is built from the messages' own values, not copies of
    them (cheaper, for a caller that keeps no message after taking it).
    """

    def __init__(self, copies: bool = True) -> None:
        self.copies = copies
        self.state: dict[str, Any] | None = None
        self.v: int | None = None
        self.seq: int | None = None

    def take(self, msg: dict[str, Any]) -> bool:
        if "state" in msg:  # (a copy: the message itself never changes later)
            state = msg["state"]
            self.state, self.v = copy(state) if self.copies else state, msg.get("v")
            self.seq = msg.get("seq", self.seq)
            return True
        if "delta" not in msg:
            return True
        if self.state is None or self.v is None or msg.get("v") != self.v + 1:
            return False
        apply(self.state, msg["delta"], self.copies)
        self.v = msg["v"]
        self.seq = msg.get("seq", self.seq)
        return True
