"""The batch engine: many random games at once in numba kernels, same rules, same records.

* :func:`simulate` -- whole games of uniformly random play, per-game scores, totals,
  winners, moves per round, and optionally ``parlour-record/1`` records;
* :func:`bench` -- rounds/s and moves/s;
* :class:`FanTanBatch` -- Fan Tan rounds stepping together with caller-chosen moves
  (arena bots, RL policies), legal masks as (batch, 53) arrays: a name a game's
  ``kernel`` part adds to this API (``BATCH_API``), loaded when first used;
* :mod:`parlour.batch.stream` -- the counter-based splitmix64 stream that fixes every
  deck, first dealer and choice from ``(seed, game index)``;
* :func:`stream_match`, :class:`StreamAgent`, :func:`random_policy_moves` -- the same
  choices through the step engine, the reference the kernels are tested against.

See ``docs/speed.md``.
"""

import importlib
from typing import Any

from parlour.batch.agent import StreamAgent, StreamShuffler, random_policy_moves, stream_match
from parlour.batch.records import chunk_record, game_record, to_match
from parlour.batch.runner import BatchResult, simulate
from parlour.batch.speed import bench
from parlour.games import KITS

__all__ = [
    "BatchResult", "FanTanBatch", "StreamAgent", "StreamShuffler", "bench", "chunk_record", "game_record",
    "random_policy_moves", "simulate", "stream_match", "to_match",
]


def __getattr__(name: str) -> Any:
    """A name some game's kernel part adds to this API (its ``BATCH_API`` modules)."""
    for kit in KITS.values():
        if kit.part("kernel") is None:
            continue
        for module in kit.attr("kernel", "BATCH_API", ()):
            found = getattr(importlib.import_module(module), name, None)
            if found is not None:
                return found
    raise AttributeError(f"module 'parlour.batch' has no attribute {name!r}")
