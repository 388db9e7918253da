"""Every ``>>>`` example in the package's docstrings runs, and shows what it says.

(The suite's own folders are not packages, so ``--doctest-modules`` over ``tests/``
would import test files twice; the package's modules are run here instead, each
module's examples as one test.)
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import parlour

SRC = Path(parlour.__file__).resolve().parent


def with_examples() -> list[str]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        if ">>> " in path.read_text("utf-8"):
            parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
            out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def test_the_package_has_examples():
    assert len(with_examples()) >= 10


@pytest.mark.parametrize("name", with_examples())
def test_the_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
    assert result.attempted > 0 or ">>> " not in (module.__doc__ or "")
