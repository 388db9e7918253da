"""The package's import graph has no cycle, and generic layers do not name a game.

An import cycle means an interface depends on its implementations (the bots registry
once imported every bot to register it); a generic module that tests a game's name
would give a third game another game's behaviour silently (docs/architecture.md).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import parlour

SRC = Path(parlour.__file__).resolve().parent.parent
GENERIC = ("bots", "batch", "envs", "arena", "server", "cli", "loadtest")


def modules() -> dict[str, Path]:
    out = {}
    for path in (SRC / "parlour").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def import_graph(lazy: bool = True) -> dict[str, set[str]]:
    """Module -> the package modules it imports (TYPE_CHECKING excluded); with ``lazy``
    also the imports made inside functions."""
    mods = modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        tree = ast.parse(path.read_text("utf-8"))
        typing_only = {id(n) for node in ast.walk(tree)
                       if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                       for stmt in node.body for n in ast.walk(stmt)}
        nodes = ast.walk(tree) if lazy else (
            n for stmt in tree.body if not isinstance(stmt, (ast.FunctionDef, ast.ClassDef,
                                                              ast.AsyncFunctionDef))
            for n in ast.walk(stmt))
        for node in nodes:
            if id(node) in typing_only:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pkg = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                    pkg = pkg[: len(pkg) - node.level + 1]
                    base = ".".join(pkg + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                           for a in node.names]
            for target in targets:
                while target and target not in mods:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_package_has_no_import_cycle():
    """At import time. (A function may import lazily a sibling that imports it -- the
    compiled search engines are imported only when a search bot is made.)"""
    assert cycles(import_graph(lazy=False)) == []


def test_the_bots_interface_does_not_import_its_implementations():
    """Not even lazily: bots come from the games' kits (parlour.kit), not from imports."""
    graph = import_graph(lazy=True)
    assert not {m for m in graph["parlour.bots.base"] if m.startswith("parlour.games.")}


GAME_NAME_TEST = re.compile(r"""(==|!=|\bin\b)\s*\(?\s*["'](fantan|fanti)["']|["'](fantan|fanti)["']\s*(==|!=)""")


def test_generic_layers_never_test_a_game_name():
    offenders = []
    for name, path in modules().items():
        layer = name.split(".")[1] if name.count(".") >= 1 else ""
        if layer not in GENERIC:
            continue
        for lineno, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if GAME_NAME_TEST.search(code):
                offenders.append(f"{path.relative_to(SRC)}:{lineno}: {line.strip()}")
    assert offenders == []


JS_GAME_NAME_TEST = re.compile(r"""(===|!==)\s*["'](fantan|fanti)["']|["'](fantan|fanti)["']\s*(===|!==)""")


def test_generic_page_code_never_tests_a_game_name():
    """The page's generic modules ask the game's own module (games/NAME/web.js)."""
    static = SRC / "parlour" / "web" / "static" / "js"
    offenders = [f"{path.name}:{n}: {line.strip()}"
                 for path in sorted(static.glob("*.js"))
                 for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
                 if JS_GAME_NAME_TEST.search(line.split("//", 1)[0])]
    assert offenders == []


def full_graph() -> dict[str, set[str]]:
    """Every import, lazy and ``TYPE_CHECKING`` ones included: a type-only import back
    to a caller is still a circle a reader has to hold in mind."""
    mods = modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                base = node.module or ""
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                           for a in node.names]
            for target in targets:
                while target and target not in mods:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def test_the_server_modules_import_one_another_without_a_circle():
    """Lazy and type-only imports counted: a part of the table service knows the parts
    below it by their classes, a part above it only by its face in server/roles.py, and
    the service itself (server/core.py) by none (docs/architecture.md, "The server's
    parts"). On the main branch before this test, 22 modules sat in one circle, held by
    each part's type-only import of the service it reached its siblings through."""
    graph = full_graph()
    server = {m for m in graph if m.startswith("parlour.server.")}
    assert cycles({m: graph[m] & server for m in server}) == []


def test_the_full_graph_sees_type_only_imports():
    """The circle check can fail: a type-only import back to a caller is an edge."""
    graph = full_graph()
    assert "parlour.server.core" in graph["parlour.server.writes"]  # TYPE_CHECKING
    assert cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]
