"""The web pages' REST side: the lobby, the history of finished games, their replay, the leaderboard."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from brisca import record as brisca_record
from brisca.game import Game
from test_server_accounts import _csrf, _play_out, _signup
from test_server_common import Conn, address, create, deadline, serve


def _finish(client: Any, table_id: str) -> dict[str, Any]:
    """Watch a table until its match is over; its final table info."""
    watcher = Conn(client, table_id)
    if watcher.state is None or watcher.state["table"]["status"] != "finished":
        watcher.until(lambda m: m.get("kind") == "match_over")
    watcher.close()
    info: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
    assert info["status"] == "finished"
    return info


def _lobby(client: Any) -> dict[str, list[dict[str, Any]]]:
    r = client.get("/api/lobby")
    assert r.status_code == 200, r.text
    data: dict[str, list[dict[str, Any]]] = r.json()
    return data


def test_the_lobby_lists_open_tables_and_games_in_progress(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        assert _lobby(client) == {"open": [], "playing": []}
        # Open: a 3-player table with one person seated and one bot; one seat free.
        made = client.post("/api/tables", json={"preset": "briscola", "players": 3, "bots": {"2": "easy"},
                                                "name": "Ana", "bot_delay": 0}).json()
        first = made["table_id"]
        # Open too, newer: a 2-player table nobody sits at yet.
        second = create(client, preset="spanish", players=2, bots={"1": "normal"})
        # In progress: bots only, slow enough to stay in progress during the test.
        busy = create(client, preset="spanish", players=2, bots={"0": "easy", "1": "easy"}, bot_delay=10)
        # Finished: in neither list.
        done = create(client, preset="spanish", players=2, bots={"0": "easy", "1": "easy"})
        _finish(client, done)

        lobby = _lobby(client)
        assert [t["table_id"] for t in lobby["open"]] == [second, first]  # newest first
        assert [t["table_id"] for t in lobby["playing"]] == [busy]
        ana = lobby["open"][1]
        assert ana["url"] == f"/t/{first}" and ana["preset"] == "briscola" and ana["players"] == 3
        assert ana["title"].startswith("Briscola") and ana["status"] == "waiting"
        assert [(s["name"], s["bot"]) for s in ana["seats"]] == [("Ana", None), (None, None), ("bot:easy", "easy")]
        assert ana["free"] == [1]
        assert lobby["open"][0]["free"] == [0]
        playing = lobby["playing"][0]
        assert playing["status"] == "playing" and playing["free"] == [] and playing["hand_number"] == 0
        assert playing["hands_won"] == [0, 0]
        assert "token" not in json.dumps(lobby)  # no seat token (nor its hash) ever leaves in the lobby

        # The last seat taken: the table starts and moves from "open" to "in progress".
        r = client.post(f"/api/tables/{first}/join", json={"name": "Bea"})
        assert r.status_code == 200 and r.json()["seat"] == 1
        lobby = _lobby(client)
        assert [t["table_id"] for t in lobby["open"]] == [second]
        assert {t["table_id"] for t in lobby["playing"]} == {busy, first}
        started = next(t for t in lobby["playing"] if t["table_id"] == first)
        assert [s["name"] for s in started["seats"]] == ["Ana", "Bea", "bot:easy"]
        assert client.get("/api/lobby?limit=1").json()["open"] == lobby["open"][:1]
        assert client.get("/").status_code == 200


@pytest.mark.parametrize(("preset", "players", "bots", "options"), [
    ("spanish", 2, {"0": "easy", "1": "normal"}, {}),
    ("spanish", 4, {"0": "easy", "1": "normal", "2": "easy", "3": "normal"}, {"target_hands": 1}),
    ("rematada", 3, {"0": "easy", "1": "normal", "2": "easy"}, {"target_game_points": 1}),
])
def test_history_and_replay_of_a_finished_game(tmp_path: Path, preset: str, players: int, bots: dict[str, str],
                                                 options: dict[str, Any]) -> None:
    with deadline(40), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = create(client, preset=preset, players=players, bots=bots, options=options, seed=21)
        info = _finish(client, table_id)
        live = create(client, preset=preset, players=players, bots=bots, options=options, bot_delay=10)

        # The history: this game, its names, its winning side and their names, links.
        games = client.get("/api/games").json()
        assert [g["table_id"] for g in games] == [table_id]
        game = games[0]
        names = [f"bot:{bots[str(s)]}" for s in range(players)]
        assert game["names"] == names and game["preset"] == preset and game["players"] == players
        assert game["winner"] == info["match_winner"] and game["sides"] == info["sides"]
        expected = [] if game["winner"] is None else [
            names[s] for s in range(players) if s % info["sides"] == game["winner"]]
        assert game["winners"] == expected
        assert game["url"] == f"/games/{table_id}" and game["record_url"] == f"/api/games/{table_id}/record"
        assert game["options"] == options and game["finished_at"] >= game["started_at"]
        assert client.get(f"/api/games/{table_id}").json() == game
        assert client.get("/api/games?preset=nosuchpreset").json() == []
        assert client.get(f"/api/games?preset={preset}").json() == games
        assert client.get("/api/games?offset=1").json() == []

        # The replay: one step per deal and per action, computed by the engine from the stored record.
        replay = client.get(f"/api/games/{table_id}/replay").json()
        rec = brisca_record.loads(client.get(f"/api/games/{table_id}/record").text)
        assert isinstance(rec, brisca_record.MatchRecord)
        hands = rec.replay()
        assert replay["hands"] == len(hands) >= 1
        assert replay["winner"] == info["match_winner"] and replay["names"] == names
        assert replay["hands_won"] == info["hands_won"] and replay["match_points"] == info["match_points"]
        steps = replay["steps"]
        assert len(steps) == sum(1 + len(h.actions) for h in rec.hands)
        assert [s["step"] for s in steps] == list(range(len(steps)))
        at = 0
        for number, hand in enumerate(rec.hands):
            deal = steps[at]
            assert deal["hand"] == number and deal["index"] == 0 and deal["action"] is None
            for index, (seat, action) in enumerate(hand.actions, start=1):
                step = steps[at + index]
                assert step["index"] == index and step["hand"] == number
                assert step["action"]["seat"] == seat and step["action"]["text"] == str(action)
            # Spot-check positions against the engine: every seat's hand, the trick, the turn, the points.
            for index in (0, 1, len(hand.actions) // 2, len(hand.actions)):
                game_then = _hand_at(rec, number, index)
                pos = steps[at + index]["position"]
                assert pos["hands"] == [[str(c) for c in game_then.hand(s)] for s in range(players)]
                assert pos["trick"] == [str(c) for c in game_then.trick]
                assert pos["turn"] == game_then.turn and pos["seat_points"] == list(game_then.seat_points)
                assert pos["over"] == game_then.is_over()
            dealt = steps[at]["position"]
            assert all(len(h) == dealt["hand_sizes"][s] > 0 for s, h in enumerate(dealt["hands"]))
            at += 1 + len(hand.actions)
        last = steps[-1]
        assert last["position"]["over"] and last["position"]["result"] is not None
        assert last["hands_won"] == info["hands_won"] and last["match_points"] == info["match_points"]
        assert all("history" not in s["position"] and "legal" not in s["position"] for s in steps)
        if preset == "rematada":
            assert steps[1]["position"]["phase"] == "bid" and steps[1]["action"]["seat"] is not None
            # The declarer's discards, secret while the hand was played, are shown once it is over.
            discards = [s for s in steps if s["action"] and "discard" in s["action"]]
            assert discards
            for step in discards:
                after = next(s for s in steps[step["step"]:] if s["hand"] == step["hand"] and s["position"]["over"])
                assert sorted(after["position"]["discards"]) == sorted(step["action"]["discard"])
        else:  # a card played leaves its player's hand for the table
            seat, card = steps[1]["action"]["seat"], steps[1]["action"]["play"]
            assert card in steps[0]["position"]["hands"][seat]
            assert card not in steps[1]["position"]["hands"][seat] and steps[1]["position"]["trick"] == [card]
        assert client.get(f"/api/games/{table_id}/replay").json() == replay  # the cached one is the same

        # Only finished games are replayed or listed: never a game in progress, nor an unknown id.
        for path in (f"/api/games/{live}", f"/api/games/{live}/replay", "/api/games/nosuchgame/replay",
                     "/api/games/nosuchgame", "/api/games/x%2F..%2F/replay"):
            assert client.get(path).status_code == 404, path
        for page in (f"/games/{table_id}", "/games", "/leaderboard", f"/leaderboard/{preset}"):
            r = client.get(page)
            assert r.status_code == 200 and "/static/app.js" in r.text, page


def _hand_at(rec: brisca_record.MatchRecord, number: int, index: int) -> Game:
    """Hand ``number`` of a match record after its first ``index`` actions, rebuilt here."""
    played = rec.replay()[number]
    game = Game(rec.make_rules(), rec.players, dealer=played.dealer, deck=played.deck,
                deal_number=played.deal_number)
    for _seat, action in rec.hands[number].actions[:index]:
        game.apply(action)
    return game


def test_the_leaderboard_rates_teams_per_preset(tmp_path: Path) -> None:
    """Four accounts at a team table: partners share their side's rating; the board shows display names."""
    with deadline(60), serve(str(tmp_path / "db.sqlite3"), takeover_after=None) as client:
        assert client.get("/api/ratings").json() == []
        assert client.get("/api/ratings/spanish").json() == []
        team = create(client, preset="spanish", players=4, options={"target_hands": 1})
        conns = {}
        for seat, name in enumerate(("Ana", "Bea", "Carla", "Dani")):
            # Each from an address of her own: accounts of one address are not rated against each other.
            with address(client, f"10.0.0.{seat + 1}"):
                _signup(client, name)
                r = client.post(f"/api/tables/{team}/join", json={}, headers=_csrf(client))
                assert r.status_code == 200 and r.json()["seat"] == seat
                conns[seat] = Conn(client, team, token=r.json()["token"])
        info = _play_out(client, team, conns)
        duel = client.post("/api/tables", headers=_csrf(client), json={
            "preset": "briscola", "players": 2, "bots": {"1": "normal"}, "options": {"target_hands": 1},
            "bot_delay": 0}).json()["table_id"]
        r = client.post(f"/api/tables/{duel}/join", json={}, headers=_csrf(client))
        _play_out(client, duel, {0: Conn(client, duel, token=r.json()["token"])})

        presets = client.get("/api/ratings").json()
        assert [(p["preset"], p["rated"]) for p in presets] == [("spanish", 4), ("briscola", 2)]
        assert presets[0]["title"].startswith("Brisca")
        board = client.get("/api/ratings/spanish").json()
        assert [r["rank"] for r in board] == [1, 2, 3, 4]
        assert {r["name"] for r in board} == {"Ana", "Bea", "Carla", "Dani"}
        assert {r["account"] for r in board} == {"ana", "bea", "carla", "dani"}
        assert all(r["games"] == 1 for r in board)
        ordinals = [r["ordinal"] for r in board]
        assert ordinals == sorted(ordinals, reverse=True)
        assert all(abs(r["ordinal"] - (r["mu"] - 3 * r["sigma"])) < 1e-9 for r in board)
        by_name = {r["name"]: r for r in board}
        assert by_name["Ana"]["mu"] == by_name["Carla"]["mu"] and by_name["Bea"]["mu"] == by_name["Dani"]["mu"]
        winner = info["match_winner"]
        if winner is not None:
            won, lost = (("Ana", "Bea") if winner == 0 else ("Bea", "Ana"))
            assert by_name[won]["mu"] > 25 > by_name[lost]["mu"]
            assert {r["name"] for r in board[:2]} == {won, {"Ana": "Carla", "Bea": "Dani"}[won]}
        assert {r["name"] for r in client.get("/api/ratings/briscola").json()} == {"Dani", "bot:normal"}
        assert len(client.get("/api/ratings/spanish?limit=2").json()) == 2

        history = client.get("/api/games").json()
        assert [g["table_id"] for g in history] == [duel, team]
        if winner is not None:
            assert set(history[1]["winners"]) == ({"Ana", "Carla"} if winner == 0 else {"Bea", "Dani"})
        replay = client.get(f"/api/games/{team}/replay").json()
        assert replay["names"] == ["Ana", "Bea", "Carla", "Dani"] and replay["sides"] == 2
        assert len(replay["steps"][0]["position"]["hands"]) == 4
