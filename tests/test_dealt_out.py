"""The dealt-out games (``chilean``, ``rematada``, ``chiamata``) over thousands of random legal games.

Checked straight from the documented readings of :mod:`brisca.variants`, without the referee:

* the duties of play (the Chilean follow, beat and trump; the guarded lead of a 2; the cutter's trump lead in
  a pelada; a declared pair's card played at once) hold for every card played;
* every bid the rules allow is accepted, and every other action in an auction (too low, off the step, above the
  maximum, a rank not lower, a pass the last seat may not make, a bid of the wrong kind, a play, a discard of the
  wrong size or of cards not held, a call or a declaration out of place) is refused with
  :class:`IllegalActionError` and a message that says why, leaving the game exactly as it was; malformed actions
  raise :class:`InvalidActionError`;
* the points add up: 120 card points with the discards, 10 for the last trick and the declarations; Chiamata's
  match points sum to 0, Rematada's to the bid;
* what views show: the hidden partner only once the called card is played, the talon only after the auction,
  the discards only to the declarer, and no other seat's cards but those shown face up.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from brisca import Card, Game, Suit
from brisca.actions import (
    PASS,
    PLAYS,
    Action,
    Bid,
    Call,
    Declare,
    Discard,
    Pass,
    Play,
    RankBid,
    TrumpChoice,
)
from brisca.errors import IllegalActionError, InvalidActionError
from brisca.record import Record

#: (variant, overrides, players) of the random games.
CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("chilean", {}, 4),
    ("chilean", {"deal": "golpe"}, 4),
    ("chilean", {"deal": "pelada"}, 4),
    ("chilean", {"follow": "suit_beat_trump"}, 4),
    ("rematada", {}, 3),
    ("chiamata", {}, 5),
    ("chiamata", {"bidding": "low_card"}, 5),
    ("chiamata-buia", {}, 5),
]
IDS = ["chilean", "golpe", "pelada", "chilean-beat-partner", "rematada", "chiamata", "low-card", "buia"]
KING, KNIGHT = 12, 11


def pick(game: Game, rng: random.Random) -> Action:
    """A random legal action: passing half the time in an auction and bidding low, declaring when it may."""
    legal = game.legal_actions()
    bids = [a for a in legal if type(a) in (Bid, RankBid)]
    if bids or PASS in legal:
        if not bids or (PASS in legal and rng.random() < 0.45):
            return PASS
        return bids[min(len(bids) - 1, int(rng.expovariate(0.5)))] if rng.random() < 0.8 else rng.choice(bids)
    declares = [a for a in legal if type(a) is Declare]
    if declares and rng.random() < 0.6:
        return rng.choice(declares)
    calls = [a for a in legal if type(a) is Call]
    if calls and rng.random() < 0.2:  # now and then the bidder calls his own card and plays alone
        return Call(rng.choice(game.hand(game.turn)))  # type: ignore[arg-type]
    return rng.choice(legal)


def games(config: tuple[str, dict[str, Any], int], count: int, seed: int = 0) -> Iterator[tuple[Game, list[Game]]]:
    """``count`` random finished games of ``config``, each with a clone of every position before an action."""
    variant, overrides, players = config
    for i in range(count):
        rng = random.Random(seed * 100_003 + i)
        game = Game(variant, players, dealer=rng.randrange(players), seed=rng.randrange(2**32), options=overrides)
        positions = []
        while not game.is_over():
            positions.append(game.clone())
            game.apply(pick(game, rng))
        yield game, positions


def suit_of_pair(action: Action) -> Suit:
    assert isinstance(action, Declare)
    return action.suit


# ------------------------------------------------------------------ the duties


def check_play(before: Game, seat: int, card: Card) -> None:
    """The card ``seat`` played from position ``before`` honours every duty of the readings."""
    rules, hand, trick, trump = before.rules, before.hand(seat), before.trick, before.trump
    strength = rules.strength_table
    assert card in hand
    if trick and rules.follow in ("suit_beat_trump", "descanso"):
        led = trick[0].suit
        same = [c for c in hand if c.suit is led]
        trumps = [c for c in hand if c.suit is trump]
        best = [c for c in trick if c.suit is trump] or [c for c in trick if c.suit is led]
        top = max(best, key=lambda c: strength[c.index])
        assert before.turn == seat
        holder = (seat - len(trick) + trick.index(top)) % before.players
        # 003's descanso: the partner's card is not beaten, nor trumped when it is not a trump.
        mate = rules.follow == "descanso" and before.side_of(holder) == before.side_of(seat)
        if same:
            assert card.suit is led, f"seat {seat} did not follow {led} with {card}"
            if top.suit is led and not mate and any(strength[c.index] > strength[top.index] for c in same):
                assert strength[card.index] > strength[top.index], f"{card} does not beat {top}"
        elif trumps and not (mate and top.suit is not trump):
            assert card.suit is trump, f"seat {seat} did not trump with {card}"
    if not trick and before.deal_way == "pelada" and not before.tricks:
        assert seat == (before.dealer + 1) % before.players
        if any(c.suit is trump for c in hand):
            assert card.suit is trump, "the cutter must lead a trump to the first trick of a pelada"
    if not trick and rules.lead_two == "guarded" and card.rank == 2:
        played = [c for t in before.tricks for c in t.cards]
        ace = Card(1, card.suit)
        partner_failed = any(
            t.cards[0].suit is card.suit and c.suit is not card.suit
            for t in before.tricks for i, c in enumerate(t.cards)
            if t.seat_of(i, before.players) != seat and before.side_of(t.seat_of(i, before.players))
            == before.side_of(seat)
        )
        only_trump = (before.deal_way == "pelada" and not before.tricks and card.suit is trump
                      and [c for c in hand if c.suit is trump] == [card])
        nothing_else = all(c.rank == 2 for c in hand) or (
            before.deal_way == "pelada" and not before.tricks and all(c.rank == 2 for c in hand if c.suit is trump)
            and any(c.suit is trump for c in hand))
        assert ace in hand or ace in played or partner_failed or only_trump or nothing_else, (
            f"seat {seat} led {card} unguarded")


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_duties_are_honoured(config: tuple[str, dict[str, Any], int]) -> None:
    """Every card played in 500 random games honours the duties; a declared pair's card follows its declaration."""
    twos_led = 0
    for game, positions in games(config, 500, seed=1):
        for before, (seat, action) in zip(positions, game.history, strict=True):
            if type(action) is Play:
                check_play(before, seat, action.card)
                if before.trick == () and action.card.rank == 2:
                    twos_led += 1
                last = before.history[-1] if before.history else None
                if last is not None and type(last[1]) is Declare and last[0] == seat:
                    pair = suit_of_pair(last[1])
                    in_trick = any(c.suit is pair and c.rank in (KING, KNIGHT) for c in before.trick)
                    if not in_trick:
                        assert action.card in (Card(KING, pair), Card(KNIGHT, pair)), "declared, then not played"
            elif type(action) is Declare:
                check_declaration(before, seat, action.suit)
    if config[0] == "chilean":
        assert twos_led > 0


def check_declaration(before: Game, seat: int, suit: Suit) -> None:
    rules, hand = before.rules, before.hand(seat)
    king, knight = Card(KING, suit), Card(KNIGHT, suit)
    assert suit not in {s for _p, s in before.view(None).declarations}, "a pair declared twice"
    if rules.declarations == "on_lead":
        assert not before.trick and king in hand and knight in hand
        assert any(t.winner == seat for t in before.tricks), "declared before winning a trick"
    else:
        ours = {c for i, c in enumerate(before.trick)
                if before.side_of((before.leader + i) % before.players) == before.side_of(seat)}
        assert (king in hand and knight in hand) or (king in ours and knight in hand) or (
            knight in ours and king in hand), "a vale declared by a seat whose side does not show the pair"


# ------------------------------------------------------------------ the auction


def state(game: Game) -> tuple[Any, ...]:
    """Everything a refused action must leave as it was."""
    return (Record.from_game(game).to_json(), game.history, tuple(game.view(s) for s in (None, *range(game.players))))


def refused(game: Game, action: Action | str, pattern: str, error: type[Exception] = IllegalActionError) -> None:
    before = state(game)
    with pytest.raises(error) as info:
        game.apply(action)
    assert re.search(pattern, str(info.value), re.IGNORECASE), f"{action}: {info.value}"
    assert state(game) == before, f"refusing {action} changed the game"


def auction_positions(variant: str, overrides: dict[str, Any], players: int, count: int) -> Iterator[Game]:
    """Every position of ``count`` random hands, from the deal to the first card played."""
    for i in range(count):
        rng = random.Random(7000 + i)
        game = Game(variant, players, dealer=rng.randrange(players), seed=rng.randrange(2**32), options=overrides)
        while not game.is_over():
            yield game
            if game.phase == "play" and game.history and type(game.history[-1][1]) is Play:  # type: ignore
                break
            game.apply(pick(game, rng))


@pytest.mark.parametrize(("variant", "overrides", "players"), [
    ("rematada", {}, 3), ("chiamata", {}, 5), ("rematada", {"all_pass": "redeal", "bid_step": 5}, 3),
])
def test_every_point_bid_accepted_every_other_refused(variant: str, overrides: dict[str, Any], players: int) -> None:
    seen = set()
    for game in auction_positions(variant, overrides, players, 120):
        rules = game.rules
        if game.phase != "bid":
            continue
        seat = game.turn
        auction = game.view(None).bids
        bids = [b for _s, b in auction if type(b) is Bid]
        low = rules.min_bid if not bids else bids[-1].points + rules.bid_step
        # Every bid from the lowest allowed to the maximum, in steps, is legal and accepted.
        allowed = set(range(low, rules.max_bid + 1, rules.bid_step))
        assert {a.points for a in game.legal_actions() if type(a) is Bid} == allowed
        for value in sorted(allowed)[:3] + sorted(allowed)[-2:]:
            twin = game.clone()
            twin.apply(Bid(value))
            assert twin.view(None).bids[-1] == (seat, Bid(value))
        must_bid = (rules.all_pass == "last_must_bid" and not bids
                    and sum(1 for _s, b in auction if type(b) is Pass) == players - 1)
        assert (PASS in game.legal_actions()) is not must_bid
        if must_bid:
            seen.add("must")
            refused(game, PASS, r"last one left and must bid")
        if bids:
            seen.add("low")
            refused(game, Bid(bids[-1].points), r"a bid must be from \d+ to \d+")
        refused(game, Bid(rules.min_bid - 1), r"a bid must be from")
        if rules.bid_step > 1 and low + 1 <= rules.max_bid:
            seen.add("step")
            refused(game, Bid(low + 1), r"in steps of")
        refused(game, Bid(rules.max_bid + rules.bid_step), rf"a bid must be from .* to {rules.max_bid}")
        refused(game, RankBid(3), r"a number of points")
        refused(game, PLAYS[game.hand(seat)[0].index], r"auction")  # type: ignore[arg-type]
        refused(game, Call(Card(1, Suit.OROS)), r"auction")
        refused(game, TrumpChoice(Suit.OROS), r"auction")
        refused(game, Declare(Suit.OROS), r"auction")
        refused(game, Discard(*game.hand(seat)[:2]), r"auction")  # type: ignore[arg-type]
    assert "low" in seen
    assert ("must" in seen) == (variant == "rematada" and not overrides)
    assert ("step" in seen) == (variant == "rematada")


def test_every_rank_bid_accepted_every_other_refused() -> None:
    for game in auction_positions("chiamata", {"bidding": "low_card"}, 5, 150):
        if game.phase != "bid":
            continue
        order = game.rules.strength_order()
        named = [b.rank for _s, b in game.view(None).bids if type(b) is RankBid]
        lower = order[order.index(named[-1]) + 1:] if named else order
        assert {a.rank for a in game.legal_actions() if type(a) is RankBid} == set(lower)
        assert PASS in game.legal_actions()
        for rank in lower:
            twin = game.clone()
            twin.apply(RankBid(rank))
        for rank in order[:len(order) - len(lower)]:
            refused(game, RankBid(rank), r"rank .* is not lower")
        refused(game, Bid(70), r"names a rank")
        refused(game, PLAYS[game.hand(game.turn)[0].index], r"auction")  # type: ignore[arg-type]


def test_after_the_auction() -> None:
    """Discards, trump naming and calls: what each phase accepts and refuses."""
    phases = set()
    for variant, overrides, players in (("rematada", {}, 3), ("chiamata", {}, 5),
                                        ("chiamata", {"bidding": "low_card"}, 5)):
        for game in auction_positions(variant, overrides, players, 60):
            phase, seat = game.phase, game.turn
            assert seat is not None
            hand = game.hand(seat)
            if phase == "discard":
                phases.add(phase)
                assert len(hand) == 12 and set(game.talon) <= set(hand)  # type: ignore[attr-defined]
                assert len(game.legal_actions()) == 66  # any 2 of the 12
                refused(game, Discard(hand[0]), r"exactly 2 cards")
                refused(game, Discard(*hand[:3]), r"exactly 2 cards")
                gone = [c for c in game.rules.deck_cards(players) if c not in hand]
                refused(game, Discard(hand[0], gone[0]), r"exactly 2 cards it holds")
                refused(game, TrumpChoice(Suit.OROS), r"discards 2 cards now")
                refused(game, PLAYS[hand[0].index], r"discards 2 cards now")
            elif phase == "trump":
                phases.add(phase)
                assert set(game.legal_actions()) == {TrumpChoice(s) for s in Suit}
                refused(game, Call(hand[0]), r"names the trump suit")
                refused(game, PASS, r"names the trump suit")
                refused(game, Bid(200), r"names the trump suit")
            elif phase == "call":
                phases.add(phase)
                assert set(game.legal_actions()) == {Call(c) for c in game.rules.deck_cards(players)}
                refused(game, TrumpChoice(Suit.OROS), r"calls a card")
                refused(game, PLAYS[hand[0].index], r"calls a card")
                refused(game, Call(Card(8, Suit.OROS)), r"not in this deck")
            elif phase == "play":
                phases.add(phase)
                refused(game, Call(hand[0]), r"auction is over")
                refused(game, PASS, r"auction is over")
                refused(game, Bid(120), r"auction is over")
                refused(game, Discard(*hand[:2]), r"auction is over")
    assert phases == {"discard", "trump", "call", "play"}


def test_declarations_refused_out_of_place() -> None:
    found = 0
    for _game, positions in games(("chilean", {}, 4), 60, seed=3):
        for before in positions:
            if before.is_over() or before.phase != "play":  # type: ignore[attr-defined]
                continue
            legal = set(before.legal_actions())
            for suit in Suit:
                if Declare(suit) not in legal:
                    found += 1
                    refused(before, Declare(suit), r"declared|a pair is declared")
                    break
    assert found > 100


def test_malformed_actions_are_invalid() -> None:
    game = Game("rematada", 3, seed=5)
    for data in ({"bid": "x"}, {"bid": True}, {"pass": False}, {"discard": "5O"}, {"trump": "Z"},
                 {"declare": 3}, {"call": "13O"}, {"bid": 0}, {"discard": ["5O", "5O"]}):
        with pytest.raises(InvalidActionError):
            Action.from_json(data)
    refused(game, "bid banana", r"bid", InvalidActionError)
    refused(game, object(), r"not an action", InvalidActionError)  # type: ignore[arg-type]


# ------------------------------------------------------------------ the points


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_scores_add_up(config: tuple[str, dict[str, Any], int]) -> None:
    reasons: set[str] = set()
    for game, _positions in games(config, 400, seed=2):
        result = game.result()
        assert result is not None
        reasons.add(result.reason)
        rules = game.rules
        discards = getattr(game, "discards", ())
        if result.reason == "all-passed":
            assert result.scores == (0,) * game.players and not game.tricks and sum(game.seat_points) == 0
            continue
        assert sum(game.seat_points) == 120
        assert sum(game.seat_points) == sum(t.points for t in game.tricks) + sum(rules.card_points(c)
                                                                                for c in discards)
        declared = [b for b in result.bonuses if "declared" in b.why]
        last = [b for b in result.bonuses if b.why == "last trick"]
        assert sum(b.points for b in result.bonuses) == sum(b.points for b in declared) + sum(b.points for b in last)
        assert len(last) == (1 if rules.last_trick_bonus else 0)
        if last:
            assert last[0].points == 10 and last[0].side == game.side_of(game.tricks[-1].winner)
        for b in declared:
            assert b.points in (20, 40) and (b.points == 40) == (b.why.endswith(game.trump.name_in("en") + " declared"))
        assert sum(result.side_points) == 120 + sum(b.points for b in result.bonuses)
        contract = result.contract
        if rules.contract == "off":
            assert contract is None and result.scores is None
            continue
        assert contract is not None and result.scores is not None
        side = {contract.declarer, contract.partner} - {None}
        total = sum(result.side_points[s] for s in side)
        made = total >= contract.points
        assert result.reason == ("made" if made else "set")
        if rules.contract == "solo":
            want = [contract.points if s == contract.declarer else 0 for s in range(3)] if made else [
                0 if s == contract.declarer else contract.points // 2 for s in range(3)]
            assert list(result.scores) == want
            assert sum(result.scores) == contract.points
        else:
            assert sum(result.scores) == 0
            sign = 1 if made else -1
            assert result.scores[contract.declarer] == sign * (4 if contract.alone else 2)
            for s in range(5):
                if s not in side:
                    assert result.scores[s] == -sign
            if not contract.alone:
                assert result.scores[contract.partner] == sign  # type: ignore[index]
    if config[0].startswith("chiamata"):
        assert {"made", "set"} <= reasons
    if config[0] == "rematada":
        assert "set" in reasons


# ------------------------------------------------------------------ the views


def public_cards(game: Game, viewer: int | None) -> set[tuple[int, Card]]:
    """Cards of other hands a viewer may know: those shown at the deal and the dealer's trump card, still held."""
    out = {(s, c) for s, c in game.view(None).shown}
    rules = game.rules
    if rules.trump_from == "dealer" and game.turned is not None:
        out.add((game.dealer, game.turned))
    return {(s, c) for s, c in out if s != viewer and c in game.hand(s)}


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_views_hold_only_what_is_public(config: tuple[str, dict[str, Any], int]) -> None:
    partner_hidden = partner_shown = talon_hidden = 0
    for game, positions in games(config, 150, seed=4):
        for g in [*positions, game]:
            talon = set(g.talon)  # type: ignore[attr-defined]
            contract = g.contract  # type: ignore[attr-defined]
            discarder = next((s for s, a in g.history if type(a) is Discard), None)
            played = {c for t in g.tricks for c in t.cards} | set(g.trick)
            for viewer in (None, *range(g.players)):
                view = g.view(viewer)
                assert view.hand == (g.hand(viewer) if viewer is not None else ())
                assert set(view.known) == public_cards(g, viewer)
                others = {c for s in range(g.players) if s != viewer for c in g.hand(s)}
                visible = {c for _s, c in view.known} | set(view.played_cards()) | {c for _s, c in view.shown}
                if view.turned is not None:
                    visible.add(view.turned)
                # Nothing in the view names another seat's card but what is public.
                assert not (set(view.discards) | set(view.talon)) & others - talon
                assert others & visible <= {c for _s, c in public_cards(g, viewer)} | played | set(view.talon)
                if g.phase == "bid":  # type: ignore[attr-defined]
                    assert view.talon == ()
                    talon_hidden += bool(talon)
                else:
                    assert set(view.talon) == talon
                    # (Chiamata Buia plays its first trick before the call.)
                    assert view.trump is not None or g.phase != "play" or view.call_pending  # type: ignore
                if viewer is not None and viewer == discarder:
                    assert set(view.discards) == set(g.discards) and len(view.discards) == 2  # type: ignore
                else:
                    assert view.discards == ()
                    assert not any(type(a) is Discard for _s, a in view.history)
                if contract is not None and contract.called is not None:
                    assert view.contract is not None and view.contract.called == contract.called
                    if contract.called in played:
                        assert view.contract.partner == contract.partner
                        partner_shown += 1
                    else:
                        assert view.contract.partner is None, "the hidden partner shows in a view"
                        partner_hidden += 1
                if g.phase == "bid":  # type: ignore[attr-defined]
                    assert view.trump is None or g.rules.trump_from == "dealer"
    if config[0].startswith("chiamata"):
        assert partner_hidden and partner_shown
    if config[0] == "rematada":
        assert talon_hidden


def test_hidden_partner_changes_nothing_visible() -> None:
    """Moving the called card to another defender's hand (and the partner with it) leaves every other view as is."""
    checked = 0
    for _game, positions in games(("chiamata", {}, 5), 80, seed=5):
        for g in positions:
            contract = g.contract  # type: ignore[attr-defined]
            if contract is None or contract.alone or g.phase != "play":  # type: ignore[attr-defined]
                continue
            played = {c for t in g.tricks for c in t.cards} | set(g.trick)
            if contract.called in played:
                continue
            for viewer in range(5):
                if viewer in (contract.declarer, contract.partner):
                    continue
                other = next((s for s in range(5) if s not in (viewer, contract.declarer, contract.partner)
                              and g.hand(s)), None)
                if other is None:
                    continue
                twin = swap(g, contract.partner, other, contract.called)
                for seat in (None, viewer):
                    assert twin.view(seat) == g.view(seat), "a defender's view shows who holds the called card"
                checked += 1
    assert checked > 100


def swap(g: Game, holder: int, other: int, called: Card) -> Game:
    """A clone where ``other`` holds the called card instead of ``holder`` (who gets one of ``other``'s cards)."""
    twin = g.clone()
    mine, theirs = twin._hands[holder], twin._hands[other]
    give = theirs[0]
    mine[mine.index(PLAYS[called.index])] = give
    theirs[0] = PLAYS[called.index]
    import dataclasses

    twin._contract = dataclasses.replace(twin._contract, partner=other)  # type: ignore[attr-defined]
    swap_dealt: Callable[[Card], Card] = lambda c: give.card if c == called else called if c == give.card else c  # noqa: E731
    twin._dealt = tuple(tuple(swap_dealt(c) for c in h) for h in twin._dealt)  # type: ignore[attr-defined]
    return twin
