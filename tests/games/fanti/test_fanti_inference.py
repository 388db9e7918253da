"""Fanti worlds with inference: resampled candidates, the card-location network
(parlour.games.fanti.cardnet) and expert's farther horizon (FA-3, FA-7)."""

from __future__ import annotations

import random

import pytest
from helpers_bots import round_at

from parlour import cards
from parlour.bots import make_bot, pimc
from parlour.bots.budget import Budget
from parlour.bots.pimc import Pimc, _resample
from parlour.games.fanti import cardnet
from parlour.games.fanti import search as fanti_search


def a_choice(players, seed, moves, bot="heuristic"):
    r = round_at("fanti", players, {}, seed, moves, bot=bot)
    while len(r.legal_moves()) < 2:
        r.apply(r.legal_moves()[0])
    return r, r.view(r.current_player)


def test_resampling_draws_by_weight_and_never_a_weightless_world():
    worlds = list("abcdef")
    weights = [0.5, 0.0, 0.25, 0.0, 0.25, 0.0]
    for seed in range(20):
        got = dict(_resample(worlds, weights, 16, random.Random(seed)))
        assert set(got) <= {"a", "c", "e"}
        assert sum(got.values()) == pytest.approx(1.0)
        assert got["a"] == pytest.approx(0.5, abs=1 / 16)
        assert got.get("c", 0) == pytest.approx(0.25, abs=1 / 16)


def _solved_worlds(monkeypatch, view, inference, deep=False, candidates=1):
    """The worlds a search solves for ``view`` (hands of every seat, next deal last)."""
    seen = []
    now = fanti_search.NowWorlds

    def solve(self, v, world, legal, respond):
        seen.append(list(world))
        return fanti_search.solve_moves(v, world, legal, respond)

    together = now.solve_all

    def solve_all(self, v, worlds, legal, deadline=None):
        seen.extend(list(w) for w, _weight in worlds)
        return together(self, v, worlds, legal, deadline)

    monkeypatch.setattr(now, "solve", solve)
    monkeypatch.setattr(now, "solve_all", solve_all)
    monkeypatch.setattr(pimc, "NOW_CANDIDATES", candidates)
    Pimc("fanti", Budget(iterations=120), inference=inference,
         deep=deep).estimates(view, random.Random(3))
    return seen


@pytest.mark.parametrize("inference,deep,candidates", [("full", False, 8),
                                                        ("blend", False, 1),
                                                        ("learned", True, 8)])
def test_worlds_respect_what_the_seat_sees(monkeypatch, inference, deep, candidates):
    """However worlds are weighed, every world solved keeps my hand, every hand size,
    and deals only cards nobody has seen, each once (FA-7); expert's next deal too."""
    for players, seed, moves in ((2, 4, 11), (3, 5, 14), (2, 6, 26)):
        _r, view = a_choice(players, seed, moves)
        seen = view.table | view.hand
        for p in view.piles:
            seen |= p
        worlds = _solved_worlds(monkeypatch, view, inference, deep, candidates)
        assert worlds
        for w in worlds:
            now, nxt = w[:players], w[players:]
            assert now[view.seat] == view.hand
            assert [h.bit_count() for h in now] == list(view.hand_counts)
            dealt = 0
            for h in now + nxt:
                assert not h & dealt
                dealt |= h
            assert not (dealt & ~view.hand) & seen
            if deep and players == 2 and view.deck_left:
                assert [h.bit_count() for h in nxt] == [4, 4]
            else:
                assert nxt == []


def test_network_features_are_public_and_cover_every_hidden_card():
    """One row per (other seat with cards, card that seat cannot see) and nothing
    else; the same view gives the same rows whatever the hidden cards are."""
    for players, seed, moves in ((2, 1, 9), (4, 2, 21)):
        r, view = a_choice(players, seed, moves)
        seats, cs, x = cardnet.view_pairs(view)
        seen = view.hand | view.table
        for p in view.piles:
            seen |= p
        hidden = cards.cards_of(cards.FULL_DECK & ~seen)
        others = [s for s in range(players) if s != view.seat and view.hand_counts[s]]
        assert sorted(zip(seats, cs, strict=True)) == sorted(
            (s, c) for s in others for c in hidden)
        assert x.shape == (len(seats), cardnet.FEATURES)


def test_network_finds_the_cards_a_heuristic_player_holds():
    """Against heuristic players, the shipped network gives the cards a seat really
    holds higher logits than the cards it does not, far more often than chance
    (an AUC over many positions)."""
    net = cardnet.load()
    assert net is not None
    above = pairs = 0
    for seed in range(12):
        for moves in (5, 13, 22, 30):
            r = round_at("fanti", 2, {}, 100 + seed, moves, bot="heuristic")
            if r.is_over:
                continue
            view = r.view(r.current_player)
            if len(view.history) % 8 == 0:
                continue  # no play of this deal yet
            for s, logit in net.table(view).items():
                held = [z for c, z in logit.items() if r.hands[s] >> c & 1]
                other = [z for c, z in logit.items() if not r.hands[s] >> c & 1]
                above += sum(a > b for a in held for b in other)
                pairs += len(held) * len(other)
    assert above / pairs > 0.6


def test_learned_and_deep_bots_are_reproducible_and_never_peek():
    """``hard:N:blend`` and ``deep:N`` (expert's engine) decide the same from the same
    seed and view, and the same whatever the other hands hold."""
    from test_bots_nopeek import twin

    for bot in ("hard:40:blend", "hard:40:learned", "deep:30"):
        r, view = a_choice(2, 9, 13)
        other = twin(r, 9)
        a = make_bot(bot, "fanti", 5).choose(view)
        assert make_bot(bot, "fanti", 5).choose(view) == a
        assert make_bot(bot, "fanti", 5).choose(other.view(r.current_player)) == a
        assert a in view.legal
