"""A game's kit: what the generic layers need from one game, found in one package.

Every game is one package (``parlour/games/NAME/``). The generic layers -- bots, the
batch engine, the research environments, the arena, the server, the command line and
the web page -- never test a game's name; they ask the game's :class:`Kit`, which
loads the package's parts by their fixed module names when first asked:

==============  ==========  ===============================================================
part            required    what it provides
==============  ==========  ===============================================================
``rules``       yes         ``GAME``: the :class:`~parlour.game.Game` (the rules engine)
``present``     no          ``PRESENTER``: a :class:`~parlour.present.Presenter` -- card
                            names, typed-move parsing, the terminal picture of a view,
                            a view rebuilt from its JSON (the remote client); without it
                            the base ``Presenter`` is used
``bots``        no          ``BOTS``: ``{name: factory(game, seed) -> Bot}``, the game's
                            own bots (``greedy`` and ``heuristic`` also give the
                            ``easy`` and ``medium`` levels); ``random`` is generic
``model``       no          ``MODEL``: a :class:`~parlour.bots.models.SearchModel` (the
                            search bots ``hard``, ``expert``, ``pimc``, ``ismcts`` exist
                            only with it), ``HARD``/``EXPERT`` iterations per decision,
                            optionally ``engine(budget, inference)`` (a faster engine
                            for the ``hard`` levels), ``warm()`` (compile it ahead) and
                            ``read_round(view)`` (the reading of each player over a
                            finished round, so the search bots read players across
                            the rounds of a game)
``kernel``      no          ``BATCH``: a :class:`~parlour.batch.engine.BatchKernel` (buffer
                            sizes, whole random games in compiled code, winners from
                            totals); the one compiled copy of ``rules``, held to it by
                            differential tests; optionally ``BATCH_API``, modules whose
                            names :mod:`parlour.batch` offers
``env``         no          ``ENV``: a :class:`~parlour.envs.kit.EnvParts` (action codec,
                            observation encoder, the resampler's deal and constraints,
                            Gymnasium id, PettingZoo name, OpenSpiel parameters, text
                            picture, the module of a compiled vector environment) for
                            the research environments
``analysis``    no          ``METRICS``: per-round measures (each a
                            :class:`~parlour.measures.Measure`) for ``parlour analyze``;
                            ``HALF_ROUND_PLAYS``: cards out at mid-round, for the
                            positions of ``parlour bench`` (default 26)
``rulebook``    no          ``SUMMARY`` and ``RULINGS`` (id -> :class:`~parlour.rulebook.
                            Ruling`): the rules in plain words, for ``parlour rules``
``web.js``      no          the page module that draws the game at the web table
==============  ==========  ===============================================================

A third game is therefore one new folder: ``parlour/games/NAME/`` with at least
``rules.py``; every part it adds lights up the layer that uses it. A package outside
``parlour.games`` (a plug-in, or the test fixture game) joins with :func:`register` or
by naming it in the ``PARLOUR_GAMES`` environment variable.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

from parlour.game import Game


class Kit:
    """One game's package, seen through the parts it provides.

    >>> from parlour.games import get_kit
    >>> kit = get_kit("fanti")
    >>> kit.game.title, sorted(kit.attr("bots", "BOTS"))
    ('Fanti', ['greedy', 'heuristic'])
    >>> kit.part("no_such_part") is None
    True
    >>> kit.need("no_such_part", "THING", "a thing")
    Traceback (most recent call last):
        ...
    ValueError: Fanti does not offer a thing
    """

    def __init__(self, package: str) -> None:
        self.package = package
        self.game: Game = importlib.import_module(f"{package}.rules").GAME
        self.name: str = self.game.name
        self._parts: dict[str, ModuleType | None] = {}

    def part(self, name: str) -> ModuleType | None:
        """The package's module ``name``, imported on first use; None if it has none."""
        if name not in self._parts:
            full = f"{self.package}.{name}"
            self._parts[name] = (importlib.import_module(full)
                                 if importlib.util.find_spec(full) is not None else None)
        return self._parts[name]

    def attr(self, part: str, name: str, default: Any = None) -> Any:
        """``part.name`` if the package has that part and the part has that name."""
        module = self.part(part)
        return getattr(module, name, default) if module is not None else default

    def need(self, part: str, name: str, what: str) -> Any:
        """``part.name``, or a ValueError saying that this game does not offer ``what``."""
        value = self.attr(part, name)
        if value is None:
            raise ValueError(f"{self.game.title} does not offer {what}")
        return value

    @cached_property
    def folder(self) -> Path:
        spec = importlib.util.find_spec(self.package)
        assert spec is not None and spec.submodule_search_locations
        return Path(next(iter(spec.submodule_search_locations)))

    @property
    def web_module(self) -> Path | None:
        """The page module (``web.js``) of the game, if it has one."""
        path = self.folder / "web.js"
        return path if path.is_file() else None

    @property
    def web_words(self) -> Path | None:
        """The game's words for the front page (``words.js``: its option words and a
        table's rules in a few words, re-exported by ``web.js``), if it has them."""
        path = self.folder / "words.js"
        return path if self.web_module is not None and path.is_file() else None

    def __repr__(self) -> str:
        return f"<Kit {self.name} from {self.package}>"
