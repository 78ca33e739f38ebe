"""A match: hands dealt one after another until a side wins, and the draws that open it (for the dealer, for
partners and seats).

The layer above one hand: it deals each hand and scores the finished ones, as the rules' ``match`` says.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from brisca.cards import Card
from brisca.errors import IllegalActionError, RulesError
from brisca.game.deck import shuffled
from brisca.game.hand import Game
from brisca.game.results import HandResult
from brisca.rules import Rules, make_rules


def draw_for_dealer(
    rules: Rules, players: int, seed: int | random.Random | None = None
) -> tuple[int, list[list[Card]]]:
    """Each seat draws a card from a shuffled deck; the highest deals.

    ``dealer_draw: rank`` reads the cards by rank order and seats tied for the highest draw
    again, until one is left. ``face_value`` (source Porteña) reads their numbers, the sota 8, the
    caballo 9 and the rey 10 in the 40-card deck, and where seats of different sides tie for
    the highest, the side whose cards add up to more wins ("De haber empate, la pareja que sume
    más números gana"); seats still level draw again. Returns the dealer and every round of
    draws (one card per seat still drawing).
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    drawing = list(range(players))
    rounds: list[list[Card]] = []
    while True:
        cards = shuffled(rules.deck_cards(players), rng)[: len(drawing)]
        rounds.append(list(cards))
        drawing = draw_leaders(rules, players, drawing, cards)
        if len(drawing) == 1:
            return drawing[0], rounds


def draw_leaders(rules: Rules, players: int, drawing: Sequence[int], cards: Sequence[Card]) -> list[int]:
    """The seats still in the running after one round of the draw for the dealer (``drawing[i]`` drew
    ``cards[i]``): those with the highest card, and under ``dealer_draw: face_value`` with partners, of those
    the ones whose side's cards add up to most."""
    value = face_values(rules) if rules.dealer_draw == "face_value" else rules.strength_table
    top = max(value[c.index] for c in cards)
    tied = [seat for seat, c in zip(drawing, cards, strict=True) if value[c.index] == top]
    sides = rules.sides(players)
    if rules.dealer_draw == "face_value" and sides < players and len({s % sides for s in tied}) > 1:
        sums = [0] * sides
        for seat, c in zip(drawing, cards, strict=True):
            sums[seat % sides] += value[c.index]
        best = max(sums[s % sides] for s in tied)
        tied = [s for s in tied if sums[s % sides] == best]
    return tied


@dataclass(frozen=True)
class DealerDraw:
    """The draw for the first dealer (:func:`draw_for_dealer`), kept so that a match record shows it and a replay
    checks it: ``rounds`` holds every round as ``(seat, card)`` pairs, the first with every seat, each later one
    the seats still level after the one before (:func:`draw_leaders`)."""

    players: int
    rounds: tuple[tuple[tuple[int, Card], ...], ...]
    dealer: int

    @classmethod
    def from_rounds(cls, rules: Rules, players: int, rounds: Sequence[Sequence[tuple[int, Card]]]) -> DealerDraw:
        """The draw these rounds make; :class:`RulesError` if they are not a draw the rules allow."""
        rules.check_players(players)
        known = frozenset(rules.deck_cards(players))
        drawing = list(range(players))
        kept: list[tuple[tuple[int, Card], ...]] = []
        for r in rounds:
            if len(drawing) == 1:
                raise RulesError(f"seat {drawing[0]} has drawn the highest card: the draw has no more rounds")
            seats, cards = [s for s, _c in r], [c for _s, c in r]
            if seats != drawing:
                raise RulesError(f"seats {', '.join(map(str, drawing))} draw next, not {', '.join(map(str, seats))}")
            if len(set(cards)) != len(cards) or not set(cards) <= known:
                raise RulesError("each seat of a round draws one card, all different, from the deck in play")
            kept.append(tuple(r))
            drawing = draw_leaders(rules, players, drawing, cards)
        if len(drawing) != 1:
            raise RulesError(f"seats {', '.join(map(str, drawing))} are level and must draw again")
        return cls(players, tuple(kept), drawing[0])

    @classmethod
    def drawn(cls, rules: Rules, players: int, seed: int | random.Random | None = None) -> DealerDraw:
        """Draw now (:func:`draw_for_dealer`) and keep the rounds."""
        dealer, rounds = draw_for_dealer(rules, players, seed)
        drawing = list(range(players))
        kept = []
        for cards in rounds:
            kept.append(tuple(zip(drawing, cards, strict=True)))
            drawing = draw_leaders(rules, players, drawing, cards)
        return cls(players, tuple(kept), dealer)


def face_values(rules: Rules) -> tuple[int, ...]:
    """Each card's number for the draw (by :attr:`Card.index`): 1 to 10 in the 40-card deck, the sota 8, the
    caballo 9, the rey 10 (source Porteña); 1 to 12 with 48 cards."""
    numbers = sorted({1, 2, 3, 4, 5, 6, 7, 10, 11, 12} | ({8, 9} if rules.deck == 48 else set()))
    by_rank = {r: i + 1 for i, r in enumerate(numbers)}
    return tuple(by_rank.get((i % 12) + 1, 0) for i in range(48))


@dataclass(frozen=True)
class PartnerDraw:
    """The draw for partners and seats of ``partners: draw`` (Fournier, Briscola guide), before the first hand.

    Players are numbered in the order they came to the table (player ``i`` would sit at seat ``i``
    under ``partners: fixed``). ``rounds`` holds every round of draws as ``(player, card)`` pairs: the
    first has every player; each later one the players of one tie, who draw again among themselves.
    ``order`` ranks the players from the highest card to the lowest; ``seating[player]`` is the seat
    the player takes. The highest's "choice of choosing seat" (Fournier) has a default, since seats are
    numbered round the table and only who sits where relative to him matters: he takes seat 0 and
    deals the first hand, his partner sits opposite, and the higher of the two lowest sits at seat 1,
    the first to play.
    """

    players: int
    rounds: tuple[tuple[tuple[int, Card], ...], ...]
    order: tuple[int, ...]
    seating: tuple[int, ...]

    @property
    def dealer(self) -> int:
        """The seat of the first dealer: the highest card's."""
        return self.seating[self.order[0]]

    def player_at(self, seat: int) -> int:
        """The player sitting at ``seat``."""
        return self.seating.index(seat)

    @classmethod
    def from_rounds(
        cls, rules: Rules, players: int, rounds: Sequence[Sequence[tuple[int, Card]]]
    ) -> PartnerDraw:
        """The draw these recorded rounds make; :class:`RulesError` if they are not a draw the rules allow."""
        pending = list(rounds)

        def next_round(group: Sequence[int]) -> tuple[Card, ...]:
            if not pending:
                raise RulesError(f"players {', '.join(map(str, group))} are tied and must draw again")
            drawn = pending.pop(0)
            who = [p for p, _c in drawn]
            if who != list(group):
                raise RulesError(f"players {', '.join(map(str, group))} draw next, not {', '.join(map(str, who))}")
            return tuple(c for _p, c in drawn)

        draw = _make_draw(rules, players, next_round)
        if pending:
            raise RulesError("the draw has rounds after every tie was broken")
        return draw


def draw_for_partners(rules: Rules, players: int, seed: int | random.Random | None = None) -> PartnerDraw:
    """Each player draws a card from a shuffled deck (a fresh one for each round of a tie): see :class:`PartnerDraw`.

    >>> draw = draw_for_partners(make_rules("spanish"), 4, seed=1)
    >>> draw.dealer, sorted(draw.seating)
    (0, [0, 1, 2, 3])
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    deck = rules.deck_cards(players)
    return _make_draw(rules, players, lambda group: shuffled(deck, rng)[: len(group)])


def _make_draw(
    rules: Rules, players: int, next_round: Callable[[Sequence[int]], tuple[Card, ...]]
) -> PartnerDraw:
    """Rank the players by their cards, tied players drawing again (depth first, highest tie first)."""
    rules.check_players(players)
    strength = rules.strength_table
    known = frozenset(rules.deck_cards(players))
    rounds: list[tuple[tuple[int, Card], ...]] = []

    def rank(group: Sequence[int]) -> list[int]:
        cards = next_round(group)
        if len(cards) != len(group) or len(set(cards)) != len(cards) or not set(cards) <= known:
            raise RulesError("each player of a round draws one card, all different, from the deck in play")
        rounds.append(tuple(zip(group, cards, strict=True)))
        out: list[int] = []
        for level in sorted({strength[c.index] for c in cards}, reverse=True):
            tied = [p for p, c in zip(group, cards, strict=True) if strength[c.index] == level]
            out.extend(tied if len(tied) == 1 else rank(tied))
        return out

    order = tuple(rank(range(players)))
    seating = [0] * players
    if rules.sides(players) < players:  # two sides: the higher half on the even seats, the lower on the odd
        half = players // 2
        for i, player in enumerate(order):
            seating[player] = 2 * i if i < half else 2 * (i - half) + 1
    else:
        for i, player in enumerate(order):
            seating[player] = i
    return PartnerDraw(players, tuple(rounds), order, tuple(seating))


def hand_game_points(rules: Rules, players: int, result: HandResult) -> tuple[int, ...]:
    """The game points each side takes from one hand (``match: game_points``; see :attr:`Match.game_points`)."""
    sides = rules.sides(players)
    out = [0] * sides
    if result.scores is not None:  # a hand with an auction
        if result.contract is not None:
            made = {s % sides for s in result.contract.side()}
            for side in made if result.reason == "made" else set(range(sides)) - made:
                out[side] += 1
        return tuple(out)
    if result.winner is not None:
        out[result.winner] += 2 if rules.big_win and result.margin > 100 else 1
    for side in result.shared:
        out[side] += 1
    return tuple(out)


def hand_standing(rules: Rules, players: int, result: HandResult) -> tuple[int, ...]:
    """What one hand is worth to each side in the match's count of points: its game points under ``match:
    game_points``, else its match points (a contract's :attr:`~HandResult.scores`, or the sides' points)."""
    if rules.match == "game_points":
        return hand_game_points(rules, players, result)
    return result.scores if result.scores is not None else result.side_points


class Match:
    """A match: hands follow one another, the deal passing to the next seat, until a side wins.

    With ``match: target_hands`` the first side to win ``target_hands`` hands wins
    (``target_hands_alone`` where each plays for himself, when set: the Briscola guide's hand played as a complete
    game; drawn
    hands do not count; under ``big_win`` a hand won by more than 100 counts two). With
    ``match: target_points`` the first side whose points over the hands reach
    ``target_points`` wins (if several reach it in one hand, the higher total; level
    totals play on; under ``reached_together: more_hands`` further hands are played, and the first side to end one
    ahead of every other wins). With ``match: game_points`` each hand gives game points (see
    :attr:`game_points`) and the first side to reach ``target_game_points`` wins, alike.
    With ``match: fixed_hands`` the match is ``hands`` deals, won by the side with the most
    hands won; sides level then play one more hand at a time until one leads (Encyclopedia, second
    article: "overall ties are resolved by additional play"). Under ``trump_rotation`` the
    match is exactly four deals. A tie under ``tie: replay`` is dealt again by the same
    dealer; under ``tie: shared`` each tied side is credited the hand, and if that brings
    several sides to the target level the match plays on until one leads (Fournier: "If two or
    more players reach that number of hands at the same time, the game continues until the
    tie is broken."). Under ``capote: match`` a hand won by taking every trick wins the match at once (Encyclopedia:
    "capturing all tricks allows a player to win the game in a single deal").

    ``dealer_draw``: the draw for the first dealer that opened the match (:class:`DealerDraw`), kept for its
    record; the first dealer is its highest card's seat.

    Under ``partners: draw`` the players draw for partners and seats first (:class:`PartnerDraw`,
    drawn from the match's own random source unless ``draw`` is given): :attr:`seating` says
    where each player sits, and the highest card deals the first hand.
    """

    def __init__(
        self,
        rules: Rules | str = "spanish",
        players: int = 2,
        *,
        dealer: int | None = None,
        seed: int | None = None,
        options: Mapping[str, object] | None = None,
        deck: Iterable[Card | str] | None = None,
        draw: PartnerDraw | None = None,
        dealer_draw: DealerDraw | None = None,
    ) -> None:
        self.rules = make_rules(rules, options)
        self.rules.check_players(players)
        self.players = players
        self._rng = random.Random(seed)
        self.draw = self._draw(draw)
        if dealer_draw is not None:
            if self.draw is not None:
                raise RulesError("under 'partners: draw' the draw for partners makes the first dealer, not a draw"
                                 " for the dealer")
            if dealer_draw.players != players:
                raise RulesError(f"the draw for the dealer is for {dealer_draw.players} players, not {players}")
            if dealer is not None and dealer != dealer_draw.dealer:
                raise RulesError(f"the draw for the dealer makes seat {dealer_draw.dealer} the first dealer, not"
                                 f" seat {dealer}")
            dealer = dealer_draw.dealer
        #: The draw for the first dealer, when the match was opened by one.
        self.dealer_draw = dealer_draw
        first = self.draw.dealer if self.draw is not None and dealer is None else dealer
        if first is None:
            first = players - 1
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
            raise RulesError(f"the dealer must be a seat from 0 to {players - 1}, not {first!r}")
        if self.draw is not None and first != self.draw.dealer:
            raise RulesError(f"the draw for partners makes seat {self.draw.dealer} the first dealer, not seat {first}")
        self.games: list[Game] = []
        self.game = self._start(first, deck, 0)

    def _draw(self, draw: PartnerDraw | None) -> PartnerDraw | None:
        """The draw for partners under ``partners: draw`` (given, or drawn now), else ``None``."""
        if self.rules.partners != "draw":
            if draw is not None:
                raise RulesError("a draw for partners needs the rule 'partners: draw'")
            return None
        if draw is None:
            return draw_for_partners(self.rules, self.players, self._rng)
        if draw.players != self.players:
            raise RulesError(f"the draw for partners is for {draw.players} players, not {self.players}")
        return draw

    @classmethod
    def of_games(cls, rules: Rules, players: int, games: Sequence[Game], draw: PartnerDraw | None = None,
                 dealer_draw: DealerDraw | None = None) -> Match:
        """A match made of hands already played (a replayed record), to score it."""
        match = object.__new__(cls)
        match.rules, match.players, match._rng = rules, players, random.Random(0)
        match.draw = draw
        match.dealer_draw = dealer_draw
        match.games = list(games)
        match.game = match.games[-1]
        return match

    @property
    def seating(self) -> tuple[int, ...]:
        """The seat of each player, in the order they came to the table (unchanged without a draw)."""
        return self.draw.seating if self.draw is not None else tuple(range(self.players))

    def shuffle(self) -> tuple[Card, ...]:
        """A freshly shuffled deck from the match's own random source (to cut, then deal)."""
        return shuffled(self.rules.deck_cards(self.players), self._rng)

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand: the next seat, or the same one after a tie under ``tie: replay``."""
        last = self.game.result()
        return self.game.dealer if last is not None and last.replay else (self.game.dealer + 1) % self.players

    def _start(self, dealer: int, deck: Iterable[Card | str] | None, deal_number: int) -> Game:
        if deck is None:
            deck = self.shuffle()
        game = Game(self.rules, self.players, dealer=dealer, deck=deck, deal_number=deal_number)
        self.games.append(game)
        return game

    @property
    def results(self) -> list[HandResult]:
        """Results of the finished hands, in order."""
        return [r for g in self.games if (r := g.result()) is not None]

    @property
    def hands_won(self) -> tuple[int, ...]:
        """Hands won by each side so far (a big win counts two; a shared hand counts one to each tied side)."""
        wins = [0] * self.rules.sides(self.players)
        for r in self.results:
            if r.winner is not None:
                wins[r.winner] += 2 if self.rules.big_win and r.margin > 100 else 1
            for side in r.shared:
                wins[side] += 1
        return tuple(wins)

    @property
    def points(self) -> tuple[int, ...]:
        """Each side's points added up over the finished hands (match points under a contract)."""
        total = [0] * self.rules.sides(self.players)
        for r in self.results:
            for side, p in enumerate(r.scores if r.scores is not None else r.side_points):
                total[side] += p
        return tuple(total)

    @property
    def game_points(self) -> tuple[int, ...]:
        """Game points of each side (``match: game_points``; Encyclopedia, second article).

        A hand with a contract: one to each side of the contract when it is made, one to every
        other side when it is set ("If the contractor secures at least the bid amount in points from
        captured cards, they earn one game point; failure results in each opponent gaining one game
        point"), none when everybody passed. Any other hand: one to each side awarded it, two for a
        big win under ``big_win`` (Encyclopedia: "winning by more than a hundred card points is worth two game
        points").
        """
        total = [0] * self.rules.sides(self.players)
        for r in self.results:
            for side, p in enumerate(hand_game_points(self.rules, self.players, r)):
                total[side] += p
        return tuple(total)

    @property
    def score(self) -> tuple[int, ...]:
        """The standing the match is decided on: points, game points or hands won, as ``match`` says."""
        mode = self.rules.match
        if mode == "target_points":
            return self.points
        if mode == "game_points":
            return self.game_points
        return self.hands_won

    @property
    def winner(self) -> int | None:
        """The side that has won the match, or ``None`` while it goes on (or when it ends level)."""
        rules = self.rules
        # Encyclopedia: "capturing all tricks allows a player to win the game in a single deal"
        if rules.capote == "match":
            for r in self.results:
                if r.reason == "capote":
                    return r.winner
        score = self.score
        length = 4 if rules.trump_rotation else rules.hands if rules.match == "fixed_hands" else None
        if length is not None:
            if self.deals_done < length:
                return None
            best = max(score)
            leaders = [s for s, v in enumerate(score) if v == best]
            return leaders[0] if len(leaders) == 1 else None
        target = {"target_points": rules.target_points, "game_points": rules.target_game_points}.get(
            rules.match, rules.hands_to_win(self.players))
        if rules.reached_together == "more_hands" and rules.match in ("target_points", "game_points"):
            return self._winner_after_more_hands(target)
        reached = [s for s, v in enumerate(score) if v >= target]
        if not reached:
            return None
        best = max(score[s] for s in reached)
        leaders = [s for s in reached if score[s] == best]
        return leaders[0] if len(leaders) == 1 else None

    def _winner_after_more_hands(self, target: int) -> int | None:
        """``reached_together: more_hands`` (Briscola guide: "If two or more players reach this total in the same
        hand, additional hands are played until one player completes a hand with more points than any other
        player"): the first side to reach ``target`` alone wins; sides reaching it together play further hands,
        and the first side to end one of them ahead of every other wins."""
        standing = [0] * self.rules.sides(self.players)
        together = False
        for result in self.results:
            for side, value in enumerate(hand_standing(self.rules, self.players, result)):
                standing[side] += value
            if together:
                if result.replay:
                    continue  # (a tie dealt again is no hand completed)
                best = max(standing)
                leaders = [s for s, v in enumerate(standing) if v == best]
                if len(leaders) == 1:
                    return leaders[0]
                continue
            reached = [s for s, v in enumerate(standing) if v >= target]
            if len(reached) == 1:
                return reached[0]
            together = len(reached) > 1
        return None

    @property
    def deals_done(self) -> int:
        """Finished deals: hands over, not counting ties that are dealt again."""
        return sum(1 for r in self.results if not r.replay)

    def is_over(self) -> bool:
        """Whether the match has ended (under ``trump_rotation``, after the fourth deal, even level; a match of
        ``fixed_hands`` ends level never, it plays on)."""
        if self.rules.trump_rotation:
            return self.deals_done >= 4 or (self.rules.capote == "match" and self.winner is not None)
        return self.winner is not None

    def next_hand(self, deck: Iterable[Card | str] | None = None) -> Game:
        """Deal the next hand once the current one is over (a tie under ``tie: replay`` keeps the dealer)."""
        if not self.game.is_over():
            raise IllegalActionError("the current hand is not over")
        if self.is_over():
            raise IllegalActionError("the match is over")
        last = self.game.result()
        replay = last is not None and last.replay
        deal_number = self.game.deal_number if replay else self.game.deal_number + 1
        self.game = self._start(self.next_dealer, deck, deal_number)
        return self.game
