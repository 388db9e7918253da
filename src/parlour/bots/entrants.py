"""Your own agent as a bot: a weights file, a Python callable or an external command.

Wherever a bot name is taken (``--bots`` of ``parlour tournament``, ``simulate`` and
``analyze``; :func:`parlour.bots.make_bot`; the arena's Python API), an *entrant spec*
is taken too (docs/arena.md, "Entering your own agent"):

* ``PATH.npz`` -- a network in the shipped ``learned`` format (:mod:`parlour.envs.learned`:
  arrays ``w1 b1 w2 b2 wp bp``), played on the plain observation, or on the
  perfect-recall one (``observation="infostate"``) when its input size is that one's;
* ``MODULE:FUNCTION`` or ``FILE.py:FUNCTION`` -- a Python callable: with one parameter
  it is ``function(view) -> move`` (one of ``view.legal``); with two it is a factory
  ``function(game, seed) -> Bot`` (a :class:`parlour.envs.policy.PolicyBot`, say);
* ``cmd:COMMAND`` -- a program in any language speaking the line protocol below over
  its stdin and stdout (started without a shell; its arguments split as a shell would).

The line protocol (``parlour-bot/1``): for every decision parlour writes one line of
JSON, ``{"protocol": "parlour-bot/1", "game": ..., "seat": ..., "seed": ...,
"view": VIEW, "legal": [MOVE, ...]}`` (``VIEW`` is the seat's view as the server sends
it, ``view.to_json()``; ``MOVE`` a move as records write it, e.g. ``{"play": "7D"}``),
and the program answers with one line: the index of its move in ``legal`` or the move
itself. One process serves one bot (one seat of one game); when the game is over its
stdin is closed. A program that does not answer within :data:`MOVE_SECONDS`, exits, or
answers with no legal move stops the game with :class:`BotFailed`, in plain words.

Nothing here falls back to another bot: a spec that cannot be played is refused.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import json
import os
import select
import shlex
import shutil
import subprocess
import sys
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parlour.bots.base import Bot, BotFailed
from parlour.envs.policy import PolicyBot
from parlour.game import Move

__all__ = ["BotFailed", "is_entrant", "make_entrant"]

PROTOCOL = "parlour-bot/1"
COMMAND_PREFIX = "cmd:"
MOVE_SECONDS = 60.0
"""How long an external program may take over one move."""


def is_entrant(spec: str, known: set[str]) -> bool:
    """Whether ``spec`` names an entrant rather than a registered bot (``known`` are the
    game's bot names and search engines, so ``hard:400`` stays a search bot)."""
    s = spec.strip()
    if s.lower().startswith(COMMAND_PREFIX) or s.lower().endswith(".npz"):
        return True
    head, sep, tail = s.partition(":")
    return bool(sep and tail) and head.lower() not in known


def make_entrant(spec: str, game: str, seed: int | None) -> Bot:
    """The bot an entrant spec names (ValueError in plain words if it cannot be made)."""
    s = spec.strip()
    if s.lower().startswith(COMMAND_PREFIX):
        return CommandBot(game, s[len(COMMAND_PREFIX):].strip(), seed, label=s)
    if s.lower().endswith(".npz"):
        return weights_bot(game, s, seed)
    return callable_bot(game, s, seed)


# --- weights files -----------------------------------------------------------------------

def weights_bot(game: str, path: str, seed: int | None) -> Bot:
    """A network in the ``learned`` format from a file, as a bot named by its path."""
    import numpy as np

    from parlour.envs.learned import MLPPolicy

    file = Path(path).expanduser()
    if not file.is_file():
        raise ValueError(f"no weights file at {path}")
    try:
        with np.load(file) as data:
            policy = MLPPolicy({k: data[k] for k in data.files})
    except ValueError as e:
        raise ValueError(f"{path} is not a network in the learned bot's format: {e}") from None
    except OSError as e:
        raise ValueError(f"could not read {path}: {e}") from None
    return NetworkBot(game, policy, seed, label=path)


class NetworkBot(PolicyBot):
    """A :class:`PolicyBot` over an :class:`MLPPolicy`, checked against the table."""

    def __init__(self, game: str, policy: Any, seed: int | None, label: str) -> None:
        super().__init__(game, policy, seed)
        self.name = label
        self._checked: set[int] = set()

    def check_table(self, players: int) -> None:
        from parlour.envs.observation import encoder_for

        plain = encoder_for(self.game.name, players).size
        recall = encoder_for(self.game.name, players, True).size
        size = self.policy.size
        if size not in (plain, recall):
            raise ValueError(
                f"{self.name} takes {size} inputs, but {self.game.title} with {players} "
                f"players gives {plain} (plain observation) or {recall} (infostate)")
        if self.policy.actions != self.codec.num_actions:
            raise ValueError(f"{self.name} has {self.policy.actions} actions; "
                             f"{self.game.title} has {self.codec.num_actions}")
        self.info_state = size == recall and size != plain
        self._encoders.clear()

    def choose(self, view: Any) -> Move:
        if view.players not in self._checked:
            self.check_table(view.players)
            self._checked.add(view.players)
        return super().choose(view)


# --- Python callables -----------------------------------------------------------------------

def _load_callable(spec: str) -> Callable[..., Any]:
    where, _, attr = spec.rpartition(":")
    if where.endswith(".py"):
        file = Path(where).expanduser()
        if not file.is_file():
            raise ValueError(f"no Python file at {where}")
        name = f"parlour_entrant_{abs(hash(str(file.resolve())))}"
        module = sys.modules.get(name)
        if module is None:
            mspec = importlib.util.spec_from_file_location(name, file)
            assert mspec is not None and mspec.loader is not None
            module = importlib.util.module_from_spec(mspec)
            sys.modules[name] = module
            try:
                mspec.loader.exec_module(module)
            except Exception as e:
                del sys.modules[name]
                raise ValueError(f"{where} failed to load: {type(e).__name__}: {e}") from None
    else:
        try:
            module = importlib.import_module(where)
        except ModuleNotFoundError:
            if os.getcwd() in sys.path:
                raise ValueError(f"no Python module {where!r} (for {spec})") from None
            sys.path.append(os.getcwd())  # ``parlour`` as a script does not look here
            try:
                module = importlib.import_module(where)
            except ModuleNotFoundError:
                raise ValueError(f"no Python module {where!r} (for {spec})") from None
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise ValueError(f"{where} has no callable {attr!r}")
    return fn


def _arity(fn: Callable[..., Any]) -> int:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 1
    return sum(1 for p in params if p.default is p.empty
               and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


def callable_bot(game: str, spec: str, seed: int | None) -> Bot:
    """``function(view) -> move`` as a bot, or the bot ``factory(game, seed)`` makes."""
    fn = _load_callable(spec)
    if (isinstance(fn, type) and issubclass(fn, Bot)) or _arity(fn) == 2:
        bot = fn(game, seed)
        if not isinstance(bot, Bot):
            raise ValueError(f"{spec} made a {type(bot).__name__}, not a parlour Bot")
        bot.name = spec
        return bot
    if _arity(fn) != 1:
        raise ValueError(f"{spec} must take a view (one parameter) or (game, seed) (two)")
    return FunctionBot(game, fn, seed, label=spec)


class FunctionBot(Bot):
    """A bot asking ``function(view)`` for each move."""

    def __init__(self, game: str, fn: Callable[[Any], Move], seed: int | None,
                 label: str) -> None:
        super().__init__(game, seed)
        self.fn = fn
        self.name = label

    def choose(self, view: Any) -> Move:
        try:
            move = self.fn(view)
        except Exception as e:
            raise BotFailed(f"{self.name} raised {type(e).__name__}: {e}") from None
        if move not in view.legal:
            raise BotFailed(f"{self.name} chose {move!r}, which is not a legal move now")
        return move


# --- external commands ------------------------------------------------------------------------

def _close(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):
        if proc.stdin is not None:
            proc.stdin.close()
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


class CommandBot(Bot):
    """A program speaking the line protocol (module docstring), one process a bot."""

    def __init__(self, game: str, command: str, seed: int | None, label: str) -> None:
        super().__init__(game, seed)
        try:
            self.argv = shlex.split(command)
        except ValueError as e:
            raise ValueError(f"{label}: {e}") from None
        if not self.argv:
            raise ValueError(f"{label} names no program")
        self.name = label
        self.seed = seed
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    def _process(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            try:
                self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                              stdout=subprocess.PIPE)
            except OSError as e:
                raise BotFailed(f"{self.name} could not start: {e.strerror or e}") from None
            weakref.finalize(self, _close, self._proc)
        return self._proc

    def check_table(self, players: int) -> None:
        if shutil.which(self.argv[0]) is None:
            raise ValueError(f"{self.name}: no program {self.argv[0]!r} to run")

    def close(self) -> None:
        """End the program now (else when the bot is collected)."""
        if self._proc is not None:
            _close(self._proc)
            self._proc = None

    def _readline(self, proc: subprocess.Popen[bytes]) -> bytes:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([fd], [], [], MOVE_SECONDS)
            if not ready:
                raise BotFailed(f"{self.name} gave no move within {MOVE_SECONDS:g} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BotFailed(f"{self.name} stopped without a move "
                                f"(exit status {proc.wait()})")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def choose(self, view: Any) -> Move:
        legal = list(view.legal)
        wire = [self.game.move_to_json(m) for m in legal]
        request = {"protocol": PROTOCOL, "game": self.game.name, "seat": view.seat,
                   "seed": self.seed, "view": view.to_json(), "legal": wire}
        proc = self._process()
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            proc.stdin.flush()
        except OSError:
            raise BotFailed(f"{self.name} stopped reading its moves") from None
        text = self._readline(proc).decode("utf-8", "replace").strip()
        try:
            answer = json.loads(text)
        except ValueError:
            raise BotFailed(f"{self.name} answered {text[:80]!r}, which is not JSON") from None
        if isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < len(legal):
            return legal[answer]
        if isinstance(answer, dict) and answer in wire:
            return legal[wire.index(answer)]
        raise BotFailed(f"{self.name} answered {text[:80]!r}, which is not a legal move "
                        f"(an index below {len(legal)} or one of the legal moves)")
