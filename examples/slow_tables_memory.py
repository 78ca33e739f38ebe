"""The memory of one ``brisca serve`` process holding many slow tables (played over days) open at once.

It starts ``brisca serve`` on a free port of 127.0.0.1 with a new SQLite database, signs one account up, and opens
``--tables`` slow tables (a move a day), the account seated against a bot at each: every table is dealt and waits
for the account's move. The slow tables sleep between moves (their actors let go at the server's next look for
idle tables, every 5 seconds): the script reports the server's resident memory (``VmRSS``) and the tables it has
loaded (``/healthz``) with none open, then at each tenth of the tables, once they sleep.

    python examples/slow_tables_memory.py --tables 1000
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Client:
    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf: str | None = None

    def call(self, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        data = None if body is None else json.dumps(body).encode()
        with self.opener.open(urllib.request.Request(self.base + path, data, headers), timeout=30) as r:
            return json.load(r)


def _settled(client: Client, pid: int) -> tuple[int, float]:
    """Wait until the server has let every slow table go (two looks for idle tables); its loaded tables and RSS."""
    deadline = time.monotonic() + 60
    while (loaded := client.call("/healthz")["tables_loaded"]) and time.monotonic() < deadline:
        time.sleep(0.5)
    return loaded, _rss_mib(pid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = Path(tempfile.mkdtemp(prefix="brisca-slow-"))
    many = "100000/100000"
    proc = subprocess.Popen(
        [sys.executable, "-m", "brisca", "serve", "--port", str(port), "--db", str(folder / "db.sqlite3"),
         "--log-level", "warning", "--rate-create", many, "--rate-login", many, "--rate-join", many,
         "--max-slow-tables", str(args.tables)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        client = Client(base)
        for _ in range(600):
            try:
                client.call("/api/presets")
                break
            except OSError:
                time.sleep(0.1)
        client.csrf = client.call("/api/me")["csrf"]
        client.call("/api/signup", {"username": "Ana", "password": "correct horse battery"})
        client.csrf = client.call("/api/me")["csrf"]
        loaded, rss = _settled(client, proc.pid)
        print(f"{0:5d} slow tables: {rss:6.1f} MiB resident, {loaded} tables loaded")
        step = max(1, args.tables // 10)
        for made in range(1, args.tables + 1):
            client.call("/api/tables", {"players": 2, "bots": {"1": "easy"}, "sit": True, "clock": "days"})
            if made % step == 0 or made == args.tables:
                loaded, rss = _settled(client, proc.pid)
                print(f"{made:5d} slow tables: {rss:6.1f} MiB resident, {loaded} tables loaded", flush=True)
        mine = client.call("/api/my/tables")["tables"]
        print(f"/api/my/tables lists {len(mine)} (the account's turn at {sum(t['your_turn'] for t in mine)})")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
