"""Which catalog keys a page's scripts can draw, read from the scripts themselves.

A page's bundle (server/pages.py) is derived, never kept by hand: the modules a page
runs are its entry modules and everything they import (statically, or later by a
literal path; not another page's module); every string literal
in them is a key it may draw, a literal ending in ``.`` (``"error." + code``) a prefix,
and a template literal (``card.rank.${r}.${style}``) a pattern with any text in its
``${...}`` holes (a leading hole: one segment). A key matches with or without its plural suffix (``#one``). The scan
errs on the side of too many words: a word too many costs bytes, a word too few shows
nothing. Keys a server answer carries (score details) are added by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

STATIC_JS = Path(__file__).resolve().parent.parent / "web" / "static" / "js"

_IMPORT = re.compile(r"""(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*["'](\.\.?/[^"']+)["']""")
_DYNAMIC = re.compile(r"""\bimport\(\s*["'](\.\.?/[^"']+)["']\s*\)""")
_STRING = re.compile(r""""((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'""")
_TEMPLATE = re.compile(r"`((?:[^`\\]|\\.)*)`", re.S)
_HOLE = re.compile(r"\$\{[^}]*\}")
_KEYISH = re.compile(r"[A-Za-z_][A-Za-z0-9_#-]*(?:\.[A-Za-z0-9_#-]*)+")


def module_path(name: str, game_modules: dict[str, Path]) -> Path | None:
    """A module's file: ``games/x.js`` is a game's own module (``games/x/words.js`` the
    words module beside it), the rest under js/."""
    if name.startswith("games/"):
        game, _, inner = name[len("games/"):-len(".js")].partition("/")
        web = game_modules.get(game)
        if web is None or not inner:
            return web
        path = web.parent / (inner + ".js")
        return path if inner == "words" and path.is_file() else None
    path = STATIC_JS / name
    return path if path.is_file() else None


def routes() -> set[str]:
    """The page modules the router (main.js) loads: each is a page of its own."""
    return set(_DYNAMIC.findall((STATIC_JS / "main.js").read_text(encoding="utf-8")))


def closure(entries: Iterable[str], game_modules: dict[str, Path],
            later: bool = True) -> dict[str, str]:
    """The entry modules and all they import, statically or later by a literal path
    (``import("./people.js")``) -- but not another page's module fetched later
    (``table.js``, fetched ahead by the front page, draws its words on the table page),
    nor the router's pages: name -> source. ``later=False``: the static imports only
    (a page whose on-demand modules fetch their own words, as the table's do)."""
    entries = list(entries)
    pages = {_join("", r) for r in routes()} - set(entries)
    seen: dict[str, str] = {}
    todo = list(entries)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = module_path(name, game_modules)
        if path is None:
            continue
        source = path.read_text(encoding="utf-8")
        seen[name] = source
        base = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
        todo += [_join(base, ref) for ref in _IMPORT.findall(source)]
        if name != "main.js" and later:
            todo += [t for ref in _DYNAMIC.findall(source) if (t := _join(base, ref)) not in pages]
    return seen


def _join(base: str, ref: str) -> str:
    parts = (base + ref).split("/")
    out: list[str] = []
    for part in parts:
        if part == "..":
            if out:
                out.pop()
        elif part != ".":
            out.append(part)
    return "/".join(out)


def patterns(source: str) -> tuple[set[str], set[str], list[re.Pattern[str]]]:
    """The literal keys, the key prefixes and the key templates one module names."""
    exact: set[str] = set()
    prefixes: set[str] = set()
    templates: list[re.Pattern[str]] = []
    for m in _STRING.finditer(source):
        text = m.group(1) if m.group(1) is not None else m.group(2)
        if text.endswith(".") and _KEYISH.fullmatch(text):
            prefixes.add(text)
        elif _KEYISH.fullmatch(text):
            exact.add(text)
    for m in _TEMPLATE.finditer(source):
        body = m.group(1)
        pieces = _HOLE.split(body)
        if len(pieces) == 1:
            if _KEYISH.fullmatch(body):
                exact.add(body)
            continue
        fixed = "".join(pieces)
        # a template of holes and dots alone (`${a}.${b}`) says nothing about which key
        if not re.search(r"[A-Za-z]", fixed) or not all(_piece(p) for p in pieces):
            continue
        # A hole that starts the key stands for one segment (`${game}.blurb`); a key
        # built whole from a variable (`${key}.what`) came from a server answer, which a
        # page's bundle covers apart (server/pages.py). Other holes: any text.
        holes = [_ONE_SEGMENT if pieces[0] == "" else ".+"] + [".+"] * (len(pieces) - 2)
        text = re.escape(pieces[0]) + "".join(h + re.escape(p) for h, p in zip(holes, pieces[1:], strict=True))
        templates.append(re.compile(text))
    return exact, prefixes, templates


_ONE_SEGMENT = "[^.#]+"  # a hole that starts a key: one segment


def _piece(text: str) -> bool:
    return text == "" or re.fullmatch(r"[A-Za-z0-9_.#-]*", text) is not None


@cache
def _module_patterns(name: str, source: str) -> tuple[set[str], set[str], list[re.Pattern[str]]]:
    return patterns(source)


def drawn(keys: Iterable[str], modules: dict[str, str]) -> set[str]:
    """The keys (of one catalog) that the modules may draw."""
    exact: set[str] = set()
    prefixes: set[str] = set()
    templates: list[re.Pattern[str]] = []
    for name, source in modules.items():
        e, p, t = _module_patterns(name, source)
        exact |= e
        prefixes |= p
        templates += t
    starts = tuple(prefixes)
    # `${key}.you` in a module that also names the key itself ("log.deal"): the
    # variant of a key it draws ("log.deal.you") is drawn too.
    endings = {re.sub(r"\\(.)", r"\1", t.pattern.removeprefix(_ONE_SEGMENT))
               for t in templates if t.pattern.startswith(_ONE_SEGMENT)
               and "[" not in t.pattern[len(_ONE_SEGMENT):]}

    def named(bare: str) -> bool:
        return bare in exact or bool(starts and bare.startswith(starts))

    out = set()
    for key in keys:
        bare = key.split("#", 1)[0]
        if (key in exact or bare in exact or (starts and key.startswith(starts))
                or any(t.fullmatch(key) or t.fullmatch(bare) for t in templates)
                or any(bare.endswith(e) and named(bare.removesuffix(e)) for e in endings)):
            out.add(key)
    return out
