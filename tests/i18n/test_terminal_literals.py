"""No English sentence is written into what ``parlour play`` prints: its words come from
the ``terminal`` (and ``game``) catalogs through ``tell()``/``say()``. A guard: it fails
when an English literal is passed to the output, a prompt or a refusal in these modules."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import parlour

SRC = Path(parlour.__file__).parent
MODULES = ["netclient.py", "cli/play_session.py", "cli/move_input.py", "cli/review.py"]
"""``parlour play --connect`` (the table a terminal player joins by link; 36 English
literals before it took its words from the catalogs), local play, its move reader and
``parlour replay``'s review."""

SHOWN = {"out", "_ask", "print", "ValueError", "RuntimeError", "BadInput"}
"""Calls whose text reaches the person: a printed line, a prompt, a refusal in words."""
WORD = re.compile(r"[A-Za-z]{2,}")
ALLOWED = {"parlour", "play", "connect"}
"""The program's name and its command line."""


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def texts(node: ast.expr) -> list[ast.Constant]:
    """The literals that become words on the screen in an expression: a string, the
    fixed parts of an f-string, both sides of ``+`` and of ``a if c else b``, the text of
    a Rich ``Text``; not a catalog lookup, a dict key or a style."""
    if isinstance(node, ast.Constant):
        return [node] if isinstance(node.value, str) else []
    if isinstance(node, ast.JoinedStr):
        return [v for v in node.values if isinstance(v, ast.Constant)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return texts(node.left) + texts(node.right)
    if isinstance(node, ast.IfExp):
        return texts(node.body) + texts(node.orelse)
    if isinstance(node, ast.Call) and _name(node.func) in ("Text", "join") and node.args:
        return texts(node.args[0]) if _name(node.func) == "Text" else []
    return []


def english_literals(source: str) -> list[tuple[int, str]]:
    found = []
    for call in ast.walk(ast.parse(source)):
        if not (isinstance(call, ast.Call) and _name(call.func) in SHOWN):
            continue
        for arg in call.args:
            for node in texts(arg):
                if [w for w in WORD.findall(node.value) if w not in ALLOWED]:
                    found.append((node.lineno, node.value))
    return found


@pytest.mark.parametrize("module", MODULES)
def test_no_english_is_printed_outside_the_catalogs(module):
    assert english_literals((SRC / module).read_text(encoding="utf-8")) == []


def test_the_guard_sees_a_literal():
    assert english_literals('out(f"Game over: {x}")\nself._ask("Your move: ")\n'
                            'raise ValueError("bad link")\nout(tell("remote.x"))\n'
                            'out("parlour: " + tell("remote.y", reason=r))\n'
                            'out(s["name"] if ok else "(free)")\n') == [
        (1, "Game over: "), (2, "Your move: "), (3, "bad link"), (6, "(free)")]
