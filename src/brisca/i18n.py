"""The terminal game's messages in Spanish, English and Italian.

Every message is a :meth:`str.format` template with named fields; each language
has the same keys and the same fields (the tests check it), so switching
language can never raise a ``KeyError`` in the middle of a game::

    >>> Messages("it")("plays", who="Giocatore 1", card="3O tre di denari")
    'Giocatore 1 gioca 3O tre di denari.'
    >>> default_lang({"LANG": "es_ES.UTF-8"}), default_lang({"LC_ALL": "C", "LANG": "it_IT"})
    ('es', 'en')
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from brisca.cards import LANGS, Lang

_EN: dict[str, str] = {
    "you": "You",
    "seat": "Seat {n}",
    "partner": "partner",
    "your_side": "Your side",
    "other_side": "Other side",
    "seats": "seats {seats}",
    "welcome": "Brisca: {title}, {players} players. You play at seat {seat}.",
    "seating": "At the table:",
    "partners": "Your partners: {who}.",
    "new_hand": "Hand {hand}. Dealer: {who}. Trump: {suit} (turned card {card}).",
    "new_hand_no_turn": "Hand {hand}. Dealer: {who}. Trump: {suit}.",
    "header": "Hand {hand} · trick {trick}",
    "hand_title": "Hand {hand}",
    "partners_row": "Partners",
    "trump": "Trump",
    "stock": "Stock",
    "stock_face_up": "{count} cards, face-up trump {card}",
    "stock_count": "{count} cards",
    "stock_empty": "empty (the face-up card has been drawn)",
    "points": "Points",
    "hands_won": "Hands won",
    "match_points": "Match points",
    "goal_target": "first to {target} wins the match",
    "goal_rotation": "deal {deal} of 4; the most after four wins",
    "last_trick": "Last trick",
    "last_trick_line": "winner: {who} · {card} · {points} points",
    "none_yet": "none yet",
    "on_table": "On the table",
    "empty_table": "nothing yet",
    "turn": "Turn",
    "your_hand": "Your hand",
    "trump_tag": "trump",
    "exchange_option": "exchange {give} for the face-up {take}",
    "prompt": "Your move (1-{n} or a card like {example}{exchange}, ? help, q quit): ",
    "prompt_exchange": ", x exchange",
    "you_play": "You play {card}.",
    "you_act": "You: {action}.",
    "acts": "{who}: {action}.",
    "not_playable": "not playable now",
    "plays": "{who} plays {card}.",
    "you_exchange": "You exchange {give} for the face-up {take}.",
    "exchanges": "{who} exchanges {give} for the face-up {take}.",
    "you_win_trick": "You win the trick with {card}: {points} points.",
    "wins_trick": "{who} wins the trick with {card}: {points} points.",
    "you_draw": "You draw {card}.",
    "hand_over": "Hand {hand} over. Points: {points}.",
    "hand_won_you": "You win the hand!",
    "hand_won": "{who} wins the hand.",
    "hand_draw": "The hand is drawn: it does not count.",
    "hand_replay": "The hand is tied: the same dealer deals it again.",
    "match_over": "Match over. Winner: {who}.",
    "match_level": "Match over: it ends level, nobody wins.",
    "match_won_you": "Congratulations, you win the match!",
    "match_lost": "You lose the match. Better luck next time!",
    "last_none": "No trick has finished yet in this hand.",
    "last_header": "Last trick (led by {who}):",
    "err_position": "There is no card number {n} in your hand: choose 1 to {max}.",
    "err_unknown": "I do not understand \"{text}\". Type a card like 3O, its position 1 to {max}, or ? for help.",
    "err_not_held": "You do not hold {card}.",
    "err_must_play": "You may not play {card} now: these rules make you play one of {cards}.",
    "err_exchange_off": "The trump exchange is not played in these rules.",
    "err_no_face_up": "The face-up trump has already been drawn: there is nothing to exchange.",
    "err_face_up_fixed": "The face-up {card} cannot be exchanged.",
    "err_must_win": "You must win a trick before you may exchange the trump.",
    "err_need_card": "To take the face-up {take} you need {give}.",
    "err_illegal": "Not allowed: {reason}",
    "err_bad_seat": "there is no seat {seat} at a {players}-player table: choose a seat from 0 to {max}",
    "quit": "You leave the match.",
    "eof": "End of input: the match is left unfinished.",
    "interrupted": "Interrupted: the match is left unfinished.",
    "saved": "Match record saved to {path}.",
    "exchange_rule": "the {give} of trumps for a face-up {take}",
    "exchange_none": "there is no trump exchange in these rules.",
    "exchange_after_win": "once you have won a trick",
    "err_exchange_not_now": "You may not exchange the trump now.",
    "follow_none": "You need not follow suit",
    "follow_suit": "You must follow suit if you can",
    "follow_suit_trump": "You must follow suit if you can, else play a trump if you can",
    "follow_suit_beat_trump": "You must follow suit and beat the trick if you can, else follow suit, else trump",
    "follow_empty_stock": "{rule} (only once the stock is gone)",
    "draw_header": "Drawing for the deal (the highest card deals):",
    "draw_again": "{who} tie for the highest card and draw again:",
    "draw_dealer": "The highest card deals: {who}.",
    "cut_prompt": "{dealer} deals. You cut the deck: how many cards ({min}-{max})? (Enter: random) ",
    "you_cut": "You cut the deck at {at} cards.",
    "cuts": "{who} cuts the deck at {at} cards.",
    "err_cut": "Cut between {min} and {max} cards (Enter: a random cut), not \"{text}\".",
    "prompt_arrastro": ", a arrastro",
    "prompt_claim": ", r claim",
    "prompt_signal": ", {keys} signal",
    "arrastro_row": "Arrastro",
    "arrastro_on": "called: each player must play their best card (highest trump, else highest card)",
    "arrastro_option": "lead {card} calling arrastro: the others must play their best card",
    "you_arrastro": "You lead {card} calling arrastro: the others must play their best card.",
    "plays_arrastro": "{who} leads {card} calling arrastro: the others must play their best card.",
    "claim_option": "claim the rest of the hand: your side holds the best trumps for every trick left",
    "you_claim": "You claim the rest of the hand.",
    "claims": "{who} claims the rest of the hand: that side holds the best trumps for every trick left.",
    "claimed": "Claimed by {who}: {cards} ({points} points).",
    "signal_option": "signal: {signal}",
    "you_signal": "You signal: {signal}.",
    "signal_made": "{who} signals: {signal}.",
    "signals_partner_row": "Partner signals",
    "signals_open_row": "Signals",
    "no_signals": "none yet",
    "known_row": "Known cards",
    "three_killed": "Muerte al tres ({who}): {ace} takes {three}, and the hand ends at once.",
    "bonus_line": "{who}: bonus for {why}, {points} points.",
    "bonus_last_trick": "last trick",
    "bonus_pair": "{king} and {knight}",
    "goal_least": "In this game the side with the fewest points wins the hand.",
    "hand_goal_most": "the side with the most points wins the hand",
    "hand_goal_least": "the side with the fewest points wins the hand",
    "err_arrastro": "Arrastro has been called: you must play your best card ({cards}).",
    "err_ace_prisoner": "The ace of trumps may not be played before the three of trumps (except in the last trick).",
    "err_arrastro_off": "Arrastro is not played in these rules.",
    "err_arrastro_lead": "Arrastro is called only when leading {card}.",
    "err_claim_off": "Claims are not played in these rules.",
    "err_claim_not_now": "A claim is made when leading, once the stock is gone.",
    "err_claim_fails": "You cannot claim: your side does not hold the best trumps for every trick left.",
    "err_signals_off": "Signals are not played in these rules.",
    "err_signal_position": "There is no signal s{n}: signals go from s1 to s{max}.",
    "err_signal_unknown": "There is no signal \"{text}\". Type ? to see them.",
    "err_signal_done": "You have already signalled {signal} this turn.",
    "err_signal_untrue": "You may not signal {signal}: signals must be true.",
    "rule_arrastro": (
        "Arrastro: leading the ace of trumps you may call arrastro (a, or 1O!); every other player must then"
        " play their best card: their highest trump, else their highest card."
    ),
    "rule_claim": (
        "Claim (r): once the stock is gone, when you lead and your side holds the best trumps still out, one for"
        " every trick left, you may claim the rest of the hand."
    ),
    "rule_kill_three": (
        "Muerte al tres: the ace of trumps may not be played before the three of trumps (except in the last"
        " trick); when it takes the three, the hand ends at once, won by its side."
    ),
    "rule_signals_partner": (
        "Signals, seen only by partners, made before you play,"
        " each once a turn, only when true: {names}."
    ),
    "rule_signals_open": "Signals, seen by everybody, made before you play, each once a turn, only when true: {names}.",
    "rule_open_hands": "Open hands: every hand is played face up.",
    "rule_deal_look": "Partners see each other's first three cards.",
    "rule_partners_look": "Once the stock is gone, partners see each other's hands.",
    "rule_pair_bonus": (
        "A side that captures the king and the knight of one suit"
        " scores 40 more in trumps, 20 in another suit."
    ),
    "rule_last_trick_bonus": "The last trick scores {points} more.",
    "rule_tie_replay": "A tie for the most points is dealt again by the same dealer.",
    "help": (
        "Keys\n"
        "  1, 2, 3 ...   play the card in that position of your hand\n"
        "  3O, 12e ...   play a card by rank and suit: {suits}\n"
        "  x             exchange the trump when it is allowed (also c, cambiar, scambia, exchange)\n"
        "  a             lead the ace of trumps calling arrastro, where it is played (also 1O!)\n"
        "  r             claim the rest of the hand, where claims are played (also claim)\n"
        "  s1, s2 ...    make a signal, where signals are played (also signal NAME)\n"
        "  l             show the last trick again\n"
        "  empty line    show the table again\n"
        "  ?             this help (also h, help, ayuda, aiuto)\n"
        "  q             leave the match (also quit, salir, esci); --save keeps the record\n"
        "Rules\n"
        "  A trick goes to the highest trump played, else to the highest card of the suit led.\n"
        "  {follow}. The trick's winner draws first and leads the next trick.\n"
        "  Cards from high to low: {order}.\n"
        "  Points: {points}; {hand_goal}.\n"
        "  Trump exchange: {exchange}\n"
        "  Match: {goal} ({label}).{special}"
    ),
}

_ES: dict[str, str] = {
    "you": "Tú",
    "seat": "Jugador {n}",
    "partner": "compañero",
    "your_side": "Tu equipo",
    "other_side": "Equipo rival",
    "seats": "jugadores {seats}",
    "welcome": "Brisca: {title}, {players} jugadores. Juegas en el puesto {seat}.",
    "seating": "En la mesa:",
    "partners": "Tus compañeros: {who}.",
    "new_hand": "Mano {hand}. Reparte: {who}. Triunfo: {suit} (carta vuelta {card}).",
    "new_hand_no_turn": "Mano {hand}. Reparte: {who}. Triunfo: {suit}.",
    "header": "Mano {hand} · baza {trick}",
    "hand_title": "Mano {hand}",
    "partners_row": "Compañeros",
    "trump": "Triunfo",
    "stock": "Mazo",
    "stock_face_up": "{count} cartas, triunfo a la vista {card}",
    "stock_count": "{count} cartas",
    "stock_empty": "vacío (ya se robó la carta vuelta)",
    "points": "Puntos",
    "hands_won": "Manos ganadas",
    "match_points": "Puntos de la partida",
    "goal_target": "gana la partida quien llegue a {target}",
    "goal_rotation": "reparto {deal} de 4; tras cuatro gana quien más tenga",
    "last_trick": "Última baza",
    "last_trick_line": "ganador: {who} · {card} · {points} puntos",
    "none_yet": "ninguna todavía",
    "on_table": "En la mesa",
    "empty_table": "nada todavía",
    "turn": "Turno",
    "your_hand": "Tu mano",
    "trump_tag": "triunfo",
    "exchange_option": "cambiar {give} por el triunfo a la vista {take}",
    "prompt": "Tu jugada (1-{n} o una carta como {example}{exchange}, ? ayuda, q salir): ",
    "prompt_exchange": ", x cambiar",
    "you_play": "Juegas {card}.",
    "you_act": "Tú: {action}.",
    "acts": "{who}: {action}.",
    "not_playable": "no se puede jugar ahora",
    "plays": "{who} juega {card}.",
    "you_exchange": "Cambias {give} por el triunfo a la vista {take}.",
    "exchanges": "{who} cambia {give} por el triunfo a la vista {take}.",
    "you_win_trick": "Ganas la baza con {card}: {points} puntos.",
    "wins_trick": "{who} gana la baza con {card}: {points} puntos.",
    "you_draw": "Robas {card}.",
    "hand_over": "Fin de la mano {hand}. Puntos: {points}.",
    "hand_won_you": "¡Ganas la mano!",
    "hand_won": "{who} gana la mano.",
    "hand_draw": "La mano queda empatada: no cuenta.",
    "hand_replay": "La mano queda empatada: el mismo jugador vuelve a repartir.",
    "match_over": "Fin de la partida. Ganador: {who}.",
    "match_level": "Fin de la partida: empate, nadie gana.",
    "match_won_you": "¡Enhorabuena, ganas la partida!",
    "match_lost": "Pierdes la partida. ¡Más suerte la próxima vez!",
    "last_none": "Aún no ha terminado ninguna baza en esta mano.",
    "last_header": "Última baza (salida: {who}):",
    "err_position": "No hay carta número {n} en tu mano: elige de 1 a {max}.",
    "err_unknown": "No entiendo \"{text}\". Escribe una carta como 3O, su posición de 1 a {max}, o ? para ayuda.",
    "err_not_held": "No tienes {card}.",
    "err_must_play": "Ahora no puedes jugar {card}: estas reglas te obligan a jugar una de {cards}.",
    "err_exchange_off": "En estas reglas no se cambia el triunfo.",
    "err_no_face_up": "Ya se robó el triunfo a la vista: no hay nada que cambiar.",
    "err_face_up_fixed": "El triunfo a la vista {card} no se puede cambiar.",
    "err_must_win": "Tienes que ganar una baza antes de cambiar el triunfo.",
    "err_need_card": "Para llevarte {take} necesitas {give}.",
    "err_illegal": "No permitido: {reason}",
    "err_bad_seat": "no hay puesto {seat} en una mesa de {players} jugadores: elige un puesto de 0 a {max}",
    "quit": "Dejas la partida.",
    "eof": "Fin de la entrada: la partida queda sin terminar.",
    "interrupted": "Interrumpido: la partida queda sin terminar.",
    "saved": "Partida guardada en {path}.",
    "exchange_rule": "el {give} de triunfo por un {take} a la vista",
    "exchange_none": "en estas reglas no se cambia el triunfo.",
    "exchange_after_win": "después de ganar una baza",
    "err_exchange_not_now": "Ahora no puedes cambiar el triunfo.",
    "follow_none": "No es obligatorio asistir",
    "follow_suit": "Hay que asistir al palo si se puede",
    "follow_suit_trump": "Hay que asistir al palo si se puede; si no, fallar con triunfo si se puede",
    "follow_suit_beat_trump": "Hay que asistir y montar si se puede; si no, asistir; si no, fallar con triunfo",
    "follow_empty_stock": "{rule} (solo cuando se acaba el mazo)",
    "draw_header": "Sorteo del reparto (reparte la carta más alta):",
    "draw_again": "{who} empatan con la carta más alta y vuelven a robar:",
    "draw_dealer": "Reparte la carta más alta: {who}.",
    "cut_prompt": "Reparte {dealer}. Cortas tú: ¿cuántas cartas ({min}-{max})? (Intro: al azar) ",
    "you_cut": "Cortas el mazo por {at} cartas.",
    "cuts": "{who} corta el mazo por {at} cartas.",
    "err_cut": "Corta entre {min} y {max} cartas (Intro: corte al azar), no \"{text}\".",
    "prompt_arrastro": ", a arrastro",
    "prompt_claim": ", r reclamar",
    "prompt_signal": ", {keys} seña",
    "arrastro_row": "Arrastro",
    "arrastro_on": "cantado: cada jugador debe echar su mejor carta (su triunfo más alto; si no, su carta más alta)",
    "arrastro_option": "salir con {card} cantando arrastro: los demás deben echar su mejor carta",
    "you_arrastro": "Sales con {card} cantando arrastro: los demás deben echar su mejor carta.",
    "plays_arrastro": "{who} sale con {card} cantando arrastro: los demás deben echar su mejor carta.",
    "claim_option": "reclamar el resto de la mano: tu equipo tiene los mejores triunfos para cada baza que queda",
    "you_claim": "Reclamas el resto de la mano.",
    "claims": "{who} reclama el resto de la mano: su equipo tiene los mejores triunfos para cada baza que queda.",
    "claimed": "Se lleva {who}: {cards} ({points} puntos).",
    "signal_option": "seña: {signal}",
    "you_signal": "Haces la seña: {signal}.",
    "signal_made": "{who} hace la seña: {signal}.",
    "signals_partner_row": "Señas del equipo",
    "signals_open_row": "Señas",
    "no_signals": "ninguna todavía",
    "known_row": "Cartas conocidas",
    "three_killed": "Muerte al tres ({who}): {ace} se lleva {three} y la mano termina en el acto.",
    "bonus_line": "{who}: premio por {why}, {points} puntos.",
    "bonus_last_trick": "última baza",
    "bonus_pair": "{king} y {knight}",
    "goal_least": "En este juego gana la mano el equipo con menos puntos.",
    "hand_goal_most": "gana la mano el equipo con más puntos",
    "hand_goal_least": "gana la mano el equipo con menos puntos",
    "err_arrastro": "Se ha cantado arrastro: tienes que echar tu mejor carta ({cards}).",
    "err_ace_prisoner": "El as de triunfo no se puede jugar antes que el tres de triunfo (salvo en la última baza).",
    "err_arrastro_off": "En estas reglas no se juega el arrastro.",
    "err_arrastro_lead": "El arrastro solo se canta al salir con {card}.",
    "err_claim_off": "En estas reglas no se reclaman las bazas.",
    "err_claim_not_now": "Se reclama al salir, cuando ya se ha acabado el mazo.",
    "err_claim_fails": "No puedes reclamar: tu equipo no tiene los mejores triunfos para cada baza que queda.",
    "err_signals_off": "En estas reglas no se hacen señas.",
    "err_signal_position": "No hay seña s{n}: las señas van de s1 a s{max}.",
    "err_signal_unknown": "No existe la seña \"{text}\". Escribe ? para verlas.",
    "err_signal_done": "Ya has hecho la seña {signal} en este turno.",
    "err_signal_untrue": "No puedes hacer la seña {signal}: las señas tienen que ser ciertas.",
    "rule_arrastro": (
        "Arrastro: al salir con el as de triunfo puedes cantar arrastro (a, o 1O!); los demás deben echar"
        " entonces su mejor carta: su triunfo más alto; si no tienen, su carta más alta."
    ),
    "rule_claim": (
        "Reclamar (r): acabado el mazo, si sales y tu equipo tiene los mejores triunfos que quedan, uno por"
        " cada baza, puedes reclamar el resto de la mano."
    ),
    "rule_kill_three": (
        "Muerte al tres: el as de triunfo no se puede jugar antes que el tres de triunfo (salvo en la última"
        " baza); cuando se lleva el tres, la mano termina en el acto y la gana su equipo."
    ),
    "rule_signals_partner": (
        "Señas, que solo ve el compañero, antes de jugar, cada una una"
        " vez por turno y solo si son ciertas: {names}."
    ),
    "rule_signals_open": (
        "Señas, que ven todos, antes de jugar, cada una una vez"
        " por turno y solo si son ciertas: {names}."
    ),
    "rule_open_hands": "Cartas vistas: todas las manos se juegan boca arriba.",
    "rule_deal_look": "Los compañeros ven las tres primeras cartas del otro.",
    "rule_partners_look": "Acabado el mazo, los compañeros ven la mano del otro.",
    "rule_pair_bonus": "El equipo que se lleva el rey y el caballo de un palo suma 40 más en triunfo, 20 en otro palo.",
    "rule_last_trick_bonus": "La última baza suma {points} más.",
    "rule_tie_replay": "Si hay empate a más puntos, el mismo jugador vuelve a repartir.",
    "help": (
        "Teclas\n"
        "  1, 2, 3 ...   juega la carta en esa posición de tu mano\n"
        "  3O, 12e ...   juega una carta por número y palo: {suits}\n"
        "  x             cambia el triunfo cuando se puede (también c, cambiar, scambia, exchange)\n"
        "  a             sale con el as de triunfo cantando arrastro, si se juega (también 1O!)\n"
        "  r             reclama el resto de la mano, si se juega (también claim, reclamar)\n"
        "  s1, s2 ...    hace una seña, si se juegan (también seña NOMBRE, signal NOMBRE)\n"
        "  l             vuelve a mostrar la última baza\n"
        "  línea vacía   vuelve a mostrar la mesa\n"
        "  ?             esta ayuda (también h, help, ayuda, aiuto)\n"
        "  q             deja la partida (también quit, salir, esci); --save guarda la partida\n"
        "Reglas\n"
        "  Gana la baza el triunfo más alto jugado; si no hay, la carta más alta del palo de salida.\n"
        "  {follow}. Quien gana la baza roba primero y sale en la siguiente.\n"
        "  Orden de las cartas, de mayor a menor: {order}.\n"
        "  Puntos: {points}; {hand_goal}.\n"
        "  Cambio del triunfo: {exchange}\n"
        "  Partida: {goal} ({label}).{special}"
    ),
}

_IT: dict[str, str] = {
    "you": "Tu",
    "seat": "Giocatore {n}",
    "partner": "compagno",
    "your_side": "La tua squadra",
    "other_side": "Squadra avversaria",
    "seats": "giocatori {seats}",
    "welcome": "Brisca: {title}, {players} giocatori. Giochi al posto {seat}.",
    "seating": "Al tavolo:",
    "partners": "I tuoi compagni: {who}.",
    "new_hand": "Mano {hand}. Mazziere: {who}. Briscola: {suit} (carta scoperta {card}).",
    "new_hand_no_turn": "Mano {hand}. Mazziere: {who}. Briscola: {suit}.",
    "header": "Mano {hand} · presa {trick}",
    "hand_title": "Mano {hand}",
    "partners_row": "Compagni",
    "trump": "Briscola",
    "stock": "Mazzo",
    "stock_face_up": "{count} carte, briscola scoperta {card}",
    "stock_count": "{count} carte",
    "stock_empty": "vuoto (la carta scoperta è stata pescata)",
    "points": "Punti",
    "hands_won": "Mani vinte",
    "match_points": "Punti della partita",
    "goal_target": "vince la partita chi arriva a {target}",
    "goal_rotation": "smazzata {deal} di 4; dopo quattro vince chi ha di più",
    "last_trick": "Ultima presa",
    "last_trick_line": "vincitore: {who} · {card} · {points} punti",
    "none_yet": "ancora nessuna",
    "on_table": "In tavola",
    "empty_table": "ancora niente",
    "turn": "Turno",
    "your_hand": "La tua mano",
    "trump_tag": "briscola",
    "exchange_option": "scambia {give} con la briscola scoperta {take}",
    "prompt": "La tua mossa (1-{n} o una carta come {example}{exchange}, ? aiuto, q esci): ",
    "prompt_exchange": ", x scambia",
    "you_play": "Giochi {card}.",
    "you_act": "Tu: {action}.",
    "acts": "{who}: {action}.",
    "not_playable": "non giocabile ora",
    "plays": "{who} gioca {card}.",
    "you_exchange": "Scambi {give} con la briscola scoperta {take}.",
    "exchanges": "{who} scambia {give} con la briscola scoperta {take}.",
    "you_win_trick": "Vinci la presa con {card}: {points} punti.",
    "wins_trick": "{who} vince la presa con {card}: {points} punti.",
    "you_draw": "Peschi {card}.",
    "hand_over": "Fine della mano {hand}. Punti: {points}.",
    "hand_won_you": "Vinci la mano!",
    "hand_won": "{who} vince la mano.",
    "hand_draw": "La mano finisce in parità: non conta.",
    "hand_replay": "La mano finisce in parità: lo stesso mazziere la ridistribuisce.",
    "match_over": "Partita finita. Vincitore: {who}.",
    "match_level": "Partita finita in parità: nessuno vince.",
    "match_won_you": "Complimenti, vinci la partita!",
    "match_lost": "Perdi la partita. Andrà meglio la prossima volta!",
    "last_none": "Nessuna presa è ancora finita in questa mano.",
    "last_header": "Ultima presa (apertura: {who}):",
    "err_position": "Non c'è la carta numero {n} nella tua mano: scegli da 1 a {max}.",
    "err_unknown": "Non capisco \"{text}\". Scrivi una carta come 3O, la sua posizione da 1 a {max}, o ? per l'aiuto.",
    "err_not_held": "Non hai {card}.",
    "err_must_play": "Ora non puoi giocare {card}: queste regole ti obbligano a giocare una tra {cards}.",
    "err_exchange_off": "Con queste regole la briscola non si scambia.",
    "err_no_face_up": "La briscola scoperta è già stata pescata: non c'è niente da scambiare.",
    "err_face_up_fixed": "La briscola scoperta {card} non si può scambiare.",
    "err_must_win": "Devi vincere una presa prima di scambiare la briscola.",
    "err_need_card": "Per prendere {take} ti serve {give}.",
    "err_illegal": "Non permesso: {reason}",
    "err_bad_seat": "non c'è il posto {seat} a un tavolo da {players} giocatori: scegli un posto da 0 a {max}",
    "quit": "Lasci la partita.",
    "eof": "Fine dell'input: la partita resta incompiuta.",
    "interrupted": "Interrotto: la partita resta incompiuta.",
    "saved": "Partita salvata in {path}.",
    "exchange_rule": "il {give} di briscola con un {take} scoperto",
    "exchange_none": "con queste regole la briscola non si scambia.",
    "exchange_after_win": "dopo aver vinto una presa",
    "err_exchange_not_now": "Ora non puoi scambiare la briscola.",
    "follow_none": "Non c'è obbligo di rispondere al seme",
    "follow_suit": "Devi rispondere al seme se puoi",
    "follow_suit_trump": "Devi rispondere al seme se puoi, altrimenti giocare briscola se puoi",
    "follow_suit_beat_trump": "Devi rispondere al seme e superare se puoi, altrimenti rispondere, altrimenti briscola",
    "follow_empty_stock": "{rule} (solo quando il mazzo è finito)",
    "draw_header": "Sorteggio del mazziere (distribuisce la carta più alta):",
    "draw_again": "{who} pareggiano con la carta più alta e pescano di nuovo:",
    "draw_dealer": "Distribuisce la carta più alta: {who}.",
    "cut_prompt": "Distribuisce {dealer}. Tagli tu: quante carte ({min}-{max})? (Invio: a caso) ",
    "you_cut": "Tagli il mazzo a {at} carte.",
    "cuts": "{who} taglia il mazzo a {at} carte.",
    "err_cut": "Taglia tra {min} e {max} carte (Invio: taglio a caso), non \"{text}\".",
    "prompt_arrastro": ", a arrastro",
    "prompt_claim": ", r rivendica",
    "prompt_signal": ", {keys} segnale",
    "arrastro_row": "Arrastro",
    "arrastro_on": (
        "chiamato: ognuno deve giocare la sua carta migliore (la"
        " briscola più alta, altrimenti la carta più alta)"
    ),
    "arrastro_option": "esci con {card} chiamando arrastro: gli altri devono giocare la loro carta migliore",
    "you_arrastro": "Esci con {card} chiamando arrastro: gli altri devono giocare la loro carta migliore.",
    "plays_arrastro": "{who} esce con {card} chiamando arrastro: gli altri devono giocare la loro carta migliore.",
    "claim_option": "rivendica il resto della mano: la tua squadra ha le briscole migliori per ogni presa che resta",
    "you_claim": "Rivendichi il resto della mano.",
    "claims": "{who} rivendica il resto della mano: la sua squadra ha le briscole migliori per ogni presa che resta.",
    "claimed": "Prende {who}: {cards} ({points} punti).",
    "signal_option": "segnale: {signal}",
    "you_signal": "Fai il segnale: {signal}.",
    "signal_made": "{who} fa il segnale: {signal}.",
    "signals_partner_row": "Segnali del compagno",
    "signals_open_row": "Segnali",
    "no_signals": "ancora nessuno",
    "known_row": "Carte note",
    "three_killed": "Muerte al tres ({who}): {ace} prende {three} e la mano finisce subito.",
    "bonus_line": "{who}: premio per {why}, {points} punti.",
    "bonus_last_trick": "ultima presa",
    "bonus_pair": "{king} e {knight}",
    "goal_least": "In questo gioco vince la mano la squadra con meno punti.",
    "hand_goal_most": "vince la mano la squadra con più punti",
    "hand_goal_least": "vince la mano la squadra con meno punti",
    "err_arrastro": "È stato chiamato arrastro: devi giocare la tua carta migliore ({cards}).",
    "err_ace_prisoner": "L'asso di briscola non si può giocare prima del tre di briscola (tranne all'ultima presa).",
    "err_arrastro_off": "Con queste regole non si gioca l'arrastro.",
    "err_arrastro_lead": "L'arrastro si chiama solo uscendo con {card}.",
    "err_claim_off": "Con queste regole non si rivendicano le prese.",
    "err_claim_not_now": "Si rivendica uscendo, quando il mazzo è finito.",
    "err_claim_fails": "Non puoi rivendicare: la tua squadra non ha le briscole migliori per ogni presa che resta.",
    "err_signals_off": "Con queste regole non si fanno segnali.",
    "err_signal_position": "Non c'è il segnale s{n}: i segnali vanno da s1 a s{max}.",
    "err_signal_unknown": "Non esiste il segnale \"{text}\". Scrivi ? per vederli.",
    "err_signal_done": "Hai già fatto il segnale {signal} in questo turno.",
    "err_signal_untrue": "Non puoi fare il segnale {signal}: i segnali devono essere veri.",
    "rule_arrastro": (
        "Arrastro: uscendo con l'asso di briscola puoi chiamare arrastro (a, o 1O!); gli altri devono allora"
        " giocare la loro carta migliore: la briscola più alta, altrimenti la carta più alta."
    ),
    "rule_claim": (
        "Rivendicare (r): finito il mazzo, se esci e la tua squadra ha le briscole migliori rimaste, una per"
        " ogni presa, puoi rivendicare il resto della mano."
    ),
    "rule_kill_three": (
        "Muerte al tres: l'asso di briscola non si può giocare prima del tre di briscola (tranne all'ultima"
        " presa); quando prende il tre, la mano finisce subito e la vince la sua squadra."
    ),
    "rule_signals_partner": (
        "Segnali, visti solo dal compagno, prima di giocare, ognuno"
        " una volta per turno e solo se veri: {names}."
    ),
    "rule_signals_open": (
        "Segnali, visti da tutti, prima di giocare, ognuno una"
        " volta per turno e solo se veri: {names}."
    ),
    "rule_open_hands": "Carte scoperte: tutte le mani si giocano a faccia in su.",
    "rule_deal_look": "I compagni vedono le prime tre carte l'uno dell'altro.",
    "rule_partners_look": "Finito il mazzo, i compagni vedono la mano l'uno dell'altro.",
    "rule_pair_bonus": (
        "La squadra che prende il re e il cavallo di un seme segna"
        " 40 in più a briscola, 20 in un altro seme."
    ),
    "rule_last_trick_bonus": "L'ultima presa vale {points} in più.",
    "rule_tie_replay": "In caso di parità per il massimo, lo stesso mazziere ridistribuisce.",
    "help": (
        "Tasti\n"
        "  1, 2, 3 ...   gioca la carta in quella posizione della tua mano\n"
        "  3O, 12e ...   gioca una carta per numero e seme: {suits}\n"
        "  x             scambia la briscola quando è permesso (anche c, cambiar, scambia, exchange)\n"
        "  a             esci con l'asso di briscola chiamando arrastro, dove si gioca (anche 1O!)\n"
        "  r             rivendica il resto della mano, dove si gioca (anche claim, rivendica)\n"
        "  s1, s2 ...    fai un segnale, dove si giocano (anche segnale NOME, signal NOME)\n"
        "  l             mostra di nuovo l'ultima presa\n"
        "  riga vuota    mostra di nuovo la tavola\n"
        "  ?             questo aiuto (anche h, help, ayuda, aiuto)\n"
        "  q             lascia la partita (anche quit, salir, esci); --save conserva la partita\n"
        "Regole\n"
        "  La presa va alla briscola più alta giocata, altrimenti alla carta più alta del seme di uscita.\n"
        "  {follow}. Chi vince la presa pesca per primo ed esce alla successiva.\n"
        "  Carte dalla più alta alla più bassa: {order}.\n"
        "  Punti: {points}; {hand_goal}.\n"
        "  Scambio della briscola: {exchange}\n"
        "  Partita: {goal} ({label}).{special}"
    ),
}

#: The catalogue: language -> message key -> template.
MESSAGES: dict[Lang, dict[str, str]] = {"es": _ES, "en": _EN, "it": _IT}


class Messages:
    """The messages of one language, called like a function: ``msg("plays", who=..., card=...)``."""

    def __init__(self, lang: Lang) -> None:
        self.lang: Lang = lang
        self._table = MESSAGES[lang]

    def __call__(self, key: str, **fields: object) -> str:
        return self._table[key].format(**fields)

    def __contains__(self, key: object) -> bool:
        return key in self._table

    def template(self, key: str) -> str:
        """The unformatted template, for callers that style each field (the terminal colours cards)."""
        return self._table[key]


def default_lang(environ: Mapping[str, str] | None = None) -> Lang:
    """The language the locale asks for: the first set of LC_ALL, LC_MESSAGES, LANG decides.

    That is the POSIX precedence, so ``LC_ALL=C`` wins over ``LANG=es_ES`` as it does for other tools.
    """
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            for lang in LANGS:
                if code == lang:
                    return lang
            return "en"
    return "en"
