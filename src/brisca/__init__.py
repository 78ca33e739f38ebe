"""Brisca and its family of trick-taking card games: engine, records, players.

    >>> import brisca
    >>> game = brisca.Game("spanish", players=2, seed=1)
    >>> game.view(0).stock_count
    34
"""

import brisca.variants  # noqa: F401  (the presets register themselves in brisca.rules' registry)
from brisca.actions import Action, Announce, Exchange, Play
from brisca.cards import ITALIAN, SPANISH, Card, Notation, Rank, Suit, find_notation, parse_cards, spanish_deck
from brisca.errors import (
    BriscaError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    RecordError,
    RulesError,
)
from brisca.game import Game, HandResult, InvalidDeckError, Match, PartnerDraw, Trick, View
from brisca.rules import Rules, find_variant, make_rules, variant_names

__version__ = "0.1.0"

__all__ = [
    "ITALIAN", "SPANISH", "Action", "Announce", "BriscaError", "Card", "Exchange", "Game", "HandResult",
    "IllegalActionError", "InvalidActionError", "InvalidCardError", "InvalidDeckError", "Match", "Notation",
    "PartnerDraw", "Play", "Rank",
    "RecordError", "Rules", "RulesError", "Suit", "Trick", "View", "find_notation", "find_variant", "make_rules",
    "parse_cards", "spanish_deck", "variant_names",
]
