"""The batch engine: many random games at once in numba kernels, same rules, same records.

* :func:`simulate` -- whole games of uniformly random play, per-game scores, totals,
  winners, moves per round, and optionally ``parlour-record/1`` records;
* :func:`bench` -- rounds/s and moves/s;
* :class:`FanTanBatch` -- Fan Tan rounds stepping together with caller-chosen moves
  (arena bots, RL policies), legal masks as (batch, 53) arrays;
* :mod:`parlour.batch.stream` -- the counter-based splitmix64 stream that fixes every
  deck, first dealer and choice from ``(seed, game index)``;
* :func:`stream_match`, :class:`StreamAgent`, :func:`random_policy_moves` -- the same
  choices through the step engine, the reference the kernels are tested against.

See ``docs/speed.md``.
"""

from parlour.batch.agent import StreamAgent, random_policy_moves, stream_match
from parlour.batch.records import chunk_record, game_record, to_match
from parlour.batch.runner import BatchResult, simulate
from parlour.batch.speed import bench
from parlour.games.fantan.lockstep import FanTanBatch

__all__ = [
    "BatchResult", "FanTanBatch", "StreamAgent", "bench", "chunk_record", "game_record",
    "random_policy_moves", "simulate", "stream_match", "to_match",
]
