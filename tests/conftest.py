"""Shared test helpers."""

from __future__ import annotations

import random

import pytest

from playout import random_playout  # noqa: F401  (re-exported for older imports)


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)
