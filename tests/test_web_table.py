"""The card table in a real browser: 2, 4 and 5 players (chiamata) played to the end, on a desktop and on a
phone, against what the engine says.

Each game checks what the table shows: where the seats sit (you at the bottom, a partner opposite, the next
seat on your right), as many card backs at each seat as it holds, the card winning the trick and the winner
of the last trick lit as the engine decides, the team totals, Italian faces for briscola, and the results
panel's numbers against the engine's replay of the downloaded record. Keys play the cards on the desktop,
taps on the phone; the motion can be skipped with a key and is off under ``prefers-reduced-motion``.

Same browser and server as ``test_web_browser.py``; it skips without them unless ``BRISCA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from brisca import record as brisca_record
from brisca.cards import Card, Suit
from brisca.game import Match, winning_index
from brisca.rules import Rules, make_rules
from test_web_browser import _open_page, browser, server, serving  # noqa: F401  (browser, server: fixtures)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: Each game's budget; every wait below is bounded too.
BUDGET_S = 100.0
#: Seconds between hands at the server of the 2-player game, whose results panel shows a countdown.
PAUSE = 1.5


@pytest.fixture
def paused(tmp_path: Path) -> Iterator[str]:
    """``brisca serve`` that waits ``PAUSE`` seconds between hands."""
    with serving(str(tmp_path / "db.sqlite3"), tmp_path, hand_pause=PAUSE) as base:
        yield base


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


def _text(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return str(r.read().decode())


class Clock:
    def __init__(self) -> None:
        self.started = time.monotonic()

    def ms(self) -> float:
        left = BUDGET_S - (time.monotonic() - self.started)
        assert left > 0, f"the game did not finish within {BUDGET_S} s"
        return min(15_000.0, left * 1000)


def _sit(page: Any, base: str, preset: str, players: int, options: dict[str, Any], seed: int | None = None) -> str:
    """A table with Ana at seat 0 and normal bots playing at once in every other seat; the page opens it. With
    ``seed``, a practice table whose decks the seed gives."""
    bots = {str(s): "normal" for s in range(1, players)}
    body: dict[str, Any] = {"preset": preset, "players": players, "bots": bots, "bot_delay": 0, "name": "Ana",
                            "options": options}
    if seed is not None:
        body["seed"] = seed
    made = _post(f"{base}/api/tables", body)
    assert made["seat"] == 0
    page.goto(f"{base}/games")
    page.evaluate(f"localStorage.setItem('brisca:seat:{made['table_id']}', JSON.stringify({json.dumps(made)}))")
    page.goto(f"{base}/t/{made['table_id']}")
    return str(made["table_id"])


def _names(players: int) -> list[str]:
    """How the table names its seats: Ana, then the bots by level, numbered by seat when they share it."""
    return ["Ana", *(f"normal #{s}" if players > 2 else "normal" for s in range(1, players))]


def _check_seats(page: Any, players: int) -> None:
    """You at the bottom, a partner opposite, the next seat on your right (play goes counter-clockwise)."""
    got = page.evaluate("""() => {
        const f = document.querySelector('#felt').getBoundingClientRect();
        return [...document.querySelectorAll('#seats .seat')].map(s => {
            const r = s.getBoundingClientRect();
            return [Number(s.dataset.seat), (r.left + r.width / 2 - f.left) / f.width - .5,
                    (r.top + r.height / 2 - f.top) / f.height - .5];
        });
    }""")
    at = {seat: (x, y) for seat, x, y in got}
    assert sorted(at) == list(range(players))
    x, y = at[0]
    assert y > 0.3 and abs(x) < 0.1, ("you sit at the bottom", at)
    if players == 2:
        assert at[1][1] < -0.3 and abs(at[1][0]) < 0.1, at
    elif players == 4:
        assert at[2][1] < -0.3 and abs(at[2][0]) < 0.1, ("the partner sits opposite", at)
        assert at[1][0] > 0.25 and at[3][0] < -0.25, ("opponents right and left", at)
        # Partners share a team's colour and its mark.
        marks = page.locator("#seats .seat .mark").all_inner_texts()
        assert marks[0] == marks[2] != marks[1] == marks[3]
    elif players == 5:
        assert at[1][0] > 0.25 and at[4][0] < -0.25, at
        assert at[2][1] < -0.25 and at[3][1] < -0.25 and at[2][0] > at[3][0], at


def _trick(page: Any, selector: str) -> list[tuple[int, str, bool]]:
    """The cards of a trick as shown: (seat, card, lit) in the order played."""
    return [(int(s), c, bool(w)) for s, c, w in page.locator(selector).evaluate_all(
        "els => els.map(f => [f.dataset.seat, f.querySelector('.card').dataset.card,"
        " f.classList.contains('winning') || f.classList.contains('winner')])")]


def _check_turn(page: Any, rules: Rules, players: int, teams: bool) -> None:
    """What the table shows at one of our turns, against the rules."""
    state = page.evaluate("({trump: table.state.view.trump, hand: table.state.view.hand})")
    hand = page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert hand == state["hand"]
    trick = _trick(page, "#trick figure")
    played = {seat for seat, _c, _w in trick}
    # Everyone starts a trick with as many cards as we hold now; those who played hold one fewer.
    backs = page.locator("#seats .seat").evaluate_all(
        "els => els.map(s => [Number(s.dataset.seat), s.querySelectorAll('.fan .card').length])")
    for seat, count in backs:
        if seat != 0:
            assert count == len(hand) - (seat in played), (seat, count, hand, trick)
    assert page.locator("#seats .seat[data-seat='0'] .fan").count() == 0  # our cards are in our hand
    # Nothing is wider than the screen (no sideways scrolling), and every seat stays on the felt.
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert page.evaluate("""() => {
        const f = document.querySelector('#felt').getBoundingClientRect();
        return [...document.querySelectorAll('#seats .seat')].every(s => {
            const r = s.getBoundingClientRect();
            return r.left >= f.left - 1 && r.right <= f.right + 1 && r.top >= f.top - 1 && r.bottom <= f.bottom + 1;
        });
    }""")
    if state["trump"] is not None:
        trump = Suit.parse(state["trump"])
        for selector in ("#trick figure", "#lasttrick figure"):
            shown = _trick(page, selector)
            if shown:
                best = winning_index([Card.parse(c) for _s, c, _w in shown], trump, rules.strength_table)
                assert [w for _s, _c, w in shown] == [i == best for i in range(len(shown))], (selector, shown)
    if teams:
        seat_points = page.locator("#seats .seat .pts").evaluate_all("els => els.map(e => Number(e.textContent))")
        sides = page.locator("#scoreboard .sidebox .pts").evaluate_all("els => els.map(e => Number(e.textContent))")
        assert sides == [sum(seat_points[s] for s in range(players) if s % 2 == side) for side in (0, 1)]


def _panel(page: Any) -> dict[str, Any]:
    """The numbers the results panel shows."""
    return dict(page.evaluate("""() => {
        const q = (sel) => [...document.querySelectorAll(sel)];
        return {
            hand: document.body.dataset.hand,
            sides: Object.fromEntries(q('#results .sideresult').map(s => [s.dataset.side, {
                total: Number(s.querySelector('.total').textContent),
                card: Number(s.querySelector('.cardpoints').textContent),
                bonuses: [...s.querySelectorAll('.bonus')].map(b => Number(b.dataset.points)),
                cards: [...s.querySelectorAll('.cardstrip .card')].map(c => c.dataset.card)}])),
            scores: q('#results .score b').map(b => Number(b.textContent)),
            contract: (document.querySelector('#results .contractresult') || {}).className || null,
            match: q('#results .matchside b').map(b => Number(b.textContent)),
            winners: (document.querySelector('#results .winners') || {}).textContent || null,
            faces: q('#results .cardstrip .card').map(c => [c.dataset.card, c.dataset.rank, c.dataset.letter,
                                                            c.classList.contains('italian')]),
            next: (document.querySelector('#nexthand') || {}).textContent || '',
        };
    }"""))


def _check_panel(panel: dict[str, Any], match: Match, hand: int, players: int, final: bool) -> None:
    """The results panel of hand ``hand`` against the engine's result of that hand."""
    game = match.games[hand]
    result = game.result()
    assert result is not None
    contract = result.contract
    if contract is not None and contract.partner is not None and match.rules.sides(players) == players:
        side = sorted({contract.declarer, contract.partner})
        groups = {"declarer": side, "defenders": [s for s in range(players) if s not in side]}
        for key, seats in groups.items():
            assert panel["sides"][key]["total"] == sum(result.seat_points[s] for s in seats), (key, panel)
    else:
        sides = match.rules.sides(players)
        assert sorted(panel["sides"]) == [str(s) for s in range(sides)]
        for s in range(sides):
            shown = panel["sides"][str(s)]
            assert shown["total"] == result.side_points[s], (s, shown, result)
            assert shown["card"] == sum(p for seat, p in enumerate(result.seat_points) if seat % sides == s)
            assert sorted(shown["bonuses"]) == sorted(b.points for b in result.bonuses if b.side == s)
            won = sorted(str(c) for c in game.captured(s))
            assert sorted(shown["cards"]) == won, (s, shown["cards"], won)
    if result.scores is not None:
        assert panel["scores"] == list(result.scores)
        if contract is not None:
            assert panel["contract"] == f"contractresult {'made' if result.scores[contract.declarer] > 0 else 'set'}"
    so_far = Match.of_games(match.rules, players, match.games[: hand + 1])
    expected = so_far.points if match.rules.match == "target_points" else so_far.hands_won
    assert panel["match"] == list(expected)
    if final:
        names = _names(players)
        winner = match.winner
        if winner is None:
            assert panel["winners"] == "Match drawn"
        else:
            seats = [s for s in range(players) if s % match.rules.sides(players) == winner]
            # A bot's name says it is a bot wherever a result names it, a guest's that it is a guest's.
            assert panel["winners"] == "★ Winners: " + ", ".join(
                names[s] + (" (bot)" if s else " (guest)") for s in seats)


def _play(page: Any, base: str, table_id: str, preset: str, players: int, options: dict[str, Any], *,
          keys: bool, touch: bool, bid: bool) -> dict[str, Any]:
    """Play our seat to the end of the match, checking the table at each of our turns."""
    clock = Clock()
    rules = make_rules(preset, options)
    teams = rules.sides(players) < players
    page.wait_for_function("document.body?.dataset.status === 'playing'", timeout=clock.ms())
    _check_seats(page, players)
    # Every text the next deal's countdown shows, in order ('' when it is hidden again).
    page.evaluate("""() => {
        window.countdowns = [''];
        const box = document.querySelector('#nexthand');
        new MutationObserver(() => {
            if (window.countdowns[window.countdowns.length - 1] !== box.textContent) {
                window.countdowns.push(box.textContent);
            }
        }).observe(box, {childList: true, characterData: true, subtree: true});
    }""")
    panels: dict[int, dict[str, Any]] = {}
    seen = {"turns": 0, "bids": 0, "calls": 0, "skipped": 0}
    while True:
        page.wait_for_function(
            "document.body.dataset.status === 'finished' || !document.querySelector('#results').hidden ||"
            " document.querySelector('#hand .card.legal') || document.querySelector('#callgrid .callcard') ||"
            " document.querySelector('#actions button:not([disabled])')", timeout=clock.ms())
        if not page.locator("#results").is_hidden():
            hand = int(page.evaluate("document.body.dataset.hand"))
            finished = page.evaluate("document.body.dataset.status") == "finished"
            # The last hand's panel is read again once the match is over (it then names the winners).
            if hand not in panels or finished:
                panels[hand] = _panel(page)
            if finished:
                break
            # Between hands: the countdown (at a table that pauses between hands; without a pause the next deal
            # may come before the panel is read), then the next deal closes the panel.
            # The match may be over: its last state comes a moment after the last hand's result.
            over = "document.body.dataset.status === 'finished'"
            if page.evaluate("table.state.table.hand_pause") or panels[hand]["next"]:
                # The countdown comes with the table's next state once the pause is set (on a loaded machine a
                # moment after the hand's result): its first text, whenever it showed.
                page.wait_for_function(f"window.countdowns[window.countdowns.length - 1] !== '' || {over} ||"
                                       f" document.body.dataset.hand !== '{hand}'", timeout=clock.ms())
                if page.evaluate(over):
                    continue
                panels[hand]["next"] = next(t for t in page.evaluate("window.countdowns") if t)
                assert re.fullmatch(r"Next hand in \d s", panels[hand]["next"]), panels[hand]["next"]
                assert int(panels[hand]["next"].split()[3]) <= PAUSE + 1
            page.wait_for_function(f"document.body?.dataset.hand !== '{hand}' || {over}", timeout=clock.ms())
            if page.evaluate(over):
                continue
            page.evaluate("window.countdowns = ['']")
            assert page.locator("#results").is_hidden()
            continue
        if page.evaluate("document.body.dataset.status") == "finished":
            break
        v = int(page.evaluate("document.body.dataset.v"))
        phase = page.evaluate("document.body.dataset.phase")
        calls = page.locator("#callgrid .callcard")
        if calls.count():
            seen["calls"] += 1
            calls.first.click()
        elif phase == "bid":
            seen["bids"] += 1
            if bid and seen["bids"] == 1 and page.locator("#bidbutton").count():
                page.locator("#bidbutton").click()
            elif page.locator("#actions button.pass").count():
                page.locator("#actions button.pass").click()
            else:
                page.locator("#actions button:not([disabled])").first.click()
        elif page.locator("#hand .card.legal").count():
            _check_turn(page, rules, players, teams)
            seen["turns"] += 1
            legal = page.locator("#hand .cardbtn.legal")
            choice = legal.nth(seen["turns"] % legal.count())
            if keys:
                page.keyboard.press(choice.get_attribute("data-key") or "")
            elif touch:
                choice.tap()
            else:
                choice.click()
        else:
            page.locator("#actions button:not([disabled])").first.click()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}", timeout=clock.ms())
        if keys and seen["turns"] % 3 == 0:
            # A key finishes every motion at once, and the true state is what stays.
            running, ghosts, trick, shown = page.evaluate("""() => {
                const before = motion.running.size;
                document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Shift'}));
                return [before, motion.running.size + document.querySelector('#fx').children.length,
                        table.state.view ? table.state.view.trick.join() : '',
                        [...document.querySelectorAll('#trick .card')].map(c => c.dataset.card).join()];
            }""")
            assert ghosts == 0 and trick == shown
            seen["skipped"] += running > 0
    # The whole match against the engine's replay of the record.
    rec = brisca_record.loads(_text(f"{base}/api/games/{table_id}/record"))
    assert isinstance(rec, brisca_record.MatchRecord)
    match = Match.of_games(rec.make_rules(), rec.players, rec.replay())
    assert match.is_over()
    last = len(match.games) - 1
    assert last in panels
    for hand, panel in panels.items():
        _check_panel(panel, match, hand, players, final=hand == last)
    assert page.evaluate("document.body.dataset.motionError || ''") == ""
    info = json.loads(_text(f"{base}/api/tables/{table_id}"))
    assert info["status"] == "finished"
    assert page.locator("#seereplay").get_attribute("href") == f"/games/{table_id}"
    assert page.locator("#playagain").is_visible()
    return {"seen": seen, "panels": panels, "match": match}


def _spanish_faces(panel: dict[str, Any]) -> None:
    assert panel["faces"] and all(letter in "OCEB" and not italian for _c, _r, letter, italian in panel["faces"])
    assert all(rank == card[:-1] for card, rank, _l, _i in panel["faces"])


def test_two_players_on_a_desktop_with_keys_and_a_pause_between_hands(browser: Any, paused: str) -> None:  # noqa: F811
    context, page, errors = _open_page(browser, locale="en-US", viewport=DESKTOP)
    table_id = _sit(page, paused, "spanish", 2, {"target_hands": 2})
    done = _play(page, paused, table_id, "spanish", 2, {"target_hands": 2}, keys=True, touch=False, bid=False)
    assert len(done["match"].games) >= 2 and done["seen"]["turns"] >= 40
    assert done["seen"]["skipped"] > 0, "no motion was ever under way to skip"
    assert int(page.evaluate("document.body.dataset.moves || 0")) > 0
    _spanish_faces(done["panels"][len(done["match"].games) - 1])
    # Closed, the panel opens again from the top bar.
    page.locator("#closeresults").click()
    assert page.locator("#results").is_hidden()
    page.locator("#showresults").click()
    assert page.locator("#results").is_visible()
    page.keyboard.press("Escape")
    assert page.locator("#results").is_hidden()
    assert not errors, errors
    context.close()


def test_two_players_briscola_on_a_phone_has_italian_faces(browser: Any, server: str) -> None:  # noqa: F811
    context, page, errors = _open_page(browser, locale="en-US", viewport=PHONE, is_mobile=True, has_touch=True)
    table_id = _sit(page, server, "briscola", 2, {"target_hands": 1})
    done = _play(page, server, table_id, "briscola", 2, {"target_hands": 1}, keys=False, touch=True, bid=False)
    faces = done["panels"][0]["faces"]
    assert len(faces) == 40 and all(italian and letter in "DCSB" for _c, _r, letter, italian in faces)
    italian = {"10": "8", "11": "9", "12": "10"}
    assert all(rank == italian.get(card[:-1], card[:-1]) for card, rank, _l, _i in faces)
    assert {letter for card, _r, letter, _i in faces if card.endswith("O")} == {"D"}
    assert page.locator("#hand .card:not(.italian)").count() == 0
    assert page.evaluate("document.body.dataset.faces") == "italian"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_four_players_partners_opposite(browser: Any, server: str, screen: str) -> None:  # noqa: F811
    phone = screen == "phone"
    # On the phone the motion is off (prefers-reduced-motion): nothing moves, the state is the same.
    extra = {"viewport": PHONE, "is_mobile": True, "has_touch": True, "reduced_motion": "reduce"} if phone \
        else {"viewport": DESKTOP}
    context, page, errors = _open_page(browser, locale="en-US", **extra)
    table_id = _sit(page, server, "spanish", 4, {"target_hands": 1})
    done = _play(page, server, table_id, "spanish", 4, {"target_hands": 1}, keys=not phone, touch=phone, bid=False)
    moves = int(page.evaluate("document.body.dataset.moves || 0"))
    assert (moves == 0) if phone else (moves > 0)
    _spanish_faces(done["panels"][len(done["match"].games) - 1])  # the last panel stays; a first may flash by
    if phone:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_five_players_chiamata_auction_call_and_contract(browser: Any, server: str, screen: str) -> None:  # noqa: F811
    phone = screen == "phone"
    extra = {"viewport": PHONE, "is_mobile": True, "has_touch": True} if phone else {"viewport": DESKTOP}
    context, page, errors = _open_page(browser, locale="en-US", **extra)
    options = {"target_points": 1}
    table_id = _sit(page, server, "chiamata", 5, options)
    done = _play(page, server, table_id, "chiamata", 5, options, keys=not phone, touch=phone, bid=not phone)
    assert done["seen"]["bids"] >= 1
    panel = done["panels"][len(done["match"].games) - 1]
    result = done["match"].games[-1].result()
    assert result is not None
    if result.contract is not None:
        assert panel["contract"] is not None and len(panel["scores"]) == 5
    assert all(italian for _c, _r, _l, italian in panel["faces"])
    if phone:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors, errors
    context.close()


def _sit_slow(page: Any, base: str, options: dict[str, Any], delay: float, seed: int | None = None) -> str:
    """A 2-player table, Ana at seat 0 against a normal (greedy) bot that waits ``delay`` seconds before each
    move; with ``seed``, a practice table whose decks the seed gives."""
    body: dict[str, Any] = {"preset": "spanish", "players": 2, "bots": {"1": "normal"}, "bot_delay": delay,
                            "name": "Ana", "options": options}
    if seed is not None:
        body["seed"] = seed
    made = _post(f"{base}/api/tables", body)
    page.goto(f"{base}/games")
    page.evaluate(f"localStorage.setItem('brisca:seat:{made['table_id']}', JSON.stringify({json.dumps(made)}))")
    page.goto(f"{base}/t/{made['table_id']}")
    return str(made["table_id"])


def _seed_with_an_exchange_out_of_turn(rules: Rules) -> int:
    """A practice seed whose first hand, Ana playing her first playable card and the greedy bot its own, lets Ana
    exchange while the bot is to play (the deals of a seeded table are known: :func:`practice_deck`)."""
    from brisca.agents import GreedyAgent
    from brisca.commitment import practice_deck
    from brisca.game import Game

    bot = GreedyAgent()
    for seed in range(500):
        game = Game(rules, 2, dealer=1, deck=practice_deck(rules.deck_cards(2), seed, 0))
        while not game.is_over() and len(game.tricks) < 8:
            if game.turn == 1 and game.legal_actions(0):
                return seed
            if game.turn == 0:
                game.apply(next(a for a in game.legal_actions() if a.__class__.__name__ == "Play"))
            else:
                game.apply(bot.act(game.view(1)))
    raise AssertionError("no seed lets Ana exchange out of turn early")


def test_an_exchange_out_of_turn_is_offered_while_the_bot_is_to_play(browser: Any, server: str) -> None:  # noqa: F811
    """000: "at any time, even while playing a trick" (``trump_exchange: out_of_turn``): while the bot is to play,
    the page offers our exchange (and nothing else: no card of ours is playable), and the click makes it."""
    clock = Clock()
    options = {"trump_exchange": "out_of_turn", "target_hands": 1}
    seed = _seed_with_an_exchange_out_of_turn(make_rules("spanish", options))
    context, page, errors = _open_page(browser, locale="en-US", viewport=DESKTOP)
    table_id = _sit_slow(page, server, options, 1.0, seed)
    page.wait_for_function("document.body?.dataset.status === 'playing'", timeout=clock.ms())
    early = "table.state.view.turn !== 0 && (table.state.view.out_of_turn || []).length > 0"
    while True:
        page.wait_for_function(f"document.querySelector('#hand .card.legal') || ({early}) ||"
                               " document.body.dataset.status === 'finished'", timeout=clock.ms())
        assert page.evaluate("document.body.dataset.status") != "finished", "no exchange out of turn came up"
        if page.evaluate(early):
            button = page.locator("#actions button", has_text="Exchange ")
            assert button.count() == 1 and page.locator("#hand .cardbtn.legal").count() == 0
            assert page.locator("#prompt").inner_text() == "You may exchange now, out of turn"
            offered = page.evaluate("table.state.view.out_of_turn[0].exchange")
            button.first.click()
            page.wait_for_function(
                "(() => { const h = table.state.view.history; const last = h[h.length - 1];"
                f" return last && last.seat === 0 && last.exchange === '{offered}'; }})()", timeout=clock.ms())
            break
        v = int(page.evaluate("document.body.dataset.v"))
        page.locator("#hand .cardbtn.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}", timeout=clock.ms())
    state = page.evaluate("({hand: table.state.view.hand, face: table.state.view.face_up})")
    assert state["face"] == offered and offered not in state["hand"]
    info = json.loads(_text(f"{server}/api/tables/{table_id}"))
    assert info["options"] == options
    assert not errors, errors
    context.close()


def test_an_announced_exchange_is_offered_and_shown_under_the_face_up_card(browser: Any, server: str) -> None:  # noqa: F811
    """001: "the player must notify his opponent by placing his trump two or seven under the face-up trump": the
    page offers it on our turn, then shows the card under the face-up one to everybody until its end."""
    clock = Clock()
    context, page, errors = _open_page(browser, locale="en-US", viewport=DESKTOP)
    _sit_slow(page, server, {"trump_exchange": "announced", "target_hands": 5}, 0.0, seed=3)
    page.wait_for_function("document.body?.dataset.status === 'playing'", timeout=clock.ms())
    laid = None
    while True:
        page.wait_for_function("document.querySelector('#hand .card.legal') || document.body.dataset.status ==="
                               " 'finished'", timeout=clock.ms())
        assert page.evaluate("document.body.dataset.status") != "finished", "no exchange was ever offered"
        v = int(page.evaluate("document.body.dataset.v"))
        button = page.locator("#actions button", has_text="Lay under the face-up card: ")
        if laid is None and button.count():
            laid = page.evaluate("table.state.view.legal.find(a => a.announce).announce")
            face = page.evaluate("table.state.view.face_up")
            button.first.click()
            page.wait_for_function("table.state.view.announced !== null", timeout=clock.ms())
            shown = page.locator("#contract .announced").inner_text()
            assert shown.startswith("Under the face-up card: Ana ") and laid not in page.evaluate(
                "table.state.view.hand")
            assert page.evaluate("table.state.view.hand_sizes[0]") == page.evaluate("table.state.view.hand.length")
            continue
        if laid is not None and page.evaluate("table.state.view.announced") is None:
            hand = page.evaluate("table.state.view.hand")
            assert face in hand or laid in hand  # the face-up card taken, or the trump back
            assert page.locator("#contract .announced").count() == 0
            break
        page.locator("#hand .cardbtn.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}", timeout=clock.ms())
    assert not errors, errors
    context.close()


def test_a_card_pressed_while_it_flies_is_played(browser: Any, server: str) -> None:  # noqa: F811
    """The press finishes the motion, which snaps the card to its place: the release lands beside it, where
    the browser sends no click, and the card must still be played."""
    context, page, errors = _open_page(browser, locale="en-US", viewport=PHONE)
    _sit(page, server, "spanish", 2, {"target_hands": 1})
    page.wait_for_function("document.querySelector('#hand .cardbtn.legal')", timeout=15_000)
    page.evaluate("motion.finish()")
    v = int(page.evaluate("document.body.dataset.v"))
    # The first legal card flies in from the felt's top left corner for ten seconds; it is pressed half way.
    card, x, y = page.evaluate("""async () => {
        const el = document.querySelector('#hand .cardbtn.legal');
        const felt = document.querySelector('#felt').getBoundingClientRect();
        flyFrom(el, {left: felt.left, top: felt.top, width: 40, height: 60}, {duration: 10000});
        await new Promise((done) => setTimeout(done, 300));
        const r = el.getBoundingClientRect();
        return [el.dataset.card, r.left + r.width / 2, r.top + r.height / 2];
    }""")
    assert page.evaluate(f"document.elementFromPoint({x}, {y}).closest('#hand .cardbtn')?.dataset.card") == card
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.up()
    page.wait_for_function(f"Number(document.body.dataset.v) > {v}", timeout=10_000)
    assert card not in page.evaluate("table.state.view.hand")
    assert not errors, errors
    context.close()
