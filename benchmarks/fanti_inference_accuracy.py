"""Fanti: how many hidden cards the search's worlds place in the right hand, by inference.

    nice -n 19 .venv/bin/python benchmarks/fanti_inference_accuracy.py --players 2 --rounds 60

Plays ``--rounds`` rounds (seat 0 ``heuristic`` unless ``--lineup`` says otherwise; deals
from ``--seed``) and, at seat 0's decisions with a choice after the first play of a
deal (where the deal's plays say something), weighs worlds as ``hard`` does
(:class:`parlour.bots.pimc.Pimc`'s worlds at the view's moment: dealt uniformly, weighed
by the mode's evidence, tempered) and counts the share of the other seats' hidden cards
each weighted world places in the right hand. Modes: ``uniform`` (every world alike),
``full`` (today's: the per-seat opponent mixture over a pool of 16), ``full8`` (the
same likelihood over 8 times as many candidates, resampled to 16: ``NOW_CANDIDATES``),
``learned`` and ``blend`` (the card-location network of :mod:`.cardnet`, alone or times
the model), and ``net``: the network alone, each hand guessed as its likeliest cards.
"""

from __future__ import annotations

import argparse
import random

import bench_args

from parlour.bots import make_bot
from parlour.bots.determinize import temper
from parlour.bots.pimc import NOW_POOL
from parlour.games import get_game
from parlour.games.fanti import cardnet
from parlour.games.fanti.search import NowWorlds, deal_hands

MODES = ("uniform", "full", "full8", "learned", "blend", "net")


def placed(world, true, seats) -> tuple[int, int]:
    return (sum((world[s] & true[s]).bit_count() for s in seats),
            sum(true[s].bit_count() for s in seats))


def score(view, true, mode: str, rng: random.Random) -> float:
    seats = [s for s in range(view.players) if s != view.seat and view.hand_counts[s]]
    now = NowWorlds()
    if mode == "net":
        table = cardnet.load().table(view, None)
        right = total = 0
        for s in seats:
            logit = table[s]
            top = sorted(logit, key=lambda c: -logit[c])[:view.hand_counts[s]]
            right += sum(true[s] >> c & 1 for c in top)
            total += view.hand_counts[s]
        return right / total
    cands = NOW_POOL * (8 if mode in ("full8", "learned", "blend") else 1)
    worlds = [deal_hands(view, rng) for _ in range(cands)]
    if mode == "uniform":
        weights = [1.0 / cands] * cands
    else:
        ev = now.evidence(view, rng, True, {"full8": "full"}.get(mode, mode))
        weights, _b = temper([ev.loglik(w) for w in worlds],
                             min_ess=0.5 if cands == NOW_POOL else NOW_POOL / cands)
    right = total = 0.0
    for w, x in zip(worlds, weights, strict=True):
        r, t = placed(w, true, seats)
        right += x * r
        total += x * t
    return right / total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rounds", type=bench_args.positive, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--lineup", default="heuristic,heuristic,heuristic,heuristic")
    a = ap.parse_args()
    bench_args.check_players(ap, "fanti", a.players)
    names = a.lineup.split(",")
    if len(names) < a.players:
        ap.error(f"--lineup names {len(names)} bots, fewer than the {a.players} players")
    bench_args.check_bots(ap, "fanti", names[:a.players], "--lineup")
    game = get_game("fanti")
    rules = game.rules(a.players, {"rounds": 1})
    sums = {m: 0.0 for m in MODES}
    count = 0
    for k in range(a.rounds):
        rng = random.Random(a.seed * 1000 + k)
        deck = list(range(52))
        rng.shuffle(deck)
        r = game.new_round(rules, a.players, k % a.players, deck)
        bots = [make_bot(names[s], "fanti", a.seed + 17 * k + s) for s in range(a.players)]
        while not r.is_over:
            p = r.current_player
            view = r.view(p)
            per_deal = 4 * a.players
            others = sum(view.hand_counts) - view.hand_counts[p]
            if p == 0 and len(view.legal) > 1 and len(view.history) % per_deal >= 1 and others:
                for m in MODES:
                    sums[m] += score(view, r.hands, m, random.Random(rng.getrandbits(32)))
                count += 1
            r.apply(bots[p].choose(view))
    print(f"Fanti {a.players}p, lineup {a.lineup}, {count} decisions of seat 0, "
          f"rounds {a.rounds}, seed {a.seed}")
    for m in MODES:
        print(f"  {m:8s} {sums[m] / count:.3f}")


if __name__ == "__main__":
    main()
