"""The learned card-location model (:mod:`parlour.games.fantan.cardnet`) and its use as a
prior on the worlds of the compiled search (inference ``learned`` and ``blend``).

Whatever the prior says, every world keeps every hard constraint (hand sizes, the
cards on the table and in my hand, FT-5 pass voids); the prior does move the worlds;
the network reads only the view (FT-10), is a probability over the seats that may
hold each card, and places hidden cards better than uniform worlds do; decisions
with it are reproducible from a seed and blind to hidden cards.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers_bots import round_at

from parlour import cards
from parlour.bots import make_bot
from parlour.bots.budget import Budget
from parlour.games.fantan import cardnet
from parlour.games.fantan.determinize import evidence
from parlour.games.fantan.infer import decision_arrays
from parlour.games.fantan.search import FastFanTan, _Chains, _setup


def a_view(seed, players=4, rules=None, bot="heuristic", moves=None):
    """A view with a real choice, some moves into a round."""
    rng = random.Random(seed)
    r = round_at("fantan", players, rules or {}, seed,
                 moves if moves is not None else rng.randrange(12, 40), bot)
    while not r.is_over and len(r.legal_moves()) < 2:
        r.apply(r.legal_moves()[0])
    return r


def pool_with(view, mode, prior, seed, worlds=300):
    eng = FastFanTan(Budget(1), inference=mode, worlds=worlds)
    su = _setup(view, mode)
    d = decision_arrays(view) if mode == "blend" else None
    rng = random.Random(seed)
    hit, miss, _eps = eng._models(view, su, rng)
    return eng._pool(su, d, rng, _Chains(su.n), hit=hit, miss=miss, prior=prior)


def hostile_prior(view):
    """A prior that wants every seat to hold exactly the cards it cannot: its pass
    voids, the table and my hand."""
    voids = evidence(view).voids
    prior = np.full((view.players, 52), -30.0)
    for s in range(view.players):
        forbidden = voids[s] | view.table | (view.hand if s != view.seat else 0)
        for c in range(52):
            if forbidden >> c & 1:
                prior[s, c] = 30.0
    return prior


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("mode", ["learned", "blend"])
def test_worlds_keep_every_hard_constraint_under_any_prior(seed, mode):
    r = a_view(seed, bot="random" if seed % 2 else "heuristic", moves=20 + seed)
    if r.is_over:
        pytest.skip("round over")
    view = r.view(r.current_player)
    voids = evidence(view).voids
    unseen = cards.FULL_DECK & ~(view.hand | view.table)
    for prior in (hostile_prior(view), None):
        for world in pool_with(view, mode, prior, seed):
            hands = [int(h) for h in world]
            assert hands[view.seat] == view.hand
            assert [h.bit_count() for h in hands] == list(view.hand_counts)
            union = 0
            for s, h in enumerate(hands):
                assert union & h == 0
                union |= h
                if s != view.seat:
                    assert h & voids[s] == 0  # FT-5 pass voids
            assert union == unseen | view.hand


def test_some_view_has_pass_voids_on_unseen_cards():
    """The constraint test above means something: its views include pass voids."""
    found = 0
    for seed in range(12):
        r = a_view(seed, bot="random" if seed % 2 else "heuristic", moves=20 + seed)
        view = r.view(r.current_player)
        unseen = cards.FULL_DECK & ~(view.hand | view.table)
        found += any(v & unseen for s, v in enumerate(evidence(view).voids) if s != view.seat)
    assert found >= 3


def test_the_prior_moves_the_worlds():
    """A prior for one seat holding one card makes the worlds deal it there far more
    often than uniform worlds within the constraints do."""
    r = a_view(3, moves=16)
    view = r.view(r.current_player)
    voids = evidence(view).voids
    unseen = cards.FULL_DECK & ~(view.hand | view.table)
    seat = next(s for s in range(4) if s != view.seat and view.hand_counts[s] > 2)
    card = next(c for c in cards.iter_cards(unseen & ~voids[seat]))
    prior = np.zeros((4, 52))
    prior[seat, card] = 4.0
    def share(p):
        pool = pool_with(view, "learned", p, 1)
        return float(np.mean([int(w[seat]) >> card & 1 for w in pool]))

    assert share(prior) > share(None) + 0.3


def test_network_gives_a_distribution_over_the_seats_that_may_hold_each_card():
    net = cardnet.load(4)
    assert net is not None
    for seed in range(6):
        r = a_view(seed, bot="random", moves=30)
        view = r.view(r.current_player)
        q = net.probs(view, random.Random(seed))
        voids = evidence(view).voids
        hidden = cards.FULL_DECK & ~(view.hand | view.table)
        assert np.all(q[view.seat] == 0)
        for c in range(52):
            if hidden >> c & 1:
                assert q[:, c].sum() == pytest.approx(1.0)
                for s in range(4):
                    if voids[s] >> c & 1 or view.hand_counts[s] == 0:
                        assert q[s, c] == 0
            else:
                assert np.all(q[:, c] == 0)


def test_network_places_cards_better_than_uniform_worlds():
    """Against heuristic players, 20+ moves in: the network's probability of each
    hidden card's true holder beats the share uniform worlds within the hard
    constraints give it (the learned model moves toward the truth)."""
    net = cardnet.load(4)
    learned = uniform = 0.0
    for seed in range(10):
        r = a_view(100 + seed, moves=24)
        if r.is_over:
            continue
        view = r.view(r.current_player)
        q = net.probs(view, random.Random(seed))
        _model, flat = cardnet.marginals(view, random.Random(seed), worlds=200)
        truth = [(s, c) for s in range(4) if s != view.seat
                 for c in cards.iter_cards(r.hand(s))]
        learned += np.mean([q[s, c] for s, c in truth])
        uniform += np.mean([flat[s, c] for s, c in truth])
    assert learned > uniform + 0.2  # summed over ten positions: 2 points each


def test_features_read_the_view_alone():
    """Rounds with the same view for the seat to move but other hidden hands give the
    same features and the same network output (FT-10)."""
    from test_bots_nopeek import twin

    net = cardnet.load(4)
    for seed in (3, 8):
        r = a_view(seed, moves=25)
        other = twin(r, seed)
        me = r.current_player
        a = cardnet.view_features(r.view(me), random.Random(1))
        b = cardnet.view_features(other.view(me), random.Random(1))
        assert np.array_equal(a, b)
        assert np.array_equal(net.probs(r.view(me), random.Random(1)),
                              net.probs(other.view(me), random.Random(1)))


@pytest.mark.parametrize("bot", ["hard:200:learned", "hard:200:blend"])
def test_decisions_ignore_hidden_cards_and_reproduce(bot):
    from test_bots_nopeek import twin

    r = a_view(3, moves=25)
    other = twin(r, 3)
    me = r.current_player
    a = make_bot(bot, "fantan", 77).estimates(r.view(me))
    assert a == make_bot(bot, "fantan", 77).estimates(other.view(me))
    assert a == make_bot(bot, "fantan", 77).estimates(r.view(me))


def test_without_a_fitting_network_learned_is_full():
    """At a table the network was not trained for (5 players; ace high) ``learned`` and
    ``blend`` fall back to ``full``, move for move."""
    for players, rules in ((5, {}), (4, {"ace": "high", "opening": "any-seven"})):
        r = a_view(4, players, rules, moves=20)
        view = r.view(r.current_player)
        full = FastFanTan(Budget(200)).estimates(view, random.Random(2))
        for mode in ("learned", "blend"):
            assert FastFanTan(Budget(200), inference=mode).estimates(
                view, random.Random(2)) == full
