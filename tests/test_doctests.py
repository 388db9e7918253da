"""Every ``>>>`` example in the package runs with the suite: pyproject's pytest settings
collect ``src/parlour`` with ``--doctest-modules`` (each module's examples are test items
there). These tests hold that setting, and that the examples are worth running: the core
modules show real output, and an example whose shown output is changed fails."""

from __future__ import annotations

import copy
import doctest
import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import parlour

SRC = Path(parlour.__file__).resolve().parent
ROOT = SRC.parents[1]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE  # as pyproject's doctest_optionflags
CORE = ["parlour.cards", "parlour.record", "parlour.game", "parlour.options", "parlour.kit",
        "parlour.games.fantan.rules", "parlour.games.fanti.rules"]


def pytest_settings() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["pytest"][
        "ini_options"]


def examples(name: str) -> list[doctest.DocTest]:
    return [t for t in doctest.DocTestFinder().find(importlib.import_module(name)) if t.examples]


def test_the_test_command_collects_the_package_with_doctests():
    ini = pytest_settings()
    assert "src/parlour" in ini["testpaths"]
    assert "--doctest-modules" in ini["addopts"].split()
    assert set(ini["doctest_optionflags"]) == {"ELLIPSIS", "NORMALIZE_WHITESPACE"}


def test_pytest_finds_a_module_s_examples():
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-n", "0", "src/parlour/cards.py"],
        cwd=ROOT, capture_output=True, text=True, timeout=120).stdout
    assert "src/parlour/cards.py::parlour.cards" in out


@pytest.mark.parametrize("name", CORE)
def test_a_core_module_shows_what_it_does(name):
    shown = [e for t in examples(name) for e in t.examples if e.want.strip()]
    assert len(shown) >= 2, f"{name}: at least two examples that show their result"


@pytest.mark.parametrize("name", CORE)
def test_an_example_with_its_shown_output_changed_fails(name):
    """Each example of a core module that shows a value, altered alone, fails: the
    examples check what they show, not only that they run."""
    for test in examples(name):
        for i, example in enumerate(test.examples):
            if not example.want.strip() or example.exc_msg is not None:
                continue
            changed = copy.copy(test)
            changed.examples = [copy.copy(e) for e in test.examples]
            changed.examples[i].want = "changed " + example.want
            changed.globs = dict(test.globs)
            result = doctest.DocTestRunner(optionflags=FLAGS).run(changed, out=lambda _: None)
            assert result.failed == 1, f"{test.name}: {example.source!r}"
