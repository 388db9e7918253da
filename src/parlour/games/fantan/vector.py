"""Fan Tan's compiled vector environment (``VECTOR``, :mod:`parlour.envs.vector`).

``num_envs`` whole games side by side in arrays, stepped by numba code built on the
rules helpers of :mod:`.kernel` (``deal``, ``legal_options``, the move transition
``play_card`` and ``pass_turn``, ``withhold``, ``round_score``: FT-1 .. FT-8, FT-11) --
no rule is written here again. What this module adds
is the environment around them: rounds strung into a game (FT-9), rewards as
:mod:`parlour.envs.session` gives them, the observation vector of :mod:`.env` written
in compiled code (``tests/envs/test_env_vector.py`` holds it to the Python encoder), and
the opponents, compiled: ``random`` (the batch engine's stream choices), ``greedy`` and
``heuristic`` (the same choices as those parlour bots; the heuristic is the compiled
search's own :func:`.search_kernel.policy`).

Deals follow :mod:`parlour.batch.stream`: the ``k``-th game of env ``i`` after
``reset(seed)`` is game ``k * num_envs + i`` of the run ``seed``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from parlour.batch.bitops import (
    U0,
    bit,
    bounded,
    count,
    draw,
    game_key,
    kth_card,
    lowest,
    round_key,
    shuffle,
)
from parlour.batch.stream import M64, MOVE_BASE
from parlour.game import PASS
from parlour.games.fantan.env import BEHIND_CAP, GAP_CAP, PASS_CAP, FanTanObservation
from parlour.games.fantan.kernel import (
    B7D,
    BLOCKED,
    OPEN,
    SEVENS_U,
    UNLOCKS_U,
    deal,
    legal_options,
    pass_turn,
    play_card,
    round_score,
    withhold,
)
from parlour.games.fantan.rules import FANTAN, SEVEN
from parlour.games.fantan.search_kernel import LANE_CARDS, LANE_LEN, LANE_MASK, LANE_PREFIX, policy

ACTIONS = 53
BOTS = {"random": 1, "greedy": 2, "heuristic": 3}
"""Opponents played inside the environment, by name (0 is a learner's seat)."""

# columns of the int state ``iv``
TURN, WINNER, DEALER, FIRST, RND, NMOVES, GAME, LEARNER, STEPS, NPLAYS, GAP, OVER = range(12)
NI = 12
# rows of the per-seat state ``sv``
PASSES, FINES, PAID5, TOTALS = range(4)
# observation fields, in :class:`FanTanObservation` order
FIELDS = ("hand", "table", "playable", "hand_counts", "passes", "to_move", "dealer", "behind",
          "rounds_left", "rules", "played_by", "void", "play_order", "pass_gap")


@njit(cache=True)
def _start_round(b, seed, n, any_seven, iv, uv, sv, order, gapat, deck):
    """Deal round ``iv[b, RND]`` of the env's game (FT-1, FT-4)."""
    gkey = game_key(seed, iv[b, GAME])
    shuffle(round_key(gkey, iv[b, RND]), deck)
    dealer = (iv[b, FIRST] + iv[b, RND]) % n
    iv[b, DEALER] = dealer
    iv[b, TURN] = deal(deck, uv[b], n, dealer, any_seven)
    iv[b, WINNER] = OPEN
    iv[b, NMOVES] = 0
    iv[b, NPLAYS] = 0
    iv[b, GAP] = 0
    uv[b, n] = U0  # table
    uv[b, n + 1] = SEVENS_U  # playable
    for s in range(n):
        uv[b, n + 2 + s] = U0  # voids
        sv[b, PASSES, s] = 0
        sv[b, FINES, s] = 0
        sv[b, PAID5, s] = 0
    for c in range(52):
        order[b, c] = 0
        gapat[b, c] = 0


@njit(cache=True)
def _start_game(b, seed, n, any_seven, seat, iv, uv, sv, order, gapat, deck):
    """A new game: first dealer from the stream, totals cleared, the learner's seat."""
    gkey = game_key(seed, iv[b, GAME])
    iv[b, FIRST] = bounded(draw(gkey, 0), n)
    iv[b, RND] = 0
    iv[b, STEPS] = 0
    iv[b, OVER] = 0
    iv[b, LEARNER] = seat if seat >= 0 else bounded(draw(gkey, 1), n)
    for s in range(n):
        sv[b, TOTALS, s] = 0
    _start_round(b, seed, n, any_seven, iv, uv, sv, order, gapat, deck)


@njit(cache=True)
def _legal(b, n, any_seven, strict, iv, uv):
    hand = uv[b, iv[b, TURN]]
    return legal_options(hand, uv[b, n], uv[b, n + 1], any_seven, strict)


@njit(cache=True)
def _end_round(b, seed, n, any_seven, chips, rounds, reward_score, iv, uv, sv, order, gapat,
               deck, score, rew):
    """Score the round (FT-7, FT-8); deal the next one or end the game (FT-9)."""
    w = iv[b, WINNER]
    round_score(score, n, iv[b, DEALER], w, chips, uv[b], sv[b, PASSES], sv[b, FINES],
                sv[b, PAID5])
    sign = 1.0 if chips else -1.0
    for s in range(n):
        sv[b, TOTALS, s] += score[s]
        if reward_score:
            rew[b, s] += sign * score[s]
    if iv[b, RND] + 1 < rounds:
        iv[b, RND] += 1
        _start_round(b, seed, n, any_seven, iv, uv, sv, order, gapat, deck)
        return
    iv[b, OVER] = 1
    if reward_score:
        return
    # the zero-sum game result (parlour.envs.session.game_result)
    best = sv[b, TOTALS, 0]
    for s in range(1, n):
        t = sv[b, TOTALS, s]
        if (t > best) if chips else (t < best):
            best = t
    k = 0
    for s in range(n):
        # FT-9; a blocked round (FT-11) has no winner: the totals decide
        won = (s == w) if rounds == 1 and w >= 0 else sv[b, TOTALS, s] == best
        score[s] = 1 if won else 0
        k += score[s]
    if k == n:
        return
    for s in range(n):
        rew[b, s] += (n - k) / (k * (n - 1)) if score[s] else -1.0 / (n - 1)


@njit(cache=True)
def _apply(b, mv, seed, n, any_seven, strict, chips, rounds, reward_score, unlock, iv, uv, sv,
           order, gapat, deck, score, rew):
    """Play move ``mv`` (a legal card, or PASS) for the seat to move."""
    seat = iv[b, TURN]
    if mv == PASS:
        table = uv[b, n]
        legal, _ = legal_options(uv[b, seat], table, uv[b, n + 1], any_seven, strict)
        if strict:  # FT-5: what fitted is not in that hand
            uv[b, n + 2 + seat] |= uv[b, n + 1] if table != U0 or any_seven else B7D
        if legal != U0:  # FT-8
            withhold(seat, legal, uv[b], n, chips, sv[b, FINES], sv[b, PAID5])
        # GAP: passes since the last play (the streak of FT-11)
        charge, iv[b, GAP], blocked = pass_turn(iv[b, GAP], n)
        sv[b, PASSES, seat] += charge
        if blocked:
            iv[b, WINNER] = BLOCKED
    else:
        iv[b, NPLAYS] += 1
        order[b, mv] = iv[b, NPLAYS] * n + seat + 1  # the order and the seat in one number
        gapat[b, mv] = iv[b, GAP]
        uv[b, seat], uv[b, n], uv[b, n + 1], iv[b, GAP], out = play_card(
            mv, unlock[mv], uv[b, seat], uv[b, n], uv[b, n + 1])
        if out:
            iv[b, WINNER] = seat
    iv[b, TURN] = seat + 1 if seat + 1 < n else 0
    iv[b, NMOVES] += 1
    if iv[b, WINNER] != OPEN:
        _end_round(b, seed, n, any_seven, chips, rounds, reward_score, iv, uv, sv, order, gapat,
                   deck, score, rew)


@njit(cache=True)
def _reach(c, unlock):
    """Every card further out beyond ``c`` in its row(s) (the greedy bot's look-ahead)."""
    reach = U0
    frontier = unlock[c]
    while frontier != U0:
        reach |= frontier
        nxt = U0
        f = frontier
        while f != U0:
            x = lowest(f)
            f &= f - np.uint64(1)
            nxt |= unlock[x]
        frontier = nxt
    return reach


@njit(cache=True)
def _bot_move(b, kind, seed, n, any_seven, strict, af, unlock, iv, uv):
    legal, may_pass = _legal(b, n, any_seven, strict, iv, uv)
    hand = uv[b, iv[b, TURN]]
    if kind == 1:  # random: the batch engine's stream choice
        cnt = count(legal)
        n_legal = cnt + (1 if may_pass else 0)
        k = 0
        if n_legal > 1:
            rkey = round_key(game_key(seed, iv[b, GAME]), iv[b, RND])
            k = bounded(draw(rkey, MOVE_BASE + iv[b, NMOVES]), n_legal)
        return PASS if k == cnt else kth_card(legal, k)
    if legal == U0:
        return PASS
    if kind == 2:
        return greedy_card(hand, legal, unlock)
    return policy(hand, legal, af, LANE_CARDS, LANE_PREFIX, LANE_LEN, LANE_MASK)


@njit(cache=True)
def greedy_card(hand, legal, unlock):
    """The ``greedy`` bot's card among ``legal`` (non-empty), compiled
    (:func:`.bots.greedy_card`): most own cards behind it, 7s last, then the lowest card."""
    best = -1
    best_key = -1
    m = legal
    while m != U0:
        c = lowest(m)
        m &= m - np.uint64(1)
        key = (count(_reach(c, unlock) & hand) * 2 + (1 if c % 13 != SEVEN else 0)) * 64 \
            + 63 - c
        if key > best_key:
            best, best_key = c, key
    return best


@njit(cache=True)
def vec_bot_actions(kind, seed, n, any_seven, strict, ace_high, unlock, iv, uv, out):
    """The action id (the card, or pass) bot ``kind`` plays now for the seat to move."""
    af = 1 if ace_high else 0
    for b in range(iv.shape[0]):
        out[b] = _bot_move(b, kind, seed, n, any_seven, strict, af, unlock, iv, uv)


@njit(cache=True)
def _bots_play(b, bots, seed, n, any_seven, strict, chips, rounds, reward_score, af, unlock,
               iv, uv, sv, order, gapat, deck, score, rew):
    """Opponents move until the learner is to act or the game is over."""
    while iv[b, OVER] == 0 and iv[b, TURN] != iv[b, LEARNER]:
        mv = _bot_move(b, bots[iv[b, TURN]], seed, n, any_seven, strict, af, unlock, iv, uv)
        _apply(b, mv, seed, n, any_seven, strict, chips, rounds, reward_score, unlock, iv, uv,
               sv, order, gapat, deck, score, rew)


@njit(inline="always", cache=True)
def _plane(out, b, at, mask):
    """Write a card mask as 0/1 from ``out[b, at]`` (set bits only: the row is zeroed)."""
    while mask != U0:
        c = lowest(mask)
        mask &= mask - np.uint64(1)
        out[b, at + c] = 1.0


@njit(cache=True)
def _observe(b, seat, out, off, n, any_seven, strict, chips, ace_high, rounds, info, iv, uv,
             sv, order, gapat):
    """Seat ``seat``'s observation vector, as :class:`.env.FanTanObservation` writes it."""
    for i in range(out.shape[1]):
        out[b, i] = 0.0
    over = iv[b, OVER] == 1
    table = uv[b, n]
    fits = U0
    if not over:
        fits = uv[b, n + 1] if table != U0 or any_seven else B7D
    _plane(out, b, off[0], uv[b, seat])
    _plane(out, b, off[1], table)
    _plane(out, b, off[2], fits)
    most = (52 + n - 1) // n
    lower = not chips
    best = sv[b, TOTALS, 0]
    for s in range(1, n):
        t = sv[b, TOTALS, s]
        if (t < best) if lower else (t > best):
            best = t
    for j in range(n):
        s = (seat + j) % n
        out[b, off[3] + j] = count(uv[b, s]) / most
        out[b, off[4] + j] = min(sv[b, PASSES, s], PASS_CAP) / PASS_CAP
        gap = sv[b, TOTALS, s] - best if lower else best - sv[b, TOTALS, s]
        out[b, off[7] + j] = min(gap, BEHIND_CAP) / BEHIND_CAP
    if not over:
        out[b, off[5] + (iv[b, TURN] - seat) % n] = 1.0
    out[b, off[6] + (iv[b, DEALER] - seat) % n] = 1.0
    out[b, off[8]] = max(rounds - iv[b, RND] - 1, 0) / rounds
    out[b, off[9]] = 1.0 if ace_high else 0.0
    out[b, off[9] + 1] = 1.0 if any_seven else 0.0
    out[b, off[9] + 2] = 1.0 if chips else 0.0
    out[b, off[9] + 3] = 0.0 if strict else 1.0
    if info:
        cap = GAP_CAP * n
        for c in range(52):
            o = order[b, c]
            if o > 0:
                who = (o - 1) % n
                out[b, off[10] + ((who - seat) % n) * 52 + c] = 1.0
                out[b, off[12] + c] = ((o - 1) // n) / 52
                out[b, off[13] + c] = min(gapat[b, c], cap) / cap
        for j in range(n):
            _plane(out, b, off[11] + j * 52, uv[b, n + 2 + (seat + j) % n])


@njit(cache=True)
def _mask(b, seat, out, n, any_seven, strict, iv, uv):
    for a in range(out.shape[1]):
        out[b, a] = False
    if iv[b, OVER] == 1 or iv[b, TURN] != seat:
        return
    legal, may_pass = _legal(b, n, any_seven, strict, iv, uv)
    while legal != U0:
        c = lowest(legal)
        legal &= legal - np.uint64(1)
        out[b, c] = True
    out[b, PASS] = may_pass


@njit(cache=True)
def _first_illegal(actions, n, any_seven, strict, iv, uv):
    for b in range(actions.shape[0]):
        legal, may_pass = _legal(b, n, any_seven, strict, iv, uv)
        a = actions[b]
        if a == PASS:
            if not may_pass:
                return b
        elif a < 0 or a > PASS or legal & bit(a) == U0:
            return b
    return -1


@njit(inline="always", cache=True)
def _next_game(b, seed, num_envs, n, any_seven, strict, chips, rounds, reward_score, af, seat,
               bots, selfplay, unlock, iv, uv, sv, order, gapat, deck, score, rew):
    """Start env ``b``'s next game (``iv[b, GAME] + num_envs``, the module docstring's
    numbering): dealt, its rewards cleared, the compiled opponents played up to the
    learner's turn. Reset, restart and ``vec_step``'s autoreset all start a game here."""
    iv[b, GAME] += num_envs
    _start_game(b, seed, n, any_seven, seat, iv, uv, sv, order, gapat, deck)
    for s in range(n):
        rew[b, s] = 0.0
    if not selfplay:
        _bots_play(b, bots, seed, n, any_seven, strict, chips, rounds, reward_score, af,
                   unlock, iv, uv, sv, order, gapat, deck, score, rew)


@njit(inline="always", cache=True)
def _observe_and_mask(b, obs, off, mask, n, any_seven, strict, chips, ace_high, rounds, info,
                      selfplay, iv, uv, sv, order, gapat):
    """The observation and action mask of whoever acts next in env ``b`` (the seat to
    move in self-play, else the learner)."""
    me = iv[b, TURN] if selfplay else iv[b, LEARNER]
    _observe(b, me, obs, off, n, any_seven, strict, chips, ace_high, rounds, info, iv, uv,
             sv, order, gapat)
    _mask(b, me, mask, n, any_seven, strict, iv, uv)


@njit(cache=True)
def vec_reset(seed, num_envs, n, any_seven, strict, chips, rounds, reward_score, ace_high,
              seat, bots, selfplay, unlock, iv, uv, sv, order, gapat, score, rew, obs, off,
              info, mask):
    """Start a game in every env, let the opponents open, observe."""
    deck = np.empty(52, np.int64)
    af = 1 if ace_high else 0
    for b in range(num_envs):
        iv[b, GAME] = b - num_envs  # so that its next game is game b
        _next_game(b, seed, num_envs, n, any_seven, strict, chips, rounds, reward_score, af,
                   seat, bots, selfplay, unlock, iv, uv, sv, order, gapat, deck, score, rew)
        _observe_and_mask(b, obs, off, mask, n, any_seven, strict, chips, ace_high, rounds,
                          info, selfplay, iv, uv, sv, order, gapat)


@njit(cache=True)
def vec_step(actions, seed, num_envs, n, any_seven, strict, chips, rounds, reward_score,
             ace_high, seat, bots, selfplay, max_steps, unlock, iv, uv, sv, order, gapat, score,
             rew, obs, off, info, mask, reward, rewards, terminated, truncated, final_obs,
             actor):
    """One action in every env, the opponents' replies, autoreset in the same step."""
    deck = np.empty(52, np.int64)
    af = 1 if ace_high else 0
    for b in range(num_envs):
        for s in range(n):
            rew[b, s] = 0.0
        me = iv[b, TURN]
        actor[b] = me
        _apply(b, actions[b], seed, n, any_seven, strict, chips, rounds, reward_score, unlock,
               iv, uv, sv, order, gapat, deck, score, rew)
        iv[b, STEPS] += 1
        if not selfplay:
            me = iv[b, LEARNER]
            _bots_play(b, bots, seed, n, any_seven, strict, chips, rounds, reward_score, af,
                       unlock, iv, uv, sv, order, gapat, deck, score, rew)
        reward[b] = rew[b, me]
        for s in range(n):
            rewards[b, s] = rew[b, s]
        terminated[b] = iv[b, OVER] == 1
        truncated[b] = not terminated[b] and max_steps > 0 and iv[b, STEPS] >= max_steps
        if terminated[b] or truncated[b]:
            _observe(b, me, final_obs, off, n, any_seven, strict, chips, ace_high, rounds, info,
                     iv, uv, sv, order, gapat)
            _next_game(b, seed, num_envs, n, any_seven, strict, chips, rounds, reward_score, af,
                       seat, bots, selfplay, unlock, iv, uv, sv, order, gapat, deck, score, rew)
        _observe_and_mask(b, obs, off, mask, n, any_seven, strict, chips, ace_high, rounds,
                          info, selfplay, iv, uv, sv, order, gapat)


@njit(cache=True)
def vec_restart(envs, seed, num_envs, n, any_seven, strict, chips, rounds, reward_score,
                ace_high, seat, bots, selfplay, unlock, iv, uv, sv, order, gapat, score, rew,
                obs, off, info, mask):
    """Abandon the game of each env in ``envs`` and start its next one (an illegal
    action under ``illegal_action="terminate"``), as the autoreset of ``vec_step``."""
    deck = np.empty(52, np.int64)
    af = 1 if ace_high else 0
    for b in envs:
        _next_game(b, seed, num_envs, n, any_seven, strict, chips, rounds, reward_score, af,
                   seat, bots, selfplay, unlock, iv, uv, sv, order, gapat, deck, score, rew)
        _observe_and_mask(b, obs, off, mask, n, any_seven, strict, chips, ace_high, rounds,
                          info, selfplay, iv, uv, sv, order, gapat)


class FanTanVector:
    """The state of ``num_envs`` Fan Tan games and the calls that step them."""

    num_actions = ACTIONS
    bot_names = tuple(BOTS)

    def __init__(self, num_envs: int, players: int, rules: dict[str, Any], seat: int,
                 opponents: list[str], reward: str, info_state: bool, max_steps: int) -> None:
        self.num_envs, self.players, self.rules = num_envs, players, rules
        self.encoder = FanTanObservation(players, info_state)
        self.selfplay = all(o == "self" for o in opponents)
        bots = np.zeros(players, np.int64)
        others = [s for s in range(players)]
        if not self.selfplay:
            if seat < 0:
                if len(set(opponents)) != 1:
                    raise ValueError("with a seat drawn every game, give one kind of opponent")
                bots[:] = BOTS[opponents[0]]
            else:
                others = [s for s in range(players) if s != seat]
                for s, name in zip(others, opponents, strict=True):
                    bots[s] = BOTS[name]
        self.bots = bots
        self.seat = seat
        self.args = (players, rules["opening"] == "any-seven", bool(rules["strict"]),
                     rules["stakes"] == "chips", int(rules["rounds"]), reward == "score")
        self.ace_high = rules["ace"] == "high"
        self.unlock = UNLOCKS_U[self.ace_high]
        self.info = info_state
        self.max_steps = max_steps
        self.off = np.array([self.encoder.offsets.get(f, 0) for f in FIELDS], np.int64)
        n = num_envs
        self.iv = np.zeros((n, NI), np.int64)
        self.uv = np.zeros((n, 2 * players + 2), np.uint64)
        self.sv = np.zeros((n, 4, players), np.int64)
        self.order = np.zeros((n, 52), np.int64)
        self.gapat = np.zeros((n, 52), np.int64)
        self.score = np.zeros(players, np.int64)
        self.rew = np.zeros((n, players), np.float64)
        self.seed = np.uint64(0)

    def reset(self, seed: int, obs: np.ndarray, mask: np.ndarray) -> None:
        self.seed = np.uint64(int(seed) & M64)
        n, any_seven, strict, chips, rounds, reward_score = self.args
        vec_reset(self.seed, self.num_envs, n, any_seven, strict, chips, rounds, reward_score,
                  self.ace_high, self.seat, self.bots, self.selfplay, self.unlock, self.iv,
                  self.uv, self.sv, self.order, self.gapat, self.score, self.rew, obs, self.off,
                  self.info, mask)

    def step(self, actions: np.ndarray, obs: np.ndarray, mask: np.ndarray, reward: np.ndarray,
             rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
             final_obs: np.ndarray, actor: np.ndarray) -> None:
        n, any_seven, strict, chips, rounds, reward_score = self.args
        bad = _first_illegal(actions, n, any_seven, strict, self.iv, self.uv)
        if bad >= 0:
            raise ValueError(f"env {bad}: action {int(actions[bad])} is illegal now")
        vec_step(actions, self.seed, self.num_envs, n, any_seven, strict, chips, rounds,
                 reward_score, self.ace_high, self.seat, self.bots, self.selfplay,
                 self.max_steps, self.unlock, self.iv, self.uv, self.sv, self.order, self.gapat,
                 self.score, self.rew, obs, self.off, self.info, mask, reward, rewards,
                 terminated, truncated, final_obs, actor)

    def illegal(self, actions: np.ndarray) -> int:
        """The first env whose action is illegal now, or -1."""
        n, any_seven, strict = self.args[:3]
        return int(_first_illegal(actions, n, any_seven, strict, self.iv, self.uv))

    def restart(self, envs: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        """Start the next game of each env in ``envs`` now, observing it into ``obs``."""
        n, any_seven, strict, chips, rounds, reward_score = self.args
        vec_restart(np.asarray(envs, np.int64), self.seed, self.num_envs, n, any_seven, strict,
                    chips, rounds, reward_score, self.ace_high, self.seat, self.bots,
                    self.selfplay, self.unlock, self.iv, self.uv, self.sv, self.order,
                    self.gapat, self.score, self.rew, obs, self.off, self.info, mask)

    def learner_seats(self) -> np.ndarray:
        """(num_envs,) the seat each env's observation is for."""
        return np.where(self.selfplay, self.iv[:, TURN], self.iv[:, LEARNER])

    def bot_actions(self, name: str) -> np.ndarray:
        """(num_envs,) the action id compiled bot ``name`` plays now for the seat to move."""
        out = np.empty(self.num_envs, np.int64)
        n, any_seven, strict, _chips, _rounds, _score = self.args
        vec_bot_actions(BOTS[name], self.seed, n, any_seven, strict, self.ace_high, self.unlock,
                        self.iv, self.uv, out)
        return out

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.iv, self.uv, self.sv, self.order, self.gapat,
                                      self.rew))


def make(num_envs: int, players: int, rules: dict[str, Any], seat: int, opponents: list[str],
         reward: str, info_state: bool, max_steps: int) -> FanTanVector:
    """The vector state for :class:`parlour.envs.vector.ParlourVectorEnv`."""
    return FanTanVector(num_envs, players, FANTAN.rules(players, rules), seat, opponents, reward,
                        info_state, max_steps)
