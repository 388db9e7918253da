"""Action encodings: every legal engine move is reachable, every offered action legal."""

from __future__ import annotations

import pytest
from env_helpers import played_round
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from parlour.envs.encoding import Pending, codec_for
from parlour.game import PASS, Round, play
from parlour.games import get_game
from parlour.games.fanti.env import ACTIONS as FANTI_ACTIONS
from parlour.games.fanti.env import STOP, TAKE_BASE

FANTAN_RULES = st.fixed_dictionaries({
    "opening": st.sampled_from(["seven-of-diamonds", "any-seven"]),
    "ace": st.sampled_from(["low", "high"]),
    "strict": st.booleans(),
})
FANTI_RULES = st.fixed_dictionaries({"guardian_takes_guardians": st.booleans()})


def reachable_moves(game: str, rnd: Round) -> list[int]:
    """Every move some sequence of offered actions makes (each path walked once)."""
    codec = codec_for(game)
    out: list[int] = []

    def walk(pending: Pending | None) -> None:
        for action in codec.legal_actions(rnd, pending):
            nxt, move = codec.decode(rnd, pending, action)
            if move is None:
                walk(nxt)
            else:
                assert rnd.why_illegal(move) is None  # every offered action leads to a legal move
                out.append(move)

    walk(None)
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), depth=st.integers(0, 45), players=st.integers(2, 4),
       rules=FANTI_RULES)
def test_fanti_encoding_reaches_exactly_the_legal_moves(seed, depth, players, rules):
    """FA-5, FA-6: each collection (and the discard when none) has exactly one path."""
    rnd = played_round("fanti", players, seed, depth, rules)
    assume(not rnd.is_over)
    moves = reachable_moves("fanti", rnd)
    assert len(moves) == len(set(moves))
    assert sorted(moves) == sorted(rnd.legal_moves())
    codec = codec_for("fanti")
    for move in rnd.legal_moves():
        pending, done = None, None
        for action in codec.encode(rnd, move):
            assert action in codec.legal_actions(rnd, pending)
            assert 0 <= action < FANTI_ACTIONS
            pending, done = codec.decode(rnd, pending, action)
        assert done == move


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), depth=st.integers(0, 80), players=st.integers(3, 8),
       rules=FANTAN_RULES)
def test_fantan_action_ids_are_the_legal_moves(seed, depth, players, rules):
    """FT-3, FT-4, FT-5: cards that fit, and pass exactly when the rules allow it."""
    rnd = played_round("fantan", players, seed, depth, rules)
    assume(not rnd.is_over)
    codec = codec_for("fantan")
    assert codec.legal_actions(rnd, None) == rnd.legal_moves()
    assert sorted(reachable_moves("fantan", rnd)) == sorted(rnd.legal_moves())
    for action in range(53):
        legal = action in rnd.legal_moves()
        if legal:
            assert codec.decode(rnd, None, action) == (None, action)
        else:
            with pytest.raises(ValueError):
                codec.decode(rnd, None, action)


def _fanti_round(table: list[int], hand: list[int]) -> Round:
    """A 2-player Fanti round whose table and seat-to-move hand are as given."""
    from parlour import cards

    rest = [c for c in range(52) if c not in table and c not in hand]
    deck = table + [hand[0], rest[0], hand[1], rest[1], hand[2], rest[2], hand[3], rest[3]]
    deck += [c for c in rest[4:]]
    rnd = get_game("fanti").new_round(get_game("fanti").rules(2), 2, 1, deck)
    assert rnd.hand(rnd.current_player) == cards.mask_of(hand)
    return rnd


def test_ace_can_stop_at_one_ace_or_go_on_to_make_ten():
    """FA-5: an Ace takes one Ace, or a set making 10 with it -- {AC} is a subset of
    {AC, 9H}, and both start with AC in card order, so "stop" chooses the first."""
    from parlour.cards import parse

    ad, ac, h9 = parse("AD"), parse("AC"), parse("9H")
    rnd = _fanti_round([ac, h9, parse("KS"), parse("QS")], [ad, parse("2D"), parse("3D"),
                                                            parse("4D")])
    codec = codec_for("fanti")
    pending, move = codec.decode(rnd, None, ad)
    assert move is None and codec.legal_actions(rnd, pending) == [TAKE_BASE + ac]
    pending, move = codec.decode(rnd, pending, TAKE_BASE + ac)
    assert move is None and codec.legal_actions(rnd, pending) == [TAKE_BASE + h9, STOP]
    assert codec.decode(rnd, pending, STOP) == (None, play(ad, 1 << ac))
    assert codec.decode(rnd, pending, TAKE_BASE + h9) == (None, play(ad, (1 << ac) | (1 << h9)))


def test_a_single_possible_play_needs_one_action():
    from parlour.cards import parse

    rnd = _fanti_round([parse("2C"), parse("3C"), parse("KS"), parse("QS")],
                       [parse("JD"), parse("KD"), parse("5H"), parse("9S")])
    codec = codec_for("fanti")
    assert codec.encode(rnd, play(parse("JD"), rnd.table & ~((1 << parse("KS")) | (1 << parse("QS"))))) \
        == [parse("JD")]  # FA-5: the Guardian sweep is one move
    assert codec.encode(rnd, play(parse("5H"))) == [parse("5H")]  # FA-6: a discard
    assert PASS not in codec.legal_actions(rnd, None)  # Fanti has no pass (FA-4)


def test_random_tables_do_need_multi_step_collections():
    """Guards the property test above: its random rounds include plays of 3+ actions."""
    codec = codec_for("fanti")
    longest = 0
    for seed in range(40):
        rnd = played_round("fanti", 2, seed, 20)
        if not rnd.is_over:
            longest = max([longest, *(len(codec.encode(rnd, m)) for m in rnd.legal_moves())])
    assert longest >= 3
