"""No English word is written into these pages' scripts: what a player reads comes from
the ``web`` catalog through ``t()``/``tn()`` (js/i18n.js). A guard: it fails when a new
English literal is put into ``text:``, ``textContent``, an ``aria-label``, a
``placeholder``, a ``title`` or an element's child text in one of these files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import parlour

JS = Path(parlour.__file__).parent / "web" / "static" / "js"
FILES = ["replay.js", "verify.js", "players.js", "pool.js", "between.js", "people.js",
         "account.js", "admin.js", "rules.js", "notify.js", "history.js"]
"""The page scripts of the replay, verify, profile and leaderboard, pools, between
visits, people, account, moderation and rules pages (the table's own are checked with
the table)."""

STRING = r'''("(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`)'''
SITES = [
    re.compile(r"\btext:\s*" + STRING),
    re.compile(r"\btextContent\s*=\s*" + STRING),
    re.compile(r'"aria-label":\s*' + STRING),
    re.compile(r"\bplaceholder:\s*" + STRING),
    re.compile(r"\btitle:\s*" + STRING),
    re.compile(r"\}\s*,\s*" + STRING + r"\s*\)"),  # h(tag, {...}, "child text")
    re.compile(r"\bnew Error\(\s*" + STRING),
]
WORD = re.compile(r"[A-Za-z]{2,}")
ALLOWED = {"parlour", "primary", "warn"}
"""Words that are not English for a player: the product's name, class names."""


def own_words(template: str) -> str:
    """A literal without its ``${...}`` parts (nested braces too)."""
    out, depth, i = [], 0, 0
    while i < len(template):
        if template.startswith("${", i):
            depth += 1
            i += 2
            continue
        ch = template[i]
        if depth:
            depth += {"{": 1, "}": -1}.get(ch, 0)
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def literals(source: str) -> list[str]:
    """The English literals written where a page shows text, in ``source``."""
    found = []
    for site in SITES:
        for m in site.finditer(source):
            text = own_words(m.group(1)[1:-1])
            words = [w for w in WORD.findall(text) if w not in ALLOWED]
            if words:
                found.append(m.group(1))
    return found


@pytest.mark.parametrize("name", FILES)
def test_no_english_literal_is_shown(name):
    assert literals((JS / name).read_text(encoding="utf-8")) == []


def test_the_guard_finds_a_literal():
    src = 'h("p", { text: `Step ${n} of ${m}` }); b.textContent = "Done."; h("b", {}, "Invite")'
    assert literals(src) == ["`Step ${n} of ${m}`", '"Done."', '"Invite"']
    assert literals('h("p", { text: t("replay.step", { n }) }); h("i", { text: "✓" })') == []
