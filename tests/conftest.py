"""Shared test helpers."""

from __future__ import annotations

import os
import random
import signal
import sys
from pathlib import Path

import pytest

# --doctest-modules (pyproject) would also import each folder's conftest.py as a module
# named "conftest": the second of them fails ("import file mismatch"). pytest loads them
# as conftests anyway, and they hold no examples.
collect_ignore_glob = ["conftest.py", "*/conftest.py"]

# A key missing even in English raises in tests (parlour.i18n.translate.strict);
# subprocesses inherit it.
os.environ.setdefault("PARLOUR_I18N_STRICT", "1")

# A suite started in the background of a non-interactive shell (`bash scripts/test.sh &`)
# inherits SIGINT ignored (POSIX), and every process it starts with it: the Ctrl-C tests'
# commands would never hear their Ctrl-C. Put Python's own handler back.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Helper modules that tests in several folders import by name.
sys.path.insert(0, str(Path(__file__).parent / "bots"))

# The fixture game (tests/fixture_games/gin_lite), a third game registered for the whole
# run: every test that goes over the registry checks it too. Subprocesses register it
# with PARLOUR_GAMES (see tests/conformance/test_fixture_game_cli.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from parlour.games import KITS, register  # noqa: E402
from playout import random_playout  # noqa: E402, F401  (re-exported for older imports)

if "ginlite" not in KITS:
    register("fixture_games.gin_lite")


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)


@pytest.fixture(autouse=True)
def _english_game_words():
    """Each test starts reading the games in English with their own card names: an
    in-process ``parlour play --lang fa`` sets the language for the rest of the process."""
    from parlour import speech

    speech.use("en", "game")
    yield
    speech.use("en", "game")
