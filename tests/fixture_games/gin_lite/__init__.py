"""Gin Lite: a minimal third card game, the worked example of "one folder is enough".

A test fixture, not a product game. It is one package -- ``rules.py`` (the engine,
required by the kit protocol, :mod:`parlour.kit`) and ``bots.py`` (its own ``greedy``
bot) -- registered by ``tests/conftest.py`` with :func:`parlour.games.register`, and for
subprocesses by ``PARLOUR_GAMES=fixture_games.gin_lite`` with ``tests/`` on the path.
"""
