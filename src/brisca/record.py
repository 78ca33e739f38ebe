"""Game records, ``brisca-record/1``: JSON that replays any hand anywhere.

A hand record names the variant and its rule overrides, the players, the
dealer, the whole deck (top card first) and every action with its seat::

    >>> from brisca import Game
    >>> game = Game("spanish", 2, seed=3)
    >>> game.apply(game.legal_actions()[0])
    >>> text = Record.from_game(game).dumps()
    >>> loads(text).replay().history == game.history
    True

A match record keeps the header once and lists its hands under ``"hands"``,
each with its own ``dealer``, ``deck`` and ``actions``. Under ``partners: draw`` it
also keeps the draw for partners (``"draw"``: each round's players and cards) and
the ``"seating"`` it made, so that a replay seats everybody again; a match opened by a
draw for the first dealer keeps it (``"dealer_draw"``: each round's seats and cards), and a
replay checks that its highest card dealt the first hand. The module mirrors
:mod:`json`: :func:`load`, :func:`loads`, :func:`dump`, :func:`dumps`.

Cards are always written in the canonical Spanish notation (``12O``), also for the
presets shown in the Italian one (``RD``): the record's variant and rules name the
notation to show (``card_names``), so the format needs no new field and every
version reads every record. The reader also accepts the Italian notation, which
:meth:`Card.parse` reads, and writes it back canonical.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from brisca.actions import Action, Announce, Bid, Declare, Pass, RankBid, Signal
from brisca.cards import Card
from brisca.commitment import check_deal, practice_deck
from brisca.errors import BriscaError, RecordError
from brisca.game import DealerDraw, Game, Match, PartnerDraw
from brisca.rules import Rules, make_rules

FORMAT = "brisca-record/1"

_HAND_KEYS = {"format", "variant", "rules", "players", "dealer", "deal", "deck", "salt", "commitment", "actions"}
_MATCH_KEYS = {"format", "variant", "rules", "players", "seed", "draw", "seating", "dealer_draw", "hands", "resigned"}
_DEAL_KEYS = {"dealer", "deal", "deck", "salt", "commitment", "actions"}
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class Resignation:
    """How a match ended before its end: ``seats`` resigned (in order), and side ``winner`` won."""

    seats: tuple[int, ...]
    winner: int


@dataclass
class Record:
    """One hand: enough to rebuild every position of it."""

    variant: str
    players: int
    dealer: int
    deck: tuple[Card, ...]
    actions: list[tuple[int, Action]] = field(default_factory=list)
    rules: dict[str, Any] = field(default_factory=dict)
    #: Which deal of a match this is (0 first; ``None``: not written, 0 alone or implied in a match record).
    #: It picks the trump under ``trump_rotation``.
    deal: int | None = None
    #: The deck's commitment, published when the hand was dealt, and the salt that opens it
    #: (:mod:`brisca.commitment`); ``None`` for a hand dealt without one.
    salt: str | None = None
    commitment: str | None = None

    @classmethod
    def from_game(cls, game: Game) -> Record:
        """The record of ``game`` as played so far."""
        return cls(
            variant=game.rules.variant,
            players=game.players,
            dealer=game.dealer,
            deck=game.deck,
            actions=list(game.history),
            rules=game.rules.overrides(),
            deal=game.deal_number or None,
        )

    def make_rules(self) -> Rules:
        """The rules this record is played under."""
        return make_rules(self.variant, self.rules)

    def replay(self, upto: int | None = None, *, hand: int | None = None) -> Game:
        """Rebuild the game, checking every action; :class:`RecordError` names the first bad one."""
        try:
            game = Game(self.make_rules(), self.players, dealer=self.dealer, deck=self.deck, deal_number=self.deal or 0)
        except BriscaError as exc:
            raise RecordError(str(exc), hand=hand) from None
        for i, (seat, action) in enumerate(self.actions[:upto]):
            if game.is_over():
                raise RecordError("the hand is already over", i, hand)
            try:  # (a seat not to act: only where the rules let it, its exchange under out_of_turn)
                game.apply(action, seat)
            except BriscaError as exc:
                raise RecordError(str(exc), i, hand) from None
        return game

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        out: dict[str, Any] = {"format": FORMAT, "variant": self.variant}
        if self.rules:
            out["rules"] = dict(self.rules)
        out["players"] = self.players
        out.update(_deal_json(self))
        return out

    def dumps(self, indent: int | None = None) -> str:
        """The record as JSON text."""
        return _dumps(self.to_json(), indent)


@dataclass
class MatchRecord:
    """A match: its hands in order, sharing variant, rules and players."""

    variant: str
    players: int
    hands: list[Record]
    rules: dict[str, Any] = field(default_factory=dict)
    #: The seed of a practice table's deals (:func:`brisca.commitment.practice_deck`): anyone can
    #: recompute them; ``None`` when the decks were shuffled at random.
    seed: int | None = None
    #: The draw for partners and seats (``partners: draw``); ``None`` without one.
    draw: PartnerDraw | None = None
    #: The draw for the first dealer that opened the match, when it was kept; ``None`` without one.
    dealer_draw: DealerDraw | None = None
    #: A match ended by resignation before its end: the seats whose players resigned, and the side that won
    #: (the one side left with a player who had not); ``None``: the match was played out, or is still going on.
    resigned: Resignation | None = None

    @property
    def winner(self) -> int | None:
        """The side that won: by resignation, or as the replayed hands say (``None``: level, or not over)."""
        if self.resigned is not None:
            return self.resigned.winner
        return Match.of_games(self.make_rules(), self.players, self.replay(), self.draw).winner

    @classmethod
    def of(cls, record: Record | MatchRecord) -> MatchRecord:
        """``record`` as a match record: a hand record becomes a match of that one hand."""
        if isinstance(record, MatchRecord):
            return record
        return cls(record.variant, record.players, [record], dict(record.rules))

    @classmethod
    def from_match(cls, match: Match) -> MatchRecord:
        """The record of ``match`` as played so far."""
        hands = [dataclasses.replace(Record.from_game(g), deal=None) for g in match.games]
        return cls(match.rules.variant, match.players, hands, match.rules.overrides(), draw=match.draw,
                   dealer_draw=getattr(match, "dealer_draw", None))

    def verify_deals(self) -> list[str]:
        """What is wrong with the deals' commitments (and a practice seed's decks); empty when all hold.

        Hands are counted from 1, as :class:`RecordError`, the terminal game and the web pages count them.
        Every hand must carry its salt
        and commitment, and its deck must give that commitment
        (:func:`brisca.commitment.check_deal`); under a ``seed``, each deck must also be the one the
        seed gives.
        """
        problems: list[str] = []
        cards = self.make_rules().deck_cards(self.players)
        for i, hand in enumerate(self.hands):
            if hand.salt is None or hand.commitment is None:
                problems.append(f"hand {i + 1}: no commitment to check (the deck was not committed to)")
                continue
            wrong = check_deal(hand.deck, hand.salt, hand.commitment)
            if wrong is not None:
                problems.append(f"hand {i + 1}: {wrong}")
            if self.seed is not None and tuple(practice_deck(cards, self.seed, i)) != hand.deck:
                problems.append(f"hand {i + 1}: the deck is not the one seed {self.seed} gives")
        return problems

    def make_rules(self) -> Rules:
        """The rules this record is played under."""
        return make_rules(self.variant, self.rules)

    def replay(self) -> list[Game]:
        """Rebuild every hand, checking each action and the match around them.

        A hand may follow only a finished hand of a match still going on, dealt by the
        next seat (the same seat after a tie under ``tie: replay``), with the next deal
        number; after a draw for partners, the first hand is dealt by the highest card's
        seat. :class:`RecordError` names the first thing wrong.
        """
        rules = self.make_rules()
        games: list[Game] = []
        for i, hand in enumerate(self.hands):
            if not games and self.draw is not None and hand.dealer != self.draw.dealer:
                raise RecordError(f"the draw for partners makes seat {self.draw.dealer} the first dealer, not seat"
                                  f" {hand.dealer}", hand=i)
            if not games and self.dealer_draw is not None and hand.dealer != self.dealer_draw.dealer:
                raise RecordError(f"the draw for the dealer makes seat {self.dealer_draw.dealer} the first dealer,"
                                  f" not seat {hand.dealer}", hand=i)
            if games:
                prev = games[-1]
                if not prev.is_over():
                    raise RecordError("the hand before this one is not finished", hand=i)
                if Match.of_games(rules, self.players, games, self.draw).is_over():
                    raise RecordError("the match is already over", hand=i)
                result = prev.result()
                again = result is not None and result.replay
                dealer = prev.dealer if again else (prev.dealer + 1) % self.players
                deal = prev.deal_number if again else prev.deal_number + 1
                if hand.dealer != dealer:
                    raise RecordError(f"the dealer of this hand is seat {dealer}, not {hand.dealer}", hand=i)
                if hand.deal is not None and hand.deal != deal:
                    raise RecordError(f"this is deal {deal}, not {hand.deal}", hand=i)
                hand = dataclasses.replace(hand, deal=deal)
            games.append(hand.replay(hand=i))
        if self.resigned is not None:
            self._check_resignation(rules, games)
        return games

    def _check_resignation(self, rules: Rules, games: list[Game]) -> None:
        """A resignation ends a match still going on, and the side that wins is not the one whose resignation
        ended it."""
        if Match.of_games(rules, self.players, games, self.draw).is_over():
            raise RecordError("the match is over before the resignation")
        sides = rules.sides(self.players)
        assert self.resigned is not None
        if self.resigned.seats[-1] % sides == self.resigned.winner:  # the last resignation ended the match
            raise RecordError(f"side {self.resigned.winner} resigned last: it cannot win by resignation")

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        out: dict[str, Any] = {"format": FORMAT, "variant": self.variant}
        if self.rules:
            out["rules"] = dict(self.rules)
        out["players"] = self.players
        if self.seed is not None:
            out["seed"] = self.seed
        if self.draw is not None:
            out["draw"] = [{"players": [p for p, _c in r], "cards": [str(c) for _p, c in r]} for r in self.draw.rounds]
            out["seating"] = list(self.draw.seating)
        if self.dealer_draw is not None:
            out["dealer_draw"] = [{"seats": [s for s, _c in r], "cards": [str(c) for _s, c in r]}
                                  for r in self.dealer_draw.rounds]
        out["hands"] = [_deal_json(h) for h in self.hands]
        if self.resigned is not None:
            out["resigned"] = {"seats": list(self.resigned.seats), "winner": self.resigned.winner}
        return out

    def dumps(self, indent: int | None = None) -> str:
        """The record as JSON text."""
        return _dumps(self.to_json(), indent)


def _deal_json(rec: Record) -> dict[str, Any]:
    out: dict[str, Any] = {"deal": rec.deal} if rec.deal else {}
    out |= {"dealer": rec.dealer, "deck": [str(c) for c in rec.deck]}
    if rec.salt is not None and rec.commitment is not None:
        out |= {"salt": rec.salt, "commitment": rec.commitment}
    return out | {"actions": [{"seat": s, **a.to_json()} for s, a in rec.actions]}


def _dumps(data: dict[str, Any], indent: int | None) -> str:
    if indent is None:
        return json.dumps(data, ensure_ascii=False)
    # Keep decks and actions one item a line but short lists inline: easy to read and diff.
    return json.dumps(data, indent=indent, ensure_ascii=False)


# ------------------------------------------------------------------- reading


def loads(text: str | bytes) -> Record | MatchRecord:
    """Read a record from JSON text; :class:`RecordError` with a clear reason if it is broken."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise RecordError("not a record: JSON nested too deeply") from None
    return from_json(data)


def load(fp: IO[str]) -> Record | MatchRecord:
    """Read a record from a text file."""
    return loads(fp.read())


def dumps(record: Record | MatchRecord, indent: int | None = None) -> str:
    """The record as JSON text."""
    return record.dumps(indent)


def dump(record: Record | MatchRecord, fp: IO[str], indent: int | None = 1) -> None:
    """Write the record to a text file."""
    fp.write(record.dumps(indent))
    fp.write("\n")


def from_json(data: object) -> Record | MatchRecord:
    """Build a record from parsed JSON, checking the header; actions are checked by ``replay``."""
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    is_match = "hands" in data
    allowed = _MATCH_KEYS if is_match else _HAND_KEYS
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise RecordError(f"unknown field(s) {', '.join(unknown)}")
    variant = data.get("variant")
    if not isinstance(variant, str):
        raise RecordError("field 'variant' must name a variant, like \"spanish\"")
    overrides = data.get("rules", {})
    if not isinstance(overrides, Mapping):
        raise RecordError("field 'rules' must be an object of rule options")
    players = data.get("players")
    try:
        rules = make_rules(variant, overrides)
        rules.check_players(players)  # type: ignore[arg-type]
    except BriscaError as exc:
        raise RecordError(str(exc)) from None
    assert isinstance(players, int)
    if is_match:
        hands = data["hands"]
        if not isinstance(hands, list) or not hands:
            raise RecordError("field 'hands' must be a non-empty list of hands")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
            raise RecordError(f"field 'seed' must be a whole number from 0 to 2**63 - 1, not {seed!r}")
        deals = [_read_deal(h, variant, players, dict(overrides), i) for i, h in enumerate(hands)]
        draw = _read_draw(data, rules, players)
        dealer_draw = _read_dealer_draw(data, rules, players)
        resigned = _read_resignation(data.get("resigned"), rules.sides(players), players)
        return MatchRecord(variant, players, deals, dict(overrides), seed, draw, dealer_draw, resigned)
    return _read_deal(data, variant, players, dict(overrides), None)


def _read_resignation(raw: object, sides: int, players: int) -> Resignation | None:
    """A match record's ``resigned``: ``{"seats": [...], "winner": side}``, or absent."""
    if raw is None:
        return None
    shape = "field 'resigned' must be like {\"seats\": [0], \"winner\": 1}: the seats that resigned, the side that won"
    if not isinstance(raw, Mapping) or set(raw) != {"seats", "winner"}:
        raise RecordError(shape)
    seats, winner = raw["seats"], raw["winner"]
    if (not isinstance(seats, list) or not seats or len(set(seats)) != len(seats)
            or not all(type(s) is int and 0 <= s < players for s in seats)
            or type(winner) is not int or not 0 <= winner < sides):
        raise RecordError(shape)
    return Resignation(tuple(seats), winner)


def _read_draw(data: Mapping[str, Any], rules: Rules, players: int) -> PartnerDraw | None:
    """The draw for partners of a match record: required under ``partners: draw``, refused otherwise."""
    raw, seating = data.get("draw"), data.get("seating")
    if rules.partners != "draw":
        if raw is not None or seating is not None:
            raise RecordError("fields 'draw' and 'seating' belong to matches under the rule 'partners: draw'")
        return None
    if raw is None:
        raise RecordError("a match under 'partners: draw' records the draw (field 'draw')")
    shape = "field 'draw' must be a list of rounds like {\"players\": [0, 1, 2, 3], \"cards\": [\"1O\", ...]}"
    if not isinstance(raw, list) or not raw:
        raise RecordError(shape)
    rounds: list[tuple[tuple[int, Card], ...]] = []
    for r in raw:
        if not isinstance(r, Mapping) or set(r) != {"players", "cards"}:
            raise RecordError(shape)
        who, cards = r["players"], r["cards"]
        if (not isinstance(who, list) or not isinstance(cards, list) or len(who) != len(cards)
                or not all(type(p) is int and 0 <= p < players for p in who)
                or not all(isinstance(c, str) for c in cards)):
            raise RecordError(shape)
        try:
            rounds.append(tuple(zip(who, (Card.parse(c) for c in cards), strict=True)))
        except BriscaError as exc:
            raise RecordError(f"bad draw: {exc}") from None
    try:
        draw = PartnerDraw.from_rounds(rules, players, rounds)
    except BriscaError as exc:
        raise RecordError(f"bad draw: {exc}") from None
    if seating is not None and seating != list(draw.seating):
        raise RecordError(f"field 'seating' must be the draw's, {list(draw.seating)}, not {seating!r}")
    return draw


def _read_dealer_draw(data: Mapping[str, Any], rules: Rules, players: int) -> DealerDraw | None:
    """The draw for the first dealer of a match record (field ``dealer_draw``), when it has one."""
    raw = data.get("dealer_draw")
    if raw is None:
        return None
    if rules.partners == "draw":
        raise RecordError("field 'dealer_draw' does not go with 'partners: draw': the draw for partners makes the"
                          " first dealer")
    shape = "field 'dealer_draw' must be a list of rounds like {\"seats\": [0, 1, 2, 3], \"cards\": [\"1O\", ...]}"
    if not isinstance(raw, list) or not raw:
        raise RecordError(shape)
    rounds: list[tuple[tuple[int, Card], ...]] = []
    for r in raw:
        if not isinstance(r, Mapping) or set(r) != {"seats", "cards"}:
            raise RecordError(shape)
        seats, cards = r["seats"], r["cards"]
        if (not isinstance(seats, list) or not isinstance(cards, list) or len(seats) != len(cards)
                or not all(type(s) is int and 0 <= s < players for s in seats)
                or not all(isinstance(c, str) for c in cards)):
            raise RecordError(shape)
        try:
            rounds.append(tuple(zip(seats, (Card.parse(c) for c in cards), strict=True)))
        except BriscaError as exc:
            raise RecordError(f"bad draw for the dealer: {exc}") from None
    try:
        return DealerDraw.from_rounds(rules, players, rounds)
    except BriscaError as exc:
        raise RecordError(f"bad draw for the dealer: {exc}") from None


def _read_deal(data: object, variant: str, players: int, rules: dict[str, Any], hand: int | None) -> Record:
    if not isinstance(data, Mapping):
        raise RecordError("a hand is a JSON object", hand=hand)
    if hand is not None:
        unknown = sorted(set(data) - _DEAL_KEYS)
        if unknown:
            raise RecordError(f"unknown field(s) {', '.join(unknown)}", hand=hand)
    dealer = data.get("dealer")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise RecordError(f"field 'dealer' must be a seat from 0 to {players - 1}, not {dealer!r}", hand=hand)
    deck = data.get("deck")
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise RecordError("field 'deck' must be a list of cards, top first, like [\"5O\", \"1C\", ...]", hand=hand)
    try:
        cards = tuple(Card.parse(c) for c in deck)
    except BriscaError as exc:
        raise RecordError(f"bad deck: {exc}", hand=hand) from None
    raw = data.get("actions", [])
    if not isinstance(raw, list):
        raise RecordError("field 'actions' must be a list", hand=hand)
    actions = [_read_action(a, i, players, hand) for i, a in enumerate(raw)]
    deal = data.get("deal")
    if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int) or deal < 0):
        raise RecordError(f"field 'deal' must be a whole number from 0, not {deal!r}", hand=hand)
    salt, commitment = data.get("salt"), data.get("commitment")
    if (salt is None) != (commitment is None):
        raise RecordError("fields 'salt' and 'commitment' come together", hand=hand)
    if salt is not None and not _is_hex(salt, 16, 128):
        raise RecordError("field 'salt' must be 16 to 128 hex digits", hand=hand)
    if commitment is not None and not _is_hex(commitment, 64, 64):
        raise RecordError("field 'commitment' must be a SHA-256: 64 hex digits", hand=hand)
    return Record(variant, players, dealer, cards, actions, rules, deal, salt, commitment)


def _is_hex(value: object, shortest: int, longest: int) -> bool:
    return isinstance(value, str) and shortest <= len(value) <= longest and set(value) <= _HEX


def _read_action(data: object, index: int, players: int, hand: int | None) -> tuple[int, Action]:
    if not isinstance(data, Mapping):
        raise RecordError("an action is a JSON object like {\"seat\": 0, \"play\": \"3O\"}", index, hand)
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise RecordError(f"'seat' must be a seat from 0 to {players - 1}, not {seat!r}", index, hand)
    rest = {k: v for k, v in data.items() if k != "seat"}
    try:
        return seat, Action.from_json(rest)
    except BriscaError as exc:
        raise RecordError(str(exc), index, hand) from None


# ------------------------------------------------------------------- output


def summary(game: Game) -> dict[str, Any]:
    """What ``brisca replay`` prints for one hand: trump, tricks, points, bonuses, the winner."""
    result = game.result()
    claim = game.claim
    return {
        "variant": game.rules.variant,
        "players": game.players,
        "dealer": game.dealer,
        "deal": game.deal_number,
        "trump": None if game.trump is None else game.trump.letter,
        "turned": None if game.turned is None else str(game.turned),
        **_auction_summary(game),
        "tricks": [
            {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner, "points": t.points}
            for t in game.tricks
        ],
        "current_trick": [str(c) for c in game.trick],
        "exchanges": [{"seat": e.seat, "gave": str(e.given), "took": str(e.taken)} for e in game.exchanges],
        **_announcements(game),
        "signals": [{"seat": s, "signal": a.name} for s, a in game.history if isinstance(a, Signal)],
        "claim": None if claim is None else {
            "seat": claim[0], "cards": [str(c) for c in claim[1]], "points": claim[2]
        },
        "seat_points": list(game.seat_points),
        "bonuses": [{"side": b.side, "points": b.points, "why": b.why} for b in (result.bonuses if result else ())],
        "team_points": list(result.side_points if result else game.side_points),
        "over": game.is_over(),
        "turn": game.turn,
        "winner": result.winner if result else None,
        "reason": result.reason if result else None,
        **({"winners": list(result.shared)} if result is not None and result.shared else {}),
        **({"scores": list(result.scores)} if result is not None and result.scores is not None else {}),
    }


def _announcements(game: Game) -> dict[str, Any]:
    """Under ``trump_exchange: announced``: each trump laid under the face-up card, and what became of it
    (``exchanged`` after its seat's trick won, ``taken back`` once the face-up card was drawn, or ``pending``)."""
    if game.rules.trump_exchange != "announced":
        return {}
    made = [(e.seat, e.given) for e in game.exchanges]
    back = list(getattr(game, "taken_back", ()))
    out = []
    for seat, action in game.history:
        if type(action) is Announce:
            card = action.card
            result = "exchanged" if (seat, card) in made else "taken back" if (seat, card) in back else "pending"
            out.append({"seat": seat, "card": str(card), "result": result})
    return {"announcements": out}


def _auction_summary(game: Game) -> dict[str, Any]:
    """The auction, the contract, the talon and the declarations, for the games that have them."""
    rules = game.rules
    out: dict[str, Any] = {}
    if rules.auction:
        bids = [(s, a) for s, a in game.history if isinstance(a, Bid | RankBid | Pass)]
        out["auction"] = [{"seat": s, **a.to_json()} for s, a in bids]
        contract = getattr(game, "contract", None)
        out["contract"] = None if contract is None else contract.to_json()
        if rules.talon:
            out["talon"] = [str(c) for c in getattr(game, "talon", ())]
            out["discards"] = [str(c) for c in getattr(game, "discards", ())]
    if rules.declarations != "off":
        out["declarations"] = [{"seat": s, "declare": a.suit.letter} for s, a in game.history if isinstance(a, Declare)]
    return out


def match_summary(record: MatchRecord, games: Sequence[Game]) -> dict[str, Any]:
    """What ``brisca replay`` prints for a match record: each hand, the match score, the match winner."""
    rules = record.make_rules()
    match = Match.of_games(rules, record.players, games, record.draw)
    out: dict[str, Any] = {"variant": record.variant, "players": record.players}
    if record.draw is not None:
        out["seating"] = list(record.draw.seating)
    out |= {
        "hands": [summary(g) for g in games],
        "hands_won": list(match.hands_won),
        "match_points": list(match.points),
    }
    if rules.match == "game_points":
        out["game_points"] = list(match.game_points)
    return out | {"match_over": match.is_over(), "match_winner": match.winner}
