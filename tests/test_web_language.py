"""The page in another language, switched live: the lobby's form (its seats' legend, the bot levels, the
presets' titles) in Spanish and Italian from the catalogs, and the sound button drawn, not an emoji.

Same browser and server as ``test_web_browser.py``; it skips without them unless ``BRISCA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

from typing import Any

from brisca.rulebook import title_in
from brisca.rules import find_variant
from brisca.server.pagetext import page_strings
from test_web_browser import _open_page, browser, server  # noqa: F401  (browser, server: fixtures)
from test_web_table import PHONE, _sit


def test_a_live_language_switch_translates_the_lobby_form(browser: Any, server: str) -> None:  # noqa: F811
    context, page, errors = _open_page(browser, viewport=PHONE, locale="en-US")
    page.goto(server)
    form = page.locator("#create")
    form.locator("select[name=preset]").select_option("chiamata")
    assert form.locator("#seatbots legend").inner_text() == "Other seats"
    for lang in ("es", "it"):
        strings = page_strings()[lang]
        page.locator("#lang").select_option(lang)
        assert form.locator("#seatbots legend").inner_text() == strings["otherSeats"] != "Other seats"
        levels = form.locator("select[name=seat1] option").all_inner_texts()
        assert levels == [strings["human"], *(strings[f"level_{level}"] for level in
                                              ("easy", "normal", "hard", "expert"))]
        chosen = form.locator("select[name=preset] option:checked").inner_text()
        assert chosen == title_in(find_variant("chiamata"), lang) != find_variant("chiamata").title
    # The value sent is still the level's name, whatever the language.
    assert form.locator("select[name=seat1]").input_value() == "normal"
    assert not errors, errors
    context.close()


def test_a_bot_is_named_as_a_bot_and_the_sound_button_is_drawn(browser: Any, server: str) -> None:  # noqa: F811
    context, page, errors = _open_page(browser, viewport=PHONE, locale="es-ES")
    _sit(page, server, "spanish", 2, {})
    page.wait_for_function("document.body.dataset.status === 'playing'")
    button = page.locator("#soundtoggle")
    assert button.locator("svg").count() == 1 and button.inner_text().strip() == ""
    assert button.get_attribute("aria-label") == page_strings()["es"]["soundOff"]
    button.click()
    assert button.locator("svg path").count() == 2 and button.get_attribute("aria-pressed") == "true"
    named = page.evaluate("playerName(table.state.table, 1)")
    assert named == page_strings()["es"]["botName"].format(name=page_strings()["es"]["level_normal"])
    assert not errors, errors
    context.close()
