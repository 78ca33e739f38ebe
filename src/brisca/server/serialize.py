"""JSON forms of what a client may see: built only from :meth:`brisca.game.Game.view`."""

from __future__ import annotations

from typing import Any

from brisca.actions import Action, Discard
from brisca.commitment import SCHEME, check_deal
from brisca.game import Contract, Game, HandResult, Match, View
from brisca.record import MatchRecord, Record


def action_json(seat: int, action: Action) -> dict[str, Any]:
    return {"seat": seat, **action.to_json(), "text": str(action)}


def result_json(result: HandResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "seat_points": list(result.seat_points),
        "side_points": list(result.side_points),
        "winner": result.winner,
        "winners": list(result.winners),
        "bonuses": [{"side": b.side, "points": b.points, "why": b.why} for b in result.bonuses],
        "reason": result.reason,
        "replay": result.replay,
        "scores": None if result.scores is None else list(result.scores),
        "contract": contract_json(result.contract),
    }


def contract_json(contract: Contract | None) -> dict[str, Any] | None:
    return None if contract is None else contract.to_json()


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
        "trick_winner": view.trick_winner(),
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
        "out_of_turn": [{**a.to_json(), "text": str(a)} for a in view.out_of_turn],
        "announced": None if view.announced is None else {"seat": view.announced[0], "card": str(view.announced[1])},
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
        "deal_way": view.deal_way,
        "result": result_json(view.result),
    }


#: View fields a replay step leaves out: the whole history and every trick grow with each step.
_REPLAY_DROP = ("history", "legal", "tricks")


def position_json(game: Game) -> dict[str, Any]:
    """A position of a finished game: the spectators' view, the last trick, and every seat's hand.

    Only for replays of games that are over, where nothing is secret any more.
    """
    view = view_json(game.view(None))
    tricks = view["tricks"]
    for key in _REPLAY_DROP:
        del view[key]
    view["tricks_played"] = len(tricks)
    view["last_trick"] = tricks[-1] if tricks else None
    view["hands"] = [[str(c) for c in game.hand(seat)] for seat in range(game.players)]
    view["over"] = game.is_over()
    # Nothing is secret any more: the points as they are (a declarer's discards included), and the discards.
    view["seat_points"], view["side_points"] = list(game.seat_points), list(game.side_points)
    declarer = next((seat for seat, action in game.history if type(action) is Discard), None)
    if declarer is not None:
        view["discards"] = [str(c) for c in game.view(declarer).discards]
    return view


def replay_json(record: Record | MatchRecord) -> dict[str, Any]:
    """Every position of a recorded match, step by step: step 0 of each hand is its deal, then one step
    per action. Each step names the hand, the action just taken (``None`` at a deal), the match score
    so far and the :func:`position_json` after it. The record is checked by the engine first.
    """
    match = MatchRecord.of(record)
    rules = match.make_rules()
    games = match.replay()  # raises RecordError on a bad record
    players = match.players
    steps: list[dict[str, Any]] = []
    for number, (final, hand) in enumerate(zip(games, match.hands, strict=True)):
        game = Game(rules, players, dealer=final.dealer, deck=final.deck, deal_number=final.deal_number)
        done = games[:number]
        moves: list[tuple[int, Action] | None] = [None, *hand.actions]
        for index, move in enumerate(moves):
            if move is not None:
                game.apply(move[1], move[0])
            so_far = Match.of_games(rules, players, [*done, game])
            steps.append({
                "step": len(steps), "hand": number, "index": index,
                "action": None if move is None else action_json(*move),
                "hands_won": list(so_far.hands_won), "match_points": list(so_far.points),
                "game_points": list(so_far.game_points), "position": position_json(game),
            })
    last = Match.of_games(rules, players, games)
    return {
        "variant": match.variant, "rules": dict(match.rules), "players": players, "sides": rules.sides(players),
        "hands": len(games), "match": rules.match, "target_hands": rules.hands_to_win(players),
        "target_points": rules.target_points, "target_game_points": rules.target_game_points,
        "match_hands": rules.hands, "seating": None if match.draw is None else list(match.draw.seating),
        "game_points": list(last.game_points), "hands_won": list(last.hands_won),
        "winner": last.winner if match.resigned is None else match.resigned.winner,
        "resigned": None if match.resigned is None else list(match.resigned.seats),
        "match_points": list(last.points), "card_names": rules.card_names, "steps": steps,
        "seed": match.seed, "commitment_scheme": SCHEME, "deals": deals_json(match),
    }


def deals_json(match: MatchRecord) -> list[dict[str, Any]]:
    """Each hand's deck, salt and commitment as the record reveals them, and whether they agree
    (:func:`brisca.commitment.check_deal`); the page checks them again in the browser."""
    out = []
    for hand in match.hands:
        deck = [str(c) for c in hand.deck]
        ok = None if hand.salt is None or hand.commitment is None else (
            check_deal(deck, hand.salt, hand.commitment) is None)
        out.append({"deck": deck, "salt": hand.salt, "commitment": hand.commitment, "verified": ok})
    return out
