"""Leave, cancel and resign at the table in a real browser, on a phone: the buttons show when they apply, and
the server's answer is what the page shows.

Same browser and server as ``test_web_browser.py``; it skips without them unless ``BRISCA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from test_web_browser import _create_table, _get, _open_page, browser, server  # noqa: F401  (fixtures)

PHONE = {"width": 390, "height": 844}


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def _shown(page: Any) -> dict[str, bool]:
    return {b: page.locator(f"#{b}btn").is_visible() for b in ("leave", "cancel", "resign")}


def test_leave_join_again_cancel_and_resign_on_a_phone(browser: Any, server: str) -> None:  # noqa: F811
    ctx, page, errors = _open_page(browser, viewport=PHONE)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(server)
    # A table for two people: Ana waits for someone.
    table_id = _create_table(page, "spanish", "Ana", {1: ""})
    page.wait_for_function("document.body.dataset.status === 'waiting'")
    page.locator("#leavebtn").wait_for(state="visible")
    assert _shown(page) == {"leave": True, "cancel": True, "resign": False}
    assert page.locator("#auction").is_hidden()  # no stray box on a waiting table

    page.locator("#leavebtn").click()  # nobody else sat at it: it closes
    page.wait_for_function("document.body.dataset.closed === '1'")
    assert _status(f"{server}/api/tables/{table_id}") == 410
    assert page.locator("#chatlog .note", has_text="Ana").count() >= 1
    assert _shown(page) == {"leave": False, "cancel": False, "resign": False}
    assert page.locator("#join").is_hidden()

    # Another table, Bo at it too: Ana leaves (the table stays), sits again through the form, then cancels it.
    page.goto(server)
    table_id = _create_table(page, "spanish", "Ana", {1: "", 2: "", 3: ""}, players=4)
    _post(f"{server}/api/tables/{table_id}/join", {"name": "Bo"})
    page.locator("#leavebtn").wait_for(state="visible")
    page.locator("#leavebtn").click()
    page.locator("#join").wait_for(state="visible")
    assert _shown(page) == {"leave": False, "cancel": True, "resign": False}
    assert _get(f"{server}/api/tables/{table_id}")["status"] == "waiting"
    page.locator("#joinform input[name=name]").fill("Ana")
    page.locator("#joinform button[type=submit]").click()
    page.locator("#leavebtn").wait_for(state="visible")
    page.locator("#cancelbtn").click()
    page.wait_for_function("document.body.dataset.closed === '1'")
    assert _status(f"{server}/api/tables/{table_id}") == 410
    assert page.locator("#chatlog .note", has_text="cancelled").count() == 1

    # A match against a bot: Ana resigns, nobody is left to play, and the table closes.
    page.goto(server)
    table_id = _create_table(page, "spanish", "Ana", {1: "easy"})
    page.locator("#resignbtn").wait_for(state="visible")
    assert _shown(page) == {"leave": False, "cancel": False, "resign": True}
    page.locator("#resignbtn").click()
    page.wait_for_function("document.body.dataset.closed === '1'")
    assert page.locator("#chatlog .note", has_text="resigned").count() >= 1
    assert _status(f"{server}/api/tables/{table_id}") == 410
    assert not errors, errors
    ctx.close()
