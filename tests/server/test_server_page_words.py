"""A page's words are read from its scripts (server/page_words.py, server/pages.py)."""

from __future__ import annotations

import re

import orjson
import pytest

from parlour.i18n import LANGUAGES, catalog_json
from parlour.server import page_words
from parlour.server.pages import _entries, _game_modules, catalog_body

CALL = re.compile(r"""\b(t|tn|tg|tgn)\(\s*["']([^"']+)["']""")


def test_literals_prefixes_templates_and_plurals():
    source = """
      t("lobby.play_now"); tn("hand.cards", 3); x = "error." + code;
      tg(`card.rank.${r}.${style}`); has(`${k}.${j}`); y = "not a key";
    """
    keys = ["lobby.play_now", "lobby.other", "hand.cards#one", "hand.cards#other",
            "error.busy", "card.rank.J.game", "card.suit.clubs.game", "a.b"]
    got = page_words.drawn(keys, {"m.js": source})
    assert got == {"lobby.play_now", "hand.cards#one", "hand.cards#other", "error.busy",
                   "card.rank.J.game"}


def test_the_closure_follows_imports_but_not_into_another_page(tmp_path, monkeypatch):
    (tmp_path / "games").mkdir()
    (tmp_path / "main.js").write_text('import("./c.js").then(go);\nimport("./a.js");\n')
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\nimport("./c.js");\n'
                                   'import("./e.js").then(use);\n')
    (tmp_path / "e.js").write_text("")
    (tmp_path / "b.js").write_text('export { x } from "./d.js";\n')
    (tmp_path / "c.js").write_text("")
    (tmp_path / "d.js").write_text("")
    (tmp_path / "game.js").write_text('import { t } from "../a.js";\n')
    monkeypatch.setattr(page_words, "STATIC_JS", tmp_path)
    assert set(page_words.closure(["a.js"], {})) == {"a.js", "b.js", "d.js", "e.js"}
    assert set(page_words.closure(["main.js"], {})) == {"main.js"}
    assert set(page_words.closure(["games/g.js"], {"g": tmp_path / "game.js"})) == {
        "games/g.js", "a.js", "b.js", "d.js", "e.js"}
    # a page whose on-demand modules fetch their own words: static imports only
    assert set(page_words.closure(["a.js"], {}, later=False)) == {"a.js", "b.js", "d.js"}


def test_a_table_loads_its_later_parts_words_with_them():
    """The end-of-round details', the people box's and the rules dialog's words leave a
    table's first load and come in the bundle its on-demand modules fetch (js/table.js)."""
    for code in ("en", "fa"):
        first = orjson.loads(catalog_body(code, "table-fanti")[0])["web"]
        later = orjson.loads(catalog_body(code, "later-fanti")[0])["web"]
        for key in ("score.went_out", "profile.actions.report", "howto.close",
                    "table.rematch.offer", "table.over.you_win", "profile.result.won"):
            assert key not in first and key in later, (code, key)
        assert not set(first) & set(later)
        assert "table.rules" in first


@pytest.mark.parametrize("bundle", ["front", "table", "table-fanti", "table-fantan"])
def test_every_word_a_page_module_names_is_in_its_bundle(bundle):
    """Each key a page's modules name outright exists in English and is in the page's
    words in every language (a word left out shows nothing)."""
    modules = page_words.closure(_entries(bundle), _game_modules())
    assert {"main.js", "i18n.js"} <= set(modules)
    named = {(("game" if f.startswith("tg") else "web"), k)
             for src in modules.values() for f, k in CALL.findall(src)}
    assert named
    for code in LANGUAGES:
        words = orjson.loads(catalog_body(code, bundle)[0])
        if bundle.startswith("table"):  # what a table loads on demand brings its words
            extra = orjson.loads(catalog_body(code, "later-" + bundle.split("-")[1] if "-" in bundle else "later")[0])
            words = {d: {**words[d], **extra[d]} for d in words}
        for domain, key in named:
            if (domain == "game" and (key.startswith("rules.") or ".rules." in key)) or key.endswith("."):
                continue  # on demand (the rules dialog), or a prefix ("error." + code)
            english = catalog_json("en", domain)
            assert key in english or f"{key}#other" in english, f"{domain}:{key} in no catalog"
            assert key in words[domain] or f"{key}#other" in words[domain], (code, bundle, key)


def test_the_light_bundles_are_lighter():
    for code in ("en", "fa"):
        whole = len(catalog_body(code, "all")[0])
        assert len(catalog_body(code, "front")[0]) < 0.6 * whole
        assert len(catalog_body(code, "table-fanti")[0]) < 0.7 * whole


def test_a_keys_variant_built_from_it_is_drawn_with_it():
    """log.js words a sentence about the reader with `${key}.you`: the variant of every
    key the module names comes with it (the fresh-clone run lost "You play ...,
    collecting ..." from the log when it did not)."""
    source = ('function about(key, seat) { return seat === you ? `${key}.you` : key; }\n'
              'say("log.deal", 1); t("log.collect")')
    got = page_words.drawn(["log.deal", "log.deal.you", "log.collect.you", "log.pass.you"],
                           {"log.js": source})
    assert got == {"log.deal", "log.deal.you", "log.collect.you"}


@pytest.mark.parametrize("game", ["fanti", "fantan"])
def test_a_tables_game_words_are_its_own_and_all_come_first_or_later(game):
    """Every word of the table's game (and of no game) that a server answer may carry as
    a key -- score details, refusals, a pass's price -- is in the table's first words or
    in those it loads later; the refusals and the pass's price (drawn at the first paint)
    come first, the score details later; another game's words come with neither."""
    other = ({"fanti", "fantan"} - {game}).pop()
    for code in LANGUAGES:
        first = orjson.loads(catalog_body(code, f"table-{game}")[0])["game"]
        later = orjson.loads(catalog_body(code, f"later-{game}")[0])["game"]
        assert not set(first) & set(later)
        every = catalog_json(code, "game")
        for key in every:
            head = key.split(".")
            if head[0] == "rules" or other in head[:2]:
                assert key not in first and key not in later, (code, key)
            elif head[0] != "opts":  # a table draws the options' words its modules name
                assert key in first or key in later, (code, key)
            if head[0] == "refusal" or key.startswith("fantan.offer."):
                assert key in first or other in head[:2], (code, key)
            if head[0] == game and head[1] in ("score", "note") and not key.endswith(".what"):
                assert key in later, (code, key)
