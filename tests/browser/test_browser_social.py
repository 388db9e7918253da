"""Strangers and friends in Chromium (issue 32, items 5 and 7): follow a player from
their profile and see them online; invite them to a table from inside the room; block a
player (their chat gone from your page, never paired with them); report from a table
and from a profile; the operator bans on /admin; the banned player is told why when
creating, joining, chatting and signing in."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import (
    PW,
    create_with_form,
    fresh_name,
    open_custom,
    serve_in_thread,
    settings_for,
    sign_up,
    start,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
SECRET = "the operator's own secret"


@pytest.fixture(scope="module")
def url(tmp_path_factory) -> Iterator[str]:
    """A server with the moderation page on (its operator secret)."""
    yield from serve_in_thread(settings_for(
        tmp_path_factory.mktemp("social") / "t.sqlite3", operator_secret=SECRET,
        admin_per_minute=600.0, admin_burst=100, pool_enter_per_minute=600.0,
        pool_enter_burst=100, social_per_minute=600.0, social_burst=100,
        chat_new_burst=20, chat_burst=20))  # (every browser here is one address)


def people(new_page: Any, url: str, *prefixes: str) -> list[tuple[Any, str]]:
    """A browser per prefix, each signed up to a fresh account: ``[(page, name)]``."""
    out = []
    for prefix in prefixes:
        page, name = new_page(), fresh_name(prefix)
        sign_up(page, url, name)
        out.append((page, name))
    return out


def share_a_table(url: str, host: Any, host_name: str, guest: Any, guest_name: str) -> str:
    """``host`` makes a Fanti table for two people, ``guest`` joins by its invite link."""
    table = create_with_form(host, url, "fanti", host_name, 1, seats=["person"])
    guest.goto(host.input_value("[data-link=invite]"))
    guest.fill("#join-name", guest_name)
    guest.click("[data-action=join]")
    guest.wait_for_selector(".waiting")
    host.wait_for_selector(".seat-list li:nth-child(2) .dot.connected")
    return table


def say(page: Any, text: str) -> None:
    page.fill("[data-chat-input]", text)
    page.press("[data-chat-input]", "Enter")


def chat(page: Any) -> str:
    return page.inner_text(".chat-lines")


def shows(page: Any, words: str, timeout: float = 15_000) -> None:
    """Wait until ``words`` are on the page."""
    page.wait_for_function("w => document.body.innerText.includes(w)", arg=words,
                           timeout=timeout)


def test_follow_from_a_profile_see_online_and_invite_from_the_room(new_page, url):
    (ann, a), (ben, b) = people(new_page, url, "Ann", "Ben")
    # Ben sits at a table of his own: his page is connected, so he is online.
    create_with_form(ben, url, "fanti", b, 1, seats=["person"])
    ann.goto(f"{url}/u/{b}")
    ann.click("[data-profile-actions] [data-action=follow]")
    ann.wait_for_selector("[data-profile-actions] [data-action=follow][aria-pressed=true]")
    ann.goto(url + "/")
    friend = ann.wait_for_selector(".friends [data-friend]")
    assert b in friend.inner_text()
    assert friend.query_selector(".dot.connected"), friend.inner_text()
    assert "(online)" in friend.inner_text()
    # From inside her own table, Ann invites Ben to its free seat.
    table = create_with_form(ann, url, "fanti", a, 1, seats=["person"])
    ann.wait_for_selector("[data-invite-select]")
    assert b in ann.inner_text("[data-invite-select]")
    ann.click("[data-action=invite-friend]")
    ann.wait_for_selector(".people [role=status]:not(:empty)")
    ben.goto(url + "/")  # Ben is told: his front page lists the invitation
    invite = ben.wait_for_selector(f"[data-invite='{table}']")
    assert a in invite.inner_text()
    invite.query_selector("a").click()  # and its link seats him
    ben.wait_for_url(f"**/t/{table}*")
    ben.fill("#join-name", b)
    ben.click("[data-action=join]")
    ben.wait_for_selector(".waiting")
    ann.wait_for_selector(".seat-list li:nth-child(2) .dot.connected")
    assert b in ann.inner_text(".seat-list")
    assert ann.errors == [] and ben.errors == []


def test_a_blocked_player_s_chat_is_gone_and_the_pool_never_pairs_them(new_page, url):
    (ann, a), (ben, b), (cy, _c) = people(new_page, url, "Ann", "Ben", "Cy")
    share_a_table(url, ann, a, ben, b)
    start(ann)
    ben.wait_for_selector(".hand .card")
    say(ben, "hello from Ben")
    ann.wait_for_selector(".chat-lines :text('hello from Ben')")
    ann.click("[data-person='1'] [data-action=block]")
    # His line leaves Ann's page, and what he says next never reaches it.
    ann.wait_for_function("() => !document.querySelector('.chat-lines').innerText"
                          ".includes('hello from Ben')")
    say(ben, "Ben again")
    ben.wait_for_selector(".chat-lines :text('Ben again')")
    say(ann, "Ann after the block")  # (chat is in order: Ben's line came before this)
    ann.wait_for_selector(".chat-lines :text('Ann after the block')")
    assert "Ben again" not in chat(ann) and "hello from Ben" not in chat(ann)
    # In the pool: both wait side by side and are not paired; a third is paired at once.
    for page in (ann, ben):
        page.goto(url + "/")
        page.click("[data-action=play-people][data-game=fanti]")
    for page in (ann, ben):
        page.wait_for_selector("[data-pool-counts]:has-text('Waiting now: 2 people')", timeout=20_000)
    cy.goto(url + "/")
    cy.click("[data-action=play-people][data-game=fanti]")
    cy.wait_for_url("**/t/*", timeout=30_000)
    cy.wait_for_selector(".hand .card", timeout=30_000)
    tid = cy.url.rsplit("/", 1)[1]
    seated = [s["name"] for s in cy.evaluate(
        f"fetch('/api/tables/{tid}').then((r) => r.json())")["seats"]]
    assert (a in seated) != (b in seated), seated  # one of them, never both
    left = ben if a in seated else ann
    assert left.query_selector("[data-pool-status=waiting]")
    left.click("[data-action=pool-leave]")
    for page in (ann, ben, cy):
        assert page.errors == [], page.errors


def test_report_from_a_table_and_a_profile_then_the_operator_bans(new_page, url):
    (ann, a), (ben, b), (cy, c) = people(new_page, url, "Ann", "Ben", "Cy")
    table = share_a_table(url, ann, a, ben, b)
    start(ann)
    ben.wait_for_selector(".hand .card")
    say(ben, "some rude words")
    ann.wait_for_selector(".chat-lines :text('some rude words')")
    # From the table: the report goes with the table's chat.
    ann.click("[data-person='1'] [data-action=report]")
    ann.fill("[data-person='1'] .report input", "rude in the chat")
    ann.click("[data-person='1'] [data-action=report-send]")
    shows(ann, "the room's operator will read it")
    # From Ben's profile: no table at hand; the last game they shared goes with it.
    ann.goto(f"{url}/u/{b}")
    ann.click("[data-profile-actions] [data-action=report]")
    ann.fill("[data-profile-actions] .report input", "the same again")
    ann.click("[data-profile-actions] [data-action=report-send]")
    shows(ann, "the room's operator will read it")
    # The operator reads both on /admin and bans Ben.
    op = new_page()
    op.goto(url + "/admin")
    op.fill("#operator-secret", SECRET)
    op.click("[data-action=operator-sign-in]")
    op.wait_for_selector("[data-report]")
    reports = {r.inner_text().split("\n")[0]: r for r in op.query_selector_all("[data-report]")}
    assert len(reports) == 2 and all(b in title for title in reports), list(reports)
    text = "\n".join(r.inner_text() for r in reports.values())
    assert "rude in the chat" in text and "the same again" in text
    assert "some rude words" in text  # the chat went with the table's report
    assert text.count(f"Table {table}") == 2  # the profile's report carries that game too
    first = op.query_selector("[data-report]")
    first.query_selector("input[type=text]").fill("abusive chat")
    first.query_selector("[data-admin=ban]").click()
    op.wait_for_selector("[data-admin-log] li:has-text('abusive chat')")
    why = "by this room's operator: abusive chat"
    # Chatting: the page says why.
    say(ben, "one more")
    shows(ben, why)
    # Creating a table.
    ben.goto(url + "/")
    open_custom(ben)
    ben.click("label[for=game-fanti]")
    ben.click("[data-action=create]")
    shows(ben, why)
    assert "/t/" not in ben.url
    # Joining one.
    create_with_form(cy, url, "fanti", c, 1, seats=["person"])
    ben.goto(cy.input_value("[data-link=invite]"))
    ben.fill("#join-name", b)
    ben.click("[data-action=join]")
    shows(ben, why)
    assert b not in cy.inner_text(".seat-list")  # (Cy's second seat still free)
    # Signing in again.
    ben.goto(url + "/account")
    ben.click("[data-action=sign-out]")
    ben.wait_for_url(url + "/")
    ben.goto(url + "/account")
    ben.fill("#account-name", b)
    ben.fill("#account-password", PW)
    ben.click("[data-action=sign-in]")
    shows(ben, "this account is banned: abusive chat")
    for page in (ann, ben, cy, op):
        assert page.errors == [], page.errors
