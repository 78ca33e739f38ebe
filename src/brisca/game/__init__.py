"""The game: one hand (deal) of Brisca as a state machine, and a match of hands.

    >>> from brisca.game import Game, Match
    >>> game = Game("spanish", players=2, seed=7)
    >>> game.apply(game.legal_actions()[0])
    >>> game.turn, Match("spanish", 2, seed=1).game.players
    (1, 2)

One concept a module, each built on those below it:

- :mod:`brisca.game.match`: a match of hands, and the draws for the dealer and for partners that open it;
- :mod:`brisca.game.ruled`: the hand under rules beyond the plain game (duties, auctions, calls, signals);
- :mod:`brisca.game.hand`: the hand itself, :class:`Game`: the deal, tricks, draws, the trump exchange;
- :mod:`brisca.game.view`: what one seat may see of a hand, the only projection interfaces read;
- :mod:`brisca.game.results`: what a hand leaves behind (tricks, exchanges, the contract, the result);
- :mod:`brisca.game.deck`: the deck before the deal, checked, shuffled, cut.

Every name is importable from here, where the rest of the project takes them.
"""

from brisca.game.deck import MIN_CUT, InvalidDeckError, check_deck, cut, shuffled
from brisca.game.hand import Game
from brisca.game.match import (
    DealerDraw,
    Match,
    PartnerDraw,
    draw_for_dealer,
    draw_for_partners,
    draw_leaders,
    face_values,
    hand_game_points,
    hand_standing,
)
from brisca.game.results import Bonus, Contract, ExchangeEvent, HandResult, Trick, winning_index
from brisca.game.ruled import PHASES, SIGNAL_RANKS, RuledGame
from brisca.game.view import View

__all__ = [
    "MIN_CUT", "PHASES", "SIGNAL_RANKS", "Bonus", "Contract", "DealerDraw", "ExchangeEvent", "Game", "HandResult",
    "InvalidDeckError", "Match", "PartnerDraw", "RuledGame", "Trick", "View", "check_deck", "cut", "draw_for_dealer",
    "draw_for_partners", "draw_leaders", "face_values", "hand_game_points", "hand_standing",
    "shuffled", "winning_index",
]
