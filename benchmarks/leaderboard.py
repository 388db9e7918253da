"""The leaderboard: every shipped bot on a frozen deal set, with 95% intervals.

    nice .venv/bin/python benchmarks/leaderboard.py --deals standard-1000
    .venv/bin/python benchmarks/leaderboard.py --table-only      # the Markdown again, no games

For each game at its usual table size (Fan Tan 4, Fanti 2), each bot plays one seat
against the reference opponent (``--against``, default ``heuristic``) in the others, as
``parlour tournament GAME --deals SET --bots BOT,heuristic`` does: every deal once per
seat rotation, one round a game. Each run's results file (``parlour-results/1``, the
tournament's ``summary.json``) is kept as ``benchmarks/results/leaderboard-*.json`` and the
table ``benchmarks/leaderboard.md`` is written from those files alone, so it can be
regenerated, checked and extended bot by bot (``--bots``). Your own agent enters the
same way: ``--bots mine.npz`` or ``--bots cmd:./mybot`` (docs/arena.md).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from parlour.arena.deals import deal_set
from parlour.arena.tournament import RESULTS_FORMAT, Tournament
from parlour.bots import bot_names
from parlour.games import get_game

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
TABLE = HERE / "leaderboard.md"
GAMES = ("fantan", "fanti")
SKIP = {"easy", "medium", "pimc", "ismcts"}
"""Names that are another bot under a second name (easy = greedy, medium = heuristic) or
research engines at an arbitrary budget; the levels and ``learned`` are all listed."""


def _file(game: str, bot: str, deals: str, against: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in bot)
    return RESULTS / f"leaderboard-{game}-{deals}-vs-{against}-{safe}.json"


def run(bots: list[str] | None, deals: str, against: str, workers: int,
        games: tuple[str, ...] = GAMES) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    for game in games:
        g = get_game(game)
        names = bots or [b for b in bot_names(game) if b not in SKIP]
        for bot in names:
            t = Tournament(game, g.usual_players, [bot, against], 0, rules={},
                           deal_set=deals)
            summary = t.run(workers=workers).summary()
            _file(game, bot, deals, against).write_text(json.dumps(summary, indent=1) + "\n")
            print(f"{game} {bot}: {summary['entries'][0]['win_rate']:.3f}", flush=True)


def table() -> str:
    """The Markdown leaderboard from the results files."""
    rows: dict[tuple[str, str, str], list[dict]] = {}
    for path in sorted(RESULTS.glob("leaderboard-*.json")):
        s = json.loads(path.read_text())
        if s.get("format") != RESULTS_FORMAT or not s.get("deal_set"):
            continue
        key = (s["game"], s["deal_set"], s["lineup"][1])
        rows.setdefault(key, []).append(s)
    out = ["# Leaderboard", "",
           "Every shipped bot in one seat against the reference opponent in the others, on a "
           "frozen deal set (each deal once per seat rotation, one round a game). Win rate of "
           "the bot's seat with its 95% interval clustered by deal; a seat's fair share is "
           "1/players. Regenerate: `python benchmarks/leaderboard.py --deals standard-1000` "
           "(runs the games, then writes this file); `--table-only` rewrites it from "
           "`benchmarks/results/leaderboard-*.json` (the tournaments' results files).", ""]
    for (game, deals, against), runs in sorted(rows.items()):
        first = runs[0]
        found = deal_set(deals)
        out += [f"## {get_game(game).title}, {first['players']} players, against "
                f"`{against}`, deal set `{deals}`", "",
                f"{found.deals} deals x {first['players']} rotations = {first['games']} games "
                f"a bot; deals sha256 `{first['deal_sha256']}`; fair share "
                f"{first['fair_share']:.3f}.", "",
                "| bot | games | wins | win rate | 95% CI | mean score |",
                "|---|---|---|---|---|---|"]
        ranked = sorted(runs, key=lambda s: -s["entries"][0]["win_rate"])
        for s in ranked:
            e = s["entries"][0]
            bot = next(b for b in s["bots"] if b["name"] == e["bot"])
            out.append(f"| `{e['bot']}` | {e['games']} | {e['wins']:g} | {e['win_rate']:.3f} | "
                       f"{e['ci95'][0]:.3f}-{e['ci95'][1]:.3f} | {bot['mean_score']:.2f} |")
        missing = [b for b in bot_names(game) if b not in SKIP
                   and b not in {s["entries"][0]["bot"] for s in runs}]
        if missing:
            out += ["", f"Not run on this set yet: {', '.join(f'`{b}`' for b in missing)} "
                    f"(`--bots {','.join(missing)}` adds {'them' if len(missing) > 1 else 'it'})."]
        out.append("")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", default="standard-1000")
    ap.add_argument("--against", default="heuristic")
    ap.add_argument("--bots", default=None, help="comma-separated (default: every shipped bot)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--games", default=",".join(GAMES),
                    help="comma-separated games to run (default: both); the table keeps all")
    ap.add_argument("--table-only", action="store_true")
    args = ap.parse_args()
    if not args.table_only:
        games = tuple(g for g in args.games.split(",") if g)
        unknown = [g for g in games if g not in GAMES]
        if unknown:
            ap.error(f"--games: {', '.join(unknown)} not in {', '.join(GAMES)}")
        run(args.bots.split(",") if args.bots else None, args.deals, args.against, args.workers,
            games)
    TABLE.write_text(table() + "\n")
    print(f"wrote {TABLE}")


if __name__ == "__main__":
    main()
