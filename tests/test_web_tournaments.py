"""A tournament in a real browser: a guest finds the one the host offers in the lobby, joins it on a phone, is
given their table when it starts, and reads the standings once its round is over, in English and in Spanish; an
account makes one from the form and starts it. axe-core finds no serious violation on either page.

Same browser and server as ``test_web_browser.py``; it skips without them unless ``BRISCA_REQUIRE_BROWSER=1``.
The tables' clock is the shortest the server allows (a second a move, no reserve): nobody at the tables moves, so
each seat's clock runs out twice, then bots play the one-hand matches to their end, in seconds.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from test_web_a11y import _report, _violations
from test_web_browser import _get, _open_page, _sign_up, browser, serving  # noqa: F401  (fixtures)

OFFERED = {"name": "Quick cup", "max_entrants": 2, "rounds": 1, "options": {"target_hands": 1},
           "clock": {"move": 1, "reserve": 0}, "bot_delay": 0}


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as r:
        return json.load(r)


def test_a_guest_joins_a_tournament_on_a_phone_and_reads_the_standings(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    flags = ("--tournament", json.dumps(OFFERED), "--min-clock-move", "1")
    with serving(str(tmp_path / "db.sqlite3"), tmp_path, flags=flags) as server:
        ctx, page, errors = _open_page(browser, locale="en-US", viewport={"width": 390, "height": 844})
        page.goto(server)
        offered = page.locator("#lobbytournaments .item", has_text="Quick cup")
        offered.wait_for(state="visible")
        offered.locator("a.go").click()
        page.wait_for_function("document.body?.dataset.page === 'tournament' && !!document.body.dataset.tournament")
        assert page.locator("#tourname").inner_text() == "Quick cup"
        assert "open to join" in page.locator("#tourinfo").inner_text()
        form = page.locator("#tourjoin")
        form.locator("input[name=name]").fill("Ana")
        form.locator("button[type=submit]").click()
        page.wait_for_function("document.querySelector('#tourme').textContent === 'You are in as Ana.'")
        assert page.locator("#tourentrants li").all_inner_texts() == ["Ana"]
        assert not page.locator("#tourleave").is_hidden()

        # Bo joins too: the tournament is full, and starts; Ana's page gives her her table.
        tournament_id = page.url.rsplit("/", 1)[1]
        _post(f"{server}/api/tournaments/{tournament_id}/join", {"name": "Bo"})
        link = page.locator("#tourtable")
        link.wait_for(state="visible")
        table_id = link.get_attribute("href").rsplit("/", 1)[1]
        shown = _get(f"{server}/api/tournaments/{tournament_id}")
        assert shown["pairings"][0]["tables"][0]["table_id"] == table_id
        kept = json.loads(page.evaluate(f"localStorage.getItem('brisca:seat:{table_id}')"))
        assert [s["name"] for s in shown["pairings"][0]["tables"][0]["seats"]][kept["seat"]] == "Ana"

        # The round's one table ends (the clock, then bots): the standings show, with the round robin's
        # tie-breaks, and the table's result.
        page.wait_for_function("(document.body.dataset.tournament || '').startsWith('finished:')", timeout=60_000)
        rows = page.locator("#tourstandings tbody tr")
        assert sorted(rows.locator("td:nth-child(2)").all_inner_texts()) == ["Ana", "Bo"]
        head = page.locator("#tourstandings thead th").all_inner_texts()
        assert head == ["#", "Name", "Score", "Head to head", "Card points"]
        scores = sorted(float(s) for s in rows.locator("td:nth-child(3)").all_inner_texts())
        assert scores in ([0.0, 1.0], [0.5, 0.5])
        assert page.locator(f"#tourrounds [data-table='{table_id}'] a.go").inner_text() == "Replay"
        assert page.locator("#tourtable").is_hidden()  # no table of hers is being played any more
        found = _violations(page)  # axe-core: no serious or critical violation
        assert not found, _report("tournament", found)

        # In Spanish, the same page; nothing wider than the phone.
        page.select_option("#lang", "es")
        page.wait_for_function("document.querySelector('#tourstandingsbox h2').textContent === 'Clasificación'")
        head = page.locator("#tourstandings thead th").all_inner_texts()
        assert head == ["#", "Nombre", "Puntos", "Enfrentamiento directo", "Puntos de cartas"]
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # The table's page leads back to the tournament.
        page.goto(f"{server}/t/{table_id}")
        back = page.locator("#tourback")
        back.wait_for(state="visible")
        assert back.get_attribute("href") == f"/tournaments/{tournament_id}"
        assert errors == []
        ctx.close()


def test_an_account_makes_a_tournament_from_the_form_and_starts_it(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with serving(str(tmp_path / "db.sqlite3"), tmp_path, flags=("--min-clock-move", "1")) as server:
        ctx, page, errors = _open_page(browser, locale="it-IT")
        page.goto(f"{server}/tournaments")
        # A guest is told to log in to make one (in Italian: the page's language follows the browser's).
        assert page.locator("#tourlogin").inner_text() == "Accedi per creare un torneo; chiunque può iscriversi."
        assert page.locator("#newtournament").is_hidden()
        _sign_up(page, server)
        page.goto(f"{server}/tournaments")
        form = page.locator("#newtournament")
        form.wait_for(state="visible")
        found = _violations(page)
        assert not found, _report("tournaments", found)
        form.locator("input[name=name]").fill("Coppa del venerdì")
        form.locator("select[name=preset]").select_option("spanish")
        form.locator("select[name=players]").select_option("4")
        form.locator("input[name=rounds]").fill("2")
        form.locator("input[name=max_entrants]").fill("6")
        form.locator("input[name=options]").fill("target_hands=1")
        form.locator("button[type=submit]").click()
        page.wait_for_url(f"{server}/tournaments/*")
        page.wait_for_function("!!document.body.dataset.tournament")
        tournament_id = page.url.rsplit("/", 1)[1]
        made = _get(f"{server}/api/tournaments/{tournament_id}")
        assert (made["name"], made["players"], made["rounds"], made["max_entrants"], made["options"]) == (
            "Coppa del venerdì", 4, 2, 6, {"target_hands": 1})
        # She joins under her account's name; two guests join; she starts it.
        page.locator("#tourjoin .asaccount").wait_for(state="visible")
        page.locator("#tourjoin button[type=submit]").click()
        page.wait_for_function("document.querySelector('#tourme').textContent === 'Sei iscritto come Ana.'")
        for name in ("Bo", "Cy"):
            _post(f"{server}/api/tournaments/{tournament_id}/join", {"name": name})
        start = page.locator("#tourstart")
        start.wait_for(state="visible")
        assert page.locator("#tourcancel").inner_text() == "Annulla il torneo"
        start.click()
        page.locator("#tourtable").wait_for(state="visible")
        shown = _get(f"{server}/api/tournaments/{tournament_id}")
        # Three entrants at a table of four: one table, a bot in the fourth seat; partners as the pairing chose.
        seats = shown["pairings"][0]["tables"][0]["seats"]
        assert sorted(s["name"] for s in seats if s["name"]) == ["Ana", "Bo", "Cy"]
        assert [s["bot"] for s in seats].count("normal") == 1
        assert page.locator("#tourrounds h2").all_inner_texts() == ["Turno 1"]
        assert "sistema svizzero" in page.locator("#tourinfo").inner_text() or \
            "girone all'italiana" in page.locator("#tourinfo").inner_text()
        assert page.locator("#tourjoin").is_hidden() and page.locator("#tourstart").is_hidden()
        assert page.locator("#tourcancel").is_hidden()
        assert errors == []
        ctx.close()
