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


def test_python_dash_m_parlour_is_the_same_command_line():
    import subprocess
    import sys

    ok = subprocess.run([sys.executable, "-m", "parlour", "--version"],
                        capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and ok.stdout.startswith("parlour "), ok.stderr
    bad = subprocess.run([sys.executable, "-m", "parlour", "nosuch"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "No such command 'nosuch'" in bad.stderr
