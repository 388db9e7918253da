"""Why a seat is no longer a connection's (the server's ``bye``) reaches the player in
their language: the server sends a code (``why``) beside its English ``reason``; the page
and ``parlour play --connect`` word the code from their catalogs (issue 33: the server's
codes stay, their words are translated where they are shown). Before, a Persian player
read "شما دیگر اینجا ننشسته‌اید: this seat was taken back on another device."."""

from __future__ import annotations

import re

import pytest

from parlour.i18n import LANGUAGES
from parlour.i18n.translate import catalog_json
from parlour.netclient import Link, RemoteTable
from parlour.server.intents import GONE_BECAUSE
from parlour.speech import speaking

LATIN = re.compile(r"[A-Za-z]{2,}")


@pytest.mark.parametrize("code", sorted(GONE_BECAUSE))
def test_every_code_the_server_sends_has_words_on_the_page_and_in_the_terminal(code):
    for lang in LANGUAGES:
        assert catalog_json(lang, "web")[f"table.bye.why.{code}"]
        assert catalog_json(lang, "terminal")[f"remote.why.{code}"]


def sent_away(lang: str, why: str | None) -> tuple[int | None, str]:
    said: list[str] = []
    rt = RemoteTable(Link("http://x", "T", invite="k"), {"token": "t"}, input, said.append,
                     False, False, 3)
    msg = {"type": "bye", "reason": "this seat was taken back on another device",
           "reconnect": False}
    if why is not None:
        msg["why"] = why
    with speaking(lang):
        rc = rt._message(msg)
    return rc, said[-1]


@pytest.mark.parametrize("lang", ["fa", "zh"])
def test_the_terminal_says_why_in_the_readers_language(lang):
    rc, line = sent_away(lang, "taken_back")
    assert rc == 0  # the client stops: it does not reconnect to a seat no longer its
    assert not LATIN.search(line), line
    assert catalog_json(lang, "terminal")["remote.why.taken_back"] in line


def test_a_code_the_client_does_not_know_falls_back_to_the_servers_words():
    assert "another device" in sent_away("en", "some_new_code")[1]
    assert "another device" in sent_away("fa", None)[1]  # an older server: no code
