"""The screenshots of a replay page's analysis for docs/analysis.md: ``python scripts/analysis_screenshot.py [DIR]``.

Starts ``brisca serve`` on a free loopback port with a throwaway database, lets two bots (easy and normal) play
a one-hand match on a practice table (seeded: every run deals the same cards), asks the site for its analysis,
waits for it, opens the replay page at the first blunder in chromium under Playwright and writes, in
``docs/img`` (or DIR): ``replay-analysis.png`` (English, a desktop 1280 wide), ``replay-analysis-es.png`` and
``replay-analysis-it.png`` (Spanish and Italian), ``replay-analysis-phone.png`` (Italian, a phone 390 wide).
Needs the test extras and ``/usr/bin/chromium`` (or ``BRISCA_CHROMIUM``); ``pngquant``, where installed,
quantizes the pictures.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshots import compress  # noqa: E402  (the scripts folder is no package)


def _call(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img"
    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, "-m", "brisca", "serve", "--port", str(port), "--db",
                                   f"{tmp}/db.sqlite3", "--log-level", "warning", "--min-bot-delay", "0"])
        try:
            for _ in range(600):
                try:
                    _call(f"{base}/api/presets")
                    break
                except OSError:
                    time.sleep(0.1)
            table = _call(f"{base}/api/tables", {"players": 2, "bots": {"0": "easy", "1": "normal"},
                                                 "bot_delay": 0, "seed": 5, "options": {"target_hands": 1}})
            table_id = table["table_id"]
            while table_id not in [g["table_id"] for g in _call(f"{base}/api/games")]:
                time.sleep(0.2)
            _call(f"{base}/api/games/{table_id}/analysis", {})
            while (body := _call(f"{base}/api/games/{table_id}/analysis"))["status"] == "queued":
                time.sleep(1)
            assert body["status"] == "done", body
            replay = _call(f"{base}/api/games/{table_id}/replay")
            moves = body["analysis"]["moves"]
            blunder = next((m for m in moves if m.get("mark") == "blunder"), moves[len(moves) // 2])
            step = next(k for k, s in enumerate(replay["steps"])
                        if s["hand"] == blunder["hand"] and s["index"] == blunder["index"] + 1)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=os.environ.get("BRISCA_CHROMIUM", "/usr/bin/chromium"),
                                             args=["--no-sandbox", "--disable-gpu"])
                for name, lang, width in (("replay-analysis.png", "en", 1280), ("replay-analysis-es.png", "es", 1280),
                                          ("replay-analysis-it.png", "it", 1280),
                                          ("replay-analysis-phone.png", "it", 390)):
                    page = browser.new_page(viewport={"width": width, "height": 1400 if width > 800 else 844},
                                            reduced_motion="reduce")
                    page.add_init_script(f"localStorage.setItem('brisca:lang', '{lang}');")
                    page.goto(f"{base}/games/{table_id}#{step}")
                    page.wait_for_selector("#ranalysis[data-status='done'] #ralternatives table")
                    page.screenshot(path=str(out / name), full_page=True)
                    compress(out / name)
                    page.close()
                    print(out / name)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
