"""The game record ``parlour-record/1`` (RECORD.md): accepted records and every rejection.

Each rejection test starts from a valid record, breaks one thing and checks that
:class:`RecordError` names the round, the move (both from 1; None where they do not
apply) and the reason.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import scenarios as S
from parlour import record
from parlour.game import PASS
from parlour.games.fantan.rules import FANTAN
from parlour.games.fanti.rules import FANTI
from parlour.match import Match, commitment
from parlour.record import RecordError

DOCS = Path(__file__).resolve().parent.parent / "docs" / "records.md"

# --- valid records, written by hand ------------------------------------------------------

NARRATIVE_DECK = [
    "7D", "8D", "7C", "4D", "9D", "6D", "5D", "10H", "4C", "5C", "6C", "JS", "8C", "9C",
    "10C", "QC", "JC", "KC", "AD", "KH", "2D", "3D", "10D", "2C", "JD", "QD", "KD", "3C",
    "AH", "3H", "4H", "AC", "5H", "6H", "7H", "2S", "8H", "9H", "JH", "3S", "QH", "5S",
    "6S", "4S", "7S", "8S", "9S", "AS", "10S", "QS", "KS", "2H",
]


def narrative() -> dict[str, Any]:
    """The seed's Fan Tan example as an unfinished record (no score, totals, winners)."""
    return {
        "format": "parlour-record/1",
        "game": "fantan",
        "rules": {"rounds": 2, "opening": "seven-of-diamonds", "ace": "low",
                  "stakes": "points", "strict": True},
        "seats": ["Anna", "Ben", "Clara", "Dan"],
        "rounds": [{
            "dealer": 3,
            "deck": list(NARRATIVE_DECK),
            "moves": [
                {"seat": 0, "play": "7D"}, {"seat": 1, "play": "8D"},
                {"seat": 2, "play": "7C"}, {"seat": 3, "pass": True},
                {"seat": 0, "play": "9D"}, {"seat": 1, "play": "6D"},
            ],
        }],
    }


A_DECK = [
    "7S", "8S", "7C", "6D", "7D", "7H", "6H", "8H", "6S", "AC", "6C", "5D", "8D", "2C",
    "3C", "4C", "5C", "9C", "8C", "4D", "9D", "10C", "JC", "QC", "KC", "AH", "2H", "3D",
    "10D", "3H", "4H", "5H", "9H", "10H", "JH", "2D", "JD", "QH", "KH", "AS", "2S", "3S",
    "4S", "AD", "QD", "5S", "9S", "10S", "JS", "QS", "KS", "KD",
]


def fantan_finished() -> dict[str, Any]:
    """Scenario A (``scenarios.py``): one round, points, withholding allowed; every score
    worked out by hand in ``test_fantan_rules``."""
    score = [0, 30, 12, 12, 31, 13, 31, 1]
    return {
        "format": "parlour-record/1",
        "game": "fantan",
        "rules": {"rounds": 1, "opening": "seven-of-diamonds", "ace": "low",
                  "stakes": "points", "strict": False},
        "seats": [f"P{i}" for i in range(8)],
        "rounds": [{"dealer": 3, "deck": list(A_DECK), "moves": S.record_moves(S.A_MOVES),
                    "score": score}],
        "totals": score,
        "winners": [0],
    }


def fantan_two_rounds() -> dict[str, Any]:
    """Scenario A then a second round just dealt (unfinished game)."""
    data = fantan_finished()
    data["rules"]["rounds"] = 2
    del data["totals"], data["winners"]
    data["rounds"].append({"dealer": 4, "deck": list(reversed(A_DECK)), "moves": []})
    return data


FANTI_DECK = [
    "2C", "3D", "5H", "8S", "6H", "7S", "KD", "9C", "QC", "KS", "4C", "10D", "AC", "3C",
    "5C", "6C", "7C", "8C", "10C", "JC", "KC", "AD", "2D", "4D", "5D", "6D", "7D", "8D",
    "9D", "JD", "QD", "AH", "2H", "3H", "4H", "7H", "8H", "9H", "10H", "JH", "QH", "KH",
    "AS", "2S", "3S", "4S", "5S", "6S", "9S", "10S", "JS", "QS",
]

FANTI_MOVES = [  # (seat, play, take)
    (1, "6H", "2C 3D"), (0, "9C", ""), (1, "KD", ""), (0, "KS", "KD"),
    (1, "4C", ""), (0, "10D", ""), (1, "QC", ""), (0, "7S", "4C"),
    (1, "AC", "10D"), (0, "3C", "8S"), (1, "5C", ""), (0, "6C", "5C"),
    (1, "7C", ""), (0, "8C", ""), (1, "10C", ""), (0, "JC", "7C 8C 9C 10C 5H"),
    (1, "KC", ""), (0, "AD", ""), (1, "2D", ""), (0, "4D", ""),
    (1, "5D", "2D 4D"), (0, "6D", ""), (1, "7D", ""), (0, "8D", ""),
    (1, "9D", ""), (0, "JD", "AD 6D 7D 8D 9D"), (1, "QD", "QC"), (0, "AH", ""),
    (1, "2H", ""), (0, "3H", ""), (1, "4H", ""), (0, "7H", "AH 3H"),
    (1, "8H", ""), (0, "9H", "2H"), (1, "10H", ""), (0, "JH", "4H 8H 10H"),
    (1, "QH", ""), (0, "KH", "KC"), (1, "AS", ""), (0, "2S", ""),
    (1, "3S", ""), (0, "4S", ""), (1, "5S", "AS 2S 3S"), (0, "6S", ""),
    (1, "9S", ""), (0, "10S", ""), (1, "JS", "4S 6S 9S 10S"), (0, "QS", "QH"),
]


def fanti_finished() -> dict[str, Any]:
    """A whole 2-player, 1-round game of Fanti. Score by hand (FA-9): Ann ends with 33
    cards (+2) and 10 Leaf cards (+1); Bo holds 2C (+1) and 10D (+1): [3, 2]."""
    return {
        "format": "parlour-record/1",
        "game": "fanti",
        "rules": {"rounds": 1, "ties": "none", "guardian_takes_guardians": True},
        "seats": ["Ann", "Bo"],
        "rounds": [{
            "dealer": 0,
            "deck": list(FANTI_DECK),
            "moves": [{"seat": s, "play": p, "take": t.split()} for s, p, t in FANTI_MOVES],
            "score": [3, 2],
        }],
        "totals": [3, 2],
        "winners": [0],
    }


def fanti_unfinished() -> dict[str, Any]:
    data = fanti_finished()
    data["rules"]["rounds"] = 3
    data["rounds"][0]["moves"] = data["rounds"][0]["moves"][:4]
    del data["rounds"][0]["score"], data["totals"], data["winners"]
    return data


VALID: dict[str, Callable[[], dict[str, Any]]] = {
    "narrative": narrative, "fantan_finished": fantan_finished,
    "fantan_two_rounds": fantan_two_rounds, "fanti_finished": fanti_finished,
    "fanti_unfinished": fanti_unfinished,
}


@pytest.mark.parametrize("name", VALID)
def test_hand_written_records_are_accepted_and_round_trip(name):
    """RECORD.md: a valid record loads, and writing it back gives the same document."""
    data = VALID[name]()
    m = record.load(data)
    assert record.dump(m) == data
    assert record.load(json.loads(record.dumps(m))) == m


def test_finished_records_carry_the_scores_worked_out_by_hand():
    """FT-7/FT-8 (scenario A) and FA-9 (the Fanti game): the reader recomputes them."""
    ft = record.load(fantan_finished())
    assert ft.is_over and ft.totals == [0, 30, 12, 12, 31, 13, 31, 1] and ft.winners == [0]
    fa = record.load(fanti_finished())
    assert fa.is_over and fa.totals == [3, 2] and fa.winners == [0]
    n = record.load(narrative())
    assert not n.is_over and n.current is not None and n.current.current_player == 2


# --- rejections ------------------------------------------------------------------------


def rejects(data: Any, round_: int | None, move: int | None, reason: str) -> RecordError:
    """Assert that ``data`` is refused at ``round_``/``move`` with ``reason`` (a regex)."""
    with pytest.raises(RecordError) as info:
        record.load(data)
    e = info.value
    assert (e.round, e.move) == (round_, move), str(e)
    assert re.search(reason, e.reason), e.reason
    where = ", ".join(f"{k} {v}" for k, v in (("round", round_), ("move", move)) if v)
    assert str(e) == (f"{where}: {e.reason}" if where else e.reason)
    return e


def fantan_blocked() -> dict[str, Any]:
    """A one-round game of three where everyone passes whenever they may: after 7D, six
    passes in a row block the round (FT-11)."""
    from parlour.batch import stream

    m = Match(FANTAN, FANTAN.rules(3, {"strict": False, "rounds": 1}), ["A", "B", "C"], 0)
    r = m.deal(stream.deck(7, 0, 0))
    while not r.is_over:
        moves = r.legal_moves()
        r.apply(PASS if PASS in moves else moves[0])
    return record.dump(m)


def edit(base: Callable[[], dict[str, Any]], change: Callable[[dict[str, Any]], Any]):
    data = copy.deepcopy(base())
    change(data)
    return data


def rd(data: dict[str, Any], k: int = 0) -> dict[str, Any]:
    return data["rounds"][k]


def mv(data: dict[str, Any], j: int, k: int = 0) -> dict[str, Any]:
    return data["rounds"][k]["moves"][j]


def test_deck_that_is_not_a_permutation_is_refused():
    """C-2, RECORD.md: the deck is the 52 cards, each once."""
    rejects(edit(narrative, lambda d: rd(d)["deck"].__setitem__(1, "7D")), 1, None,
            "deck is not a permutation of the 52 cards")
    rejects(edit(narrative, lambda d: rd(d)["deck"].pop()), 1, None, "not a permutation")
    rejects(edit(narrative, lambda d: rd(d)["deck"].append("2H")), 1, None,
            "not a permutation")


@pytest.mark.parametrize("bad", ["TH", "10h", "7♦", "1H", ""])
def test_c1_deck_with_non_canonical_code_is_refused(bad):
    """C-1: records hold canonical codes only (``10H``, never ``TH``)."""
    data = edit(narrative, lambda d: rd(d)["deck"].__setitem__(7, bad))
    rejects(data, 1, None, re.escape(f"deck: not a card code: {bad!r}"))


def test_deck_of_wrong_type_is_refused():
    rejects(edit(narrative, lambda d: rd(d)["deck"].__setitem__(0, 19)), 1, None,
            "deck must be a list of 52 card codes")
    rejects(edit(narrative, lambda d: rd(d).__setitem__("deck", "7D 8D")), 1, None,
            "deck must be a list")


def test_fa10_ft9_dealer_breaking_the_rotation_is_refused():
    """FA-10, FT-9: the deal moves one seat clockwise each round."""
    rejects(edit(fantan_two_rounds, lambda d: rd(d, 1).__setitem__("dealer", 5)), 2, None,
            r"dealer 5 breaks the rotation: seat 4 deals this round \(FA-10, FT-9\)")
    rejects(edit(fantan_two_rounds, lambda d: rd(d, 1).__setitem__("dealer", 3)), 2, None,
            "breaks the rotation")
    rejects(edit(narrative, lambda d: rd(d).__setitem__("dealer", 4)), 1, None,
            "dealer must be a seat from 0 to 3, not 4")


@pytest.mark.parametrize(("base", "seats", "reason"), [
    (narrative, ["A", "B"], "Fan Tan takes 3 to 8 players, not 2"),
    (narrative, [f"P{i}" for i in range(9)], "Fan Tan takes 3 to 8 players, not 9"),
    (fanti_unfinished, ["A"], "Fanti takes 2 to 4 players, not 1"),
    (fanti_unfinished, list("ABCDE"), "Fanti takes 2 to 4 players, not 5"),
])
def test_ft1_fa2_player_count_out_of_range_is_refused(base, seats, reason):
    """FT-1, FA-2: Fan Tan 3-8 players, Fanti 2-4; ``seats`` gives the count."""
    rejects(edit(base, lambda d: d.__setitem__("seats", seats)), None, None, reason)


def test_move_by_the_wrong_seat_is_refused():
    rejects(edit(narrative, lambda d: mv(d, 1).__setitem__("seat", 2)), 1, 2,
            "seat 2 moved, but it was seat 1's turn")
    rejects(edit(narrative, lambda d: mv(d, 0).__setitem__("seat", 3)), 1, 1,
            "seat 3 moved, but it was seat 0's turn")


def test_card_not_in_the_hand_is_refused():
    rejects(edit(narrative, lambda d: mv(d, 0).__setitem__("play", "6D")), 1, 1,
            "illegal move play 6D: 6D is not in seat 0's hand")
    rejects(edit(fanti_unfinished, lambda d: mv(d, 0).__setitem__("play", "7S")), 1, 1,
            "7S is not in seat 1's hand")


def test_ft3_ft4_play_the_rules_forbid_is_refused():
    """FT-4: the round opens with 7D; FT-3: a card must fit on a row."""
    rejects(edit(narrative, lambda d: mv(d, 0).__setitem__("play", "9D")), 1, 1,
            r"illegal move play 9D: the round opens with 7D \(FT-4\)")
    dan_plays_4d = {"seat": 3, "play": "4D"}
    rejects(edit(narrative, lambda d: rd(d)["moves"].__setitem__(3, dan_plays_4d)), 1, 4,
            r"illegal move play 4D: 4D does not fit on the table \(FT-3\)")


def test_ft4_ft5_pass_the_rules_forbid_is_refused():
    """FT-5 (``strict: true``: no pass while a card fits) and FT-4 (7D is never a pass)."""
    data = edit(fantan_finished, lambda d: d["rules"].__setitem__("strict", True))
    rejects(data, 1, 2, r"illegal move pass: cannot pass while holding a playable card "
                        r"\(7H\) \(FT-5\)")
    data = edit(fantan_finished, lambda d: rd(d)["moves"].__setitem__(0, {"seat": 0,
                                                                           "pass": True}))
    rejects(data, 1, 1, r"7D opens the round: it must be played now \(FT-4\)")


@pytest.mark.parametrize(("j", "take", "reason"), [
    (0, [], r"6H can collect, so it must \(FA-6\): 2C\+3D"),
    (0, ["2C"], r"2C is not a collection for 6H \(FA-5\); it can take 2C\+3D"),
    (0, ["2C", "3D", "5H"], "is not a collection for 6H"),
    (0, ["2C", "4D"], "4D not on the table"),
    (1, ["5H"], r"9C collects nothing here: it must be discarded \(FA-6\)"),
    (3, [], r"KS can collect, so it must \(FA-6\): KD"),
])
def test_fa5_fa6_take_that_is_not_exactly_one_legal_collection_is_refused(j, take, reason):
    """FA-5, FA-6: ``take`` must be exactly one legal collection ([] only when none)."""
    data = edit(fanti_unfinished, lambda d: mv(d, j).__setitem__("take", take))
    rejects(data, 1, j + 1, reason)


def test_malformed_take_is_refused():
    rejects(edit(fanti_unfinished, lambda d: mv(d, 0).__setitem__("take", ["2C", "2C"])),
            1, 1, 'malformed move: "take" lists a card twice')
    rejects(edit(fanti_unfinished, lambda d: mv(d, 0).__setitem__("take", "2C 3D")),
            1, 1, 'malformed move: "take" must be a list')
    rejects(edit(fanti_unfinished, lambda d: mv(d, 0).pop("take")), 1, 1,
            "malformed move: a Fanti move is")


def test_moves_after_the_round_ended_are_refused():
    """FT-6 / FA-8: nothing follows the end of a round."""
    rejects(edit(fantan_finished, lambda d: rd(d)["moves"].append({"seat": 1, "pass": True})),
            1, 50, "move after the round ended")
    rejects(edit(fanti_finished, lambda d: rd(d)["moves"].append(
        {"seat": 1, "play": "2H", "take": []})), 1, 49, "move after the round ended")


def test_finished_round_with_moves_missing_is_refused():
    """RECORD.md: a round with a score must be finished by its moves; a round can be
    followed only by a finished one."""
    rejects(edit(fantan_finished, lambda d: rd(d)["moves"].pop()), 1, 49,
            r"score given, but the moves do not finish the round \(48 moves; seat 0 is "
            r"to move\)")
    rejects(edit(fanti_finished, lambda d: rd(d)["moves"].pop()), 1, 48,
            "score given, but the moves do not finish the round")

    def cut_first(d):
        d["rounds"][0]["moves"].pop()
        del d["rounds"][0]["score"]
    rejects(edit(fantan_two_rounds, cut_first), 1, 49,
            r"round 2 follows, but this round's moves do not finish it \(seat 0 is to move\)")


def test_wrong_or_missing_score_totals_winners_are_refused():
    rejects(edit(fantan_finished, lambda d: rd(d)["score"].__setitem__(1, 29)), 1, None,
            r"score \[0, 29, 12, 12, 31, 13, 31, 1\] differs from the moves' "
            r"\[0, 30, 12, 12, 31, 13, 31, 1\]")
    rejects(edit(fanti_finished, lambda d: rd(d).pop("score")), 1, None,
            "the moves finish the round, but its score is missing")
    rejects(edit(fanti_finished, lambda d: d.__setitem__("totals", [2, 3])), None, None,
            r"totals \[2, 3\] differ from the moves' \[3, 2\]")
    rejects(edit(fanti_finished, lambda d: d.__setitem__("winners", [0, 1])), None, None,
            r"winners \[0, 1\] differ from the moves' \[0\]")
    rejects(edit(fanti_finished, lambda d: d.pop("winners")), None, None,
            "the game is finished but 'winners' is missing")
    rejects(edit(fanti_finished, lambda d: d.pop("totals")), None, None,
            "the game is finished but 'totals' is missing")
    rejects(edit(fanti_unfinished, lambda d: d.__setitem__("totals", [0, 0])), None, None,
            "'totals' given, but the game is not finished")
    rejects(edit(fanti_unfinished, lambda d: rd(d).__setitem__("score", [0, 0])), 1, 5,
            "score given, but the moves do not finish the round")
    rejects(edit(fanti_finished, lambda d: d["rules"].__setitem__("rounds", 2)), None, None,
            "'totals' given, but the game is not finished")
    rejects(edit(fanti_finished, lambda d: d["rounds"].append(rd(d))), None, None,
            "2 rounds recorded, but the rules have 1")


@pytest.mark.parametrize(("where", "change", "round_", "move", "reason"), [
    ("top", lambda d: d.__setitem__("comment", "hi"), None, None,
     r"unknown key\(s\) 'comment'"),
    ("round", lambda d: rd(d).__setitem__("note", 1), 1, None, r"unknown key\(s\) 'note'"),
    ("move", lambda d: mv(d, 2).__setitem__("why", "x"), 1, 3,
     "malformed move: a Fan Tan move is"),
    ("rules key", lambda d: d["rules"].__setitem__("jokers", 2), None, None,
     "unknown rule 'jokers'"),
    ("format", lambda d: d.__setitem__("format", "parlour-record/2"), None, None,
     "format must be 'parlour-record/1'"),
    ("game", lambda d: d.__setitem__("game", "fan-tan"), None, None,
     "game must be one of fantan, fanti(, [a-z]+)*, not 'fan-tan'"),  # every registered game
    ("rule value", lambda d: d["rules"].__setitem__("ace", "middle"), None, None,
     'rule \'ace\' must be "low" \\| "high", not "middle"'),
    ("opening", lambda d: d["rules"].__setitem__("opening", "Any-Seven"), None, None,
     "rule 'opening' must be"),
    ("pass false", lambda d: mv(d, 3).__setitem__("pass", False), 1, 4,
     'malformed move: "pass" must be true'),
    ("play code", lambda d: mv(d, 0).__setitem__("play", "7d"), 1, 1,
     "malformed move: not a card code: '7d'"),
])
def test_unknown_keys_and_values_are_refused_at_every_level(where, change, round_, move,
                                                           reason):
    """RECORD.md: unknown keys or values anywhere are refused; nothing is ignored."""
    rejects(edit(narrative, change), round_, move, reason)


@pytest.mark.parametrize(("change", "round_", "move", "reason"), [
    (lambda d: mv(d, 1).__setitem__("seat", True), 1, 2, "seat must be an integer, not True"),
    (lambda d: mv(d, 1).__setitem__("seat", 1.0), 1, 2, "seat must be an integer, not 1.0"),
    (lambda d: rd(d).__setitem__("dealer", 0.0), 1, None, "dealer must be a seat"),
    (lambda d: rd(d).__setitem__("score", [3.0, 2]), 1, None,
     "score must be a list of 2 integers"),
    (lambda d: rd(d).__setitem__("score", [3, True]), 1, None,
     "score must be a list of 2 integers"),
    (lambda d: d.__setitem__("totals", [3, 2.0]), None, None,
     "totals must be a list of 2 integers"),
    (lambda d: d.__setitem__("winners", [False]), None, None,
     "winners must be a list of seat integers"),
    (lambda d: d["rules"].__setitem__("rounds", 1.0), None, None,
     "rule 'rounds' must be integer >= 1, not 1.0"),
    (lambda d: d["rules"].__setitem__("rounds", True), None, None,
     "rule 'rounds' must be integer >= 1, not true"),
    (lambda d: d["rules"].__setitem__("guardian_takes_guardians", 1), None, None,
     "rule 'guardian_takes_guardians' must be true | false, not 1"),
    (lambda d: d["rules"].__setitem__("ties", None), None, None, "rule 'ties' must be"),
    (lambda d: d.__setitem__("seats", ["Ann", 2]), None, None,
     r"seats must be a list of names \(strings\)"),
])
def test_inexact_json_types_are_refused(change, round_, move, reason):
    """RECORD.md: types are exact: ``true`` is not ``1``, ``1.0`` is not ``1``."""
    rejects(edit(fanti_finished, change), round_, move, reason)


@pytest.mark.parametrize(("base", "key", "missing"), [
    (narrative, "stakes", "stakes"), (narrative, "opening", "opening"),
    (fanti_unfinished, "ties", "ties"), (fanti_unfinished, "rounds", "rounds"),
    (fanti_unfinished, "guardian_takes_guardians", "guardian_takes_guardians"),
])
def test_missing_rules_keys_are_refused(base, key, missing):
    """RECORD.md: ``rules`` lists every option, defaults included."""
    rejects(edit(base, lambda d: d["rules"].pop(key)), None, None, f"rules lack {missing}")


@pytest.mark.parametrize(("change", "round_", "move", "reason"), [
    (lambda d: d.pop("rounds"), None, None, "missing key 'rounds'"),
    (lambda d: d.pop("seats"), None, None, "missing key 'seats'"),
    (lambda d: rd(d).pop("deck"), 1, None, "missing key 'deck'"),
    (lambda d: rd(d).pop("moves"), 1, None, "missing key 'moves'"),
    (lambda d: mv(d, 0).pop("seat"), 1, 1, "move lacks 'seat'"),
    (lambda d: rd(d)["moves"].__setitem__(0, ["7D"]), 1, 1, "a move must be an object"),
    (lambda d: d["rounds"].__setitem__(0, []), 1, None, "a round must be an object"),
    (lambda d: d.__setitem__("rules", []), None, None, "rules must be an object"),
    (lambda d: d.__setitem__("rounds", {}), None, None, "rounds must be a list"),
])
def test_missing_or_malformed_parts_are_refused(change, round_, move, reason):
    rejects(edit(narrative, change), round_, move, reason)


def test_a_record_must_be_an_object():
    rejects([], None, None, "a record must be a JSON object")


def test_meta_is_kept_but_not_interpreted():
    """RECORD.md: ``meta`` is kept by readers, whatever it holds, and must be an object."""
    meta = {"table": "t-17", "bots": {"P1": {"name": "greedy", "seed": 4}}, "x": [1, None]}
    data = edit(fantan_finished, lambda d: d.__setitem__("meta", meta))
    m = record.load(data)
    assert m.meta == meta and record.dump(m)["meta"] == meta
    assert record.dump(m) == data
    rejects(edit(narrative, lambda d: d.__setitem__("meta", "x")), None, None,
            "meta must be an object")


# --- the deal commitment --------------------------------------------------------------------

SALT = "5eed" * 8


def with_commit(data: dict[str, Any], salt: str | None = SALT, k: int = 0,
                commit: str | None = None) -> dict[str, Any]:
    deck = [record.cards.from_code(c) for c in data["rounds"][k]["deck"]]
    data["rounds"][k]["commit"] = commit or commitment(deck, SALT)
    if salt is not None:
        data["rounds"][k]["salt"] = salt
    return data


def test_commit_with_matching_salt_is_accepted_and_kept():
    """RECORD.md: commit = sha256(salt + ":" + codes joined by commas), checked and kept."""
    for base in (fanti_finished, narrative):
        data = with_commit(base())
        m = record.load(data)
        assert record.dump(m) == data
        assert m.commits[0].salt == SALT


def test_commit_without_salt_only_while_the_round_is_unfinished():
    """RECORD.md: a round may carry ``commit`` without ``salt`` only while unfinished."""
    m = record.load(with_commit(narrative(), salt=None))
    assert m.commits[0].salt is None and record.dump(m)["rounds"][0].get("salt") is None
    rejects(with_commit(fanti_finished(), salt=None), 1, None,
            "a finished round must reveal the salt of its commit")


@pytest.mark.parametrize(("salt", "commit", "reason"), [
    ("0" * 32, None, "the deal commitment does not match the deck and salt"),
    (SALT, "0" * 64, "the deal commitment does not match"),
    ("abc", None, "salt must be a hex string of at least 32 characters"),
    ("z" * 32, None, "salt must be a hex string"),
    (SALT, "A" * 64, "commit must be 64 lowercase hex digits"),
    (SALT, "abc", "commit must be 64 lowercase hex digits"),
])
def test_bad_commit_or_salt_is_refused(salt, commit, reason):
    rejects(with_commit(narrative(), salt=salt, commit=commit), 1, None, reason)


def sha256_commit(deck_codes: list[str], salt: str) -> str:
    """RECORD.md's formula written out: SHA-256 of ``salt + ":" + ",".join(deck)``."""
    return hashlib.sha256(f"{salt}:{','.join(deck_codes)}".encode()).hexdigest()


@pytest.mark.parametrize(("digits", "valid"), [(31, False), (32, True), (33, True)])
def test_salt_length_boundary_is_32_hex_digits(digits, valid):
    """RECORD.md: the salt is a hex string of *at least 32* characters: 31 is refused even
    with a commit that matches it, 32 and more are accepted."""
    data = narrative()
    salt = ("c0ffee" * 6)[:digits]
    rd(data)["commit"] = sha256_commit(rd(data)["deck"], salt)
    rd(data)["salt"] = salt
    if valid:
        assert record.load(data).commits[0].salt == salt
    else:
        rejects(data, 1, None, "salt must be a hex string of at least 32 characters")


def test_salt_without_commit_and_null_salt_are_refused():
    data = narrative()
    rd(data)["salt"] = SALT
    rejects(data, 1, None, "salt given without commit")
    data = with_commit(narrative(), salt=None)
    rd(data)["salt"] = None
    rejects(data, 1, None, "salt must be a hex string")


def test_commit_of_another_deck_is_refused():
    data = with_commit(narrative())
    rd(data)["deck"][0], rd(data)["deck"][1] = rd(data)["deck"][1], rd(data)["deck"][0]
    rd(data)["moves"] = []
    rejects(data, 1, None, "the deal commitment does not match")


# --- replay to any point -------------------------------------------------------------------


@pytest.mark.parametrize("base", [fantan_finished, fanti_finished])
def test_replay_to_any_point_matches_stepping_the_engine(base):
    """``load(data, upto=(r, k))`` stops before move k of round r (both from 0)."""
    data = base()
    full = record.load(data)
    game, src = full.game, full.rounds[0]
    step = game.new_round(full.rules, full.players, src.dealer, src.deck)
    for k, (_, move) in enumerate(src.history):
        part = record.load(data, upto=(0, k))
        assert part.rounds[-1] == step and len(part.rounds) == 1
        assert part.rounds[-1].locations() == step.locations()
        step.apply(move)
    assert record.load(data, upto=(0, len(src.history))).rounds[-1].is_over


def test_replay_upto_a_later_round_keeps_the_earlier_ones():
    data = fantan_two_rounds()
    m = record.load(data, upto=(1, 0))
    assert len(m.rounds) == 2 and m.rounds[0].is_over and m.rounds[1].history == []
    with pytest.raises(ValueError, match="2 rounds"):
        record.load(data, upto=(2, 0))
    with pytest.raises(ValueError, match="has 49 moves"):
        record.load(data, upto=(0, 50))


def test_upto_checks_the_whole_record_first():
    data = edit(fantan_finished, lambda d: rd(d)["score"].__setitem__(0, 1))
    with pytest.raises(RecordError):
        record.load(data, upto=(0, 1))


# --- JSON files ------------------------------------------------------------------------------


def test_parse_json_is_strict():
    assert record.parse_json('{"a": 1}') == {"a": 1}
    for bad in ('{"a": 1, "a": 2}', '{"a": NaN}', '{"a": Infinity}', "{'a': 1}"):
        with pytest.raises(ValueError):
            record.parse_json(bad)


def test_read_entries_json_lines_with_a_bad_line(tmp_path):
    good = json.dumps(fanti_finished())
    bad = json.dumps(edit(fanti_finished, lambda d: d.__setitem__("totals", [0, 0])))
    path = tmp_path / "games.jsonl"
    path.write_text(f"{good}\n\n{{oops\n{bad}\n", encoding="utf-8")
    entries = list(record.read_entries(path))
    assert [e.index for e in entries] == [0, 1, 2]
    assert [e.line for e in entries] == [1, 3, 4]
    assert entries[1].error.startswith("line 3: not valid JSON")
    assert record.check_entry(entries[0]) is not None and entries[0].error is None
    assert record.check_entry(entries[1]) is None
    assert record.check_entry(entries[2]) is None
    assert "totals [0, 0] differ" in entries[2].error


def test_read_entries_one_object_or_a_list(tmp_path):
    one = tmp_path / "one.json"
    one.write_text(json.dumps(narrative(), indent=2), encoding="utf-8")
    assert [record.check_entry(e) is not None for e in record.read_entries(one)] == [True]
    many = tmp_path / "many.json"
    many.write_text(json.dumps([narrative(), fanti_finished()], indent=1), encoding="utf-8")
    assert len([e for e in record.read_entries(many) if record.check_entry(e)]) == 2
    empty = tmp_path / "empty.json"
    empty.write_text("  \n", encoding="utf-8")
    assert next(record.read_entries(empty)).error == "the file holds no record"


# --- docs/records.md ---------------------------------------------------------------------------


def doc_blocks(lang: str) -> list[str]:
    text = DOCS.read_text(encoding="utf-8")
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


def test_every_json_example_in_docs_records_md_is_accepted():
    """docs/records.md: each ``json`` block is a complete record the reader accepts."""
    blocks = doc_blocks("json")
    assert len(blocks) >= 3
    games = set()
    for block in blocks:
        m = record.load(record.parse_json(block))
        games.add(m.game.name)
    assert games == {"fanti", "fantan"}


def test_commit_example_in_docs_records_md_checks_out_with_its_salt():
    """docs/records.md: the unfinished Fanti example carries a commit without salt; adding
    the salt the page reveals makes it check, and a changed deck then fails."""
    text = DOCS.read_text(encoding="utf-8")
    salt = re.search(r'adding `"salt": "([0-9a-f]+)"`', text).group(1)
    (block,) = [b for b in doc_blocks("json") if '"commit"' in b]
    data = record.parse_json(block)
    assert "salt" not in rd(data)
    rd(data)["salt"] = salt
    assert record.load(data).commits[0].salt == salt
    deck = rd(data)["deck"]
    deck[-1], deck[-2] = deck[-2], deck[-1]
    rejects(data, 1, None, "the deal commitment does not match")


def test_error_messages_quoted_in_docs_records_md_are_real():
    """docs/records.md: every quoted ``round ..., move ...:`` message is one of the real
    messages of these tests (checked by regenerating them)."""
    quoted = [line.strip() for block in doc_blocks("text") for line in block.splitlines()
              if line.strip()]
    assert quoted
    real = {str(e) for e in _documented_errors()}
    for line in quoted:
        assert line in real, line


def _documented_errors() -> list[RecordError]:
    """The rejections docs/records.md shows, produced by the real reader."""
    cases: list[Any] = [
        edit(narrative, lambda d: rd(d)["deck"].__setitem__(1, "7D")),
        edit(narrative, lambda d: rd(d)["deck"].__setitem__(7, "TH")),
        edit(fantan_two_rounds, lambda d: rd(d, 1).__setitem__("dealer", 5)),
        edit(narrative, lambda d: d.__setitem__("seats", ["A", "B"])),
        edit(narrative, lambda d: mv(d, 1).__setitem__("seat", 2)),
        edit(narrative, lambda d: mv(d, 0).__setitem__("play", "6D")),
        edit(narrative, lambda d: mv(d, 0).__setitem__("play", "9D")),
        edit(fantan_finished, lambda d: d["rules"].__setitem__("strict", True)),
        edit(fanti_unfinished, lambda d: mv(d, 0).__setitem__("take", [])),
        edit(fanti_unfinished, lambda d: mv(d, 0).__setitem__("take", ["2C"])),
        edit(fantan_finished, lambda d: rd(d)["moves"].append({"seat": 1, "pass": True})),
        edit(fantan_blocked, lambda d: rd(d)["moves"].append({"seat": 0, "pass": True})),
        edit(fantan_finished, lambda d: rd(d)["moves"].pop()),
        edit(fantan_finished, lambda d: rd(d)["score"].__setitem__(1, 29)),
        edit(fanti_finished, lambda d: d.__setitem__("winners", [0, 1])),
        edit(narrative, lambda d: d.__setitem__("comment", "hi")),
        edit(narrative, lambda d: d["rules"].__setitem__("ace", "middle")),
        edit(fanti_finished, lambda d: mv(d, 1).__setitem__("seat", True)),
        edit(fanti_finished, lambda d: d["rules"].__setitem__("rounds", 1.0)),
        edit(narrative, lambda d: d["rules"].pop("stakes")),
        with_commit(fanti_finished(), salt=None),
        with_commit(narrative(), salt="0" * 32),
    ]
    out = []
    for data in cases:
        with pytest.raises(RecordError) as info:
            record.load(data)
        out.append(info.value)
    return out


def test_fanti_record_rules_are_the_three_options():
    """RECORD.md: Fanti rules are ``rounds``, ``ties``, ``guardian_takes_guardians``; the
    research option ``pack`` (FA-11) is recorded only when it is not the full deck."""
    assert FANTI.options.names() == ["rounds", "ties", "guardian_takes_guardians", "pack"]
    assert [o.name for o in FANTI.options if o.optional] == ["pack"]
    assert list(FANTI.options.recorded(FANTI.rules(2))) == [
        "rounds", "ties", "guardian_takes_guardians"]
