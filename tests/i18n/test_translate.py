"""t(), negotiate(), plural and number rules, the English fallback and en-XA."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.i18n import (
    LANGUAGES,
    PSEUDO,
    MissingKey,
    catalog_json,
    format_number,
    language,
    negotiate,
    plural_category,
    t,
)
from parlour.i18n import catalogs as catalogs_module
from parlour.i18n.pseudo import pseudo


def test_registry():
    assert list(LANGUAGES) == ["en", "fa", "az", "zh", "es"]
    assert LANGUAGES["fa"].rtl and LANGUAGES["fa"].dir == "rtl"
    assert not any(lang.rtl for code, lang in LANGUAGES.items() if code != "fa")
    assert LANGUAGES["zh"].tag == "zh-Hans" and LANGUAGES["es"].tag == "es"
    assert PSEUDO.code == "en-XA" and "en-XA" not in LANGUAGES
    assert language("EN-xa") is PSEUDO and language("fr") is None and language("") is None


@pytest.mark.parametrize(("header", "chosen", "want"), [
    (None, None, "en"),
    ("", None, "en"),
    ("fa-IR,fa;q=0.9,en-US;q=0.8", None, "fa"),
    ("zh-CN,zh;q=0.9", None, "zh"),
    ("sv-SE,sv;q=0.9,es;q=0.5,en;q=0.4", None, "es"),
    ("en;q=0.5, az-AZ;q=0.8", None, "az"),
    ("fr-FR, de;q=0.9", None, "en"),
    ("prs-AF", None, "fa"),
    ("es;q=0, en", None, "en"),
    ("*;q=0.1, es;q=nonsense, zh-Hans-CN;q=0.2", None, "zh"),
    ("fa-IR", "es", "es"),
    ("fa-IR", "nope", "fa"),
    ("fa-IR", "en-XA", "en-XA"),
    (";;,,q=;", None, "en"),
])
def test_negotiate(header, chosen, want):
    assert negotiate(header, chosen) == want


@given(st.text(max_size=200), st.one_of(st.none(), st.text(max_size=20)))
def test_negotiate_always_answers_a_language(header, chosen):
    assert language(negotiate(header, chosen)) is not None


def test_lookup_and_placeholders():
    assert t("en", "error.not_your_turn") == "It is not your turn yet."
    assert t("fa", "error.not_your_turn") == "هنوز نوبت شما نیست."
    assert t("es", "error.illegal", reason="X") == "Esa carta no se puede jugar ahora: X."
    assert t("xx", "error.not_your_turn") == "It is not your turn yet."  # unknown -> English


def test_plurals_follow_cldr():
    assert t("en", "hand.cards", count=1) == "1 card"
    assert t("en", "hand.cards", count=2) == "2 cards"
    assert t("en", "hand.cards", count=1000) == "1,000 cards"
    assert t("zh", "hand.cards", count=1) == "1 张牌"
    assert t("es", "hand.cards", count=1) == "1 carta"
    assert t("es", "hand.cards", count=1_000_000) == "1.000.000 de cartas"
    assert plural_category("fa", 0) == "one" and plural_category("en", 0) == "other"
    assert plural_category("es", 1_000_000) == "many"


def test_numbers():
    assert format_number("en", 1234.5) == "1,234.5"
    assert format_number("es", 12345.5) == "12.345,5"
    assert format_number("az", 12345.5) == "12.345,5"
    assert format_number("fa", 1234) == "1,234"  # Latin digits, as the cards print them


def test_missing_in_a_language_falls_back_to_english(monkeypatch):
    real = catalogs_module.messages

    def without(code, domain):
        words = dict(real(code, domain))
        if code == "fa":
            words.pop("error.expired", None)
        return words

    catalog_json.cache_clear()
    monkeypatch.setattr("parlour.i18n.translate.messages", without)
    try:
        assert t("fa", "error.expired") == "This table has expired."
        assert catalog_json("fa", "web")["error.expired"] == "This table has expired."
    finally:
        catalog_json.cache_clear()


def test_a_key_missing_in_english_raises_in_tests_and_is_blank_otherwise(monkeypatch):
    with pytest.raises(MissingKey):
        t("fa", "no.such.key")
    with pytest.raises(MissingKey):
        t("es", "error.illegal")  # {reason} not given
    monkeypatch.setenv("PARLOUR_I18N_STRICT", "0")
    assert t("fa", "no.such.key") == ""
    assert t("en", "error.illegal") == "That card cannot be played now: …."


def test_catalog_json_has_every_english_key_in_every_language():
    english = catalog_json("en", "web")
    for code in [*LANGUAGES, PSEUDO.code]:
        words = catalog_json(code, "web")
        assert set(english) <= set(words), code
        assert all(words.values()), code
    with pytest.raises(ValueError):
        catalog_json("en", "nope")


def test_pseudo_is_accented_longer_and_keeps_placeholders():
    text = "It is {name}'s turn: play a card."
    out = pseudo(text)
    assert "{name}" in out and out.startswith("[") and out.endswith("]")
    assert len(out) >= 1.4 * len(text)
    assert not any(c in out.replace("{name}", "") for c in "aeiouAEIOU")
    assert t("en-XA", "error.illegal", reason="R").count("R") == 1


@given(st.text(max_size=80))
def test_pseudo_never_loses_a_placeholder(words):
    text = words.replace("{", "").replace("}", "") + " {seat}"
    assert "{seat}" in pseudo(text)
