"""Screenshots of the web table for docs/web.md: ``python scripts/screenshots.py [OUT_DIR]``.

Starts ``brisca serve`` on a free loopback port with a throwaway database, opens practice tables (seeded
deals, so every run deals the same cards) in chromium under Playwright, plays the person's seat with the first
legal card, and writes into ``docs/img/`` (or OUT_DIR):

- ``table-2p.png``: two players, a trick on the table (desktop, 1280 x 800);
- ``table-4p.png``: four players, partners opposite (desktop);
- ``table-chiamata-auction.png``: five players bidding in briscola chiamata, Italian cards (desktop);
- ``table-results.png``: the results panel at the end of a four-player match (desktop);
- ``table-phone.png``: four players on a phone (390 x 844);
- ``decks.png``: the Spanish and the Italian deck and the back;
- ``lobby.png``, ``lobby-es.png``, ``lobby-it.png``: the lobby in English, Spanish and Italian, its form for a new
  table included (desktop, the whole page);
- ``table-2p-es.png``, ``table-2p-it.png``: ``table-2p.png``'s table in Spanish and Italian;
- ``table-results-es.png``, ``table-results-it.png``: ``table-results.png``'s results in Spanish and Italian;
- ``replay.png``, ``replay-es.png``, ``replay-it.png``: that finished match's replay page at its sixth card;
- ``player.png``, ``player-es.png``, ``player-it.png``: the page of an account that played a rated one-hand
  match against a bot (its rating and figures change from run to run), its analysis asked for and done.

The replay page's analysis, in the three languages and on a phone: ``scripts/analysis_screenshot.py``.

Needs the test extras (``pip install -e '.[test]'``) and a chromium (``/usr/bin/chromium``, or set
``BRISCA_CHROMIUM``); with ``pngquant`` installed the pictures are quantized, a third of their size. Motion is
off (``prefers-reduced-motion``), so each picture is the table at rest.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


def compress(path: Path) -> None:
    """Quantize a screenshot to a palette with pngquant where it is installed (``apt-get install pngquant``):
    about a third of the bytes, no change a reader sees; left as it is without it."""
    if shutil.which("pngquant"):
        subprocess.run(["pngquant", "--quality", "70-95", "--speed", "1", "--strip", "--force", "--skip-if-larger",
                        "--output", str(path), str(path)], check=False)


def _serve(db: Path, log: Any) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "brisca", "serve", "--port", str(port), "--db", str(db), "--log-level", "warning",
         "--hand-pause", "60", "--rate-create", "600/100", "--max-open-tables", "50"],
        stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            with urllib.request.urlopen(f"{base}/api/presets", timeout=2):
                return proc, base
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("brisca serve exited; see its log") from None
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit("brisca serve did not answer within 15 s")


class Shooter:
    def __init__(self, browser: Any, base: str, out: Path) -> None:
        self.browser, self.base, self.out = browser, base, out

    def table(self, preset: str, players: int, seed: int, options: dict[str, Any], *, phone: bool = False,
              bots: str = "normal", delay: float = 0.0, lang: str = "en") -> Any:
        """A practice table with the person at seat 0; the page, opened at it, in ``lang``."""
        viewport = PHONE if phone else DESKTOP
        extra = {"is_mobile": True, "has_touch": True} if phone else {}
        context = self.browser.new_context(viewport=viewport, locale="en-US", reduced_motion="reduce", **extra)
        context.add_init_script(f"localStorage.setItem('brisca:lang', '{lang}');")
        page = context.new_page()
        page.set_default_timeout(20_000)
        made = _post(f"{self.base}/api/tables", {
            "preset": preset, "players": players, "bots": {str(s): bots for s in range(1, players)},
            "bot_delay": delay, "name": "Ana", "seed": seed, "options": options})
        page.goto(f"{self.base}/games")
        page.evaluate(f"localStorage.setItem('brisca:seat:{made['table_id']}', JSON.stringify({json.dumps(made)}))")
        page.goto(f"{self.base}/t/{made['table_id']}")
        page.wait_for_function("document.body.dataset.status === 'playing'")
        return page

    def turns(self, page: Any, n: int, *, bid: bool = False) -> None:
        """Play ``n`` of our turns: the first legal card, or pass (or bid once, when ``bid``)."""
        for _ in range(n):
            self.my_turn(page)
            v = int(page.evaluate("document.body.dataset.v"))
            if page.locator("#hand .cardbtn.legal").count():
                page.locator("#hand .cardbtn.legal").first.click()
            elif page.locator("#callgrid .callcard").count():
                page.locator("#callgrid .callcard").first.click()
            elif bid and page.locator("#bidbutton").count():
                page.locator("#bidbutton").click()
            elif page.locator("#actions button.pass").count():
                page.locator("#actions button.pass").click()
            else:
                page.locator("#actions button:not([disabled])").first.click()
            page.wait_for_function(f"Number(document.body.dataset.v) > {v}")

    def my_turn(self, page: Any) -> None:
        page.wait_for_function(
            "document.body.dataset.status === 'finished' || !document.querySelector('#results').hidden ||"
            " document.querySelector('#hand .card.legal') || document.querySelector('#callgrid .callcard') ||"
            " document.querySelector('#actions button:not([disabled])')")

    def until_led(self, page: Any) -> None:
        """Play on until it is our turn with cards already on the table."""
        for _ in range(12):
            self.my_turn(page)
            if page.locator("#trick .card").count():
                return
            self.turns(page, 1)

    def to_end(self, page: Any) -> None:
        for _ in range(400):
            self.my_turn(page)
            if not page.locator("#results").is_hidden():
                return
            self.turns(page, 1)
        raise SystemExit("the match did not end")

    def account_game(self, username: str) -> str:
        """An account (``username``) plays a rated one-hand match against a bot to the end (unseeded: a seed makes
        a practice table, never rated) and asks for its analysis; the finished game's id, once the analysis is
        done (the player page's figures count analysed games only)."""
        context = self.browser.new_context(viewport=DESKTOP, locale="en-US", reduced_motion="reduce")
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{self.base}/")
        signed = page.request.post(f"{self.base}/api/signup", data={"username": username, "password": "a long pass"})
        csrf = {"X-CSRF-Token": signed.json()["csrf"]}
        answer = page.request.post(f"{self.base}/api/tables", headers=csrf, data={
            "preset": "spanish", "players": 2, "bots": {"1": "normal"}, "bot_delay": 0, "sit": True,
            "options": {"target_hands": 1}})
        if not answer.ok:
            raise SystemExit(f"the table was not made: {answer.status} {answer.text()}")
        made = answer.json()
        page.evaluate(f"localStorage.setItem('brisca:seat:{made['table_id']}', JSON.stringify({json.dumps(made)}))")
        page.goto(f"{self.base}/t/{made['table_id']}")
        page.wait_for_function("document.body.dataset.status === 'playing'")
        self.to_end(page)
        table_id: str = made["table_id"]
        for _ in range(300):
            if table_id in [g["table_id"] for g in json.loads(urllib.request.urlopen(
                    f"{self.base}/api/games", timeout=10).read())]:
                break
            time.sleep(0.2)
        _post(f"{self.base}/api/games/{table_id}/analysis", {})
        for _ in range(600):
            with urllib.request.urlopen(f"{self.base}/api/games/{table_id}/analysis", timeout=10) as r:
                status = json.load(r)["status"]
            if status != "queued":
                break
            time.sleep(0.5)
        if status != "done":
            raise SystemExit(f"the analysis of {table_id} is {status}")
        context.close()
        return table_id

    def page(self, path: str, lang: str, ready: str) -> Any:
        """The site's page at ``path`` in ``lang``, once the script ``ready`` is true."""
        context = self.browser.new_context(viewport=DESKTOP, locale="en-US", reduced_motion="reduce")
        context.add_init_script(f"localStorage.setItem('brisca:lang', '{lang}');")
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{self.base}{path}")
        page.wait_for_function(ready)
        return page

    def lobby(self, lang: str) -> Any:
        """The lobby in ``lang``, its lists loaded."""
        context = self.browser.new_context(viewport=DESKTOP, locale="en-US", reduced_motion="reduce")
        context.add_init_script(f"localStorage.setItem('brisca:lang', '{lang}');")
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{self.base}/")
        page.wait_for_function("document.body.dataset.lobby")
        return page

    def shot(self, page: Any, name: str, *, full: bool = False) -> None:
        page.mouse.move(0, 0)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(200)
        page.screenshot(path=str(self.out / name), full_page=full)
        compress(self.out / name)
        print(f"wrote {self.out / name}")
        page.context.close()


def decks(browser: Any, base: str, out: Path) -> None:
    """Every card of both decks, and the back, on one page drawn by the table's own cards.js."""
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.goto(f"{base}/games")
    page.evaluate("""() => {
        document.body.innerHTML = '<div id="decks" style="padding:10px;background:#14532d"></div>';
        document.body.insertAdjacentHTML('afterbegin', cardDefs());
        const ranks = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12];
        let html = '';
        for (const style of ['spanish', 'italian']) {
            for (const suit of 'OCEB') {
                html += '<div style="display:flex;gap:6px;margin-bottom:6px">' +
                    ranks.map(r => cardFace(r + suit, style, r + suit)).join('') + '</div>';
            }
        }
        html += '<div style="display:flex;gap:6px">' + cardBackSVG() + '</div>';
        document.querySelector('#decks').innerHTML = html;
        document.querySelectorAll('#decks .card').forEach(c => { c.style.width = '88px'; c.style.height = '136px'; });
    }""")
    page.locator("#decks").screenshot(path=str(out / "decks.png"))
    compress(out / "decks.png")
    print(f"wrote {out / 'decks.png'}")
    context.close()


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("BRISCA_CHROMIUM") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium")
                                                      else shutil.which("chromium"))
    if chromium is None:
        raise SystemExit("no chromium: install it (apt-get install chromium) or set BRISCA_CHROMIUM")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, open(Path(tmp) / "serve.log", "wb") as log:
        proc, base = _serve(Path(tmp) / "db.sqlite3", log)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
                s = Shooter(browser, base, out)
                page = s.table("spanish", 2, 11, {"target_hands": 1})
                s.turns(page, 3)
                s.until_led(page)
                s.shot(page, "table-2p.png")

                page = s.table("spanish", 4, 5, {"target_hands": 1})
                s.turns(page, 3)
                s.until_led(page)
                s.shot(page, "table-4p.png")

                # Our first bid keeps us in the auction; the picture is our next turn to bid.
                page = s.table("chiamata", 5, 3, {"target_points": 1})
                s.turns(page, 1, bid=True)
                s.my_turn(page)
                s.shot(page, "table-chiamata-auction.png")

                for lang in ("en", "es", "it"):
                    page = s.table("spanish", 4, 5, {"target_hands": 1}, lang=lang)
                    s.to_end(page)
                    finished = page.evaluate("location.pathname").rsplit("/", 1)[-1]
                    s.shot(page, "table-results.png" if lang == "en" else f"table-results-{lang}.png")

                page = s.table("spanish", 4, 8, {"target_hands": 1}, phone=True)
                s.turns(page, 2)
                s.my_turn(page)
                s.shot(page, "table-phone.png")

                for lang in ("es", "it"):
                    page = s.table("spanish", 2, 11, {"target_hands": 1}, lang=lang)
                    s.turns(page, 3)
                    s.until_led(page)
                    s.shot(page, f"table-2p-{lang}.png")
                for lang in ("en", "es", "it"):
                    s.shot(s.lobby(lang), "lobby.png" if lang == "en" else f"lobby-{lang}.png", full=True)

                # The replay of the four-player match above, at its sixth card; an account's page.
                lucia = s.account_game("Lucia")
                for lang in ("en", "es", "it"):
                    tail = "" if lang == "en" else f"-{lang}"
                    page = s.page(f"/games/{finished}#6", lang, "document.body.dataset.step === '6'")
                    s.shot(page, f"replay{tail}.png")
                    page = s.page("/players/Lucia", lang,
                                  "document.body.dataset.player && !document.querySelector('#playeranalysis').hidden")
                    assert page.locator(f"#playergames [data-game='{lucia}']").count() == 1
                    s.shot(page, f"player{tail}.png", full=True)

                decks(browser, base, out)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
