"""Sound at the card table, in a real browser: off until the player turns it on, kept in the browser, and
then heard for the table's events (a card played, a trick taken, your turn).

The page's audio context is counted by a script run before the page's own: with sound off the page never
makes one. Same browser and server as ``test_web_browser.py``; it skips without them unless
``BRISCA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

from typing import Any

from test_web_browser import _open_page, browser, server  # noqa: F401  (browser, server: fixtures)
from test_web_table import DESKTOP, _sit

#: Counts what the page asks of the Web Audio API.
COUNT_AUDIO = """
window.__audio = {contexts: 0, notes: 0, snaps: 0};
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  constructor(...args) { super(...args); window.__audio.contexts += 1; }
  createOscillator() { window.__audio.notes += 1; return super.createOscillator(); }
  createBufferSource() { window.__audio.snaps += 1; return super.createBufferSource(); }
};
"""


def _audio(page: Any) -> dict[str, int]:
    return dict(page.evaluate("window.__audio"))


def _play_cards(page: Any, count: int) -> int:
    """Play ``count`` of our turns (the first legal card); returns the tricks closed meanwhile."""
    tricks = int(page.evaluate("table.state.view.tricks.length"))
    for _ in range(count):
        page.wait_for_function("document.querySelector('#hand .cardbtn.legal')")
        v = int(page.evaluate("document.body.dataset.v"))
        page.locator("#hand .cardbtn.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}")
    # The bot answers our last card: wait until the trick is closed.
    page.wait_for_function(f"table.state.view.tricks.length >= {tricks + count}")
    return int(page.evaluate("table.state.view.tricks.length")) - tricks


def test_sound_is_off_by_default_and_heard_once_turned_on(browser: Any, server: str) -> None:  # noqa: F811
    context, page, errors = _open_page(browser, locale="es-ES", viewport=DESKTOP)
    page.add_init_script(COUNT_AUDIO)
    _sit(page, server, "spanish", 2, {"target_hands": 1})
    page.wait_for_function("document.body?.dataset.status === 'playing'")
    toggle = page.locator("#soundtoggle")
    assert toggle.is_visible()
    assert toggle.get_attribute("aria-pressed") == "false"
    assert toggle.get_attribute("title") == "Sin sonido (pulsa para activarlo)"

    # Off: two tricks played, and the page never made an audio context.
    _play_cards(page, 2)
    assert _audio(page) == {"contexts": 0, "notes": 0, "snaps": 0}
    assert page.evaluate("document.body.dataset.sounds || '0'") == "0"

    # On: a note says so, then every card snaps and every closed trick sounds.
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('brisca:sound')") == "on"
    before = _audio(page)
    assert before["contexts"] == 1 and before["notes"] == 1
    closed = _play_cards(page, 2)
    after = _audio(page)
    assert after["contexts"] == 1
    # A card snaps as its event is shown (a state resent whole after a reconnection is drawn without sound).
    assert after["snaps"] - before["snaps"] >= closed
    assert after["notes"] - before["notes"] >= closed  # a trick's notes, one pair each
    assert page.evaluate("document.body.dataset.soundError || ''") == ""

    # Kept in the browser: a reload finds it on; turned off, nothing more sounds.
    page.reload()
    page.wait_for_function("document.body?.dataset.status === 'playing'")
    assert page.locator("#soundtoggle").get_attribute("aria-pressed") == "true"
    page.locator("#soundtoggle").click()
    assert page.locator("#soundtoggle").get_attribute("aria-pressed") == "false"
    quiet = _audio(page)
    _play_cards(page, 1)
    assert _audio(page) == quiet
    assert not errors, errors
    context.close()
