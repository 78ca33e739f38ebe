"""A real browser plays a whole match against a bot through the page that ``brisca serve`` ships.

Playwright drives Debian's ``chromium`` (``/usr/bin/chromium``; ``.ci/run`` installs it). Without the
browser or the ``playwright`` package the test skips, unless ``BRISCA_REQUIRE_BROWSER=1`` (as in CI),
where it fails instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from brisca import record as brisca_record
from brisca.game import Match

CHROMIUM = "/usr/bin/chromium"
REQUIRED = os.environ.get("BRISCA_REQUIRE_BROWSER") == "1"
#: The whole test's budget; every wait below is bounded too.
BUDGET_S = 90.0


def _missing(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"{why} (BRISCA_REQUIRE_BROWSER=1)")
    pytest.skip(f"{why}; set BRISCA_REQUIRE_BROWSER=1 to make this a failure")


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.load(r)


@contextlib.contextmanager
def serving(db: str, tmp_path: Path, hand_pause: float = 0, flags: tuple[str, ...] = ()) -> Iterator[str]:
    """``brisca serve`` on a free loopback port with the database ``db``; its base URL. ``hand_pause``: the
    seconds between hands (0: the next hand is dealt at once); ``flags``: more of ``brisca serve``'s flags."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = (tmp_path / "serve.log").open("w")
    proc = subprocess.Popen(
        # --min-bot-delay 0: the pages' test plays a match of bots only at once (docs/hosting-table.md, "Limits");
        # --provisional-games 0 --provisional-opponents 0: its new account's first match rates the bot too
        # (docs/security.md, "Ratings").
        [sys.executable, "-m", "brisca", "serve", "--port", str(port), "--db", db, "--log-level", "warning",
         "--min-bot-delay", "0", "--hand-pause", str(hand_pause), "--provisional-games", "0",
         "--provisional-opponents", "0", *flags],
        stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        # A loaded machine (CI's two cores running other tests) may take a while to import the server.
        deadline = time.monotonic() + 60
        while True:
            try:
                _get(f"{base}/api/presets")
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail((tmp_path / "serve.log").read_text() or "the server exited")
                if time.monotonic() > deadline:
                    pytest.fail("the server did not answer within 60 s")
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """``brisca serve`` on a free loopback port with a fresh SQLite database."""
    with serving(str(tmp_path / "db.sqlite3"), tmp_path) as base:
        yield base


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's chromium under Playwright, headless; a skip (or, in CI, a failure) without them."""
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if path is None:
        _missing(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install -e '.[test]')")
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=path, headless=True, timeout=30_000,
                                      args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            yield launched
        finally:
            launched.close()


def _open_page(browser: Any, **context: Any) -> tuple[Any, Any, list[str]]:
    """A new browser context (``context``: its options) and page; the page's uncaught errors, collected."""
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return ctx, page, errors


def _sign_up(page: Any, site: str, name: str = "Ana", password: str = "correct horse battery",
             timeout: float | None = None) -> None:
    """Open an account from the login page; back logged in (the page's ``data-user`` is the name, lower case)."""
    page.goto(f"{site}/login")
    form = page.locator("#signupform")
    form.locator("input[name=username]").fill(name)
    form.locator("input[name=password]").fill(password)
    form.locator("button[type=submit]").click()
    page.wait_for_function(f"document.body?.dataset.user === '{name.lower()}'", timeout=timeout)


def _clock() -> Any:
    started = time.monotonic()

    def left_ms() -> float:
        left = BUDGET_S - (time.monotonic() - started)
        assert left > 0, f"the match did not finish within {BUDGET_S} s"
        return min(10_000.0, left * 1000)

    return left_ms


def _create_table(page: Any, preset: str, name: str, bots: dict[int, str], *, players: int | None = None,
                  options: str = "", label: str | None = None) -> str:
    """Fill the lobby's form (bots playing fast) and create the table; returns its id. ``label``: the submit
    button's text, checked before the click."""
    form = page.locator("#create")
    form.locator("select[name=preset]").select_option(preset)
    if players is not None:
        form.locator("select[name=players]").select_option(str(players))
    form.locator("input[name=name]").fill(name)
    for seat, level in bots.items():
        form.locator(f"select[name=seat{seat}]").select_option(level)
    form.locator("select[name=speed]").select_option("0.15")
    if options:
        form.locator("input[name=options]").fill(options)
    if label is not None:
        assert page.locator("#create button[type=submit]").inner_text() == label
    page.locator("#create button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    return str(page.url.rsplit("/", 1)[1])


def test_a_person_plays_a_match_against_a_bot_in_chromium(browser: Any, server: str) -> None:
    started = time.monotonic()
    left_ms = _clock()
    context, page, console_errors = _open_page(browser, locale="en-US", accept_downloads=True)

    # The lobby: a 2-player Spanish table, seat 1 an easy bot playing fast.
    page.goto(f"{server}/")
    table_id = _create_table(page, "spanish", "Ana", {1: "easy"}, players=2, label="Create table")
    page.wait_for_function("document.body?.dataset.status === 'playing'", timeout=left_ms())
    seats = page.locator("#seats .seat")
    assert "Ana" in seats.nth(0).inner_text() and "me" in (seats.nth(0).get_attribute("class") or "")
    assert "#1" in seats.nth(1).inner_text() or "bot" in seats.nth(1).inner_text()
    # The deck's commitment is on the table from the deal, and kept by the browser for the replay's check.
    first = _get(f"{server}/api/tables/{table_id}")["commitments"][0]
    assert first[:16] in page.locator("#fair").inner_text()
    assert first in page.evaluate(f"localStorage.getItem('brisca:commitments:{table_id}')")

    my_turns = followed = 0
    trumps: dict[int, str] = {}
    last_points, last_hand = -1, 0
    while True:
        page.wait_for_function(
            "document.querySelector('#hand .card.legal') || document.body.dataset.status === 'finished'",
            timeout=left_ms())
        if page.evaluate("document.body.dataset.status") == "finished":
            break
        hand_number = int(page.evaluate("document.body.dataset.hand"))
        hand = page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
        legal = page.locator("#hand .card.legal").evaluate_all("els => els.map(e => e.dataset.card)")
        stock = int(page.locator("#stock").inner_text().split()[0])
        assert page.locator("#status").inner_text() == "Your turn"
        assert legal and set(legal) <= set(hand) and len(set(hand)) == len(hand)
        assert page.locator("#hand .card.italian").count() == 0  # Spanish faces for the Spanish preset
        if stock > 0:
            # While the stock lasts: three cards in hand, the trump card face up beside it.
            assert len(hand) == 3, hand
            face_up = page.locator("#faceup .card").get_attribute("data-card")
            assert face_up is not None and face_up not in hand
            trumps.setdefault(hand_number, face_up)
            assert face_up[-1] == trumps[hand_number][-1]  # the trump suit holds for the hand
        else:
            assert 1 <= len(hand) <= 3
        trick = page.locator("#trick .card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert len(trick) <= 1 and not set(trick) & set(hand)
        if trick:  # the bot led: its card and its seat are on the table
            assert "Ana" not in page.locator("#trick figcaption").inner_text()
        points = sum(int(x) for x in re.findall(r"(\d+) pts", page.locator("#seats").inner_text()))
        if hand_number == last_hand:
            assert points >= last_points  # the points shown only grow within a hand
        last_points, last_hand = points, hand_number

        card = legal[my_turns % len(legal)]
        v = int(page.evaluate("document.body.dataset.v"))
        page.locator(f'#hand .card.legal[data-card="{card}"]').click()
        my_turns += 1
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}", timeout=left_ms())
        if trick:
            # Our card completed the trick: it shows as the last trick, after the bot's card.
            page.wait_for_function(
                f"[...document.querySelectorAll('#lasttrick .card')].map(e => e.dataset.card).join() === "
                f"'{trick[0]},{card}' || Number(document.body.dataset.hand) !== {hand_number}",
                timeout=left_ms())
            followed += 1

    assert my_turns >= 20 and followed > 0 and trumps
    result = page.locator("#result")
    info = _get(f"{server}/api/tables/{table_id}")
    assert info["status"] == "finished" and info["match_over"]
    winner = info["match_winner"]
    names = ["Ana (guest)", "easy (bot)"]  # a bot is shown by its level, and said to be a bot; a guest, a guest
    expected = "Match drawn" if winner is None else f"Match over · Winners: {names[winner]}"
    assert result.inner_text().startswith(expected)
    # The match score names each side.
    score = " · ".join(f"{name} {won}" for name, won in zip(names, info["hands_won"], strict=True))
    assert score in page.locator("#scoreboard").inner_text()

    # The record download link gives the brisca-record/1 file of this very match.
    link = result.locator("a")
    assert link.get_attribute("href") == f"/api/games/{table_id}/record"
    with page.expect_download(timeout=left_ms()) as got:
        link.click()
    path = got.value.path()
    rec = brisca_record.loads(Path(path).read_text())
    assert isinstance(rec, brisca_record.MatchRecord)
    replayed = Match.of_games(rec.make_rules(), rec.players, rec.replay())
    assert replayed.is_over() and replayed.winner == winner
    for number, card in trumps.items():
        turned = replayed.games[number].turned  # the face-up card may have been exchanged since
        assert turned is not None and turned.suit.letter == card[-1]

    # The page speaks Spanish too.
    page.locator("#lang").select_option("es")
    assert page.locator("#result").inner_text().startswith(
        "Partida empatada" if winner is None else "Partida terminada")
    assert not console_errors, console_errors
    context.close()
    assert time.monotonic() - started < BUDGET_S


def test_a_person_bids_discards_names_trump_and_plays_rematada_in_chromium(browser: Any, server: str) -> None:
    """The auction's controls: bid (the number input), discard two cards and confirm, name the trump, play."""
    left_ms = _clock()
    context, page, errors = _open_page(browser, locale="es-ES")
    page.goto(f"{server}/")
    table_id = _create_table(page, "rematada", "Bea", {1: "easy", 2: "easy"}, options="target_game_points=1",
                             label="Crear mesa")
    seen: set[str] = set()
    discarded_in = -1  # the last hand where we won the auction and discarded
    for _ in range(200):
        page.wait_for_function(
            "document.body.dataset.status === 'finished' || (document.querySelector('#status').textContent"
            ".startsWith('Te toca') && (document.querySelector('#hand .card.legal') ||"
            " document.querySelector('#actions button:not([disabled])')))", timeout=left_ms())
        if page.evaluate("document.body.dataset.status") == "finished":
            break
        phase = page.evaluate("document.body.dataset.phase")
        seen.add(phase)
        if phase == "discard":
            discarded_in = int(page.evaluate("document.body.dataset.hand"))
        v = int(page.evaluate("document.body.dataset.v"))
        if phase == "bid":
            # The highest bid so far, in one line (each seat's own last bid is at the seat).
            bids = page.evaluate("table.state.view.bids.filter((b) => !b.pass).map((b) => String(b.bid))")
            auction = page.locator("#auction")
            shown = auction.inner_text() if bids else ""
            assert shown.startswith(f"Subasta: {bids[-1]}") if bids else auction.is_hidden(), (shown, bids)
            assert len(page.locator("#hand .card").all()) == 10
            value = page.locator("#bidvalue")
            if value.count():  # bid the most there is: the contract is ours
                value.fill(value.get_attribute("max") or "")
                page.locator("#bidbutton").click()
            else:
                page.locator("#actions button.pass").click()
        elif phase == "discard":
            assert page.locator("#talonlabel").inner_text() == "Monte"
            talon = page.locator("#taloncards .card").evaluate_all("els => els.map(e => e.dataset.card)")
            hand = page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
            assert len(talon) == 2 and set(talon) <= set(hand) and len(hand) == 12  # the talon taken up
            assert page.locator("#prompt").inner_text() == "Elige 2 cartas para descartar"
            confirm = page.locator("#actions button.confirm")
            assert confirm.is_disabled()
            for card in hand[:2]:
                page.locator(f'#hand .card[data-card="{card}"]').click()
            assert page.locator("#hand .card.picked").count() == 2 and confirm.is_enabled()
            confirm.click()
        elif phase == "trump":
            buttons = page.locator("#actions button")
            assert buttons.count() == 4 and "Oros" in buttons.all_inner_texts()
            page.locator("#actions button", has_text="Oros").click()
        else:
            assert phase == "play"
            contract = page.locator("#contract").inner_text()
            assert contract.startswith("Contrato: ")
            declare = page.locator("#actions button", has_text="Cantar")
            if declare.count():  # a king and knight of a suit in hand, on lead: sing them
                declare.first.click()
            else:
                page.locator("#hand .card.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}", timeout=left_ms())
    assert page.evaluate("document.body.dataset.status") == "finished"
    assert seen >= {"bid", "play"}
    info = _get(f"{server}/api/tables/{table_id}")
    assert info["match_over"]
    result = page.locator("#result").inner_text()
    assert result.startswith("Partida terminada") or result.startswith("Partida empatada")
    if "discard" in seen:
        assert {"trump"} <= seen
    if discarded_in == info["hand_number"]:  # we won the last hand's auction: our discards shown, oros named
        assert "Oros" in page.locator("#contract").inner_text()
        assert page.locator("#talon").is_visible()
    assert not errors, errors
    context.close()


def test_partner_signals_show_to_partners_in_chromium(browser: Any, server: str) -> None:
    """4 players, ``signals: partner``: the page offers our signals and shows our partner's, never an opponent's."""
    left_ms = _clock()
    context, page, console_errors = _open_page(browser, locale="en-US")
    page.goto(f"{server}/")
    # The heuristic ("hard") signals its honours.
    table_id = _create_table(page, "spanish", "Ana", {1: "hard", 2: "hard", 3: "hard"}, players=4,
                             options="signals=partner, target_hands=1")
    page.wait_for_function("document.body?.dataset.status === 'playing'", timeout=left_ms())

    offered: set[str] = set()
    seen_partner = False
    while page.evaluate("document.body.dataset.status") != "finished":
        page.wait_for_function(
            "document.querySelector('#hand .card.legal') || document.body.dataset.status === 'finished'",
            timeout=left_ms())
        shown = page.locator("#contract .signals")
        if shown.count():
            assert shown.inner_text().startswith("Signals: ")
            seats = page.locator("#contract .signals .sig").evaluate_all("els => els.map(e => e.dataset.seat)")
            assert set(seats) <= {"0", "2"}, seats  # only our side's signals: seats 1 and 3 are the others
            seen_partner = seen_partner or "2" in seats
        if page.evaluate("document.body.dataset.status") == "finished":
            break
        buttons = page.locator("#actions button").all_inner_texts()
        signals = [b for b in buttons if b.startswith("Signal: ")]
        offered.update(signals)
        v = int(page.evaluate("document.body.dataset.v"))
        if signals and len(offered) <= 2 and signals[0] not in page.locator("#contract").inner_text():
            page.locator("#actions button", has_text=signals[0]).first.click()
        else:
            page.locator("#hand .card.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}", timeout=left_ms())
    assert offered, "no signal was ever offered to us"
    assert all(s.removeprefix("Signal: ") for s in offered)
    assert seen_partner, "the partner's signals never showed"
    info = _get(f"{server}/api/tables/{table_id}")
    assert info["status"] == "finished"
    assert not console_errors, console_errors
    context.close()


def test_italian_presets_get_italian_faces_in_chromium(browser: Any, server: str) -> None:
    """Briscola's cards are drawn Italian-suited, with the Italian indices 8, 9, 10 for fante, cavallo, re."""
    left_ms = _clock()
    context = browser.new_context(locale="it-IT")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{server}/")
    _create_table(page, "briscola", "Gianni", {1: "easy"}, players=2)
    page.wait_for_function("document.body?.dataset.status === 'playing'", timeout=left_ms())
    seen_court = False
    for _ in range(12):  # a few turns: enough to meet a court card
        page.wait_for_function("document.querySelector('#hand .card.legal') || "
                               "document.body.dataset.status === 'finished'", timeout=left_ms())
        if page.evaluate("document.body.dataset.status") == "finished":
            break
        cards = page.locator("#hand .card").evaluate_all(
            "els => els.map(e => [e.dataset.card, e.classList.contains('italian'),"
            " e.querySelector('text').textContent])")
        assert cards and all(italian for _code, italian, _index in cards)
        for code, _italian, index in cards:
            rank = code[:-1]
            assert index == {"10": "8", "11": "9", "12": "10"}.get(rank, rank), (code, index)
            seen_court = seen_court or rank in ("10", "11", "12")
        v = int(page.evaluate("document.body.dataset.v"))
        page.locator("#hand .card.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}", timeout=left_ms())
    assert seen_court
    context.close()
