"""Nopython kernels of the fast Fan Tan search (:mod:`.search`).

Everything a ``hard`` decision spends its time on, compiled with numba:

* :func:`best_card`: the ``heuristic`` bot's choice (:func:`.heuristic.best_card`)
  from precomputed lane tables -- the same card for every (hand, legal);
* :func:`seat_loglik` and :func:`sample_pool`: the tempered Metropolis posterior of
  :mod:`.infer` over the *current* hidden hands, within the hard constraints
  (hand sizes, strict pass voids);
* :func:`evaluate`: paired heuristic playouts from the current state, or the late
  exact best response (only the searching seat branches, the others play the
  heuristic), scored as :func:`parlour.bots.models.rewards` and
  :func:`parlour.bots.models.win_shares` (FT-6..FT-8 through the batch kernel's scoring).

Masks are ``uint64``; every constant mixed with them is a ``np.uint64`` (numba turns
``uint64 op int64`` into float64). Random numbers come from a counter-based
splitmix64 stream, so a seed reproduces a run exactly.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.batch.bitops import GAMMA, U0, U1, bit, bounded, count, kth_card, lowest, mix64
from parlour.bots.models import PLACING
from parlour.game import PASS
from parlour.games.fantan.kernel import (
    BLOCKED,
    legal_options,
    pass_turn,
    play_card,
    round_score,
    withhold,
)
from parlour.games.fantan.lanes import LANES

S11 = np.uint64(11)


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Lane tables indexed ``[ace_high, card, lane, position]`` (see :mod:`.lanes`)."""
    cards_ = np.full((2, 52, 2, 7), -1, np.int64)
    prefix = np.zeros((2, 52, 2, 7), np.uint64)
    length = np.zeros((2, 52, 2), np.int64)
    masks = np.zeros((2, 52, 2), np.uint64)
    for f in (0, 1):
        for c in range(52):
            for li, lane in enumerate(LANES[bool(f)][c]):
                m = 0
                for i, x in enumerate(lane):
                    m |= 1 << x
                    cards_[f, c, li, i] = x
                    prefix[f, c, li, i] = m
                length[f, c, li] = len(lane)
                masks[f, c, li] = m
    return cards_, prefix, length, masks


LANE_CARDS, LANE_PREFIX, LANE_LEN, LANE_MASK = _tables()
"""Card at each lane position, prefix masks, lane lengths and lane masks."""


# --- the heuristic ------------------------------------------------------------------


@njit(inline="always", cache=True)
def card_key(c, hand, af, lc, lp, ll, lm):
    """:func:`.heuristic.card_key` packed in one int, ordered the same way."""
    need = 0
    own = 0
    release = 0
    exposed = 0
    for li in range(2):
        n = ll[af, c, li]
        if n == 0:
            continue
        mask = lm[af, c, li]
        if hand & mask:
            far = n - 1
            while not hand & bit(lc[af, c, li, far]):
                far -= 1
            o = count(lp[af, c, li, far] & hand)
            own += o
            need += far + 1 - o
        if not hand & bit(lc[af, c, li, 0]):
            release += 1
            exposed += count(mask & ~hand)
    if need > 0:
        a, b, d, cls = need, -release, own, 2
    elif release == 0:
        a, b, d, cls = -own, 0, 0, 1
    else:
        a, b, d, cls = -release, -exposed, 0, 0
    return ((cls * 64 + a + 32) * 64 + b + 32) * 64 + d + 32


@njit(cache=True)
def best_card(hand, legal, af, lc, lp, ll, lm):
    """The heuristic's card among ``legal`` (non-empty): highest key, lowest card on ties."""
    best = -1
    best_key = -1
    m = legal
    while m:
        c = lowest(m)
        m &= m - U1
        k = card_key(c, hand, af, lc, lp, ll, lm)
        if k > best_key:
            best, best_key = c, k
    return best


@njit(inline="always", cache=True)
def policy(hand, legal, af, lc, lp, ll, lm):
    """:func:`.heuristic.round_policy` given the legal cards: PASS if none."""
    if legal == U0:
        return PASS
    if not legal & (legal - U1):
        return lowest(legal)
    return best_card(hand, legal, af, lc, lp, ll, lm)


# --- random stream ------------------------------------------------------------------


@njit(inline="always", cache=True)
def _next(st):
    st[0] += GAMMA
    return mix64(st[0])


@njit(inline="always", cache=True)
def _uniform(st):
    return np.float64(_next(st) >> S11) * (1.0 / 9007199254740992.0)


@njit(inline="always", cache=True)
def _below(st, n):
    return bounded(_next(st), n)


# --- likelihood and the posterior ------------------------------------------------------


@njit(cache=True)
def seat_loglik(hand, lo, hi, dplay, dchosen, dlater, af, hit, logeps, logmiss,
                lc, lp, ll, lm):
    """:meth:`.infer.Likelihood.seat` over decisions ``lo .. hi - 1``.

    With ``k`` playable cards, ``hit[k]`` is the log-probability of the heuristic's
    card and ``logmiss[k]`` of any other one (the seat's model: :mod:`.opponents`);
    ``logeps`` is that of a withholding pass.
    """
    out = 0.0
    for i in range(lo, hi):
        held = hand | dlater[i]
        legal = held & dplay[i]
        k = count(legal)
        if dchosen[i] == PASS:
            if k:
                out += logeps
            continue
        if k < 2:
            continue
        if best_card(held, legal, af, lc, lp, ll, lm) == dchosen[i]:
            out += hit[k]
        else:
            out += logmiss[k]
    return out


@njit(cache=True)
def _greedy_deal(st, unseen, seats, sizes, voids, hands, tries):
    """A first deal of ``unseen`` cards to ``seats`` with their sizes and voids, most
    constrained card first, seats chosen in proportion to their free places
    (:func:`.determinize.sample_hands`); False if every try dead-ends."""
    nc = unseen.shape[0]
    k = seats.shape[0]
    keys = np.empty(nc, np.float64)
    for j in range(nc):
        a = 0
        for i in range(k):
            if not voids[seats[i]] & bit(unseen[j]):
                a += 1
        keys[j] = a + _uniform(st)
    order = np.argsort(keys)
    free = np.empty(k, np.int64)
    for _ in range(tries):
        for i in range(k):
            free[i] = sizes[i]
            hands[seats[i]] = U0
        ok = True
        for jj in range(nc):
            c = unseen[order[jj]]
            tot = 0
            for i in range(k):
                if free[i] > 0 and not voids[seats[i]] & bit(c):
                    tot += free[i]
            if tot == 0:
                ok = False
                break
            r = _below(st, tot)
            for i in range(k):
                if free[i] > 0 and not voids[seats[i]] & bit(c):
                    if r < free[i]:
                        hands[seats[i]] |= bit(c)
                        free[i] -= 1
                        break
                    r -= free[i]
        if ok:
            return True
    return False


@njit(cache=True)
def _chain(st, hands, seats, voids, ll_seat, steps, beta, use_like, dlo, dhi, dplay,
           dchosen, dlater, af, hit, logeps, logmiss, lc, lp, ll, lm, use_prior, prior):
    """``steps`` Metropolis swap proposals between two of ``seats`` (in place):
    :func:`.infer.metropolis`, likelihood skipped when ``use_like`` is false
    (then every allowed swap is accepted: the uniform chain over consistent deals).
    With ``use_prior``, a world's log-weight also gains ``prior[seat, card]`` for
    every card it deals to ``seat`` (untempered: :mod:`.cardnet`'s learned prior)."""
    k = seats.shape[0]
    if k < 2:
        return
    for _ in range(steps):
        ia = _below(st, k)
        ib = _below(st, k - 1)
        if ib >= ia:
            ib += 1
        a, b = seats[ia], seats[ib]
        ha, hb = hands[a], hands[b]
        if ha == U0 or hb == U0:
            continue
        x = kth_card(ha, _below(st, count(ha)))
        y = kth_card(hb, _below(st, count(hb)))
        if voids[b] & bit(x) or voids[a] & bit(y):
            continue
        na = (ha & ~bit(x)) | bit(y)
        nb = (hb & ~bit(y)) | bit(x)
        if not use_like:
            if not use_prior:
                hands[a], hands[b] = na, nb
                continue
            dp = prior[b, x] + prior[a, y] - prior[a, x] - prior[b, y]
            if dp >= 0 or _uniform(st) < np.exp(dp):
                hands[a], hands[b] = na, nb
            continue
        la = seat_loglik(na, dlo[a], dhi[a], dplay, dchosen, dlater, af, hit[a], logeps,
                         logmiss[a], lc, lp, ll, lm)
        lb = seat_loglik(nb, dlo[b], dhi[b], dplay, dchosen, dlater, af, hit[b], logeps,
                         logmiss[b], lc, lp, ll, lm)
        delta = beta * (la + lb - ll_seat[a] - ll_seat[b])
        if use_prior:
            delta += prior[b, x] + prior[a, y] - prior[a, x] - prior[b, y]
        if delta >= 0 or _uniform(st) < np.exp(delta):
            hands[a], hands[b] = na, nb
            ll_seat[a], ll_seat[b] = la, lb


@njit(cache=True)
def sample_pool(seed, out, chain_hands, chain_ll, fresh, start, dealt, unseen, seats, sizes,
                voids, burn, thin, beta, use_like, dlo, dhi, dplay, dchosen, dlater, af,
                hit, logeps, logmiss, lc, lp, ll, lm, use_prior, prior):
    """Fill ``out[w, seat]`` with ``out.shape[0]`` worlds (current hands) from the
    chains whose states are ``chain_hands[c, seat]`` (log-likelihoods in
    ``chain_ll``), in turn, each advanced by ``thin`` steps per world. ``hit`` and
    ``logmiss`` are per seat (rows) as in :func:`seat_loglik`.

    With ``fresh``, every chain is first dealt by :func:`_greedy_deal` from ``start``
    (which holds the known hands) -- or, with ``dealt``, starts from the full deal in
    ``start`` -- and burnt in ``burn`` steps. The chains keep their states for the
    next pool of the same decision. Returns False when no first deal was found (the
    caller then deals one in Python and passes ``dealt``).
    """
    st = np.empty(1, np.uint64)
    st[0] = seed
    chains = chain_hands.shape[0]
    n = start.shape[0]
    if fresh:
        for c in range(chains):
            hands = chain_hands[c]
            for s in range(n):
                hands[s] = start[s]
            if not dealt and not _greedy_deal(st, unseen, seats, sizes, voids, hands, 20):
                return False
            if use_like:
                for i in range(seats.shape[0]):
                    s = seats[i]
                    chain_ll[c, s] = seat_loglik(hands[s], dlo[s], dhi[s], dplay, dchosen,
                                                 dlater, af, hit[s], logeps, logmiss[s], lc,
                                                 lp, ll, lm)
            _chain(st, hands, seats, voids, chain_ll[c], burn, beta, use_like, dlo, dhi,
                   dplay, dchosen, dlater, af, hit, logeps, logmiss, lc, lp, ll, lm,
                   use_prior, prior)
    for w in range(out.shape[0]):
        c = w % chains
        hands = chain_hands[c]
        _chain(st, hands, seats, voids, chain_ll[c], thin, beta, use_like, dlo, dhi, dplay,
               dchosen, dlater, af, hit, logeps, logmiss, lc, lp, ll, lm, use_prior, prior)
        for s in range(n):
            out[w, s] = hands[s]
    return True


# --- playing on from the current state ------------------------------------------------


@njit(cache=True)
def past_fines(hands, n, chips, pseat, pplay, plater, fines, paid5):
    """FT-8 for the withholdings already made in a world whose current hands are
    ``hands``: a past pass of seat ``pseat[i]`` was one if it held a card of
    ``pplay[i]`` then (its hand now plus ``plater[i, seat]``, the cards it played
    since); each withheld 7 pays 5 to the holders of its 6 and 8."""
    held = np.empty(n, np.uint64)
    for i in range(pseat.shape[0]):
        s = pseat[i]
        for t in range(n):
            held[t] = hands[t] | plater[i, t]
        legal = held[s] & pplay[i]
        if legal != U0:
            withhold(s, legal, held, n, chips, fines, paid5)


@njit(cache=True)
def _outcome(hands, n, dealer, w, chips, passes, fines, paid5, me, score):
    """``(reward, win share)`` of seat ``me`` (FT-7, FT-8, :func:`.models.rewards`)."""
    round_score(score, n, dealer, w, chips, hands, passes, fines, paid5)  # FT-7, FT-8
    sign = 1 if chips else -1
    best = score[0]
    for s in range(1, n):
        if sign * score[s] > sign * best:
            best = score[s]
    ties = 0
    for s in range(n):
        if score[s] == best:
            ties += 1
    share = 1.0 / ties if score[me] == best else 0.0
    beaten = 0
    for o in range(n):
        if sign * score[me] > sign * score[o]:
            beaten += 1
    return share + PLACING * beaten / (n - 1), share


@njit(inline="always", cache=True)
def _first(hands, passes, fines, paid5, world, passes0, f0, p0, n, m, me, table, playable,
           unlock, any_seven, strict, chips, streak0):
    """Copy a world's state into the work arrays and play my move ``m`` there
    (:func:`_mine`)."""
    for s in range(n):
        hands[s] = world[s]
        passes[s] = passes0[s]
        fines[s] = f0[s]
        paid5[s] = p0[s]
    return _mine(hands, passes, fines, paid5, n, m, me, table, playable, unlock, any_seven,
                 strict, chips, streak0)


@njit(inline="always", cache=True)
def _mine(hands, passes, fines, paid5, n, m, me, table, playable, unlock, any_seven, strict,
          chips, streak0):
    """Play my move ``m`` on the work arrays, after ``streak0`` passes in a row: a card
    (FT-3) or a pass (FT-5), the withholding pass of ``strict: false`` fined (FT-8).
    Returns ``(table, playable, winner, streak)``, the winner -1 while the round goes
    on, :data:`~.kernel.BLOCKED` if my pass blocks it (FT-11). The branches touch
    scalars and the arrays are stored after them, at one exit: numba prunes the reference
    counts of arrays handed to an inlined function only then
    (``tests/batch/test_batch_step.py``)."""
    hand = hands[me]
    opens = unlock[m % 52]  # read on every path, without a branch (a pass ignores it)
    charge = 0
    held = U0
    if m == PASS:
        charge, streak, blocked = pass_turn(streak0, n)
        held, _mp = legal_options(hand, table, playable, any_seven, strict)
        w = BLOCKED if blocked else -1
    else:
        hand, table, playable, streak, out = play_card(m, opens, hand, table, playable)
        w = me if out else -1
    hands[me] = hand
    passes[me] += charge
    withhold(me, held, hands, n, chips, fines, paid5)  # held nothing: no fine (FT-8)
    return table, playable, w, streak


@njit(inline="always", cache=True)
def _value(hands, passes, fines, paid5, world, passes0, f0, p0, n, m, me, table,
           playable, dealer, seed, eps, score, unlock, any_seven, strict, chips, af, lc,
           lp, ll, lm, streak0):
    """My ``(reward, win share)`` for move ``m`` in a world: :func:`_first`, then a
    playout (seed ``seed``, replies ``eps``) to the end of the round. ``streak0``: the
    passes in a row before ``m`` (FT-11)."""
    tb, pl, w, streak = _first(hands, passes, fines, paid5, world, passes0, f0, p0, n, m,
                               me, table, playable, unlock, any_seven, strict, chips, streak0)
    if w == -1:
        w = _playout(hands, n, tb, pl, me + 1 if me + 1 < n else 0, passes, fines, paid5,
                     seed, eps, unlock, any_seven, strict, chips, af, lc, lp, ll, lm, streak)
    return _outcome(hands, n, dealer, w, chips, passes, fines, paid5, me, score)


@njit(cache=True)
def _playout(hands, n, table, playable, turn, passes, fines, paid5, seed, eps, unlock,
             any_seven, strict, chips, af, lc, lp, ll, lm, streak):
    """Play on to the end (in place): every seat the heuristic, or with probability
    ``eps[seat]`` a uniformly random legal move. Returns the winner, or
    :data:`~.kernel.BLOCKED` when the passes in a row (``streak`` so far) block the
    round (FT-11)."""
    st = np.empty(1, np.uint64)
    st[0] = seed
    while True:
        hand = hands[turn]
        legal, may_pass = legal_options(hand, table, playable, any_seven, strict)
        if _uniform(st) < eps[turn]:
            k = count(legal)
            j = _below(st, k + (1 if may_pass else 0))
            move = PASS if j == k else kth_card(legal, j)
        else:
            move = policy(hand, legal, af, lc, lp, ll, lm)
        if move == PASS:
            charge, streak, blocked = pass_turn(streak, n)
            passes[turn] += charge
            if legal != U0:
                withhold(turn, legal, hands, n, chips, fines, paid5)
            if blocked:
                return BLOCKED
        else:
            hand, table, playable, streak, out = play_card(move, unlock[move], hand, table,
                                                           playable)
            hands[turn] = hand
            if out:
                return turn
        turn = turn + 1 if turn + 1 < n else 0


@njit(cache=True)
def _advance(hands, n, table, playable, turn, passes, me, unlock, any_seven, strict,
             af, lc, lp, ll, lm, streak):
    """Play the heuristic for the other seats (and forced moves of ``me``) until the
    round ends or ``me`` has two or more cards to choose from. Returns
    ``(winner, table, playable, turn)``; the winner is -1 while the round goes on, and
    :data:`~.kernel.BLOCKED` when the passes in a row (``streak`` so far) block it."""
    while True:
        hand = hands[turn]
        legal, _may = legal_options(hand, table, playable, any_seven, strict)
        if turn == me and legal & (legal - U1):
            return -1, table, playable, turn
        move = policy(hand, legal, af, lc, lp, ll, lm)
        if move == PASS:  # the heuristic passes only when nothing fits: never fined
            charge, streak, blocked = pass_turn(streak, n)
            passes[turn] += charge
            if blocked:
                return BLOCKED, table, playable, turn
        else:
            hand, table, playable, streak, out = play_card(move, unlock[move], hand, table,
                                                           playable)
            hands[turn] = hand
            if out:
                return turn, table, playable, turn
        turn = turn + 1 if turn + 1 < n else 0


@njit(cache=True)
def respond(hands0, n, table0, playable0, turn0, passes0, fines, paid5, dealer, me,
            unlock, any_seven, strict, chips, af, lc, lp, ll, lm, node_cap, streak0):
    """``me``'s best response to the heuristic from a state (:func:`.solver.solve`
    with ``opponents``): only ``me`` branches, over its playable cards (never a
    withholding pass), the heuristic's card first, ties to the earlier move.
    Returns ``(reward, win share, ok)``; ``ok`` is false past ``node_cap`` nodes.
    ``streak0``: the passes in a row before this state (FT-11)."""
    depth_max = 15
    H = np.empty((depth_max, n), np.uint64)
    P = np.empty((depth_max, n), np.int64)
    T = np.empty(depth_max, np.uint64)
    PL = np.empty(depth_max, np.uint64)
    opts = np.empty((depth_max, 13), np.int64)
    nopt = np.zeros(depth_max, np.int64)
    idx = np.zeros(depth_max, np.int64)
    best_r = np.full(depth_max, -1.0)
    best_w = np.zeros(depth_max, np.float64)
    score = np.empty(n, np.int64)
    for s in range(n):
        H[0, s] = hands0[s]
        P[0, s] = passes0[s]
    w, t, pl, _turn = _advance(H[0], n, table0, playable0, turn0, P[0], me, unlock,
                               any_seven, strict, af, lc, lp, ll, lm, streak0)
    if w != -1:
        r, sh = _outcome(H[0], n, dealer, w, chips, P[0], fines, paid5, me, score)
        return r, sh, True
    T[0], PL[0] = t, pl
    nodes = 0
    d = 0
    _setup(H, T, PL, opts, nopt, idx, best_r, 0, me, af, lc, lp, ll, lm)
    while True:
        if idx[d] < nopt[d]:
            nodes += 1
            if nodes > node_cap:
                return 0.0, 0.0, False
            c = opts[d, idx[d]]
            idx[d] += 1
            for s in range(n):
                H[d + 1, s] = H[d, s]
                P[d + 1, s] = P[d, s]
            H[d + 1, me], tb, pl, streak, out = play_card(c, unlock[c], H[d + 1, me], T[d],
                                                          PL[d])
            if out:
                w = me
            else:
                nxt = me + 1 if me + 1 < n else 0
                w, tb, pl, _turn = _advance(H[d + 1], n, tb, pl, nxt, P[d + 1], me, unlock,
                                            any_seven, strict, af, lc, lp, ll, lm, streak)
            if w != -1:
                r, sh = _outcome(H[d + 1], n, dealer, w, chips, P[d + 1], fines, paid5, me,
                                 score)
                if r > best_r[d] + 1e-12:
                    best_r[d], best_w[d] = r, sh
            else:
                T[d + 1], PL[d + 1] = tb, pl
                d += 1
                _setup(H, T, PL, opts, nopt, idx, best_r, d, me, af, lc, lp, ll, lm)
        else:
            if d == 0:
                return best_r[0], best_w[0], True
            r, sh = best_r[d], best_w[d]
            d -= 1
            if r > best_r[d] + 1e-12:
                best_r[d], best_w[d] = r, sh


@njit(inline="always", cache=True)
def _setup(H, T, PL, opts, nopt, idx, best_r, d, me, af, lc, lp, ll, lm):
    hand = H[d, me]
    legal = hand & PL[d]
    first = best_card(hand, legal, af, lc, lp, ll, lm)
    opts[d, 0] = first
    k = 1
    m = legal
    while m:
        c = lowest(m)
        m &= m - U1
        if c != first:
            opts[d, k] = c
            k += 1
    nopt[d] = k
    idx[d] = 0
    best_r[d] = -1.0


@njit(cache=True)
def evaluate(worlds, which, moves, n, table, playable, me, passes0, dealer, seeds, eps,
             exact, late_hand, node_cap, solved, unlock, any_seven, strict, chips,
             pseat, pplay, plater, af, lc, lp, ll, lm, out_r, out_w, streak0):
    """Evaluate every move of ``moves`` in the worlds ``which`` (indices into
    ``worlds``): writes ``out_r[i, j]``, ``out_w[i, j]`` (reward, win share of ``me``).

    ``eps[w, s]`` is seat ``s``'s chance of a random move in world ``w`` (the reply
    model drawn for that world; 1 is a random player). A world is solved exactly
    (:func:`respond`, every other seat answering as the heuristic) when ``exact``,
    ``me`` holds at most ``late_hand`` cards and no other seat plays at random there
    (``eps < 1``); ``solved[i]`` tells the caller so. Otherwise each move gets one
    playout with the seed ``seeds[i]`` (the same noise for every move: paired).
    ``streak0``: the passes in a row on the table before my move (FT-11).
    """
    hands = np.empty(n, np.uint64)
    passes = np.empty(n, np.int64)
    fines = np.empty(n, np.int64)
    paid5 = np.empty(n, np.int64)
    f0 = np.zeros(n, np.int64)
    p0 = np.zeros(n, np.int64)
    score = np.empty(n, np.int64)
    for i in range(which.shape[0]):
        wi = which[i]
        for s in range(n):
            f0[s] = 0
            p0[s] = 0
        if pseat.shape[0]:
            past_fines(worlds[wi], n, chips, pseat, pplay, plater, f0, p0)
        done = False
        ew = eps[wi]
        heuristic_replies = True
        for s in range(n):
            if s != me and ew[s] >= 1.0:
                heuristic_replies = False
        if exact and heuristic_replies and count(worlds[wi, me]) <= late_hand:
            done = True
            for j in range(moves.shape[0]):
                nxt = me + 1 if me + 1 < n else 0
                for s in range(n):  # indexed, not a view of the world per move
                    hands[s] = worlds[wi, s]
                    passes[s] = passes0[s]
                    fines[s] = f0[s]
                    paid5[s] = p0[s]
                tb, pl, w, streak = _mine(hands, passes, fines, paid5, n, moves[j], me, table,
                                          playable, unlock, any_seven, strict, chips, streak0)
                if w != -1:  # I went out, or my pass blocked the round (FT-6, FT-11)
                    r, sh = _outcome(hands, n, dealer, w, chips, passes, fines, paid5, me,
                                     score)
                    ok = True
                else:
                    r, sh, ok = respond(hands, n, tb, pl, nxt, passes, fines, paid5, dealer,
                                        me, unlock, any_seven, strict, chips, af, lc, lp, ll,
                                        lm, node_cap, streak)
                if not ok:
                    done = False
                    break
                out_r[i, j] = r
                out_w[i, j] = sh
        solved[i] = done
        if done:
            continue
        for j in range(moves.shape[0]):
            r, sh = _value(hands, passes, fines, paid5, worlds[wi], passes0, f0, p0, n,
                           moves[j], me, table, playable, dealer, seeds[i], ew, score,
                           unlock, any_seven, strict, chips, af, lc, lp, ll, lm, streak0)
            out_r[i, j] = r
            out_w[i, j] = sh


@njit(cache=True)
def seeing_choices(worlds, legal, n, table, playable, me, passes0, dealer, unlock,
                   any_seven, strict, chips, af, lc, lp, ll, lm, out):
    """The ``search`` player model (:mod:`.opponents`): in each world ``w`` (every
    hand known), ``me``'s card among ``legal[w]`` whose noise-free heuristic playout to
    the end of the round gives ``me`` the best reward (the lowest card on a tie);
    written to ``out[w]``. Past withholding fines are not counted."""
    hands = np.empty(n, np.uint64)
    passes = np.empty(n, np.int64)
    fines = np.empty(n, np.int64)
    paid5 = np.empty(n, np.int64)
    none = np.zeros(n, np.int64)
    score = np.empty(n, np.int64)
    eps = np.zeros(n)
    for w in range(worlds.shape[0]):
        best, best_r = -1, -1.0
        m = legal[w]
        while m:
            c = lowest(m)
            m &= m - U1
            r, _sh = _value(hands, passes, fines, paid5, worlds[w], passes0, none, none, n,
                            c, me, table, playable, dealer, U0, eps, score, unlock,
                            any_seven, strict, chips, af, lc, lp, ll, lm, 0)
            if r > best_r:
                best, best_r = c, r
        out[w] = best


@njit(cache=True)
def info_evaluate(worlds, moves, n, table, playable, me, passes0, dealer, seeds, eps,
                  min_group, unlock, any_seven, strict, chips, pseat, pplay, plater, af,
                  lc, lp, ll, lm, out_r, out_w, streak0):
    """Two of my moves deep, without strategy fusion at the second (``deep:N``).

    For each move ``moves[j]`` and world: play it, let the others answer as the
    heuristic until my next choice (:func:`_advance`), then play out every card I
    could play there (paired, seed ``seeds[w]``, replies ``eps[w]``). Worlds that
    reach the *same public position* (table, hand counts, passes) are one
    information set of mine: the second card is chosen once for all of them, the best
    on their mean -- never per world, which would assume I see the hands. A set of
    fewer than ``min_group`` worlds takes the heuristic's card instead (a max over a
    few noisy worlds would flatter the move). Writes each move's mean reward and win
    share over the worlds to ``out_r[j]``, ``out_w[j]``. ``streak0``: the passes in a
    row on the table before my move (FT-11).
    """
    nw = worlds.shape[0]
    hands = np.empty(n, np.uint64)
    after = np.empty((nw, n), np.uint64)
    passes = np.empty(n, np.int64)
    pas_after = np.empty((nw, n), np.int64)
    fines = np.empty(n, np.int64)
    paid5 = np.empty(n, np.int64)
    f0 = np.zeros((nw, n), np.int64)
    p0 = np.zeros((nw, n), np.int64)
    fin_after = np.empty((nw, n), np.int64)
    pd_after = np.empty((nw, n), np.int64)
    score = np.empty(n, np.int64)
    tab_after = np.empty(nw, np.uint64)
    pl_after = np.empty(nw, np.uint64)
    key = np.empty(nw, np.uint64)
    done_r = np.empty(nw)
    done_w = np.empty(nw)
    over = np.empty(nw, np.bool_)
    R = np.empty((nw, 52))
    Wn = np.empty((nw, 52))
    for wi in range(nw):
        if pseat.shape[0]:
            past_fines(worlds[wi], n, chips, pseat, pplay, plater, f0[wi], p0[wi])
    nxt = me + 1 if me + 1 < n else 0
    for j in range(moves.shape[0]):
        m = moves[j]
        for wi in range(nw):
            tb, pl, win, streak = _first(hands, passes, fines, paid5, worlds[wi], passes0,
                                         f0[wi], p0[wi], n, m, me, table, playable, unlock,
                                         any_seven, strict, chips, streak0)
            if win == -1:
                win, tb, pl, _turn = _advance(hands, n, tb, pl, nxt, passes, me, unlock,
                                             any_seven, strict, af, lc, lp, ll, lm, streak)
            over[wi] = win != -1
            if win != -1:
                r, sh = _outcome(hands, n, dealer, win, chips, passes, fines, paid5, me,
                                 score)
                done_r[wi] = r
                done_w[wi] = sh
                key[wi] = U0
                continue
            for s in range(n):
                after[wi, s] = hands[s]
                pas_after[wi, s] = passes[s]
                fin_after[wi, s] = fines[s]
                pd_after[wi, s] = paid5[s]
            tab_after[wi] = tb
            pl_after[wi] = pl
            # the public position: the table, then every hand count and pass count
            k = mix64(tb ^ mix64(hands[me]))  # my own hand: forced plays may differ
            for s in range(n):
                k = mix64(k ^ np.uint64(count(hands[s]) * 4096 + passes[s]))
            key[wi] = k
            legal, _mp = legal_options(hands[me], tb, pl, any_seven, strict)
            mm = legal
            while mm:
                c = lowest(mm)
                mm &= mm - U1
                r, sh = _value(hands, passes, fines, paid5, after[wi], pas_after[wi],
                               fin_after[wi], pd_after[wi], n, c, me, tb, pl, dealer,
                               seeds[wi], eps[wi], score, unlock, any_seven, strict, chips,
                               af, lc, lp, ll, lm, 0)
                R[wi, c] = r
                Wn[wi, c] = sh
        # choose the second card once per information set
        total_r, total_w = 0.0, 0.0
        order = np.argsort(key)
        i = 0
        while i < nw:
            wi = order[i]
            if over[wi]:
                total_r += done_r[wi]
                total_w += done_w[wi]
                i += 1
                continue
            e = i + 1
            while e < nw and key[order[e]] == key[wi] and not over[order[e]]:
                e += 1
            size = e - i
            legal, _mp = legal_options(after[wi, me], tab_after[wi], pl_after[wi],
                                       any_seven, strict)
            best = -1
            if size >= min_group:
                best_mean = -1.0
                mm = legal
                while mm:
                    c = lowest(mm)
                    mm &= mm - U1
                    acc = 0.0
                    for q in range(i, e):
                        acc += R[order[q], c]
                    if acc / size > best_mean:
                        best, best_mean = c, acc / size
            else:
                best = policy(after[wi, me], legal, af, lc, lp, ll, lm)
            for q in range(i, e):
                total_r += R[order[q], best]
                total_w += Wn[order[q], best]
            i = e
        out_r[j] = total_r / nw
        out_w[j] = total_w / nw
