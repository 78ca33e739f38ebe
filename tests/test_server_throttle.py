"""Guessing one account's password from many addresses: the per-account throttle, and the owner's way past it
(a browser that logged in before). Over real sockets, each guesser at its own loopback address; a fake clock."""

from __future__ import annotations

from pathlib import Path

from brisca.server import create_app
from brisca.server.devices import DEVICE_COOKIE
from brisca.server.limits import Limits, Rate
from server_live import client, live
from test_server_accounts import PASSWORD
from test_server_common import deadline


class Clock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_guesses_from_thirty_addresses_are_throttled_per_account_and_the_owner_still_logs_in(tmp_path: Path) -> None:
    clock = Clock()
    limits = Limits(rate_account=Rate(2, 10))  # the defaults, said: 10 at once, then one every 30 s
    app = create_app(str(tmp_path / "db.sqlite3"), limits=limits, clock=clock)
    with deadline(120), live(app) as url:
        with client(url, "127.0.0.1") as owner:
            assert owner.post("/api/signup", json={"username": "Ana", "password": PASSWORD}).status_code == 200
            assert owner.cookies.get(DEVICE_COOKIE)  # this browser is known to the account from now on
            owner.post("/api/logout", headers={"X-CSRF-Token": owner.get("/api/me").json()["csrf"]})

            # 150 wrong passwords, 5 from each of 30 addresses (each under its own limit of 5 at once).
            answers = []
            for i in range(30):
                with client(url, f"127.0.0.{i + 2}") as guesser:
                    answers += [guesser.post("/api/login", json={"username": "ana", "password": f"guess-{i}-{j}"})
                                for j in range(5)]
            statuses = [r.status_code for r in answers]
            assert statuses == [401] * 10 + [429] * 140  # the account's 10, then the account is throttled
            refused = answers[-1]
            assert "for this account" in refused.json()["detail"]
            assert 1 <= int(refused.headers["Retry-After"]) <= 30
            # The address limit holds as before: a sixth try from one address is refused for the address.
            with client(url, "127.0.0.2") as guesser:
                sixth = guesser.post("/api/login", json={"username": "ana", "password": "guess-6"})
                assert sixth.status_code == 429 and "from your address" in sixth.json()["detail"]

            # The owner's browser is known to the account: not throttled, however many guesses.
            r = owner.post("/api/login", json={"username": "ANA", "password": PASSWORD})
            assert r.status_code == 200 and r.json()["user"]["username"] == "ana"

        # The owner on a new browser waits at most Retry-After (30 s), not for the guesses to stop.
        with client(url, "127.0.0.99") as elsewhere:
            r = elsewhere.post("/api/login", json={"username": "ana", "password": PASSWORD})
            assert r.status_code == 429 and int(r.headers["Retry-After"]) <= 30
            clock.now += int(r.headers["Retry-After"])
            r = elsewhere.post("/api/login", json={"username": "ana", "password": PASSWORD})
            assert r.status_code == 200
            # A device cookie made up, or another account's, counts for nothing.
            elsewhere.cookies.clear()
            elsewhere.cookies.set(DEVICE_COOKIE, "YW5h." + "0" * 64)
            assert elsewhere.post("/api/login", json={"username": "ana", "password": "wrong-one"}).status_code == 429


def test_a_new_password_makes_the_old_device_cookies_worthless(tmp_path: Path) -> None:
    clock = Clock()
    app = create_app(str(tmp_path / "db.sqlite3"), limits=Limits(rate_account=Rate(1, 1)), clock=clock)
    with deadline(120), live(app) as url, client(url) as owner, client(url, "127.0.0.3") as thief:
        assert owner.post("/api/signup", json={"username": "Beto", "password": PASSWORD}).status_code == 200
        thief.cookies.set(DEVICE_COOKIE, owner.cookies[DEVICE_COOKIE])  # a copy of the owner's cookie
        csrf = owner.get("/api/me").json()["csrf"]
        r = owner.post("/api/password", json={"old": PASSWORD, "new": "another password"},
                       headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200
        assert thief.post("/api/login", json={"username": "beto", "password": "guess-1"}).status_code == 401
        assert thief.post("/api/login", json={"username": "beto", "password": "guess-2"}).status_code == 429
        owner.post("/api/logout", headers={"X-CSRF-Token": csrf})
        assert owner.post("/api/login", json={"username": "beto", "password": "another password"}).status_code == 200
