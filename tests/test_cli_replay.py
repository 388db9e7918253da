"""``parlour replay``: every move, all hands or one seat's view only (FT-10, FA-7)."""

from __future__ import annotations

import copy
import json
import random

import pytest
from typer.testing import CliRunner

import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour import cards, record
from parlour.games.fantan.rules import FANTAN
from playout import random_playout

runner = CliRunner()
app = parlour.cli.app


@pytest.fixture(scope="module")
def fantan_record() -> dict:
    return record.dump(random_playout("fantan", 4, seed=21, rules={"rounds": 1}))


def write(tmp_path, data, name="game.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_replay_shows_every_move_all_hands_and_scores(tmp_path, fantan_record):
    path = write(tmp_path, fantan_record)
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exit_code == 0, res.output
    moves = fantan_record["rounds"][0]["moves"]
    assert f"{len(moves)}. Player" in res.stdout  # the last move is numbered
    for name in fantan_record["seats"]:
        assert sum(line.startswith(name + " ") for line in res.stdout.splitlines()) > 10
    assert "Score sheet" in res.stdout and "with a total of" in res.stdout


def hide_and_shuffle(data: dict, seat: int, upto: int, seed: int) -> dict:
    """The record cut after ``upto`` moves, with every card still hidden in another
    seat's hand dealt to the other seats in a different way (counts kept)."""
    d = copy.deepcopy(data)
    del d["totals"], d["winners"]
    r0 = d["rounds"][0]
    del r0["score"]
    r0["moves"] = r0["moves"][:upto]
    played = {m["play"] for m in r0["moves"] if "play" in m}
    n, dealer = len(d["seats"]), r0["dealer"]
    places = [i for i, c in enumerate(r0["deck"])
              if (dealer + 1 + i) % n != seat and c not in played]  # FT-1 deal order
    hidden = [r0["deck"][i] for i in places]
    random.Random(seed).shuffle(hidden)
    for i, c in zip(places, hidden, strict=True):
        r0["deck"][i] = c
    assert record.load(d)  # still a valid (unfinished) record
    return d


def test_seat_view_does_not_depend_on_other_hands(tmp_path):
    """--seat K prints nothing of the others' hidden cards (FT-10): dealing those cards
    differently among the other seats leaves its output unchanged, byte for byte,
    while the all-hands replay does change."""
    rules = {"rounds": 1, "strict": False}  # any pass stays legal whoever holds what (FT-5)
    data = record.dump(random_playout("fantan", 4, seed=5, rules=FANTAN.rules(4, rules)))
    original = hide_and_shuffle(data, seat=1, upto=25, seed=0)
    shuffled = hide_and_shuffle(data, seat=1, upto=25, seed=1)
    assert original["rounds"][0]["deck"] != shuffled["rounds"][0]["deck"]
    a, b = write(tmp_path, original, "a.json"), write(tmp_path, shuffled, "b.json")
    seat_a = runner.invoke(app, ["replay", str(a), "--seat", "1"])
    seat_b = runner.invoke(app, ["replay", str(b), "--seat", "1"])
    assert seat_a.exit_code == 0, seat_a.output
    assert seat_a.stdout == seat_b.stdout
    assert "Player 2's hand" in seat_a.stdout and "Player 1's hand" not in seat_a.stdout
    assert "the game is unfinished" in seat_a.stdout
    all_a = runner.invoke(app, ["replay", str(a)])
    all_b = runner.invoke(app, ["replay", str(b)])
    assert all_a.stdout != all_b.stdout


def test_fanti_replay_names_cards_the_fanti_way(tmp_path):
    """FA-1: Fanti names (Leaf, Star, Guardian, Mystic, Scout) in the replay."""
    data = record.dump(random_playout("fanti", 3, seed=2, rules={"rounds": 1}))
    res = runner.invoke(app, ["replay", str(write(tmp_path, data)), "--seat", "0"])
    assert res.exit_code == 0
    assert "Leaf" in res.stdout and "Star" in res.stdout and "collected" in res.stdout
    assert "Round result" in res.stdout


def test_step_waits_for_enter_and_q_quits(tmp_path, fantan_record):
    path = write(tmp_path, fantan_record)
    res = runner.invoke(app, ["replay", str(path), "--step"], input="\n\nq\n")
    assert res.exit_code == 0
    assert "2. Player" in res.stdout and "3. Player" not in res.stdout
    assert "Replay stopped." in res.stdout


def test_invalid_record_exit_1(tmp_path, fantan_record):
    bad = copy.deepcopy(fantan_record)
    bad["rounds"][0]["moves"][0]["play"] = "KS"
    res = runner.invoke(app, ["replay", str(write(tmp_path, bad))])
    assert res.exit_code == 1
    assert "record 0 is not a valid record: round 1, move 1: illegal move play KS" in res.stderr


def test_usage_errors_exit_2(tmp_path, fantan_record):
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(fantan_record) + "\n" + json.dumps(fantan_record) + "\n")
    assert runner.invoke(app, ["replay", str(path), "--index", "1"]).exit_code == 0
    res = runner.invoke(app, ["replay", str(path), "--index", "2"])
    assert res.exit_code == 2 and "--index must be from 0 to 1" in res.stderr
    res = runner.invoke(app, ["replay", str(path), "--seat", "4"])
    assert res.exit_code == 2 and "--seat must be from 0 to 3" in res.stderr
    res = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert res.exit_code == 2 and "cannot read" in res.stderr


def test_hand_rendering_is_sorted_by_suit():
    from parlour import render

    hand = cards.mask_from_codes(["KS", "2C", "7D", "AC", "10H"])
    assert render.hand_text("fantan", hand).plain == "♣ A 2   ♦ 7   ♥ 10   ♠ K"
    assert render.hand_text("fanti", cards.mask_from_codes(["2C", "JD"])).plain == \
        "Leaf 2 2C   Star Guardian JD"
