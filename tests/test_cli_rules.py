"""``parlour rules``: every ruling id the product cites can be looked up (issue 16, New)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour
import parlour.cli.commands  # noqa: F401  (registers the commands)
from parlour import rulebook
from parlour.cli import app
from parlour.games import GAMES, get_kit

runner = CliRunner()
SRC = Path(parlour.__file__).parent
CITED = sorted({m for p in SRC.rglob("*.py")
                for m in re.findall(r"\b(F[AT]-\d+|C-\d)\b", p.read_text(encoding="utf-8"))})


def test_the_product_cites_rulings():
    assert {"FA-6", "FA-9", "FT-5", "FT-8", "C-1"} <= set(CITED)


@pytest.mark.parametrize("ruling_id", CITED)
def test_every_cited_ruling_has_a_text(ruling_id):
    found = rulebook.find(ruling_id)
    assert found is not None, f"{ruling_id} is cited in the code but has no text"
    _game, key, r = found
    assert key == ruling_id and r.title and len(r.text) > 40


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_a_summary_and_its_rulings_in_order(game):
    if get_kit(game).part("rulebook") is None:  # an optional part (parlour.kit)
        assert rulebook.summary(game) == "" and rulebook.rulings(game) == rulebook.rulings(None)
        return
    assert rulebook.summary(game)
    ids = [k for k in rulebook.rulings(game) if not k.startswith("C-")]
    assert ids == sorted(ids, key=lambda k: int(k.split("-")[1]))


@pytest.mark.parametrize(("args", "expect"), [
    (["rules", "FT-8"], "FT-8 Fines for holding back"),
    (["rules", "ft8"], "FT-8 Fines for holding back"),
    (["rules", "fantan", "FT-5"], "FT-5 Passing"),
    (["rules", "fanti", "fa-6"], "FA-6 Collecting is compulsory"),
    (["rules", "fanti"], "Options (--rule KEY=VALUE)"),
    (["rules"], "parlour rules fantan"),
    (["rules", "C-3"], "C-3 Shuffling"),
])
def test_rules_command_shows_rulings(args, expect):
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert expect in res.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["rules", "chess"], "neither a game"),
    (["rules", "fanti", "FT-8"], "no ruling 'FT-8' in Fanti"),
    (["rules", "fantan", "FT-99"], "no ruling 'FT-99'"),
])
def test_unknown_rulings_are_one_line_errors(args, message):
    res = runner.invoke(app, args)
    assert res.exit_code == 2 and message in res.stderr
    assert "Traceback" not in res.output


@pytest.mark.parametrize(("game", "lang"), [("fanti", "fa"), ("fantan", "zh")])
def test_the_rules_in_the_language(game, lang):
    """``parlour rules GAME --lang`` prints the rules page's words from the game catalog
    (its names in the chosen card style), not the English rulebook."""
    from parlour.i18n import catalog_json

    res = runner.invoke(app, ["rules", game, "--lang", lang])
    assert res.exit_code == 0, res.output
    words = catalog_json(lang, "game")
    text = " ".join(res.output.split())
    assert words[f"rules.{game}.title"] in text
    first = rulebook.summary(game).split("\n\n")[0].split("\n")[0]
    assert first not in res.output  # the English summary is not shown
    assert "{" not in text


def test_the_rules_in_persian_name_the_classic_cards():
    res = runner.invoke(app, ["rules", "fanti", "--lang", "fa", "--card-names", "classic"])
    assert res.exit_code == 0 and "سرباز" in res.output


def test_the_options_table_in_the_language():
    """``parlour rules GAME --lang`` words each option and choice as the web form does
    (opts.GAME.* in the game catalog) beside the KEY=VALUE to type; English unchanged."""
    from parlour.i18n import catalog_json

    res = runner.invoke(app, ["rules", "fantan", "--lang", "es"], env={"COLUMNS": "400"})
    assert res.exit_code == 0, res.output
    words = catalog_json("es", "game")
    assert words["opts.fantan.ace.label"] in res.output
    assert f"high ({words['opts.fantan.ace.high']})" in res.output
    en = runner.invoke(app, ["rules", "fantan", "--lang", "en"], env={"COLUMNS": "400"})
    assert words["opts.fantan.ace.label"] not in en.output and '"low" | "high"' in en.output
    fa = runner.invoke(app, ["rules", "fanti", "--lang", "fa"], env={"COLUMNS": "400"})
    assert "{" not in fa.output and catalog_json("fa", "game")["opts.fanti.pack.label"] in fa.output


ENGLISH_LABELS = ("Options (--rule", "what it decides", "Rulings", "Every game", "every game",
                  "integer >=", " players.")


@pytest.mark.parametrize("lang", ["fa", "az", "zh", "es"])
def test_every_heading_and_label_in_the_language(lang):
    """``parlour rules [GAME|ID] --lang``: the headings and labels around the rulings
    (the options table's, "Rulings", "Every game", where a ruling applies) come from the
    terminal catalog, and say that the rulings themselves are the English reference; no
    English heading is left (the rulings' own titles and texts stay English)."""
    from parlour.i18n import catalog_json

    words = catalog_json(lang, "terminal")
    wide = {"COLUMNS": "400"}
    for args in (["rules", "fanti"], ["rules", "fantan"], ["rules"], ["rules", "C-2"]):
        res = runner.invoke(app, [*args, "--lang", lang], env=wide)
        assert res.exit_code == 0, res.output
        # the rulings' texts are English: only the lines around them are looked at
        lines = [ln for ln in res.output.splitlines()
                 if not re.match(r"\s*(?:F[AT]|C)-\d+ ", ln) and not ln.startswith("Seats are")]
        shown = "\n".join(lines)
        for english in ENGLISH_LABELS:
            assert english not in shown, (args, english)
        assert "{" not in res.output
    fanti = runner.invoke(app, ["rules", "fanti", "--lang", lang], env=wide).output
    for key in ("rules.options.title", "rules.options.key", "rules.options.values",
                "rules.options.what", "rules.rulings"):
        assert words[key] in fanti, key
    assert words["rules.options.integer"].format(min="1") in fanti
    every = runner.invoke(app, ["rules", "--lang", lang], env=wide).output
    assert words["rules.every_game"] in every
    assert catalog_json(lang, "game")["fanti.blurb"] in every
    one = runner.invoke(app, ["rules", "C-2", "--lang", lang], env=wide).output
    assert words["rules.where.every"] in one and words["rules.in_english"] in one


def test_the_headings_in_english_are_unchanged():
    res = runner.invoke(app, ["rules", "fanti"], env={"COLUMNS": "400"})
    assert "Options (--rule KEY=VALUE)" in res.output and "\nRulings\n" in res.output
    assert "integer >= 1" in res.output and "what it decides" in res.output
    assert "(in English)" not in res.output


@pytest.mark.parametrize(("args", "key"), [
    (["rules", "chess"], "rules.error.neither"),
    (["rules", "fanti", "FT-8"], "rules.error.no_ruling_in"),
])
def test_an_unknown_ruling_is_refused_in_the_language(args, key):
    """The refusal's words come from the terminal catalog too (English unchanged above)."""
    from parlour.i18n import catalog_json

    res = runner.invoke(app, [*args, "--lang", "fa"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    head = catalog_json("fa", "terminal")[key].split("{")[0].strip() or "حکم"
    assert head in res.stderr and "neither" not in res.stderr and "no ruling" not in res.stderr
