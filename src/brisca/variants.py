"""The presets: each a :class:`~brisca.rules.Rules` with its sources and the readings it chose.

The sources (the rule texts :data:`brisca.rulebook.SOURCES` names) disagree with each other; every disagreement is a
rule option, and each preset says here which reading it took. ``brisca rules NAME``
and the rule pages (``docs/variants/NAME.md``, in Spanish ``docs/es/reglas/NAME.md``, in Italian
``docs/it/regole/NAME.md``; ``python -m brisca.rulebook docs``) are generated from this data.
"""

from __future__ import annotations

import dataclasses

from brisca.rules import Rules, register_variant

SPANISH = register_variant(
    Rules(
        variant="spanish",
        title="Brisca (Spanish)",
        signal_asks=False,
        sources=("Fournier", "Encyclopedia", "Villar de Cañas"),
        readings=(
            "Duty of play: none. Fournier and the Encyclopedia (first article) let any card be played; the second"
            " article of"
            " Encyclopedia requires following suit. Option `follow` offers the stricter readings.",
            "Trump exchange: on the seat's turn, once it has won a trick (`trump_exchange: after_win`), what the"
            " sources share: Encyclopedia asks that 'the player in question has won at least one trick', and Fournier"
            " completes"
            " an exchange only after a trick won. Each reads it further, and each reading is an option:"
            " `trump_exchange: announced` is Fournier's ('To exchange it, the player must notify his opponent by"
            " placing"
            " his trump two or seven under the face-up trump. Then, the next time after the player wins a trick,"
            " before the stock on the table is finished, he can add the face-up trump to his hand. If he does not"
            " win any trick before the face-up trump is drawn from the stock, then, he simply takes his two or"
            " seven back.'): the trump leaves the hand, in everybody's sight, so the seat plays with a card fewer"
            " until the exchange is made, as it wins its next trick and before the draw, or the trump comes back"
            " once the face-up card is drawn; `trump_exchange: out_of_turn` is Encyclopedia's first article ('at any"
            " time,"
            " even while playing a trick, provided that the player in question has won at least one trick'): a"
            " seat may exchange while another is to act; `before_penultimate` is the second article of Encyclopedia"
            " ('after winning a trick (but not in the penultimate trick)'). `any_time` drops the trick won that"
            " every source asks for: a seat may exchange on its turn from the first trick. No source has it"
            " (Encyclopedia's 'at any time' is `out_of_turn`, which keeps the trick won); it stays an option for tables"
            " that play it. The sources disagree, so the default stays the reading they share.",
            "A 7 given in an exchange can later be taken with the 2 (`exchange_chain: true`).",
            "The face-up card is the stock's last card, taken by the last seat to draw in the last round of draws"
            " (`face_up_to: last_to_draw`; Fournier: 'The remaining stock is placed face down across the face-up"
            " trump', and each player draws 'starting by the winner of the trick'). The second article of"
            " Encyclopedia gives it to the winner of that round's trick ('This card becomes the last one drawn"
            " from the [stock] by the player who wins the final trick before the [stock] is exhausted'):"
            " `face_up_to: trick_winner`, the others drawing the stock's other cards in turn.",
            "Claims are off (`claim: false`); `claim: true` plays Encyclopedia's ('if a team has in its tricks the"
            " three highest trumps, it announces this and collects all the cards, without having to play the"
            " final tricks, which they would win anyway'), which reads two ways. The default is the seat to lead"
            " claiming on the trumps it sees itself, its own and any partner cards the rules show it (`claim_by:"
            " seat`). The text's 'team' is `claim_by: side`: the side's hands together; as a seat offered a claim"
            " on its partner's hidden cards would learn them, nobody is offered it, and the claim is made for the"
            " side as soon as its hands hold the best trumps for every trick left. A side that took every trick"
            " played and claims the rest has taken every trick (capote, where `capote` is on).",
            "A 60-60 hand is drawn and does not count (`tie: draw`). Fournier awards the hand to all tied players"
            " (`tie: shared`: 'When two or more players make the same highest score, the hand is awarded by all of"
            " them.'), as one passage of the second article of the Encyclopedia does ('Ties in a hand's points are"
            " shared"
            " among"
            " the tied players.'); Encyclopedia (first article) gives it to the side with more cards (`tie:"
            " most_cards`), Villar de Cañas"
            " and other passages of the second article of the Encyclopedia replay it (`tie: replay`). The sources"
            " disagree, so"
            " the default stays a draw.",
            "Two sides reaching the target together (possible with `tie: shared`) play on until one leads (Fournier:"
            " 'If"
            " two or more players reach that number of hands at the same time, the game continues until the tie is"
            " broken.').",
            "The match is won by the first side to win two hands (`target_hands: 2`); the sources leave the number"
            " to the players (Fournier: 'the agreed number of hands'; Encyclopedia: 3, 5 or 7). The second article of"
            " Encyclopedia plays"
            " a set number of hands instead ('commonly one, three, or six'), the most hands won winning and a"
            " level match playing on: `match: fixed_hands` with `hands: 1`, `3` or `6`.",
            "With 4 players the sides are even seats against odd, as the players sat (`partners: fixed`). Fournier has"
            " the four draw for partners ('The two players with the highest cards play against the other two. The"
            " player who draws the highest card has the choice of choosing seat and is the dealer.'):"
            " `partners: draw`. The sources do not say what a tie in the draw does: tied players draw again. The"
            " highest's choice of seat is made for him: seats are numbered round the table, so the choice only"
            " says which opponent sits where; he takes seat 0 and deals, his partner sits opposite at seat 2, and"
            " the higher of the two lowest sits at seat 1 and plays first.",
            "With 6 players the four 2s are removed (Villar de Cañas); with 3 players the 2 of oros.",
            "Signals are off, as Fournier and Encyclopedia play a plain game; a table that plays them (`signals:"
            " partner`) makes"
            " the señas of Fournier and Villar de Cañas (`signal_set: spanish`), and nobody asks for them"
            " (`signal_asks: false`,"
            " Villar de Cañas: 'No se deben hacer señas falsas, ni tampoco pedirlas'); Fournier's two asks, ask-points"
            " and"
            " ask-cards, come back with `signal_asks: true`.",
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
        target_hands_alone=1,
        partners_look=True,
        signal_set="italian",
        card_names="italian",
        sources=("Briscola guide", "Encyclopedia"),
        readings=(
            "The Italian notation (`card_names: italian`): ranks A 2-7 F C R (asso, fante, cavallo, re), suits D C S"
            " B (denari, coppe, spade, bastoni), like RD for the re di denari; cards are named in the reader's"
            " language.",
            "No trump exchange (Briscola guide does not have it).",
            "2, 3 or 4 players; with 4, partnerships, or each for himself with `teams: false` (Briscola guide, 'Four"
            " Player"
            " Non-Partnership Briscola').",
            "With 3 players one 2 is removed (Briscola guide: 'any one card of rank two'): the 2 of denari.",
            "A tie for the most replays the hand (Briscola guide, for 2, 3 and 4 players): `tie: replay`, the same"
            " dealer"
            " dealing again.",
            "The last player to draw takes the face-up card (Briscola guide: 'the last player to draw from the pile"
            " taking the face-up, Briscola card'): `face_up_to: last_to_draw`.",
            "When the stock runs out, partners see each other's hands (`partners_look: true`, Briscola guide); turn it"
            " off"
            " for the plain game.",
            "Communication (Briscola guide: 'It should be decided upon before the start of the game which (if any) of"
            " these"
            " communication schemes are to be allowed') is closed by default (`signals: off`). With 4 players in"
            " partnerships a table chooses Briscola guide's others: `signals: partner` (the signals, seen by the"
            " partner"
            " alone), `open` (open talk, heard by everybody) or `combination` (both: 'a team may prefer to talk"
            " openly in some cases ... but also use signaling'; each signal is then made to the partner or said"
            " aloud). The signals are Briscola guide's own table (`signal_set: italian`): the ace, three, king, queen"
            " (the"
            " cavallo) and jack of the briscola suit, and 'High card in non-briscola suit' (`high-card`, a carico:"
            " an ace or a three of another suit). Talk is kept truthful, as signals are (Briscola guide lets open talk"
            " exaggerate; a program cannot tell a boast from a lie). With 2 or 3 players, or 4 each for himself,"
            " there is no partner to signal to (Briscola guide: 'there is no signaling to another player').",
            "With 4 players in partnerships the match is won by the first side to win two hands (Briscola guide:"
            " 'Whichever team is the first to win two hands is declared the winner'). Each for himself (2 or 3 players,"
            " or 4 with `teams: false`) a hand is the whole game (`target_hands_alone: 1`; Briscola guide, two players:"
            " 'Each hand is usually played as a complete game, with the player capturing the most points in cards"
            " during the hand declared the winner'; three: 'Each hand is usually played as a complete game. However, if"
            " two or more players are tied for the highest score at the end of a hand, a replacement hand should"
            " be played out amongst all three players'; four without partners: 'Each hand is usually considered a"
            " complete game'), and a tie for the most is replayed among all (`tie: replay`). `target_hands_alone:"
            " 0` plays those counts to two hands won too.",
            "Partners are even seats against odd, as the players sat; Briscola guide's draw ('all four players draw one"
            " card from a shuffled deck. The player's drawing the two highest cards play as partners against the"
            " players drawing the two lowest. The player drawing the highest card has first selection of seats"
            " and is also set as the first dealer.') is `partners: draw`, read as in `spanish`.",
        ),
        doc="Italian Briscola as source Briscola guide gives it: no exchange, ties replayed, partners look at each"
            " other's"
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
        target_hands_alone=0,
        match="fixed_hands",
        hands=3,
        partners_look=False,
        signals="partner",
        sources=("Briscola guide (Bixkla)", "Encyclopedia (Brisca: 'commonly one, three, or six' hands)"),
        readings=(
            "Rank 1 3 12 10 11 7 6 5 4 2: the jack (10) ranks above the knight (11), and scores 3 to its 2.",
            "4 players in two partnerships (Briscola guide).",
            "A tie is a drawn game with no winner (Briscola guide): `tie: draw`.",
            "Partner signals are 'commonplace' (Briscola guide: 'As in Briscola and some of it's other variants, it is"
            " commonplace for players to use special signaling'): `signals: partner`, with Briscola's table"
            " (`signal_set: italian`).",
            "The match is a set number of hands (`match: fixed_hands`; Briscola guide: 'After a set number of hands,"
            " the team with the highest number of Game Points (equal to the number of Games won) is declared the"
            " winner'): each hand won is a game point, and the side with more of them after the last hand wins. A"
            " drawn hand is one of the set number, won by nobody. Briscola guide does not give the number: the"
            " preset plays three (`hands: 3`), the middle of the Encyclopedia's 'commonly one, three, or six' for"
            " the match of a set number of hands; `hands: N` sets another. Briscola guide says nothing of sides"
            " level after the last hand: they play one more hand at a time until one leads (Encyclopedia: 'overall"
            " ties are resolved by additional play').",
            "Partners and seats may be drawn as in Briscola (Briscola guide: 'Determination of partnerships, seating"
            " positions"
            " and first dealer can be performed using the same procedures as in standard Briscola'):"
            " `partners: draw`.",
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
        sources=("Encyclopedia (Briscola: 'In parts of Lombardy and Piedmont a Seven is worth 10 points')",),
        readings=(
            "The seven scores 10 and ranks second; the three scores nothing and ranks where the seven was:"
            " rank 1 7 12 11 10 3 6 5 4 2.",
            "Encyclopedia gives the values only; this preset moves the ranks with them, as the seven's value suggests a"
            " seven that takes tricks like the three it replaces. `lombard-kept-ranks` reads the passage as it is"
            " written: the values change and Briscola's rank order stays.",
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
        sources=("Encyclopedia (Briscola: 'In parts of Tuscany the values of the Jack and Knight are reversed')",),
        readings=(
            "The jack and the knight swap points and rank: rank 1 3 12 10 11 7 6 5 4 2, jack 3, knight 2.",
            "Encyclopedia gives the values only; this preset moves the ranks with them (the jack worth 3 above the"
            " knight"
            " worth 2). `tuscan-kept-ranks` reads the passage as it is written: the values change and Briscola's"
            " rank order stays.",
            "Everything else as `briscola`.",
        ),
        doc="Briscola with the jack and the knight swapped.",
    ),
)

LOMBARD_KEPT_RANKS = register_variant(
    dataclasses.replace(
        BRISCOLA,
        variant="lombard-kept-ranks",
        title="Briscola (Lombard values, ranks kept)",
        points=((1, 11), (7, 10), (12, 4), (11, 3), (10, 2)),
        sources=("Encyclopedia (Briscola: 'In parts of Lombardy and Piedmont a Seven is worth 10 points and a Three is"
                 " worth"
                 " nothing')",),
        readings=(
            "Encyclopedia changes the values only ('a Seven is worth 10 points and a Three is worth nothing'), and says"
            " nothing of the order in which cards take tricks: this preset keeps Briscola's rank order, 1 3 12 11"
            " 10 7 6 5 4 2. The three still ranks second, worth nothing, and the seven, worth 10, still ranks"
            " below the jack, so a seven can be taken by a jack of its suit.",
            "The preset `lombard` reads the passage the other way: the ranks move with the values (the seven"
            " second, the three where the seven was).",
            "Everything else as `briscola`.",
        ),
        doc="Briscola with the Lombard values (the seven worth 10, the three nothing) and Briscola's rank order.",
    ),
    "piedmont-kept-ranks",
)

TUSCAN_KEPT_RANKS = register_variant(
    dataclasses.replace(
        BRISCOLA,
        variant="tuscan-kept-ranks",
        title="Briscola (Tuscan values, ranks kept)",
        points=((1, 11), (3, 10), (12, 4), (10, 3), (11, 2)),
        sources=("Encyclopedia (Briscola: 'In parts of Tuscany the values of the Jack and Knight are reversed')",),
        readings=(
            "Encyclopedia reverses the values only ('the values of the Jack and Knight are reversed'): the jack scores"
            " 3"
            " and the knight 2, and this preset keeps Briscola's rank order, 1 3 12 11 10 7 6 5 4 2, so the"
            " knight, worth 2, still takes the jack, worth 3.",
            "The preset `tuscan` reads the passage the other way: the jack and the knight swap rank too (rank"
            " 1 3 12 10 11 7 6 5 4 2).",
            "Everything else as `briscola`.",
        ),
        doc="Briscola with the Tuscan values (the jack worth 3, the knight 2) and Briscola's rank order.",
    ),
)

MEXICAN = register_variant(
    dataclasses.replace(
        SPANISH,
        variant="mexican",
        title="Brisca (Mexican)",
        hand_winner="least",
        sources=("Encyclopedia (Mexican Brisca: 'The objective is not to add more than 11 total points')",),
        readings=(
            "The fewest points win the hand (`hand_winner: least`); a tie for the fewest is a drawn hand. Encyclopedia"
            " gives one sentence: 'The objective is not to add more than 11 total points at the end of the game.' Read"
            " word for word, that is `point_limit: 11`: every side within 11 is awarded the hand (116-4-0 among"
            " three: the 4 and the 0 both win, each credited one hand won), a side over 11 loses, and when every"
            " side is over 11 nobody wins and the hand does not count. The preset plays the fewest points instead,"
            " because the sentence is Encyclopedia's 'another way to win' and says nothing of a hand where everybody is"
            " over 11, which is most hands: between two sides the 120 points make a side within 11 the lower anyway, so"
            " the two readings differ only where both are over, and there the limit leaves the hand unwon (most"
            " deals of a match would count for nobody) while the fewest points still decide it. `--rule"
            " point_limit=11` plays the eleven.",
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
        sources=("Encyclopedia (Muerte al Tres)",),
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
        target_hands_alone=0,
        tie="draw",
        partners_look=False,
        sources=("Encyclopedia (Mariaje or Cinquecento)",),
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
        sources=("Briscola guide (Briscola Scoperta)", "Encyclopedia (Briscola scoperta)"),
        readings=(
            "Every hand is played face up: every view shows every hand, but never the order of the stock.",
            "2, 3 or 4 players (Briscola guide); 'normally played between two' (Encyclopedia).",
            "Everything else as `briscola`.",
        ),
        doc="Briscola with every hand face up.",
    ),
    "briscola-scoperta", "open",
)

CHILEAN = register_variant(
    dataclasses.replace(
        SPANISH,
        variant="chilean",
        title="Brisca porteña (Chile)",
        player_counts=(4,),
        rank_order=(1, 2, 12, 11, 10, 7, 6, 5, 4, 3),
        points=((1, 11), (2, 10), (12, 4), (11, 3), (10, 2)),
        hand_size=10,
        deal="cutter_chooses",
        cutter="right",
        dealer_draw="face_value",
        trump_from="dealer",
        trump_exchange="off",
        follow="descanso",
        lead_two="guarded",
        declarations="vales",
        last_trick_bonus=10,
        capote="hand",
        tie="replay",
        target_hands=1,
        sources=("Porteña",),
        readings=(
            "Every card is dealt, 10 each to 4 players in pairs; the trump card is the dealer's and everybody"
            " sees it until he plays it.",
            "The dealer's opponent on his right cuts (`cutter: right`; Porteña: 'El contrincante de su derecha, alzará"
            " el mazo'), the seat after him in the order of play, who then leads ('Parte o sale quien alzó el"
            " mazo'). Before each deal he chooses how the deck is cut and dealt (`deal: cutter_chooses`; Porteña: 'el"
            " contrincante alzador tiene la opción de ejecutarlo de cualquiera de las tres maneras'): `alce`"
            " (packets of 5, the dealer's last card turned), `golpe` (10 in a row to each seat; the last card of"
            " each opponent's packet is shown and the bottom card is the trump) or `pelada` (the top card is the"
            " trump; each opponent's first card is shown, and the next while they are trumps; the cutter must lead"
            " a trump to the first trick). In a golpe the dealer's partner gets his 10 'con la opción, pero no"
            " obligación, de mostrar la última': the preset keeps it hidden (`golpe_partner_shows: false`), and a"
            " table that agrees he shows it sets `golpe_partner_shows: true` (the choice is the table's for every"
            " golpe, not the partner's deal by deal). A table that agreed to two ways only sets `cut_ways` ('a"
            " menos que se haya previamente establecido reducir el juego a dos tipos de alce'); one way alone is"
            " refused ('Nunca puede jugarse con un solo tipo de alce'); `deal: alce`, `golpe` or `pelada` fix the"
            " way for every hand.",
            "The first dealer is drawn by face value (`dealer_draw: face_value`; Porteña: 'Quien obtenga el número"
            " mayor (de 1 a 10, el rey vale 10, el caballo 9 y la sota 8) las reparte. De haber empate, la pareja"
            " que sume más números gana'): the ace counts 1, the highest number deals; where seats of both pairs"
            " tie for it, the pair whose two cards add up to more wins the deal, and seats still level draw again.",
            "Duties (cargar, fallar, descanso; `follow: descanso`): the suit led is always followed, even after a"
            " trump ('La pinta siempre debe ser la pedida, no importa si el jugador previo puso triunfo'). The duties"
            " to beat and to trump are owed to the opponents ('deben siempre intentar cargar a su contrincante y si"
            " no tienen la pinta, fallarles el pedido'): a seat beats the best card of the suit led if an opponent"
            " holds the trick with it and the seat can, and never has to beat its partner's card; with none of"
            " the suit led it plays a trump, and when its partner holds the trick with a card that is not a trump,"
            " it rests (descanso) with any card ('su pareja descansará con alguna carta que estime conveniente':"
            " a brisca, a useless card or a high trump). There is no duty to overtrump.",
            "When the partner holds the trick only by a trump (he trumped an opponent's lead), a seat with none of"
            " the suit led must still trump, any trump. We follow Porteña's definition of the descanso, which is"
            " given with plain cards: 'El jugador dará descansos a su pareja, cuando tenga cartas grandes (que no"
            " sean triunfo) de alguna pinta que su pareja no tiene'; a partner's trump is no descanso, and the"
            " lead then was the opponents', which the seat is told to trump ('fallarles el pedido'). The general"
            " rule of Porteña says the same ('De no tener cartas de la pinta pedida y sí tener triunfos y no fallar la"
            " jugada con triunfo, se cobrará renuncio').",
            "`follow: suit_beat_trump` is the duty paragraph of Porteña read alone ('Cargar las cartas es"
            " obligatorio, a menos que no se pueda'), whoever holds the trick: a seat beats or trumps its"
            " partner's card too. No other source has that duty; it was this preset's reading before the descanso"
            " passage was taken into account, and stays an option for tables that play it.",
            "A 2 may be led only with the ace of its suit in hand, once that ace has been played, once the"
            " partner has failed to follow that suit, as the cutter's only trump in the first trick of a pelada,"
            " or when nothing else can be led (`lead_two: guarded`).",
            "Vales (latas): a side that holds the king and knight of a suit declares them in the trick where one"
            " of them is played, 40 in trumps and 20 otherwise, and the side that wins that trick scores them"
            " (`declarations: vales`). A seat declares on its own turn in that trick (before playing one of the"
            " pair while holding the other, or after its partner played one of them), and, its card down, at any"
            " moment until the trick is gathered (Porteña: 'si no lo tiene y su pareja sí lo tiene, su pareja lo marca"
            " sin importar si lo juega o no en aquella jugada. Sólo se puede marcar el vale en la jugada donde uno"
            " anuncia que tiene la pareja: de cerrarse la jugada, no se podrá marcar después'). In a program those"
            " moments are the ones after each card of the trick: after every card, while a king or knight of an"
            " undeclared pair lies in the trick and its other card is not known to be elsewhere, each seat of the"
            " side that played it whose card is down is asked in turn, and declares or passes. The other card is"
            " known to be elsewhere when it was played before, is played in this trick by an opponent, or is known"
            " to everybody to lie in an opponent's hand: the dealer's trump card while he holds it (Porteña: 'El"
            " triunfo es la única carta no jugada que debe estar visible para todos'), an opponent's last card"
            " shown in a golpe, an opponent's first cards shown in a pelada. Then nobody is asked. Who is asked"
            " depends on the cards seen by all alone, so being asked tells nobody what a seat holds; not marking"
            " is allowed ('no marcar un vale no es motivo de renuncio').",
            "The last trick scores 10 (`last_trick_bonus: 10`); taking all ten tricks is capote and wins outright"
            " the hand (`capote: hand`); Encyclopedia has capote win the whole match in Briscola ('capturing all tricks"
            " allows a player to win the game in a single deal'): `capote: match`.",
            "The side with more points wins. Source Porteña claims no tie is possible after its quick count, but a"
            " level final count can happen (say 65-65); the source then has each of the four draw a card from the"
            " spread deck and the pair with the higher total wins. A program has no spread deck to draw from, so"
            " the preset deals the hand again (`tie: replay`), which is as much a matter of luck.",
            "A game is one hand, as in the source's 'salida' play where the losing pair makes way"
            " (`target_hands: 1`); raise `target_hands` for a longer match.",
        ),
        doc="Chilean brisca porteña (source Porteña): four players in pairs, every card dealt, the 2 as the second"
            " brisca, duties to follow, beat and trump the opponents (a seat whose partner holds the trick rests),"
            " guarded leads of a 2, vales for king-knight pairs, 10 for the last trick and capote.",
    ),
    "porteña", "portena", "brisca-portena",
)

REMATADA = register_variant(
    dataclasses.replace(
        SPANISH,
        variant="rematada",
        title="Brisca rematada (Chile)",
        player_counts=(3,),
        teams=False,
        removed=((3, ("2O", "2C", "2E", "2B", "4O", "4C", "4E", "4B")),),
        hand_size=10,
        talon=2,
        trump_from="named",
        trump_exchange="off",
        bidding="points",
        min_bid=100,
        bid_step=10,
        max_bid=230,
        all_pass="last_must_bid",
        contract="solo",
        declarations="on_lead",
        last_trick_bonus=10,
        match="game_points",
        target_game_points=3,
        target_points=500,
        sources=("Encyclopedia (Brisca Rematada)",),
        readings=(
            "32 cards (no 2s, no 4s), 10 each to 3 players and 2 face down as the talon.",
            "The auction starts after the dealer: bids from 100 in steps of 10 (the sources give the minimum;"
            " the step is the usual one), or pass, which is final. Once two have passed the third wins; if he had"
            " not bid, he must bid at least 100 (`all_pass: last_must_bid`). The highest bid is 230, every point"
            " there is (120 in cards, 10 for the last trick, 100 in declarations).",
            "A pair is scored once: declared (`declarations: on_lead`) or captured (`pair_bonus: true`), never"
            " both, so the rules refuse both on at once, which would score a pair twice (a declarer could reach"
            " more than the 230 points there are).",
            "The winner shows the talon, takes it, lays 2 cards face down into his own scoring pile (their points"
            " are his), then names the trump suit and leads.",
            "No duty to follow (Encyclopedia, second article).",
            "A king-knight pair scores 20, 40 in trumps, for its holder, declared when he leads one of them after"
            " winning a trick (`declarations: on_lead`). The last trick scores 10. The second article of the"
            " Encyclopedia"
            " scores the pair when it is captured ('bonuses such as 10 points for the last trick and 20 or 40"
            " points for capturing kings and knights of the trump suit'): `pair_bonus: true` with"
            " `declarations: off` (the cards laid away from the talon are not captured in tricks).",
            "The match (`match: game_points`, `target_game_points: 3`), as the second article of the Encyclopedia has"
            " it:"
            " 'If"
            " the contractor secures at least the bid amount in points from captured cards, they earn one game"
            " point; failure results in each opponent gaining one game point [...] until a player reaches a"
            " predetermined number of game points, typically three.' Two defenders reaching 3 together play on"
            " until one leads. Each hand still shows the first article's score (`contract: solo`: the declarer"
            " scores his bid when he makes it, otherwise each defender half of it).",
            "The first article's match, those scores added up, is `match: target_points`; it names no target,"
            " so `target_points: 500` is the preset's; level leaders play on.",
            "Encyclopedia's tip, \"it is recommended not to exceed 170 points\" (120 card points, the king-knight pair"
            " of trumps for 40 and 10 for the last trick), is advice to bidders, not a rule: the highest bid stays"
            " 230; `--rule max_bid=170` plays the tip as a rule.",
        ),
        doc="Brisca rematada (source Encyclopedia): three players each for himself, 32 cards, an auction from 100, the"
            " talon to the winner who discards 2 and names the trump, declarations of king-knight pairs, and a"
            " game point to the declarer who makes his bid or to each defender when he is set, three to win.",
    ),
    "brisca-rematada",
)

CHIAMATA = register_variant(
    dataclasses.replace(
        BRISCOLA,
        variant="chiamata",
        title="Briscola chiamata (Italy)",
        player_counts=(5,),
        teams=False,
        hand_size=8,
        trump_from="called",
        tie="draw",
        partners_look=False,
        bidding="points",
        min_bid=61,
        bid_step=1,
        max_bid=120,
        all_pass="redeal",
        contract="called",
        match="target_points",
        target_points=11,
        target_hands_alone=0,
        sources=("Briscola guide (Briscola Chiamata, low-card bidding)", "Encyclopedia (encyclopedia articles)"),
        readings=(
            "Five players, 8 cards each, every card dealt, no card turned.",
            "The auction starts after the dealer; each bid is a number of card points higher than the last, from"
            " 61 (more than half of the 120; the sources give no minimum) to 120; a pass is final; it ends when"
            " one bidder is left. If everybody passes the hand is void and the next dealer deals"
            " (`all_pass: redeal`).",
            "The auction goes round in the order of play here, from the seat after the dealer, as the rematada"
            " auction of Encyclopedia does. Briscola guide turns it the other way ('a bidding round begins, starting"
            " with the player to the dealer's immediate right and continuing in a counter-clockwise direction around"
            " the table', while play starts 'at the dealer's immediate left' and goes clockwise): `auction_direction:"
            " against_play`. The direction changes who bids first and last, not what a bid is, and a table names"
            " the one it plays; the preset keeps one order for every auction of the program.",
            "This auction is also Encyclopedia's Chiamata a punti ('only the points to be won are declared, the suit"
            " and the card that will determine the pairs and the trump suit are declared only at the beginning of the"
            " deal'), which the alias `chiamata-punti` names: the bids are points only (`bidding: points`), and"
            " the bidder names the card, and with it the suit, when the play begins (`call_time: before_play`)."
            " Briscola guide's main form is the same game; what Encyclopedia sets it against is an auction that names"
            " the card while"
            " bidding, as Briscola guide's low-card form does (`bidding: low_card`).",
            "The bidder calls a card: its suit is trump and its holder the hidden partner; calling his own card,"
            " he plays alone. No view shows the partner until the called card is played. The bidder leads.",
            "No duty to follow, as in Briscola.",
            "Scoring (`contract: called`): made, the bidder +2, the partner +1, each other seat -1; set, the"
            " opposite; alone, +4 or -4 and each other seat -1 or +1.",
            "The first to 11 match points wins (Briscola guide: 'The first player to accumulate 11 points is declared"
            " the overall winner of the game'); if several reach it in one hand, the higher total wins and level"
            " leaders play on (`reached_together: higher`). Briscola guide goes on: 'If two or more players reach"
            " this total in the same hand, additional hands are played until one player completes a hand with"
            " more points than any other player', which also reads as more hands even when one of them is"
            " ahead: `reached_together: more_hands` plays on after any hand where several reach 11, and the first"
            " player to end a further hand ahead of every other wins. The preset takes the first reading, in which"
            " the player ahead when the target is reached has completed a hand with more points than any other.",
            "`bidding: low_card` (Briscola guide): each seat in turn names a rank once, lower than any named before, or"
            " passes; the lowest rank named wins, and its bidder names the suit of the called card"
            " (`trump O`). The bidder's side must then take 61 points (`min_bid`).",
            "Encyclopedia names three more variations: Chiamata Buia ('trumps are only declared after the first"
            " trick'),"
            " the preset `chiamata-buia` (`call_time: after_first_trick`); Chiamata a punti, this preset (above);"
            " and Briscola pazza (Gingo), of which no source gives the rules: it is not played here.",
        ),
        doc="Briscola chiamata (sources Briscola guide and Encyclopedia): five players, an auction for points, the"
            " called card"
            " makes the trump and the hidden partner, and match points to 11.",
    ),
    "briscola-chiamata", "call-briscola", "chiamata-punti", "chiamata-a-punti",
)

CHIAMATA_BUIA = register_variant(
    dataclasses.replace(
        CHIAMATA,
        variant="chiamata-buia",
        title="Briscola chiamata buia (Italy)",
        call_time="after_first_trick",
        sources=("Encyclopedia (Briscola Chiamata: 'Chiamata Buia: trumps are only declared after the first trick')",
                 "Briscola guide (Briscola Chiamata)"),
        readings=(
            "Encyclopedia: 'Chiamata Buia: trumps are only declared after the first trick.' In Chiamata the trump is"
            " declared by calling a card (Briscola guide: 'the suit of the called card is set as the Briscola (or"
            " trump)"
            " suit'), so the call comes after the first trick (`call_time: after_first_trick`); everything else"
            " is `chiamata`: five players, 8 cards each, the auction for points, the scoring and the match to 11.",
            "The first trick is played before any trump exists: the bidder leads it (Briscola guide: 'the high bidder"
            " leading the first card to the first trick'), and the best card of the suit led takes it. Nobody,"
            " the bidder included, knows the trump suit or the partner during it: the bidder has not chosen yet.",
            "Once the first trick is over the bidder calls a card, by rank and suit: its suit is trump from the"
            " second trick on and its holder the hidden partner, himself if he holds it (he then plays alone)."
            " The card must still be in a hand (Briscola guide: 'whichever other player has the card called'); a card"
            " played in the first trick is out. No view shows the partner until the called card is played.",
            "The winner of the first trick leads the second. Its points count for whoever won it, partner or not.",
            "Encyclopedia says when the trump is declared, not that the card is chosen earlier and kept secret until"
            " then:"
            " the bidder chooses the card when he calls it. (A card chosen before the first trick and announced"
            " after it would hold the bidder to a choice nobody at the table saw him make.)",
            "The low-card auction (`bidding: low_card`) names the called card's rank while bidding, and the four"
            " cards of a rank can all fall in the first trick: it does not go with this option, which needs"
            " `bidding: points`.",
        ),
        doc="Briscola chiamata buia (source Encyclopedia): Briscola chiamata whose bidder calls his card, and so"
            " declares"
            " the trump and makes the hidden partner, only after a first trick played without trumps.",
    ),
    "buia", "chiamata_buia", "briscola-chiamata-buia",
)
