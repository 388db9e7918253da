"""GET /api/rulings/{game}: the rulings a rules page links its ids to (#33's Words:
the rules pages link to the rulings they cite)."""

from __future__ import annotations

from parlour import rulebook


def test_a_games_rulings_its_own_then_the_common_ones(client):
    r = client.get("/api/rulings/fanti")
    assert r.status_code == 200 and "max-age" in r.headers["cache-control"]
    ids = [x["id"] for x in r.json()]
    assert ids[:11] == [f"FA-{n}" for n in range(1, 12)] and "C-1" in ids
    six = next(x for x in r.json() if x["id"] == "FA-6")
    assert six == {"id": "FA-6", "title": rulebook.rulings("fanti")["FA-6"].title,
                   "text": rulebook.rulings("fanti")["FA-6"].text}
    assert [x["id"] for x in client.get("/api/rulings/fantan").json()][:12] == [
        f"FT-{n}" for n in range(1, 13)]


def test_an_unknown_game_is_a_404_in_the_error_shape(client):
    r = client.get("/api/rulings/chess")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert set(r.json()) >= {"error", "message"}
