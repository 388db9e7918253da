"""axe-core (WCAG 2.2 A/AA and best practice) run in the page through axe-playwright-python.

``problems(page)`` lists what axe finds: every violation, and every text whose contrast
axe could not decide ("incomplete" color-contrast), so a gradient or an overlap that
hides a contrast from the check fails the test too.
"""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

OPTIONS = {
    # WCAG 2.5.3 (label in name) and 2.5.8 (target size, new in 2.2) are off by default.
    "rules": {"label-content-name-mismatch": {"enabled": True}, "target-size": {"enabled": True}},
    "resultTypes": ["violations", "incomplete"],
}
_AXE = Axe()


def problems(page: Any, context: str | None = None) -> list[str]:
    """Axe's violations and undecided text contrasts on ``page``, one line each."""
    found = _AXE.run(page, context=context, options=OPTIONS).response
    lines = []
    for rule in found["violations"]:
        for node in rule["nodes"]:
            why = node.get("failureSummary", "").replace("\n", " ")[:220]
            lines.append(f"{rule['id']} {node['target']}: {why}")
    for rule in found["incomplete"]:
        if rule["id"] != "color-contrast":
            continue
        for node in rule["nodes"]:
            data = (node.get("any") or [{}])[0].get("data") or {}
            if data.get("messageKey") == "nonBmp":
                continue  # axe's own verdict: a mark such as "✓" alone, not text
            lines.append(f"contrast undecided {node['target']}: {data.get('messageKey')} "
                         f"({data.get('fgColor')} on {data.get('bgColor')})")
    return lines


def assert_clean(page: Any, context: str | None = None) -> None:
    """Fail with axe's own words for each problem found."""
    found = problems(page, context)
    assert not found, f"{len(found)} accessibility problems:\n" + "\n".join(found)
