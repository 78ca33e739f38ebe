"""The replay page's analysis in a real browser: the win-chance graph, the moves with mistakes marked, the
alternatives of the move on the table, and the button that asks for an analysis (docs/analysis.md)."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from brisca import record as brisca_record
from brisca.analysis import analyse, format_text, move_words
from brisca.cards import Card
from brisca.rulebook import title_in
from brisca.rules import make_rules
from test_web_browser import _create_table, _get, _open_page, browser, serving
from test_web_pages import _rated_game

__all__ = ["browser"]  # the fixture, shared with the other browser test


def _post(url: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body or {}).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


def _finished_game(base: str, seed: int) -> str:
    table_id: str = _post(f"{base}/api/tables", {"players": 2, "bots": {"0": "easy", "1": "normal"},
                                                 "bot_delay": 0, "seed": seed,
                                                 "options": {"target_hands": 1}})["table_id"]
    end = time.monotonic() + 60
    while table_id not in [g["table_id"] for g in _get(f"{base}/api/games")]:
        assert time.monotonic() < end, "the bots did not finish"
        time.sleep(0.2)
    return table_id


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, str]]:
    db = str(tmp_path / "db.sqlite3")
    with serving(db, tmp_path) as base:
        yield base, db


def test_the_replay_page_draws_the_analysis(site: tuple[str, str], browser: Any) -> None:
    base, db = site
    table_id = _finished_game(base, 5)
    with urllib.request.urlopen(f"{base}/api/games/{table_id}/record", timeout=10) as r:
        record = brisca_record.loads(r.read().decode())
    data = analyse(record, seed=0, worlds=8).to_json()
    # The analysis as the site stores it once made (its making is tested in test_server_analysis.py).
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.begin() as c:
        c.execute(sa.text("INSERT INTO brisca_analyses (table_id, status, result, requested_at) VALUES "
                          "(:id, 'done', :result, :now)"),
                  {"id": table_id, "result": json.dumps(data), "now": datetime.now(UTC).replace(tzinfo=None)})
    engine.dispose()
    searched = [m for m in data["moves"] if "taken" in m]
    marked = [m for m in searched if m["mark"]]
    assert marked, "this game has no mistake to show"

    ctx, page, errors = _open_page(browser)
    try:
        page.goto(f"{base}/games/{table_id}")
        page.wait_for_selector("#ranalysis[data-status='done'] #rgraph")
        # One line per side, a point per searched move, the marked ones marked.
        sides = {m["side"] for m in searched}
        assert page.locator("#rgraph polyline").count() == len(sides)
        assert page.locator("#rgraph circle").count() == len(searched)
        assert page.locator("#rgraph circle.mistake, #rgraph circle.blunder").count() == len(marked)
        assert page.locator("#amoves li").count() == len(data["moves"])
        for mark in ("mistake", "blunder"):
            want = sum(1 for m in marked if m["mark"] == mark)
            assert page.locator(f"#amoves li[data-mark='{mark}']").count() == want
        # A marked move clicked: the replay goes to it and shows its alternatives, the best starred.
        move = marked[0]
        item = page.locator(f"#amoves li[data-mark='{move['mark']}']").first
        step = item.get_attribute("data-step")
        item.click()
        page.wait_for_function(f"document.body?.dataset.step === '{step}'")
        assert page.locator("#amoves li.here").get_attribute("data-step") == step
        rows = page.locator("#ralternatives tbody tr")
        assert rows.count() == len(move["reading"]["options"])
        assert page.locator("#ralternatives tr.best").get_attribute("data-action") == move["reading"]["best"]
        assert page.locator("#ralternatives tr.taken").get_attribute("data-action") == move["action"]
        assert page.locator("#rgraphnow").get_attribute("visibility") == "visible"
        # A point of the graph clicked goes to its move too.
        other = page.locator("#rgraph circle").first
        target = other.get_attribute("data-step")
        other.click()
        page.wait_for_function(f"document.body?.dataset.step === '{target}'")
        assert not errors, errors
    finally:
        ctx.close()


def test_the_replay_page_asks_for_an_analysis(site: tuple[str, str], browser: Any) -> None:
    base, _db = site
    table_id = _finished_game(base, 6)
    ctx, page, errors = _open_page(browser)
    try:
        page.goto(f"{base}/games/{table_id}")
        page.wait_for_selector("#ranalysis[data-status='none'] #ranalyse")
        page.click("#ranalyse")
        page.wait_for_selector("#ranalysis[data-status='queued'], #ranalysis[data-status='done']")
        assert _get(f"{base}/api/games/{table_id}/analysis")["status"] in ("queued", "done")
        assert not errors, errors
    finally:
        ctx.close()


def test_the_hint_button_at_a_practice_table(site: tuple[str, str], browser: Any) -> None:
    base, _db = site
    made = _post(f"{base}/api/tables", {"players": 2, "bots": {"1": "normal"}, "bot_delay": 0, "seed": 4,
                                        "name": "Ana"})
    seat = json.dumps({"seat": made["seat"], "token": made["token"]})
    ctx, page, errors = _open_page(browser)
    try:
        page.add_init_script(f"localStorage.setItem('brisca:seat:{made['table_id']}', {json.dumps(seat)});"
                             " localStorage.setItem('brisca:lang', 'en');")
        page.goto(f"{base}/t/{made['table_id']}")
        page.wait_for_selector("#hintbtn")
        page.click("#hintbtn")
        page.wait_for_function("document.querySelector('#hinttext').textContent.startsWith('Hint: ')",
                               timeout=30_000)
        text = page.text_content("#hinttext") or ""
        assert "win chance" in text
        assert not errors, errors
    finally:
        ctx.close()


#: A card's code as a word of its own (``2C``, ``x2C``, ``RD``): what the page never shows a reader.
CODE = re.compile(r"(?<![\w±+−-])x?(?:\d{1,2}|[AFCR])[OCEBDS]\b")
#: The page's own words for the analysis in each language (pagetext's ``winChance``), to know it is translated.
WIN_CHANCE = {"en": "Win chance", "es": "Probabilidad de ganar", "it": "Probabilità di vincere"}


SINGULAR = {
    "en": ["1 trick", "2 tricks", "(the first hand won wins the match)", "(first to 3 hands)", "1 card"],
    "es": ["1 baza", "2 bazas", "(gana la partida quien gane una mano)", "(a 3 manos)", "1 carta"],
    "it": ["1 presa", "2 prese", "(vince la partita chi vince una mano)", "(a 3 mani)", "1 carta"],
}


def _stored_analysis(base: str, db: str, seeds: range) -> tuple[str, dict[str, Any]]:
    """A finished bot game with an exchange among its moves, and its analysis stored as the site stores one."""
    for seed in seeds:
        table_id = _finished_game(base, seed)
        with urllib.request.urlopen(f"{base}/api/games/{table_id}/record", timeout=10) as r:
            record = brisca_record.loads(r.read().decode())
        data = analyse(record, seed=0, worlds=4).to_json()
        if any("exchange" in m["act"] for m in data["moves"]):
            break
    else:
        raise AssertionError("no game with an exchange")
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.begin() as c:
        c.execute(sa.text("INSERT INTO brisca_analyses (table_id, status, result, requested_at) VALUES "
                          "(:id, 'done', :result, :now)"),
                  {"id": table_id, "result": json.dumps(data), "now": datetime.now(UTC).replace(tzinfo=None)})
    engine.dispose()
    return table_id, data


def _overlaps(boxes: list[dict[str, float]]) -> list[tuple[int, int]]:
    """Pairs of boxes that overlap by more than a pixel."""
    out = []
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            b = boxes[j]
            if (min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 1
                    and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 1):
                out.append((i, j))
    return out


@pytest.mark.parametrize("lang", ["es", "it", "en"])
def test_the_analysis_page_speaks_card_words_and_holds_its_layout(site: tuple[str, str], browser: Any, lang: str,
                                                                  tmp_path: Path) -> None:
    base, db = site
    table_id, data = _stored_analysis(base, db, range(5, 25))
    exchange = next(m for m in data["moves"] if "exchange" in m["act"])
    for width, height in ((1280, 800), (390, 844)):  # a desktop, a phone
        ctx, page, errors = _open_page(browser, viewport={"width": width, "height": height})
        try:
            page.add_init_script(f"localStorage.setItem('brisca:lang', '{lang}');")
            page.goto(f"{base}/games/{table_id}")
            page.wait_for_selector("#ranalysis[data-status='done'] #rgraph")
            # The exchange's move, clicked: its alternatives in words too.
            page.locator(f"#amoves li[data-step='{exchange['index'] + 1}']").first.click()
            page.wait_for_selector("#ralternatives tbody tr")
            # The step's line and the move log say the moves in words too.
            for where in ("#rstepinfo", "#rmoves"):
                assert not CODE.findall(page.inner_text(where)), (where, page.inner_text(where))
            text = page.inner_text("#ranalysis")
            assert WIN_CHANCE[lang] in text
            assert not CODE.findall(text), CODE.findall(text)
            assert "exchange" not in text or lang == "en"
            assert ("scambio: " if lang == "it" else "cambio: " if lang == "es" else "exchange: ") in text
            # The moves' list: every line within the list, none over another, none cut off at the desktop's width.
            box = page.locator("#amoves").bounding_box()
            lines = [li.bounding_box() for li in page.locator("#amoves li").all()]
            assert box is not None and all(b is not None for b in lines)
            assert all(b["x"] >= box["x"] - 1 and b["x"] + b["width"] <= box["x"] + box["width"] + 1
                       for b in lines if b)
            assert not _overlaps([b for b in lines if b])
            if width >= 1280:
                cut = page.evaluate("[...document.querySelectorAll('#amoves li')]"
                                    ".filter((li) => li.scrollWidth > li.clientWidth + 1).length")
                assert cut == 0
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
            # One of a thing in the singular, more in the plural.
            words = page.evaluate("[t('tricksN', {n: 1}), t('tricksN', {n: 2}), t('toHands', {n: 1}),"
                                  " t('toHands', {n: 3}), t('cardsN', {n: 1})]")
            assert words == SINGULAR[lang], words
            page.screenshot(path=str(tmp_path / f"analysis-{lang}-{width}.png"), full_page=True)
            assert not errors, errors
        finally:
            ctx.close()


def test_the_page_and_the_terminal_name_the_moves_alike(site: tuple[str, str], browser: Any) -> None:
    """The replay page's analysis says each move in the words of ``brisca replay --analyse`` (the deck's own names,
    ``Card.name``), in Spanish, Italian and English: the moves' list and a move's alternatives."""
    base, db = site
    table_id, _data = _stored_analysis(base, db, range(5, 25))
    with urllib.request.urlopen(f"{base}/api/games/{table_id}/record", timeout=10) as r:
        record = brisca_record.loads(r.read().decode())
    analysis = analyse(record, seed=0, worlds=4)  # what _stored_analysis stored: the same seed, the same moves
    exchange = next(m for m in analysis.moves if m.reading is not None and "exchange" in m.action.to_json())
    for lang in ("es", "it", "en"):
        terminal = format_text(analysis, lang=lang)
        said = [move_words(m.action, lang) for m in analysis.moves]
        assert all(move_words(m.action, lang) in terminal for m in analysis.decisions)
        options = [move_words(o.action, lang) for o in exchange.reading.options]  # type: ignore[union-attr]
        ctx, page, errors = _open_page(browser)
        try:
            page.add_init_script(f"localStorage.setItem('brisca:lang', '{lang}');")
            page.goto(f"{base}/games/{table_id}")
            page.wait_for_selector("#ranalysis[data-status='done'] #rgraph")
            assert page.locator("#amoves li .what").all_inner_texts() == said
            page.locator(f"#amoves li[data-step='{exchange.index + 1}'][data-hand='{exchange.hand}']").first.click()
            page.wait_for_selector("#ralternatives tbody tr")
            cells = page.locator("#ralternatives tbody tr td:first-child").all_inner_texts()
            assert [c.removeprefix("★ ").strip() for c in cells] == options
            # The replay's own move log names its cards in the same words.
            logged = page.locator("#rmoves .logcard").evaluate_all(
                "els => els.map(e => [e.dataset.card, e.textContent])")
            assert logged and all(name == Card.parse(code).name(lang) for code, name in logged), logged
            assert not errors, errors
        finally:
            ctx.close()


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_player_page_names_its_presets_in_the_pages_language(site: tuple[str, str], browser: Any,
                                                                 lang: str) -> None:
    """The player page's ratings and analysed games name each preset by its title in the page's language, on the
    left of its row, never by its key ("spanish")."""
    base, db = site
    table_id = _rated_game(base, "Lucia", "spanish", "easy", seconds=60)
    with urllib.request.urlopen(f"{base}/api/games/{table_id}/record", timeout=10) as r:
        record = brisca_record.loads(r.read().decode())
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.begin() as c:
        c.execute(sa.text("INSERT INTO brisca_analyses (table_id, status, result, requested_at) VALUES "
                          "(:id, 'done', :result, :now)"),
                  {"id": table_id, "result": json.dumps(analyse(record, seed=0, worlds=4).to_json()),
                   "now": datetime.now(UTC).replace(tzinfo=None)})
    engine.dispose()
    title = title_in(make_rules("spanish"), lang)
    assert title != "spanish"
    ctx, page, errors = _open_page(browser)
    try:
        page.add_init_script(f"localStorage.setItem('brisca:lang', '{lang}');")
        page.goto(f"{base}/players/Lucia")
        page.wait_for_selector("#playeranalysis:not([hidden]) tbody tr")
        for table in ("#playeranalysis", "#playerratings"):
            cell = page.locator(f"{table} tbody tr td").first
            assert cell.inner_text() == title
            assert cell.evaluate("(td) => getComputedStyle(td).textAlign") == "left"
        assert not errors, errors
    finally:
        ctx.close()


def test_a_table_with_hints_is_made_from_the_lobby(site: tuple[str, str], browser: Any) -> None:
    base, _db = site
    ctx, page, errors = _open_page(browser, locale="en-US")
    try:
        page.add_init_script("localStorage.setItem('brisca:lang', 'en');")
        page.goto(f"{base}/")
        page.locator("#create input[name=hints]").check()
        table_id = _create_table(page, "spanish", "Ana", {1: "normal"}, players=2)
        assert _get(f"{base}/api/tables/{table_id}")["hints"] is True
        # The table's line about fairness, once the first state has come over the WebSocket.
        page.wait_for_function("document.querySelector('#fair').textContent.includes('Hints on')", timeout=30_000)
        page.wait_for_selector("#hintbtn", timeout=30_000)
        page.click("#hintbtn")
        page.wait_for_function("document.querySelector('#hinttext').textContent.startsWith('Hint: ')",
                               timeout=30_000)
        text = page.text_content("#hinttext") or ""
        assert "win chance" in text and not CODE.findall(text), text
        assert not errors, errors
    finally:
        ctx.close()


def test_a_called_games_graph_names_its_sides_as_the_players_knew_them(site: tuple[str, str], browser: Any) -> None:
    base, db = site
    table_id: str = _post(f"{base}/api/tables", {"preset": "chiamata", "players": 5, "bot_delay": 0, "seed": 3,
                                                 "bots": {str(s): "normal" for s in range(5)},
                                                 "options": {"target_points": 1}})["table_id"]
    end = time.monotonic() + 120
    while table_id not in [g["table_id"] for g in _get(f"{base}/api/games")]:
        assert time.monotonic() < end, "the bots did not finish"
        time.sleep(0.3)
    with urllib.request.urlopen(f"{base}/api/games/{table_id}/record", timeout=10) as r:
        record = brisca_record.loads(r.read().decode())
    data = analyse(record, seed=0, worlds=2).to_json()
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.begin() as c:
        c.execute(sa.text("INSERT INTO brisca_analyses (table_id, status, result, requested_at) VALUES "
                          "(:id, 'done', :result, :now)"),
                  {"id": table_id, "result": json.dumps(data), "now": datetime.now(UTC).replace(tzinfo=None)})
    engine.dispose()
    replay = _get(f"{base}/api/games/{table_id}/replay")
    last = [s for s in replay["steps"] if s["hand"] == 0][-1]
    declarer = last["position"]["contract"]["declarer"]
    ctx, page, errors = _open_page(browser)
    try:
        page.add_init_script("localStorage.setItem('brisca:lang', 'en');")
        page.goto(f"{base}/games/{table_id}")
        page.wait_for_selector("#ranalysis[data-status='done'] #rgraph")
        sides = page.locator(".legend .side").all_inner_texts()
        # The declarer's side by the declarer alone (the partner was hidden), and the defenders: no name twice.
        assert len(sides) == 2 and "(declarer)" in sides[0] and f"#{declarer}" in sides[0], sides
        assert sides[1].endswith("Defenders") and "#" not in sides[1], sides
        assert page.locator("#rgraph polyline").count() == 2
        assert not errors, errors
    finally:
        ctx.close()
