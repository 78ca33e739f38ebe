"""Names nobody can fake: look-alikes across alphabets, invisible names, the bots' and the server's names."""

from __future__ import annotations

from pathlib import Path

import pytest

import brisca.server.db
from brisca.agents.registry import LEVELS
from brisca.server.accounts import AccountError, check_username
from brisca.server.names import NameRefused, check_name, lookalike, reserved_name, skeleton, visible
from test_server_accounts import PASSWORD, _csrf
from test_server_common import create, deadline, serve

#: (look-alike, the name it imitates): Cyrillic, Greek, digits for letters, a ratio sign for a colon.
LOOKALIKES = [("сора", "copa"), ("ΑΝΑ", "ANA"), ("ВОТ", "bot"), ("Ρерe", "Pepe"), ("I1l", "lll"),
              ("bot∶expert", "bot:expert"), ("ana\u200b", "ana"), ("ａｎａ", "ana"),
              # small letters drawn as Latin small capitals, which Unicode's confusables leave out
              ("вот", "bot"), ("аԁміп", "admin"), ("ᴀᴅᴍɪɴ", "admin")]
#: Names that show nothing: Hangul fillers, the blank Braille pattern, a combining mark alone.
INVISIBLE = ["\u3164", "\u3164\u3164\u3164", "\u2800\u2800", "\u115f\u1160", "\uffa0", "\u0301", "\u034f"]


def test_the_skeleton_follows_unicode_confusables() -> None:
    assert skeleton("сора") == "copa"  # each Cyrillic letter to its Latin prototype
    assert skeleton("0") == "O" and skeleton("1") == skeleton("I") == "l"
    assert skeleton("m") == "rn"  # a prototype may be two letters
    for fake, real in LOOKALIKES:
        assert lookalike(fake) == lookalike(real), (fake, real)
    for one, other in [("ana", "ama"), ("copa", "cosa"), ("José", "Jose"), ("bot", "boot")]:
        assert lookalike(one) != lookalike(other), (one, other)


def test_reserved_and_invisible_names_are_refused_in_every_spelling() -> None:
    for level in LEVELS:
        assert reserved_name(level) and reserved_name(level.upper())
    for name in ("normal", "Expert", "ЕХРЕRТ", "bot", "BOT_1", "bot:expert", "bot∶expert", "ВОТ∶expert", "ВОТ_1",
                 "guest", "GUEST", "Admin", "аdmin", "spectator", "bot1", "вот", "вот_1", "аԁміп"):
        assert reserved_name(name), name
        with pytest.raises(NameRefused, match="reserved"):
            check_name(name)
    for name in ("botella", "Robot", "normalito", "Guest1", "experta", "Ana", "Иван", "Мария"):
        assert not reserved_name(name) and check_name(name) == name
    for name in INVISIBLE:
        assert not visible(name)
        with pytest.raises(NameRefused):
            check_name(name)
    with pytest.raises(NameRefused, match="U\\+3164"):
        check_name("Ana\u3164")  # a blank inside a name: two names would look the same
    assert visible("Ana") and visible("7") and visible("♥")


def test_usernames_that_look_reserved_or_blank_are_refused() -> None:
    for name in ("normal", "Expert", "hard-v1", "ВОТ", "ВОТ_1", "\u3164\u3164\u3164", "ana\u3164"):
        with pytest.raises(AccountError):
            check_username(name)
    assert check_username("сора") == "сора"  # one alphabet, not reserved: a name of its own


def test_an_account_is_unique_by_its_look_and_guests_cannot_wear_it(tmp_path: Path) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        r = client.post("/api/signup", json={"username": "copa", "password": PASSWORD})
        assert r.status_code == 200
        client.post("/api/logout", headers=_csrf(client))
        for fake in ("сора", "COPA", "ｃｏｐａ"):
            r = client.post("/api/signup", json={"username": fake, "password": PASSWORD})
            assert r.status_code == 400 and "taken" in r.json()["detail"], (fake, r.text)
        r = client.post("/api/signup", json={"username": "ANA", "password": PASSWORD})
        assert r.status_code == 200
        client.post("/api/logout", headers=_csrf(client))
        r = client.post("/api/signup", json={"username": "ΑΝΑ", "password": PASSWORD})
        assert r.status_code == 400 and "taken" in r.json()["detail"]
        for name in ("normal", "expert", "\u3164\u3164"):
            r = client.post("/api/signup", json={"username": name, "password": PASSWORD})
            assert r.status_code == 400, name

        # A guest may not sit under an account's look, a bot's or the server's name, or an invisible one.
        table_id = create(client, players=4)
        for name, status in [("сора", 409), ("ΑΝΑ", 409), ("normal", 400), ("Expert", 400), ("bot∶expert", 400),
                             ("ВОТ", 400), ("guest", 400), ("\u3164", 400), ("\u2800\u2800\u2800", 400),
                             ("\u3164Ana", 400)]:
            r = client.post(f"/api/tables/{table_id}/join", json={"name": name})
            assert r.status_code == status, (name, r.text)
            assert isinstance(r.json()["detail"], str) and r.json()["detail"]
        info = client.get(f"/api/tables/{table_id}").json()
        assert all(s["name"] is None for s in info["seats"])  # nothing was taken
        r = client.post(f"/api/tables/{table_id}/join", json={"name": "Beatriz"})
        assert r.status_code == 200


def test_the_keys_of_existing_accounts_are_made_again_when_the_look_alikes_change(tmp_path: Path) -> None:
    """Migration 0006: each account's key is computed anew; of two accounts that now look alike, the older keeps
    the key (the newer still logs in, and no new account may look like either)."""
    from datetime import datetime

    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from brisca.server.db import UserRow, make_engine, upgrade

    engine = make_engine(str(tmp_path / "db.sqlite3"))
    config = Config()
    config.set_main_option("script_location", str(Path(brisca.server.db.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0005")
    users = UserRow.__table__
    with engine.begin() as c:  # keys as 0004 made them: without the small capitals
        for display in ("nota", "пота", "Иван"):
            c.execute(users.insert().values(username=display.casefold(), display=display, password_hash="x",
                                            lookalike=skeleton(skeleton(display).casefold()),
                                            created_at=datetime(2026, 1, 1)))
    upgrade(engine)
    with engine.connect() as c:
        keys = dict(c.execute(sa.select(users.c.display, users.c.lookalike)).all())
    assert keys == {"nota": lookalike("nota"), "пота": None, "Иван": lookalike("Иван")}
    assert lookalike("пота") == lookalike("nota")


def test_every_case_of_a_reserved_name_and_the_levels_in_every_language_are_refused() -> None:
    # A capital I reads as an l: the key of ADMIN is admin's, whatever the case of each letter.
    assert lookalike("ADMIN") == lookalike("AdmIn") == lookalike("admin") == lookalike("ᴀᴅᴍɪɴ")
    assert lookalike("ᴍᴀʀɪᴀ") == lookalike("Maria") == lookalike("MARIA")
    for name in ("ADMIN", "AdmIn", "aDMIN", "experto", "Esperto", "normale", "fácil", "difficile", "Server",
                 "SERVER", "invitado", "ospite", "normal (bot)", "Ana (guest)", "Ana [invitado]", "Bo (ospite)",
                 "facile bot"):
        assert reserved_name(name), name
    for name in ("botella", "Robot", "normalito", "experta", "Guest1", "Servera", "Maria", "Ana María"):
        assert not reserved_name(name), name


def test_reserved_names_and_look_alikes_are_refused_over_real_sockets(tmp_path: Path) -> None:
    """A real server on 127.0.0.1: usernames and guest names as the issue tried them."""
    from brisca.server import create_app
    from server_live import client, live
    from test_server_common import Limits, Rate

    loose = Rate(10_000, 10_000)
    app = create_app(str(tmp_path / "db.sqlite3"), limits=Limits(rate_login=loose, rate_create=loose,
                                                                 rate_join=loose))
    with deadline(60), live(app) as url, client(url) as http:
        for name in ("ADMIN", "AdmIn", "experto", "esperto", "normale", "Server"):
            r = http.post("/api/signup", json={"username": name, "password": PASSWORD})
            assert r.status_code == 400 and "reserved" in r.json()["detail"], (name, r.text)
        assert http.post("/api/signup", json={"username": "Maria", "password": PASSWORD}).status_code == 200
        http.post("/api/logout", headers={"X-CSRF-Token": http.get("/api/me").json()["csrf"]})
        r = http.post("/api/signup", json={"username": "ᴍᴀʀɪᴀ", "password": PASSWORD})
        assert r.status_code == 400 and "taken" in r.json()["detail"]
        table = http.post("/api/tables", json={"players": 4}).json()["table_id"]
        for name, status in (("normal (bot)", 400), ("Server", 400), ("esperto", 400), ("Ana (guest)", 400),
                             ("ᴍᴀʀɪᴀ", 409), ("MARIA", 409)):
            r = http.post(f"/api/tables/{table}/join", json={"name": name})
            assert r.status_code == status, (name, r.text)
        assert all(s["name"] is None for s in http.get(f"/api/tables/{table}").json()["seats"])
        assert http.post(f"/api/tables/{table}/join", json={"name": "Ana María"}).status_code == 200


def test_migration_0008_gives_every_case_of_a_name_one_key_and_keeps_the_older_account_s(tmp_path: Path) -> None:
    """``Mia`` and ``Mla`` had two keys (an ``i`` was not an ``l``); now they have one: the older account keeps it.
    The ratings gain the opponents they were played against (none yet), the tables why they closed."""
    from datetime import datetime

    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from brisca.server.db import UserRow, make_engine, upgrade

    engine = make_engine(str(tmp_path / "db.sqlite3"))
    config = Config()
    config.set_main_option("script_location", str(Path(brisca.server.db.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0006")
    users = UserRow.__table__
    with engine.begin() as c:  # keys as 0006 made them
        for display, key in (("Mia", "rnia"), ("Mla", "rnla")):
            c.execute(users.insert().values(username=display.casefold(), display=display, password_hash="x",
                                            lookalike=key, created_at=datetime(2026, 1, 1)))
    upgrade(engine)
    with engine.connect() as c:
        keys = dict(c.execute(sa.select(users.c.display, users.c.lookalike)).all())
        columns = {t: {col["name"] for col in sa.inspect(c).get_columns(t)} for t in ("brisca_ratings",
                                                                                     "brisca_tables")}
    assert keys == {"Mia": lookalike("Mia"), "Mla": None} and lookalike("Mia") == lookalike("Mla")
    assert "opponents" in columns["brisca_ratings"] and "closed_reason" in columns["brisca_tables"]
