"""The move clock in a real browser: picked in the lobby's form, shown at the table, counting down at the seat
whose turn it is, in the page's language.

Same browser and server as ``test_web_browser.py``; it skips without them unless ``BRISCA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import re
from typing import Any

from test_web_browser import _get, _open_page, _sign_up, browser, server  # noqa: F401  (fixtures)


def test_the_creator_picks_a_clock_and_the_table_counts_down_the_turn(browser: Any, server: str) -> None:  # noqa: F811
    ctx, page, errors = _open_page(browser, locale="en-US")
    page.goto(server)
    form = page.locator("#create")
    form.locator("select[name=preset]").select_option("spanish")
    clock = form.locator("select[name=clock]")
    assert clock.locator("option[value=default]").inner_text() == "The preset's (15 s + 1 min)"
    assert clock.locator("option[value=fast]").inner_text() == "Fast (10 s + 30 s)"
    form.locator("input[name=name]").fill("Ana")
    form.locator("select[name=seat1]").select_option("easy")
    form.locator("select[name=speed]").select_option("0.15")
    clock.select_option("fast")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    assert _get(f"{server}/api/tables/{table_id}")["clock"]["text"] == "10 s + 30 s"
    page.wait_for_function("document.querySelector('#tableclock').textContent === 'Move clock: 10 s + 30 s'")  # (drawn)
    assert page.locator("#tableclock").inner_text() == "Move clock: 10 s + 30 s"

    # Ana's turn comes (the bot plays first or not): her seat's clock runs, the move's time and then the reserve.
    running = page.locator(".seat.me .moveclock.running")
    running.wait_for(state="visible")
    assert re.fullmatch(r"⏱ 0:(0\d|10) \(\+ 0:30 reserve\)", running.inner_text()), running.inner_text()
    assert page.locator(".seat:not(.me) .moveclock").count() == 0  # the bot has no clock

    # In Spanish, the same clock.
    page.select_option("#lang", "es")
    page.wait_for_function("document.querySelector('#tableclock').textContent === 'Reloj de jugada: 10 s + 30 s'")
    assert page.locator("#tableclock").inner_text() == "Reloj de jugada: 10 s + 30 s"
    page.wait_for_function("document.querySelector('.seat.me .moveclock.running').textContent.includes('reserva')")
    # Back in the lobby, the table is listed with its clock.
    page.goto(server)
    page.locator(f"[data-table='{table_id}'] .clocktag").wait_for(state="visible")
    assert "10 s + 30 s" in page.locator(f"[data-table='{table_id}'] .clocktag").inner_text()
    assert errors == []
    ctx.close()


def test_a_slow_table_on_a_phone_where_it_is_ones_turn(browser: Any, server: str) -> None:  # noqa: F811
    """An account opens a slow table (a move a day) from the lobby on a phone; the lobby and "My tables" show
    that it is their turn, and how long is left, in the page's language, within the phone's width."""
    ctx, page, errors = _open_page(browser, locale="en-US", viewport={"width": 390, "height": 844})
    _sign_up(page, server)
    page.goto(server)
    form = page.locator("#create")
    form.locator("select[name=preset]").select_option("spanish")
    form.locator("select[name=seat1]").select_option("easy")
    form.locator("select[name=speed]").select_option("0.15")
    form.locator("select[name=clock]").select_option("days")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    page.wait_for_function("document.querySelector('#tableclock').textContent === 'Move clock: 1 d + 2 d'")  # (drawn)
    assert page.locator("#tableclock").inner_text() == "Move clock: 1 d + 2 d"
    page.locator(".seat.me .moveclock.running").wait_for(state="visible")  # Ana's turn (the bot may move first)
    title = next(p["title"] for p in _get(f"{server}/api/presets") if p["name"] == "spanish")
    assert page.title() == f"● Your turn · {title}"  # the tab says it is her turn

    page.goto(server)
    mine = page.locator(f"#yourturntables [data-table='{table_id}']")
    mine.wait_for(state="visible")
    assert page.title() == "(1) Brisca"  # the tab says a table waits for her
    assert re.search(r"Your turn · (2 d 23 h|3 d 0 h) left", mine.inner_text()), mine.inner_text()
    page.locator("#nav-my").click()
    page.wait_for_url(f"{server}/my")
    listed = page.locator(f"#mytables [data-table='{table_id}']")
    listed.wait_for(state="visible")
    assert listed.get_attribute("data-turn") == "1"
    assert page.title() == "(1) My tables · Brisca"
    page.select_option("#lang", "it")
    page.wait_for_function(f"document.querySelector(\"#mytables [data-table='{table_id}']\").textContent"
                           ".includes('Tocca a te')")
    assert page.locator("#my h1").inner_text() == "I miei tavoli"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scrolling
    listed.locator("a.go").click()
    page.wait_for_url(f"{server}/t/{table_id}")
    assert errors == []
    ctx.close()


def test_a_person_whose_clock_ran_out_twice_takes_the_seat_back_in_chromium(browser: Any, tmp_path: Any) -> None:  # noqa: F811
    """Ana's page is open but she never moves: her clock (1 s a move, no reserve) runs out, the table's bot plays
    for her, and the second time in a row a bot takes her seat. The page says so and offers "I'm back"; a click
    gives her the seat again, which the table and every page hear."""
    import json
    import urllib.request

    from test_web_browser import serving

    with serving(str(tmp_path / "db.sqlite3"), tmp_path, flags=("--min-clock-move", "1")) as base:
        body = {"preset": "spanish", "players": 2, "bots": {"1": "easy"}, "bot_delay": 0.2, "name": "Ana",
                "clock": {"move": 1, "reserve": 0}}
        request = urllib.request.Request(f"{base}/api/tables", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as r:
            made = json.load(r)
        table_id = made["table_id"]
        assert _get(f"{base}/api/tables/{table_id}")["clock"]["text"] == "1 s + 0 s"
        ctx, page, errors = _open_page(browser, locale="en-US")
        page.goto(base)
        page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                      [f"brisca:seat:{table_id}", json.dumps({"seat": made["seat"], "token": made["token"]})])
        page.goto(f"{base}/t/{table_id}")

        back = page.locator("#backbtn")
        back.wait_for(state="visible", timeout=30_000)
        assert back.inner_text() == "I'm back"
        log = page.locator("#chatlog")
        assert "Ana's time ran out: the table's bot played for them" in log.inner_text()
        assert "Ana's time ran out again: a bot plays for them until they are back" in log.inner_text()
        assert "away" in (page.locator(".seat.me").get_attribute("class") or "")

        back.click()  # the note comes from the table's "back" event, sent to every page
        page.wait_for_function("document.querySelector('#chatlog').textContent.includes('Ana is back')")
        assert errors == []
        ctx.close()
