"""Rules as data: a frozen :class:`Rules` object per preset, and one registry.

A preset is a named :class:`Rules`; any option can be overridden by name::

    >>> rules = find_variant("spanish").with_options({"deck": 48})
    >>> rules.deck, rules.strength_order()[:7]
    (48, (1, 3, 12, 11, 10, 9, 8))
    >>> rules.overrides()
    {'deck': 48}

Behaviour that differs between variants is expressed through these fields,
never through ``if variant == ...`` in the engine.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from brisca.cards import Card, Rank, Suit, parse_cards, spanish_deck
from brisca.errors import InvalidCardError, RulesError

#: The exchange options: who may give a low trump for the face-up card.
TRUMP_EXCHANGE_MODES = ("off", "after_win")


def _int(name: str, value: object, allowed: tuple[int, ...] | None = None, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value)
        else:
            raise RulesError(f"option {name!r} must be a whole number, not {value!r}")
    if allowed is not None and value not in allowed:
        raise RulesError(f"option {name!r} must be one of {', '.join(map(str, allowed))}, not {value}")
    if minimum is not None and value < minimum:
        raise RulesError(f"option {name!r} must be at least {minimum}, not {value}")
    return value


def _bool(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1", "false", "no", "off", "0"):
        return value.lower() in ("true", "yes", "on", "1")
    raise RulesError(f"option {name!r} must be true or false, not {value!r}")


def _choice(name: str, value: object, choices: tuple[str, ...], aliases: Mapping[object, str]) -> str:
    if not isinstance(value, str | bool):
        raise RulesError(f"option {name!r} must be one of {', '.join(choices)}, not {value!r}")
    if value in aliases:
        return aliases[value]
    if value not in choices:
        raise RulesError(f"option {name!r} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


def _ranks(name: str, value: object) -> tuple[int, ...]:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, list | tuple):
        raise RulesError(f"option {name!r} must be a list of ranks, high to low, not {value!r}")
    try:
        ranks = tuple(int(Rank.parse(str(v))) for v in value)
    except InvalidCardError as exc:
        raise RulesError(f"option {name!r}: {exc}") from None
    if len(set(ranks)) != len(ranks):
        raise RulesError(f"option {name!r} names a rank twice")
    return ranks


def _points(name: str, value: object) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, Mapping):
        raise RulesError(f"option {name!r} must map ranks to points, like {{\"1\": 11}}, not {value!r}")
    out: dict[int, int] = {}
    for k, v in value.items():
        try:
            rank = int(Rank.parse(str(k)))
        except InvalidCardError as exc:
            raise RulesError(f"option {name!r}: {exc}") from None
        out[rank] = _int(f"{name}[{k}]", v, minimum=0)
    return tuple(sorted(out.items()))


def _exchange(name: str, value: object) -> tuple[tuple[int, tuple[int, ...]], ...]:
    if not isinstance(value, Mapping):
        raise RulesError(f"option {name!r} must map a rank given to the face-up ranks it takes, not {value!r}")
    out = []
    for k, v in value.items():
        try:
            given = int(Rank.parse(str(k)))
        except InvalidCardError as exc:
            raise RulesError(f"option {name!r}: {exc}") from None
        out.append((given, _ranks(f"{name}[{k}]", v)))
    return tuple(out)


@dataclass(frozen=True)
class Option:
    """A rule option that can be overridden by name; ``parse`` validates a JSON or CLI value."""

    name: str
    parse: Callable[[object], Any]
    help: str


OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option("deck", lambda v: _int("deck", v, (40, 48)),
               "40 or 48 cards; with 48 the 9 and 8 rank just above the 7 and score 0, and no card is removed"),
        Option("teams", lambda v: _bool("teams", v),
               "with 4 or 6 players, play in two sides (even seats against odd seats); false: each for himself"),
        Option("trump_exchange",
               lambda v: _choice("trump_exchange", v, TRUMP_EXCHANGE_MODES, {True: "after_win", False: "off"}),
               "off, or after_win: a seat that has won a trick may give a low trump for the face-up card"),
        Option("exchange_with", lambda v: _exchange("exchange_with", v),
               "which trump is given for which face-up ranks, e.g. {\"7\": [1, 3, 12, 11, 10], \"2\": [4, 5, 6, 7]}"),
        Option("target_hands", lambda v: _int("target_hands", v, minimum=1),
               "the match is won by the first side to win this many hands (drawn hands do not count)"),
        Option("rank_order", lambda v: _ranks("rank_order", v),
               "the ranks of the 40-card deck from highest to lowest"),
        Option("points", lambda v: _points("points", v),
               "card points per rank; ranks not named score 0"),
        Option("hand_size", lambda v: _int("hand_size", v, minimum=1),
               "cards each seat holds while the stock lasts"),
    )
}


class Layout(NamedTuple):
    """Seat tables for one player count, computed once per rules (the engine's setup cache)."""

    players: int
    cards: tuple[Card, ...]
    plays: tuple[Any, ...]
    next_seat: tuple[int, ...]
    draw_order: tuple[tuple[int, ...], ...]
    sides: int


@dataclass(frozen=True)
class Rules:
    """Everything that makes one way of playing Brisca: deck, ranks, points, seats, deal, exchange, match.

    Create presets with :func:`find_variant` and change them with :meth:`with_options`;
    the fields are data the engine reads, and their help lives in :data:`OPTIONS`.
    """

    variant: str
    title: str
    deck: int = 40
    player_counts: tuple[int, ...] = (2, 3, 4, 6)
    teams: bool = True
    rank_order: tuple[int, ...] = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)
    points: tuple[tuple[int, int], ...] = ((1, 11), (3, 10), (12, 4), (11, 3), (10, 2))
    #: Cards removed from the 40-card deck, per player count, so that the deal comes out even.
    removed: tuple[tuple[int, tuple[str, ...]], ...] = ((3, ("2O",)), (6, ("2O", "2C", "2E", "2B")))
    hand_size: int = 3
    trump_exchange: str = "after_win"
    exchange_with: tuple[tuple[int, tuple[int, ...]], ...] = (
        (7, (1, 3, 12, 11, 10, 9, 8)),
        (2, (4, 5, 6, 7)),
    )
    target_hands: int = 2
    doc: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        self._validate()

    # ----------------------------------------------------------------- options

    def with_options(self, options: Mapping[str, object] | None = None, **kwargs: object) -> Rules:
        """A copy with the named options changed; unknown names and bad values raise :class:`RulesError`."""
        merged = dict(options or {})
        merged.update(kwargs)
        if not merged:
            return self
        changes: dict[str, Any] = {}
        for name, value in merged.items():
            opt = OPTIONS.get(name)
            if opt is None:
                hint = difflib.get_close_matches(name, OPTIONS, n=1)
                extra = f" (did you mean {hint[0]!r}?)" if hint else f" (known: {', '.join(OPTIONS)})"
                raise RulesError(f"unknown rule option {name!r}{extra}")
            changes[name] = opt.parse(value)
        return dataclasses.replace(self, **changes)

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this variant's preset, as JSON-ready values."""
        base = find_variant(self.variant)
        out: dict[str, Any] = {}
        for name in OPTIONS:
            mine = getattr(self, name)
            if mine != getattr(base, name):
                out[name] = _to_json(name, mine)
        return out

    def options(self) -> dict[str, Any]:
        """Every option's value, as JSON-ready values."""
        return {name: _to_json(name, getattr(self, name)) for name in OPTIONS}

    def _validate(self) -> None:
        ranks40 = {1, 2, 3, 4, 5, 6, 7, 10, 11, 12}
        if set(self.rank_order) - {8, 9} != ranks40:
            raise RulesError(
                "option 'rank_order' must list the ranks 1 2 3 4 5 6 7 10 11 12 once each, "
                f"not {' '.join(map(str, self.rank_order))}"
            )
        for given, _taken in self.exchange_with:
            if given in (8, 9) and self.deck == 40:
                raise RulesError("option 'exchange_with' gives an 8 or 9, which a 40-card deck lacks")
        for n in self.player_counts:
            cards = len(self.deck_cards(n))
            if cards % n:
                raise RulesError(f"{cards} cards cannot be dealt evenly to {n} players")
            if cards < n * self.hand_size + 1:
                raise RulesError(f"{cards} cards are too few to deal {self.hand_size} each to {n} players")

    # ------------------------------------------------------------------- seats

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesError` unless this variant is played by ``players`` players."""
        if isinstance(players, bool) or not isinstance(players, int) or players not in self.player_counts:
            raise RulesError(
                f"{self.variant} is played by {', '.join(map(str, self.player_counts))} players, not {players!r}"
            )

    def layout(self, players: int) -> Layout:
        """The deck and seat tables for ``players`` players (checked, and cached on these rules)."""
        cache: dict[int, Layout] = self._layouts
        lay = cache.get(players)
        if lay is None:
            self.check_players(players)
            from brisca.actions import PLAYS

            n = players
            cards = self.deck_cards(n)
            lay = cache[n] = Layout(
                n,
                cards,
                tuple(PLAYS[c.index] for c in cards),
                tuple((s + 1) % n for s in range(n)),
                tuple(tuple((w + i) % n for i in range(n)) for w in range(n)),
                self.sides(n),
            )
        return lay

    @cached_property
    def _layouts(self) -> dict[int, Layout]:
        return {}

    def sides(self, players: int) -> int:
        """How many sides play: 2 partnerships with 4 or 6 players (when ``teams``), else one per seat."""
        return 2 if self.teams and players in (4, 6) else players

    def side_of(self, seat: int, players: int) -> int:
        """The side index of ``seat``: ``seat`` modulo the number of sides."""
        return seat % self.sides(players)

    # ------------------------------------------------------------------- cards

    def deck_cards(self, players: int) -> tuple[Card, ...]:
        """The cards in play for ``players`` players, in canonical order."""
        cards = spanish_deck(self.deck)
        if self.deck == 40:
            gone = set(parse_cards(dict(self.removed).get(players, ())))
            cards = tuple(c for c in cards if c not in gone)
        return cards

    def strength_order(self) -> tuple[int, ...]:
        """Ranks from highest to lowest for this deck (the 9 and 8 go just above the 7)."""
        order = [r for r in self.rank_order if r not in (8, 9)]
        if self.deck == 48:
            if 8 in self.rank_order and 9 in self.rank_order:
                return self.rank_order
            at = order.index(7)
            order[at:at] = [9, 8]
        return tuple(order)

    def card_points(self, card: Card) -> int:
        """The points a card scores."""
        return self.point_table[card.index]

    @cached_property
    def point_table(self) -> tuple[int, ...]:
        """Points of every card, indexed by :attr:`Card.index` (the engine's lookup table)."""
        by_rank = dict(self.points)
        return tuple(by_rank.get((i % 12) + 1, 0) for i in range(48))

    @cached_property
    def strength_table(self) -> tuple[int, ...]:
        """Strength of every card within its suit (higher wins), indexed by :attr:`Card.index`."""
        order = self.strength_order()
        strength = {rank: len(order) - i for i, rank in enumerate(order)}
        return tuple(strength.get((i % 12) + 1, 0) for i in range(48))

    @cached_property
    def exchange_table(self) -> tuple[Card | None, ...]:
        """For every face-up card (by index), the trump that may be given for it, or ``None``."""
        table: list[Card | None] = [None] * 48
        if self.trump_exchange == "off":
            return tuple(table)
        present = set(self.strength_order())
        for given, taken in self.exchange_with:
            for rank in taken:
                if rank in present and given in present:
                    for suit in Suit:
                        table[Card(rank, suit).index] = Card(given, suit)
        return tuple(table)

    def describe(self) -> str:
        """A one-paragraph summary of the rules, for ``brisca rules`` and the docs."""
        pts = ", ".join(f"{r}={p}" for r, p in self.points)
        return (
            f"{self.title}: {self.deck} cards, players {'/'.join(map(str, self.player_counts))}, "
            f"ranks {' '.join(map(str, self.strength_order()))}, points {pts}, "
            f"trump exchange {self.trump_exchange}, match to {self.target_hands} hands"
        )


def _to_json(name: str, value: Any) -> Any:
    if name == "points":
        return {str(r): p for r, p in value}
    if name == "exchange_with":
        return {str(g): list(t) for g, t in value}
    if isinstance(value, tuple):
        return list(value)
    return value


# ------------------------------------------------------------------- registry

_REGISTRY: dict[str, Rules] = {}
_ALIASES: dict[str, str] = {}


def register_variant(rules: Rules, *aliases: str) -> Rules:
    """Add a preset to the registry under its ``variant`` name and any aliases."""
    _REGISTRY[rules.variant] = rules
    for alias in aliases:
        _ALIASES[alias] = rules.variant
    return rules


def find_variant(name: str) -> Rules:
    """The preset called ``name`` (or one of its aliases); :class:`RulesError` if there is none.

    >>> find_variant("brisca").variant
    'spanish'
    """
    if not isinstance(name, str):
        raise RulesError(f"a variant is named by a string, not {name!r}")
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return _REGISTRY[key]
    except KeyError:
        known = sorted(_REGISTRY)
        hint = difflib.get_close_matches(key, known + sorted(_ALIASES), n=1)
        extra = f" (did you mean {hint[0]!r}?)" if hint else ""
        raise RulesError(f"unknown variant {name!r}{extra}; known: {', '.join(known)}") from None


def variant_names() -> list[str]:
    """The names of all registered presets."""
    return sorted(_REGISTRY)


def make_rules(variant: str | Rules = "spanish", options: Mapping[str, object] | None = None) -> Rules:
    """A preset (by name or as given) with ``options`` applied."""
    if type(variant) is Rules and not options:
        return variant
    base = find_variant(variant) if isinstance(variant, str) else variant
    return base.with_options(options or {})


def parse_option_text(text: str) -> tuple[str, object]:
    """Read a CLI ``name=value`` override; the value is JSON when it parses as JSON, else a string.

    >>> parse_option_text("deck=48"), parse_option_text("trump_exchange=off")
    (('deck', 48), ('trump_exchange', 'off'))
    """
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise RulesError(f"a rule option is written name=value, not {text!r}")
    try:
        value: object = json.loads(raw)
    except json.JSONDecodeError:
        value = raw.strip()
    return name.strip(), value


SPANISH = register_variant(
    Rules(
        variant="spanish",
        title="Brisca (Spanish)",
        doc=(
            "The Spanish game as the Fournier rules (source 001) and the encyclopedia article (source 000)"
            " describe it: 40 cards, 2, 3, 4 or 6 players (partnerships with 4 and 6), three cards each,"
            " the next card turned up for trump, no duty to follow, the trump exchange for a seat that has"
            " won a trick, 120 card points, the side with most points wins the hand, two hands win the match."
        ),
    ),
    "brisca", "es",
)
