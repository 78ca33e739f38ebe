"""The rules of a preset written out in Spanish, English or Italian, generated from its :class:`Rules`.

Because the text is built from the same data the engine plays by, the rule pages
cannot drift from the game: ``brisca rules NAME --lang it`` and ``docs/variants/``.

    >>> from brisca.rules import find_variant
    >>> "1 3 12 11 10 7 6 5 4 2" in rules_text(find_variant("spanish"), "en")
    True
"""

from __future__ import annotations

import json

from brisca.actions import ASK_SIGNALS, SIGNAL_SETS, SIGNALS
from brisca.cards import ITALIAN, NOTATIONS, Lang, Notation, Rank, Suit, parse_cards
from brisca.rules import OPTIONS, Rules

# Every sentence in three languages. Keys are grouped by the section they belong to.
T: dict[str, dict[str, str]] = {
    "players": {
        "en": "Players: {counts}.",
        "es": "Jugadores: {counts}.",
        "it": "Giocatori: {counts}.",
    },
    "teams": {
        "en": "With {n} players, two sides play: even seats against odd seats ({sides}).",
        "es": "Con {n} jugadores juegan dos bandos: asientos pares contra impares ({sides}).",
        "it": "In {n} giocatori si gioca in due squadre: posti pari contro dispari ({sides}).",
    },
    "partners_draw": {
        "en": "Before the first hand each player draws a card: the two highest (with 6, the three highest) play"
              " against the others, and players tied draw again among themselves. The highest takes seat 0 and"
              " deals, his side the even seats and the others the odd ones, each in the order of their cards.",
        "es": "Antes de la primera mano cada jugador saca una carta: las dos más altas (con 6, las tres más altas)"
              " juegan contra las demás, y los empatados vuelven a sacar entre ellos. La más alta ocupa el asiento"
              " 0 y da, su bando los asientos pares y los demás los impares, en el orden de sus cartas.",
        "it": "Prima della prima mano ogni giocatore pesca una carta: le due più alte (in 6, le tre più alte)"
              " giocano contro le altre, e chi pareggia pesca di nuovo. La più alta prende il posto 0 e"
              " distribuisce, la sua squadra i posti pari e gli altri i dispari, nell'ordine delle carte.",
    },
    "dealer_draw": {
        "en": "Before the first hand each player draws a card; players tied draw again. The highest takes seat 0"
              " and deals; the others sit in the order of their cards.",
        "es": "Antes de la primera mano cada jugador saca una carta; los empatados vuelven a sacar. La más alta"
              " ocupa el asiento 0 y da; los demás se sientan en el orden de sus cartas.",
        "it": "Prima della prima mano ogni giocatore pesca una carta; chi pareggia pesca di nuovo. La più alta"
              " prende il posto 0 e distribuisce; gli altri siedono nell'ordine delle carte.",
    },
    "alone": {
        "en": "Otherwise each plays for himself.",
        "es": "Si no, cada uno juega para sí.",
        "it": "Altrimenti ognuno gioca per sé.",
    },
    "deck": {
        "en": "Cards: a Spanish deck of {size}.",
        "es": "Cartas: baraja española de {size}.",
        "it": "Carte: mazzo spagnolo da {size}.",
    },
    "deck_italian": {
        "en": "Cards: an Italian deck of {size} (the Spanish deck with other pictures).",
        "es": "Cartas: baraja italiana de {size} (la española con otros dibujos).",
        "it": "Carte: mazzo da {size} (carte italiane).",
    },
    "notation": {
        "en": "Cards are written rank then suit ({example}): {faces}, the others by their number; suits {suits}.",
        "es": "Las cartas se escriben número y palo ({example}): {faces}, las demás por su número; palos {suits}.",
        "it": "Le carte si scrivono valore e seme ({example}): {faces}, le altre col loro numero; semi {suits}.",
    },
    "notation_italian": {
        "en": "The Spanish notation is read too ({spanish} for {italian}), except 10, which is the jack of a Spanish"
              " deck and the king in the Italian count to 10; records keep the Spanish notation.",
        "es": "También se lee la notación española ({spanish} por {italian}), salvo el 10, que es la sota en la"
              " baraja española y el rey en la cuenta italiana hasta 10; los registros guardan la notación"
              " española.",
        "it": "Si legge anche la notazione spagnola ({spanish} per {italian}), tranne il 10, che è il fante nel mazzo"
              " spagnolo e il re nel conto italiano fino a 10; le registrazioni conservano la notazione spagnola.",
    },
    "removed": {
        "en": "With {n} players these are removed: {cards}.",
        "es": "Con {n} jugadores se retiran: {cards}.",
        "it": "In {n} giocatori si tolgono: {cards}.",
    },
    "ranks": {
        "en": "Rank, high to low: {ranks}.",
        "es": "Orden, de mayor a menor: {ranks}.",
        "it": "Ordine di presa, dalla più alta: {ranks}.",
    },
    "points": {
        "en": "Card points: {points}; the rest score nothing ({total} in all).",
        "es": "Puntos: {points}; las demás no valen nada ({total} en total).",
        "it": "Punti: {points}; le altre non valgono nulla ({total} in tutto).",
    },
    "deal": {
        "en": "Deal: one card at a time from the seat after the dealer, in order of play, until each holds {k}.",
        "es": "Reparto: de una en una desde el siguiente al que da, en orden de juego, hasta tener {k} cada uno.",
        "it": "Distribuzione: una carta alla volta dal giocatore dopo il mazziere, fino ad averne {k} ciascuno.",
    },
    "turn_up": {
        "en": "The next card is turned up: its suit is trumps, and it goes to the bottom of the stock"
              " (the last card drawn).",
        "es": "La carta siguiente se descubre: su palo es el triunfo (la muestra), y va debajo del mazo"
              " (es la última que se roba).",
        "it": "La carta successiva si scopre: il suo seme è la briscola, e va in fondo al mazzo"
              " (l'ultima pescata).",
    },
    "rotation": {
        "en": "No card is turned: trumps are oros, copas, espadas and bastos in the four deals of the match.",
        "es": "No se descubre carta: el triunfo es oros, copas, espadas y bastos en las cuatro manos de la partida.",
        "it": "Non si scopre carta: la briscola è denari, coppe, spade e bastoni nelle quattro mani della partita.",
    },
    "lead": {
        "en": "The seat after the dealer leads the first trick; the winner of a trick leads the next.",
        "es": "Sale el siguiente al que da; quien gana una baza sale en la siguiente.",
        "it": "Apre il giocatore dopo il mazziere; chi vince una presa apre la successiva.",
    },
    "follow_none": {
        "en": "Any card may be played: there is no duty to follow suit, beat or trump.",
        "es": "Se puede jugar cualquier carta: no hay obligación de asistir, montar ni fallar.",
        "it": "Si può giocare qualsiasi carta: non c'è obbligo di rispondere al seme, superare o briscolare.",
    },
    "follow_suit": {
        "en": "You must follow the suit led if you can.",
        "es": "Hay que asistir al palo de salida si se puede.",
        "it": "Bisogna rispondere al seme di uscita se si può.",
    },
    "follow_suit_trump": {
        "en": "You must follow the suit led if you can; if you cannot, you must trump if you can.",
        "es": "Hay que asistir al palo de salida si se puede; si no, fallar con triunfo si se puede.",
        "it": "Bisogna rispondere al seme di uscita se si può; se no, briscolare se si può.",
    },
    "follow_descanso": {
        "en": "You must follow the suit led, and beat an opponent's best card if you can (never your partner's);"
              " if you cannot follow, you must trump if you can, unless your partner holds the trick with a card"
              " that is not a trump: then you rest (descanso) with any card.",
        "es": "Hay que asistir al palo de salida y cargar la carta del contrincante si se puede (nunca la del"
              " compañero); si no se tiene el palo, hay que fallar con triunfo, salvo que el compañero lleve la"
              " baza con una carta que no sea triunfo: entonces se descansa con cualquier carta.",
        "it": "Bisogna rispondere al seme di uscita e superare la carta dell'avversario se si può (mai quella del"
              " compagno); se non si ha il seme, bisogna briscolare, salvo che il compagno prenda la mano con una"
              " carta che non è briscola: allora si gioca qualsiasi carta.",
    },
    "follow_suit_beat_trump": {
        "en": "You must follow the suit led and beat the best card if you can; else follow; else trump if you can.",
        "es": "Hay que asistir y montar si se puede; si no, asistir; si no, fallar con triunfo si se puede.",
        "it": "Bisogna rispondere al seme e superare se si può; se no, rispondere; se no, briscolare se si può.",
    },
    "follow_empty": {
        "en": "This duty applies only once the stock is gone.",
        "es": "Esta obligación rige solo cuando se acaba el mazo.",
        "it": "Quest'obbligo vale solo quando il mazzo è finito.",
    },
    "wins": {
        "en": "The highest trump wins the trick; without trumps, the highest card of the suit led.",
        "es": "Gana la baza el triunfo más alto; sin triunfos, la carta más alta del palo de salida.",
        "it": "Vince la presa la briscola più alta; senza briscole, la carta più alta del seme di uscita.",
    },
    "draw": {
        "en": "While the stock lasts, the winner draws first, then the others in order of play.",
        "es": "Mientras quede mazo, roba primero quien gana la baza y luego los demás en orden de juego.",
        "it": "Finché c'è mazzo, pesca prima chi ha preso e poi gli altri in ordine di gioco.",
    },
    "exchange": {
        "en": "Trump exchange ({when}): the 7 of trumps may be given for a face-up {high}, the 2 of trumps for a"
              " face-up {low}, while the face-up card is in the stock.",
        "es": "Cambio de la muestra ({when}): el 7 de triunfo se cambia por una muestra {high}, el 2 por una"
              " muestra {low}, mientras la muestra siga en el mazo.",
        "it": "Scambio della briscola scoperta ({when}): il 7 di briscola si cambia con una {high} scoperta,"
              " il 2 con una {low}, finché la carta scoperta è nel mazzo.",
    },
    "exchange_after_win": {
        "en": "on your turn, once you have won a trick",
        "es": "en tu turno, tras haber ganado una baza",
        "it": "al proprio turno, dopo aver vinto una presa",
    },
    "exchange_any_time": {
        "en": "on your turn, at any time",
        "es": "en tu turno, en cualquier momento",
        "it": "al proprio turno, in qualsiasi momento",
    },
    "exchange_before_penultimate": {
        "en": "on your turn, once you have won a trick, but not in the last round of draws",
        "es": "en tu turno, tras ganar una baza, pero no en la última ronda de robo",
        "it": "al proprio turno, dopo aver vinto una presa, ma non nell'ultimo giro di pesca",
    },
    "exchange_announced": {
        "en": "announced: on your turn you lay the trump under the face-up card, and take the face-up card as you"
              " win your next trick; if the face-up card is drawn first, the trump comes back to your hand",
        "es": "anunciado: en tu turno pones el triunfo debajo de la muestra y te llevas la muestra al ganar tu"
              " próxima baza; si antes se roba la muestra, el triunfo vuelve a tu mano",
        "it": "annunciato: al proprio turno si mette la briscola sotto la carta scoperta e la si prende vincendo la"
              " presa successiva; se prima la carta scoperta viene pescata, la briscola torna in mano",
    },
    "exchange_out_of_turn": {
        "en": "at any time, on your turn or another's, once you have won a trick",
        "es": "en cualquier momento, en tu turno o en el de otro, tras haber ganado una baza",
        "it": "in qualsiasi momento, al proprio turno o a quello di un altro, dopo aver vinto una presa",
    },
    "announced_hand": {
        "en": "While the trump lies under the face-up card it is out of your hand, in everybody's sight: you play"
              " with one card fewer until the exchange is made or the trump comes back.",
        "es": "Mientras el triunfo está debajo de la muestra no está en tu mano y todos lo ven: juegas con una carta"
              " menos hasta que se hace el cambio o el triunfo vuelve.",
        "it": "Finché la briscola sta sotto la carta scoperta non è in mano ed è in vista di tutti: si gioca con una"
              " carta in meno finché lo scambio non è fatto o la briscola non torna.",
    },
    "exchange_off": {
        "en": "There is no trump exchange.",
        "es": "No hay cambio de la muestra.",
        "it": "Non c'è scambio della briscola scoperta.",
    },
    "chain_on": {
        "en": "The card given becomes the face-up card, so a 7 given can be taken with the 2.",
        "es": "La carta dada pasa a ser la muestra, así que un 7 dado se puede cambiar por el 2.",
        "it": "La carta data diventa quella scoperta, quindi un 7 dato si può prendere con il 2.",
    },
    "chain_off": {
        "en": "A card given in an exchange may not be exchanged again.",
        "es": "Una carta dada en un cambio no se puede volver a cambiar.",
        "it": "Una carta data in uno scambio non si può scambiare di nuovo.",
    },
    "arrastro": {
        "en": "Arrastro: whoever leads the ace of trumps may call arrastro; every seat yet to play must play its"
              " highest trump, or with no trump its highest card.",
        "es": "Arrastro: quien sale con el as de triunfo puede decir «arrastro»; los que aún no han jugado deben"
              " echar su triunfo más alto o, sin triunfos, su carta más alta.",
        "it": "Arrastro: chi apre con l'asso di briscola può dire «arrastro»; chi non ha ancora giocato deve"
              " mettere la sua briscola più alta o, senza briscole, la sua carta più alta.",
    },
    "claim": {
        "en": "Claim: once the stock is gone, a seat about to lead may claim the rest of the hand when it can show"
              " its side holds the best trumps still out, one for every trick left (its own cards and partner cards"
              " it may see); the remaining cards are its side's.",
        "es": "Cantar las restantes: acabado el mazo, quien va a salir puede reclamar el resto de la mano si puede"
              " mostrar que su bando tiene los triunfos más altos que quedan, uno por baza (sus cartas y las del"
              " compañero que puede ver); las cartas restantes son suyas.",
        "it": "Rivendicare: finito il mazzo, chi deve aprire può reclamare il resto della mano se può mostrare che"
              " la sua squadra ha le briscole più alte rimaste, una per presa (le sue carte e quelle del compagno che"
              " può vedere); le carte rimaste sono sue.",
    },
    "signals_partner": {
        "en": "Signals (señas) to partners are allowed and must be truthful; opponents do not see them: {names}.",
        "es": "Se permiten señas al compañero, siempre verdaderas; los contrarios no las ven: {names}.",
        "it": "Sono ammessi segnali al compagno, sempre veritieri; gli avversari non li vedono: {names}.",
    },
    "signals_open": {
        "en": "Signals (señas) are allowed, truthful and seen by everybody: {names}.",
        "es": "Se permiten señas, siempre verdaderas y a la vista de todos: {names}.",
        "it": "Sono ammessi segnali, sempre veritieri e visti da tutti: {names}.",
    },
    "signals_combination": {
        "en": "Open talk and signals together: each truthful signal is made to the partner alone, or said aloud"
              " for everybody: {names}.",
        "es": "Charla abierta y señas a la vez: cada seña, siempre verdadera, se hace solo al compañero o se dice"
              " en voz alta para todos: {names}.",
        "it": "Parlare aperto e segnali insieme: ogni segnale, sempre veritiero, si fa solo al compagno o si dice"
              " ad alta voce per tutti: {names}.",
    },
    "signals_no_asks": {
        "en": "Nobody may ask for signals.",
        "es": "Nadie puede pedir señas.",
        "it": "Nessuno può chiedere segnali.",
    },
    "dealer_draw_face": {
        "en": "The first dealer is drawn by face value: the highest number deals (the rey 10, the caballo 9, the"
              " sota 8, the ace 1); a tie between the pairs goes to the pair whose cards add up to more.",
        "es": "El primero que da se sortea por el número: reparte el mayor (el rey 10, el caballo 9, la sota 8, el"
              " as 1); si empatan las parejas, gana la que sume más.",
        "it": "Il primo mazziere si sorteggia per il numero: distribuisce il più alto (il re 10, il cavallo 9, il"
              " fante 8, l'asso 1); in caso di parità tra le coppie vince quella che somma di più.",
    },
    "deal_look": {
        "en": "Partners see each other's first three cards.",
        "es": "Los compañeros se enseñan las tres primeras cartas.",
        "it": "I compagni si mostrano le prime tre carte.",
    },
    "partners_look": {
        "en": "When the stock runs out, partners see each other's hands.",
        "es": "Al acabarse el mazo, los compañeros se ven las cartas.",
        "it": "Finito il mazzo, i compagni si guardano le carte.",
    },
    "open_hands": {
        "en": "Every hand is played face up (scoperta); the stock stays face down.",
        "es": "Todas las manos se juegan descubiertas; el mazo sigue boca abajo.",
        "it": "Tutte le mani si giocano scoperte; il mazzo resta coperto.",
    },
    "kill_three": {
        "en": "Muerte al tres: the ace of trumps may not be played before the three of trumps, except in the last"
              " trick; when it takes the three of trumps the hand ends at once, won by its side.",
        "es": "Muerte al tres: el as de triunfo no se puede jugar antes que el tres de triunfo, salvo en la última"
              " baza; si mata al tres, la mano acaba al instante y la gana su bando.",
        "it": "Muerte al tres: l'asso di briscola non si può giocare prima del tre di briscola, salvo nell'ultima"
              " presa; se prende il tre, la mano finisce subito e la vince la sua squadra.",
    },
    "most": {
        "en": "The side with most points wins the hand.",
        "es": "Gana la mano el bando con más puntos.",
        "it": "Vince la mano la squadra con più punti.",
    },
    "least": {
        "en": "The side with fewest points wins the hand (a side over 11 loses; if both are, the lower wins).",
        "es": "Gana la mano el bando con menos puntos (quien pasa de 11 pierde; si pasan los dos, gana el menor).",
        "it": "Vince la mano la squadra con meno punti (chi supera 11 perde; se entrambe, vince la più bassa).",
    },
    "last_trick": {
        "en": "The last trick scores {n} more.",
        "es": "La última baza vale {n} más.",
        "it": "L'ultima presa vale {n} in più.",
    },
    "pairs": {
        "en": "Capturing the king and the knight of one suit scores 40 more in trumps, 20 in another suit.",
        "es": "Llevarse el rey y el caballo de un palo vale 40 más en triunfo y 20 en otro palo.",
        "it": "Prendere re e cavallo dello stesso seme vale 40 in più a briscola e 20 in un altro seme.",
    },
    "tie_draw": {
        "en": "A tie is a drawn hand and does not count.",
        "es": "El empate es mano nula y no cuenta.",
        "it": "Il pareggio è mano nulla e non conta.",
    },
    "tie_replay": {
        "en": "A tie is replayed: the same dealer deals again.",
        "es": "El empate se repite: vuelve a dar el mismo.",
        "it": "Il pareggio si rigioca: distribuisce di nuovo lo stesso mazziere.",
    },
    "tie_most_cards": {
        "en": "A tie goes to the side with more cards.",
        "es": "El empate lo gana el bando con más cartas.",
        "it": "Il pareggio lo vince la squadra con più carte.",
    },
    "tie_shared": {
        "en": "A tie is shared: every side tied for the most is credited the hand.",
        "es": "El empate se comparte: la mano se adjudica a todos los empatados con más puntos.",
        "it": "Il pareggio si divide: la mano va a tutti i pari merito con più punti.",
    },
    "match_hands": {
        "en": "Match: the first side to win {n} hands; the deal passes to the next seat.",
        "es": "Partida: gana el primer bando que gane {n} manos; da el siguiente jugador.",
        "it": "Partita: vince la prima squadra che vince {n} mani; distribuisce il giocatore successivo.",
    },
    "match_points": {
        "en": "Match: the first side to reach {n} points over the hands; the deal passes to the next seat.",
        "es": "Partida: gana el primer bando que llegue a {n} puntos sumando las manos; da el siguiente jugador.",
        "it": "Partita: vince la prima squadra che arriva a {n} punti sommando le mani; distribuisce il successivo.",
    },
    "match_rotation": {
        "en": "Match: the four deals; the side with most {what} wins.",
        "es": "Partida: las cuatro manos; gana el bando con más {what}.",
        "it": "Partita: le quattro mani; vince la squadra con più {what}.",
    },
    "match_game_points": {
        "en": "Match: the first to reach {n} game points; if several reach it in the same hand, the higher;"
              " level leaders play on. The deal passes to the next seat.",
        "es": "Partida: gana el primero que llegue a {n} puntos de juego; si llegan varios en la misma mano, el"
              " que más tenga; si empatan, se sigue. Da el siguiente jugador.",
        "it": "Partita: vince il primo che arriva a {n} punti gioco; se ci arrivano in più nella stessa mano,"
              " chi ne ha di più; a parità si continua. Distribuisce il successivo.",
    },
    "game_point_hand": {
        "en": "A hand won is worth one game point.",
        "es": "Cada mano ganada vale un punto de juego.",
        "it": "Ogni mano vinta vale un punto gioco.",
    },
    "game_point_contract": {
        "en": "Game points: one to the declarer's side when the contract is made, one to every other side when"
              " it is set.",
        "es": "Puntos de juego: uno al bando del que ganó la subasta si cumple, uno a cada uno de los demás si"
              " no cumple.",
        "it": "Punti gioco: uno alla parte di chi ha vinto l'asta se la rispetta, uno a ciascun altro se no.",
    },
    "match_fixed": {
        "en": "Match: {n} hands (a hand dealt again after a tie does not count); the side with the most hands"
              " won wins, and sides level play one more hand at a time until one leads.",
        "es": "Partida: {n} manos (la que se repite por empate no cuenta); gana el bando con más manos ganadas,"
              " y si hay empate se juega una mano más cada vez hasta que uno vaya delante.",
        "it": "Partita: {n} mani (quella ripetuta per pareggio non conta); vince la squadra con più mani vinte,"
              " e a parità si gioca una mano in più alla volta finché una passa avanti.",
    },
    "hands_word": {"en": "hands won", "es": "manos ganadas", "it": "mani vinte"},
    "game_points_word": {"en": "game points", "es": "puntos de juego", "it": "punti gioco"},
    "points_word": {"en": "points", "es": "puntos", "it": "punti"},
    "big_win": {
        "en": "A hand won by more than 100 points counts as two.",
        "es": "Una mano ganada por más de 100 puntos cuenta doble.",
        "it": "Una mano vinta con più di 100 punti di scarto conta doppio.",
    },
    "and": {"en": "and", "es": "y", "it": "e"},
    "or": {"en": "or", "es": "o", "it": "o"},
    "sources": {"en": "Sources", "es": "Fuentes", "it": "Fonti"},
    # ---- the dealt-out games: deals, auctions, contracts, declarations
    "deal_all": {
        "en": "Every card is dealt, one at a time from the seat after the dealer, {k} each.",
        "es": "Se reparten todas las cartas, de una en una desde el siguiente al que da, {k} a cada uno.",
        "it": "Si distribuiscono tutte le carte, una alla volta dal giocatore dopo il mazziere, {k} a testa.",
    },
    "deal_cutter_chooses": {
        "en": "Before each deal the cutter, the dealer's opponent after him, chooses how the deck is cut and"
              " dealt: {ways}; he leads.",
        "es": "Antes de cada reparto el alzador, el contrario a la derecha del que da, elige cómo se corta y se"
              " reparte: {ways}; él sale.",
        "it": "Prima di ogni distribuzione chi taglia, l'avversario dopo il mazziere, sceglie come tagliare e"
              " distribuire: {ways}; apre lui.",
    },
    "deal_talon": {
        "en": "The last {t} cards go face down to the table: the talon.",
        "es": "Las {t} últimas quedan boca abajo en la mesa: el talón.",
        "it": "Le ultime {t} restano coperte sul tavolo: il monte.",
    },
    "deal_alce": {
        "en": "Alce: the dealer's opponent cuts; every card is dealt in packets of 5 from the seat after the"
              " dealer, {k} each.",
        "es": "Alce: corta el contrario del que da; se reparten todas las cartas de 5 en 5 desde el siguiente al"
              " que da, {k} a cada uno.",
        "it": "Alce: taglia l'avversario del mazziere; si distribuiscono tutte le carte a pacchetti di 5 dal"
              " giocatore dopo il mazziere, {k} a testa.",
    },
    "deal_golpe": {
        "en": "Golpe: the cutter knocks; each seat gets {k} cards in a row from the seat after the dealer, and"
              " the last card of each opponent's packet is shown to all.",
        "es": "Golpe: el alzador golpea el mazo; cada uno recibe {k} cartas seguidas desde el siguiente al que da,"
              " y la última de cada contrario se enseña a todos.",
        "it": "Golpe: chi taglia bussa sul mazzo; ognuno riceve {k} carte di fila dal giocatore dopo il mazziere,"
              " e l'ultima di ogni avversario si mostra a tutti.",
    },
    "deal_pelada": {
        "en": "Pelada: the cutter turns the top card, the trump card, which is the dealer's; each seat gets {k}"
              " cards in a row; each opponent's first card is shown, and the next while they are trumps. The"
              " cutter must lead a trump to the first trick.",
        "es": "Pelada: el alzador da vuelta la primera carta, el triunfo, que es del que da; cada uno recibe {k}"
              " cartas seguidas; la primera de cada contrario se enseña, y la siguiente mientras sean triunfo. El"
              " alzador debe salir con triunfo en la primera jugada.",
        "it": "Pelada: chi taglia scopre la prima carta, la briscola, che è del mazziere; ognuno riceve {k} carte"
              " di fila; la prima di ogni avversario si mostra, e la seguente finché sono briscole. Chi ha"
              " tagliato apre la prima presa con una briscola.",
    },
    "trump_dealer": {
        "en": "The last card dealt is the trump card: it belongs to the dealer and everybody sees it until he"
              " plays it.",
        "es": "La última carta repartida es la muestra del triunfo: es del que da y todos la ven hasta que la"
              " juega.",
        "it": "L'ultima carta distribuita indica la briscola: è del mazziere e tutti la vedono finché non la"
              " gioca.",
    },
    "trump_dealer_pelada": {
        "en": "The trump card belongs to the dealer and everybody sees it until he plays it.",
        "es": "La muestra del triunfo es del que da y todos la ven hasta que la juega.",
        "it": "La carta di briscola è del mazziere e tutti la vedono finché non la gioca.",
    },
    "bid_points": {
        "en": "Auction: from the seat after the dealer, each in turn bids a number of points from {lo} to {hi},"
              " at least {step} above the last bid, or passes; a pass is final. It ends when one bidder is left.",
        "es": "Subasta: desde el siguiente al que da, cada uno puja un número de puntos de {lo} a {hi}, al menos"
              " {step} más que la última puja, o pasa; quien pasa ya no puja. Termina cuando queda uno.",
        "it": "Asta: dal giocatore dopo il mazziere, ognuno offre un numero di punti da {lo} a {hi}, almeno {step}"
              " più dell'ultima offerta, o passa; chi passa non rientra. Finisce quando ne resta uno.",
    },
    "bid_low_card": {
        "en": "Auction: from the seat after the dealer, each seat once names a rank lower than any named before,"
              " or passes; the lowest rank wins, and its bidder's side must take {lo} points.",
        "es": "Subasta: desde el siguiente al que da, cada uno nombra una vez un valor más bajo que los ya"
              " nombrados, o pasa; gana el más bajo, y su bando debe hacer {lo} puntos.",
        "it": "Asta: dal giocatore dopo il mazziere, ognuno chiama una volta un valore più basso di quelli già"
              " chiamati, o passa; vince il più basso, e la sua squadra deve fare {lo} punti.",
    },
    "all_pass_redeal": {
        "en": "If everybody passes, the hand is void and the next dealer deals.",
        "es": "Si todos pasan, la mano no vale y da el siguiente.",
        "it": "Se tutti passano, la mano non vale e distribuisce il successivo.",
    },
    "all_pass_last_must_bid": {
        "en": "If the others all pass before the last one has bid, he must bid at least {lo}.",
        "es": "Si los demás pasan antes de que el último haya pujado, este debe pujar al menos {lo}.",
        "it": "Se gli altri passano prima che l'ultimo abbia offerto, questi deve offrire almeno {lo}.",
    },
    "talon_take": {
        "en": "The auction's winner shows the talon to all, takes it and lays {t} cards face down into his own"
              " scoring pile; their points are his.",
        "es": "El que gana la subasta enseña el talón a todos, lo toma y deja {t} cartas boca abajo en su propio"
              " montón de bazas; sus puntos son suyos.",
        "it": "Chi vince l'asta mostra il monte a tutti, lo prende e scarta {t} carte coperte tra le sue prese;"
              " i loro punti sono suoi.",
    },
    "trump_named": {
        "en": "The auction's winner names the trump suit and leads the first trick.",
        "es": "El que gana la subasta elige el palo de triunfo y sale en la primera baza.",
        "it": "Chi vince l'asta sceglie il seme di briscola e apre la prima presa.",
    },
    "trump_called": {
        "en": "The bidder calls a card: its suit is trump and its holder is his hidden partner (calling his own"
              " card, he plays alone). Nobody knows the partner until the called card is played. The bidder"
              " leads.",
        "es": "El que gana la subasta llama una carta: su palo es el triunfo y quien la tiene es su compañero"
              " oculto (si llama una suya, juega solo). Nadie sabe quién es hasta que se juega la carta llamada."
              " Sale el que ganó la subasta.",
        "it": "Chi vince l'asta chiama una carta: il suo seme è la briscola e chi la tiene è il suo socio segreto"
              " (chiamando una carta sua, gioca da solo). Nessuno sa chi è finché la carta chiamata non viene"
              " giocata. Apre chi ha vinto l'asta.",
    },
    "trump_called_buia": {
        "en": "Chiamata buia: the bidder leads a first trick played with no trump, which the highest card of the"
              " suit led takes. Then he calls a card still in a hand: its suit is trump and its holder is his"
              " hidden partner (calling his own card, he plays alone). Nobody knows the partner until the called"
              " card is played. The first trick's winner leads the second.",
        "es": "Chiamata buia: el que gana la subasta sale a una primera baza sin triunfo, que gana la carta más"
              " alta del palo de salida. Después llama una carta que siga en una mano: su palo es el triunfo y"
              " quien la tiene es su compañero oculto (si llama una suya, juega solo). Nadie sabe quién es hasta"
              " que se juega la carta llamada. Sale a la segunda baza quien ganó la primera.",
        "it": "Chiamata buia: chi vince l'asta apre una prima presa senza briscola, che prende la carta più alta"
              " del seme di uscita. Poi chiama una carta ancora in mano a qualcuno: il suo seme è la briscola e"
              " chi la tiene è il suo socio segreto (chiamando una carta sua, gioca da solo). Nessuno sa chi è"
              " finché la carta chiamata non viene giocata. Apre la seconda presa chi ha preso la prima.",
    },
    "trump_called_low": {
        "en": "The bidder names a suit: the card of his rank in that suit is called; its suit is trump and its"
              " holder is his hidden partner (alone if he holds it). Nobody knows the partner until it is played."
              " The bidder leads.",
        "es": "El que gana nombra un palo: se llama la carta de su valor en ese palo; su palo es el triunfo y"
              " quien la tiene es su compañero oculto (solo si la tiene él). Nadie lo sabe hasta que se juega."
              " Sale el que ganó.",
        "it": "Chi vince nomina un seme: è chiamata la carta del suo valore in quel seme; il suo seme è la"
              " briscola e chi la tiene è il socio segreto (da solo se è sua). Nessuno lo sa finché non viene"
              " giocata. Apre chi ha vinto.",
    },
    "lead_two": {
        "en": "A 2 may be led only with the ace of its suit in hand or already played, after the partner has"
              " shown he lacks that suit, as the cutter's only trump in the first trick of a pelada, or when"
              " nothing else can be led.",
        "es": "Solo se sale con un dos teniendo el as de su palo o habiendo salido ya, cuando el compañero ha"
              " fallado ese palo, cuando es el único triunfo del alzador en la primera jugada de una pelada, o"
              " cuando no se tiene otra carta.",
        "it": "Si apre con un 2 solo avendo l'asso del suo seme o se è già uscito, dopo che il compagno ha"
              " mostrato di non avere quel seme, come unica briscola di chi ha tagliato nella prima presa di una"
              " pelada, o quando non si ha altro.",
    },
    "declare_vales": {
        "en": "Vales: a side holding the king and the knight of a suit may declare them in the trick where one"
              " of them is played, on the declaring seat's turn or, its card down, until the trick is gathered:"
              " 40 in trumps, 20 otherwise, to the side that wins that trick.",
        "es": "Vales (latas): el bando que tiene rey y caballo de un palo puede marcarlos en la jugada en que se"
              " juega uno de ellos, en el turno de quien marca o, con su carta ya en la mesa, hasta que se cierra"
              " la jugada: 40 en triunfo, 20 en otro palo, para quien gana esa jugada.",
        "it": "Vales: la squadra che ha re e cavallo di un seme può dichiararli nella presa in cui se ne gioca uno,"
              " al turno di chi dichiara o, con la sua carta già in tavola, finché la presa non è raccolta: 40 in"
              " briscola, 20 altrimenti, a chi vince quella presa.",
    },
    "declare_on_lead": {
        "en": "A player holding the king and the knight of a suit may declare them when he leads one of them"
              " after winning a trick: 40 in trumps, 20 otherwise, for him.",
        "es": "Quien tiene rey y caballo de un palo puede cantarlos al salir con uno de ellos después de ganar"
              " una baza: 40 en triunfo, 20 en otro palo, para él.",
        "it": "Chi ha re e cavallo di un seme può dichiararli aprendo con uno dei due dopo aver vinto una presa:"
              " 40 in briscola, 20 altrimenti, per lui.",
    },
    "capote": {
        "en": "A side that takes every trick wins the hand outright (capote).",
        "es": "El bando que gana todas las jugadas gana la mano sin más (capote).",
        "it": "Chi vince tutte le prese vince la mano senz'altro (cappotto).",
    },
    "contract_solo": {
        "en": "The declarer makes his bid if his points (cards taken, discards, last trick, declarations) reach"
              " it, and then scores the bid; otherwise each other player scores half of it.",
        "es": "El que subastó cumple si sus puntos (bazas, descartes, última baza, cantes) llegan a la puja, y"
              " suma la puja; si no, cada uno de los otros suma la mitad.",
        "it": "Il dichiarante mantiene se i suoi punti (prese, scarti, ultima presa, dichiarazioni) arrivano"
              " all'offerta, e la segna; altrimenti ogni altro giocatore ne segna la metà.",
    },
    "contract_called": {
        "en": "The bidder and his partner make the contract if together they take the points bid: the bidder"
              " scores 2, the partner 1, each other player -1; otherwise the opposite. Alone: 4, or -4, and each"
              " other player -1, or 1.",
        "es": "El que subastó y su compañero cumplen si juntos hacen los puntos pujados: él suma 2, el"
              " compañero 1, cada uno de los otros -1; si no, al revés. Solo: 4, o -4, y cada otro -1, o 1.",
        "it": "Chi ha vinto l'asta e il socio vincono se insieme fanno i punti offerti: lui segna 2, il socio 1,"
              " ogni altro -1; altrimenti il contrario. Da solo: 4, o -4, e ogni altro -1, o 1.",
    },
    "match_one": {
        "en": "Match: a single hand; the side that wins it wins the match.",
        "es": "Partida: una sola mano; el bando que la gana gana la partida.",
        "it": "Partita: una sola mano; la squadra che la vince vince la partita.",
    },
    "match_score": {
        "en": "Match: the first to reach {n} match points; if several reach it in the same hand, the higher;"
              " level leaders play on. The deal passes to the next seat.",
        "es": "Partida: gana el primero que llegue a {n} puntos de partida; si llegan varios en la misma mano, el"
              " que más tenga; si empatan, se sigue. Da el siguiente jugador.",
        "it": "Partita: vince il primo che arriva a {n} punti partita; se ci arrivano in più nella stessa mano,"
              " chi ne ha di più; a parità si continua. Distribuisce il successivo.",
    },
}

SIGNAL_NAMES: dict[str, dict[str, str]] = {
    "trump-ace": {"en": "ace of trumps", "es": "as de triunfo", "it": "asso di briscola"},
    "trump-three": {"en": "three of trumps", "es": "tres de triunfo", "it": "tre di briscola"},
    "trump-king": {"en": "king of trumps", "es": "rey de triunfo", "it": "re di briscola"},
    "trump-knight": {"en": "knight of trumps", "es": "caballo de triunfo", "it": "cavallo di briscola"},
    "trump-jack": {"en": "jack of trumps", "es": "sota de triunfo", "it": "fante di briscola"},
    "small-trumps": {"en": "small trumps", "es": "triunfos pequeños", "it": "briscole piccole"},
    "briscas": {"en": "briscas in other suits", "es": "briscas de otro palo", "it": "carichi di altri semi"},
    "no-trumps": {"en": "no trumps", "es": "sin triunfos", "it": "senza briscole"},
    "ask-points": {"en": "asks for points", "es": "pide puntos", "it": "chiede punti"},
    "ask-cards": {"en": "asks for cards", "es": "pide cartas", "it": "chiede le carte"},
    "high-card": {"en": "high card in another suit", "es": "carta alta de otro palo", "it": "carico in un altro seme"},
}
assert set(SIGNAL_NAMES) == set(SIGNALS)


#: The presets' titles in Spanish and Italian (``rules.title`` is the English one); a preset missing here
#: keeps its English title.
TITLES: dict[str, dict[str, str]] = {
    "bixkla": {"es": "Bixkla (Malta)", "it": "Bixkla (Malta)"},
    "briscola": {"es": "Briscola (italiana)", "it": "Briscola (italiana)"},
    "chiamata": {"es": "Briscola chiamata (Italia)", "it": "Briscola chiamata (Italia)"},
    "chiamata-buia": {"es": "Briscola chiamata buia (Italia)", "it": "Briscola chiamata buia (Italia)"},
    "chilean": {"es": "Brisca porteña (Chile)", "it": "Brisca porteña (Cile)"},
    "lombard": {"es": "Briscola (valores lombardos)", "it": "Briscola (valori lombardi)"},
    "lombard-kept-ranks": {"es": "Briscola (valores lombardos, orden de siempre)",
                           "it": "Briscola (valori lombardi, ordine di sempre)"},
    "mariaje": {"es": "Mariaje / Cinquecento (Sicilia)", "it": "Mariaje / Cinquecento (Sicilia)"},
    "mexican": {"es": "Brisca (mexicana)", "it": "Brisca (messicana)"},
    "muerte-al-tres": {"es": "Muerte al Tres (Cuba)", "it": "Muerte al Tres (Cuba)"},
    "rematada": {"es": "Brisca rematada (Chile)", "it": "Brisca rematada (Cile)"},
    "scoperta": {"es": "Briscola scoperta (a cartas vistas)", "it": "Briscola scoperta (a carte scoperte)"},
    "spanish": {"es": "Brisca (española)", "it": "Brisca (spagnola)"},
    "tuscan": {"es": "Briscola (valores toscanos)", "it": "Briscola (valori toscani)"},
    "tuscan-kept-ranks": {"es": "Briscola (valores toscanos, orden de siempre)",
                          "it": "Briscola (valori toscani, ordine di sempre)"},
}


def title_in(rules: Rules, lang: Lang) -> str:
    """The preset's title in ``lang``; the English title for a preset without a translation."""
    return TITLES.get(rules.variant, {}).get(lang, rules.title)


def card_notation(rules: Rules) -> Notation:
    """The notation the rules write cards in (``card_names``): Italian for the briscola family.

    Card *names* are not the deck's but the reader's: every screen and page names cards in its own
    language (``re di denari`` on an Italian screen, ``king of coins`` on an English one, whatever the deck).
    """
    return NOTATIONS[rules.card_names]


def notation_lines(rules: Rules, lang: Lang) -> list[str]:
    """How the rules write cards, in ``lang``: the face cards' symbols and the suit letters."""
    n = card_notation(rules)
    faces = ", ".join(f"{n.rank_symbol(r)} {r.name_in(lang)}" for r in (Rank.ACE, Rank.JACK, Rank.KNIGHT, Rank.KING))
    suits = ", ".join(f"{n.suit_letter(s)} {s.name_in(lang)}" for s in Suit)
    example = ", ".join(c.text(n) for c in parse_cards("3O 12E 10C 1B"))
    out = [_t("notation", lang, example=example, faces=faces, suits=suits)]
    if n is ITALIAN:
        out.append(_t("notation_italian", lang, spanish="12O", italian="RD"))
    return out


def _t(key: str, lang: Lang, **kw: object) -> str:
    return T[key][lang].format(**kw)


def _join(items: list[str], lang: Lang, word: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {T[word][lang]} {items[-1]}"


def rules_lines(rules: Rules, lang: Lang = "en") -> list[str]:
    """The rules as a list of sentences, in order: seats, cards, deal, play, scoring, match."""
    notation = card_notation(rules)
    rank_name = {r: Rank(r).name_in(lang) for r in range(1, 13)}
    out = [_t("players", lang, counts=_join([str(n) for n in rules.player_counts], lang, "or"))]
    for n in rules.partnerships:
        evens = "-".join(str(s) for s in range(0, n, 2))
        odds = "-".join(str(s) for s in range(1, n, 2))
        out.append(_t("teams", lang, n=n, sides=f"{evens} / {odds}"))
    if any(rules.sides(n) == n for n in rules.player_counts) and rules.partnerships:
        out.append(_t("alone", lang))
    if rules.partners == "draw":
        out.append(_t("partners_draw" if rules.partnerships else "dealer_draw", lang))
    out.append(_t("deck_italian" if notation is ITALIAN else "deck", lang, size=rules.deck))
    out += notation_lines(rules, lang)
    if rules.deck == 40:
        for n, cards in rules.removed:
            if n in rules.player_counts:
                names = [f"{c.text(notation)} {c.name(lang)}" for c in parse_cards(cards)]
                out.append(_t("removed", lang, n=n, cards=_join(names, lang)))
    order = rules.strength_order()
    symbols = " ".join(notation.rank_symbol(r) for r in order)
    out.append(_t("ranks", lang, ranks=f"{symbols} (" + ", ".join(rank_name[r] for r in order) + ")"))
    total = sum(rules.card_points(c) for c in rules.deck_cards(rules.player_counts[0])) if rules.player_counts else 0
    pts = ", ".join(f"{rank_name[r]} {p}" for r, p in sorted(rules.points, key=lambda rp: -rp[1]) if p)
    out.append(_t("points", lang, points=pts, total=total))
    if rules.dealt_out:
        out += _dealt_out_lines(rules, lang)
    else:
        out.append(_t("deal", lang, k=rules.hand_size))
        out.append(_t("rotation" if rules.trump_rotation else "turn_up", lang))
    if rules.dealer_draw == "face_value":
        out.append(_t("dealer_draw_face", lang))
    if not rules.auction:
        out.append(_t("lead", lang))
    out.append(_t(f"follow_{rules.follow}", lang))
    if rules.follow != "none" and rules.follow_from == "empty_stock" and not rules.dealt_out:
        out.append(_t("follow_empty", lang))
    if rules.lead_two == "guarded":
        out.append(_t("lead_two", lang))
    out.append(_t("wins", lang))
    if not rules.dealt_out:
        out.append(_t("draw", lang))
    if rules.dealt_out:
        pass
    elif rules.trump_exchange == "off" or rules.trump_rotation:
        out.append(_t("exchange_off", lang))
    else:
        by_given = dict(rules.exchange_with)
        present = set(order)
        high = _join([rank_name[r] for r in by_given.get(7, ()) if r in present], lang, "or")
        low = _join([rank_name[r] for r in by_given.get(2, ()) if r in present], lang, "or")
        out.append(_t("exchange", lang, when=_t(f"exchange_{rules.trump_exchange}", lang), high=high, low=low))
        if rules.trump_exchange == "announced":
            out.append(_t("announced_hand", lang))
        out.append(_t("chain_on" if rules.exchange_chain else "chain_off", lang))
    if rules.arrastro:
        out.append(_t("arrastro", lang))
    if rules.kill_three:
        out.append(_t("kill_three", lang))
    if rules.claim:
        out.append(_t("claim", lang))
    if rules.signals != "off" and rules.partnerships:
        names = [n for n in SIGNAL_SETS[rules.signal_set] if rules.signal_asks or n not in ASK_SIGNALS]
        listed = ", ".join(f"{k} ({SIGNAL_NAMES[k][lang]})" for k in names)
        out.append(_t(f"signals_{rules.signals}", lang, names=listed))
        if not rules.signal_asks and any(n in ASK_SIGNALS for n in SIGNAL_SETS[rules.signal_set]):
            out.append(_t("signals_no_asks", lang))
    if rules.deal_look and rules.partnerships:
        out.append(_t("deal_look", lang))
    if rules.partners_look and rules.partnerships:
        out.append(_t("partners_look", lang))
    if rules.open_hands:
        out.append(_t("open_hands", lang))
    if rules.declarations != "off":
        out.append(_t(f"declare_{rules.declarations}", lang))
    if rules.contract == "off":
        out.append(_t(rules.hand_winner, lang))
    if rules.last_trick_bonus:
        out.append(_t("last_trick", lang, n=rules.last_trick_bonus))
    if rules.pair_bonus:
        out.append(_t("pairs", lang))
    if rules.capote:
        out.append(_t("capote", lang))
    if rules.contract != "off":
        out.append(_t(f"contract_{rules.contract}", lang))
    else:
        out.append(_t(f"tie_{rules.tie}", lang))
    if rules.match == "game_points":
        out.append(_t("game_point_contract" if rules.contract != "off" else "game_point_hand", lang))
    if rules.trump_rotation:
        word = {"target_points": "points_word", "game_points": "game_points_word"}.get(rules.match, "hands_word")
        out.append(_t("match_rotation", lang, what=_t(word, lang)))
    elif rules.match == "game_points":
        out.append(_t("match_game_points", lang, n=rules.target_game_points))
    elif rules.match == "fixed_hands":
        out.append(_t("match_fixed", lang, n=rules.hands))
    elif rules.contract != "off":
        out.append(_t("match_score", lang, n=rules.target_points))
    elif rules.match == "target_points":
        out.append(_t("match_points", lang, n=rules.target_points))
    elif rules.target_hands == 1:
        out.append(_t("match_one", lang))
    else:
        out.append(_t("match_hands", lang, n=rules.target_hands))
    if rules.big_win and rules.contract == "off" and rules.match != "target_points":
        out.append(_t("big_win", lang))
    return out


def _dealt_out_lines(rules: Rules, lang: Lang) -> list[str]:
    """The deal, the trump and the auction of the games that deal every card."""
    k = rules.hand_size
    if rules.deal == "cutter_chooses":
        out = [_t("deal_cutter_chooses", lang, ways=", ".join(rules.cut_ways))]
        out += [_t(f"deal_{way}", lang, k=k) for way in rules.cut_ways]
    else:
        out = [_t("deal_all" if rules.deal == "one_by_one" else f"deal_{rules.deal}", lang, k=k)]
    if rules.talon:
        out.append(_t("deal_talon", lang, t=rules.talon))
    if rules.trump_from == "dealer":
        out.append(_t("trump_dealer_pelada" if rules.deal == "pelada" else "trump_dealer", lang))
    if rules.bidding == "points":
        out.append(_t("bid_points", lang, lo=rules.min_bid, hi=rules.max_bid, step=rules.bid_step))
    elif rules.bidding == "low_card":
        out.append(_t("bid_low_card", lang, lo=rules.min_bid))
    if rules.auction:
        out.append(_t(f"all_pass_{rules.all_pass}", lang, lo=rules.min_bid))
    if rules.talon:
        out.append(_t("talon_take", lang, t=rules.talon))
    if rules.trump_from == "named":
        out.append(_t("trump_named", lang))
    elif rules.trump_from == "called":
        if rules.bidding == "low_card":
            out.append(_t("trump_called_low", lang))
        else:
            out.append(_t("trump_called_buia" if rules.call_time == "after_first_trick" else "trump_called", lang))
    return out


def rules_text(rules: Rules, lang: Lang = "en") -> str:
    """The rules of ``rules`` as plain text: a title and one sentence a line."""
    title = title_in(rules, lang)
    lines = [title, "=" * len(title), ""]
    lines += [f"- {s}" for s in rules_lines(rules, lang)]
    if rules.sources:
        lines += ["", f"{T['sources'][lang]}: " + "; ".join(rules.sources)]
    return "\n".join(lines)


def docs_index() -> str:
    """``docs/rules.md``: the presets, the signals, the record actions and every option."""
    from brisca.rules import find_variant, variant_names

    lines = ["# The rules: presets, signals, record actions and options", "",
             "Generated by `python -m brisca.rulebook docs` from the rules data; a test keeps these pages in step"
             " with the engine.", "", "## Presets", "",
             "| preset | game | players | page |", "|---|---|---|---|"]
    for name in variant_names():
        r = find_variant(name)
        lines.append(f"| `{name}` | {r.title} | {'/'.join(map(str, r.player_counts))} | [rules](variants/{name}.md) |")
    lines += ["", "## Card notation", "",
              "A card is written rank then suit, case-insensitive. Presets with `card_names: italian` (the briscola"
              " family) write the Italian notation on screens and rule pages; records always keep the Spanish one,"
              " so every version reads every record (the record's rules name the notation to show).", "",
              "| notation | ace | 2-7 | 8, 9 (48 cards) | jack | knight | king | coins | cups | swords | clubs |",
              "|---|---|---|---|---|---|---|---|---|---|---|",
              "| Spanish (`3O`, `12E`) | `1` as | `2`-`7` | `8`, `9` | `10` sota | `11` caballo | `12` rey | `O` oros"
              " | `C` copas | `E` espadas | `B` bastos |",
              "| Italian (`3D`, `RS`) | `A` (or `1`) asso | `2`-`7` | `8`, `9` | `F` fante | `C` cavallo | `R` re"
              " | `D` denari | `C` coppe | `S` spade | `B` bastoni |", "",
              "`Card.parse` reads both notations and the cards' names in Spanish, English and Italian: no text is one"
              " card in one notation and another card in the other. The one exception is `10`, the sota (jack) of a"
              " Spanish deck but the re (king) where Italian players count the fante 8, the cavallo 9 and the re 10:"
              " `Card.parse(text, ITALIAN)` (and the terminal, for Italian presets) refuses `10C` rather than guess."
              " `str(card)` is always the Spanish notation; `card.text(ITALIAN)` writes the Italian one. Screens"
              " name cards in their own language: `RD king of coins` on an English screen, `RD rey de oros` on a"
              " Spanish one, `3O tre di denari` for a Spanish deck on an Italian one."]
    lines += ["", "## Partner signals (señas)", "",
              "Under `signals: partner` (only partners see them) or `open` (everybody does), a seat may make any"
              " of these on its turn, before it plays, each at most once a turn. The engine allows only truthful"
              " ones. In a record: `{\"seat\": 0, \"signal\": \"trump-ace\"}`.", "",
              "| signal | truthful when the seat | es | it |", "|---|---|---|---|"]
    for name, meaning in SIGNALS.items():
        lines.append(f"| `{name}` | {meaning} | {SIGNAL_NAMES[name]['es']} | {SIGNAL_NAMES[name]['it']} |")
    lines += ["", "## Record actions", "", "| action | record form | notation |", "|---|---|---|",
              "| play a card | `{\"seat\": s, \"play\": \"3O\"}` | `3O` |",
              "| exchange the trump | `{\"seat\": s, \"exchange\": \"7B\"}` | `x7B` |",
              "| announce an exchange, laying the trump under the face-up card (`trump_exchange: announced`) |"
              " `{\"seat\": s, \"announce\": \"7B\"}` | `announce 7B` |",
              "| lead the ace of trumps with arrastro |"
              " `{\"seat\": s, \"play\": \"1O\", \"arrastro\": true}` | `1O!` |",
              "| claim the rest | `{\"seat\": s, \"claim\": true}` | `claim` |",
              "| signal | `{\"seat\": s, \"signal\": \"briscas\"}` | `signal briscas` |",
              "| bid points | `{\"seat\": s, \"bid\": 110}` | `bid 110` |",
              "| bid a rank (`bidding: low_card`) | `{\"seat\": s, \"bid\": \"3\"}` | `bid rank 3` |",
              "| pass in the auction | `{\"seat\": s, \"pass\": true}` | `pass` |",
              "| call a card (chiamata) | `{\"seat\": s, \"call\": \"3O\"}` | `call 3O` |",
              "| name the trump suit | `{\"seat\": s, \"trump\": \"O\"}` | `trump O` |",
              "| discard into the own pile | `{\"seat\": s, \"discard\": [\"5O\", \"6C\"]}` |"
              " `discard 5O 6C` |",
              "| declare a king-knight pair | `{\"seat\": s, \"declare\": \"O\"}` | `declare O` |",
              "", "Hand records may carry `\"deal\": k`, the deal's number in its match (it picks the trump under"
              " `trump_rotation`). Every action names the seat that took it: under `trump_exchange: out_of_turn` an"
              " exchange made while another seat was to act is written where it was made, with its own seat.", "",
              "## Options", "", "| option | meaning |", "|---|---|"]
    lines += [f"| `{name}` | {opt.help} |" for name, opt in OPTIONS.items()]
    return "\n".join(lines) + "\n"


def write_docs(folder: str) -> list[str]:
    """Write ``rules.md`` and one page per preset under ``folder``; returns the paths written."""
    import os

    from brisca.rules import find_variant, variant_names

    os.makedirs(os.path.join(folder, "variants"), exist_ok=True)
    pages = {os.path.join(folder, "rules.md"): docs_index()}
    for name in variant_names():
        pages[os.path.join(folder, "variants", f"{name}.md")] = rules_markdown(find_variant(name))
    for path, text in pages.items():
        with open(path, "w", encoding="utf-8") as fp:
            fp.write(text)
    return list(pages)


def rules_markdown(rules: Rules) -> str:
    """The documentation page of a preset: its rules in three languages, sources and readings."""
    lines = [f"# `{rules.variant}`: {rules.title}", "", rules.doc, ""]
    if rules.sources:
        lines += ["Sources (in `shared/seeds/`): " + "; ".join(rules.sources) + ".", ""]
    if rules.readings:
        lines += ["## Readings chosen where the sources disagree or are silent", ""]
        lines += [f"- {r}" for r in rules.readings] + [""]
    lines += ["## Options", "", "Every option can be changed: `brisca play --variant "
              f"{rules.variant} --rule NAME=VALUE`, `\"rules\": {{...}}` in a record, or "
              f"`find_variant(\"{rules.variant}\").with_options(...)`. Values of this preset:", "",
              "| option | value | meaning |", "|---|---|---|"]
    for name, value in rules.options().items():
        lines.append(f"| `{name}` | `{json.dumps(value)}` | {OPTIONS[name].help} |")
    for lang, head in (("en", "Rules"), ("es", "Reglas"), ("it", "Regole")):
        lines += ["", f"## {head} ({lang})", ""]
        lines += [f"- {s}" for s in rules_lines(rules, lang)]  # type: ignore[arg-type]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover
    import sys

    for written in write_docs(sys.argv[1] if len(sys.argv) > 1 else "docs"):
        print(written)
