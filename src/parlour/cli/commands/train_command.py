"""``parlour train``: train the ``learned`` bot's network (imitation, then PPO)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from parlour.cli.app import app
from parlour.cli.common import (
    UsageError,
    fail,
    game_argument,
    resolve_game,
    resolve_players,
    resolve_rules,
    stderr,
    stdout,
    usage_errors,
)
from parlour.cli.options import SeatsOption
from parlour.cli.paths import check_output_file


def log_chain(log: Path) -> list[Path]:
    """``log`` and, before it, the logs of the runs its ``--init`` weights came from (when
    they lie beside those weights), oldest first."""
    chain = [log]
    while True:
        first = json.loads(chain[0].read_text().splitlines()[0]).get("config", {})
        init = first.get("init_weights")
        prev = Path(init).with_suffix(".jsonl") if init else None
        if prev is None or not prev.is_file() or prev in chain or len(chain) > 20:
            return chain
        chain.insert(0, prev)


def plot_curves(panels: list[tuple[str, list[Path]]], png: Path) -> None:
    """Learning curves, one panel per ``(title, logs)``: the greedy policy's win share
    against each compiled bot by update, the logs of a chain of runs end to end
    (imitation updates, then PPO updates; dashed lines where a run or phase starts)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 3.8), squeeze=False)
    for ax, (title, logs) in zip(axes[0], panels, strict=True):
        offset, series, starts = 0, {}, []
        for log in logs:
            rows = [json.loads(x) for x in log.read_text().splitlines()][1:]
            phase = None
            for r in rows:
                if r.get("phase") != phase and r.get("phase") not in (None, "start"):
                    phase = r["phase"]
                    starts.append((offset + r["update"] - 0.5, phase))
                for k, v in r.items():
                    if k.startswith("vs_"):
                        series.setdefault(k, []).append((offset + r["update"], v))
            offset += rows[-1]["update"] if rows else 0
        for key in sorted(series):
            pts = series[key]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", label=f"vs {key[3:]}")
        for x, phase in starts[1:]:
            ax.axvline(x, color="grey", lw=0.8, ls="--")
            ax.annotate(phase, (x, 0.02), xycoords=("data", "axes fraction"), fontsize=7,
                        color="grey", rotation=90, va="bottom", ha="right")
        ax.set_title(title)
        ax.set_xlabel("update (imitation, then PPO)")
        ax.set_ylabel("win share of the greedy policy")
        ax.grid(alpha=0.3)
        if series:
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


@app.command("train", short_help="Train the learned bot's network (imitation, then PPO).")
def train(
    game: Annotated[str, game_argument("train a network for")],
    players: SeatsOption = None,
    out: Annotated[Path, typer.Option(
        "--out", "-o", metavar="FILE.npz",
        help="Weights file; the log (FILE.jsonl) and the curve (FILE.png) go beside it.")] =
        Path("learned.npz"),
    expert: Annotated[str, typer.Option(
        help="Compiled bot to imitate first (random, greedy, heuristic).")] = "heuristic",
    imitate: Annotated[int, typer.Option(
        help="Imitation updates (each: one step of --imitate-envs self-play games; 0: none).")]
        = 600,
    imitate_envs: Annotated[int, typer.Option(help="Games side by side while imitating.")] = 1024,
    dagger: Annotated[float, typer.Option(
        help="Share of moves the network makes itself while imitating (DAgger), 0 to 1.")] = 0.5,
    explore: Annotated[float, typer.Option(
        help="Share of random moves while imitating, 0 to 1.")] = 0.05,
    opponents: Annotated[str, typer.Option(
        metavar="BOT,...", help="Compiled opponents for PPO; several take turns by update.")]
        = "heuristic",
    updates: Annotated[int, typer.Option(help="PPO updates (0: imitation only).")] = 200,
    envs: Annotated[int, typer.Option(help="Games side by side in PPO.")] = 256,
    steps: Annotated[int, typer.Option(help="Steps per game per PPO update.")] = 64,
    value_warmup: Annotated[int, typer.Option(
        help="First PPO updates that fit only the value head.")] = 10,
    hidden: Annotated[int, typer.Option(help="Units in each hidden layer.")] = 256,
    lr: Annotated[float, typer.Option(help="PPO learning rate (Adam).")] = 1e-4,
    imitate_lr: Annotated[float, typer.Option(help="Imitation learning rate (Adam).")] = 1e-3,
    ent: Annotated[float, typer.Option(help="PPO entropy bonus.")] = 0.003,
    reward: Annotated[str, typer.Option(
        help="PPO reward: score (the signed round score) or result (win or loss).")] = "score",
    reward_scale: Annotated[float, typer.Option(
        help="Rewards are multiplied by this (0.1 suits score-sized rewards).")] = 0.1,
    eval_every: Annotated[int, typer.Option(
        help="Evaluate and save every so many updates (0: only at the end).")] = 50,
    eval_rounds: Annotated[int, typer.Option(help="One-round games per evaluation.")] = 2000,
    keep_checkpoints: Annotated[bool, typer.Option(
        help="Also keep every evaluated checkpoint as FILE-<update>.npz.")] = False,
    init: Annotated[Path | None, typer.Option(
        "--init", metavar="FILE.npz", help="Start from these weights (e.g. an imitation run).")]
        = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of everything.")] = 1,
    rule: Annotated[list[str] | None, typer.Option(
        "--rule", "-r", metavar="KEY=VALUE",
        help="A rule option, e.g. a research variant (repeatable; games are one round).")]
        = None,
    engine: Annotated[str, typer.Option(
        "--engine", metavar="vector|step",
        help="vector: the compiled vector environment; step: the Python engine, move by move "
             "(about 100 times slower; for rules the compiled one refuses).")] = "vector",
) -> None:
    """Train the network of the learned bot on the compiled vector environment.

    First imitation of a compiled bot (DAgger on self-play positions), then masked PPO
    against compiled opponents, both in numpy; one-round games, the learner's seat
    drawn every game. Writes the weights (every evaluation and at the end), a JSON-lines
    log and a PNG learning curve (continuing the curve of the --init run when its log
    lies beside its weights). Seeded: the same command gives the same weights (run
    with OPENBLAS_NUM_THREADS=1). Copy the weights to
    src/parlour/games/GAME/learned_<P>p.npz to ship them (docs/research.md), or enter
    them anywhere as a PATH.npz bot.

    Rules the compiled environment refuses (a research variant) are refused unless
    --engine step is given: that trains on the Python engine, which plays any rules,
    with any bots as expert and opponents, and evaluates against the Python random,
    greedy and heuristic; it says so as it runs, and the log's config records it.
    """
    with usage_errors():
        g = resolve_game(game)
        n = resolve_players(g, players)
        resolve_rules(g, n, rule)  # every pair checked, in words
        given = g.options.parse_pairs(rule)  # only those given go to the config
        if out.suffix != ".npz":
            raise UsageError(f"--out must name a .npz file, not {str(out)!r}")
        if not out.parent.is_dir():
            raise UsageError(f"--out: the folder {str(out.parent)!r} does not exist")
        for path in (out, out.with_suffix(".jsonl"), out.with_suffix(".png")):
            check_output_file(path)  # the weights, the log and the plot, before any work
        if init is not None and init.is_dir():
            raise UsageError(f"--init: {str(init)!r} is a folder, not a weights file")
        if init is not None and not init.is_file():
            raise UsageError(f"--init: no such file {str(init)!r}")
        try:  # the vector environments need gymnasium, which is in the rl extra
            import parlour.envs.vector  # noqa: F401
            from parlour.envs.training import TrainConfig
        except ImportError as e:
            raise UsageError(f"training needs the rl extra (pip install 'parlour[rl]'): {e}") \
                from None
        cfg = TrainConfig(game=g.name, players=n, expert=expert, imitate=imitate,
                          imitate_envs=imitate_envs, dagger=dagger, explore=explore,
                          opponents=opponents, updates=updates, envs=envs, steps=steps,
                          value_warmup=value_warmup, hidden=hidden, lr=lr,
                          imitate_lr=imitate_lr, ent=ent, reward=reward,
                          reward_scale=reward_scale,
                          eval_every=eval_every, eval_rounds=eval_rounds, seed=seed,
                          init_weights=str(init) if init else None,
                          keep_checkpoints=keep_checkpoints, engine=engine.strip().lower(),
                          rules=given)
        try:
            cfg.check()
        except ValueError as e:
            raise UsageError(str(e)) from None
    from parlour.envs.training import run_to_files

    log, png = out.with_suffix(".jsonl"), out.with_suffix(".png")
    last: dict[str, Any] = {}
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[status]}"), TimeElapsedColumn(),
                  console=stderr()) as bar:
        if cfg.engine == "step":  # said, never silent: the slow engine was asked for
            stderr().print("training on the step engine (the Python engine, move by move; "
                           "about 100 times slower than --engine vector)")
        task = bar.add_task(f"training {g.title} {n}p ({cfg.engine} engine)",
                            total=imitate + updates, status="")

        def on_line(line: dict[str, Any]) -> None:
            if line.get("done") or line.get("phase") == "start":
                return
            evals = "  ".join(f"{k[3:]} {v:.3f}" for k, v in line.items() if k.startswith("vs_"))
            if evals:
                last["evals"] = evals
            what = (f"agree {line['agree']:.3f}" if line.get("phase") == "imitate"
                    else f"reward {line.get('mean_reward', 0):+.2f}")
            bar.update(task, advance=1, status=f"{what}  {last.get('evals', '')}")

        try:
            run_to_files(cfg, out, log, on_line)
        except ValueError as e:
            fail(str(e))
    plot_curves([(f"{g.title}, {n} players: learned vs compiled bots", log_chain(log))], png)
    rows = [json.loads(x) for x in log.read_text().splitlines()]
    done = rows[-1]
    console = stdout()
    console.print(f"trained in {done['minutes']:.1f} min on the {cfg.engine} engine: {out} "
                  f"(weights), {log} (log), {png} (curve)")
    evals = [r for r in rows if any(k.startswith("vs_") for k in r)]
    if evals:
        console.print("last evaluation (win share, one-round games): " + ", ".join(
            f"vs {k[3:]} {v:.3f}" for k, v in evals[-1].items() if k.startswith("vs_")))
