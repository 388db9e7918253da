"""No English sentence written into the table page's scripts: every word the table draws
comes from the ``web``/``game`` catalogs through ``t()``/``tn()``/``tg()`` (js/i18n.js).

A simple scan of the string literals of table.js, chat.js, log.js, score.js, sheet.js
and each game's page module (parlour/games/*/web.js). A literal is a player's words
when it stands where text is drawn (``text:``, ``title:``, ``aria-label``,
``placeholder``, ``textContent =``, ``announce(``, a toast, a hint) or when it reads
like words (a capitalised word, two words, or an ending stop), unless it stands where
only code reads it (a class, a selector, a key of the catalog, a comparison). Marks
that are no words ("·", "×", "✓", digits, "+") are allowed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import parlour

SRC = Path(parlour.__file__).parent
FILES = [SRC / "web/static/js" / n for n in ("table.js", "chat.js", "log.js", "score.js", "sheet.js")]
FILES += sorted((SRC / "games").glob("*/web.js"))

SINK = re.compile(r"""(?:\btext|\btitle|"aria-label"|\bplaceholder|\btextContent\s*=|\bannounce\(|"""
                  r"""\btoast\s*=|\bhintText\s*=|\bwhy\s*=)\s*:?\s*(?:[^,;{}()]*[?:]\s*)?$""")
"""A literal drawn as text (also the branches of a ternary right after it)."""
CODE_ONLY = re.compile(
    r"""(?:\bclass|\btype|\brole|\bid|\bfor|\bhref|\btarget|\bdownload|\bautocomplete|"""
    r""""data-[a-z-]+"|"aria-(?:live|hidden|current|pressed|describedby)"|\bkind)\s*:\s*[^,]*$"""
    r"""|(?:\b(?:t|tn|tg|tgn|has|more|import|querySelector|querySelectorAll|closest|getItem|"""
    r"""setItem|removeItem|get|set|svgUse|cardEl|cardName|listNames|addEventListener|"""
    r"""getElementById|createElementNS|setAttribute|toggle|h|el|send|import)\(\s*)$"""
    r"""|(?:===|!==|\bcase|\bfrom|\bimport|\bin)\s*$|\bclassName\s*=\s*[^;]*$|\bheaders:\s*\{\s*$""")
"""A literal only code reads: classes, attributes' values, keys, selectors, comparisons."""
WORDY = re.compile(r"[A-Z][a-z]{1,}|[a-z]{2,}\s+[a-z]{2,}|[a-z]{2,}[.:!?…]\s*$")
LETTERS = re.compile(r"[A-Za-z]{2,}")
KEYISH = re.compile(r"^[a-z][a-z0-9_]*(?:\.[a-z0-9_\0]*)+$")
"""A catalog key or a stored name ("table.you", "parlour.name", "suit.${…}")."""
ALLOWED = {
    # Fanti's own names when the catalog did not load (its look's fallback, FA-1), and
    # the word under a face card's letter (the card's picture, drawn by the style sheet).
    "web.js": {"Guardian", "Mystic", "Scout", "Leaf", "Star", "Ace", "\0 Leaf"},
}


def literals(src: str):
    """(text of the literal, the code just before it, whether code-only by an enclosing
    template's context) for each string and template literal; ${...} parts are scanned
    as code and left out of the template's text."""
    out = []

    def scan(i: int, end_char: str | None, inherited: bool) -> int:
        while i < len(src):
            c = src[i]
            if end_char and c == end_char:
                return i + 1
            if src.startswith("//", i):
                i = src.index("\n", i) if "\n" in src[i:] else len(src)
            elif src.startswith("/*", i):
                i = src.index("*/", i) + 2
            elif c in "\"'":
                j = i + 1
                while src[j] != c:
                    j += 2 if src[j] == "\\" else 1
                out.append((src[i + 1:j], src[max(0, i - 60):i], inherited))
                i = j + 1
            elif c == "`":
                before = src[max(0, i - 60):i]
                ctx = inherited or bool(CODE_ONLY.search(before))
                parts, j = [], i + 1
                while src[j] != "`":
                    if src[j] == "\\":
                        parts.append(src[j:j + 2])
                        j += 2
                    elif src.startswith("${", j):
                        parts.append("\0")
                        j = scan(j + 2, "}", ctx)
                    else:
                        parts.append(src[j])
                        j += 1
                out.append(("".join(parts), before, inherited))
                i = j + 1
            elif c == "{" and end_char == "}":
                i = scan(i + 1, "}", inherited)
            elif c == "/" and re.search(r"[(,=:]\s*$", src[max(0, i - 20):i]):  # a regex
                j = i + 1
                while src[j] != "/":
                    j += 2 if src[j] == "\\" else 1
                i = j + 1
            else:
                i += 1
        return i

    scan(0, None, False)
    return out


def english(path: Path) -> list[str]:
    found = []
    for text, before, code_only in literals(path.read_text(encoding="utf-8")):
        plain = text.replace("\0", " ")
        if code_only or CODE_ONLY.search(before) or not LETTERS.search(plain) or KEYISH.match(text):
            continue
        if text in ALLOWED.get(path.name, ()):
            continue
        if plain.lstrip()[:1] in ("." , "[", "/", "#", ":"):  # selectors and paths
            continue
        if SINK.search(before) or WORDY.search(plain):
            found.append(text.replace("\0", "${…}"))
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_english_literal_drawn(path):
    assert english(path) == [], f"{path.name}: words to move into the web catalog"


def test_the_scan_finds_english(tmp_path):
    """The scan itself can fail: words drawn in each way it knows are caught."""
    sample = ('h("p", { text: "Your turn" }); h("b", { text: `${n} cards left` });\n'
              'h("button", {}, "Pass"); el.textContent = ok ? "✓ verified" : "bad";\n'
              'h("span", { class: "stat chips", text: "·" }); t("table.pass");\n')
    path = tmp_path / "sample.js"
    path.write_text(sample, encoding="utf-8")
    assert english(path) == ["Your turn", "${…} cards left", "Pass", "✓ verified", "bad"]
