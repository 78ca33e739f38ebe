"""JSON forms of what a client may see: built only from :meth:`brisca.game.Game.view`."""

from __future__ import annotations

from typing import Any

from brisca.actions import Action
from brisca.game import Contract, HandResult, View


def action_json(seat: int, action: Action) -> dict[str, Any]:
    return {"seat": seat, **action.to_json(), "text": str(action)}


def result_json(result: HandResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "seat_points": list(result.seat_points),
        "side_points": list(result.side_points),
        "winner": result.winner,
        "bonuses": [{"side": b.side, "points": b.points, "why": b.why} for b in result.bonuses],
        "reason": result.reason,
        "replay": result.replay,
        "scores": None if result.scores is None else list(result.scores),
        "contract": contract_json(result.contract),
    }


def contract_json(contract: Contract | None) -> dict[str, Any] | None:
    if contract is None:
        return None
    return {
        "declarer": contract.declarer,
        "bid": contract.bid.to_json()["bid"],
        "points": contract.points,
        "trump": contract.trump.letter,
        "called": None if contract.called is None else str(contract.called),
        "partner": contract.partner,
    }


def view_json(view: View) -> dict[str, Any]:
    """Everything in a seat's (or a spectator's) view, as JSON. Nothing else ever reaches a client."""
    return {
        "seat": view.seat,
        "players": view.players,
        "dealer": view.dealer,
        "deal_number": view.deal_number,
        "trump": None if view.trump is None else view.trump.letter,
        "turned": None if view.turned is None else str(view.turned),
        "face_up": None if view.face_up is None else str(view.face_up),
        "stock_count": view.stock_count,
        "hand": [str(c) for c in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "leader": view.leader,
        "turn": view.turn,
        "trick": [str(c) for c in view.trick],
        "trick_seats": list(view.trick_seats()),
        "tricks": [
            {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner, "points": t.points}
            for t in view.tricks
        ],
        "seat_points": list(view.seat_points),
        "side_points": list(view.side_points),
        "history": [action_json(s, a) for s, a in view.history],
        "exchanges": [{"seat": e.seat, "gave": str(e.given), "took": str(e.taken)} for e in view.exchanges],
        "known": [{"seat": s, "card": str(c)} for s, c in view.known],
        "legal": [{**a.to_json(), "text": str(a)} for a in view.legal_actions],
        "signals": [{"seat": s, "signal": n} for s, n in view.signals],
        "arrastro": view.arrastro,
        "seen_dealt": [{"seat": s, "card": str(c)} for s, c in view.seen_dealt],
        "phase": view.phase,
        "bids": [action_json(s, a) for s, a in view.bids],
        "contract": contract_json(view.contract),
        "talon": [str(c) for c in view.talon],
        "discards": [str(c) for c in view.discards],
        "declarations": [{"seat": s, "suit": suit.letter} for s, suit in view.declarations],
        "shown": [{"seat": s, "card": str(c)} for s, c in view.shown],
        "result": result_json(view.result),
    }
