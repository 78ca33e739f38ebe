"""The auction and the call on a phone (390 x 844), for every preset with an auction, bidding to the end: the Bid
and Pass buttons and the call's cards are on the screen and nothing covers them, the hand is in sight with the
page at its top, and the auction's box (two lines at most) covers no seat's name however many bids it has seen.

Same browser and server as ``test_web_browser.py``; it skips without them unless ``BRISCA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from brisca.rules import find_variant, variant_names
from test_web_browser import _open_page, browser, server  # noqa: F401  (browser, server: fixtures)
from test_web_table import DESKTOP, PHONE, _sit

#: Every preset whose hands start with an auction.
AUCTIONS = [name for name in variant_names() if find_variant(name).auction]
BUDGET_S = 60.0
#: The narrowest screen the table is made for.
SMALL = {"width": 360, "height": 640}

#: What is wrong with the layout, in words (empty: nothing).
LAYOUT = """() => {
    scrollTo(0, 0);
    const vw = innerWidth, vh = innerHeight, problems = [];
    const box = (el) => el.getBoundingClientRect();
    const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const auction = document.querySelector('#auction');
    if (!auction.hidden) {
        for (const plate of document.querySelectorAll('#seats .plate')) {
            if (overlap(box(auction), box(plate))) problems.push('the auction covers ' + plate.textContent);
        }
        if (box(auction).height > 48) problems.push('the auction box is ' + box(auction).height + ' px high');
    }
    for (const b of document.querySelectorAll('#actions button, #actions input, #callgrid .callcard')) {
        const r = box(b);
        if (r.left < 0 || r.right > vw || r.top < 0 || r.bottom > vh) {
            problems.push('off the screen: ' + (b.textContent || b.dataset.call)); continue;
        }
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (!b.contains(hit)) problems.push('covered: ' + (b.textContent || b.dataset.call));
    }
    for (const c of document.querySelectorAll('#hand .cardbtn')) {
        if (box(c).bottom > vh + 1) problems.push('a card of the hand is below the fold: ' + box(c).bottom);
    }
    if (document.documentElement.scrollWidth > vw) problems.push('the page is wider than the screen');
    return problems;
}"""

#: The layout with a long auction drawn in: ``n`` bids going round the table.
LONG_AUCTION = """(n) => {
    const info = table.state.table;
    const bids = Array.from({length: n}, (_x, i) => ({seat: i % info.players, bid: 61 + i, text: String(61 + i)}));
    const view = {...table.state.view, phase: 'bid', bids};
    renderSeats(info, view, table.seat);
    renderAuction(info, view);
    const problems = (LAYOUT)();
    render();
    return problems;
}""".replace("LAYOUT", LAYOUT)

#: The layout with every card of the deck to call (the most a call offers).
WHOLE_CALL = """() => {
    const info = table.state.table, view = table.state.view;
    const cards = [];
    for (const suit of "OCEB") for (const rank of [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]) cards.push(`${rank}${suit}`);
    renderHandAndActions(info, {...view, turn: table.seat, legal: cards.map((c) => ({call: c, text: c}))}, table.seat);
    const shown = document.querySelectorAll('#callgrid .callcard').length;
    const problems = (LAYOUT)();
    render();
    return shown === 40 ? problems : ['the call shows ' + shown + ' cards'];
}""".replace("LAYOUT", LAYOUT)


#: Every auction preset on the phone of the issue; the call's grid on the narrowest, shortest phone and a desktop.
SCREENS = [*((p, PHONE) for p in AUCTIONS), ("chiamata", SMALL), ("chiamata", DESKTOP)]


@pytest.mark.parametrize(("preset", "screen"), SCREENS, ids=[f"{p}-{s['width']}x{s['height']}" for p, s in SCREENS])
def test_the_auction_and_the_call_fit_a_phone(browser: Any, server: str, preset: str,  # noqa: F811
                                              screen: dict[str, int]) -> None:
    assert AUCTIONS, "no preset has an auction"
    players = find_variant(preset).player_counts[0]
    phone = screen["width"] < 600
    context, page, errors = _open_page(browser, viewport=screen, is_mobile=phone, has_touch=phone)
    _sit(page, server, preset, players, {"target_points": 1} if players == 5 else {})
    started = time.monotonic()
    page.wait_for_function("document.body?.dataset.status === 'playing'")
    seen = {"bids": 0, "calls": 0, "long": 0}
    while True:
        assert time.monotonic() - started < BUDGET_S, f"the auction did not end within {BUDGET_S} s"
        page.wait_for_function(
            "document.body.dataset.phase !== 'bid' || document.querySelector('#callgrid .callcard') ||"
            " document.querySelector('#actions button:not([disabled])')")
        phase = page.evaluate("document.body.dataset.phase")
        calls = page.locator("#callgrid .callcard")
        if phase != "bid" and not calls.count():
            break
        problems = page.evaluate(LAYOUT)
        assert not problems, (preset, phase, problems)
        v = int(page.evaluate("document.body.dataset.v"))
        if calls.count():
            seen["calls"] += 1
            calls.last.click()
        else:
            if not seen["long"]:
                for n in (8, 24, 40):
                    problems = page.evaluate(LONG_AUCTION, n)
                    assert not problems, (preset, n, problems)
                problems = page.evaluate(WHOLE_CALL)
                assert not problems, (preset, "call", problems)
                seen["long"] += 1
            seen["bids"] += 1
            # Bid as long as a bid is offered: the auction goes to its end.
            bid = page.locator("#bidbutton, #actions button.bid")
            (bid.first if bid.count() else page.locator("#actions button:not([disabled])").first).click()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}")
    assert seen["bids"] >= 1 and seen["long"] == 1, seen
    # The move log has a line for each move of the auction and the call, as this seat saw them.
    logged, moves = page.evaluate("""() => [document.querySelectorAll('#movelog .logmove').length,
        table.state.view.history.filter((a) => a.play === undefined).length]""")
    assert logged == moves and moves >= seen["bids"] + seen["calls"], (logged, moves, seen)
    assert not errors, errors
    context.close()
