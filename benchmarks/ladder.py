"""The ladder of levels and an OpenSkill table of every bot, for docs/bots.md.

    nice .venv/bin/python benchmarks/ladder.py --deals 200 --workers 2 --out benchmarks/results/ladder

For each game (Fan Tan 4 players, Fanti 2 players) it plays, on duplicate deals with
seat rotation (the arena's :class:`parlour.arena.tournament.Tournament`):

* the ladder: each level against the one below (``medium`` vs ``easy``, ``hard`` vs
  ``medium``, ``expert`` vs ``hard``; one of the upper level against the rest of the
  table of the lower), with its win rate, 95% CI clustered by deal and the fair share;
* a mixed field of every bot the game offers (``random``, ``easy``, ``medium``,
  ``hard``, ``expert``, ``learned`` if shipped), in line-ups of table size that
  go round the field (each window of table size).

Every game of both parts is rated together with OpenSkill (Plackett-Luce, the
arena's :func:`parlour.arena.stats.ratings`), and the Markdown tables go to stdout
and ``OUT/ladder.md`` (the summaries to ``OUT/*.json``). Bots are seeded, the search
levels at their real budgets (iterations and time limit), so a loaded machine can cut
a search short: quote the run's machine and date with the tables.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import bench_args

from parlour.arena import stats
from parlour.arena.tournament import Tournament
from parlour.bots import bot_names
from parlour.games import get_game

TABLES = (("fantan", 4), ("fanti", 2))
LADDER = (("medium", "easy"), ("hard", "medium"), ("expert", "hard"))
FIELD = ("random", "easy", "medium", "hard", "expert", "learned")


def field(game: str, players: int) -> list[list[str]]:
    """Line-ups of ``players`` distinct bots covering the game's field: every window
    of ``players`` neighbours in :data:`FIELD` order, going round (so each bot meets
    the ones near its level most)."""
    have = [b for b in FIELD if b in bot_names(game)]
    if players >= len(have):
        return [have]
    return [[have[(i + j) % len(have)] for j in range(players)] for i in range(len(have))]


def run(game: str, players: int, bots: list[str], deals: int, seed: int,
        workers: int) -> tuple[dict, list]:
    result = Tournament(game, players, bots, deals, seed=seed).run(workers=workers)
    lower = get_game(game).lower_wins(result.tournament.rules or {})
    rated = [(g.bots, stats.ranks(g.totals, lower)) for g in result.games]
    return result.summary(), rated


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=bench_args.positive, default=200,
                    help="duplicate deals per line")
    ap.add_argument("--field-deals", type=bench_args.positive, default=None,
                    help="deals per mixed-field line-up (default: --deals / 4)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=bench_args.positive, default=1)
    ap.add_argument("--out", default="benchmarks/results/ladder")
    ap.add_argument("--tables", default=",".join(f"{g}:{n}" for g, n in TABLES),
                    help="game:players, comma separated")
    a = ap.parse_args()
    try:
        tables = [(g, int(n)) for g, n in (t.split(":") for t in a.tables.split(","))]
        for game, players in tables:
            get_game(game).rules(players, {})
    except ValueError as e:
        ap.error(f"--tables wants game:players pairs of known games and sizes ({e})")
    out = Path(a.out)
    if out.exists() and not out.is_dir():
        ap.error(f"--out {out} is a file, not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        ap.error(f"--out {out}: cannot make that folder ({e.strerror})")
    field_deals = a.field_deals or max(1, a.deals // 4)
    lines = ["| game | upper | vs | win rate | 95% CI | fair share | CI low above fair |",
             "|---|---|---|---|---|---|---|"]
    skill_rows = []
    for game, players in tables:
        rated_games: list = []
        for upper, lower in LADDER:
            summary, rated = run(game, players, [upper, lower], a.deals, a.seed, a.workers)
            (out / f"{game}{players}-{upper}-vs-{lower}.json").write_text(
                json.dumps(summary, indent=1))
            rated_games += rated
            b = next(x for x in summary["bots"] if x["name"] == upper)
            lo, hi = b["ci95"]
            fair = summary["fair_share"]
            lines.append(f"| {get_game(game).title} {players}p | `{upper}` | "
                         f"{players - 1} `{lower}` | {pct(b['win_rate'])} | "
                         f"{pct(lo)}-{pct(hi)} | {pct(fair)} | "
                         f"{'yes' if lo > fair else 'no'} |")
            print(lines[-1], flush=True)
        for i, lineup in enumerate(field(game, players)):
            summary, rated = run(game, players, lineup, field_deals, a.seed + 1 + i,
                                 a.workers)
            (out / f"{game}{players}-field-{i}.json").write_text(json.dumps(summary, indent=1))
            rated_games += rated
        ratings = stats.ratings(rated_games)
        for name, (mu, sigma) in sorted(ratings.items(), key=lambda kv: -kv[1][0]):
            skill_rows.append(f"| {get_game(game).title} {players}p | `{name}` | {mu:.2f} | "
                              f"{sigma:.2f} | {mu - 3 * sigma:.2f} |")
    skill = ["| game | bot | mu | sigma | mu - 3 sigma |", "|---|---|---|---|---|",
             *skill_rows]
    text = (f"Ladder ({a.deals} duplicate deals a line, seed {a.seed}):\n\n"
            + "\n".join(lines) + f"\n\nOpenSkill over every game above and the mixed "
            f"fields ({field_deals} deals a line-up):\n\n" + "\n".join(skill) + "\n")
    (out / "ladder.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
