"""The parts of the table service never reach a sibling through the service object.

A part (the write path, the clock, the intents, the card room...) is handed the
service as a ``Core`` (server/core.py) and its siblings by name (``TableService._wire``).
Through ``svc`` it may use what ``Core`` declares, nothing else: ``svc.clock.arm(...)``
inside the write path would tie it to the whole service again (docs/architecture.md,
"The server: its parts, and one move's way")."""

from __future__ import annotations

import ast
from pathlib import Path

import parlour

SERVER = Path(parlour.__file__).resolve().parent / "server"


def core_names() -> set[str]:
    tree = ast.parse((SERVER / "core.py").read_text("utf-8"))
    core = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Core")
    return {n.target.id for n in core.body if isinstance(n, ast.AnnAssign)
            and isinstance(n.target, ast.Name)} | {
        n.name for n in core.body if isinstance(n, ast.FunctionDef)}


def reached(source: str) -> list[tuple[int, str]]:
    """Every ``svc.NAME`` and ``self.svc.NAME`` in ``source``: (line, NAME)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute):
            continue
        v = node.value
        if (isinstance(v, ast.Name) and v.id == "svc") or (
                isinstance(v, ast.Attribute) and v.attr == "svc"):
            found.append((node.lineno, node.attr))
    return found


def parts() -> list[Path]:
    """The modules handed the service as a Core."""
    return [p for p in sorted(SERVER.glob("*.py"))
            if "from parlour.server.core import Core" in p.read_text("utf-8")]


def test_the_parts_are_found():
    names = {p.stem for p in parts()}
    assert {"writes", "clock", "intents", "cardroom", "coordination", "pools"} <= names


def test_a_part_uses_the_service_only_as_its_core():
    allowed = core_names()
    offenders = [f"{p.name}:{line}: svc.{name}" for p in parts()
                 for line, name in reached(p.read_text("utf-8")) if name not in allowed]
    assert offenders == []


def test_the_check_sees_a_sibling_reached_through_the_service():
    """As the write path did on the main branch before server/core.py."""
    allowed = core_names()
    old = "class Writer:\n    def go(self, t):\n        svc = self.svc\n" \
          "        svc.clock.arm(t, None)\n        self.svc.intents.mark_live('a')\n" \
          "        svc.store.set(t.id)\n"
    assert [n for _, n in reached(old) if n not in allowed] == ["clock", "intents"]
