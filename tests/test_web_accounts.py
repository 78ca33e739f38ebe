"""A person with an account, in a real browser: sign up, log out, log in, play a rated match against a bot, then
find the rating on their player page and their name on the leaderboard. SQLite and PostgreSQL.

Same browser as ``test_web_browser.py`` (Debian's ``chromium`` under Playwright): it skips without it, unless
``BRISCA_REQUIRE_BROWSER=1``, where it fails instead. The PostgreSQL run skips without a server on
127.0.0.1:5432 (database ``test``); it uses a schema of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_server_resume import _postgres_url
from test_web_browser import _clock, _get, _open_page, _sign_up, browser, serving  # noqa: F401  (browser: the fixture)

#: The whole test's budget; every wait below is bounded too.
PASSWORD = "s3cret enough"


@pytest.fixture(params=["sqlite", "postgresql"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """``brisca serve`` on SQLite or on a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        with serving(str(tmp_path / "db.sqlite3"), tmp_path) as base:
            yield base
        return
    for url in _postgres_url():
        with serving(url, tmp_path) as base:
            yield base


def test_sign_up_log_in_and_play_a_rated_match_in_chromium(browser: Any, site: str) -> None:  # noqa: F811
    left_ms = _clock()
    context, page, errors = _open_page(browser, locale="en-US")

    # Sign up: logged in at once, back in the lobby.
    page.goto(f"{site}/")
    login = page.locator("#nav-login")
    login.wait_for(timeout=left_ms())
    assert login.inner_text() == "Log in / Sign up"
    login.click()
    page.wait_for_url(f"{site}/login")
    form = page.locator("#signupform")
    form.locator("input[name=username]").fill("Ana")
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    page.wait_for_function("document.body?.dataset.user === 'ana'", timeout=left_ms())
    assert page.locator("#whoami").inner_text() == "Ana · Log out"
    cookie = next(c for c in context.cookies() if c["name"] == "brisca_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and cookie["path"] == "/"

    # Log out, then in again.
    page.locator("#logout").click()
    page.wait_for_function("document.body?.dataset.user === ''", timeout=left_ms())
    page.locator("#nav-login").click()
    page.wait_for_url(f"{site}/login")
    form = page.locator("#loginform")
    form.locator("input[name=username]").fill("ana")
    form.locator("input[name=password]").fill("not the password")
    form.locator("button[type=submit]").click()
    page.locator("#error").wait_for(timeout=left_ms())
    assert page.locator("#error").inner_text() == "wrong username or password"
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    page.wait_for_function("document.body?.dataset.user === 'ana'", timeout=left_ms())

    # A 2-player table against an easy bot, one hand: we sit under our account's name.
    create = page.locator("#create")
    create.locator("select[name=preset]").select_option("spanish")
    assert not create.locator("input[name=name]").is_visible()
    assert create.locator(".asaccount .me").inner_text() == "Ana"
    create.locator("select[name=players]").select_option("2")
    create.locator("select[name=seat1]").select_option("easy")
    create.locator("select[name=speed]").select_option("0.15")
    create.locator("input[name=options]").fill("target_hands=1")
    create.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    page.wait_for_function("document.body?.dataset.status === 'playing'", timeout=left_ms())
    me = page.locator("#seats .seat").nth(0)
    assert me.inner_text().startswith("Ana") and "guest" not in me.inner_text()

    turns = 0
    while True:
        page.wait_for_function(
            "document.querySelector('#hand .card.legal') || document.body.dataset.status === 'finished'",
            timeout=left_ms())
        if page.evaluate("document.body.dataset.status") == "finished":
            break
        v = int(page.evaluate("document.body.dataset.v"))
        page.locator("#hand .card.legal").first.click()
        turns += 1
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}", timeout=left_ms())
    assert turns >= 20
    info = _get(f"{site}/api/tables/{table_id}")
    assert info["status"] == "finished" and info["seats"][0]["account"] == "ana"

    # The player page: the rating of this preset, the game with its replay link.
    rating = _get(f"{site}/api/players/ana")["ratings"][0]
    assert rating["preset"] == "spanish" and rating["games"] == 1
    assert rating["sigma"] < 25 / 3  # moved from openskill's start (25, 25/3): one game of evidence
    # The match's results name the change: from 0 (a new rating) to the rating now.
    page.locator("#results .ratingchange").first.wait_for(timeout=left_ms())
    change = page.locator('#results .ratingchange[data-seat="0"]').inner_text()
    delta = f"{rating['ordinal']:+.1f}".replace("+-", "-")
    assert change == f"Ana 0.0 → {rating['ordinal']:.1f} ({delta})", change
    page.goto(f"{site}/players/ana")
    page.wait_for_function("document.body?.dataset.player === 'ana'", timeout=left_ms())
    assert page.locator("#playername").inner_text() == "Ana"
    row = page.locator('#playerratings tbody tr[data-preset="spanish"]')
    cells = row.locator("td").all_inner_texts()
    assert cells[0].startswith("Brisca") and cells[1] == f"{rating['ordinal']:.1f}" and cells[4] == "1"
    game = page.locator(f'#playergames .item[data-game="{table_id}"]')
    assert game.locator("a.go").get_attribute("href") == f"/games/{table_id}"
    assert "Ana" in game.inner_text() and "easy (bot)" in game.inner_text()

    # The leaderboard: our name, linking to our page, beside the bot's.
    page.goto(f"{site}/leaderboard/spanish")
    page.wait_for_function("document.body?.dataset.board === 'spanish'", timeout=left_ms())
    names = page.locator("#ratingtable tbody tr td:nth-child(2)").all_inner_texts()
    assert sorted(names) == ["Ana", "easy (bot)"]
    link = page.locator("#ratingtable a.player")
    assert link.inner_text() == "Ana" and link.get_attribute("href") == "/players/ana"
    link.click()
    page.wait_for_function("document.body?.dataset.player === 'ana'", timeout=left_ms())
    assert not errors, errors
    context.close()


def test_a_provisional_rating_is_marked_and_off_the_leaderboard(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """A new account's first rated match (lost by resigning, at once): its rating is marked provisional on its
    page, at its seat and in the lobby, and it is not on the leaderboard."""
    left_ms = _clock()
    flags = ("--provisional-games", "10", "--provisional-opponents", "3")  # the defaults again
    with serving(str(tmp_path / "db.sqlite3"), tmp_path, flags=flags) as site:
        context, page, errors = _open_page(browser, locale="en-US")
        page.on("dialog", lambda dialog: dialog.accept())
        _sign_up(page, site, password=PASSWORD, timeout=left_ms())

        def table_against(level: str) -> None:
            page.goto(f"{site}/")
            create = page.locator("#create")
            create.locator("select[name=preset]").select_option("spanish")
            create.locator("select[name=players]").select_option("2")
            create.locator("select[name=seat1]").select_option(level)
            create.locator("button[type=submit]").click()
            page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))

        table_against("easy")
        page.locator("#resignbtn").wait_for(state="visible", timeout=left_ms())
        page.locator("#resignbtn").click()
        page.wait_for_function("document.body?.dataset.status === 'finished'", timeout=left_ms())
        assert _get(f"{site}/api/players/ana")["ratings"][0]["provisional"] is True

        page.goto(f"{site}/players/ana")
        page.wait_for_function("document.body?.dataset.player === 'ana'", timeout=left_ms())
        cell = page.locator('#playerratings tbody tr[data-preset="spanish"] td').nth(1)
        assert cell.locator(".provisional").inner_text() == "provisional"

        page.goto(f"{site}/leaderboard/spanish")
        page.wait_for_function("document.body?.dataset.board === 'spanish'", timeout=left_ms())
        # Nobody: Ana is provisional, and her match moved no established rating, the bot's neither.
        assert page.locator("#ratingtable tbody tr").count() == 0
        assert _get(f"{site}/api/ratings/spanish") == []

        # A table Ana waits at (a seat for someone else): her seat, and the lobby, mark the rating.
        page.goto(f"{site}/")
        create = page.locator("#create")
        create.locator("select[name=preset]").select_option("spanish")
        create.locator("select[name=players]").select_option("2")
        create.locator("select[name=seat1]").select_option("")  # a person's seat, free
        create.locator("button[type=submit]").click()
        page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        page.wait_for_function("document.body?.dataset.status === 'waiting'", timeout=left_ms())
        assert page.locator("#seats .seat").nth(0).locator(".tag.provisional").count() == 1
        page.goto(f"{site}/")
        page.locator("#opentables .item .who .provisional").first.wait_for(timeout=left_ms())
        assert not errors, errors
        context.close()
