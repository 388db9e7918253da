"""A browser asking for a page that is not there gets the page (404), which says so in
words with a way on (issue 33, defect 8); the API and scripts keep the JSON error shape."""

from __future__ import annotations

HTML = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def test_an_unknown_path_answers_a_browser_with_the_page(client):
    r = client.get("/no/such/page", headers=HTML)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert '<main id="app"' in r.text


def test_the_api_and_scripts_keep_the_json_shape(client):
    for path, headers in (("/no/such/page", {}), ("/api/nothing", HTML), ("/static/none.js", HTML)):
        r = client.get(path, headers=headers)
        assert r.status_code == 404
        assert r.json()["error"] == "not_found", path
    assert client.post("/no/such/page", headers=HTML).json()["error"] in ("not_found", "method_not_allowed")
