"""The rules pages link to the rulings they cite (#33's Words): each ruling is on the
page under its own id, so /rules/fanti#FA-6 opens at FA-6, in every language (the
rulings' text stays the project's English reference, marked as English)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(90)]


@pytest.mark.parametrize("game,first,last", [("fanti", "FA-1", "FA-11"),
                                             ("fantan", "FT-1", "FT-12")])
def test_the_rules_page_lists_its_rulings_under_their_ids(new_page, live_url, game, first, last):
    page = new_page()
    page.goto(f"{live_url}/rules/{game}#{last}")
    page.wait_for_selector(f"#rulings dt[id='{first}']")
    assert page.query_selector(f"#rulings dt[id='{last}'] a[href='#{last}']")
    page.wait_for_function(f"() => {{ const r = document.getElementById('{last}')"
                           f".getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }}")
    assert page.get_attribute("#rulings dl", "lang") == "en"
    assert f"{first} to {last}" in page.inner_text("main")  # the line that points to them
    assert page.errors == []


def test_in_persian_the_heading_is_persian_and_the_rulings_marked_english(new_page, live_url):
    page = new_page(locale="fa-IR")
    page.goto(f"{live_url}/rules/fanti")
    page.wait_for_selector("#rulings dt[id='FA-6']")
    assert page.inner_text("#rulings h2") == "حکم‌ها (به انگلیسی)"
    assert page.get_attribute("#rulings dl", "dir") == "ltr"
    assert page.errors == []
