"""Accounts in real Chromium (issue 32): sign up and sign in on the page, a guest who
signs up keeps their table, a seat taken back on another signed-in browser, and a
passkey made and used through Chromium's virtual authenticator (CDP ``WebAuthn``)."""

from __future__ import annotations

import pytest
from browser_kit import PW, fresh_name, open_custom, sign_in, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
def test_sign_up_sign_out_and_sign_in_on_the_page(new_page, live_url):
    page = new_page()
    name = fresh_name("Ada")
    page.goto(live_url + "/")
    page.wait_for_selector("#who")
    assert page.inner_text("#who") == "Sign in"
    sign_up(page, live_url, name)
    assert page.inner_text("#who") == name
    cookies = page.context.cookies()
    assert [c["httpOnly"] for c in cookies if c["name"] == "parlour_id"] == [True]
    assert page.evaluate("document.cookie") == ""  # the page's script cannot read it
    page.click("[data-action=sign-out]")
    page.wait_for_url(live_url + "/")
    page.goto(live_url + "/account")
    page.fill("#account-name", name)
    page.fill("#account-password", "not the password")
    page.click("[data-action=sign-in]")
    page.wait_for_selector("[role=alert]:has-text('the name or the password is wrong')")
    page.fill("#account-password", PW)
    page.click("[data-action=sign-in]")
    page.wait_for_selector(f"h2:has-text('Signed in as {name}')")
    assert page.errors == []


def test_a_guest_signs_up_keeps_the_table_and_takes_the_seat_back_elsewhere(new_page, live_url):
    laptop, phone = new_page(), new_page()
    name = fresh_name("Bea")
    laptop.goto(live_url + "/")
    open_custom(laptop)
    laptop.click("label[for=game-fantan]")
    laptop.click("[data-action=create]")
    laptop.wait_for_url("**/t/*")
    table = laptop.url.rsplit("/", 1)[1]
    sign_up(laptop, live_url, name)
    laptop.wait_for_selector(f"[data-my-table='{table}']")
    # Another browser, signed in to the same account, finds the table and its seat.
    sign_in(phone, live_url, name)
    phone.click(f"[data-my-table='{table}']")
    phone.wait_for_url(f"**/t/{table}")
    phone.wait_for_selector(".hand .card")  # the host's own seat, no link used
    assert laptop.errors == [] and phone.errors == []


def test_a_passkey_signs_up_and_signs_in(new_page, live_url):
    base = live_url.replace("127.0.0.1", "localhost")  # a passkey needs a host name
    page = new_page()
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
        "automaticPresenceSimulation": True}})
    name = fresh_name("Cy")
    page.goto(base + "/account")
    page.fill("#account-name", name)
    page.click("[data-action=passkey-sign-up]")
    page.wait_for_selector(f"h2:has-text('Signed in as {name}')")
    assert "a passkey" in page.inner_text(".account")
    page.click("[data-action=sign-out]")
    page.wait_for_url(base + "/")
    page.goto(base + "/account")
    page.wait_for_selector("[data-action=passkey-sign-in]")
    page.click("[data-action=passkey-sign-in]")  # no name: the authenticator knows it
    page.wait_for_selector(f"h2:has-text('Signed in as {name}')")
    assert page.inner_text("#who") == name
    assert page.errors == []
