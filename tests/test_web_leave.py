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
    page.wait_for_function("document.body?.dataset.status === 'waiting'")
    page.locator("#leavebtn").wait_for(state="visible")
    assert _shown(page) == {"leave": True, "cancel": True, "resign": False}
    assert page.locator("#auction").is_hidden()  # no stray box on a waiting table

    page.locator("#leavebtn").click()  # nobody else sat at it: it closes
    page.wait_for_function("document.body?.dataset.closed === '1'")
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
    page.wait_for_function("document.body?.dataset.closed === '1'")
    assert _status(f"{server}/api/tables/{table_id}") == 410
    assert page.locator("#chatlog .note", has_text="cancelled").count() == 1

    # A match against a bot: Ana resigns, and the bot's side wins the match there and then.
    page.goto(server)
    table_id = _create_table(page, "spanish", "Ana", {1: "easy"})
    page.locator("#resignbtn").wait_for(state="visible")
    assert _shown(page) == {"leave": False, "cancel": False, "resign": True}
    page.locator("#resignbtn").click()
    page.wait_for_function("document.body?.dataset.status === 'finished'")
    assert page.locator("#chatlog .note", has_text="resigned").count() >= 1
    assert _get(f"{server}/api/games/{table_id}")["winner"] == 1
    assert page.locator("#status").inner_text() == "The match is over"
    assert "Ana (guest) resigned" in page.locator("#result").inner_text()  # a guest, still marked so
    assert page.locator(".seat.turn").count() == 0 and page.locator(".turnchip").count() == 0
    assert not errors, errors
    ctx.close()


def test_a_table_closed_mid_match_shows_why_and_no_turn(browser: Any, tmp_path: Any) -> None:  # noqa: F811
    """A watcher's page, open since the table waited: the match starts, its one person is away (a bot plays for
    them at once), and the table closes mid-match. The page says it is closed and why, with the match so far; no
    seat is to play and no seat holds cards."""
    from test_web_browser import serving

    with serving(str(tmp_path / "db.sqlite3"), tmp_path, flags=("--takeover-after", "0", "--max-hands", "1")) as base:
        made = _post(f"{base}/api/tables", {"preset": "spanish", "players": 2, "bots": {"1": "easy"},
                                            "bot_delay": 0.2, "options": {"target_hands": 3}})
        table_id = made["table_id"]
        ctx, page, errors = _open_page(browser, viewport=PHONE)
        page.goto(f"{base}/t/{table_id}")
        page.wait_for_function("document.body?.dataset.status === 'waiting'")
        _post(f"{base}/api/tables/{table_id}/join", {"name": "Ana"})  # nobody connects for Ana's seat
        page.wait_for_function("document.body?.dataset.closed === '1'", timeout=30_000)
        status = page.locator("#status").inner_text()
        assert status.startswith("The table is closed: ") and "Watching" not in status, status
        assert page.locator(".seat.turn").count() == 0 and page.locator(".turnchip").count() == 0
        assert page.locator(".seat .fan").count() == 0
        assert page.locator("#result").inner_text().startswith("The table is closed: ")
        page.locator("#results").wait_for(state="visible")  # opened by itself, as at the end of a hand
        assert page.locator("#resultsbody .endreason").inner_text().startswith("The table is closed: ")
        assert page.locator("#resultsbody .matchline").count() == 1
        assert _status(f"{base}/api/tables/{table_id}") == 410

        # Opened again afterwards: it says why it closed.
        page.reload()
        page.wait_for_function("document.body?.dataset.closed === '1'")
        assert page.locator("#status").inner_text().startswith("The table is closed: ")
        assert not errors, errors
        ctx.close()
