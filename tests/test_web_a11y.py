"""Accessibility: axe-core, run in chromium on the lobby and on the card table (during play and with the
match's results open, on a desktop and on a phone), finds no serious or critical violation.

axe-core is vendored under ``tests/vendor/axe-core`` (its README says which version and how to update it).
Same browser and server as ``test_web_browser.py``; it skips without them unless ``BRISCA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from test_web_browser import _open_page, browser, server  # noqa: F401  (browser, server: the fixtures)
from test_web_table import DESKTOP, PHONE, _post

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
#: Budget for one page's game; every wait below is bounded too.
BUDGET_S = 60.0


def _violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => ({id: v.id, impact: v.impact, help: v.help,
                        nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
    }""")
    return found


def _report(where: str, found: list[dict[str, Any]]) -> str:
    return f"{where}: " + json.dumps(found, indent=1)


def test_axe_finds_no_serious_violation_in_the_lobby(browser: Any, server: str) -> None:  # noqa: F811
    for viewport in (DESKTOP, PHONE):
        context, page, errors = _open_page(browser, locale="en-US", viewport=viewport)
        page.goto(f"{server}/")
        page.wait_for_function("document.body?.dataset.lobby", timeout=10_000)
        found = _violations(page)
        assert not found, _report(f"lobby {viewport}", found)
        assert not errors, errors
        context.close()


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_axe_finds_no_serious_violation_at_the_table(browser: Any, server: str, screen: str) -> None:  # noqa: F811
    started = time.monotonic()

    def left_ms() -> float:
        left = BUDGET_S - (time.monotonic() - started)
        assert left > 0, f"over the {BUDGET_S} s budget"
        return min(15_000.0, left * 1000)

    viewport = DESKTOP if screen == "desktop" else PHONE
    context, page, errors = _open_page(browser, locale="en-US", viewport=viewport)
    made = _post(f"{server}/api/tables", {"preset": "spanish", "players": 4, "bots": {"1": "easy", "2": "easy",
                                                                                       "3": "easy"},
                                          "bot_delay": 0, "name": "Ana", "options": {"target_hands": 1}})
    page.goto(f"{server}/games")
    page.evaluate(f"localStorage.setItem('brisca:seat:{made['table_id']}', JSON.stringify({json.dumps(made)}))")
    page.goto(f"{server}/t/{made['table_id']}")
    checked = 0
    while True:
        page.wait_for_function("document.body?.dataset.status === 'finished' || "
                               "document.querySelector('#hand .card.legal')", timeout=left_ms())
        if page.evaluate("document.body.dataset.status") == "finished":
            break
        if checked in (0, 5):  # the first turn, and one with a trick taken and cards on the table
            page.evaluate("motion.finish()")
            found = _violations(page)
            assert not found, _report(f"table, turn {checked}", found)
        checked += 1
        v = int(page.evaluate("document.body.dataset.v"))
        page.locator("#hand .cardbtn.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}", timeout=left_ms())
    page.locator("#results").wait_for(timeout=left_ms())
    assert checked >= 6
    found = _violations(page)
    assert not found, _report("the match's results", found)
    assert not errors, errors
    context.close()
