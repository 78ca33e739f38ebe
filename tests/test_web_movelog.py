"""The move log beside the table, in a real browser: a line a trick, the cards in the order played and who took
it, as the server's view of the hand says.

Same browser and server as ``test_web_browser.py``; it skips without them unless ``BRISCA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

from typing import Any

from test_web_browser import _open_page, browser, server  # noqa: F401  (browser, server: fixtures)
from test_web_table import DESKTOP, _sit

#: The log as shown, and the hand as the server sent it.
SHOWN = """() => ({
    tricks: [...document.querySelectorAll('#movelog .logtrick')].map(li => ({
        cards: [...li.querySelectorAll('.logcard')].map(c => c.dataset.card),
        taker: li.querySelector('.logtaker') ? li.querySelector('.logtaker').textContent : null})),
    view: table.state.view,
    names: table.state.table.seats.map((_s, i) => seatName(table.state.table, i)),
})"""


def test_the_move_log_lists_each_trick_and_who_took_it(browser: Any, server: str) -> None:  # noqa: F811
    context, page, errors = _open_page(browser, viewport=DESKTOP)
    _sit(page, server, "spanish", 2, {})
    page.wait_for_function("document.body?.dataset.status === 'playing'")
    for _ in range(5):
        page.locator("#hand .cardbtn.legal").first.wait_for()
        v = int(page.evaluate("document.body.dataset.v"))
        page.locator("#hand .cardbtn.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}")
    got = page.evaluate(SHOWN)
    view, names = got["view"], got["names"]
    done = [{"cards": t["cards"], "taker": names[t["winner"]]} for t in view["tricks"]]
    assert len(done) >= 4
    assert got["tricks"][: len(done)] == done
    # The trick on the table, if any, is the last line, without a taker yet.
    assert got["tricks"][len(done):] == ([{"cards": view["trick"], "taker": None}] if view["trick"] else [])
    assert page.locator("#movelog .loghand").first.inner_text() == "Hand 1"
    assert not errors, errors
    context.close()
