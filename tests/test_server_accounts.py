"""Players with accounts: usernames, passwords, sessions, CSRF, guests, and whose matches are rated."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from brisca.server.accounts import BAD_LOGIN, AccountError, Accounts, check_username, csrf_matches, normalize
from brisca.server.db import SessionRow, UserRow, make_engine, upgrade
from brisca.server.ratings import rate_table
from test_server_common import Conn, address, deadline, serve

PASSWORD = "correct horse battery"
GRACE = 0.3


# ---------------------------------------------------------------------------------------------- accounts.py


def test_usernames_are_normalised_and_some_are_reserved() -> None:
    assert normalize("Ana") == normalize("ANA") == normalize("ａｎａ") == "ana"
    assert normalize("Straße") == "strasse"
    assert check_username("  Ana.María_7-x ") == "Ana.María_7-x"
    assert check_username("ａｎａ") == "ana"  # NFKC: shown as the plain letters
    for fine in ("botella", "Robot", "abbot", "bo_t", "guests", "Íñigo"):
        assert check_username(fine) == fine
    for name in ("bot", "bot1", "Bot_7", "BOT.x", "bot-a", "guest", "Admin", "SYSTEM", "spectator"):
        with pytest.raises(AccountError, match="reserved"):
            check_username(name)
    for bad in ("ab", "a" * 25, "ana maria", "ana!", "bot:easy", "ana\x00", "ana\u202e", "", 7, "аna"):
        with pytest.raises(AccountError):
            check_username(bad)


def _accounts(tmp_path: Path, hasher: PasswordHasher | None = None) -> Accounts:
    engine = make_engine(str(tmp_path / "db.sqlite3"))
    upgrade(engine)
    return Accounts(engine, hasher)


def test_passwords_are_hashed_verified_and_rehashed(tmp_path: Path) -> None:
    cheap = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
    old = _accounts(tmp_path, cheap)
    ana = old.signup("Ana", PASSWORD)
    assert (ana.username, ana.display) == ("ana", "Ana")
    with pytest.raises(AccountError, match="taken"):
        old.signup("ANA", PASSWORD)
    for short_or_long in ("short", "x" * 257):
        with pytest.raises(AccountError, match="8 to 256"):
            old.signup("Bea", short_or_long)
    with old.engine.connect() as c:
        stored = c.execute(UserRow.__table__.select()).one()
    assert stored.password_hash.startswith("$argon2id$") and PASSWORD not in stored.password_hash
    assert old.login("aNa", PASSWORD) == ana
    for username, password in (("ana", "wrong password"), ("nobody", PASSWORD), ("ana", "x" * 300)):
        with pytest.raises(AccountError) as refused:
            old.login(username, password)
        assert str(refused.value) == BAD_LOGIN  # the same words for an unknown name and a wrong password

    # Stronger parameters since: the next login rehashes the password with them.
    new = Accounts(old.engine)
    assert new.hasher.check_needs_rehash(stored.password_hash)
    assert new.login("ana", PASSWORD) == ana
    with new.engine.connect() as c:
        rehashed = c.execute(UserRow.__table__.select()).one().password_hash
    assert rehashed != stored.password_hash and not new.hasher.check_needs_rehash(rehashed)
    assert new.login("ana", PASSWORD) == ana


def test_an_unknown_name_is_checked_against_a_hash_of_the_same_parameters(tmp_path: Path) -> None:
    cheap = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
    first, again = _accounts(tmp_path, cheap), Accounts(make_engine(str(tmp_path / "db.sqlite3")), cheap)
    # Made once a process for a set of parameters (opening the accounts again hashes nothing)...
    assert first._dummy == again._dummy
    assert not cheap.check_needs_rehash(first._dummy)
    # ...and its own for other parameters, so that a miss costs what a wrong password costs.
    other = PasswordHasher(time_cost=2, memory_cost=8192, parallelism=1)
    third = Accounts(first.engine, other)
    assert third._dummy != first._dummy and not other.check_needs_rehash(third._dummy)
    assert cheap.check_needs_rehash(third._dummy)


def test_sessions_last_thirty_days_and_end(tmp_path: Path) -> None:
    accounts = _accounts(tmp_path, PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1))
    ana = accounts.signup("Ana", PASSWORD)
    start = datetime(2020, 1, 1)
    token, session = accounts.start_session(ana, now=start)
    assert session.expires_at == start + timedelta(days=30)
    found = accounts.session(token, now=start + timedelta(days=29))
    assert found is not None and found.user == ana and found.csrf == session.csrf
    assert csrf_matches(found, session.csrf) and not csrf_matches(found, "x") and not csrf_matches(found, None)
    assert accounts.session("not a token", now=start) is None
    assert accounts.session(token, now=start + timedelta(days=30, seconds=1)) is None
    with accounts.engine.connect() as c:  # the expired session is gone
        assert c.execute(SessionRow.__table__.select()).all() == []
    other, _ = accounts.start_session(ana)
    assert accounts.session(other) is not None
    accounts.end_session(other)
    assert accounts.session(other) is None
    late, _ = accounts.start_session(ana, now=start)
    assert accounts.purge() == 1 and accounts.session(late, now=start) is None


def test_the_rating_rule() -> None:
    current: dict[str, tuple[float, float]] = {}
    assert rate_table(current, ["ana", None], 2, 0) == {}  # a guest at the table
    assert rate_table(current, ["bot:easy", "bot:normal"], 2, 0) == {}  # no account
    both = rate_table(current, ["ana", "bot:easy"], 2, 1)
    assert set(both) == {"ana", "bot:easy"} and both["ana"][0] < 25 < both["bot:easy"][0]
    # Ana left and a stand-in won for her: she lost; nobody else is rated.
    gone = rate_table(current, ["ana", "bea"], 2, 0, {0})
    assert set(gone) == {"ana"} and gone["ana"][0] < 25
    # Partners who both left (4 players, 2 sides) both lost; their opponents are not rated.
    team = rate_table(current, ["ana", "bea", "cris", "dani"], 2, None, {0, 2})
    assert set(team) == {"ana", "cris"} and team["ana"] == team["cris"]
    assert rate_table(current, ["ana", "bot:easy"], 2, 0, {1}) == rate_table(current, ["ana", "bot:easy"], 2, 0)


# ---------------------------------------------------------------------------------------------- over HTTP


def _signup(client: Any, username: str, password: str = PASSWORD) -> dict[str, Any]:
    r = client.post("/api/signup", json={"username": username, "password": password}, headers=_csrf(client))
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def _csrf(client: Any) -> dict[str, str]:
    token = client.get("/api/me").json()["csrf"]
    return {} if token is None else {"X-CSRF-Token": token}


def _as(client: Any, cookie: str | None) -> None:
    """Be the person of this login cookie (``None``: a guest)."""
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set("brisca_session", cookie)


def _post(client: Any, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, json=body, headers=_csrf(client))


def test_signup_login_logout_and_a_new_password(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        assert client.get("/api/me").json() == {"user": None, "csrf": None}
        made = client.post("/api/signup", json={"username": "Ana", "password": PASSWORD})
        assert made.status_code == 200, made.text
        cookie = made.headers["set-cookie"]
        assert cookie.startswith("brisca_session=") and "HttpOnly" in cookie and "Path=/" in cookie
        assert "samesite=lax" in cookie.lower() and "Secure" not in cookie and "Max-Age=2592000" in cookie
        me = client.get("/api/me").json()
        assert me["user"] == {"username": "ana", "display": "Ana"} and me == made.json() and me["csrf"]
        first = client.cookies["brisca_session"]

        r = client.post("/api/logout", headers=_csrf(client))
        assert r.status_code == 200 and r.json() == {"user": None, "csrf": None}
        assert client.get("/api/me").json()["user"] is None
        _as(client, first)
        assert client.get("/api/me").json()["user"] is None  # that session is over on the server too
        _as(client, None)

        for username, password in (("ana", "wrong password"), ("nobody", PASSWORD)):
            r = client.post("/api/login", json={"username": username, "password": password})
            assert r.status_code == 401 and r.json()["detail"] == BAD_LOGIN
        assert client.post("/api/login", json={"username": "ANA", "password": PASSWORD}).status_code == 200
        second = client.cookies["brisca_session"]
        _as(client, None)
        assert client.post("/api/login", json={"username": "ana", "password": PASSWORD}).status_code == 200
        third = client.cookies["brisca_session"]

        # A new password: the old one is checked, and the account is logged out everywhere else.
        assert _post(client, "/api/password", {"old": "wrong password", "new": "another secret"}).status_code == 400
        assert _post(client, "/api/password", {"old": PASSWORD, "new": "short"}).status_code == 400
        r = _post(client, "/api/password", {"old": PASSWORD, "new": "another secret"})
        assert r.status_code == 200, r.text
        assert client.get("/api/me").json()["user"]["username"] == "ana"
        _as(client, second)
        assert client.get("/api/me").json()["user"] is None
        _as(client, third)
        client.post("/api/logout", headers=_csrf(client))
        assert client.post("/api/login", json={"username": "ana", "password": PASSWORD}).status_code == 401
        assert client.post("/api/login", json={"username": "ana", "password": "another secret"}).status_code == 200
        _as(client, None)
        assert client.post("/api/password", json={"old": PASSWORD, "new": "x" * 9}).status_code == 401

        # Look-alike and reserved usernames, bad passwords.
        for username in ("ana", "ANA", "ａｎａ"):
            r = client.post("/api/signup", json={"username": username, "password": PASSWORD})
            assert r.status_code == 400 and "taken" in r.json()["detail"], username
        for username in ("bot_1", "guest", "Admin", "ab", "ana\u202e", "b\x00b"):
            r = client.post("/api/signup", json={"username": username, "password": PASSWORD})
            assert r.status_code == 400 and isinstance(r.json()["detail"], str), username
        assert client.post("/api/signup", json={"username": "Bea", "password": "1234567"}).status_code == 400
        assert client.get("/login").status_code == 200 and client.get("/account").status_code == 200
        assert "/static/app.js" in client.get("/players/ana").text


def test_cookies_are_secure_over_https(tmp_path: Path) -> None:
    with deadline(20), serve(str(tmp_path / "db.sqlite3")) as client:
        client.base_url = "https://testserver"
        r = client.post("/api/signup", json={"username": "Ana", "password": PASSWORD})
        assert "Secure" in r.headers["set-cookie"]
    with deadline(20), serve(str(tmp_path / "db.sqlite3"), secure_cookies=True) as client:
        r = client.post("/api/login", json={"username": "Ana", "password": PASSWORD})
        assert r.status_code == 200 and "Secure" in r.headers["set-cookie"]


def test_csrf_and_cross_site_posts_are_refused(tmp_path: Path) -> None:
    with deadline(20), serve(str(tmp_path / "db.sqlite3")) as client:
        spec = {"players": 2, "bots": {"1": "easy"}, "bot_delay": 10, "sit": True}
        # A guest: no session, no token needed; but never from another site.
        assert client.post("/api/tables", json={**spec, "name": "Bea"}).status_code == 200
        r = client.post("/api/tables", json={**spec, "name": "Bea"}, headers={"Origin": "https://evil.example"})
        assert r.status_code == 403 and "Origin" in r.json()["detail"]
        r = client.post("/api/signup", json={"username": "Ana", "password": PASSWORD},
                        headers={"Origin": "null"})
        assert r.status_code == 403
        assert client.post("/api/tables", json=spec, headers={"Origin": "http://testserver"}).status_code == 200

        _signup(client, "Ana")
        token = client.get("/api/me").json()["csrf"]
        for headers in ({}, {"X-CSRF-Token": "wrong"}, {"X-CSRF-Token": ""}):
            for path, body in (("/api/tables", spec), ("/api/logout", {}),
                               ("/api/password", {"old": PASSWORD, "new": "another secret"})):
                r = client.post(path, json=body, headers=headers)
                assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"], (path, headers)
        assert client.get("/api/me").json()["user"]["username"] == "ana"  # the logout was refused
        r = client.post("/api/tables", json=spec, headers={"X-CSRF-Token": token, "Origin": "https://evil.example"})
        assert r.status_code == 403
        r = client.post("/api/tables", json=spec, headers={"X-CSRF-Token": token})
        assert r.status_code == 200 and r.json()["seat"] == 0
        seat = client.get(f"/api/tables/{r.json()['table_id']}").json()["seats"][0]
        assert (seat["name"], seat["guest"], seat["account"]) == ("Ana", False, "ana")


def test_guest_names_are_checked(tmp_path: Path) -> None:
    with deadline(20), serve(str(tmp_path / "db.sqlite3")) as client:
        _signup(client, "Ana")
        client.post("/api/logout", headers=_csrf(client))
        table = client.post("/api/tables", json={"players": 2, "bot_delay": 0}).json()["table_id"]
        # 422: refused by the request's model (no name has control or invisible characters); 400: by the
        # rules of guests' names; 409: an account's.
        refused = {"ana": 409, "ＡＮＡ": 409, "bot:expert": 400, "BOT:easy": 400, "Bea\x00": 422,
                   "Bea\u202e": 422, "x" * 25: 400, "   ": 422}
        for name, status in refused.items():
            for path, body in (("/api/tables", {"players": 2, "name": name}),
                               (f"/api/tables/{table}/join", {"name": name})):
                r = client.post(path, json=body)
                assert r.status_code == status and isinstance(r.json()["detail"], str), (name, path, r.text)
        assert client.post(f"/api/tables/{table}/join", json={}).status_code == 400  # a guest needs a name
        assert client.get("/api/lobby").json()["open"][0]["table_id"] == table  # no table made by a refusal
        r = client.post(f"/api/tables/{table}/join", json={"name": " Bea "})
        assert r.status_code == 200
        seat = client.get(f"/api/tables/{table}").json()["seats"][0]
        assert (seat["name"], seat["guest"], seat["account"]) == ("Bea", True, None)
        lobby_seat = client.get("/api/lobby").json()["open"][0]["seats"][0]
        assert lobby_seat["guest"] is True and lobby_seat["account"] is None

        # Someone logged in sits under their account's name, whatever name they send, once a table.
        _signup(client, "Carla")
        r = _post(client, f"/api/tables/{table}/join", {"name": "Somebody"})
        assert r.status_code == 200, r.text
        seat = client.get(f"/api/tables/{table}").json()["seats"][1]
        assert (seat["name"], seat["guest"], seat["account"]) == ("Carla", False, "carla")
        other = _post(client, "/api/tables", {"players": 3, "preset": "briscola", "sit": True}).json()
        assert other["seat"] == 0
        r = _post(client, f"/api/tables/{other['table_id']}/join", {})
        assert r.status_code == 409 and "already" in r.json()["detail"]


def _play_out(client: Any, table_id: str, conns: dict[int, Conn], limit: float = 30) -> dict[str, Any]:
    """Play the first legal action for every seat in ``conns`` when its turn comes, until the match ends."""
    actor = client.app.state.manager.actors[table_id]
    end = time.monotonic() + limit
    while actor.status != "finished":
        assert time.monotonic() < end, "the match did not end"
        match = actor.match
        conn = conns.get(match.game.turn) if match is not None and not match.game.is_over() else None
        if conn is None:
            time.sleep(0.01)
            continue
        conn.sync()
        assert conn.state is not None
        view = conn.state["view"]
        if conn.state["table"]["status"] == "playing" and view and view["turn"] == conn.seat and view["legal"]:
            action = {k: v for k, v in view["legal"][0].items() if k != "text"}
            answer = conn.request({"type": "play", "action": action})
            assert answer["type"] == "ack", answer
    info: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
    return info


def _ratings(client: Any, preset: str = "spanish") -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in client.get(f"/api/ratings/{preset}").json()}


def test_an_account_against_a_bot_is_rated_and_a_guest_table_is_not(tmp_path: Path) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3"), takeover_after=None) as client:
        _signup(client, "Ana")
        ana = client.cookies["brisca_session"]
        spec = {"players": 2, "bots": {"1": "easy"}, "bot_delay": 0, "options": {"target_hands": 1},
                "sit": True}
        made = _post(client, "/api/tables", spec).json()
        me = Conn(client, made["table_id"], token=made["token"])
        info = _play_out(client, made["table_id"], {0: me})
        board = _ratings(client)
        assert set(board) == {"Ana", "bot:easy"}
        assert board["Ana"]["account"] == "ana" and board["bot:easy"]["account"] is None
        assert all(r["games"] == 1 for r in board.values())
        if info["match_winner"] is not None:
            assert (board["Ana"]["mu"] > 25) == (info["match_winner"] == 0)
        # The table shows what the match did to each rating (ordinals; both were new: from 0).
        changes = {c["seat"]: c for c in info["rating_changes"]}
        assert set(changes) == {0, 1} and changes[0]["before"] == changes[1]["before"] == 0
        assert abs(changes[0]["after"] - board["Ana"]["ordinal"]) < 0.01
        assert abs(changes[1]["after"] - board["bot:easy"]["ordinal"]) < 0.01

        # The player's page: ratings per preset, the latest games with their replay.
        page = client.get("/api/players/ANA").json()
        assert (page["username"], page["display"]) == ("ana", "Ana")
        assert [(r["preset"], r["games"]) for r in page["ratings"]] == [("spanish", 1)]
        assert page["ratings"][0]["mu"] == board["Ana"]["mu"]
        assert abs(page["ratings"][0]["ordinal"] - board["Ana"]["ordinal"]) < 1e-9
        game = page["games"][0]
        assert game["table_id"] == made["table_id"] and game["url"] == f"/games/{made['table_id']}"
        assert game["names"] == ["Ana", "bot:easy"] and game["accounts"] == ["ana", None]
        assert game["guests"] == [False, False]
        assert client.get(f"/api/games/{made['table_id']}/replay").json()["accounts"] == ["ana", None]
        assert client.get("/api/players/nobody").status_code == 404

        # An account and a guest: a match, in the history, rated for nobody.
        made = _post(client, "/api/tables", {**spec, "bots": {}}).json()
        me = Conn(client, made["table_id"], token=made["token"])
        _as(client, None)
        guest = client.post(f"/api/tables/{made['table_id']}/join", json={"name": "Bea"}).json()
        bea = Conn(client, made["table_id"], token=guest["token"])
        # Ana's seat shows her rating; Bea, a guest, has none.
        seats = client.get(f"/api/tables/{made['table_id']}").json()["seats"]
        assert abs(seats[0]["rating"] - board["Ana"]["ordinal"]) < 0.1 and seats[1]["rating"] is None
        info = _play_out(client, made["table_id"], {0: me, 1: bea})
        assert _ratings(client) == board
        assert info["rating_changes"] == []
        game = client.get("/api/games").json()[0]
        assert game["names"] == ["Ana", "Bea"] and game["guests"] == [False, True]
        _as(client, ana)
        assert len(client.get("/api/players/ana").json()["games"]) == 2


def test_a_person_who_left_has_resigned(tmp_path: Path) -> None:
    """Ana's seat is still played by a stand-in at the end: she lost, and Bea is not rated for it."""
    with deadline(60), serve(str(tmp_path / "db.sqlite3"), takeover_after=GRACE) as client:
        spec = {"players": 2, "bot_delay": 0.02, "options": {"target_hands": 1}, "sit": True}
        # Each plays from an address of her own (two accounts of one address are not rated against each other).
        with address(client, "10.0.0.1"):
            _signup(client, "Ana")
            made = _post(client, "/api/tables", spec).json()
        with address(client, "10.0.0.2"):
            _signup(client, "Bea")
            seat = _post(client, f"/api/tables/{made['table_id']}/join", {}).json()
            bea = Conn(client, made["table_id"], token=seat["token"])
        bea.until(lambda m: m.get("kind") == "takeover" and m.get("seat") == 0)
        info = _play_out(client, made["table_id"], {1: bea})
        board = _ratings(client)
        assert set(board) == {"Ana"} and board["Ana"]["mu"] < 25 and board["Ana"]["games"] == 1
        assert info["seats"][0]["name"] == "Ana"
        bea.close()

        # Ana comes back before the end this time: both are rated as the match went.
        with address(client, "10.0.0.2"):
            made = _post(client, "/api/tables", spec).json()  # Bea's table now
            bea = Conn(client, made["table_id"], token=made["token"])
        with address(client, "10.0.0.3"):
            _signup(client, "Carla")
            seat = _post(client, f"/api/tables/{made['table_id']}/join", {}).json()
            carla = Conn(client, made["table_id"], token=seat["token"])
            carla.close()
            bea.until(lambda m: m.get("kind") == "takeover" and m.get("seat") == 1)
            carla = Conn(client, made["table_id"], token=seat["token"])
        bea.until(lambda m: m.get("kind") == "back" and m.get("seat") == 1)
        info = _play_out(client, made["table_id"], {0: bea, 1: carla})
        board = _ratings(client)
        assert set(board) == {"Ana", "Bea", "Carla"}
        assert board["Bea"]["games"] == board["Carla"]["games"] == 1
        if info["match_winner"] is not None:
            winner, loser = ("Bea", "Carla") if info["match_winner"] == 0 else ("Carla", "Bea")
            assert board[winner]["mu"] > 25 > board[loser]["mu"]


def test_the_page_can_translate_what_the_accounts_say(tmp_path: Path) -> None:
    """Every refusal of a signup, a login, a new password, a guest's name and a player page is one of the
    server's English texts the page recognises (and shows in Spanish or Italian: ``srv_*`` in its catalogs)."""
    from test_server_leave import _known

    said: list[str] = []
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        for username, password in [("ab", PASSWORD), ("a b", PASSWORD), ("abcд", PASSWORD), ("Admin", PASSWORD),
                                   ("Cris", "short")]:
            said.append(_post(client, "/api/signup", {"username": username, "password": password}).json()["detail"])
        _signup(client, "Ana")
        said.append(_post(client, "/api/password", {"old": "not it at all", "new": PASSWORD + "2"}).json()["detail"])
        _as(client, None)
        said.append(_post(client, "/api/signup", {"username": "ana", "password": PASSWORD}).json()["detail"])
        said.append(_post(client, "/api/login", {"username": "ana", "password": "not it at all"}).json()["detail"])
        for name in ["Ana\u3164Bo", "\u200b", "Admin"]:
            said.append(_post(client, "/api/tables", {"players": 2, "name": name}).json()["detail"])
        said.append(client.get("/api/players/nobody").json()["detail"])
        said.append(client.get("/api/games/nosuchgame/record").json()["detail"])
    assert len(said) == 13 and all(isinstance(m, str) for m in said), said
    unknown = [m for m in said if not _known(m)]
    assert not unknown, unknown
