"""A whole game of each kind plays, records and replays (C-2, FA-10, FT-9)."""

from parlour import record
from playout import random_playout


def test_whole_games_round_trip_through_records():
    for game, n in (("fantan", 4), ("fanti", 3)):
        m = random_playout(game, n, seed=7)
        assert m.is_over
        data = record.dump(m)
        assert record.load(data) == m
        assert record.dump(record.load(data)) == data
