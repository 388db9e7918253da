"""Matches: rounds, dealer rotation, totals and winners (RULINGS FA-10, FT-9, C-3)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

import scenarios as S
from parlour import cards, get_game
from parlour.game import PASS, IllegalMove
from parlour.games.fantan.rules import FANTAN
from parlour.games.fanti.rules import FANTI
from parlour.match import Match, Shuffler, commitment
from playout import random_playout


def test_fa10_fanti_has_five_rounds_by_default_any_positive_number_allowed():
    """FA-10: 5 rounds, option ``rounds`` any positive integer."""
    assert FANTI.rules(3)["rounds"] == 5
    assert FANTI.rules(3, {"rounds": 1})["rounds"] == 1
    with pytest.raises(ValueError, match="rounds"):
        FANTI.rules(3, {"rounds": 0})


@pytest.mark.parametrize("players", range(3, 9))
def test_ft9_fan_tan_rounds_default_to_the_number_of_players(players):
    """FT-9: default ``rounds`` is the number of players, so everyone deals once."""
    assert FANTAN.rules(players)["rounds"] == players
    m = random_playout("fantan", players, seed=players)
    assert len(m.rounds) == players
    assert sorted(r.dealer for r in m.rounds) == list(range(players))


@pytest.mark.parametrize(("game", "players"), [("fanti", 2), ("fanti", 4), ("fantan", 5)])
def test_fa10_ft9_first_dealer_drawn_then_the_deal_moves_one_seat_clockwise(game, players):
    """FA-10, FT-9: the first dealer is drawn (seeded); then the deal passes one seat
    clockwise each round (the seat that started a round deals the next)."""
    rounds = 7
    m = random_playout(game, players, seed=3, rules={"rounds": rounds})
    first = Shuffler(3).seat(players)
    assert m.first_dealer == first
    assert [r.dealer for r in m.rounds] == [(first + k) % players for k in range(rounds)]
    for prev, nxt in zip(m.rounds, m.rounds[1:], strict=False):
        starter = (prev.dealer + 1) % players  # FA-4: the seat after the dealer starts
        assert nxt.dealer == starter
    drawn = {random_playout(game, players, seed=s, rules={"rounds": 1}).first_dealer
             for s in range(12)}
    assert len(drawn) > 1  # the first dealer is drawn, not fixed


def test_c3_same_seed_same_match_different_seed_different_deal():
    """C-3: a seeded match is reproducible bit for bit."""
    a = random_playout("fanti", 3, seed=11, rules={"rounds": 2})
    b = random_playout("fanti", 3, seed=11, rules={"rounds": 2})
    c = random_playout("fanti", 3, seed=12, rules={"rounds": 2})
    assert a == b
    assert [r.deck for r in a.rounds] != [r.deck for r in c.rounds]


@pytest.mark.parametrize(("game", "players"), [("fanti", 3), ("fantan", 4)])
def test_totals_are_the_sums_of_round_scores(game, players):
    m = random_playout(game, players, seed=5, rules={"rounds": 3})
    scores = [r.score() for r in m.rounds]
    assert m.scores() == scores
    assert m.totals == [sum(s[i] for s in scores) for i in range(players)]
    assert m.is_over and m.current is None and not m.needs_deal


def test_fa10_fanti_highest_total_wins_ties_share():
    """FA-10: highest total wins; equal highest totals share the win."""
    rules = FANTI.rules(3)
    assert FANTI.winners(rules, [3, 7, 5]) == [1]
    assert FANTI.winners(rules, [7, 2, 7]) == [0, 2]
    assert FANTI.winners(rules, [0, 0, 0]) == [0, 1, 2]


def test_ft9_points_lowest_wins_chips_highest_wins_ties_share():
    """FT-9: points: lowest total wins; chips: highest; equal best totals share."""
    points = FANTAN.rules(4, {"stakes": "points"})
    chips = FANTAN.rules(4, {"stakes": "chips"})
    assert FANTAN.winners(points, [9, 3, 3, 12]) == [1, 2]
    assert FANTAN.winners(chips, [9, 3, 3, 12]) == [3]
    assert FANTAN.winners(chips, [-5, 10, 10, -15]) == [1, 2]
    assert FANTAN.lower_wins(points) and not FANTAN.lower_wins(chips)
    assert not FANTI.lower_wins(FANTI.rules(2))


@pytest.mark.parametrize(("stakes", "totals", "winners"), [
    # scenario A then B, with the scores worked out by hand in test_fantan_rules
    ("points", [0, 56, 23, 38, 43, 25, 43, 3], [0]),        # lowest total wins
    ("chips", [251, -220, 153, -62, -75, 3, -45, -5], [0]),  # highest total wins
])
def test_ft9_match_winners_follow_totals_under_each_stake(stakes, totals, winners):
    """FT-9: points -- the lowest total wins; chips -- the highest. Two scripted rounds
    (scenarios A and B) whose every score is known by hand; under either stake the
    opposite rule would pick seat 1."""
    rounds = [S.play(S.A_HANDS, S.A_MOVES, stakes=stakes, rounds=2),
              S.play(S.B_HANDS, S.B_MOVES, stakes=stakes, rounds=2)]
    m = Match(FANTAN, S.rules(stakes=stakes, rounds=2), [f"P{i}" for i in range(8)], S.DEALER,
              rounds=rounds)
    assert m.is_over
    assert m.totals == totals
    assert m.winners == winners


def test_fa10_match_winners_are_the_highest_totals_and_ties_share():
    """FA-10: the highest total wins, equal highest totals share the win. Two finished
    2-player rounds built from their piles, scored by hand (FA-9)."""
    rules = FANTI.rules(2, {"rounds": 2})

    def finished(piles: list[list[str]]):
        r = FANTI.new_round(rules, 2, 0, list(range(52)))
        r.hands, r.table, r.dealt = [0, 0], 0, 52
        r.piles = [cards.mask_from_codes(p) for p in piles]
        r.is_over = True
        return r

    # seat 0: most cards (+2), most Leaves (+1), 2C (+1) = 4; seat 1: 10D = 1
    one = finished([["2C", "3C", "4C"], ["10D", "5H"]])
    # seat 0: 10D = 1; seat 1: most cards (+2), most Leaves (+1), 2C (+1) = 4
    tie = Match(FANTI, rules, ["Ann", "Bob"], 0,
                rounds=[one, finished([["10D"], ["2C", "3C", "4H"]])])
    assert tie.totals == [5, 5] and tie.winners == [0, 1]
    # seat 0: nothing; seat 1: most cards, most Leaves, 2C and 10D = 5
    won = Match(FANTI, rules, ["Ann", "Bob"], 0,
                rounds=[one, finished([["5H"], ["2C", "3C", "10D"]])])
    assert won.totals == [4, 6] and won.winners == [1]


def test_ft9_single_round_its_winner_wins_the_game_even_when_chips_say_otherwise():
    """FT-9: with ``rounds: 1`` the round's winner is the game's winner. In scenario B
    (chips, withholding fines) seat 2 ends with more chips than the round's winner."""
    m = Match(FANTAN, S.rules(stakes="chips", rounds=1), [f"P{i}" for i in range(8)],
              S.DEALER)
    m.deal(S.deck(S.B_HANDS))
    for seat, text in S.B_MOVES:
        assert m.current.current_player == seat
        m.apply(S.move(text))
    assert m.is_over
    assert m.totals == [111, -128, 137, -78, -13, -13, -13, -3]
    assert m.winners == [0]
    points = Match(FANTAN, S.rules(stakes="points", rounds=1), [f"P{i}" for i in range(8)],
                   S.DEALER)
    points.deal(S.deck(S.B_HANDS))
    for _, text in S.B_MOVES:
        points.apply(S.move(text))
    assert points.winners == [0] == FANTAN.winners(points.rules, points.totals)


def test_match_refuses_a_deal_out_of_turn_and_moves_with_no_round():
    m = Match.new(FANTAN, 4, {"rounds": 1}, shuffler=Shuffler(1), deal=False)
    assert m.current is None and m.needs_deal and m.winners is None
    with pytest.raises(ValueError, match="no round in play"):
        m.apply(PASS)
    m.deal(Shuffler(2).deck())
    with pytest.raises(ValueError, match="a round is in play"):
        m.deal(Shuffler(2).deck())
    r = m.current
    bad = next(c for c in range(52) if c not in r.legal_moves())
    with pytest.raises(IllegalMove):
        m.apply(bad)
    assert r.history == []


def test_match_new_checks_seats_and_player_count():
    with pytest.raises(ValueError, match="seat names"):
        Match.new(FANTI, 3, seats=["a", "b"])
    with pytest.raises(ValueError, match="2 to 4 players"):
        Match.new(FANTI, 5)
    m = Match.new(FANTI, 2, seats=["Ann", "Bo"])
    assert m.seats == ["Ann", "Bo"] and m.players == 2 and len(m.rounds) == 1


def test_a_finished_match_refuses_another_deal():
    m = random_playout("fantan", 3, seed=1, rules={"rounds": 1})
    assert m.is_over
    with pytest.raises(ValueError, match="the game is over"):
        m.deal(Shuffler(0).deck())


def test_commit_of_a_live_deal_matches_its_deck():
    """RECORD.md: the commitment is the lowercase hex SHA-256 of the UTF-8 bytes of
    ``salt + ":" + ",".join(deck)`` -- written out here from the format, not from the code
    under test; it binds the deck's order and the salt."""
    deck = Shuffler.live().deck()
    salt = "0f" * 16
    text = salt + ":" + ",".join(cards.ALL_CODES[c] for c in deck)
    expected = hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert commitment(deck, salt) == expected
    # the deck in card order (AC .. KC, AD .. KS), digest from coreutils' sha256sum
    assert commitment(list(range(52)), "e3b0c44298fc1c149afbf4c8996fb924") == (
        "6decbd69efb417e16c1d7ced0dccc0ea0932ece00522bb3540eab684a0d7ea28")
    assert commitment(deck[::-1], salt) != expected
    assert commitment(deck, "1f" * 16) != expected


# --- rule options as documented (docs/rules.md) ---------------------------------------------

RULES_DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def _doc_sections() -> dict[str, str]:
    text = RULES_DOC.read_text(encoding="utf-8")
    fanti_at, fantan_at = text.index("\n## Fanti\n"), text.index("\n## Fan Tan\n")
    end = text.index("\n## Rule options on the command line")
    return {"fanti": text[fanti_at:fantan_at], "fantan": text[fantan_at:end]}


@pytest.mark.parametrize("game", ["fanti", "fantan"])
def test_every_documented_rule_spelling_parses_and_every_option_is_documented(game):
    """docs/rules.md: each ``--rule KEY=VALUE`` shown for a game parses for that game, and
    the option table names every option with its default (FA-5, FA-9, FA-10, FT-2, FT-4,
    FT-5, FT-7, FT-9)."""
    g = get_game(game)
    section = _doc_sections()[game]
    spelled = re.findall(r"`--rule ([a-z_-]+=[a-z0-9-]+)`", section)
    assert {p.split("=")[0] for p in spelled} == set(g.options.names())
    for pair in spelled:
        key, value = pair.split("=")
        parsed = g.options.parse_pairs([pair])
        assert parsed[key] != g.options.options[key].default_for(4) or key == "rounds"
    for option in g.options:
        row = next(line for line in section.splitlines() if line.startswith(f"| `{option.name}`"))
        default = option.default_for(4)
        shown = ("the number of players" if callable(option.default)
                 else f"`{str(default).lower() if isinstance(default, bool) else default}`")
        assert shown in row, row


def test_cli_rule_spellings():
    """The command line's ``--rule`` accepts dashes, commas and yes/no (docs/rules.md)."""
    assert FANTI.options.parse_pairs(["guardian-takes-guardians=off", "ties=SHARED"]) == {
        "guardian_takes_guardians": False, "ties": "shared"}
    assert FANTAN.options.parse_pairs(["ace=high,stakes=chips", "strict=no"]) == {
        "ace": "high", "stakes": "chips", "strict": False}
    with pytest.raises(ValueError, match="unknown rule 'ace'; valid rules: rounds="):
        FANTI.options.parse_pairs(["ace=high"])
    with pytest.raises(ValueError, match="must be true | false"):
        FANTAN.options.parse_pairs(["strict=maybe"])
    with pytest.raises(ValueError, match="KEY=VALUE"):
        FANTAN.options.parse_pairs(["ace"])
