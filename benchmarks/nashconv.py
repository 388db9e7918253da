"""NashConv of the shipped bots and of CFR on the solvable variants (docs/research.md).

The small packs (FT-12, FA-11) are small enough for OpenSpiel's tabular algorithms:
this runs ``open_spiel.python.algorithms.cfr`` and ``exploitability.nash_conv`` on
``python_fantan`` / ``python_fanti`` with ``pack: small`` and one round, and measures
each bot as an OpenSpiel policy (its move for the information state of every decision;
``random`` is uniform over the legal actions of each decision)::

    nice python benchmarks/nashconv.py fantan --players 3 --cfr 1,2,4,8 \\
        --bots random,greedy,heuristic,hard --out benchmarks/results/nashconv-fantan.json

A bot is any name ``parlour tournament --bots`` takes, your own agents too: a
``learned`` network trained on the small pack enters as its weights file
(``parlour train ... --rule pack=small --engine step --out W.npz``, then ``--bots W.npz``).
``--add`` puts the new rows into the results already in ``--out`` (a row of the same
policy replaced), so one bot can be measured without running CFR again::

    nice python benchmarks/nashconv.py fanti --players 2 --cfr "" --add \
        --bots benchmarks/results/learned-fanti-2p-small.npz \
        --out benchmarks/results/nashconv-fanti.json

A plot of CFR's NashConv by iterations goes to ``--plot`` (matplotlib, PNG).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import pyspiel
from open_spiel.python import policy as spiel_policy
from open_spiel.python.algorithms import cfr, exploitability

import parlour.envs.openspiel  # noqa: F401  (registers python_fantan, python_fanti)
from parlour.bots.registry import make_bot
from parlour.envs.kit import env_parts


class BotPolicy(spiel_policy.Policy):
    """A parlour bot as an OpenSpiel policy: all probability on the first action of the
    move it chooses for the seat's view (the view is the seat's information)."""

    def __init__(self, game: Any, bot: str, seed: int = 0) -> None:
        super().__init__(game, list(range(game.num_players())))
        self.name = bot
        self.codec = env_parts(game.spec.game.name).codec
        self.game_name = game.spec.game.name
        self.seed = seed
        self.memo: dict[str, dict[int, float]] = {}

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        """Remembered by information state: best responses ask again and again."""
        key = state.information_state_string()
        if key not in self.memo:
            self.memo[key] = self._probabilities(state)
        return self.memo[key]

    def _probabilities(self, state: Any) -> dict[int, float]:
        legal = state.legal_actions()
        core = state.core
        if self.name == "random" or core.pending is not None:
            # random, or a collection already chosen whose next step is forced by it
            if self.name != "random":
                return {legal[0]: 1.0} if len(legal) == 1 else self._pending(state, legal)
            return {a: 1.0 / len(legal) for a in legal}
        rnd = core.round
        bot = make_bot(self.name, self.game_name, self.seed)
        move = bot.choose(rnd.view(rnd.current_player))
        return {self.codec.encode(rnd, move)[0]: 1.0}

    def _pending(self, state: Any, legal: list[int]) -> dict[int, float]:
        """The next step of the collection the bot chose (asked again for the whole move)."""
        core = state.core
        rnd = core.round
        move = make_bot(self.name, self.game_name, self.seed).choose(rnd.view(rnd.current_player))
        path = self.codec.encode(rnd, move)
        step = len(_steps_so_far(core))
        action = path[step] if step < len(path) and path[step] in legal else legal[0]
        return {action: 1.0}


def _steps_so_far(core: Any) -> list[int]:
    """The actions of the collection in progress (the card, then each card chosen)."""
    p = core.pending
    return [p.card, *[c for c in range(52) if p.chosen >> c & 1]]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=("fantan", "fanti"))
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--cfr", default="1,2,4,8", help="CFR iterations to measure at")
    ap.add_argument("--bots", default="random,greedy,heuristic,hard")
    ap.add_argument("--out", default=None)
    ap.add_argument("--plot", default=None)
    ap.add_argument("--add", action="store_true",
                    help="add the rows to the results in --out (same policy: replaced)")
    args = ap.parse_args(argv)
    players = args.players or (3 if args.game == "fantan" else 2)
    game = pyspiel.load_game(f"python_{args.game}",
                             {"players": players, "pack": "small", "rounds": 1})
    rows: list[dict[str, Any]] = []
    for name in [b for b in args.bots.split(",") if b]:
        t = time.process_time()
        value = exploitability.nash_conv(game, BotPolicy(game, name))
        rows.append({"policy": name, "nash_conv": value, "cpu_s": time.process_time() - t})
        print(json.dumps(rows[-1]), flush=True)
    marks = sorted({int(x) for x in args.cfr.split(",") if x})
    t = time.process_time()
    solver = cfr.CFRSolver(game) if marks else None
    done = 0
    for n in marks:
        while done < n:
            solver.evaluate_and_update_policy()  # type: ignore[union-attr]
            done += 1
        value = exploitability.nash_conv(game, solver.average_policy())  # type: ignore[union-attr]
        rows.append({"policy": f"cfr-{n}", "iterations": n, "nash_conv": value,
                     "cpu_s": time.process_time() - t})
        print(json.dumps(rows[-1]), flush=True)
    result = {"game": args.game, "players": players, "rules": {"pack": "small", "rounds": 1},
              "rows": rows}
    if args.add and args.out:
        result = merged(_load(args.out), result)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    if args.plot:
        plot([result], args.plot)
    return result


def _load(path: str) -> dict[str, Any]:
    with open(path) as f:
        return json.load(f)


def merged(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """``old``'s rows with ``new``'s added, a policy measured again replaced in place;
    the bots first, then CFR by iterations (as a full run writes them)."""
    if (old["game"], old["players"], old["rules"]) != (new["game"], new["players"],
                                                       new["rules"]):
        raise SystemExit("--add: the results in --out are of another game or table")
    rows = {r["policy"]: r for r in old["rows"]}
    rows.update({r["policy"]: r for r in new["rows"]})
    ordered = sorted(rows.values(), key=lambda r: ("iterations" in r, r.get("iterations", 0)))
    return {**old, "rows": ordered}


def label(policy: str) -> str:
    """A row's short name: a weights file by its file name (``learned`` for the
    ``learned-*.npz`` files that ``parlour train`` made on the small packs)."""
    name = policy.rsplit("/", 1)[-1]
    return "learned" if name.startswith("learned") and name.endswith(".npz") else name


def plot(results: list[dict[str, Any]], path: str) -> None:
    """CFR's NashConv by iterations, one line per game; the bots as dotted levels, the
    bots of one game at one level named together, the names kept apart (symmetric-log
    axis, so 0 is drawn)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.8))
    right, notes = 1, []
    for res in results:
        cfr_rows = [r for r in res["rows"] if "iterations" in r]
        line, = ax.plot([r["iterations"] for r in cfr_rows], [r["nash_conv"] for r in cfr_rows],
                        marker="o", label=f"{res['game']} {res['players']}p: CFR average policy")
        right = max(right, cfr_rows[-1]["iterations"])
        levels: dict[float, list[str]] = {}
        for r in res["rows"]:
            if "iterations" not in r:
                levels.setdefault(round(r["nash_conv"], 3), []).append(label(r["policy"]))
        for value, names in levels.items():
            ax.axhline(value, color=line.get_color(), linestyle=":", linewidth=0.8)
            notes.append((value, f"{res['game']}: {', '.join(names)}", line.get_color()))
    ax.set_xscale("log", base=2)
    ax.set_yscale("symlog", linthresh=1e-3)
    ax.set_xlim(0.8, right * 16)
    ax.set_ylim(-1e-4, 2.0)
    to_axes = ax.transAxes.inverted()
    last = 2.0
    for value, text, color in sorted(notes, key=lambda n: -n[0]):
        y = to_axes.transform(ax.transData.transform((right, value)))[1]
        y = min(y, last - 0.045)  # a line of text below the name above it
        last = y
        ax.annotate(text, (right * 1.3, value), xytext=(0.74, y), textcoords="axes fraction",
                    fontsize=7, color=color, va="center",
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5})
    ax.set_xlabel("CFR iterations")
    ax.set_ylabel("NashConv (sum of best-response gains)")
    ax.set_title("Solvable variants (pack: small, one round): CFR and the bots (dotted)")
    ax.legend(fontsize=8, loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
