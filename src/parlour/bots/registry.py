"""The one bot registry: every bot of every game, by name.

A game's own bots come from its kit (``bots.BOTS``, e.g. ``greedy`` and
``heuristic``); ``random`` works for any game; the levels and search bots
(:mod:`.levels`) exist for a game when its kit offers what they need.
"""

from __future__ import annotations

from parlour.bots import levels
from parlour.bots.base import Bot, BotFactory
from parlour.bots.random_bot import RandomBot
from parlour.games import get_kit


def _own(kit_name: str, name: str) -> BotFactory | None:
    return (get_kit(kit_name).attr("bots", "BOTS") or {}).get(name)


def _learned(game: str, seed: int | None) -> Bot:
    from parlour.envs.learned import learned_bot  # numpy only; loaded when asked for

    return learned_bot(game, seed)


def _generic(game: str) -> dict[str, BotFactory]:
    """The generic bots ``game`` can have, by name, in the order they are listed."""
    out: dict[str, BotFactory] = {"random": RandomBot}
    if any(get_kit(game).folder.glob("learned_*p.npz")):  # shipped trained weights
        out["learned"] = _learned
    for level, own in (("easy", "greedy"), ("medium", "heuristic")):
        factory = _own(game, own)
        if factory is not None:
            out[level] = factory
    if levels.searchable(game):
        for level in levels.SEARCH_LEVELS:
            out[level] = lambda g, s, _l=level: levels.level_bot(_l, g, s)
        for engine in ("pimc", "ismcts"):
            out[engine] = lambda g, s, _e=engine: levels.engine_bot(_e, g, s)
    return out


def bots_of(game: str) -> dict[str, BotFactory]:
    """Every bot ``game`` offers, by name: its kit's own, then the generic ones."""
    kit = get_kit(game)
    return {**(kit.attr("bots", "BOTS") or {}), **_generic(kit.name)}


def bot_names(game: str | None = None) -> list[str]:
    """The bots of ``game``, or of any registered game when None."""
    if game is not None:
        return list(bots_of(game))
    from parlour.games import KITS

    names: dict[str, None] = {}
    for name in KITS:
        names.update(dict.fromkeys(bots_of(name)))
    return list(names)


def entrant(name: str, game: str) -> bool:
    """Whether ``name`` is an entrant spec (a weights file, ``module:function``,
    ``cmd:COMMAND``: :mod:`.entrants`) rather than a registered bot of ``game``."""
    from parlour.bots.entrants import is_entrant

    known = set(bots_of(game)) | set(levels.ENGINES)
    return is_entrant(name, known)


def check_lineup(names: list[str], game: str, players: int) -> None:
    """Every bot of a line-up can be made and can play a table of ``players``
    (ValueError in plain words otherwise), before any game is played."""
    for name in dict.fromkeys(names):
        bot = make_bot(name, game, 0)
        try:
            bot.check_table(players)
        finally:
            close = getattr(bot, "close", None)
            if close is not None:
                close()


def make_bot(name: str, game: str, seed: int | None = 0) -> Bot:
    """A bot by name for a game, seeded.

    Names: ``random``, the game's own bots (``greedy``, ``heuristic``), the levels
    ``easy``, ``medium``, ``hard``, ``expert``, the engines ``pimc`` and ``ismcts``,
    and search bots with an explicit iteration budget such as ``pimc:500`` or
    ``hard:300:none`` (see :mod:`parlour.bots.levels`); and your own agents:
    ``PATH.npz``, ``MODULE:FUNCTION``, ``FILE.py:FUNCTION``, ``cmd:COMMAND``
    (:mod:`parlour.bots.entrants`).
    """
    kit = get_kit(game)
    if isinstance(name, str) and entrant(name, kit.name):
        from parlour.bots.entrants import make_entrant

        return make_entrant(name, kit.name, seed)
    key = name.strip().lower() if isinstance(name, str) else ""
    if ":" in key and levels.searchable(kit.name):
        bot = levels.parse_search_name(key, kit.name, seed)
        if bot is not None:
            return bot
    factory = bots_of(kit.name).get(key)
    if factory is None:
        raise ValueError(f"unknown bot {name!r} for {kit.name}; choose one of: "
                         f"{', '.join(bot_names(kit.name))}")
    return factory(kit.name, seed)


def warm() -> None:
    """Compile or load every game's compiled search code (its ``model.warm``), so the
    first ``hard`` move does not pay for it."""
    from parlour.games import KITS

    for kit in KITS.values():
        fn = kit.attr("model", "warm")
        if fn is not None:
            fn()
