"""Names and module texts say what code does, not which issue asked for it: an issue
number means nothing to a reader without the tracker (the commit message keeps it)."""

from __future__ import annotations

import re
from pathlib import Path

import parlour

SRC = Path(parlour.__file__).resolve().parent
TESTS = Path(__file__).resolve().parent.parent
ISSUE = re.compile(r"\bissues?\s*#?\s*\d+|#\d+\b(?=.*\bfinding)", re.IGNORECASE)


def cited(text: str) -> list[str]:
    return [f"{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1)
            if ISSUE.search(line)]


def test_the_package_never_cites_an_issue_number():
    found = {str(p.relative_to(SRC)): hits for p in sorted(SRC.rglob("*.py"))
             if (hits := cited(p.read_text("utf-8")))}
    assert found == {}


def test_no_test_file_is_named_after_an_issue():
    assert [p.name for p in TESTS.rglob("test_*.py") if re.search(r"issue", p.name)] == []


def test_the_check_catches_a_citation():
    assert cited('"""Load harness (issue #7)."""\n# Help (issue 16): flags') != []
    assert len(cited("x = 1\n# (Issue 31, finding 9)\n")) == 1
    assert cited("the pass issue of FT-8; 16 rounds") == []


def test_the_architecture_page_lists_every_module():
    """docs/architecture.md has a line for each module of the package."""
    doc = (TESTS.parent / "docs" / "architecture.md").read_text("utf-8")
    missing = [str(p.relative_to(SRC)) for p in sorted(SRC.rglob("*.py"))
               if f"`{p.relative_to(SRC)}`" not in doc]
    assert missing == []


def test_no_two_test_files_share_a_name():
    """Test folders are not packages, so pytest imports each test file by its base name:
    two of one name stop the whole run at collection ("import file mismatch")."""
    names = [p.name for p in TESTS.rglob("test_*.py")]
    assert sorted({n for n in names if names.count(n) > 1}) == []
