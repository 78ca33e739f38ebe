"""The lobby, the finished games with their replay, and the leaderboard, in a real browser on a phone screen.

Same browser and server as ``test_web_browser.py`` (Debian's ``chromium`` under Playwright, ``brisca serve``
on loopback): it skips without them, unless ``BRISCA_REQUIRE_BROWSER=1``, where it fails instead.
"""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

from test_web_browser import _open_page, browser, server  # noqa: F401  (the fixtures)

#: The whole test's budget; every wait below is bounded too.
BUDGET_S = 40.0
PHONE = {"width": 390, "height": 844}


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.load(r)


def _post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=5) as r:
        return json.load(r)


def _rated_game(base: str, username: str, preset: str, bot: str, seconds: float = 20) -> str:
    """An account plays one hand against a bot (the first legal action each turn, over the WebSocket): a rated
    game; its table id."""
    from websockets.sync.client import connect

    signup = urllib.request.Request(f"{base}/api/signup",
                                    json.dumps({"username": username, "password": "password1"}).encode(),
                                    {"Content-Type": "application/json"})
    with urllib.request.urlopen(signup, timeout=10) as r:
        cookie, csrf = r.headers["set-cookie"].split(";")[0], json.load(r)["csrf"]
    made = _post(f"{base}/api/tables", {"preset": preset, "players": 2, "bots": {"1": bot}, "bot_delay": 0,
                                          "options": {"target_hands": 1}, "sit": True},
                 {"Cookie": cookie, "X-CSRF-Token": csrf})
    end = time.monotonic() + seconds
    with connect(f"ws{base.removeprefix('http')}/ws/{made['table_id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": made["token"]}))
        while True:
            message = json.loads(ws.recv(timeout=max(0.1, end - time.monotonic())))
            state = message.get("state")
            if state is None:
                continue
            if state["table"]["status"] == "finished":
                return str(made["table_id"])
            view = state["view"]
            if view and view["turn"] == made["seat"] and view["legal"]:
                action = {k: v for k, v in view["legal"][0].items() if k != "text"}
                ws.send(json.dumps({"type": "play", "action": action}))


def _fits(page: Any) -> None:
    """Nothing wider than the phone: no sideways scrolling."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width}px wide on a {PHONE['width']}px screen"


def test_lobby_replay_and_leaderboard_on_a_phone(browser: Any, server: str) -> None:  # noqa: F811
    started = time.monotonic()

    def left_ms() -> float:
        left = BUDGET_S - (time.monotonic() - started)
        assert left > 0, f"over the {BUDGET_S} s budget"
        return min(10_000.0, left * 1000)

    # A rated game (an account against a bot), a finished game (two bots, one hand), an open table.
    _rated_game(server, "Gina", "briscola", "normal")
    done = _post(f"{server}/api/tables", {"preset": "briscola", "players": 2, "bots": {"0": "easy", "1": "normal"},
                                          "bot_delay": 0, "seed": 3, "options": {"target_hands": 1}})["table_id"]
    while _get(f"{server}/api/tables/{done}")["status"] != "finished":
        assert left_ms() > 0
        time.sleep(0.1)
    waiting = _post(f"{server}/api/tables", {"preset": "spanish", "players": 3, "bots": {"2": "easy"},
                                             "name": "Ana"})["table_id"]
    other = _post(f"{server}/api/tables", {"preset": "spanish", "players": 2, "bots": {"1": "easy"}})["table_id"]
    _post(f"{server}/api/tables/{waiting}/join", {"name": "Bea"})  # now full: it starts, and leaves the open list

    context, page, errors = _open_page(browser, locale="en-US", viewport=PHONE, is_mobile=True, has_touch=True)

    # The lobby: the open table with its free seat, the game in progress to watch.
    page.goto(f"{server}/")
    item = page.locator(f'#opentables .item[data-table="{other}"]')
    item.wait_for(timeout=left_ms())
    assert "free seats: 1" in item.inner_text() and "easy (bot)" in item.inner_text()
    go = item.locator("a.go")
    assert go.inner_text() == "Sit down" and go.get_attribute("href") == f"/t/{other}"
    assert page.locator("#opentables .item").count() == 1
    watch = page.locator(f'#playingtables .item[data-table="{waiting}"]')
    assert "Ana (guest), Bea (guest), easy (bot)" in watch.inner_text()
    assert "Hand 1 · Ana 0 · Bea 0 · easy (bot) 0" in watch.inner_text()  # the score names every side
    assert watch.locator("a.go").inner_text() == "Watch"
    _fits(page)
    # A table opened meanwhile shows up without a reload.
    newer = _post(f"{server}/api/tables", {"preset": "briscola", "players": 3, "bots": {"2": "easy"}})["table_id"]
    page.locator(f'#opentables .item[data-table="{newer}"]').wait_for(timeout=left_ms())
    assert "free seats: 2" in page.locator("#opentables .item").first.inner_text()  # newest first

    # The finished games: ours, with its winner starred, a replay link and the record.
    page.locator("#nav-games").click()
    game = page.locator(f'#games .item[data-game="{done}"]')
    game.wait_for(timeout=left_ms())
    info = _get(f"{server}/api/games/{done}")
    assert game.locator(".won").count() == (0 if info["winner"] is None else 1)
    assert game.locator("a[download]").get_attribute("href") == f"/api/games/{done}/record"
    _fits(page)
    game.locator("a.go").click()
    page.wait_for_function("document.body?.dataset.step === '0'", timeout=left_ms())
    _fits(page)

    # The replay, step by step, against the engine's positions from the server.
    replay = _get(f"{server}/api/games/{done}/replay")
    steps = replay["steps"]
    assert page.evaluate("document.body.dataset.steps") == str(len(steps))
    # The browser hashes every deck with its salt and finds the commitment published at the deal.
    page.wait_for_function("document.body?.dataset.deals", timeout=left_ms())
    assert page.evaluate("document.body.dataset.deals") == "ok"
    assert all(d["verified"] for d in replay["deals"])
    n = len(replay["deals"])
    assert (f"{n} of {n} decks match" if n > 1 else "Deal verified: its deck matches the commitment"
            ) in page.locator("#rfair").inner_text()

    def shown() -> dict[str, Any]:
        return page.evaluate("""() => ({
            step: Number(document.body.dataset.step),
            hands: [...document.querySelectorAll('#rseats .rseat')].map(
                s => [...s.querySelectorAll('.card')].map(c => c.dataset.card)),
            trick: [...document.querySelectorAll('#rtrick .card')].map(c => c.dataset.card),
            turn: [...document.querySelectorAll('#rseats .rseat')].findIndex(s => s.classList.contains('turn')),
            points: [...document.querySelectorAll('#rseats .pts')].map(p => Number(p.textContent)),
        })""")

    def check(n: int) -> None:
        page.wait_for_function(f"document.body?.dataset.step === '{n}'", timeout=left_ms())
        got, position = shown(), steps[n]["position"]
        assert got["hands"] == position["hands"] and got["trick"] == position["trick"]
        assert got["points"] == position["seat_points"]
        assert got["turn"] == (-1 if position["turn"] is None else position["turn"])
        # The move log: every card of the hand so far, in the order played; a taker for each trick taken.
        hand = steps[n]["hand"]
        played = [s["action"]["play"] for s in steps[: n + 1]
                  if s["hand"] == hand and s["action"] is not None and "play" in s["action"]]
        log = page.evaluate("""() => ({
            cards: [...document.querySelectorAll('#rmoves .logcard')].map(c => c.dataset.card),
            takers: document.querySelectorAll('#rmoves .logtaker').length})""")
        assert log == {"cards": played, "takers": position["tricks_played"]}, (n, log)

    check(0)
    assert [len(h) for h in shown()["hands"]] == [3, 3] and "Cards dealt" in page.locator("#rstepinfo").inner_text()
    # A game without an auction shows no auction box (not even an empty one).
    assert page.locator("#rauction").is_hidden()
    assert page.locator("#rprev").is_disabled()
    page.locator("#rnext").click()
    check(1)
    action = steps[1]["action"]
    assert shown()["trick"] == [action["play"]] and action["play"] not in shown()["hands"][action["seat"]]
    for n in range(2, 6):
        page.locator("#rnext").click()
        check(n)
    page.locator("#rprev").click()
    check(4)
    page.locator("#rlast").click()
    check(len(steps) - 1)
    assert page.locator("#rnext").is_disabled()
    result = page.locator("#rresult").inner_text()
    # The winners by name, never a side's number.
    winners = ", ".join(n.removeprefix("bot:") + " (bot)" if n.startswith("bot:") else n
                        for i, n in enumerate(replay["names"]) if replay["winner"] is not None
                        and i % replay["sides"] == replay["winner"])
    assert ("Match drawn" if replay["winner"] is None else f"Match over · ★ Winners: {winners}") in result
    assert "side" not in result
    page.locator("#rfirst").click()
    check(0)
    _fits(page)

    # The leaderboard of the preset: the account and the bot it played, best first, ordinal = mu - 3 sigma.
    page.locator("#nav-leaderboard").click()
    page.wait_for_function("document.body?.dataset.board", timeout=left_ms())
    page.locator("#boardpreset").select_option("briscola")
    page.wait_for_function("document.body?.dataset.board === 'briscola'", timeout=left_ms())
    rows = page.locator("#ratingtable tbody tr").evaluate_all(
        "trs => trs.map(tr => [...tr.cells].map(td => td.textContent))")
    assert sorted(r[1] for r in rows) == ["Gina", "normal (bot)"]
    assert [r[0] for r in rows] == ["1", "2"] and float(rows[0][2]) >= float(rows[1][2])
    for rank, name, ordinal, mu, sigma, games in rows:
        assert abs(float(ordinal) - (float(mu) - 3 * float(sigma))) < 0.2 and games == "1", (rank, name)
    _fits(page)
    page.locator("#boardpreset").select_option("tuscan")
    page.wait_for_function("document.body?.dataset.board === 'tuscan'", timeout=left_ms())
    assert page.locator("#boardempty").is_visible() and not page.locator("#ratingtable").is_visible()

    # In Spanish too.
    page.locator("#lang").select_option("es")
    assert page.locator("#nav-leaderboard").inner_text() == "Clasificación"
    assert page.locator("#boardempty").inner_text().startswith("Aún no hay partidas")

    # Watching a table, the connection drops and comes back having missed nothing (the server answers with
    # its welcome only): the status says "Reconnecting…", then what it said before, without a new event.
    watcher = context.new_page()
    watcher.on("pageerror", lambda exc: errors.append(str(exc)))
    watcher.goto(f"{server}/t/{waiting}")
    watcher.locator("#lang").select_option("en")
    watcher.wait_for_function("document.body?.dataset.status === 'playing'", timeout=left_ms())
    status = watcher.locator("#status").inner_text()
    v = watcher.evaluate("document.body.dataset.v")
    assert status.startswith("Watching"), status
    watcher.evaluate("table.ws.close()")
    watcher.wait_for_function("document.querySelector('#status').textContent === 'Reconnecting…'",
                              timeout=left_ms())
    watcher.wait_for_function(f"document.querySelector('#status').textContent === {json.dumps(status)}",
                              timeout=left_ms())
    assert watcher.evaluate("document.body.dataset.v") == v  # nothing was missed: the welcome alone did it
    assert not errors, errors
    context.close()
    assert time.monotonic() - started < BUDGET_S
