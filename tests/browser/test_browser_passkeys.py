"""Your passkeys on /account in real Chromium (issue #32): made with two virtual
authenticators (CDP ``WebAuthn``), listed with their labels and dates and never their
ids, renamed, one used to sign in (its "last used" date appears), one removed, and the
last one of an account without a password kept, in words."""

from __future__ import annotations

import base64

import pytest
from browser_kit import fresh_name
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

OPTIONS = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
           "hasUserVerification": True, "isUserVerified": True,
           "automaticPresenceSimulation": True}


def row(page, label):
    return page.locator("[data-passkey-row]", has_text=label)


def test_passkeys_are_listed_renamed_used_and_removed_but_never_the_last(new_page, live_url):
    base = live_url.replace("127.0.0.1", "localhost")  # a passkey needs a host name
    page = new_page()
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    first = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": OPTIONS})["authenticatorId"]
    name = fresh_name("Kit")
    page.goto(base + "/account")
    page.fill("#account-name", name)
    page.click("[data-action=passkey-sign-up]")
    page.wait_for_selector(f"h2:has-text('Signed in as {name}')")
    page.wait_for_selector("[data-passkey-row]")
    assert page.locator("[data-passkey-row]").count() == 1
    assert "not used yet" in row(page, "Passkey 1").inner_text()
    made = cdp.send("WebAuthn.getCredentials", {"authenticatorId": first})["credentials"]
    # A second device: another authenticator (the first one leaves this browser).
    cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": first})
    second = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": OPTIONS})["authenticatorId"]
    page.click("[data-action=add-passkey]")
    expect(page.locator("[data-passkey-row]")).to_have_count(2)
    made += cdp.send("WebAuthn.getCredentials", {"authenticatorId": second})["credentials"]
    # Rename the first.
    first_row = row(page, "Passkey 1")
    first_row.locator("[data-action=rename-passkey]").click()
    first_row.locator("[data-passkey-input]").fill("Old phone")
    first_row.locator("[data-action=save-passkey]").click()
    page.wait_for_selector("[data-passkey-row]:has-text('Old phone')")
    # Sign out, sign in with the second device: its "last used" date appears.
    page.click("[data-action=sign-out]")
    page.wait_for_url(base + "/")
    page.goto(base + "/account")
    page.click("[data-action=passkey-sign-in]")
    page.wait_for_selector(f"h2:has-text('Signed in as {name}')")
    page.wait_for_selector("[data-passkey-row]:has-text('Passkey 2')")
    assert "last used" in row(page, "Passkey 2").inner_text()
    assert "not used yet" in row(page, "Old phone").inner_text()
    # No credential id is on the page, in any spelling.
    html = page.content()
    for c in made:
        raw = base64.b64decode(c["credentialId"])
        for spelling in (c["credentialId"], base64.urlsafe_b64encode(raw).decode().rstrip("=")):
            assert spelling not in html
    # Remove the old one; the last one stays (no password on this account), in words.
    row(page, "Old phone").locator("[data-action=remove-passkey]").click()
    expect(page.locator("[data-passkey-row]")).to_have_count(1)
    row(page, "Passkey 2").locator("[data-action=remove-passkey]").click()
    expect(page.locator("[data-passkeys] [role=alert]")).to_contain_text("only way to sign in")
    assert page.locator("[data-passkey-row]").count() == 1
    assert page.errors == []
