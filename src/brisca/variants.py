"""The presets: each a :class:`~brisca.rules.Rules` with its sources and the readings it chose.

The sources (``shared/seeds/``) disagree with each other; every disagreement is a
rule option, and each preset says here which reading it took. ``brisca rules NAME``
and ``docs/variants/NAME.md`` are generated from this data.
"""

from __future__ import annotations

import dataclasses

from brisca.rules import Rules, register_variant

SPANISH = register_variant(
    Rules(
        variant="spanish",
        title="Brisca (Spanish)",
        sources=("001 (Fournier rules)", "000 (encyclopedia articles)", "004 (club rules, Villar de Cañas)"),
        readings=(
            "Duty of play: none. Sources 001 and 000 (first article) let any card be played; the second article of"
            " 000 requires following suit. Option `follow` offers the stricter readings.",
            "Trump exchange: after the seat has won a trick (000: 'provided that the player has won at least one"
            " trick'; 001 completes an announced exchange after a win). `trump_exchange: any_time` and"
            " `before_penultimate` (000, second article) are the other readings.",
            "A 7 given in an exchange can later be taken with the 2 (`exchange_chain: true`).",
            "A 60-60 hand is drawn and does not count (`tie: draw`). 001 awards the hand to all tied players, 000"
            " (first article) to the side with more cards (`tie: most_cards`), 004 and the second article of 000"
            " replay it (`tie: replay`).",
            "The match is won by the first side to win two hands (`target_hands: 2`); the sources leave the number"
            " to the players (001: 'the agreed number of hands'; 000: 3, 5 or 7).",
            "With 6 players the four 2s are removed (004); with 3 players the 2 of oros.",
        ),
        doc=(
            "The Spanish game: 40 cards, 2, 3, 4 or 6 players (partnerships with 4 and 6), three cards each, the"
            " next card turned up for trump, no duty to follow, the trump exchange for a seat that has won a"
            " trick, 120 card points, the side with most points wins the hand, two hands win the match."
        ),
    ),
    "brisca", "es",
)

BRISCOLA = register_variant(
    dataclasses.replace(
        SPANISH,
        variant="briscola",
        title="Briscola (Italian)",
        player_counts=(2, 3, 4),
        trump_exchange="off",
        tie="replay",
        partners_look=True,
        card_names="italian",
        sources=("002 (Italian Briscola)", "000 (encyclopedia articles)"),
        readings=(
            "Italian card and suit names: asso, tre, re, cavallo, fante; denari, coppe, spade, bastoni.",
            "No trump exchange (002 does not have it).",
            "2, 3 or 4 players; with 4, partnerships, or each for himself with `teams: false` (002, 'Four Player"
            " Non-Partnership Briscola').",
            "With 3 players one 2 is removed (002: 'any one card of rank two'): the 2 of denari.",
            "A tie for the most replays the hand (002, for 2, 3 and 4 players): `tie: replay`, the same dealer"
            " dealing again.",
            "When the stock runs out, partners see each other's hands (`partners_look: true`, 002); turn it off"
            " for the plain game.",
            "Communication (002 lists open talk, signals, both, or none) is off by default; `signals: partner` or"
            " `open` choose the others.",
            "The match is won by the first side to win two hands (002).",
        ),
        doc="Italian Briscola as source 002 gives it: no exchange, ties replayed, partners look at each other's"
            " hands when the stock runs out.",
    ),
    "italian",
)

BIXKLA = register_variant(
    dataclasses.replace(
        BRISCOLA,
        variant="bixkla",
        title="Bixkla (Malta)",
        player_counts=(4,),
        rank_order=(1, 3, 12, 10, 11, 7, 6, 5, 4, 2),
        points=((1, 11), (3, 10), (12, 4), (10, 3), (11, 2)),
        tie="draw",
        partners_look=False,
        signals="partner",
        sources=("002 (Bixkla)",),
        readings=(
            "Rank 1 3 12 10 11 7 6 5 4 2: the jack (10) ranks above the knight (11), and scores 3 to its 2.",
            "4 players in two partnerships (002).",
            "A tie is a drawn game with no winner (002): `tie: draw`.",
            "Partner signals are 'commonplace' (002): `signals: partner`.",
            "002 plays 'a set number of hands'; we play to two hands won, like Briscola.",
        ),
        doc="The Maltese game: Briscola with the jack above the knight, four players in pairs, signals allowed.",
    ),
    "maltese",
)

LOMBARD = register_variant(
    dataclasses.replace(
        BRISCOLA,
        variant="lombard",
        title="Briscola (Lombard values)",
        rank_order=(1, 7, 12, 11, 10, 3, 6, 5, 4, 2),
        points=((1, 11), (7, 10), (12, 4), (11, 3), (10, 2)),
        sources=("000 (Briscola: 'In parts of Lombardy and Piedmont a Seven is worth 10 points')",),
        readings=(
            "The seven scores 10 and ranks second; the three scores nothing and ranks where the seven was:"
            " rank 1 7 12 11 10 3 6 5 4 2.",
            "Everything else as `briscola`.",
        ),
        doc="Briscola where the seven takes the three's place and value.",
    ),
    "piedmont",
)

TUSCAN = register_variant(
    dataclasses.replace(
        BRISCOLA,
        variant="tuscan",
        title="Briscola (Tuscan values)",
        rank_order=(1, 3, 12, 10, 11, 7, 6, 5, 4, 2),
        points=((1, 11), (3, 10), (12, 4), (10, 3), (11, 2)),
        sources=("000 (Briscola: 'In parts of Tuscany the values of the Jack and Knight are reversed')",),
        readings=(
            "The jack and the knight swap points and rank: rank 1 3 12 10 11 7 6 5 4 2, jack 3, knight 2.",
            "Everything else as `briscola`.",
        ),
        doc="Briscola with the jack and the knight swapped.",
    ),
)

MEXICAN = register_variant(
    dataclasses.replace(
        SPANISH,
        variant="mexican",
        title="Brisca (Mexican)",
        hand_winner="least",
        sources=("000 (Mexican Brisca: 'The objective is not to add more than 11 total points')",),
        readings=(
            "A side that takes more than 11 card points loses the hand; if both sides do, or neither, the lower"
            " total wins. Between two sides (120 points in all) this is always 'the lower total wins', and with"
            " more sides we read it the same way: `hand_winner: least`. A tie for the fewest is a drawn hand.",
            "Everything else as `spanish`.",
        ),
        doc="Brisca played to take as few points as possible.",
    ),
)

MUERTE = register_variant(
    dataclasses.replace(
        SPANISH,
        variant="muerte-al-tres",
        title="Muerte al Tres (Cuba)",
        kill_three=True,
        sources=("000 (Muerte al Tres)",),
        readings=(
            "The ace of trumps may not be played until the three of trumps has been played, except in the last"
            " trick; this comes before any duty of play.",
            "When the ace of trumps takes the three of trumps the hand ends at once, won by the side of the seat"
            " that played the ace; otherwise the hand is scored normally.",
            "Everything else as `spanish`.",
        ),
        doc="Brisca where the ace of trumps hunts the three.",
    ),
    "muerte", "muerte_al_tres",
)

MARIAJE = register_variant(
    dataclasses.replace(
        BRISCOLA,
        variant="mariaje",
        title="Mariaje / Cinquecento (Sicily)",
        pair_bonus=True,
        match="target_points",
        target_points=500,
        tie="draw",
        partners_look=False,
        sources=("000 (Mariaje or Cinquecento)",),
        readings=(
            "A side that captures the king and the knight of one suit scores 40 more for trumps, 20 for another"
            " suit (`pair_bonus`).",
            "The match is to 500 points over the hands (the name Cinquecento): `match: target_points`,"
            " `target_points: 500`. If both sides pass 500 in the same hand the higher total wins; level totals"
            " play on.",
            "A hand's points still decide the hand, a tie being drawn; they are added to the match total either"
            " way.",
            "Played like Briscola otherwise (Sicilian), without looking at the partner's hand.",
        ),
        doc="Briscola with 40 and 20 for capturing king and knight, played to 500.",
    ),
    "cinquecento",
)

SCOPERTA = register_variant(
    dataclasses.replace(
        BRISCOLA,
        variant="scoperta",
        title="Briscola scoperta (open hands)",
        open_hands=True,
        partners_look=False,
        sources=("002 (Briscola Scoperta)", "000 (Briscola scoperta)"),
        readings=(
            "Every hand is played face up: every view shows every hand, but never the order of the stock.",
            "2, 3 or 4 players (002); 'normally played between two' (000).",
            "Everything else as `briscola`.",
        ),
        doc="Briscola with every hand face up.",
    ),
    "briscola-scoperta", "open",
)
