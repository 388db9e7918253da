"""Properties of every variant, checked at every state of random games (hypothesis).

Variants are every combination of options and player counts of every registered game
(``parlour.games.KITS``: Fanti, Fan Tan and the fixture game of tests/fixture_games; FA-2,
FA-5, FA-9, FT-1, FT-2, FT-4, FT-5, FT-7). At every state of a random game:

* all 52 cards are accounted for: ``locations()`` are disjoint and cover the deck (C-2);
* every legal move applies, and moves outside the legal set are refused with the whole
  state unchanged;
* ``copy()`` is independent of the original;
* no seat's view, nor its JSON, shows a card of another hand or of a location hidden
  from everyone at the deal, such as Fanti's undealt deck (FT-10, FA-7);

and at the end: the game ended, chips were conserved (FT-7), the record checks, replaying
it reproduces every state, and the same seed gives the same record (C-3).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.conformance_kit import Visibility
from option_variants import option_variants
from parlour import cards, record
from parlour.game import PASS, Game, IllegalMove, Round, play
from parlour.games import KITS
from parlour.match import Match, Shuffler

MAX_MOVES = 5000


def variants() -> list[tuple[Game, int, dict[str, Any]]]:
    """The variants of :func:`option_variants.option_variants` (every value of every
    option and a seeded sample of combinations; not ``rounds``) for every player count
    of every game."""
    return [(game, players, rules)
            for game in (kit.game for _, kit in sorted(KITS.items()))
            for players in range(game.min_players, game.max_players + 1)
            for rules in option_variants(game)]


VARIANTS = variants()
PROPERTY = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def test_variant_list_covers_every_option_value():
    """Every player count x every value of every declared option, for every registered
    game (the counts come from the options: nothing here names one)."""
    for name, kit in KITS.items():
        game = kit.game
        mine = [(n, r) for g, n, r in VARIANTS if g.name == name]
        sizes = range(game.min_players, game.max_players + 1)
        assert len(mine) == len(sizes) * len(option_variants(game))
        for o in (o for o in game.options if o.choices and not o.research):  # research: own tests
            for players in sizes:
                assert {r[o.name] for n, r in mine if n == players} == set(o.choices)


# --- the checks --------------------------------------------------------------------------


def snapshot(r: Round) -> tuple:
    """The whole public and hidden state of a round (every slot but caches), comparable."""
    out = []
    for name in type(r).__slots__:
        if name.startswith("_"):
            continue
        v = getattr(r, name)
        if isinstance(v, list):
            v = tuple(v)
        elif isinstance(v, dict):
            v = tuple(sorted(v.items()))
        out.append((name, v))
    return (tuple(out), tuple(r.legal_moves()), r.current_player, r.is_over,
            None if r.score() is None else tuple(r.score()))


def check_locations(r: Round) -> None:
    seen = 0
    for m in r.locations():
        assert seen & m == 0, "a card is in two places"
        seen |= m
    assert seen == cards.FULL_DECK, "a card is missing"


def check_views(r: Round, visibility: Visibility, full_json: bool) -> None:
    for seat in range(r.players):
        v = r.view(seat)
        assert v.hand == r.hand(seat)
        assert v.legal == (tuple(r.legal_moves()) if seat == r.current_player else ())
    if full_json:  # no card of another hand or of a secret location, in any view
        visibility.check(r)


def illegal_candidates(r: Round, rng: random.Random) -> list[int]:
    legal = set(r.legal_moves())
    pool = [PASS, -1, 99, 1 << 60, 2**70 | 5, *range(52),
            play(rng.randrange(52), rng.getrandbits(52)),
            play(rng.randrange(52), 1 << rng.randrange(52))]
    for m in list(legal)[:3]:
        pool.append(m ^ (1 << (6 + rng.randrange(52))))  # a take one card off
    return [m for m in pool if m not in legal]


def check_moves(r: Round, rng: random.Random) -> None:
    before = snapshot(r)
    for m in rng.sample(illegal_candidates(r, rng), 6):
        assert r.why_illegal(m) is not None
        with pytest.raises(IllegalMove):
            r.apply(m)
        assert snapshot(r) == before
    for m in r.legal_moves():
        assert r.why_illegal(m) is None
        c = r.copy()
        c.apply(m)
        assert snapshot(r) == before, "copy() shares state with the original"
        assert c.history[-1] == (before[2], m)


def play_checked(game: Game, players: int, rules: dict[str, Any], seed: int,
                 rounds: int = 1, full_json: bool = True) -> tuple[Match, list[list[tuple]]]:
    """A random game with every per-state check; returns it and each round's snapshots."""
    rng = random.Random(seed)
    shuffler = Shuffler(seed)
    m = Match.new(game, players, {**rules, "rounds": rounds}, shuffler=shuffler)
    all_snaps: list[list[tuple]] = []
    while True:
        r = m.rounds[-1]
        snaps = [snapshot(r)]
        visibility = Visibility(r)
        for _ in range(MAX_MOVES):
            check_locations(r)
            check_views(r, visibility, full_json)
            if r.is_over:
                break
            check_moves(r, rng)
            r.apply(rng.choice(r.legal_moves()))
            snaps.append(snapshot(r))
        assert r.is_over, "the round did not end"
        if rules.get("stakes") == "chips":
            assert sum(r.score()) == 0, "chips not conserved (FT-7)"
        all_snaps.append(snaps)
        if m.is_over:
            return m, all_snaps
        m.deal(shuffler.deck())


def check_record(m: Match, all_snaps: list[list[tuple]]) -> None:
    data = record.dump(m)
    loaded = record.load(record.parse_json(record.dumps(m)))
    assert loaded == m and record.dump(loaded) == data
    for src, snaps in zip(loaded.rounds, all_snaps, strict=True):
        r = m.game.new_round(m.rules, m.players, src.dealer, src.deck)
        assert snapshot(r) == snaps[0]
        for (_, move), snap in zip(src.history, snaps[1:], strict=True):
            r.apply(move)
            assert snapshot(r) == snap


# --- the properties ------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "rules"), VARIANTS,
                         ids=[f"{g.name}-{n}-{'-'.join(map(str, r.values()))}"
                              for g, n, r in VARIANTS])
def test_every_variant_one_round_all_invariants(game, players, rules):
    """Every variant once, deterministically: all per-state checks and the record."""
    seed = VARIANTS.index((game, players, rules))
    m, snaps = play_checked(game, players, rules, seed, full_json=True)
    check_record(m, snaps)


@PROPERTY
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1),
       rounds=st.integers(1, 2))
def test_random_games_keep_every_invariant(variant, seed, rounds):
    """Random variant, seed and length: every check, views scanned as JSON."""
    game, players, rules = variant
    m, snaps = play_checked(game, players, rules, seed, rounds=rounds, full_json=True)
    check_record(m, snaps)
    assert [r.dealer for r in m.rounds] == [(m.first_dealer + k) % players
                                            for k in range(rounds)]


@settings(max_examples=30, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_record(variant, seed):
    """C-3: the same seed gives the same record, bit for bit."""
    game, players, rules = variant

    def once() -> str:
        m = Match.new(game, players, {**rules, "rounds": 1}, shuffler=Shuffler(seed))
        rng = random.Random(seed)
        r = m.rounds[0]
        while not r.is_over:
            r.apply(rng.choice(r.legal_moves()))
        return record.dumps(m)

    assert once() == once()


@PROPERTY
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1),
       cut=st.floats(0, 1))
def test_copy_is_independent_both_ways(variant, seed, cut):
    """``copy()``: moves on the copy leave the original alone and vice versa.

    The walk is played on a throwaway round first and cut before any move that would end
    the round, so every example copies a round still in play."""
    game, players, rules = variant
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    rules, dealer = game.rules(players, rules), rng.randrange(players)
    probe = game.new_round(rules, players, dealer, deck)
    walk = []
    while not probe.is_over and rng.random() < 0.98 - 0.9 * cut:
        walk.append(rng.choice(probe.legal_moves()))
        probe.apply(walk[-1])
    if probe.is_over:
        walk.pop()
    r = game.new_round(rules, players, dealer, deck)
    for move in walk:
        r.apply(move)
    assert not r.is_over
    c = r.copy()
    assert c == r and snapshot(c) == snapshot(r)
    kept = snapshot(r)
    while not c.is_over:
        c.apply(rng.choice(c.legal_moves()))
    assert snapshot(r) == kept
    c2 = r.copy()
    kept2 = snapshot(c2)
    r.apply(rng.choice(r.legal_moves()))
    assert snapshot(c2) == kept2
    assert len(r.history) == len(walk) + 1
