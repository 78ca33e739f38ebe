"""No client ever learns another seat's hand or the stock order: every message to every seat and spectator."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from test_server_common import Conn, check_no_leak, create, deadline, join_all, match_of, serve


@pytest.mark.parametrize(("preset", "players", "max_actions"), [("spanish", 2, 400), ("spanish", 4, 90),
                                                                  ("bixkla", 4, 90)])
def test_no_message_leaks_hidden_cards(tmp_path: Path, preset: str, players: int, max_actions: int) -> None:
    rng = random.Random(players)
    with deadline(40), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = create(client, preset=preset, players=players)
        tokens = join_all(client, table_id, players)
        conns: list[Conn] = [Conn(client, table_id, token=t) for t in tokens]
        spectator = Conn(client, table_id)
        audiences: list[tuple[Conn, int | None]] = [*((c, c.seat) for c in conns), (spectator, None)]
        stubs = 0
        for conn, seat in audiences:
            for m in conn.messages:
                check_no_leak(m, seat, match_of(client, table_id))
        for _ in range(max_actions):
            match = match_of(client, table_id)
            if match.is_over():
                break
            turn = match.game.turn
            assert turn is not None
            mover = conns[turn]
            assert mover.state is not None
            legal = mover.state["view"]["legal"]
            assert [a["text"] for a in legal] == [str(a) for a in match.game.legal_actions()]
            choice = rng.choice(legal)
            answer = mover.request({"type": "play", "action": choice["text"]})
            assert answer["type"] == "ack", answer
            for conn, seat in audiences:
                start = len(conn.messages)
                conn.sync()
                for m in conn.messages[start:]:
                    check_no_leak(m, seat, match)
                    stubs += m.get("kind") == "stub"
            # Every seat sees the same numbered events (stubs included): versions agree.
            assert len({c.v for c, _s in audiences}) == 1
        if preset == "bixkla":
            assert stubs > 0  # partner signals reach the other side as stubs only
        if players == 2:
            assert match_of(client, table_id).is_over()
