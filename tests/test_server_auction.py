"""Games with an auction (chiamata, rematada) through the web table: whole matches, and no leaks.

Every seat is held by a connection driven by a bot that sees only its own seat's view, so each seat's
messages can be checked: never another seat's hand, the talon before the auction is over, or the
declarer's discards (other seats get a stub event for the Discard action).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from brisca import record as brisca_record
from brisca.actions import Discard
from brisca.agents import make_agent
from brisca.game import Match
from test_server_common import Conn, cards_in, create, deadline, join_all, match_of, serve


def _check(message: dict[str, Any], seat: int | None, match: Match) -> None:
    """Nothing in ``message`` that ``seat`` may not know yet, checked against the engine's whole state."""
    state = message.get("state")
    if state is None:
        assert set(message) <= {"type", "v", "kind", "seat", "name", "text", "table_id", "code", "message", "id"}
        return
    if state["view"] is None:
        return
    game = match.games[state["table"]["hand_number"]]
    view = state["view"]
    # Calling a card lists every card of the deck the caller does not hold (after a first trick, under a blind
    # call, every such card not played in it): that reveals nothing.
    calls = {a["call"] for a in view["legal"] if "call" in a}
    if calls:
        own = {str(c) for c in game.hand(seat)} if seat is not None else set()
        gone = {c for t in view["tricks"] for c in t["cards"]}
        assert calls >= {str(c) for c in game.rules.deck_cards(game.players)} - own - gone
        assert not calls & gone
    seen = cards_in({**message, "state": {**state, "view": {
        **view, "legal": [a for a in view["legal"] if "call" not in a]}}})
    engine = game.view(seat)
    public = {str(c) for _s, c in engine.known} | {str(c) for _s, c in engine.shown}
    if engine.contract is not None and engine.contract.called is not None:
        public.add(str(engine.contract.called))  # the called card is announced, not who holds it
    talon = {str(c) for c in game.talon}  # type: ignore[attr-defined]
    if game.phase == "bid":  # type: ignore[attr-defined]
        assert not (seen & talon), f"seat {seat} saw the talon {seen & talon} during the auction"
        assert view["talon"] == []
    else:
        assert set(view["talon"]) == talon
        public |= talon
    for other in range(game.players):
        if other != seat:
            hidden = {str(c) for c in game.hand(other)} - public
            assert not (seen & hidden), f"seat {seat} saw seat {other}'s {seen & hidden}"
    discards = {str(c) for c in game.discards}  # type: ignore[attr-defined]
    declarer = next((s for s, a in game.history if type(a) is Discard), None)
    if discards and seat != declarer:
        assert not (seen & (discards - talon)), f"seat {seat} saw the discards {seen & discards}"
        assert view["discards"] == []
    contract = view["contract"]
    if contract is not None and contract["called"] is not None and contract["partner"] is not None:
        played = {c for t in view["tricks"] for c in t["cards"]} | set(view["trick"])
        assert contract["called"] in played, "the partner was named before the called card was played"
    if seat is not None:
        assert view["hand"] == [str(c) for c in game.hand(seat)]


@pytest.mark.parametrize(("preset", "players", "options"), [
    ("chiamata", 5, {}),
    ("rematada", 3, {}),
    ("chiamata", 5, {"bidding": "low_card", "target_points": 4}),
    ("chiamata-buia", 5, {"target_points": 4}),
])
def test_a_match_with_an_auction_leaks_nothing(tmp_path: Path, preset: str, players: int,
                                               options: dict[str, Any]) -> None:
    with deadline(90), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = create(client, preset=preset, players=players, options=options)
        tokens = join_all(client, table_id, players)
        conns = [Conn(client, table_id, token=t) for t in tokens]
        spectator = Conn(client, table_id)
        audiences: list[tuple[Conn, int | None]] = [*((c, c.seat) for c in conns), (spectator, None)]
        agents = [make_agent(("easy", "normal")[s % 2], seed=s) for s in range(players)]
        kinds: set[str] = set()
        stubs = 0
        hands = 0
        blind = 0
        for _ in range(20_000):
            match = match_of(client, table_id)
            if match.is_over():
                break
            game = match.game
            turn = game.turn
            assert turn is not None
            kinds.add(game.phase)  # type: ignore[attr-defined]
            mover = conns[turn]
            shown = mover.state["view"] if mover.state is not None else None
            if shown is not None and shown["phase"] == "play" and shown["trump"] is None:
                blind += 1
            assert mover.state is not None
            action = agents[turn].act(game.view(turn))
            legal = [{k: v for k, v in a.items() if k != "text"} for a in mover.state["view"]["legal"]]
            assert action.to_json() in legal, (action, legal[:5])
            answer = mover.request({"type": "play", "action": action.to_json()})
            assert answer["type"] == "ack", answer
            for conn, seat in audiences:
                start = len(conn.messages)
                conn.sync()
                for m in conn.messages[start:]:
                    _check(m, seat, match)
                    if type(action) is Discard and m.get("type") == "event":
                        # The discard itself reaches the others as a numbered stub, and its player in full.
                        assert (m["kind"] == "stub") == (seat != turn), (seat, turn, m)
                        stubs += m["kind"] == "stub"
                    if m.get("kind") == "deal":
                        hands += seat is None
            assert len({c.v for c, _s in audiences}) == 1
        match = match_of(client, table_id)
        assert match.is_over() and hands >= 1
        assert kinds >= {"bid", "play"}
        if preset == "rematada":
            assert kinds >= {"discard", "trump"} and stubs > 0
        elif options.get("bidding") == "low_card":
            assert "trump" in kinds  # the lowest rank's bidder names the suit: that card is the called one
        else:
            assert "call" in kinds
        if preset == "chiamata-buia":  # the first trick of each hand is played before the call, with no trump
            assert blind
        spectator.sync()
        assert spectator.state is not None
        final = spectator.state
        # The preset's match: rematada's is game points (000), chiamata's target points.
        expected = {"rematada": "game_points"}.get(preset, "target_points")
        assert final["table"]["status"] == "finished" and final["table"]["match"] == expected
        assert final["view"]["result"]["scores"] is not None
        assert final["view"]["result"]["contract"] is not None or final["view"]["result"]["replay"]
        rec = brisca_record.loads(client.get(f"/api/games/{table_id}/record").text)
        assert isinstance(rec, brisca_record.MatchRecord)
        replayed = Match.of_games(rec.make_rules(), rec.players, rec.replay())
        assert replayed.winner == final["table"]["match_winner"] == match.winner


@pytest.mark.parametrize(("preset", "players"), [("chiamata", 5), ("rematada", 3), ("chiamata-buia", 5)])
def test_server_bots_play_a_match_with_an_auction(tmp_path: Path, preset: str, players: int) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        bots = {str(s): "easy" for s in range(players)}
        table_id = create(client, preset=preset, players=players, bots=bots, seed=17)
        spectator = Conn(client, table_id)
        seen = spectator.until(lambda m: m.get("kind") == "match_over" or (
            m.get("type") == "sync" and m["state"]["table"]["status"] == "finished"))
        for m in seen:  # the spectator never sees a discard, nor the talon during an auction
            if m.get("type") == "event" and m["kind"] == "action":
                assert "discard" not in m["action"]
                view = m["state"]["view"]
                if view["phase"] == "bid":
                    assert view["talon"] == []
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "finished" and info["match_winner"] is not None
        if info["match"] == "game_points":  # rematada (000): game points for a bid made or set
            assert preset == "rematada"
            assert max(info["game_points"]) >= info["target_game_points"]
        else:
            assert max(info["match_points"]) >= info["target_points"]
        rec = brisca_record.loads(client.get(f"/api/games/{table_id}/record").text)
        assert isinstance(rec, brisca_record.MatchRecord)
        replayed = Match.of_games(rec.make_rules(), rec.players, rec.replay())
        assert replayed.is_over() and replayed.winner == info["match_winner"]
