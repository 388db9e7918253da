"""Reading each player across the rounds of a game (issue #15, build item 1: "and, at
a live table, earlier rounds of the same game"). Seats keep their players from round to
round, so what a seat showed in the rounds before counts: a random player is read as
random from the first play of the next round. The earlier rounds are the reading
seat's own views (FT-10, FA-7): nothing hidden enters."""

from __future__ import annotations

import math
import pickle

import pytest
from helpers_bots import twin

from parlour.bots import make_bot, opponents
from parlour.bots.opponents import FAMILY, PRIOR, Posterior, read_earlier
from parlour.games import get_game
from parlour.match import Match, Shuffler
from parlour.server import work

LINEUP = {2: ["heuristic", "random"], 4: ["heuristic", "random", "heuristic", "random"]}


def played_match(game, players, rounds, seed, seat0="heuristic"):
    """A finished match of ``rounds`` rounds, seat 0 played by ``seat0`` and the others
    by :data:`LINEUP` (odd seats random, even seats heuristic)."""
    g = get_game(game)
    m = Match.new(g, players, {"rounds": rounds}, shuffler=Shuffler(seed))
    agents = [make_bot(seat0 if s == 0 else LINEUP[players][s], game, seed * 10 + s)
              for s in range(players)]
    m.play_out(agents, Shuffler(seed + 1))
    assert len(m.rounds) == rounds
    return m, agents


def second_round_choice(m, game, players):
    """Round two of ``m`` replayed to seat 0's first choice after its eighth play."""
    r = get_game(game).new_round(m.rules, players, m.rounds[1].dealer, m.rounds[1].deck)
    for _, move in m.rounds[1].history:
        if r.current_player == 0 and len(r.legal_moves()) > 1 and len(r.history) > 8:
            return r
        r.apply(move)
    raise AssertionError("seat 0 had no choice in round two")


def weight(post, seat, model):
    return post.weights(seat)[FAMILY.index(model)]


@pytest.mark.parametrize("game,players", [("fantan", 4), ("fanti", 2), ("fanti", 4)])
def test_earlier_rounds_read_a_random_player_as_random(game, players):
    """Over a few games, after two rounds the random seats are read as random and
    the heuristic seats as the heuristic, well beyond the prior; two rounds say more
    than one."""
    one, two = [], []
    for seed in range(4):
        m, _ = played_match(game, players, 2, seed)
        views = [r.view(0) for r in m.rounds]
        one.append(read_earlier(game, views[:1]))
        two.append(read_earlier(game, views))
    rand, heur = 1, 2 if players == 4 else None

    def mean(posts, seat, model):
        return sum(weight(p, seat, model) for p in posts) / len(posts)

    prior_random = PRIOR[FAMILY.index("random")]
    assert mean(two, rand, "random") > 0.7 > prior_random
    assert mean(two, rand, "random") >= mean(one, rand, "random")
    if heur is not None:
        assert mean(two, heur, "heuristic") > 0.7
        assert mean(two, heur, "random") < 0.1


@pytest.mark.parametrize("game", ["fantan", "fanti"])
def test_evidence_of_rounds_adds_up(game):
    """The reading of two rounds is the prior plus each round's evidence; the reading of
    the current round starts from it (``read_seats(..., start=...)``)."""
    m, _ = played_match(game, 4, 2, 3)
    a, b = (read_earlier(game, [r.view(0)]) for r in m.rounds)
    both = read_earlier(game, [r.view(0) for r in m.rounds])
    base = [math.log(p) for p in PRIOR]
    for s in both.log:
        want = [x + y - z for x, y, z in zip(a.log[s], b.log[s], base, strict=True)]
        assert both.log[s] == pytest.approx(want)
        assert both.plays[s] == a.plays[s] + b.plays[s]
    fresh = get_game(game).new_round(m.rules, 4, 0, list(range(52)))
    if game == "fantan":
        from parlour.games.fantan.opponents import read_seats
    else:
        from parlour.games.fanti.opponents import read_seats
    started = read_seats(fresh.view(1), [], start=both)  # nothing played yet this round
    assert started.log == both.log and started is not both


def test_nothing_to_read_and_the_switch():
    assert read_earlier("fantan", []) is None
    m, _ = played_match("fantan", 4, 1, 5)
    views = [m.rounds[0].view(0)]
    assert read_earlier("fantan", views) is not None
    opponents.CARRY = False
    try:
        assert read_earlier("fantan", views) is None
    finally:
        opponents.CARRY = True


def test_posterior_copy_and_add_do_not_share_rows():
    p = Posterior()
    p.observe(1, [0.5, 0.1, 0.1, 0.1, 0.1])
    q = p.copy()
    q.observe(1, [0.1, 0.5, 0.5, 0.5, 0.5])
    assert p.log[1] != q.log[1] and p.plays[1] == 1 and q.plays[1] == 2
    r = Posterior()
    r.add(p)
    assert r.log == p.log and r.plays == p.plays


@pytest.mark.parametrize("game,players", [("fantan", 4), ("fanti", 2)])
def test_a_bot_keeps_its_last_view_of_each_round(game, players):
    """A search bot playing a whole game keeps one view of each finished round (its
    last decision there), so at round three it reads rounds one and two."""
    m, agents = played_match(game, players, 3, 7, seat0="hard:20")
    bot = agents[0]
    assert len(bot.earlier) == 2
    for view, r in zip(bot.earlier, m.rounds, strict=False):
        assert view.dealer == r.dealer and view.seat == 0
        assert tuple(r.history[:len(view.history)]) == view.history
    assert bot.engine.earlier is not None  # its last decisions read them


@pytest.mark.parametrize("game,players", [("fantan", 4), ("fanti", 2)])
def test_a_bot_made_for_one_decision_reads_what_it_is_told(game, players):
    """The server makes a bot for each decision and hands it the seat's views of the
    finished rounds (:func:`parlour.server.work.choose`): decisions are reproducible,
    and what the earlier rounds showed changes the search's values."""
    m, _ = played_match(game, players, 2, 11)
    earlier = (m.rounds[0].view(0),)
    view = second_round_choice(m, game, players).view(0)
    pickled = pickle.loads(pickle.dumps(earlier))  # as a worker process receives them
    assert work.choose(game, "hard:60", 5, view, None, pickled) == \
        work.choose(game, "hard:60", 5, view, None, earlier)
    told = make_bot("hard:60", game, 5)
    told.remember(earlier)
    plain = make_bot("hard:60", game, 5)
    assert told.estimates(view) != plain.estimates(view)


@pytest.mark.parametrize("game,players", [("fantan", 4), ("fanti", 2)])
def test_reading_earlier_rounds_never_peeks(game, players):
    """With earlier rounds read, the decision is still unchanged when the hidden cards
    of the current round are dealt differently (FT-10, FA-7)."""
    m, _ = played_match(game, players, 2, 13)
    earlier = (m.rounds[0].view(0),)
    r = second_round_choice(m, game, players)
    other = twin(r, 3)
    bots = [make_bot("hard:40", game, 9) for _ in range(2)]
    for b in bots:
        b.remember(earlier)
    assert bots[0].choose(r.view(0)) == bots[1].choose(other.view(0))


def test_a_new_game_forgets_the_last_one():
    bot = make_bot("hard:20", "fantan", 1)
    m, _ = played_match("fantan", 4, 1, 2)
    bot.remember([m.rounds[0].view(0)])
    assert len(bot.earlier) == 1
    bot.remember(())
    assert bot.earlier == []
    assert make_bot("greedy", "fantan", 0).remember(()) is None  # every bot takes it
