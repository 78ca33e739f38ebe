"""One person's several accounts: provisional ratings, and no rating between accounts of one client address."""

from __future__ import annotations

from pathlib import Path

from brisca.server.limits import Limits, Rate
from brisca.server.ratings import rate_table, shared_address
from test_server_accounts import PASSWORD, _csrf, _play_out, _post, _ratings, _signup
from test_server_common import Conn, address, deadline, serve


def test_two_accounts_of_one_address_on_different_sides_are_not_rated() -> None:
    current: dict[str, tuple[float, float]] = {}
    keys = ["ana", "bea"]
    apart = {"ana": {"10.0.0.1"}, "bea": {"10.0.0.2"}}
    assert set(rate_table(current, keys, 2, 0, addresses=apart)) == {"ana", "bea"}
    together = {"ana": {"10.0.0.1", "10.0.0.9"}, "bea": {"10.0.0.9"}}  # one address in common is enough
    assert rate_table(current, keys, 2, 0, addresses=together) == {}
    # Partners at one address (4 players, seats 0 and 2 on side 0) play as one side: still rated.
    four = ["ana", "bea", "cris", "dani"]
    partners = {"ana": {"a"}, "cris": {"a"}, "bea": {"b"}, "dani": {"d"}}
    assert not shared_address(four, 2, partners)
    assert set(rate_table(current, four, 2, 0, addresses=partners)) == set(four)
    assert rate_table(current, four, 2, 0, addresses={**partners, "dani": {"a"}}) == {}
    # A bot's "address" is no person's.
    assert set(rate_table(current, ["ana", "bot:easy"], 2, 0, addresses={"ana": {"a"}})) == {"ana", "bot:easy"}


def test_a_provisional_account_moves_only_provisional_ratings() -> None:
    current = {"ana": (30.0, 4.0), "bea": (25.0, 8.3)}
    games = {"ana": 12, "bea": 1}
    # Bea (1 match of 5) loses to Ana: Bea's rating moves, Ana's does not.
    out = rate_table(current, ["ana", "bea"], 2, 0, games=games, provisional_games=5)
    assert set(out) == {"bea"} and out["bea"][0] < 25
    # Nor does a bot's.
    out = rate_table(current, ["bea", "bot:expert"], 2, 1, games=games, provisional_games=5)
    assert set(out) == {"bea"}
    # Two established accounts, or no provisional period: everyone as usual.
    assert set(rate_table(current, ["ana", "bea"], 2, 0, games={"ana": 12, "bea": 5}, provisional_games=5)) \
        == {"ana", "bea"}
    assert set(rate_table(current, ["ana", "bea"], 2, 0, games=games, provisional_games=0)) == {"ana", "bea"}
    # Two new accounts against each other: both provisional, both move.
    assert set(rate_table({}, ["cris", "dani"], 2, 0, games={}, provisional_games=5)) == {"cris", "dani"}


def _match(client: object, host_a: str, host_b: str, first: str, second: str) -> dict[str, object]:
    """``first`` opens a table from ``host_a``, ``second`` joins from ``host_b``; both play it to the end."""
    spec = {"players": 2, "bot_delay": 0, "options": {"target_hands": 1}, "sit": True}
    with address(client, host_a):  # type: ignore[arg-type]
        _signup(client, first)
        made = _post(client, "/api/tables", spec).json()
        one = Conn(client, made["table_id"], token=made["token"])  # type: ignore[arg-type]
    with address(client, host_b):  # type: ignore[arg-type]
        _signup(client, second)
        seat = _post(client, f"/api/tables/{made['table_id']}/join", {}).json()
        two = Conn(client, made["table_id"], token=seat["token"])  # type: ignore[arg-type]
    info = _play_out(client, made["table_id"], {0: one, 1: two})
    one.close()
    two.close()
    return info


def test_accounts_of_one_address_do_not_feed_each_other(tmp_path: Path) -> None:
    loose = Rate(10_000, 10_000)
    limits = Limits(min_bot_delay=0, rate_login=loose, rate_create=loose, rate_join=loose, provisional_games=0,
                    provisional_opponents=0)
    with deadline(90), serve(str(tmp_path / "db.sqlite3"), takeover_after=None, limits=limits) as client:
        info = _match(client, "10.1.0.1", "10.1.0.1", "Main", "Puppet")
        assert info["status"] == "finished" and info["rating_changes"] == []
        assert _ratings(client) == {}
        # From two addresses, the same kind of match is rated.
        info = _match(client, "10.2.0.1", "10.2.0.2", "Carla", "Dora")
        assert {c["seat"] for c in info["rating_changes"]} == {0, 1}  # type: ignore[union-attr]
        assert set(_ratings(client)) == {"Carla", "Dora"}


def test_a_new_account_is_provisional_and_moves_no_established_rating(tmp_path: Path) -> None:
    loose = Rate(10_000, 10_000)
    limits = Limits(min_bot_delay=0, rate_login=loose, rate_create=loose, rate_join=loose, provisional_games=1,
                    provisional_opponents=0)
    with deadline(90), serve(str(tmp_path / "db.sqlite3"), takeover_after=None, limits=limits) as client:
        # Two new accounts: both provisional, both rated; after it, one match each: established.
        _match(client, "10.3.0.1", "10.3.0.2", "Elena", "Fede")
        board = _ratings(client)
        assert {n: r["provisional"] for n, r in board.items()} == {"Elena": False, "Fede": False}
        before = board["Elena"]["mu"]
        # A new account meets Elena (from another address): only the newcomer's rating moves.
        with address(client, "10.3.0.3"):
            _signup(client, "Gina")
            made = _post(client, "/api/tables", {"players": 2, "bot_delay": 0, "options": {"target_hands": 1},
                                                 "sit": True}).json()
            gina = Conn(client, made["table_id"], token=made["token"])
        with address(client, "10.3.0.1"):
            r = client.post("/api/login", json={"username": "Elena", "password": PASSWORD}, headers=_csrf(client))
            assert r.status_code == 200
            seat = _post(client, f"/api/tables/{made['table_id']}/join", {}).json()
            elena = Conn(client, made["table_id"], token=seat["token"])
        info = _play_out(client, made["table_id"], {0: gina, 1: elena})
        assert [c["seat"] for c in info["rating_changes"]] == [0]
        board = _ratings(client)
        assert board["Elena"]["mu"] == before and board["Elena"]["games"] == 1 and board["Gina"]["games"] == 1
        page = client.get("/api/players/gina").json()
        assert page["ratings"][0]["provisional"] is False  # one rated match: provisional_games reached


def test_provisional_needs_games_and_distinct_opponents() -> None:
    from brisca.server.ratings import opponents_of, provisional

    assert provisional(9, 5, 10, 3) and provisional(12, 2, 10, 3) and not provisional(10, 3, 10, 3)
    assert opponents_of(["ana", "bea", "cris", None], 2) == {"ana": ["bea"], "bea": ["ana", "cris"],
                                                            "cris": ["bea"]}
    # Many games against one opponent: still provisional, so only the provisional ratings move.
    current = {"ana": (30.0, 4.0), "bea": (25.0, 8.3)}
    out = rate_table(current, ["ana", "bea"], 2, 0, games={"ana": 30, "bea": 30}, provisional_games=10,
                     opponents={"ana": 1, "bea": 5}, provisional_opponents=3)
    assert set(out) == {"ana"}


def _thrown(client: object, winner: str, loser: str, host_w: str, host_l: str) -> None:
    """``loser`` sits down against ``winner`` (each from its own address) and resigns at once."""
    spec = {"players": 2, "bot_delay": 0, "sit": True}
    with address(client, host_w):  # type: ignore[arg-type]
        _post(client, "/api/login", {"username": winner, "password": PASSWORD})
        made = _post(client, "/api/tables", spec).json()
        one = Conn(client, made["table_id"], token=made["token"])  # type: ignore[arg-type]
    with address(client, host_l):  # type: ignore[arg-type]
        _post(client, "/api/login", {"username": loser, "password": PASSWORD})
        seat = _post(client, f"/api/tables/{made['table_id']}/join", {}).json()
        two = Conn(client, made["table_id"], token=seat["token"])  # type: ignore[arg-type]
        assert two.request({"type": "resign"})["type"] == "ack"
    one.until(lambda m: m.get("kind") == "match_over")
    one.close()
    two.close()


def test_a_rating_farm_does_not_reach_the_leaderboard(tmp_path: Path) -> None:
    """Two addresses, six thrown games: the farmed account stays provisional, off the leaderboard and marked
    on its page, until it has played enough rated games against enough distinct opponents."""
    loose = Rate(10_000, 10_000)
    limits = Limits(min_bot_delay=0, rate_login=loose, rate_create=loose, rate_join=loose, provisional_games=6,
                    provisional_opponents=2)
    with deadline(120), serve(str(tmp_path / "db.sqlite3"), takeover_after=None, limits=limits) as client:
        for name, host in (("Farm", "10.5.0.1"), ("Feeder", "10.5.0.2"), ("Honest", "10.5.0.3")):
            with address(client, host):
                _signup(client, name)
                _post(client, "/api/logout", {})
        for _ in range(6):
            _thrown(client, "farm", "feeder", "10.5.0.1", "10.5.0.2")
        assert client.get("/api/ratings/spanish").json() == []  # six games, one opponent: provisional
        farm = client.get("/api/players/farm").json()["ratings"][0]
        assert farm["games"] == 6 and farm["opponents"] == 1 and farm["provisional"] is True
        # Its seat at a table, and the lobby, say so too.
        with address(client, "10.5.0.1"):
            _post(client, "/api/login", {"username": "farm", "password": PASSWORD})
            waiting = _post(client, "/api/tables", {"players": 2, "bot_delay": 0, "sit": True}).json()["table_id"]
        seat = client.get(f"/api/tables/{waiting}").json()["seats"][0]
        assert seat["rating"] is not None and seat["provisional"] is True
        listed = {t["table_id"]: t for t in client.get("/api/lobby").json()["open"]}[waiting]["seats"][0]
        assert listed["rating"] == seat["rating"] and listed["provisional"] is True
        with address(client, "10.5.0.1"):
            assert _post(client, f"/api/tables/{waiting}/cancel", {}).status_code == 200
        # A seventh game, against a second opponent: established, and on the leaderboard.
        _thrown(client, "farm", "honest", "10.5.0.1", "10.5.0.3")
        board = client.get("/api/ratings/spanish").json()
        assert [(r["account"], r["provisional"]) for r in board] == [("farm", False)]
        assert client.get("/api/players/farm").json()["ratings"][0]["provisional"] is False
        assert client.get("/api/players/feeder").json()["ratings"][0]["provisional"] is True
