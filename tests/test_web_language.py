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
        # What the server says, in the page's language (a closing reason inside an error too).
        said = page.evaluate("serverText('this table is closed (Ana resigned)')")
        assert said == strings["srv_closedWhy"].format(reason=strings["srv_resigned"].format(name="Ana"))
        assert page.evaluate("serverText('seat 3 is taken')") == strings["srv_seatTaken"].format(seat=3)
        assert page.evaluate("serverText('something else')") == "something else"
    # The value sent is still the level's name, whatever the language.
    assert form.locator("select[name=seat1]").input_value() == "normal"
    assert not errors, errors
    context.close()


def test_a_bot_is_named_as_a_bot_and_the_sound_button_is_drawn(browser: Any, server: str) -> None:  # noqa: F811
    context, page, errors = _open_page(browser, viewport=PHONE, locale="es-ES")
    _sit(page, server, "spanish", 2, {})
    page.wait_for_function("document.body?.dataset.status === 'playing'")
    button = page.locator("#soundtoggle")
    assert button.locator("svg").count() == 1 and button.inner_text().strip() == ""
    assert button.get_attribute("aria-label") == page_strings()["es"]["soundOff"]
    button.click()
    assert button.locator("svg path").count() == 2 and button.get_attribute("aria-pressed") == "true"
    named = page.evaluate("playerName(table.state.table, 1)")
    assert named == page_strings()["es"]["botName"].format(name=page_strings()["es"]["level_normal"])
    assert not errors, errors
    context.close()


#: On the felt: each card of the trick against every seat's name plate, and the tags shown.
CLEAR = """() => {
    const box = (el) => el.getBoundingClientRect();
    const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const problems = [];
    const cards = [...document.querySelectorAll('#trick .played')];
    for (const card of cards) {
        for (const seat of document.querySelectorAll('#seats .seat')) {
            if (overlap(box(card), box(seat.querySelector('.plate')))) {
                problems.push(`seat ${card.dataset.seat}'s card covers seat ${seat.dataset.seat}'s name`);
            }
        }
    }
    for (const name of document.querySelectorAll('#seats .name')) {
        if (name.scrollWidth > name.clientWidth + 1) problems.push('a name is cut short: ' + name.textContent);
    }
    const tags = [...document.querySelectorAll('#seats .tag.bot')].filter((t) => t.getClientRects().length);
    return {problems, cards: cards.map((c) => Number(c.dataset.seat)), tags: tags.length};
}"""


def _seed_where_every_other_seat_plays_before_ana(turns: int) -> tuple[int, list[str]]:
    """A practice seed of 4-player spanish whose first hand, Ana playing her first legal card and the greedy bots
    their own, puts a card of each other seat on the felt at one of Ana's first ``turns`` turns; and Ana's cards."""
    from brisca.actions import Play
    from brisca.agents import GreedyAgent
    from brisca.commitment import practice_deck
    from brisca.game.match import Match

    rules = find_variant("spanish")
    bot = GreedyAgent()
    for seed in range(500):
        game = Match(rules, 4, deck=practice_deck(rules.deck_cards(4), seed, 0)).game
        seen: set[int] = set()
        mine: list[str] = []
        while len(mine) < turns:
            if game.turn == 0:
                seen |= {(4 - i) % 4 for i in range(1, len(game.trick) + 1)}  # who played before seat 0
                action = next(a for a in game.legal_actions() if isinstance(a, Play))
                mine.append(str(action.card))
            else:
                action = bot.act(game.view(game.turn))
            game.apply(action)
        if {1, 2, 3} <= seen:
            return seed, mine
    raise AssertionError("no seed puts every other seat's card on the felt at Ana's turn")


def test_four_seats_on_a_phone_show_names_tags_and_clear_tricks(browser: Any, server: str) -> None:  # noqa: F811
    seed, mine = _seed_where_every_other_seat_plays_before_ana(6)
    context, page, errors = _open_page(browser, viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US")
    _sit(page, server, "spanish", 4, {}, seed=seed)
    page.wait_for_function("document.body?.dataset.status === 'playing'")
    # Each new lead on the felt: whether the cards of the trick taken before it still slide over it (fast bots
    # lead while they would).
    page.evaluate("""() => {
        window.leads = [];
        const trick = document.querySelector('#trick');
        new MutationObserver(() => {
            if (trick.querySelectorAll('.played').length === 1) {
                window.leads.push(document.querySelectorAll('#fx .trickghost').length);
            }
        }).observe(trick, {childList: true, subtree: true});
    }""")
    seen: set[int] = set()
    for card in mine:
        page.locator("#hand .cardbtn.legal").first.wait_for()
        page.evaluate("motion.finish()")
        got = page.evaluate(CLEAR)
        assert not got["problems"], got
        assert got["tags"] == 3, got  # the three bots say so, on a phone too
        seen |= set(got["cards"])
        v = int(page.evaluate("document.body.dataset.v"))
        page.locator(f'#hand .cardbtn.legal[data-card="{card}"]').tap()
        page.wait_for_function(f"Number(document.body.dataset.v) > {v}")
    assert {1, 2, 3} <= seen, seen  # the cards of the seats left, opposite and right were all checked
    leads = page.evaluate("window.leads")
    assert len(leads) >= 4 and not any(leads), leads  # no lead drawn under the last trick's sliding cards
    assert not errors, errors
    context.close()
