"""SO-ISMCTS: single-observer Information Set Monte Carlo Tree Search.

After Cowling, Powley and Whitehouse (2012). One tree is grown for the searching
seat; its nodes are *information sets* reached by public move sequences (every move
in both games is public, so the observer's tree is a tree of move sequences). Each
iteration:

1. **Determinize**: draw a world from the weighted pool (:mod:`.determinize`).
2. **Select**: from the root, while every legal move *in this world* has a child,
   pick the child maximising ``mean + c * sqrt(ln(availability) / visits)``, where
   *availability* counts the iterations in which that child's move was legal (the
   subset-armed bandit of the paper).
3. **Expand** one untried legal move of this world.
4. **Simulate** to the end of the round with the playout policy (the game's
   heuristic with noise ``epsilon``, or uniformly random with ``epsilon=1``).
5. **Backpropagate** each seat's reward -- its share of the round's win plus a
   little for its finishing place (:func:`.models.rewards`) -- to the nodes where
   that seat moved.

Generic over the :class:`~parlour.game.Round` interface; the game enters only through
its :class:`~.models.SearchModel`. The root's children give every legal move's
value: its mean win share over the iterations that tried it; the move played is
the most visited.
"""

from __future__ import annotations

import math
import random
from typing import Any

from parlour.bots.budget import Budget
from parlour.bots.determinize import world_pool
from parlour.bots.models import model_for, noisy, rewards, win_shares
from parlour.bots.pimc import Estimate
from parlour.game import Move


class Node:
    """An information-set node: reached by ``move`` made by ``player``."""

    __slots__ = ("move", "player", "parent", "children", "visits", "avail", "total", "wins")

    def __init__(self, move: Move, player: int, parent: Node | None) -> None:
        self.move = move
        self.player = player
        self.parent = parent
        self.children: dict[Move, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.wins = 0.0


class Ismcts:
    """SO-ISMCTS for one game (see the module docstring)."""

    def __init__(self, game: str, budget: Budget, worlds: int = 48, c: float = 0.7,
                 epsilon: float = 0.1, inference: str | None = None) -> None:
        self.model = model_for(game)
        self.budget = budget
        self.worlds = worlds
        self.c = c
        self.playout = noisy(self.model.policy, epsilon)
        self.inference = self.model.inference if inference is None else inference
        self.determinizer = self.model.determinizer()

    def estimates(self, view: Any, rng: random.Random) -> list[Estimate]:
        """Every legal move with its value (mean win share at the root), best first."""
        clock = self.budget.clock()
        pool = world_pool(self.determinizer, view, self.worlds, rng,
                          self.model.policy, self.inference)
        weights = [w.weight for w in pool]
        root = Node(-1, -1, None)
        c = self.c
        while True:
            world = rng.choices(pool, weights)[0].round
            r = world.copy()
            node = root
            while not r.is_over:
                legal = r.legal_moves()
                untried = [m for m in legal if m not in node.children]
                if untried:
                    m = untried[rng.randrange(len(untried))]
                    child = Node(m, r.current_player, node)
                    node.children[m] = child
                    r.advance(m)
                    node = child
                    break
                best, best_ucb = None, -1.0
                for m in legal:
                    ch = node.children[m]
                    ch.avail += 1
                    ucb = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if ucb > best_ucb:
                        best, best_ucb = ch, ucb
                assert best is not None
                r.advance(best.move)
                node = best
            while not r.is_over:
                r.advance(self.playout(r, rng))
            reward = rewards(r)
            won = win_shares(r)
            while node is not None:
                node.visits += 1
                if node.player >= 0:
                    node.total += reward[node.player]
                    node.wins += won[node.player]
                node = node.parent
            clock.spend()
            if clock.over:
                break
        out = []
        for m in self.model.root_moves(view):
            ch = root.children.get(m)
            seen = ch is not None and ch.visits > 0
            out.append(Estimate(m, ch.wins / ch.visits if seen else 0.0,
                                ch.visits if seen else 0,
                                ch.total / ch.visits if seen else 0.0))
        out.sort(key=lambda e: (-e.samples, -e.value))
        return out
