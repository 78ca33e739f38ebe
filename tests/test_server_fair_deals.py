"""Deals nobody can predict or rig: CSPRNG shuffles, a commitment published at each deal, checkable records."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from brisca import record as brisca_record
from brisca.cards import Card
from brisca.cli import main
from brisca.commitment import commit, practice_deck
from brisca.game import Game
from brisca.rules import make_rules
from test_server_common import Conn, create, deadline, join_all, serve


def _play_out(conns: list[Conn]) -> list[str]:
    """Every seat plays a random legal action in turn until the match ends; the commitments seen, in order."""
    rng = random.Random(7)
    by_seat = {c.seat: c for c in conns}
    watcher = conns[0]
    assert watcher.state is not None  # connected after the first deal: its commitment is in the table
    first: list[str] = list(watcher.state["table"]["commitments"])
    while True:
        state = watcher.state
        assert state is not None
        if state["table"]["status"] == "finished":
            return first + [m["commitment"] for m in watcher.messages if m.get("kind") == "deal"]
        turn = state["view"]["turn"] if state["view"] else None
        if turn is None:
            watcher.recv()
            continue
        conn = by_seat[turn]
        conn.sync()
        legal = conn.state["view"]["legal"]  # type: ignore[index]
        action = {k: v for k, v in rng.choice(legal).items() if k != "text"}
        assert conn.request({"type": "play", "action": action})["type"] == "ack"
        watcher.sync()


def test_a_seed_is_refused_at_a_table_for_two_people(tmp_path: Path) -> None:
    with deadline(20), serve(str(tmp_path / "db.sqlite3")) as client:
        r = client.post("/api/tables", json={"players": 2, "seed": 1234, "name": "Ana"})
        assert r.status_code == 400 and "practice" in r.json()["detail"]
        r = client.post("/api/tables", json={"players": 4, "seed": 1, "bots": {"1": "easy", "2": "easy"}})
        assert r.status_code == 400
        # The one free seat of a seeded table is the creator's, taken at once: nobody else can sit there.
        r = client.post("/api/tables", json={"players": 2, "seed": 1, "bots": {"1": "easy"}})
        assert r.status_code == 400
        # One person and bots: a practice table, marked as one.
        made = client.post("/api/tables", json={"players": 2, "seed": 1234, "bots": {"1": "easy"}, "name": "Ana"})
        assert made.status_code == 200
        info = client.get(f"/api/tables/{made.json()['table_id']}").json()
        assert info["practice"] and info["seed"] == 1234
        playing = client.get("/api/lobby").json()["playing"]
        assert [e["practice"] for e in playing if e["table_id"] == info["id"]] == [True]


def test_the_second_persons_hand_is_not_what_any_seed_gives(tmp_path: Path) -> None:
    """The old deal, ``Random(f"{seed}:{hand}")``, let a table's creator compute every hand: no longer."""
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        rules = make_rules("spanish", {})
        cards = rules.deck_cards(2)
        hands: list[list[str]] = []
        for _ in range(3):
            table_id = create(client, players=2)
            tokens = join_all(client, table_id, 2)
            bea = Conn(client, table_id, token=tokens[1])
            assert bea.state is not None and bea.state["table"]["status"] == "playing"
            hand = bea.state["view"]["hand"]
            assert not bea.state["table"]["practice"] and bea.state["table"]["seed"] is None
            # Not the hand the table's stored seed (it seeds the bots) would deal, nor a chosen one.
            stored = client.app.state.manager.actors[table_id].seed  # type: ignore[attr-defined]
            for seed in (stored, 0, 1234):
                predicted = Game(rules, 2, deck=practice_deck(cards, seed, 0))
                assert [str(c) for c in predicted.hand(1)] != hand
            hands.append(hand)
            bea.close()
        assert len({tuple(h) for h in hands}) == 3


def test_a_finished_record_verifies_against_the_commitments_seen_at_the_table(tmp_path: Path) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = create(client, players=2, options={"target_hands": 2})
        tokens = join_all(client, table_id, 2)
        conns = [Conn(client, table_id, token=t) for t in tokens]
        published = _play_out(conns)
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["commitments"] == published and len(published) >= 2
        text = client.get(f"/api/games/{table_id}/record").text
        for conn in conns:
            conn.close()

    record = brisca_record.loads(text)
    assert isinstance(record, brisca_record.MatchRecord) and record.seed is None
    assert [h.commitment for h in record.hands] == published
    assert all(h.salt is not None and commit(h.deck, h.salt) == h.commitment for h in record.hands)
    assert record.verify_deals() == []
    good = tmp_path / "good.json"
    good.write_text(text)
    assert main(["verify", str(good), "--published", ",".join(published)]) == 0

    # One card moved: the deck no longer matches the commitment published at its deal.
    data = json.loads(text)
    deck = data["hands"][1]["deck"]
    deck[0], deck[5] = deck[5], deck[0]
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps(data))
    assert main(["verify", str(moved)]) == 1


def test_brisca_verify_says_what_is_wrong(tmp_path: Path, capsys: Any) -> None:
    game = Game("spanish", 2, seed=3)
    salt = "ab" * 16
    hand = brisca_record.Record.from_game(game)
    hand.salt, hand.commitment = salt, commit(game.deck, salt)
    path = tmp_path / "hand.json"
    path.write_text(hand.dumps())
    assert main(["verify", str(path)]) == 0
    assert "every deck matches" in capsys.readouterr().out

    assert main(["verify", str(path), "--published", "00" * 32]) == 1
    assert "not the one published at the table" in capsys.readouterr().err

    data = json.loads(hand.dumps())
    data["deck"] = [*data["deck"][1:], data["deck"][0]]  # the top card moved to the bottom
    path.write_text(json.dumps(data))
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert "does not match its commitment" in err and "Traceback" not in err and err.count("\n") == 1

    del data["salt"], data["commitment"]
    path.write_text(json.dumps(data))
    assert main(["verify", str(path)]) == 1
    assert "no commitment" in capsys.readouterr().err

    path.write_text("{not json")
    assert main(["verify", str(path)]) == 2
    assert main(["verify", str(path), "--published", "xyz"]) == 2


def test_record_fields_are_checked_when_read() -> None:
    game = Game("spanish", 2, seed=3)
    base = json.loads(brisca_record.Record.from_game(game).dumps())
    for bad in ({"salt": "ab" * 16}, {"salt": "zz" * 16, "commitment": "0" * 64},
                {"salt": "ab" * 16, "commitment": "0" * 63}):
        try:
            brisca_record.from_json(base | bad)
        except brisca_record.RecordError:
            continue
        raise AssertionError(f"{bad} was accepted")
    cards = make_rules("spanish", {}).deck_cards(2)
    assert practice_deck(cards, 5, 0) == practice_deck(cards, 5, 0) != practice_deck(cards, 5, 1)
    assert sorted(practice_deck(cards, 5, 0)) == sorted(cards) and isinstance(cards[0], Card)



def test_the_first_deal_event_carries_its_commitment(tmp_path: Path) -> None:
    """The deal a full table starts with is an event like every later deal, its commitment in it, for every seat
    and spectator connected; whoever connects later finds it in the table's ``commitments``."""
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = create(client, players=2)
        first = client.post(f"/api/tables/{table_id}/join", json={"name": "Ana"}).json()
        ana, watcher = Conn(client, table_id, token=first["token"]), Conn(client, table_id)
        assert ana.state is not None and ana.state["view"] is None and not ana.state["table"]["commitments"]
        client.post(f"/api/tables/{table_id}/join", json={"name": "Bea"})
        published = client.get(f"/api/tables/{table_id}").json()["commitments"]
        for conn in (ana, watcher):
            deal = conn.until(lambda m: m.get("kind") == "deal")[-1]
            assert deal["hand_number"] == 0 and deal["commitment"] == published[0]
        assert ana.state is not None and ana.state["view"]["hand"]
        ana.close()
        watcher.close()
