"""Training the ``learned`` bot: imitation of a compiled bot, then masked PPO, in numpy.

Two phases on the compiled vector environment (:mod:`.vector`), one-round episodes
(the arena's default), the learner's seat drawn every game:

1. **Imitation** (``imitate`` updates): every seat of ``num_envs`` self-play games asks
   the compiled ``expert`` bot for its action (:meth:`.vector.ParlourVectorEnv.bot_actions`)
   and the network is trained to give it (cross-entropy over the legal actions), on a
   small replay of the latest positions. The positions come from a mixture of the
   expert's own play and the network's (DAgger: the network also learns what the
   expert would do where the network, not the expert, leads the game), with some random
   actions for variety. The value head learns the acting seat's round score.
2. **PPO** (``updates``): masked PPO (clipped objective, generalised advantage
   estimation, Adam, a global gradient-norm clip) against compiled ``opponents``
   (``random``, ``greedy``, ``heuristic``, or several, one per update in turn), the
   value head first fitted alone for ``value_warmup`` updates so that the imitated
   policy is not pulled about by a value head that knows nothing yet.

The network (:class:`.learned.MLPPolicy`): two ``tanh`` layers of ``hidden`` units, a
policy head (one logit per action id) and a value head; the gradient is written out
by hand (checked against finite differences in the tests). Every ``eval_every``
updates the greedy policy plays ``eval_rounds`` one-round games against each compiled
bot on fixed deals, and its win share is logged. Everything is seeded: the same
configuration, numpy and one BLAS thread (``OPENBLAS_NUM_THREADS=1``) give the same
weights. ``parlour train`` is the command; ``examples/train_ppo.py`` the PPO phase
alone.

Engines (``engine``): ``"vector"`` (default) trains on the compiled vector environment;
rules it refuses (a research option such as a cut pack) are refused in words, never
trained elsewhere in silence. ``"step"`` trains on the Python engine instead
(:mod:`.step_vector`): the same loop, any rules, opponents and experts any bot name,
evaluation against the Python ``random``, ``greedy`` and ``heuristic`` -- about 100
times slower, for the small variants only.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from parlour.envs.kit import env_parts
from parlour.envs.learned import LAYERS, MLPPolicy

Weights = dict[str, np.ndarray]
COMPILED_ORDER = ("random", "greedy", "heuristic")
ENGINES = ("vector", "step")
"""``vector``: the compiled vector environment; ``step``: the Python engine, move by move."""


def compiled_bots(game: str) -> list[str]:
    """The bots a game's vector environment plays inside its compiled code."""
    parts = env_parts(game)
    if parts.vector is None:
        return []
    bots = importlib.import_module(parts.vector).BOTS
    return [b for b in COMPILED_ORDER if b in bots]


def eval_bots(game: str, engine: str = "vector") -> list[str]:
    """The bots a run evaluates against: the compiled ones, or on the step engine the
    same names as Python bots (those the game has)."""
    if engine == "vector":
        return compiled_bots(game)
    from parlour.bots import bot_names

    names = bot_names(game)
    return [b for b in COMPILED_ORDER if b in names]


def make_vec(game: str, num_envs: int, players: int, opponents: str, reward: str = "result",
             seat: int | None = None, *, engine: str = "vector",
             rules: dict[str, Any] | None = None) -> Any:
    """One-round games side by side: the compiled vector environment, or (``engine=
    "step"``) the Python engine's (:mod:`.step_vector`), with rule options ``rules``."""
    if engine == "step":
        from parlour.envs.step_vector import StepVectorEnv

        return StepVectorEnv(game, num_envs, players, seat=seat, opponents=opponents,
                             episode="round", reward=reward, **(rules or {}))
    from parlour.envs.vector import ParlourVectorEnv

    return ParlourVectorEnv(game, num_envs, players, seat=seat, opponents=opponents,
                            episode="round", reward=reward, **(rules or {}))


# --- the network ----------------------------------------------------------------------


def init(rng: np.random.Generator, size: int, hidden: int, actions: int) -> Weights:
    """Orthogonal initialisation (CleanRL's): policy head small, value head unit gain."""
    def ortho(rows: int, cols: int, gain: float) -> np.ndarray:
        q, _ = np.linalg.qr(rng.standard_normal((max(rows, cols), min(rows, cols))))
        q = q if rows >= cols else q.T
        return (gain * q[:rows, :cols]).astype(np.float32)

    return {"w1": ortho(size, hidden, np.sqrt(2)), "b1": np.zeros(hidden, np.float32),
            "w2": ortho(hidden, hidden, np.sqrt(2)), "b2": np.zeros(hidden, np.float32),
            "wp": ortho(hidden, actions, 0.01), "bp": np.zeros(actions, np.float32),
            "wv": ortho(hidden, 1, 1.0), "bv": np.zeros(1, np.float32)}


def forward(w: Weights, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, ...]:
    """Hidden layers, masked action probabilities and their logs, and the value."""
    h1 = np.tanh(x @ w["w1"] + w["b1"])
    h2 = np.tanh(h1 @ w["w2"] + w["b2"])
    z = h2 @ w["wp"] + w["bp"]
    z = np.where(mask, z, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    logp = np.log(np.maximum(p, 1e-30))
    v = (h2 @ w["wv"] + w["bv"])[:, 0]
    return h1, h2, p, logp, v


def sample(rng: np.random.Generator, p: np.ndarray) -> np.ndarray:
    """One action per row of probabilities ``p``."""
    u = rng.random((p.shape[0], 1))
    return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)


def greedy_actions(w: Weights, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The legal action with the highest logit in every row (how the bot plays)."""
    return np.where(mask, MLPPolicy(w).logits(x), -np.inf).argmax(axis=1)


def _backward(w: Weights, x: np.ndarray, h1: np.ndarray, h2: np.ndarray, g_z: np.ndarray,
              g_v: np.ndarray) -> Weights:
    g = {"wp": h2.T @ g_z, "bp": g_z.sum(0), "wv": h2.T @ g_v, "bv": g_v.sum(0)}
    g_h2 = (g_z @ w["wp"].T + g_v @ w["wv"].T) * (1 - h2 ** 2)
    g["w2"], g["b2"] = h1.T @ g_h2, g_h2.sum(0)
    g_h1 = (g_h2 @ w["w2"].T) * (1 - h1 ** 2)
    g["w1"], g["b1"] = x.T @ g_h1, g_h1.sum(0)
    return g


def ppo_grads(w: Weights, x: np.ndarray, mask: np.ndarray, a: np.ndarray,
              old_logp: np.ndarray, adv: np.ndarray, ret: np.ndarray, clip: float,
              vf_coef: float, ent_coef: float) -> tuple[Weights, float, float]:
    """The PPO loss's gradient by hand; also the mean entropy and the clip fraction."""
    n = len(x)
    h1, h2, p, logp, v = forward(w, x, mask)
    lp_a = logp[np.arange(n), a]
    ratio = np.exp(lp_a - old_logp)
    unclipped = ratio * adv
    # d/dlogp of -min(r A, clip(r) A): -r A where the unclipped term is the smaller
    coef = np.where(unclipped <= np.clip(ratio, 1 - clip, 1 + clip) * adv + 1e-12,
                    -adv * ratio, 0.0)
    g_z = -p * coef[:, None]
    g_z[np.arange(n), a] += coef
    ent = -(p * logp).sum(axis=1)
    g_z += ent_coef * p * (np.where(mask, logp, 0.0) + ent[:, None])
    g_z /= n
    g_v = (vf_coef * (v - ret) / n)[:, None]
    g = _backward(w, x, h1, h2, g_z, g_v)
    return g, float(ent.mean()), float((np.abs(ratio - 1) > clip).mean())


def imitation_grads(w: Weights, x: np.ndarray, mask: np.ndarray, a: np.ndarray,
                    ret: np.ndarray, known: np.ndarray,
                    vf_coef: float) -> tuple[Weights, float, float]:
    """Cross-entropy of the expert's actions ``a``, plus the value's squared error on
    ``ret`` where ``known``; also the loss and the share of rows where the argmax is ``a``."""
    n = len(x)
    h1, h2, p, logp, v = forward(w, x, mask)
    g_z = p.copy()
    g_z[np.arange(n), a] -= 1.0
    g_z /= n
    g_v = (vf_coef * (v - ret) * known / n)[:, None]
    g = _backward(w, x, h1, h2, g_z, g_v)
    loss = float(-logp[np.arange(n), a].mean())
    agree = float((np.where(mask, p, -1.0).argmax(axis=1) == a).mean())
    return g, loss, agree


class Adam:
    """Adam with a global gradient-norm clip; ``only`` limits a step to some arrays."""

    def __init__(self, w: Weights, lr: float, max_norm: float = 0.5) -> None:
        self.lr, self.max_norm, self.t = lr, max_norm, 0
        self.m = {k: np.zeros_like(v) for k, v in w.items()}
        self.s = {k: np.zeros_like(v) for k, v in w.items()}

    def step(self, w: Weights, g: Weights, only: tuple[str, ...] | None = None,
             lr: float | None = None) -> None:
        keys = [k for k in w if only is None or k in only]
        norm = np.sqrt(sum(float((g[k] ** 2).sum()) for k in keys))
        scale = min(1.0, self.max_norm / (norm + 1e-8))
        self.t += 1
        rate = self.lr if lr is None else lr
        for key in keys:
            gk = g[key] * scale
            self.m[key] = 0.9 * self.m[key] + 0.1 * gk
            self.s[key] = 0.999 * self.s[key] + 0.001 * gk ** 2
            mh, sh = self.m[key] / (1 - 0.9 ** self.t), self.s[key] / (1 - 0.999 ** self.t)
            w[key] -= (rate * mh / (np.sqrt(sh) + 1e-5)).astype(np.float32)


def ppo_update(w: Weights, opt: Adam, envs: Any, obs: np.ndarray, info: dict[str, Any],
               rng: np.random.Generator, *, steps: int, reward_scale: float, gamma: float,
               lam: float, epochs: int, minibatch: int, clip: float, vf: float, ent: float,
               only: tuple[str, ...] | None = None, lr: float | None = None,
               ) -> tuple[np.ndarray, dict[str, Any], dict[str, float]]:
    """One PPO update: ``steps`` steps of every game in ``envs`` from ``(obs, info)``,
    advantages by GAE, then ``epochs`` passes of clipped-objective minibatches through
    ``opt`` (``only``/``lr`` as in :meth:`Adam.step`).

    Returns the observation and info to continue from and the update's entropy, clip
    fraction and mean reward an episode (unscaled)."""
    n, T = obs.shape[0], steps
    size, actions = obs.shape[1], info["action_mask"].shape[1]
    xs = np.zeros((T, n, size), np.float32)
    ms = np.zeros((T, n, actions), bool)
    acts = np.zeros((T, n), np.int64)
    lps = np.zeros((T, n), np.float32)
    vals = np.zeros((T + 1, n), np.float32)
    rews = np.zeros((T, n), np.float32)
    dones = np.zeros((T, n), np.float32)
    for k in range(T):
        mask = info["action_mask"]
        _h1, _h2, p, logp, v = forward(w, obs, mask)
        a = sample(rng, p)
        xs[k], ms[k], acts[k], vals[k] = obs, mask, a, v
        lps[k] = logp[np.arange(n), a]
        obs, r, term, trunc, info = envs.step(a)
        rews[k], dones[k] = r * reward_scale, term | trunc
    vals[T] = forward(w, obs, info["action_mask"])[4]
    adv = np.zeros((T, n), np.float32)
    last = np.zeros(n, np.float32)
    for k in reversed(range(T)):
        nonterm = 1.0 - dones[k]
        delta = rews[k] + gamma * vals[k + 1] * nonterm - vals[k]
        last = delta + gamma * lam * nonterm * last
        adv[k] = last
    ret = adv + vals[:T]
    X, M, A = xs.reshape(T * n, size), ms.reshape(T * n, actions), acts.reshape(-1)
    LP, ADV, RET = lps.reshape(-1), adv.reshape(-1), ret.reshape(-1)
    entropy = clipfrac = 0.0
    for _ in range(epochs):
        order = rng.permutation(T * n)
        for lo in range(0, T * n, minibatch):
            i = order[lo:lo + minibatch]
            a_mb = (ADV[i] - ADV[i].mean()) / (ADV[i].std() + 1e-8)
            g, entropy, clipfrac = ppo_grads(w, X[i], M[i], A[i], LP[i], a_mb, RET[i],
                                             clip, vf, ent)
            opt.step(w, g, only=only, lr=lr)
    return obs, info, {"entropy": round(entropy, 3), "clipfrac": round(clipfrac, 3),
                       "mean_reward": round(float(rews.sum() / reward_scale
                                                  / max(dones.sum(), 1)), 4)}


def win_share(r: np.ndarray, players: int) -> np.ndarray:
    """A seat's share of the win from its ``"result"`` reward: ``1/k`` for one of ``k``
    winners (``r = (n-k) / (k(n-1))``, everyone tied: 0), 0 for a loser -- as the
    arena counts shared wins."""
    n = players
    k = np.rint(n / (np.maximum(r, 0.0) * (n - 1) + 1))
    return np.where(r >= 0, 1.0 / k, 0.0)


def evaluate(game: str, players: int, w: Weights, opponents: str, rounds: int,
             seed: int, *, engine: str = "vector", rules: dict[str, Any] | None = None) -> float:
    """Win share of the greedy policy in ``rounds`` one-round games against compiled
    ``opponents`` (seat drawn every game; shared wins split, as in the arena); on the
    step engine against the Python bots of those names."""
    envs = make_vec(game, min(rounds, 1000 if engine == "vector" else 200), players,
                    opponents, engine=engine, rules=rules)
    obs, info = envs.reset(seed=seed)
    done = wins = 0.0
    while done < rounds:
        a = greedy_actions(w, obs, info["action_mask"])
        obs, r, term, _trunc, info = envs.step(a)
        done += term.sum()
        wins += win_share(r[term], players).sum()
    return float(wins / done)


# --- the configuration and the loop ---------------------------------------------------


@dataclass
class TrainConfig:
    """Every setting of a training run (``parlour train --help`` says each)."""

    game: str = ""
    players: int = 4
    expert: str = "heuristic"
    imitate: int = 600
    imitate_envs: int = 1024
    dagger: float = 0.5
    explore: float = 0.05
    replay: int = 64
    imitate_lr: float = 1e-3
    opponents: str = "heuristic"
    updates: int = 200
    envs: int = 256
    steps: int = 64
    value_warmup: int = 10
    hidden: int = 256
    lr: float = 1e-4
    epochs: int = 4
    minibatch: int = 4096
    clip: float = 0.2
    gamma: float = 1.0
    lam: float = 0.95
    ent: float = 0.003
    vf: float = 0.5
    reward: str = "score"
    reward_scale: float = 0.1
    eval_every: int = 50
    eval_rounds: int = 2000
    eval_seed: int = 12345
    seed: int = 1
    init_weights: str | None = None
    keep_checkpoints: bool = False
    engine: str = "vector"
    rules: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        """ValueError, in words, for settings that cannot run."""
        from parlour.games import get_game

        g = get_game(self.game)  # KeyError/ValueError for an unknown game
        if self.engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {self.engine!r}")
        g.check_players(self.players)
        from parlour.envs.session import resolve_rules

        full = resolve_rules(g.name, self.players, self.rules, "round")  # ValueError in words
        if self.engine == "step":
            self._check_step_bots(g)
        else:
            self._check_compiled(g, full)
        for name in ("imitate_envs", "envs", "steps", "hidden", "minibatch", "eval_rounds",
                     "replay", "epochs"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name.replace('_', '-')} must be at least 1")
        for name in ("imitate", "updates", "value_warmup", "eval_every"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name.replace('_', '-')} cannot be negative")
        if self.imitate + self.updates == 0:
            raise ValueError("nothing to train: give --imitate or --updates")
        for name in ("dagger", "explore"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1")
        if self.reward not in ("score", "result"):
            raise ValueError(f"reward must be score or result, not {self.reward!r}")
        if self.lr <= 0 or self.imitate_lr <= 0:
            raise ValueError("learning rates must be positive")
        if self.reward_scale <= 0:
            raise ValueError("reward-scale must be positive")
        if self.init_weights:
            load_weights(self.init_weights)

    def _check_compiled(self, g: Any, full: dict[str, Any]) -> None:
        """The compiled vector environment can train this: it exists, serves the rules
        and plays the expert and the opponents."""
        bots = compiled_bots(g.name)
        if not bots:
            raise ValueError(f"{g.title} has no compiled vector environment to train in")
        if refusal := g.options.compiled_refusal(full):
            raise ValueError(f"{refusal} (--engine step: the Python engine, move by move; "
                             "slow, for small variants)")
        if self.imitate and self.expert not in bots:
            raise ValueError(f"the expert must be a compiled bot of {g.title} "
                             f"({', '.join(bots)}), not {self.expert!r}")
        for o in self.opponents.split(","):
            if self.updates and o not in bots:
                raise ValueError(f"opponents must be compiled bots of {g.title} "
                                 f"({', '.join(bots)}), not {o!r}")

    def _check_step_bots(self, g: Any) -> None:
        """On the step engine the expert and the opponents are any bots the registry makes
        that sit at this table."""
        from parlour.bots import make_bot

        names = ([self.expert] if self.imitate else []) + \
            (self.opponents.split(",") if self.updates else [])
        for name in names:
            make_bot(name, g.name, 0).check_table(self.players)


def load_weights(path: str | Path) -> Weights:
    """The network arrays of a weights file written by training (float32), or ValueError
    in words when the file is not one (missing, a folder, not ``.npz``, other arrays)."""
    try:
        with np.load(path, allow_pickle=False) as d:
            w = {k: d[k].astype(np.float32) for k in d.files}
    except (OSError, ValueError, EOFError) as e:
        raise ValueError(f"{str(path)!r} is not a weights file of parlour train (a .npz of "
                         f"the network's arrays): {type(e).__name__}") from None
    missing = [k for k in LAYERS if k not in w]
    if missing:
        raise ValueError(f"{str(path)!r} is not a weights file of parlour train: it lacks "
                         f"{', '.join(missing)}")
    return w


def train(cfg: TrainConfig, out: Path | None = None) -> Iterator[dict[str, Any]]:
    """Run the configuration; yield one log line (a dict) per update of either phase.

    ``out`` (a ``.npz`` path) receives the weights at every evaluation and at the end.
    The last line yielded has ``"done": True`` and the weights under ``"weights"``.
    """
    cfg.check()
    run = _Run(cfg, out)
    if cfg.eval_every and not cfg.init_weights:  # the untrained network, for the curve
        first: dict[str, Any] = {"phase": "start", "update": 0}
        run.evaluate(first)
        yield first
    if cfg.imitate:
        yield from run.imitate()
    if cfg.updates:
        yield from run.ppo()
    yield run.finish()


def start_weights(cfg: TrainConfig, rng: np.random.Generator, size: int,
                  actions: int) -> Weights:
    """The network training starts from: ``init_weights`` (checked against the
    observation and action sizes; a value head added if it has none), else fresh."""
    if not cfg.init_weights:
        return init(rng, size, cfg.hidden, actions)
    w = load_weights(cfg.init_weights)
    if w["w1"].shape[0] != size or w["wp"].shape[1] != actions:
        raise ValueError(f"{cfg.init_weights} is for observations of {w['w1'].shape[0]} "
                         f"and {w['wp'].shape[1]} actions, not {size} and {actions}")
    if "wv" not in w:
        w["wv"] = np.zeros((w["w2"].shape[1], 1), np.float32)
        w["bv"] = np.zeros(1, np.float32)
    return w


class _Run:
    """One training run: the network, its clock and update count, and its phases."""

    def __init__(self, cfg: TrainConfig, out: Path | None) -> None:
        self.cfg, self.out = cfg, out
        self.rng = np.random.default_rng(cfg.seed)
        self.bots = eval_bots(cfg.game, cfg.engine)
        obs, info = self.vec(1, "self").reset(seed=cfg.seed)
        self.size, self.actions = obs.shape[1], info["action_mask"].shape[1]
        self.w = start_weights(cfg, self.rng, self.size, self.actions)
        self.start = time.time()
        self.step_no = 0

    def vec(self, num_envs: int, opponents: str, reward: str = "result") -> Any:
        """Games of this run's engine and rules side by side."""
        cfg = self.cfg
        return make_vec(cfg.game, num_envs, cfg.players, opponents, reward=reward,
                        engine=cfg.engine, rules=cfg.rules)

    def minutes(self) -> float:
        return round((time.time() - self.start) / 60, 2)

    def evaluate(self, line: dict[str, Any]) -> None:
        """Add the network's win share against each compiled bot to ``line``."""
        cfg = self.cfg
        for kind in self.bots:
            line[f"vs_{kind}"] = round(evaluate(cfg.game, cfg.players, self.w, kind,
                                                cfg.eval_rounds, cfg.eval_seed,
                                                engine=cfg.engine, rules=cfg.rules), 4)

    def checkpoint(self, line: dict[str, Any], force: bool = False) -> None:
        """Every ``eval_every`` updates (or with ``force``): evaluate, save the weights."""
        cfg, out = self.cfg, self.out
        if force or (cfg.eval_every and self.step_no % cfg.eval_every == 0):
            self.evaluate(line)
            if out is not None:
                np.savez(out, **self.w)
                if cfg.keep_checkpoints and not force:
                    np.savez(out.with_name(f"{out.stem}-{self.step_no}.npz"), **self.w)

    def imitate(self) -> Iterator[dict[str, Any]]:
        """Phase 1: imitation of the ``expert`` bot (DAgger), from a replay of positions."""
        cfg, w, rng, size, actions = self.cfg, self.w, self.rng, self.size, self.actions
        envs = self.vec(cfg.imitate_envs, "self", reward="score")
        obs, info = envs.reset(seed=cfg.seed)
        n = cfg.imitate_envs
        opt = Adam(w, cfg.imitate_lr, max_norm=1.0)
        buf_x = np.zeros((cfg.replay, n, size), np.float32)
        buf_m = np.zeros((cfg.replay, n, actions), bool)
        buf_a = np.zeros((cfg.replay, n), np.int64)
        buf_r = np.zeros((cfg.replay, n), np.float32)
        buf_k = np.zeros((cfg.replay, n), np.float32)
        # value targets: the acting seat's round score, known when the round ends
        pend_slot = [[] for _ in range(n)]  # (replay slot, seat) of this round's positions
        filled = 0
        for k in range(cfg.imitate):
            self.step_no = k + 1
            mask = info["action_mask"]
            seats = info["seat"]
            labels = envs.bot_actions(cfg.expert)
            slot = k % cfg.replay
            buf_x[slot], buf_m[slot], buf_a[slot] = obs, mask, labels
            buf_r[slot] = 0.0
            buf_k[slot] = 0.0
            act = labels.copy()
            if cfg.dagger > 0:
                mine = rng.random(n) < cfg.dagger
                if mine.any():
                    act[mine] = greedy_actions(w, obs[mine], mask[mine])
            if cfg.explore > 0:
                wild = rng.random(n) < cfg.explore
                if wild.any():
                    act[wild] = (rng.random((int(wild.sum()), actions)) * mask[wild]).argmax(1)
            for b in range(n):
                pend_slot[b].append((slot, k, int(seats[b])))
            obs, _r, term, trunc, info = envs.step(act)
            ended = np.flatnonzero(term | trunc)
            for b in ended:
                for s_, k_, seat in pend_slot[b]:
                    if k - k_ < cfg.replay:  # still in the replay
                        buf_r[s_, b] = info["rewards"][b, seat] * cfg.reward_scale
                        buf_k[s_, b] = 1.0
                pend_slot[b] = []
            filled = min(filled + 1, cfg.replay)
            # train on the replay (the value only where the round has ended)
            rows = filled * n
            order = rng.permutation(rows)
            X = buf_x[:filled].reshape(rows, size)
            M = buf_m[:filled].reshape(rows, actions)
            A = buf_a[:filled].reshape(rows)
            R = buf_r[:filled].reshape(rows)
            K = buf_k[:filled].reshape(rows)
            loss = agree = 0.0
            batches = 0
            for lo in range(0, min(rows, 2 * n), cfg.minibatch):
                i = order[lo:lo + cfg.minibatch]
                g, lo_, ag = imitation_grads(w, X[i], M[i], A[i], R[i], K[i], cfg.vf)
                opt.step(w, g)
                loss, agree, batches = loss + lo_, agree + ag, batches + 1
            line: dict[str, Any] = {"phase": "imitate", "update": self.step_no,
                                    "positions": self.step_no * n, "minutes": self.minutes(),
                                    "loss": round(loss / batches, 4),
                                    "agree": round(agree / batches, 4)}
            self.checkpoint(line)
            yield line

    def ppo(self) -> Iterator[dict[str, Any]]:
        """Phase 2: PPO against the opponents in turn (one vector of games each)."""
        cfg, w, rng = self.cfg, self.w, self.rng
        kinds = cfg.opponents.split(",")
        vecs = {kind: self.vec(cfg.envs, kind, reward=cfg.reward)
                for kind in dict.fromkeys(kinds)}
        state = {kind: vecs[kind].reset(seed=cfg.seed + 1 + j)
                 for j, kind in enumerate(vecs)}
        opt = Adam(w, cfg.lr)
        n, T = cfg.envs, cfg.steps
        for u in range(1, cfg.updates + 1):
            self.step_no = cfg.imitate + u
            kind = kinds[(u - 1) % len(kinds)]
            warm = u <= cfg.value_warmup
            obs, info, stats = ppo_update(
                w, opt, vecs[kind], *state[kind], rng, steps=T, reward_scale=cfg.reward_scale,
                gamma=cfg.gamma, lam=cfg.lam, epochs=cfg.epochs, minibatch=cfg.minibatch,
                clip=cfg.clip, vf=cfg.vf, ent=cfg.ent, only=("wv", "bv") if warm else None,
                lr=max(cfg.lr, 1e-3) if warm else None)
            state[kind] = (obs, info)
            line = {"phase": "ppo", "update": self.step_no, "opponents": kind,
                    "steps": u * T * n, "minutes": self.minutes(), **stats}
            self.checkpoint(line)
            yield line

    def finish(self) -> dict[str, Any]:
        """The last line: a final evaluation unless one just ran, the weights saved."""
        cfg = self.cfg
        final: dict[str, Any] = {"done": True, "update": self.step_no}
        if not cfg.eval_every or self.step_no % cfg.eval_every:
            self.checkpoint(final, force=True)
        final["minutes"] = self.minutes()
        if self.out is not None:
            np.savez(self.out, **self.w)
        final["weights"] = self.w
        return final


def play_layers(w: Weights) -> Weights:
    """The arrays the ``learned`` bot loads (the value head is for training only)."""
    return {k: w[k] for k in LAYERS}


def config_json(cfg: TrainConfig) -> str:
    return json.dumps(asdict(cfg), sort_keys=True)


def run_to_files(cfg: TrainConfig, out: Path, log: Path,
                 on_line: Callable[[dict[str, Any]], None] | None = None) -> Weights:
    """Train, writing weights to ``out`` and one JSON line per update to ``log`` (the
    first line is the configuration); returns the final weights."""
    w: Weights = {}
    with open(log, "w") as f:
        f.write(json.dumps({"config": asdict(cfg)}) + "\n")
        for line in train(cfg, out):
            if line.get("done"):
                w = line.pop("weights")
            f.write(json.dumps(line) + "\n")
            f.flush()
            if on_line is not None:
                on_line(line)
    return w
