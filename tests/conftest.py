"""Shared test helpers."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

# Helper modules that tests in several folders import by name.
sys.path.insert(0, str(Path(__file__).parent / "bots"))

from playout import random_playout  # noqa: F401  (re-exported for older imports)


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)
