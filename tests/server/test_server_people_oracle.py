"""Issue #32, proof: the hidden-card oracle covers every answer about people while a
game is in play -- profiles, history, leaderboards (pages and API), pools, the games
waiting on you, friends, the room, passkeys -- and it can fail (server_kit.check_http,
run by the fixture on every HTTP answer whose path starts with HTTP_CHECKED)."""

from __future__ import annotations

import pytest
from server_kit import HTTP_CHECKED, Browser, hidden_cards, http_leaks, mentioned, service
from test_server_ratings import rated_table

pytestmark = pytest.mark.timeout(180)

READS = [("GET", "/api/players/Anna"), ("GET", "/api/players/Ben"), ("GET", "/u/Anna"),
         ("GET", "/api/leaderboard/fanti"), ("GET", "/leaderboard/fanti"),
         ("GET", "/api/pools"), ("GET", "/api/your-move"), ("GET", "/api/me"),
         ("GET", "/api/me/tables"), ("GET", "/api/friends"), ("GET", "/api/blocks"),
         ("GET", "/api/room"), ("POST", "/api/here"), ("GET", "/api/passkeys")]


def test_every_answer_about_people_is_checked_while_a_game_is_in_play(make_app):
    client = make_app(leaderboard_min_games=1, room_counts_every=0.0)
    anna, ben, cy = Browser(client), Browser(client), Browser(client)
    for who, name in ((anna, "Anna"), (ben, "Ben")):
        assert who.post("/api/accounts", json={"name": name, "password": "correct horse "
                                               "battery"}).status_code == 201
    table, seats = rated_table(client, anna, ben)
    seats[0].until_state(lambda s: s["table"]["status"] == "playing" and s["view"])
    t = service(client).tables[table]
    hidden = hidden_cards(t.match, None)
    assert hidden  # both hands and the deck are hidden from everyone but their holders
    assert anna.post("/api/follows", json={"name": "Ben"}).status_code == 201
    ticket = cy.post("/api/pool", json={"game": "fanti", "players": 2})
    assert ticket.status_code == 201
    answers = [ticket]
    answers.append(cy.post("/api/pool/wait", json={"ticket": ticket.json()["ticket"],
                                                   "wait": False}))
    for method, path in READS:
        assert path.startswith(HTTP_CHECKED), f"{path} is not under the oracle"
        answers.append(anna.request(method, path))
    checked = client.oracle.by_audience["http"]
    assert checked >= len(READS) + 2
    for r in answers:
        assert r.status_code < 300, (r.url, r.status_code, r.text[:200])
        body = r.json() if "json" in r.headers["content-type"] else r.text
        assert http_leaks(client, body) == [], r.url
    assert client.oracle.leaks == []
    # The oracle is not blind: an answer naming a card still hidden is caught.
    card = sorted(hidden)[0]
    assert card in mentioned({"note": f"the {card} is in a hand"}, None)
    assert http_leaks(client, {"note": f"the {card} is in a hand"}) != []
    assert t.status == "playing"  # all of the above while the game was in play
