"""Per-seat opponent modelling (issue #15): each other seat's posterior over the
player models moves toward the model that really plays it; reading uses the view
alone (FT-10, FA-7), and the search bots that use it stay reproducible from a seed."""

from __future__ import annotations

import math
import random

import pytest
from helpers_bots import round_at

from parlour.bots import make_bot
from parlour.bots.budget import Budget
from parlour.bots.opponents import FAMILY, FLOOR, PRIOR, Posterior, choice_probs, collapse
from parlour.games import get_game

LINEUP = ["heuristic", "random", "heuristic", "greedy"]  # seat 0 reads seats 1-3


def test_posterior_follows_the_likelier_model_and_keeps_a_floor():
    post = Posterior()
    assert post.weights(1) == pytest.approx(list(PRIOR))
    assert FAMILY == ("random", "greedy", "heuristic", "learned", "search")
    # Ten plays among 4 moves, each the heuristic's own choice and no other model's.
    for _ in range(10):
        post.observe(1, choice_probs(4, (False, True, False, False), 0.1))
    w = post.weights(1)
    assert w[FAMILY.index("heuristic")] > 0.85
    assert min(w) >= FLOOR / (1 + len(FAMILY) * FLOOR) and sum(w) == pytest.approx(1.0)
    # A play no deterministic model makes, five times over: random takes over.
    for _ in range(5):
        post.observe(2, choice_probs(6, (False, False, False, False), 0.1))
    assert post.weight(2, "random") > 0.85
    # Plays only the player who sees every hand makes: the search model takes over.
    for _ in range(6):
        post.observe(4, choice_probs(3, (False, False, False, True), 0.1))
    assert post.weight(4, "search") > 0.85
    # Joint log-probabilities add like single plays.
    a, b = Posterior(), Posterior()
    probs = choice_probs(3, (True, False, False, True), 0.1)
    a.observe(3, probs)
    a.observe(3, probs)
    b.observe_log(3, [2 * math.log(p) for p in probs], 2)
    assert a.weights(3) == pytest.approx(b.weights(3))


def test_collapsed_counts_learned_and_search_as_the_heuristic():
    """Where only random / greedy / heuristic can be afforded (world weights, the Fanti
    card network's features), learned counts as the heuristic and search (whose plays
    depend on every hand) as uninformative."""
    post = Posterior()
    for _ in range(6):
        post.observe(1, choice_probs(3, (False, False, True, False), 0.1))  # learned only
    r, g, h = post.collapsed(1)
    w = dict(zip(FAMILY, post.weights(1), strict=True))
    assert (r, g) == (w["random"] + w["search"], w["greedy"])
    assert h == pytest.approx(w["heuristic"] + w["learned"]) and h > 0.85
    assert collapse(PRIOR) == pytest.approx((0.3, 0.2, 0.5))
    with pytest.raises(ValueError, match="one answer per model"):
        choice_probs(3, (True, False), 0.1)


def synthetic_views(game, seeds, moves):
    """Views of seat 0 after ``moves`` moves, the seats played by LINEUP."""
    g = get_game(game)
    for seed in seeds:
        rng = random.Random(seed)
        deck = list(range(52))
        rng.shuffle(deck)
        r = g.new_round(g.rules(4, {"rounds": 1}), 4, 3, deck)
        bots = [make_bot(LINEUP[s], game, seed * 7 + s) for s in range(4)]
        while not r.is_over and len(r.history) < moves:
            p = r.current_player
            r.apply(bots[p].choose(r.view(p)))
        if not r.is_over:
            yield r.view(0)


def read(game, view, rng):
    if game == "fantan":
        from parlour.games.fantan.opponents import read_seats
        from parlour.games.fantan.search import FastFanTan, _setup

        worlds = FastFanTan(Budget(1))._pool(_setup(view, "constraints"), None, rng,
                                             count=24)
        return read_seats(view, worlds)
    from parlour.games.fanti.opponents import read_seats
    from parlour.games.fanti.search import deal_hands

    return read_seats(view, [deal_hands(view, rng) for _ in range(8)])


@pytest.mark.parametrize("game,moves", [("fantan", 36), ("fanti", 40)])
def test_posterior_moves_toward_the_true_model(game, moves):
    """A random seat is read as more random, and a heuristic seat as more heuristic,
    than the prior, and each more so than the other (on average over deals)."""
    rows = {1: [], 2: []}
    rng = random.Random(1)
    for view in synthetic_views(game, range(12), moves):
        post = read(game, view, rng)
        for s in rows:
            rows[s].append(post.weights(s))

    def mean(seat, model):
        i = FAMILY.index(model)
        return sum(w[i] for w in rows[seat]) / len(rows[seat])

    rand, heur = 1, 2
    assert mean(rand, "random") > PRIOR[FAMILY.index("random")] + 0.15
    assert mean(heur, "heuristic") > PRIOR[FAMILY.index("heuristic")]
    assert mean(rand, "random") > mean(heur, "random") + 0.2
    assert mean(heur, "heuristic") > mean(rand, "heuristic") + 0.2


def test_fanti_reads_finished_deals_exactly():
    """In a finished deal every card a seat held was played (FA-3, FA-4): the reading
    of those plays needs no world, so two different world samples agree on them."""
    from parlour.games.fanti.opponents import round_plays

    view = next(synthetic_views("fanti", [3], 33))  # two deals done, one play into the third
    plays = round_plays(view)
    done = [p for p in plays if not p.current]
    assert done and all(p.seat != 0 for p in plays)
    assert len(done) == 2 * 3 * 4  # two deals, three other seats, four cards each
    for p in done:
        assert p.later >> (p.move & 63) & 1  # the card played was in the known hand


@pytest.mark.parametrize("game,players", [("fantan", 4), ("fanti", 3)])
def test_reading_bots_are_reproducible_from_their_seed(game, players):
    r = round_at(game, players, {}, 21, 24)
    while not r.is_over and len(r.legal_moves()) < 2:
        r.apply(r.legal_moves()[0])
    view = r.view(r.current_player)
    first = make_bot("hard:60", game, 4).estimates(view)
    again = make_bot("hard:60", game, 4).estimates(view)
    assert first == again
    assert sorted(e.move for e in first) == sorted(view.legal)


class Seer:
    """A synthetic player that plays as the ``search`` model says, from the real round
    (it sees every hand: a test player, not a bot)."""

    def __init__(self, game, r):
        self.game, self.r = game, r

    def choose(self, view):
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        hands = [self.r.hand(s) for s in range(view.players)]
        if self.game == "fantan":
            import numpy as np

            from parlour.games.fantan.env import playable
            from parlour.games.fantan.opponents import _Moment, _Searcher

            now = _Moment(view.table, view.passes, view.hand_counts, (0,) * view.players)
            mask = sum(1 << c for c in legal)
            return _Searcher(view).choices(np.array([hands], np.uint64), view.seat, now,
                                           playable(view.table, view.rules), [mask])[0]
        from parlour.games.fanti.opponents import Play, _search_move

        now = Play(view.seat, -1, view.table, tuple(view.piles), tuple(view.hand_counts),
                   (0,) * view.players, view.deck_left, True, view.last_collector)
        return _search_move(tuple(sorted(view.rules.items())), view.players, now,
                            tuple(hands))


@pytest.mark.parametrize("game,moves", [("fantan", 36), ("fanti", 40)])
def test_a_player_who_sees_every_hand_is_read_as_search(game, moves):
    """Seat 1 plays as the ``search`` model (every hand known), seat 2 as the heuristic:
    seat 1 is read as more ``search`` than the prior and than seat 2."""
    g = get_game(game)
    rows = {1: [], 2: []}
    rng = random.Random(2)
    for seed in range(10):
        deal = random.Random(seed)
        deck = list(range(52))
        deal.shuffle(deck)
        r = g.new_round(g.rules(4, {"rounds": 1}), 4, 3, deck)
        bots = [make_bot("heuristic", game, seed * 7 + s) for s in range(4)]
        bots[1] = Seer(game, r)
        while not r.is_over and len(r.history) < moves:
            p = r.current_player
            r.apply(bots[p].choose(r.view(p)))
        if r.is_over:
            continue
        post = read(game, r.view(0), rng)
        for s in rows:
            rows[s].append(post.weight(s, "search"))
    seer, heur = (sum(rows[s]) / len(rows[s]) for s in (1, 2))
    assert seer > PRIOR[FAMILY.index("search")] + 0.15
    assert seer > heur + 0.15


def test_fanti_warm_loads_the_reading_learned_model():
    """`parlour serve`'s bot workers call each game's warm(): for Fanti it loads the
    learned player model the reading asks, so no player's first move pays for it."""
    from parlour.games.fanti import opponents
    from parlour.games.fanti.model import warm

    # every cache of the reading, not only the bot's: a warm() or a reading made by an
    # earlier test in this process (a server's start in tests/server, tests/envs) leaves
    # its moves in _learned_move, which answers them without asking for the bot
    caches = [f for f in vars(opponents).values()
              if hasattr(f, "cache_clear") and f.__module__ == opponents.__name__]
    for cache in caches:
        cache.cache_clear()
    assert warm() >= 0
    assert opponents._learned_bot.cache_info().currsize == 1
