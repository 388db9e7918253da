"""Generic layers never name a game's option or a game's own attribute.

The server, the command line, bots, batch, envs, arena, load test and the page's
generic modules speak to a game through its kit (``parlour.kit``, ``parlour.game``).
A generic module that reads ``rules["stakes"]`` or probes ``getattr(round, "pot")``
gives a third game with an option or attribute of that name another game's behaviour,
silently. What a game's options and attributes are is read from the games themselves
(their declared options; the classes of their ``rules.py``), so a new option is
guarded the day it is declared.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import parlour
from parlour.game import Game, Round
from parlour.games import GAMES, KITS

SRC = Path(parlour.__file__).resolve().parent
GENERIC = ("arena", "batch", "bots", "cli", "envs", "loadtest", "server")
"""The generic layers (packages of ``parlour``), besides the page's modules."""
SHARED_OPTIONS = frozenset({"rounds"})
"""Options every game declares, read by the generic match (``Match.needs_deal``)."""
PROBES = ("getattr", "hasattr", "setattr", "delattr")


def option_names() -> set[str]:
    """Every option some game declares, except the ones all games share."""
    return {o.name for g in GAMES.values() for o in g.options} - SHARED_OPTIONS


def interface_names() -> set[str]:
    """What the generic interface itself declares (methods, fields, class values)."""
    names: set[str] = set()
    for cls in (Round, Game):
        for klass in cls.__mro__:
            names |= set(vars(klass)) | set(getattr(klass, "__annotations__", {}))
    return names


def game_attributes() -> set[str]:
    """Names a game's ``Round`` or ``Game`` class adds beyond the interface (slots,
    methods, class values) -- a generic module probing for one of them is testing
    which game it holds."""
    found: set[str] = set()
    for kit in KITS.values():
        tree = ast.parse((kit.folder / "rules.py").read_text("utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.ClassDef)
                    and any(ast.unparse(b) in ("Round", "Game") for b in node.bases)):
                continue
            for stmt in node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found.add(stmt.name)
                elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    found.add(stmt.target.id)
                elif isinstance(stmt, ast.Assign):
                    for target in stmt.targets:
                        if isinstance(target, ast.Name) and target.id == "__slots__":
                            found |= {e.value for e in ast.walk(stmt.value)
                                      if isinstance(e, ast.Constant) and isinstance(e.value, str)}
                        elif isinstance(target, ast.Name):
                            found.add(target.id)
    return {n for n in found - interface_names() if not n.startswith("__")}


def _text(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


RULES = re.compile(r"\b(rules|options)\b")
"""How generic code holds a game's option values (``t.rules``, ``rules``, ``options``)."""


def _on_rules(node: ast.AST) -> bool:
    return bool(RULES.search(ast.unparse(node)))


def offences(source: str, options: set[str], attributes: set[str]) -> list[str]:
    """Where ``source`` reads a game's option by name from the rules it holds
    (``rules["stakes"]``, ``rules.get("strict")``, ``"ace" in rules``) or probes a
    game's attribute by name (``getattr(r, "pot")``). Docstrings and comments are not
    code."""
    out = []
    for node in ast.walk(ast.parse(source)):
        named: list[tuple[str | None, set[str], str]] = []
        if isinstance(node, ast.Subscript) and _on_rules(node.value):
            named.append((_text(node.slice), options, "option"))
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in PROBES and len(node.args) >= 2:
                named.append((_text(node.args[1]), attributes, "attribute"))
            elif isinstance(func, ast.Attribute) and func.attr in ("get", "pop", "setdefault") \
                    and node.args and _on_rules(func.value):
                named.append((_text(node.args[0]), options, "option"))
        elif isinstance(node, ast.Compare) and any(_on_rules(c) for c in node.comparators):
            named.append((_text(node.left), options, "option"))
        for name, known, what in named:
            if name is not None and name in known:
                out.append(f"line {node.lineno}: names the game {what} {name!r}")
    return sorted(out, key=lambda f: (int(f.split()[1].rstrip(":")), f))


def generic_modules() -> list[Path]:
    return sorted(p for layer in GENERIC for p in (SRC / layer).rglob("*.py"))


@pytest.mark.parametrize("path", generic_modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_generic_modules_never_name_a_game_option_or_attribute(path):
    found = offences(path.read_text("utf-8"), option_names(), game_attributes())
    assert found == [], f"{path.relative_to(SRC)}: " + "; ".join(found)


def test_the_check_catches_what_the_server_once_did():
    """The views and live table once read Fan Tan's options and probed Fanti's and Fan
    Tan's attributes by name (each line below was in server/views.py or live.py)."""
    once = '''
chips = t.rules.get("stakes") == "chips"
if t.rules.get("strict") is False: pass
ace_high = view.rules["ace"] == "high" and "opening" in rules
pot = getattr(last, "pot", None)
last = getattr(r, "last_collector", -1)
'''
    found = offences(once, option_names(), game_attributes())
    assert [f.split(": ", 1)[1] for f in found] == [
        "names the game option 'stakes'", "names the game option 'strict'",
        "names the game option 'ace'", "names the game option 'opening'",
        "names the game attribute 'pot'", "names the game attribute 'last_collector'"]


def test_the_known_words_come_from_the_games():
    """Options and attributes are read from the games, so the guard grows with them;
    the shared ones are really every game's (and the interface's own names are free)."""
    assert {"stakes", "strict", "ties", "guardian_takes_guardians"} <= option_names()
    assert all({o.name for o in g.options} >= SHARED_OPTIONS for g in GAMES.values())
    attributes = game_attributes()
    assert {"pot", "last_collector", "passes"} <= attributes
    assert not {"leftovers", "legal_moves", "view", "score", "name"} & attributes


PAGE = SRC / "web" / "static" / "js"


def js_offences(text: str, options: set[str]) -> list[str]:
    """A game option read by name from rules (``rules.stakes``, ``rules["ace"]``)."""
    words = "|".join(sorted(map(re.escape, options)))
    pattern = re.compile(rf"""\brules\s*(?:\.\s*(?:{words})\b|\[\s*["'`](?:{words})["'`]\s*\])""")
    return [f"{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1)
            if pattern.search(line.split("//", 1)[0])]


@pytest.mark.parametrize("path", sorted(PAGE.glob("*.js")), ids=lambda p: p.name)
def test_the_page_generic_modules_never_name_a_game_option(path):
    """The page asks the game's own module (games/NAME/web.js) or the server's facts
    (``state.table.scoring``, ``usual_players``)."""
    assert js_offences(path.read_text("utf-8"), option_names()) == []


def test_the_page_check_catches_an_option_read():
    once = 'const chips = state.table.rules.stakes === "chips";\nconst hand = view.hand;'
    assert len(js_offences(once, option_names())) == 1
    assert len(js_offences('t.rules["ties"]', option_names())) == 1
