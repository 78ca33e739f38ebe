"""Whole matches through the web table: bots against bots, and a person against bots."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from brisca import record as brisca_record
from brisca.actions import Play
from brisca.game import Game, Match
from brisca.rules import make_rules
from brisca.server.table import bot_wait
from test_server_common import Conn, create, deadline, serve


@pytest.mark.parametrize(("preset", "players"), [("spanish", 2), ("spanish", 4), ("briscola", 3)])
def test_bots_play_a_match_and_the_record_replays(tmp_path: Path, preset: str, players: int) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        bots = {str(s): ("easy", "normal")[s % 2] for s in range(players)}
        table_id = create(client, preset=preset, players=players, bots=bots, seed=5)
        spectator = Conn(client, table_id)
        spectator.until(lambda m: m.get("kind") == "match_over" or (
            m.get("type") == "sync" and m["state"]["table"]["status"] == "finished"))
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "finished" and info["match_over"]
        games = client.get("/api/games").json()
        assert [g["table_id"] for g in games] == [table_id]
        download = client.get(f"/api/games/{table_id}/record")
        assert download.status_code == 200
        assert "attachment" in download.headers["content-disposition"]
        rec = brisca_record.loads(download.text)
        assert isinstance(rec, brisca_record.MatchRecord)
        replayed = Match.of_games(rec.make_rules(), rec.players, rec.replay())
        assert replayed.is_over() and replayed.winner == info["match_winner"] == games[0]["winner"]
        # A seeded table is a practice table: its decks are the seed's, its match never rated.
        assert rec.seed == 5 and rec.verify_deals() == []
        assert client.get(f"/api/ratings/{preset}").json() == []
        assert client.get("/api/games/nosuchgame/record").status_code == 404
        spectator.close()


def _play_as_person(conn: Conn, seat: int) -> dict[str, Any]:
    """Play the first legal action whenever it is our turn, until the match ends."""
    while True:
        state = conn.state
        if state is not None and state["table"]["status"] == "finished":
            return state
        view = None if state is None else state["view"]
        if state is not None and state["table"]["status"] == "playing" and view and view["turn"] == seat \
                and view["legal"]:
            legal = view["legal"][0]
            answer = conn.request({"type": "play", "action": {k: v for k, v in legal.items() if k != "text"}})
            assert answer["type"] == "ack", answer
            continue
        conn.recv()


@pytest.mark.parametrize("players", [2, 4])
def test_a_person_plays_against_bots_to_the_end(tmp_path: Path, players: int) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        bots = {str(s): "normal" for s in range(1, players)}
        r = client.post("/api/tables", json={"players": players, "bots": bots, "bot_delay": 0, "seed": 11,
                                             "name": "Ana"})
        body = r.json()
        assert body["seat"] == 0
        conn = Conn(client, body["table_id"], token=body["token"])
        assert conn.seat == 0
        end = _play_as_person(conn, 0)
        assert end["table"]["match_over"] and end["table"]["status"] == "finished"
        rec = json.loads(client.get(f"/api/games/{body['table_id']}/record").text)
        assert rec["format"] == "brisca-record/1"
        assert client.get("/api/games").json()[0]["names"][0] == "Ana"
        assert rec["seed"] == 11 and end["table"]["practice"]
        assert client.get("/api/ratings/spanish").json() == []  # a practice table (a guest's too) is never rated
        conn.close()


def test_the_front_end_is_served(tmp_path: Path) -> None:
    with serve(str(tmp_path / "db.sqlite3")) as client:
        page = client.get("/t/abcdef")
        assert page.status_code == 200 and "app.js" in page.text
        for name in ("app.js", "style.css"):
            assert client.get(f"/static/{name}").status_code == 200
        # The page's texts, from the catalogs, load before the scripts that use them.
        assert page.text.index("/messages.js") < page.text.index("/static/app.js")
        script = client.get("/messages.js")
        assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
        assert script.text.startswith("const STRINGS = ") and script.text.rstrip().endswith(";")
        strings = json.loads(script.text.removeprefix("const STRINGS = ").rstrip().removesuffix(";"))
        assert set(strings) == {"en", "es", "it"} and strings["es"]["yourHand"] == "Tu mano"
        assert any(p["name"] == "spanish" for p in client.get("/api/presets").json())
        assert client.post("/api/tables", json={"preset": "nosuch"}).status_code == 400
        assert client.post("/api/tables", json={"players": 5}).status_code == 400
        assert client.post("/api/tables", json={"bots": {"1": "godlike"}}).status_code == 400
        assert client.get("/api/tables/nosuchtable").status_code == 404


def test_rule_options_reach_the_match_and_the_record(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = create(client, players=2, options={"target_hands": 1, "deck": 48},
                          bots={"0": "easy", "1": "easy"}, seed=2)
        spectator = Conn(client, table_id)
        spectator.until(lambda m: m.get("kind") == "match_over" or (
            m.get("type") == "sync" and m["state"]["table"]["status"] == "finished"))
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["options"] == {"target_hands": 1, "deck": 48}
        rec = brisca_record.loads(client.get(f"/api/games/{table_id}/record").text)
        assert rec.rules == {"target_hands": 1, "deck": 48}
        assert len(rec.replay()[0].deck) == 48
        assert client.post("/api/tables", json={"options": {"target_hands": "many"}}).status_code == 400
        assert client.post("/api/tables", json={"options": {"nosuch": 1}}).status_code == 400


def test_the_next_hand_is_dealt_after_the_pause(tmp_path: Path) -> None:
    """Between hands the result stays on the table for ``hand_pause`` seconds, with the time left in the table's
    JSON; the last hand of the match has no pause."""
    pause = 0.6
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), hand_pause=pause) as client:
        table_id = create(client, players=2, options={"target_hands": 2}, bots={"0": "easy", "1": "easy"}, seed=4)
        spectator = Conn(client, table_id)
        waits = 0
        while True:
            end = spectator.until(lambda m: m.get("kind") in ("match_over", "action") and (
                m["kind"] == "match_over" or m["hand_over"]))[-1]
            if end["kind"] == "match_over":
                break
            ended = time.monotonic()
            table, view = end["state"]["table"], end["state"]["view"]
            assert view["result"] is not None and view["turn"] is None
            if table["match_over"]:
                assert table["next_hand_in"] is None
                continue
            assert 0 < table["next_hand_in"] <= pause and table["hand_pause"] == pause
            deal = spectator.until(lambda m: m.get("kind") in ("deal", "action"))[-1]
            assert deal["kind"] == "deal", "nothing may happen at the table during the pause"
            assert time.monotonic() - ended >= pause - 0.2
            assert deal["state"]["table"]["next_hand_in"] is None and deal["state"]["view"]["result"] is None
            waits += 1
        assert waits >= 1
        spectator.close()



def test_bots_wait_twice_as_long_after_a_trick() -> None:
    """People see a trick go to its winner: after the card that completes a trick, the next bot waits twice
    its delay; after any other action, its delay."""
    game = Game(make_rules("spanish"), 2, seed=6)
    waits = []
    while len(game.tricks) < 4:
        action = game.legal_actions()[-1]  # an exchange too, when one is offered
        game.apply(action)
        waits.append((bot_wait(game, 0.5), isinstance(action, Play) and not game.trick))
    assert {taken for _w, taken in waits} == {True, False}
    assert all(wait == (1.0 if taken else 0.5) for wait, taken in waits)


def test_an_exchange_out_of_turn_through_the_web_table(tmp_path: Path) -> None:
    """000's exchange "at any time, even while playing a trick" (``trump_exchange: out_of_turn``): while another
    seat is to act, a seat's view offers its exchange (``out_of_turn``) and the table takes it from that seat's
    own connection; a seat not to act may send nothing else, and the record keeps who exchanged, where."""
    from test_server_common import join_all, match_of

    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        for _table in range(40):
            table_id = create(client, players=2, options={"trump_exchange": "out_of_turn"})
            tokens = join_all(client, table_id, 2)
            conns = [Conn(client, table_id, token=t) for t in tokens]
            made = None
            while made is None:
                for conn in conns:
                    conn.sync()
                state = conns[0].state
                assert state is not None
                if state["table"]["status"] != "playing":
                    break
                turn = state["view"]["turn"]
                early = [(s, c.state["view"]["out_of_turn"]) for s, c in enumerate(conns) if s != turn
                         and c.state is not None and c.state["view"]["out_of_turn"]]
                if early:
                    seat, offered = early[0]
                    action = {k: v for k, v in offered[0].items() if k != "text"}
                    assert list(action) == ["exchange"]
                    to_act = conns[turn]
                    mine = conns[seat].state["view"]["hand"]  # type: ignore[index]
                    wrong = conns[seat].request({"type": "play", "action": {"play": mine[0]}})
                    assert wrong["code"] == "not_your_turn", wrong  # out of turn: the exchange only
                    refused = to_act.request({"type": "play", "action": action})
                    assert refused["type"] == "error" and refused["code"] in ("illegal", "malformed")
                    answer = conns[seat].request({"type": "play", "action": action})
                    assert answer["type"] == "ack", answer
                    game = match_of(client, table_id).game
                    assert game.turn == turn and game.history[-1][0] == seat
                    made = (seat, len(match_of(client, table_id).games) - 1, len(game.history) - 1)
                    break
                view = conns[turn].state["view"]  # type: ignore[index]
                first = {k: v for k, v in view["legal"][0].items() if k != "text"}
                assert conns[turn].request({"type": "play", "action": first})["type"] == "ack"
            for conn in conns:
                conn.close()
            if made is None:
                continue
            seat, hand, index = made
            match = match_of(client, table_id)
            record = brisca_record.MatchRecord.from_match(match)
            back = brisca_record.loads(record.dumps())
            assert isinstance(back, brisca_record.MatchRecord)
            assert back.hands[hand].actions[index][0] == seat
            assert [g.history for g in back.replay()] == [g.history for g in match.games]
            return
    pytest.fail("no deal let a seat exchange out of turn")
