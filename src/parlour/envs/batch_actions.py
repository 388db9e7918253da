"""The check every vector environment makes of a step's actions, before any env moves."""

from __future__ import annotations

from typing import Any

import numpy as np


def batch_actions(actions: Any, num_envs: int, reset_once: bool) -> np.ndarray:
    """``actions`` as one int64 action per env, or the error a caller gets (nothing has
    moved): ``step()`` before ``reset()`` is a RuntimeError, a wrong shape a ValueError.

    >>> batch_actions([3, 1], 2, True)
    array([3, 1])
    >>> batch_actions([3], 2, True)
    Traceback (most recent call last):
    ...
    ValueError: need one action per env: shape (2,), not (1,)
    """
    if not reset_once:
        raise RuntimeError("call reset() before step()")
    a = np.ascontiguousarray(actions, dtype=np.int64)
    if a.shape != (num_envs,):
        raise ValueError(f"need one action per env: shape ({num_envs},), not {a.shape}")
    return a
