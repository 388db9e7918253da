"""Issue #31 finding 10: invisible names, look-alike names and reserved words."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from server_kit import create
from test_server_seats import join

from parlour.server import names


@pytest.mark.parametrize("name", [
    "\u3164", "Anna\u3164", "\u2800", "\uffa0", "\u115f\u1160", "A\u00adB", "x\u034fy",
    "\u17b4", "Ann\U000e0041", "a\u0301\u0301\u0301\u0301\u0301b"])
def test_invisible_letters_are_refused(name):
    assert names.refusal(name) is not None
    with pytest.raises(names.BadName):
        names.clean(name)


@pytest.mark.parametrize("name", ["\u0397\u03bfst", "H\u043est", "\u0410nna", "Ivan \u0418\u0432\u0430\u043d",
                                  "P\u0430ypal"])
def test_mixed_script_look_alikes_are_refused(name):
    why = names.refusal(name)
    assert why is not None and "alphabet" in why


@pytest.mark.parametrize("name", [
    "Zo\u00eb", "Ana-Mar\u00eda", "O'Brien", "\u0418\u0432\u0430\u043d", "\u0394\u03b7\u03bc\u03ae\u03c4\u03c1\u03b7\u03c2",
    "\u5c71\u7530 Taro", "\u3055\u304f\u3089\u30b5\u30af\u30e9\u685c", "\uae40\ubbfc\uc900 Kim",
    "Ghost", "Hostess", "Jo \u2764\ufe0f", "Nguy\u1ec5n", "Anna 2"])
def test_ordinary_names_in_any_one_script_are_accepted(name):
    assert names.refusal(name) is None, names.refusal(name)


@pytest.mark.parametrize("name", [
    "Spectator", "spectator (watching)", "Anna (watching)", "Host", "HOST", "admin",
    "Administrator", "Computer 2", "Bot 3", "bot", "Expert", "Player 1", "\u0397\u039f\u0399\u039f"[:0] + "Moderator"])
def test_reserved_words_are_refused(name):
    why = names.refusal(name)
    assert why is not None and "word the card room uses" in why


def test_a_blank_name_is_refused_for_a_person_who_must_have_one():
    assert names.refusal("   ") is not None
    assert names.clean("   ") == ""  # a seat may leave it blank: the room names it


def test_look_alike_letters_share_a_key_with_the_latin_name():
    assert names.key("\u0397\u039f\u0405\u03a4") == names.key("HOST")  # all-Greek/Cyrillic caps
    assert names.key("\uff28ost") == names.key("host")  # full width
    assert names.key("Anna") != names.key("Anne")


@given(st.text(max_size=30))
def test_refusal_and_clean_agree(raw):
    """Whatever refusal() lets through, clean() shows unchanged and person() accepts."""
    if names.refusal(raw) is None:
        shown = names.clean(raw)
        assert names.person(raw) == shown and shown
        assert names.refusal(shown) is None


def test_the_room_refuses_such_names_with_plain_words(client):
    for name in ("\u3164", "\u0397\u03bfst", "Spectator (watching)"):
        r = client.post("/api/tables", json={"game": "fantan", "players": 3, "name": name})
        assert r.status_code == 400 and r.json()["error"] == "bad_name", r.text
    j = create(client, "fantan", 3, ["person", "person", "person"], name="Host Anna")
    for name in ("\u3164", "\u0397\u03bfst", "Spectator (watching)", "Computer 3"):
        r = join(client, j, name)
        assert r.status_code == 400 and r.json()["error"] == "bad_name", r.text
    # a whole-script look-alike of a name at the table is taken
    assert join(client, j, "Tom").status_code == 200
    r = join(client, j, "\u03a4\u039f\u039c")  # Greek capitals Tau, Omicron, Mu
    assert r.status_code == 409 and r.json()["error"] == "name_taken", r.text
