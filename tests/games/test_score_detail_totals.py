"""The itemised score adds up: for every registered game and every option variant, each
seat's items sum to its total and the total is ``score()`` (FA-9, FT-7, FT-8).

Also its shape, which the terminal, ``replay`` and the web page rely on: plain-word
``what``/``detail``, a ruling id or nothing in ``rule``, notes with the seats they name,
``chips`` present exactly under Fan Tan's chips stakes (with payments that conserve chips).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deal_helpers import worded
from parlour.game import Game
from parlour.games import GAMES

PROPERTY = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def variants() -> list[tuple[Game, int, dict[str, Any]]]:
    out = []
    for game in GAMES.values():
        # a research option (the small packs, FA-11 and FT-12) has its own tests
        choices = [o for o in game.options if o.choices and not o.research]
        for players in range(game.min_players, game.max_players + 1):
            for values in itertools.product(*(o.choices for o in choices)):
                out.append((game, players, dict(zip([o.name for o in choices], values,
                                                    strict=True))))
    return out


VARIANTS = variants()


def random_round(game: Game, players: int, given_rules: dict[str, Any], seed: int):
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    r = game.new_round(game.rules(players, given_rules), players, rng.randrange(players), deck)
    while not r.is_over:
        assert r.score_detail() is None
        r.apply(rng.choice(r.legal_moves()))
    return r


@PROPERTY
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1))
def test_items_add_up_to_the_score_of_every_seat(variant, seed):
    game, players, given_rules = variant
    r = random_round(game, players, given_rules, seed)
    detail = worded(r)
    json.dumps(r.score_detail())  # JSON-ready
    assert [e["seat"] for e in detail["seats"]] == list(range(players))
    for entry in detail["seats"]:
        assert entry["total"] == sum(i["points"] for i in entry["items"])
        for item in entry["items"]:
            assert set(item) - {"key", "params"} == {"what", "detail", "points", "rule"}
            assert item["what"] and "_" not in item["what"]
            # a ruling id (FA-n, FT-n, C-n; a third game's own, e.g. GL-n) or none
            assert item["rule"] == "" or re.fullmatch(r"[A-Z]{1,3}-\d+", item["rule"])
    assert [e["total"] for e in detail["seats"]] == r.score()
    for note in detail["notes"]:
        assert note["text"] and note["rule"] and all(0 <= s < players for s in note["seats"])
    if r.rules.get("stakes") == "chips":
        chips = detail["chips"]
        assert chips["pot"] >= players  # every seat antes at least 1 (FT-7)
        for p in chips["payments"]:
            assert p["from"] != p["to"] and p["chips"] > 0
    else:
        assert detail["chips"] is None


def test_every_variant_is_listed():
    """FA-2 x FA-5 x FA-9: 3 x 2 x 2 Fanti; FT-1 x FT-4 x FT-2 x FT-7 x FT-5: 6 x 16."""
    assert len([v for v in VARIANTS if v[0].name in ("fanti", "fantan")]) == 12 + 96
