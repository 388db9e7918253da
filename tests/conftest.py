"""Shared test helpers."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

# Helper modules that tests in several folders import by name.
sys.path.insert(0, str(Path(__file__).parent / "bots"))

# The fixture game (tests/fixture_games/gin_lite): a third game registered for the whole
# test run, so every test that goes over the registry checks it too. Subprocesses get
# it from PARLOUR_GAMES with tests/ on PYTHONPATH (see FIXTURE_ENV).
TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))
FIXTURE_GAME = "fixture_games.gin_lite"

from parlour.games import KITS, register  # noqa: E402
from playout import random_playout  # noqa: E402, F401  (re-exported for older imports)

if "ginlite" not in KITS:
    register(FIXTURE_GAME)


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)
