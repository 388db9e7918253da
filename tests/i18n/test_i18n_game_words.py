"""The ``game`` catalogs at work: every score item worded in every language and card-name
style (its points still adding up to the score), card names in both styles, and the
terminal's round result in Persian and Chinese (FA-1, FA-9, FT-7, FT-8)."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

from parlour import cards, render, speech
from parlour.games import GAMES
from parlour.i18n import LANGUAGES
from parlour.present import presenter

STYLES = speech.CARD_STYLES
RULES = [("fanti", 2, {}), ("fanti", 4, {"ties": "shared"}),
         ("fantan", 4, {}), ("fantan", 5, {"stakes": "chips", "strict": False}),
         ("fantan", 3, {"stakes": "points", "strict": False})]


def finished(game: str, players: int, rules: dict, seed: int):
    g = GAMES[game]
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    r = g.new_round(g.rules(players, rules), players, seed % players, deck)
    while not r.is_over:
        r.apply(rng.choice(r.legal_moves()))
    return r


@pytest.mark.parametrize("lang", [*LANGUAGES, "en-XA"])
@pytest.mark.parametrize(("game", "players", "rules"), RULES)
def test_every_point_is_explained_in_every_language(lang, game, players, rules):
    """Each item has words (never a key) and the items add up to the score, in every
    language and both card-name styles."""
    for seed in range(4):
        r = finished(game, players, rules, seed)
        for style in STYLES:
            with speech.speaking(lang, style):
                d = presenter(game).worded(r.score_detail(), [f"P{s}" for s in range(players)])
            for entry in d["seats"]:
                assert sum(i["points"] for i in entry["items"]) == entry["total"] \
                    == r.score()[entry["seat"]]
                for item in entry["items"]:
                    assert item["what"] and item["detail"] is not None
                    assert item["key"] not in (item["what"], item["detail"])
                    assert "{" not in item["what"] + item["detail"]
            for note in d["notes"]:
                assert note["text"] and note["key"] != note["text"] and "{" not in note["text"]
            for pay in (d["chips"] or {}).get("payments", []):
                assert pay["what"] and "{" not in pay["what"]


@pytest.mark.parametrize(("lang", "style", "code", "name"), [
    ("en", "game", "JD", "Star Guardian"), ("en", "classic", "JD", "Jack of diamonds"),
    ("en", "classic", "2C", "2 of clubs"), ("fa", "classic", "10D", "10 خشت"),
    ("fa", "classic", "2C", "2 گشنیز"), ("fa", "game", "KH", "دیده‌بان دل"),
    ("zh", "classic", "QS", "黑桃Q"), ("zh", "game", "2C", "叶2"),
    ("es", "classic", "KH", "rey de corazones"), ("az", "classic", "JC", "xaç valet"),
])
def test_fa1_card_names_in_both_styles(lang, style, code, name):
    with speech.speaking(lang, style):
        assert GAMES["fanti"].card_name(cards.from_code(code)) == name


def test_classic_names_reach_the_score_detail():
    """A Fanti score names the Leaf 2 and Star 10 (FA-9) in the chosen style."""
    r = finished("fanti", 2, {}, 1)
    words = []
    for style in STYLES:
        with speech.speaking("en", style):
            d = presenter("fanti").worded(r.score_detail())
        words.append(" ".join(i["what"] for e in d["seats"] for i in e["items"]))
    assert "Leaf 2" in words[0] and "Star 10" in words[0]
    assert "2 of clubs" in words[1] and "10 of diamonds" in words[1]
    assert "Leaf" not in words[1] and "Most clubs" in words[1] + "Clubs"


@pytest.mark.parametrize("lang", ["fa", "zh"])
def test_round_result_in_the_terminal_speaks_the_language(lang):
    r = finished("fantan", 4, {"stakes": "chips"}, 2)
    out = Console(width=100, record=True)
    with speech.speaking(lang, "classic"):
        out.print(render.round_result("fantan", r.score_detail(), ["A", "B", "C", "D"]))
        title = speech.say("result.title")
    text = out.export_text()
    assert title in text and "Round result" not in text


def test_terminal_language_from_the_environment():
    assert speech.lang_from_env({"LANG": "fa_IR.UTF-8"}) == "fa"
    assert speech.lang_from_env({"LC_ALL": "zh_CN.UTF-8", "LANG": "es_ES.UTF-8"}) == "zh"
    assert speech.lang_from_env({"LANG": "sv_SE.UTF-8"}) == "en"
    assert speech.lang_from_env({}) == "en"
    with pytest.raises(ValueError, match="classic"):
        speech.check_style("french")
