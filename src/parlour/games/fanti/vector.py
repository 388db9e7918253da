"""Fanti's compiled vector environment (``VECTOR``, :mod:`parlour.envs.vector`).

``num_envs`` whole games side by side in arrays, stepped by numba code built on the
rules helpers of :mod:`.kernel` (``deal``, the collection counters ``count_table`` /
``ways`` / ``kth_take``, ``legal_count`` / ``kth_move``, ``round_score``: FA-3 .. FA-9);
no rule is written here again. It adds the environment: the action ids of
:mod:`.env` (a card, then the collection card by card), rounds strung into a game,
rewards as :mod:`parlour.envs.session` gives them, the observation vector of
:mod:`.env` in compiled code (held to the Python encoder by
``tests/envs/test_env_vector.py``) and two compiled opponents: ``random`` (the batch
engine's stream choices), ``greedy`` and ``heuristic`` (the parlour bots' choices; the
heuristic is :mod:`.heuristic_kernel`, the one compiled copy of :mod:`.heuristic`,
whose scores and therefore moves are the same -- ``tests/envs/test_env_vector.py``
plays them side by side). :meth:`FantiVector.bot_actions` gives any compiled bot's next action id for the
seat to move (labels for imitation learning).

Deals follow :mod:`parlour.batch.stream`: the ``k``-th game of env ``i`` after
``reset(seed)`` is game ``k * num_envs + i`` of the run ``seed``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from parlour.batch.bitops import U0, bit, bounded, count, draw, game_key, lowest, round_key, shuffle
from parlour.batch.stream import M64, MOVE_BASE
from parlour.games.fanti.env import BEHIND_CAP, STOP, TAKE_BASE, FantiObservation
from parlour.games.fanti.heuristic_kernel import best_of
from parlour.games.fanti.kernel import (
    DEALER,
    DEALT,
    LAST,
    LEAVES_U,
    MAX_TARGET,
    STATE_INTS,
    TURN,
    VALUED_U,
    count_table,
    end_round,
    kth_move,
    kth_take,
    legal_count,
    play,
    round_score,
    start_round,
    ways,
)
from parlour.games.fanti.rules import FANTI, TEN_OF_DIAMONDS, TWO_OF_CLUBS

ACTIONS = 105
BOTS = {"random": 1, "greedy": 2, "heuristic": 3}
"""Opponents played inside the environment, by name (0 is a learner's seat)."""
FULL = np.uint64((1 << 52) - 1)
B2C = np.uint64(1 << TWO_OF_CLUBS)
B10D = np.uint64(1 << TEN_OF_DIAMONDS)
LEFTOVER = 49
"""``taken_at`` of the cards given to the last collector at the end (FA-8): 49 / 49 = 1."""

# columns of the int state ``iv``: the kernel's round state (TURN, LAST, DEALT, DEALER,
# :data:`.kernel.STATE_INTS` of them), then the environment's own; a row of ``uv`` is
# the kernel's ``masks`` (hands, piles, table) and the play half chosen
FIRST, RND, NMOVES, GAME, LEARNER, STEPS, OVER, PCARD, PLAST = range(STATE_INTS, STATE_INTS + 9)
NI = STATE_INTS + 9
FIELDS = ("hand", "table", "piles", "unseen", "hand_counts", "deck_left", "last_collector",
          "to_move", "dealer", "behind", "rounds_left", "pending_card", "pending_take", "rules",
          "played_by", "play_order", "taken_at")


@njit(cache=True)
def _start_round(b, seed, n, iv, uv, decks, order, taken):
    """Deal round ``iv[b, RND]`` (:func:`.kernel.start_round`: FA-3, FA-4)."""
    gkey = game_key(seed, iv[b, GAME])
    deck = decks[b]
    shuffle(round_key(gkey, iv[b, RND]), deck)
    start_round(deck, uv[b], iv[b], n, (iv[b, FIRST] + iv[b, RND]) % n)
    uv[b, 2 * n + 1] = U0
    iv[b, NMOVES] = 0
    iv[b, PCARD] = -1
    iv[b, PLAST] = -1
    for c in range(52):
        order[b, c] = 0
        taken[b, c] = 0


@njit(cache=True)
def _start_game(b, seed, n, seat, iv, uv, sv, decks, order, taken):
    gkey = game_key(seed, iv[b, GAME])
    iv[b, FIRST] = bounded(draw(gkey, 0), n)
    iv[b, RND] = 0
    iv[b, STEPS] = 0
    iv[b, OVER] = 0
    iv[b, LEARNER] = seat if seat >= 0 else bounded(draw(gkey, 1), n)
    for s in range(n):
        sv[b, s] = 0
    _start_round(b, seed, n, iv, uv, decks, order, taken)


@njit(cache=True)
def _end_round(b, seed, n, shared_ties, rounds, reward_score, iv, uv, sv, decks, order, taken,
               score, rew):
    """Score the round (FA-9); deal the next one or end the game (FA-10)."""
    round_score(score, n, uv[b, n:2 * n], shared_ties)
    for s in range(n):
        sv[b, s] += score[s]
        if reward_score:
            rew[b, s] += score[s]
    if iv[b, RND] + 1 < rounds:
        iv[b, RND] += 1
        _start_round(b, seed, n, iv, uv, decks, order, taken)
        return
    iv[b, OVER] = 1
    if reward_score:
        return
    best = sv[b, 0]
    for s in range(1, n):
        best = max(best, sv[b, s])
    k = 0
    for s in range(n):
        score[s] = 1 if sv[b, s] == best else 0
        k += score[s]
    if k == n:
        return
    for s in range(n):
        rew[b, s] += (n - k) / (k * (n - 1)) if score[s] else -1.0 / (n - 1)


@njit(cache=True)
def _apply(b, c, take, seed, n, shared_ties, rounds, reward_score, iv, uv, sv, decks, order,
           taken, score, rew):
    """Play card ``c`` collecting ``take`` for the seat to move (:func:`.kernel.play`,
    :func:`.kernel.end_round`: FA-5 .. FA-8), noting when each card was played and taken."""
    seat = iv[b, TURN]
    k = iv[b, NMOVES] + 1
    order[b, c] = k * n + seat + 1  # the order and the seat in one number
    _put(taken, b, 0, take, k)
    iv[b, NMOVES] = k
    iv[b, PCARD] = -1
    iv[b, PLAST] = -1
    uv[b, 2 * n + 1] = U0
    if play(decks[b], uv[b], iv[b], n, c, take):
        _put(taken, b, 0, end_round(uv[b], iv[b], n), LEFTOVER)
        _end_round(b, seed, n, shared_ties, rounds, reward_score, iv, uv, sv, decks, order,
                   taken, score, rew)


@njit(inline="always", cache=True)
def _put(rows, b, at, cards, value):
    """``rows[b, at + x] = value`` for each card ``x`` of ``cards``: when each card was
    taken (``taken``), or a card plane of the observation."""
    while cards != U0:
        x = lowest(cards)
        cards &= cards - np.uint64(1)
        rows[b, at + x] = value


@njit(cache=True)
def _below(last):
    return U0 if last < 0 else (np.uint64(1) << np.uint64(last + 1)) - np.uint64(1)


@njit(cache=True)
def _action_mask(b, n, gtg, iv, uv, cards, cnt, row):
    """The legal action ids of the seat to move (:class:`.env.FantiCodec`) into ``row``."""
    for a in range(row.shape[0]):
        row[a] = False
    hand = uv[b, iv[b, TURN]]
    c = iv[b, PCARD]
    if c < 0:
        h = hand
        while h != U0:
            x = lowest(h)
            h &= h - np.uint64(1)
            row[x] = True
        return
    table = uv[b, 2 * n]
    chosen = uv[b, 2 * n + 1]
    below = _below(iv[b, PLAST])
    nv = count_table(table & VALUED_U, cards, cnt)
    for k in range(ways(c, table, gtg, cnt, nv)):
        t = kth_take(c, k, table, gtg, cards, cnt, nv)
        if t & below == chosen:
            rest = t & ~chosen
            row[STOP if rest == U0 else TAKE_BASE + lowest(rest)] = True


@njit(cache=True)
def _act(b, action, seed, n, gtg, shared_ties, rounds, reward_score, iv, uv, sv, decks, order,
         taken, score, rew, cards, cnt):
    """One action id of the seat to move: a card, or one step of its collection."""
    table = uv[b, 2 * n]
    nv = count_table(table & VALUED_U, cards, cnt)
    c = iv[b, PCARD]
    if c < 0:
        if ways(action, table, gtg, cnt, nv) == 1:
            _apply(b, action, kth_take(action, 0, table, gtg, cards, cnt, nv), seed, n,
                   shared_ties, rounds, reward_score, iv, uv, sv, decks, order, taken, score, rew)
        else:
            iv[b, PCARD] = action
            iv[b, PLAST] = -1
            uv[b, 2 * n + 1] = U0
        return
    if action == STOP:
        _apply(b, c, uv[b, 2 * n + 1], seed, n, shared_ties, rounds, reward_score, iv, uv, sv,
               decks, order, taken, score, rew)
        return
    x = action - TAKE_BASE
    chosen = uv[b, 2 * n + 1] | bit(x)
    below = _below(x)
    left = 0
    only = U0
    for k in range(ways(c, table, gtg, cnt, nv)):
        t = kth_take(c, k, table, gtg, cards, cnt, nv)
        if t & below == chosen:
            left += 1
            only = t
    if left == 1:
        _apply(b, c, only, seed, n, shared_ties, rounds, reward_score, iv, uv, sv, decks, order,
               taken, score, rew)
    else:
        uv[b, 2 * n + 1] = chosen
        iv[b, PLAST] = x


@njit(cache=True)
def _worth(got):
    """The greedy bot's value of cards collected (``capture_value``)."""
    v = count(got) + 0.5 * count(got & LEAVES_U)
    if got & B2C:
        v += 2.0
    if got & B10D:
        v += 2.0
    return v


@njit(cache=True)
def _bot_move(b, kind, seed, n, gtg, iv, uv, cards, cnt, only=-1, chosen=U0, below=U0):
    """A compiled opponent's whole move, as (card, take); ``only`` >= 0 restricts the
    greedy and heuristic bots to the moves of that card whose collection holds exactly
    ``chosen`` among the table cards in ``below`` (a play half chosen)."""
    seat = iv[b, TURN]
    hand = uv[b, seat]
    table = uv[b, 2 * n]
    nv = count_table(table & VALUED_U, cards, cnt)
    if kind == 1:  # random: the batch engine's stream choice
        n_legal = legal_count(hand, table, gtg, cnt, nv)
        k = 0
        if n_legal > 1:
            rkey = round_key(game_key(seed, iv[b, GAME]), iv[b, RND])
            k = bounded(draw(rkey, MOVE_BASE + iv[b, NMOVES]), n_legal)
        return kth_move(hand, k, table, gtg, cards, cnt, nv)
    if kind == 3:  # heuristic: capture value minus gift risk (.heuristic.best_move)
        seen = hand | table
        for s in range(n):
            seen |= uv[b, n + s]
        nxt = seat + 1 if seat + 1 < n else 0
        c, t, _ = best_of(hand, table, FULL & ~seen, count(uv[b, nxt]), 52 - iv[b, DEALT],
                          gtg, cards, cnt, nv, only, chosen, below, np.zeros(52, np.int64),
                          np.zeros((53, MAX_TARGET + 1), np.int64), np.zeros(13, np.float64),
                          np.zeros(13, np.int64))
        return c, t
    # greedy: the most valuable collection, else the least valuable discard; ties to the
    # smallest move (card | take << 6)
    best_c, best_t = -1, U0
    best_v = -1e9
    h = hand
    while h != U0:
        c = lowest(h)
        h &= h - np.uint64(1)
        if only >= 0 and c != only:
            continue
        for k in range(ways(c, table, gtg, cnt, nv)):
            t = kth_take(c, k, table, gtg, cards, cnt, nv)
            if t & below != chosen:
                continue
            v = 10.0 + _worth(t | bit(c)) if t != U0 else -_worth(bit(c))
            if v > best_v or (v == best_v and (t < best_t or (t == best_t and c < best_c))):
                best_c, best_t, best_v = c, t, v
    return best_c, best_t


@njit(cache=True)
def vec_bot_actions(kind, seed, n, gtg, iv, uv, out):
    """The next action id of bot ``kind`` for the seat to move in every env: its card,
    or, with a play half chosen (perhaps not as the bot would have), the next card (or
    stop) of the collection it likes best among those still open to that play.
    ``random`` completes a half-chosen play as ``greedy`` would."""
    cards = np.zeros(52, np.int64)
    cnt = np.zeros((53, MAX_TARGET + 1), np.int64)
    for b in range(iv.shape[0]):
        pc = iv[b, PCARD]
        chosen = uv[b, 2 * n + 1] if pc >= 0 else U0
        below = _below(iv[b, PLAST]) if pc >= 0 else U0
        c, t = _bot_move(b, kind if (kind != 1 or pc < 0) else 2, seed, n, gtg, iv, uv,
                         cards, cnt, pc, chosen, below)
        if pc < 0:
            out[b] = c
        else:
            rest = t & ~uv[b, 2 * n + 1]
            out[b] = STOP if rest == U0 else TAKE_BASE + lowest(rest)


@njit(cache=True)
def _bots_play(b, bots, seed, n, gtg, shared_ties, rounds, reward_score, iv, uv, sv, decks,
               order, taken, score, rew, cards, cnt):
    while iv[b, OVER] == 0 and iv[b, TURN] != iv[b, LEARNER]:
        c, t = _bot_move(b, bots[iv[b, TURN]], seed, n, gtg, iv, uv, cards, cnt)
        _apply(b, c, t, seed, n, shared_ties, rounds, reward_score, iv, uv, sv, decks, order,
               taken, score, rew)


@njit(cache=True)
def _observe(b, seat, out, off, n, gtg, shared_ties, rounds, info, iv, uv, sv, order, taken):
    """Seat ``seat``'s observation vector, as :class:`.env.FantiObservation` writes it."""
    for i in range(out.shape[1]):
        out[b, i] = 0.0
    over = iv[b, OVER] == 1
    hand = uv[b, seat]
    table = uv[b, 2 * n]
    seen = hand | table
    for s in range(n):
        seen |= uv[b, n + s]
    _put(out, b, off[0], hand, 1.0)
    _put(out, b, off[1], table, 1.0)
    _put(out, b, off[3], FULL & ~seen, 1.0)
    best = sv[b, 0]
    for s in range(1, n):
        best = max(best, sv[b, s])
    for j in range(n):
        s = (seat + j) % n
        _put(out, b, off[2] + j * 52, uv[b, n + s], 1.0)
        out[b, off[4] + j] = count(uv[b, s]) / 4
        out[b, off[9] + j] = min(best - sv[b, s], BEHIND_CAP) / BEHIND_CAP
    out[b, off[5]] = (52 - iv[b, DEALT]) / 48
    if iv[b, LAST] >= 0:
        out[b, off[6] + (iv[b, LAST] - seat) % n] = 1.0
    if not over:
        out[b, off[7] + (iv[b, TURN] - seat) % n] = 1.0
    out[b, off[8] + (iv[b, DEALER] - seat) % n] = 1.0
    out[b, off[10]] = max(rounds - iv[b, RND] - 1, 0) / rounds
    if iv[b, PCARD] >= 0:
        out[b, off[11] + iv[b, PCARD]] = 1.0
        _put(out, b, off[12], uv[b, 2 * n + 1], 1.0)
    out[b, off[13]] = 1.0 if shared_ties else 0.0
    out[b, off[13] + 1] = 0.0 if gtg else 1.0
    if info:
        for c in range(52):
            o = order[b, c]
            if o > 0:
                out[b, off[14] + (((o - 1) % n - seat) % n) * 52 + c] = 1.0
                out[b, off[15] + c] = ((o - 1) // n) / 48
            if taken[b, c] > 0:
                out[b, off[16] + c] = taken[b, c] / 49


@njit(cache=True)
def _observe_and_mask(b, seat, obs, off, mask, n, gtg, shared_ties, rounds, info, iv, uv, sv,
                      order, taken, cards, cnt):
    _observe(b, seat, obs, off, n, gtg, shared_ties, rounds, info, iv, uv, sv, order, taken)
    if iv[b, OVER] == 1 or iv[b, TURN] != seat:
        for a in range(mask.shape[1]):
            mask[b, a] = False
    else:
        _action_mask(b, n, gtg, iv, uv, cards, cnt, mask[b])


@njit(cache=True)
def _first_illegal(actions, n, gtg, iv, uv, cards, cnt):
    row = np.zeros(ACTIONS, np.bool_)
    for b in range(actions.shape[0]):
        a = actions[b]
        if a < 0 or a >= ACTIONS:
            return b
        _action_mask(b, n, gtg, iv, uv, cards, cnt, row)
        if not row[a]:
            return b
    return -1


@njit(cache=True)
def _next_game(b, seed, num_envs, n, gtg, shared_ties, rounds, reward_score, seat, bots,
               selfplay, iv, uv, sv, decks, order, taken, score, rew, cards, cnt):
    """Start env ``b``'s next game (``iv[b, GAME] + num_envs``, the module docstring's
    numbering): dealt (FA-3, FA-4), its rewards cleared, the compiled opponents played
    up to the learner's turn. Reset and restart start a game here; ``vec_step``'s
    autoreset does the same steps."""
    iv[b, GAME] += num_envs
    _start_game(b, seed, n, seat, iv, uv, sv, decks, order, taken)
    for s in range(n):
        rew[b, s] = 0.0
    if not selfplay:
        _bots_play(b, bots, seed, n, gtg, shared_ties, rounds, reward_score, iv, uv, sv,
                   decks, order, taken, score, rew, cards, cnt)


@njit(cache=True)
def vec_step(actions, seed, num_envs, n, gtg, shared_ties, rounds, reward_score, seat, bots,
             selfplay, max_steps, iv, uv, sv, decks, order, taken, score, rew, obs, off, info,
             mask, reward, rewards, terminated, truncated, final_obs, actor):
    cards = np.zeros(52, np.int64)
    cnt = np.zeros((53, MAX_TARGET + 1), np.int64)
    for b in range(num_envs):
        for s in range(n):
            rew[b, s] = 0.0
        me = iv[b, TURN]
        actor[b] = me
        _act(b, actions[b], seed, n, gtg, shared_ties, rounds, reward_score, iv, uv, sv, decks,
             order, taken, score, rew, cards, cnt)
        iv[b, STEPS] += 1
        if not selfplay:
            me = iv[b, LEARNER]
            _bots_play(b, bots, seed, n, gtg, shared_ties, rounds, reward_score, iv, uv, sv,
                       decks, order, taken, score, rew, cards, cnt)
        reward[b] = rew[b, me]
        for s in range(n):
            rewards[b, s] = rew[b, s]
        terminated[b] = iv[b, OVER] == 1
        truncated[b] = not terminated[b] and max_steps > 0 and iv[b, STEPS] >= max_steps
        if terminated[b] or truncated[b]:
            _observe(b, me, final_obs, off, n, gtg, shared_ties, rounds, info, iv, uv, sv, order,
                     taken)
            # _next_game's steps written out: called from here, it cost self-play ~5% of
            # its steps a second (paired runs), though a game ends one step in ~240; with
            # _next_game inline="always", 18% (compare_revisions --only 'vector fanti')
            iv[b, GAME] += num_envs
            _start_game(b, seed, n, seat, iv, uv, sv, decks, order, taken)
            for s in range(n):
                rew[b, s] = 0.0
            if not selfplay:
                _bots_play(b, bots, seed, n, gtg, shared_ties, rounds, reward_score, iv, uv, sv,
                           decks, order, taken, score, rew, cards, cnt)
        nxt = iv[b, TURN] if selfplay else iv[b, LEARNER]
        _observe_and_mask(b, nxt, obs, off, mask, n, gtg, shared_ties, rounds, info, iv, uv, sv,
                          order, taken, cards, cnt)


@njit(cache=True)
def vec_restart(envs, seed, num_envs, n, gtg, shared_ties, rounds, reward_score, seat, bots,
                selfplay, iv, uv, sv, decks, order, taken, score, rew, obs, off, info, mask):
    """Start the next game of each env in ``envs`` and observe it: every env at a reset
    (:meth:`FantiVector.reset`), or one whose game an illegal action abandons
    (``illegal_action="terminate"``), as the autoreset of ``vec_step``."""
    cards = np.zeros(52, np.int64)
    cnt = np.zeros((53, MAX_TARGET + 1), np.int64)
    for b in envs:
        _next_game(b, seed, num_envs, n, gtg, shared_ties, rounds, reward_score, seat, bots,
                   selfplay, iv, uv, sv, decks, order, taken, score, rew, cards, cnt)
        nxt = iv[b, TURN] if selfplay else iv[b, LEARNER]
        _observe_and_mask(b, nxt, obs, off, mask, n, gtg, shared_ties, rounds, info, iv, uv, sv,
                          order, taken, cards, cnt)


class FantiVector:
    """The state of ``num_envs`` Fanti games and the calls that step them."""

    num_actions = ACTIONS
    bot_names = tuple(BOTS)

    def __init__(self, num_envs: int, players: int, rules: dict[str, Any], seat: int,
                 opponents: list[str], reward: str, info_state: bool, max_steps: int) -> None:
        self.num_envs, self.players, self.rules = num_envs, players, rules
        self.encoder = FantiObservation(players, info_state)
        self.selfplay = all(o == "self" for o in opponents)
        bots = np.zeros(players, np.int64)
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
        self.args = (players, bool(rules["guardian_takes_guardians"]), rules["ties"] == "shared",
                     int(rules["rounds"]), reward == "score")
        self.info = info_state
        self.max_steps = max_steps
        self.off = np.array([self.encoder.offsets.get(f, 0) for f in FIELDS], np.int64)
        n = num_envs
        self.iv = np.zeros((n, NI), np.int64)
        self.uv = np.zeros((n, 2 * players + 2), np.uint64)
        self.sv = np.zeros((n, players), np.int64)
        self.decks = np.zeros((n, 52), np.int64)
        self.order = np.zeros((n, 52), np.int64)
        self.taken = np.zeros((n, 52), np.int64)
        self.score = np.zeros(players, np.int64)
        self.rew = np.zeros((n, players), np.float64)
        self.seed = np.uint64(0)
        self._cards = np.zeros(52, np.int64)
        self._cnt = np.zeros((53, MAX_TARGET + 1), np.int64)

    def reset(self, seed: int, obs: np.ndarray, mask: np.ndarray) -> None:
        self.seed = np.uint64(int(seed) & M64)
        envs = np.arange(self.num_envs, dtype=np.int64)
        self.iv[:, GAME] = envs - self.num_envs  # so that the next game of env i is game i
        self.restart(envs, obs, mask)

    def step(self, actions: np.ndarray, obs: np.ndarray, mask: np.ndarray, reward: np.ndarray,
             rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
             final_obs: np.ndarray, actor: np.ndarray) -> None:
        n, gtg, shared, rounds, reward_score = self.args
        bad = _first_illegal(actions, n, gtg, self.iv, self.uv, self._cards, self._cnt)
        if bad >= 0:
            raise ValueError(f"env {bad}: action {int(actions[bad])} is illegal now")
        vec_step(actions, self.seed, self.num_envs, n, gtg, shared, rounds, reward_score,
                 self.seat, self.bots, self.selfplay, self.max_steps, self.iv, self.uv, self.sv,
                 self.decks, self.order, self.taken, self.score, self.rew, obs, self.off,
                 self.info, mask, reward, rewards, terminated, truncated, final_obs, actor)

    def illegal(self, actions: np.ndarray) -> int:
        """The first env whose action is illegal now, or -1."""
        n, gtg = self.args[:2]
        return int(_first_illegal(actions, n, gtg, self.iv, self.uv, self._cards, self._cnt))

    def restart(self, envs: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        """Start the next game of each env in ``envs`` now, observing it into ``obs``."""
        n, gtg, shared, rounds, reward_score = self.args
        vec_restart(np.asarray(envs, np.int64), self.seed, self.num_envs, n, gtg, shared,
                    rounds, reward_score, self.seat, self.bots, self.selfplay, self.iv, self.uv,
                    self.sv, self.decks, self.order, self.taken, self.score, self.rew, obs,
                    self.off, self.info, mask)

    def learner_seats(self) -> np.ndarray:
        return self.iv[:, TURN].copy() if self.selfplay else self.iv[:, LEARNER].copy()

    def bot_actions(self, name: str) -> np.ndarray:
        """(num_envs,) the action id compiled bot ``name`` takes next for the seat to move."""
        out = np.empty(self.num_envs, np.int64)
        n, gtg, _shared, _rounds, _score = self.args
        vec_bot_actions(BOTS[name], self.seed, n, gtg, self.iv, self.uv, out)
        return out

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.iv, self.uv, self.sv, self.decks, self.order,
                                      self.taken, self.rew))


def make(num_envs: int, players: int, rules: dict[str, Any], seat: int, opponents: list[str],
         reward: str, info_state: bool, max_steps: int) -> FantiVector:
    """The vector state for :class:`parlour.envs.vector.ParlourVectorEnv`."""
    return FantiVector(num_envs, players, FANTI.rules(players, rules), seat, opponents, reward,
                       info_state, max_steps)
