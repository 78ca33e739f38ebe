// The brisca web table: a small client with no build step. The server decides everything;
// this page only shows the view it is sent and offers the legal actions it lists.
"use strict";

const STRINGS = {
  en: {"signalsLabel": "Signals", "signalPrefix": "Signal: ", "claim": "Claim the rest", "arrastro": "Arrastro with ", "sig_trump-ace": "ace of trumps", "sig_trump-three": "three of trumps", "sig_trump-king": "king of trumps", "sig_trump-knight": "knight of trumps", "sig_trump-jack": "jack of trumps", "sig_small-trumps": "small trumps", "sig_briscas": "briscas in other suits", "sig_no-trumps": "no trumps", "sig_ask-points": "asks for points", "sig_ask-cards": "asks for cards", "sig_high-card": "high card in another suit", "sayPrefix": "Say aloud: ", "cutPrefix": "Cut: ", "phase_cut": "The cutter chooses the deal", "phase_mark": "Marking a vale",
       team: "Team",
       logIn: "Log in", signUp: "Sign up", logInSignUp: "Log in / Sign up", logOut: "Log out", username: "Username",
       password: "Password", usernameHint: "3 to 24 letters, digits, _ - or .", account: "Your account",
       myPage: "Your ratings and games", changePassword: "Change password", oldPassword: "Current password",
       newPassword: "New password (8 characters or more)", passwordChanged: "Password changed; your other sessions are logged out.",
       noPlayerRatings: "No rated games yet.", recentGames: "Recent games", playingAs: "Playing as", guest: "guest",
       lobby: "Tables", leaderboard: "Leaderboard", openTables: "Open tables", inProgress: "Games in progress",
       noOpen: "No open tables: create one below.", noPlaying: "No games in progress.", free: "free seats: {n}",
       joinTable: "Sit down", watch: "Watch", allPresets: "All", more: "More", noGames: "No finished games yet.",
       winner: "Winner", drawn: "Draw", handN: "Hand {n}", stepOf: "step {i} of {n}", dealt: "Cards dealt",
       ordinal: "Rating", name: "Name", gamesPlayed: "Games", noRatings: "No rated games with these rules yet.",
       freeSeat: "free seat", first: "First", last: "Last", replayThis: "Replay", finishedAt: "Finished",
       playersN: "{n} players",newTable: "New table", preset: "Rules", players: "Players", yourName: "Your name", otherSeats: "Other seats",
       create: "Create table", history: "Finished games", join: "Take a seat", invite: "Invite link:", trump: "Trump",
       send: "Send", human: "person", stock: "stock", yourTurn: "Your turn", turnOf: "Turn: ", waiting: "Waiting for players",
       spectating: "Watching", matchOver: "Match over. Winner: side ", draw: "Match drawn", record: "Download record",
       handOver: "Hand over. Points: ", exchange: "Exchange ",
       announce: "Lay under the face-up card: ", announcedLabel: "Under the face-up card",
       outOfTurn: "You may exchange now, out of turn", disconnected: "Reconnecting…", points: "pts",
       botSpeed: "Bot speed", fast: "fast", normalSpeed: "normal", slow: "slow", lastTrick: "Last trick",
       options: "Rule options (name=value, …)", bid: "Bid", pass: "Pass", bidRank: "Bid rank ", auction: "Auction",
       talon: "Talon", yourDiscards: "Your discards", discardHint: "Choose {n} cards to discard", confirm: "Confirm",
       nameTrump: "Name the trump suit:", callHint: "Call a card: its holder is your secret partner",
       noTrumpYet: "No trump: the call comes after this first trick",
       declare: "Declare ", declared: "declared", contract: "Contract", by: "by", called: "called", partner: "partner",
       scores: "Scores: ", match: "Match", gamePoints: "Game points", fixedHands: "hands: {n}; the most won wins",
       drawNote: "Draw for partners and seats: {cards}. {dealer} drew the highest card and deals.",
       away: "away: a bot plays in {n} s", standin: "a bot plays for them",
       awayNote: "{name} is away: a bot plays for them in {n} s", takeoverNote: "A bot now plays for {name}",
       backNote: "{name} is back", passed: "pass", shown: "Shown: ", replay: "Replay", prev: "◀", next: "▶",
       close: "Close", step: "Step", phase_bid: "Auction", phase_discard: "Discard", phase_trump: "Naming trump",
       phase_call: "Calling a card", phase_play: "",
       suit_O: "Coins", suit_C: "Cups", suit_E: "Swords", suit_B: "Clubs"},
  es: {"signalsLabel": "Señas", "signalPrefix": "Seña: ", "claim": "Reclamar el resto", "arrastro": "Arrastro con ", "sig_trump-ace": "as de triunfo", "sig_trump-three": "tres de triunfo", "sig_trump-king": "rey de triunfo", "sig_trump-knight": "caballo de triunfo", "sig_trump-jack": "sota de triunfo", "sig_small-trumps": "triunfos pequeños", "sig_briscas": "briscas de otro palo", "sig_no-trumps": "sin triunfos", "sig_ask-points": "pide puntos", "sig_ask-cards": "pide cartas", "sig_high-card": "carta alta de otro palo", "sayPrefix": "Decir en voz alta: ", "cutPrefix": "Corte: ", "phase_cut": "El alzador elige el reparto", "phase_mark": "Marcar vale",
       team: "Equipo",
       logIn: "Entrar", signUp: "Crear cuenta", logInSignUp: "Entrar / Crear cuenta", logOut: "Salir", username: "Usuario",
       password: "Contraseña", usernameHint: "De 3 a 24 letras, cifras, _ - o .", account: "Tu cuenta",
       myPage: "Tus puntuaciones y partidas", changePassword: "Cambiar la contraseña", oldPassword: "Contraseña actual",
       newPassword: "Contraseña nueva (8 caracteres o más)", passwordChanged: "Contraseña cambiada; tus otras sesiones se han cerrado.",
       noPlayerRatings: "Aún no hay partidas puntuadas.", recentGames: "Últimas partidas", playingAs: "Juegas como", guest: "invitado",
       lobby: "Mesas", leaderboard: "Clasificación", openTables: "Mesas abiertas", inProgress: "Partidas en juego",
       noOpen: "No hay mesas abiertas: crea una abajo.", noPlaying: "No hay partidas en juego.", free: "asientos libres: {n}",
       joinTable: "Sentarse", watch: "Mirar", allPresets: "Todas", more: "Más", noGames: "Aún no hay partidas terminadas.",
       winner: "Gana", drawn: "Empate", handN: "Mano {n}", stepOf: "paso {i} de {n}", dealt: "Cartas repartidas",
       ordinal: "Puntuación", name: "Nombre", gamesPlayed: "Partidas", noRatings: "Aún no hay partidas puntuadas con estas reglas.",
       freeSeat: "asiento libre", first: "Inicio", last: "Final", replayThis: "Ver repetición", finishedAt: "Terminada",
       playersN: "{n} jugadores",newTable: "Mesa nueva", preset: "Reglas", players: "Jugadores", yourName: "Tu nombre", otherSeats: "Otros asientos",
       create: "Crear mesa", history: "Partidas terminadas", join: "Sentarse", invite: "Enlace de invitación:", trump: "Triunfo",
       send: "Enviar", human: "persona", stock: "mazo", yourTurn: "Te toca", turnOf: "Turno: ", waiting: "Esperando jugadores",
       spectating: "Mirando", matchOver: "Partida terminada. Gana el equipo ", draw: "Partida empatada",
       record: "Descargar registro", handOver: "Mano terminada. Puntos: ", exchange: "Cambiar ",
       announce: "Poner debajo de la muestra: ", announcedLabel: "Debajo de la muestra",
       outOfTurn: "Puedes cambiar ahora, fuera de turno",
       disconnected: "Reconectando…", points: "ptos",
       botSpeed: "Velocidad de los bots", fast: "rápida", normalSpeed: "normal", slow: "lenta", lastTrick: "Última baza",
       options: "Opciones de reglas (nombre=valor, …)", bid: "Pujar", pass: "Paso", bidRank: "Pujar el ", auction: "Subasta",
       talon: "Monte", yourDiscards: "Tus descartes", discardHint: "Elige {n} cartas para descartar", confirm: "Confirmar",
       nameTrump: "Elige el palo de triunfo:", callHint: "Llama una carta: quien la tenga es tu compañero secreto",
       noTrumpYet: "Sin triunfo: la llamada viene tras esta primera baza",
       declare: "Cantar ", declared: "cantó", contract: "Contrato", by: "de", called: "llamada", partner: "compañero",
       scores: "Tantos: ", match: "Partida", gamePoints: "Puntos de juego", fixedHands: "manos: {n}; gana quien más gane",
       drawNote: "Sorteo de parejas y puestos: {cards}. {dealer} sacó la carta más alta y reparte.",
       away: "ausente: juega un bot en {n} s", standin: "juega un bot por él",
       awayNote: "{name} se ha ido: un bot jugará por él en {n} s", takeoverNote: "Un bot juega ahora por {name}",
       backNote: "{name} ha vuelto", passed: "paso", shown: "Enseñadas: ", replay: "Repetición", prev: "◀", next: "▶",
       close: "Cerrar", step: "Paso", phase_bid: "Subasta", phase_discard: "Descarte", phase_trump: "Elección del triunfo",
       phase_call: "Llamada de carta", phase_play: "",
       suit_O: "Oros", suit_C: "Copas", suit_E: "Espadas", suit_B: "Bastos"},
  it: {"signalsLabel": "Segnali", "signalPrefix": "Segnale: ", "claim": "Reclama il resto", "arrastro": "Arrastro con ", "sig_trump-ace": "asso di briscola", "sig_trump-three": "tre di briscola", "sig_trump-king": "re di briscola", "sig_trump-knight": "cavallo di briscola", "sig_trump-jack": "fante di briscola", "sig_small-trumps": "briscole piccole", "sig_briscas": "carichi di altri semi", "sig_no-trumps": "senza briscole", "sig_ask-points": "chiede punti", "sig_ask-cards": "chiede le carte", "sig_high-card": "carico in un altro seme", "sayPrefix": "Di' ad alta voce: ", "cutPrefix": "Taglio: ", "phase_cut": "Chi taglia sceglie la distribuzione", "phase_mark": "Segnare un'accusa",
       team: "Squadra",
       logIn: "Accedi", signUp: "Registrati", logInSignUp: "Accedi / Registrati", logOut: "Esci", username: "Nome utente",
       password: "Password", usernameHint: "Da 3 a 24 lettere, cifre, _ - o .", account: "Il tuo account",
       myPage: "I tuoi punteggi e le tue partite", changePassword: "Cambia la password", oldPassword: "Password attuale",
       newPassword: "Nuova password (almeno 8 caratteri)", passwordChanged: "Password cambiata; le altre sessioni sono state chiuse.",
       noPlayerRatings: "Ancora nessuna partita valutata.", recentGames: "Partite recenti", playingAs: "Giochi come", guest: "ospite",
       lobby: "Tavoli", leaderboard: "Classifica", openTables: "Tavoli aperti", inProgress: "Partite in corso",
       noOpen: "Nessun tavolo aperto: creane uno qui sotto.", noPlaying: "Nessuna partita in corso.", free: "posti liberi: {n}",
       joinTable: "Siediti", watch: "Guarda", allPresets: "Tutte", more: "Altre", noGames: "Ancora nessuna partita finita.",
       winner: "Vince", drawn: "Pareggio", handN: "Mano {n}", stepOf: "mossa {i} di {n}", dealt: "Carte distribuite",
       ordinal: "Punteggio", name: "Nome", gamesPlayed: "Partite", noRatings: "Ancora nessuna partita valutata con queste regole.",
       freeSeat: "posto libero", first: "Inizio", last: "Fine", replayThis: "Rivedi", finishedAt: "Finita",
       playersN: "{n} giocatori",newTable: "Nuovo tavolo", preset: "Regole", players: "Giocatori", yourName: "Il tuo nome", otherSeats: "Altri posti",
       create: "Crea tavolo", history: "Partite finite", join: "Siediti", invite: "Link di invito:", trump: "Briscola",
       send: "Invia", human: "persona", stock: "mazzo", yourTurn: "Tocca a te", turnOf: "Turno: ", waiting: "In attesa di giocatori",
       spectating: "Spettatore", matchOver: "Partita finita. Vince la squadra ", draw: "Partita pari",
       record: "Scarica la registrazione", handOver: "Mano finita. Punti: ", exchange: "Scambia ",
       announce: "Metti sotto la carta scoperta: ", announcedLabel: "Sotto la carta scoperta",
       outOfTurn: "Puoi scambiare ora, fuori turno",
       disconnected: "Riconnessione…", points: "punti",
       botSpeed: "Velocità dei bot", fast: "veloce", normalSpeed: "normale", slow: "lenta", lastTrick: "Ultima presa",
       options: "Opzioni delle regole (nome=valore, …)", bid: "Chiama", pass: "Passo", bidRank: "Chiama il ", auction: "Asta",
       talon: "Monte", yourDiscards: "I tuoi scarti", discardHint: "Scegli {n} carte da scartare", confirm: "Conferma",
       nameTrump: "Scegli il seme di briscola:", callHint: "Chiama una carta: chi la ha è il tuo compagno segreto",
       noTrumpYet: "Niente briscola: la chiamata viene dopo questa prima presa",
       declare: "Accusa ", declared: "ha accusato", contract: "Contratto", by: "di", called: "chiamata", partner: "compagno",
       scores: "Punteggio: ", match: "Partita", gamePoints: "Punti gioco", fixedHands: "mani: {n}; vince chi ne vince di più",
       drawNote: "Sorteggio di coppie e posti: {cards}. {dealer} ha pescato la carta più alta e distribuisce.",
       away: "assente: gioca un bot tra {n} s", standin: "gioca un bot al suo posto",
       awayNote: "{name} è assente: un bot giocherà per lui tra {n} s", takeoverNote: "Un bot gioca ora per {name}",
       backNote: "{name} è tornato", passed: "passo", shown: "Mostrate: ", replay: "Rivedi", prev: "◀", next: "▶",
       close: "Chiudi", step: "Mossa", phase_bid: "Asta", phase_discard: "Scarto", phase_trump: "Scelta della briscola",
       phase_call: "Chiamata della carta", phase_play: "",
       suit_O: "Denari", suit_C: "Coppe", suit_E: "Spade", suit_B: "Bastoni"},
};
// Fair deals: the commitment shown at each deal, the check of a finished game's decks.
Object.assign(STRINGS.en, {
  committed: "Deck of hand {n} committed: {h}", practice: "Practice table: the deals come from seed {seed}, never rated.",
  dealsOk: "✓ Deals verified: {n} of {m} decks match the commitments published when they were dealt",
  dealsBad: "✗ Deal check failed: the deck of hand {list} does not match its commitment",
  dealsSeen: "✓ the same commitments this browser saw during play",
  dealsNotSeen: "✗ this browser saw other commitments during play (hand {list})",
  dealsNone: "This game's deals carry no commitments.", dealsServer: "(checked by the server: this browser cannot hash here)",
  practiceReplay: "Practice table: decks from seed {seed}.", practiceTag: "practice (seeded deals, unrated)",
  handShared: "tied for the most: the hand goes to sides {list}"});
Object.assign(STRINGS.es, {
  committed: "Baraja de la mano {n} comprometida: {h}", practice: "Mesa de práctica: las manos salen de la semilla {seed}; no puntúa.",
  dealsOk: "✓ Repartos comprobados: {n} de {m} barajas coinciden con el compromiso publicado al repartir",
  dealsBad: "✗ Reparto no válido: la baraja de la mano {list} no coincide con su compromiso",
  dealsSeen: "✓ los mismos compromisos que este navegador vio durante la partida",
  dealsNotSeen: "✗ este navegador vio otros compromisos durante la partida (mano {list})",
  dealsNone: "Los repartos de esta partida no llevan compromiso.", dealsServer: "(comprobado por el servidor: este navegador no puede calcular el hash aquí)",
  practiceReplay: "Mesa de práctica: barajas de la semilla {seed}.", practiceTag: "práctica (repartos con semilla, no puntúa)",
  handShared: "empate en cabeza: la mano es para los bandos {list}"});
Object.assign(STRINGS.it, {
  committed: "Mazzo della mano {n} impegnato: {h}", practice: "Tavolo di pratica: le smazzate vengono dal seme {seed}; non valutato.",
  dealsOk: "✓ Smazzate verificate: {n} mazzi su {m} corrispondono all'impegno pubblicato alla distribuzione",
  dealsBad: "✗ Verifica fallita: il mazzo della mano {list} non corrisponde al suo impegno",
  dealsSeen: "✓ gli stessi impegni che questo browser ha visto durante la partita",
  dealsNotSeen: "✗ questo browser ha visto altri impegni durante la partita (mano {list})",
  dealsNone: "Le smazzate di questa partita non hanno impegni.", dealsServer: "(verificato dal server: questo browser qui non può calcolare l'hash)",
  practiceReplay: "Tavolo di pratica: mazzi dal seme {seed}.", practiceTag: "pratica (smazzate da un seme, non valutata)",
  handShared: "pari in testa: la mano va alle squadre {list}"});
// The card table: seats, cards, results.
Object.assign(STRINGS.en, {
  tableHeading: "Card table", chat: "Chat", results: "Results", bot: "bot", dealer: "Dealer", dealerMark: "D",
  declarer: "declarer", yourTurnShort: "your turn", toPlay: "to play", awayShort: "away",
  cardsN: "{n} cards", tricksShort: "tricks", trickShort: "trick", tricksN: "{n} tricks", yourHand: "Your hand",
  keyHint: "Keys 1–{n} play a card", tookIt: "took the trick", cardOf: "{rank} of {suit}",
  level_easy: "easy", level_normal: "normal", level_hard: "hard", level_expert: "expert",
  rank_spanish_1: "Ace", rank_spanish_10: "Jack", rank_spanish_11: "Knight", rank_spanish_12: "King",
  rank_italian_1: "Ace", rank_italian_10: "Jack", rank_italian_11: "Knight", rank_italian_12: "King",
  suitIt_O: "Coins", suitIt_C: "Cups", suitIt_E: "Swords", suitIt_B: "Batons",
  handEnded: "Hand {n} is over", matchEnded: "The match is over", matchOverTitle: "Match over",
  matchOverShort: "Match over", winners: "Winners: {names}", wonHand: "won the hand", cardPoints: "Card points",
  otherCards: "{n} in cards outside the tricks", bonusLast: "Last trick", bonusPair: "King and knight of {suit}",
  declarerSide: "Declarer's side", defenders: "Defenders", contractMade: "contract made", contractSet: "contract set",
  toHands: "(first to {n} hands)", toPoints: "(first to {n} points)", ratingChanges: "Ratings",
  playAgain: "Play again", seeReplay: "See replay", nextHandIn: "Next hand in {n} s",
  reason_tie: "A tie: nobody wins the hand.", reason_capote: "Capote: every trick to one side.",
  "reason_three-killed": "The three was killed.", reason_shared: "Tied for the most: the hand is shared."});
Object.assign(STRINGS.es, {
  tableHeading: "Mesa", chat: "Charla", results: "Resultado", bot: "bot", dealer: "Reparte", dealerMark: "R",
  declarer: "pujador", yourTurnShort: "te toca", toPlay: "juega", awayShort: "ausente",
  cardsN: "{n} cartas", tricksShort: "bazas", trickShort: "baza", tricksN: "{n} bazas", yourHand: "Tu mano",
  keyHint: "Teclas 1–{n}: jugar una carta", tookIt: "se lleva la baza", cardOf: "{rank} de {suit}",
  level_easy: "fácil", level_normal: "normal", level_hard: "difícil", level_expert: "experto",
  rank_spanish_1: "As", rank_spanish_10: "Sota", rank_spanish_11: "Caballo", rank_spanish_12: "Rey",
  rank_italian_1: "As", rank_italian_10: "Sota", rank_italian_11: "Caballo", rank_italian_12: "Rey",
  suitIt_O: "Oros", suitIt_C: "Copas", suitIt_E: "Espadas", suitIt_B: "Bastos",
  handEnded: "Fin de la mano {n}", matchEnded: "La partida ha terminado", matchOverTitle: "Partida terminada",
  matchOverShort: "Partida terminada", winners: "Ganan: {names}", wonHand: "gana la mano", cardPoints: "Puntos de cartas",
  otherCards: "{n} en cartas fuera de las bazas", bonusLast: "Diez de últimas", bonusPair: "Cante de {suit}",
  declarerSide: "Bando del pujador", defenders: "Defensores", contractMade: "contrato cumplido",
  contractSet: "contrato fallado", toHands: "(a {n} manos)", toPoints: "(a {n} puntos)", ratingChanges: "Puntuaciones",
  playAgain: "Otra partida", seeReplay: "Ver repetición", nextHandIn: "Siguiente mano en {n} s",
  reason_tie: "Empate: nadie gana la mano.", reason_capote: "Capote: todas las bazas para un bando.",
  "reason_three-killed": "Han matado el tres.", reason_shared: "Empate en cabeza: la mano se comparte."});
Object.assign(STRINGS.it, {
  tableHeading: "Tavolo", chat: "Chat", results: "Risultato", bot: "bot", dealer: "Mazziere", dealerMark: "M",
  declarer: "chiamante", yourTurnShort: "tocca a te", toPlay: "gioca", awayShort: "assente",
  cardsN: "{n} carte", tricksShort: "prese", trickShort: "presa", tricksN: "{n} prese", yourHand: "La tua mano",
  keyHint: "Tasti 1–{n}: gioca una carta", tookIt: "prende", cardOf: "{rank} di {suit}",
  level_easy: "facile", level_normal: "normale", level_hard: "difficile", level_expert: "esperto",
  rank_spanish_1: "Asso", rank_spanish_10: "Sota", rank_spanish_11: "Cavallo", rank_spanish_12: "Re",
  rank_italian_1: "Asso", rank_italian_10: "Fante", rank_italian_11: "Cavallo", rank_italian_12: "Re",
  suitIt_O: "Denari", suitIt_C: "Coppe", suitIt_E: "Spade", suitIt_B: "Bastoni",
  handEnded: "Mano {n} finita", matchEnded: "La partita è finita", matchOverTitle: "Partita finita",
  matchOverShort: "Partita finita", winners: "Vincono: {names}", wonHand: "vince la mano", cardPoints: "Punti delle carte",
  otherCards: "{n} in carte fuori dalle prese", bonusLast: "Ultima presa", bonusPair: "Re e cavallo di {suit}",
  declarerSide: "Chiamante e socio", defenders: "Difensori", contractMade: "contratto fatto",
  contractSet: "contratto perso", toHands: "(a {n} mani)", toPoints: "(a {n} punti)", ratingChanges: "Punteggi",
  playAgain: "Gioca ancora", seeReplay: "Rivedi la partita", nextHandIn: "Prossima mano tra {n} s",
  reason_tie: "Pareggio: nessuno vince la mano.", reason_capote: "Cappotto: tutte le prese a una squadra.",
  "reason_three-killed": "Il tre è stato ucciso.", reason_shared: "Pari in testa: la mano è condivisa."});
const LEVELS = ["easy", "normal", "hard", "expert"];
let lang = localStorage.getItem("brisca:lang") || (navigator.language || "en").slice(0, 2);
if (!STRINGS[lang]) lang = "en";
const t = (key, args) => {
  let text = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  for (const [k, v] of Object.entries(args || {})) text = text.replace(`{${k}}`, v);
  return text;
};
const $ = (sel) => document.querySelector(sel);

function translate() {
  document.documentElement.lang = lang;
  $("#lang").value = lang;
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
}

function showError(text) {
  const box = $("#error");
  box.textContent = text;
  box.hidden = !text;
  if (text) setTimeout(() => { if (box.textContent === text) box.hidden = true; }, 5000);
}

function esc(text) {
  const div = document.createElement("div");
  div.textContent = text;
  return div.innerHTML;
}

// Who is logged in ({username, display} or null) and the token every POST carries (double submit).
const session = {user: null, csrf: null};

async function api(path, body) {
  const headers = {"Content-Type": "application/json"};
  if (session.csrf) headers["X-CSRF-Token"] = session.csrf;
  const res = await fetch(path, body === undefined ? {} : {method: "POST", headers, body: JSON.stringify(body)});
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail || res.status));
  return data;
}

// ------------------------------------------------------------------ lobby

// "target_hands=1, bidding=low_card" -> {target_hands: 1, bidding: "low_card"}; the server checks them.
function parseOptions(text) {
  const options = {};
  for (const part of text.split(/[,;\n]/)) {
    if (!part.trim()) continue;
    const at = part.indexOf("=");
    if (at < 1) throw new Error(`${part.trim()}: name=value`);
    const name = part.slice(0, at).trim(), raw = part.slice(at + 1).trim();
    try { options[name] = JSON.parse(raw); } catch { options[name] = raw; }
  }
  return options;
}

async function lobby() {
  $("#lobby").hidden = false;
  const presets = await api("/api/presets");
  const form = $("#create");
  form.preset.innerHTML = presets.map((p) => `<option value="${p.name}">${esc(p.title)}</option>`).join("");
  const setPlayers = () => {
    const preset = presets.find((p) => p.name === form.preset.value);
    form.players.innerHTML = preset.players.map((n) => `<option>${n}</option>`).join("");
    setSeats();
  };
  const setSeats = () => {
    const n = Number(form.players.value);
    const rows = [];
    for (let seat = 1; seat < n; seat++) {
      rows.push(`<label>${seat}: <select name="seat${seat}"><option value="">${t("human")}</option>` +
        LEVELS.map((l) => `<option${l === "normal" ? " selected" : ""}>${l}</option>`).join("") + `</select></label>`);
    }
    $("#seatbots").innerHTML = `<legend>${t("otherSeats")}</legend>` + rows.join("");
  };
  form.preset.onchange = setPlayers;
  form.players.onchange = setSeats;
  form.preset.value = "spanish";
  setPlayers();
  form.name.value = localStorage.getItem("brisca:name") || "";
  asAccount(form);
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const bots = {};
    for (let seat = 1; seat < Number(form.players.value); seat++) {
      const level = form[`seat${seat}`].value;
      if (level) bots[seat] = level;
    }
    try {
      const who = session.user ? {sit: true} : {name: form.name.value};
      if (!session.user) localStorage.setItem("brisca:name", form.name.value);
      const made = await api("/api/tables", {preset: form.preset.value, players: Number(form.players.value),
                                             bots, ...who, bot_delay: Number(form.speed.value),
                                             options: parseOptions(form.options.value)});
      localStorage.setItem(`brisca:seat:${made.table_id}`, JSON.stringify({seat: made.seat, token: made.token}));
      location.href = made.url;
    } catch (e) { showError(e.message); }
  };
  rerender = () => refreshLobby().catch(() => {});
  await refreshLobby();
  // Refreshed every few seconds while the page is in sight.
  setInterval(() => { if (document.visibilityState === "visible") refreshLobby().catch(() => {}); }, LOBBY_EVERY_MS);
}

const LOBBY_EVERY_MS = 3000;
// What a page redraws when the language changes.
let rerender = null;

// "bot:easy" (how bots are named in games and ratings) -> "easy (bot)"; a guest's name -> "Ana (guest)".
function displayName(name, guest) {
  if (name === null || name === undefined) return "";
  if (guest) return `${name} (${t("guest")})`;
  return name.startsWith("bot:") ? `${name.slice(4)} (bot)` : name;
}

// A link to an account's page (a guest's or a bot's name is plain text).
function playerLink(text, account) {
  return account ? `<a class="player" href="/players/${encodeURIComponent(account)}">${esc(text)}</a>` : esc(text);
}

function seatLabel(s) {
  if (s.bot) return esc(`${s.bot} (bot)`);
  return s.name === null ? `<i>${esc(t("freeSeat"))}</i>` : playerLink(displayName(s.name, s.guest), s.account);
}

// The forms where someone sits down: a name for a guest, the account's name for someone logged in.
function asAccount(form) {
  const user = session.user;
  form.querySelector(".guestname").hidden = !!user;
  form.name.required = !user;
  form.querySelector(".asaccount").hidden = !user;
  if (user) form.querySelector(".asaccount .me").textContent = user.display;
}

function score(entry) {
  if (entry.match_points && entry.match_points.some((p) => p)) return entry.match_points.join(" – ");
  return entry.hands_won ? entry.hands_won.join(" – ") : "";
}

async function refreshLobby() {
  const lobby = await api("/api/lobby");
  const item = (e, open) => `<li class="item" data-table="${e.table_id}">` +
    `<div class="what"><b>${esc(e.title)}</b> · ${esc(t("playersN", {n: e.players}))}` +
    (e.practice ? ` · <span class="practice">${esc(t("practiceTag"))}</span>` : "") +
    (open ? ` · <span class="free">${esc(t("free", {n: e.free.length}))}</span>`
      : ` · <span class="nowrap">${esc(t("handN", {n: e.hand_number + 1}))} · ${esc(score(e))}</span>`) + `</div>` +
    `<div class="who">${e.seats.map(seatLabel).join(", ")}</div>` +
    `<a class="go" href="${e.url}">${esc(open ? t("joinTable") : t("watch"))}</a></li>`;
  $("#opentables").innerHTML = lobby.open.map((e) => item(e, true)).join("") ||
    `<li class="empty">${esc(t("noOpen"))}</li>`;
  $("#playingtables").innerHTML = lobby.playing.map((e) => item(e, false)).join("") ||
    `<li class="empty">${esc(t("noPlaying"))}</li>`;
  document.body.dataset.lobby = String(Date.now());
}

function when(iso) {
  const date = new Date(iso.endsWith("Z") || iso.includes("+") ? iso : iso + "Z");
  return date.toLocaleString(lang, {dateStyle: "medium", timeStyle: "short"});
}

function winnerText(g) {
  return g.winner === null ? t("drawn") : `${t("winner")}: ${g.winners.map(displayName).join(", ")}`;
}

// ------------------------------------------------------------------ finished games

const PAGE = 20;

async function historyPage() {
  $("#history").hidden = false;
  const presets = await api("/api/presets");
  const select = $("#historypreset");
  select.insertAdjacentHTML("beforeend",
    presets.map((p) => `<option value="${p.name}">${esc(p.title)}</option>`).join(""));
  let offset = 0;
  const more = async (fresh) => {
    if (fresh) { offset = 0; $("#games").innerHTML = ""; }
    const preset = select.value ? `&preset=${encodeURIComponent(select.value)}` : "";
    const games = await api(`/api/games?limit=${PAGE}&offset=${offset}${preset}`);
    offset += games.length;
    $("#games").insertAdjacentHTML("beforeend", games.map((g) => `<li class="item" data-game="${g.table_id}">` +
      `<div class="what"><b>${esc(g.title)}</b> · ${esc(when(g.finished_at))}</div>` +
      `<div class="who">${g.names.map((n, i) => {
        const won = g.winner !== null && i % g.sides === g.winner;
        const who = playerLink(displayName(n, g.guests && g.guests[i]), g.accounts && g.accounts[i]);
        return won ? `<b class="won">★ ${who}</b>` : who;
      }).join(", ")}</div>` +
      `<div class="links"><a class="go" href="${g.url}">${esc(t("replayThis"))}</a> ` +
      `<a href="${g.record_url}" download>${esc(t("record"))}</a></div></li>`).join(""));
    if (!offset) $("#games").innerHTML = `<li class="empty">${esc(t("noGames"))}</li>`;
    $("#moregames").hidden = games.length < PAGE;
  };
  select.onchange = () => more(true).catch((e) => showError(e.message));
  rerender = select.onchange;
  $("#moregames").onclick = () => more(false).catch((e) => showError(e.message));
  await more(true);
}

// The replay of a finished game: every position, computed by the server's engine, all hands open.
const replay = {data: null, at: 0};

async function replayPage(id) {
  $("#replay").hidden = false;
  const data = await api(`/api/games/${encodeURIComponent(id)}/replay`);
  replay.data = data;
  faces = data.card_names === "italian" ? "italian" : "spanish";
  // Seats named alike (bots of one level) get their seat number too.
  const twice = (n) => data.names.filter((m) => m === n).length > 1;
  replay.info = {seats: data.names.map((n, i) => ({
    seat: i, name: displayName(n, data.guests && data.guests[i]) + (twice(n) ? ` #${i}` : "")}))};
  const last = data.steps.length - 1;
  $("#rstep").max = String(last);
  const go = (n) => { showStep(Math.max(0, Math.min(last, n))); };
  $("#rfirst").onclick = () => go(0);
  $("#rprev").onclick = () => go(replay.at - 1);
  $("#rnext").onclick = () => go(replay.at + 1);
  $("#rlast").onclick = () => go(last);
  $("#rstep").oninput = (ev) => go(Number(ev.target.value));
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
    const moves = {ArrowLeft: -1, ArrowRight: 1};
    if (ev.key in moves) go(replay.at + moves[ev.key]);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(last);
  });
  rerender = () => showStep(replay.at);
  window.addEventListener("hashchange", () => {
    const n = Number(location.hash.slice(1));
    if (Number.isInteger(n) && n !== replay.at) go(n);
  });
  const fromHash = Number(location.hash.slice(1));
  showStep(Number.isInteger(fromHash) && fromHash >= 0 && fromHash <= last ? fromHash : 0);
  await checkDeals(id, data);
}

async function sha256hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// Each deck against its commitment (hashed here when the browser can, as brisca verify does), and the
// commitments against those this browser saw while the game was played.
async function checkDeals(id, data) {
  const deals = data.deals || [];
  const lines = [];
  if (data.seed !== null && data.seed !== undefined) lines.push(t("practiceReplay", {seed: data.seed}));
  if (!deals.length || deals.some((d) => !d.commitment)) {
    lines.push(t("dealsNone"));
  } else {
    const local = Boolean(window.crypto && crypto.subtle);
    const bad = [];
    for (const [i, d] of deals.entries()) {
      const ok = local ? await sha256hex(`${data.commitment_scheme}\n${d.salt}\n${d.deck.join(" ")}`) === d.commitment
        : d.verified;
      if (!ok) bad.push(i + 1);
    }
    lines.push(bad.length ? t("dealsBad", {list: bad.join(", ")})
      : t("dealsOk", {n: deals.length, m: deals.length}) + (local ? "" : ` ${t("dealsServer")}`));
    const seen = JSON.parse(localStorage.getItem(`brisca:commitments:${id}`) || "null");
    if (seen && seen.length) {
      const differ = seen.map((h, i) => (h && deals[i] && h !== deals[i].commitment ? i + 1 : null)).filter((i) => i);
      lines.push(differ.length ? t("dealsNotSeen", {list: differ.join(", ")}) : t("dealsSeen"));
    }
    document.body.dataset.deals = bad.length ? "bad" : "ok";
  }
  $("#rfair").innerHTML = lines.map((l) => `<div>${esc(l)}</div>`).join("");
}

function replayHeader() {
  const d = replay.data;
  $("#rtitle").textContent = d.title;
  const winners = d.names.map((_n, i) => i).filter((i) => d.winner !== null && i % d.sides === d.winner)
    .map((i) => seatName(replay.info, i));
  const won = d.winner === null ? t("drawn") : `${t("winner")}: ${winners.join(", ")}`;
  $("#rinfo").innerHTML = `${esc(t("finishedAt"))} ${esc(when(d.finished_at))} · ${esc(won)} · ` +
    `<a href="${d.record_url}" download>${esc(t("record"))}</a>`;
}

function showStep(n) {
  const d = replay.data, step = d.steps[n], view = step.position, info = replay.info;
  replay.at = n;
  history.replaceState(null, "", `#${n}`);
  document.body.dataset.step = String(n);
  document.body.dataset.steps = String(d.steps.length);
  replayHeader();
  $("#rstep").value = String(n);
  $("#rfirst").disabled = $("#rprev").disabled = n === 0;
  $("#rlast").disabled = $("#rnext").disabled = n === d.steps.length - 1;
  const inHand = d.steps.filter((s) => s.hand === step.hand).length - 1;
  let what = `${t("handN", {n: step.hand + 1})} · ${t("stepOf", {i: step.index, n: inHand})} · `;
  what += step.action ? `${seatName(info, step.action.seat)}: ${actionText(info, step.action)}` : t("dealt");
  $("#rstepinfo").textContent = what;
  const scoreText = d.match === "target_points" ? `${step.match_points.join(" – ")} / ${d.target_points}`
    : d.match === "game_points" ? `${step.game_points.join(" – ")} / ${d.target_game_points}`
    : d.match === "fixed_hands" ? `${step.hands_won.join(" – ")} (${t("fixedHands", {n: d.match_hands})})`
    : step.hands_won.join(" – ");
  $("#rscore").textContent = `${t("match")}: ${scoreText}`;
  $("#rcontract").innerHTML = contractHTML(info, view);
  $("#rauction").innerHTML = auctionHTML(info, view);
  $("#rfaceup").innerHTML = view.face_up ? cardSVG(view.face_up) : trumpHTML(view);
  $("#rstock").textContent = `${view.stock_count} ${t("stock")}`;
  const talon = [...view.talon, ...view.discards.filter((c) => !view.talon.includes(c))];
  $("#rtalon").hidden = !talon.length;
  $("#rtaloncards").innerHTML = talon.map(cardSVG).join("");
  $("#rtrick").innerHTML = view.trick.map((c, i) =>
    `<figure>${cardSVG(c)}<figcaption>${esc(seatName(info, view.trick_seats[i]))}</figcaption></figure>`).join("");
  const lastTrick = view.last_trick;
  $("#rlasttrick").innerHTML = lastTrick ? lastTrick.cards.map((c, i) =>
    `<figure>${cardSVG(c)}<figcaption>${esc(seatName(info, (lastTrick.leader + i) % view.players))}</figcaption></figure>`).join("") : "";
  $("#rseats").innerHTML = view.hands.map((cards, seat) => {
    const cls = `rseat${view.turn === seat ? " turn" : ""}${step.action && step.action.seat === seat ? " acted" : ""}`;
    const side = d.sides < d.players ? ` · ${t("team")} ${seat % d.sides}` : "";
    return `<div class="${cls}" data-seat="${seat}"><div class="rname">${esc(seatName(info, seat))}` +
      ` · <span class="pts">${view.seat_points[seat]}</span> ${t("points")}${esc(side)}</div>` +
      `<div class="hand small">${cards.map(cardSVG).join("")}</div></div>`;
  }).join("");
  let result = "";
  if (view.result) {
    result = esc(t("handOver") + view.result.side_points.join(" – "));
    if (view.result.scores) result += " · " + esc(t("scores") + view.result.scores.join(", "));
    result += sharedText(view.result);
  }
  if (n === d.steps.length - 1) {
    result += (result ? "<br>" : "") + esc(d.winner === null ? t("draw")
      : `${t("matchOver")}${d.winner} · ★ ${d.names.map((_n, i) => i).filter((i) => i % d.sides === d.winner)
        .map((i) => seatName(replay.info, i)).join(", ")}`);
  }
  $("#rresult").innerHTML = result;
}

// A hand tied for the most points under tie=shared: every tied side is awarded it.
function sharedText(result) {
  return result.winner === null && result.winners && result.winners.length > 1
    ? " · " + esc(t("handShared", {list: result.winners.join(", ")})) : "";
}

// ------------------------------------------------------------------ the leaderboard

async function leaderboardPage(preset) {
  $("#leaderboard").hidden = false;
  const [presets, rated] = await Promise.all([api("/api/presets"), api("/api/ratings")]);
  const select = $("#boardpreset");
  select.innerHTML = presets.map((p) => `<option value="${p.name}">${esc(p.title)}</option>`).join("");
  select.value = preset || (rated.length ? rated[0].preset : "spanish");
  const show = async () => {
    const board = await api(`/api/ratings/${encodeURIComponent(select.value)}`);
    history.replaceState(null, "", `/leaderboard/${select.value}`);
    $("#ratingtable tbody").innerHTML = board.map((r) => `<tr><td>${r.rank}</td><td>${playerLink(displayName(r.name), r.account)}</td>` +
      `<td>${r.ordinal.toFixed(1)}</td><td>${r.mu.toFixed(1)}</td><td>${r.sigma.toFixed(2)}</td><td>${r.games}</td></tr>`).join("");
    $("#ratingtable").hidden = !board.length;
    $("#boardempty").hidden = board.length > 0;
    document.body.dataset.board = select.value;
  };
  select.onchange = () => show().catch((e) => showError(e.message));
  await show();
}

// ------------------------------------------------------------------ accounts

function renderWho() {
  const user = session.user;
  $("#whoami").innerHTML = user
    ? `<a id="nav-me" href="/account">${esc(user.display)}</a> · <a id="logout" href="#">${esc(t("logOut"))}</a>`
    : `<a id="nav-login" href="/login">${esc(t("logInSignUp"))}</a>`;
  document.body.dataset.user = user ? user.username : "";
  if (user) {
    $("#logout").onclick = async (ev) => {
      ev.preventDefault();
      try {
        await api("/api/logout", {});
        location.href = "/";
      } catch (e) { showError(e.message); }
    };
  }
}

async function loadSession() {
  const me = await api("/api/me");
  session.user = me.user;
  session.csrf = me.csrf;
  renderWho();
}

function loginPage() {
  $("#login").hidden = false;
  const enter = (form, path) => {
    form.onsubmit = async (ev) => {
      ev.preventDefault();
      try {
        const me = await api(path, {username: form.username.value, password: form.password.value});
        session.user = me.user;
        session.csrf = me.csrf;
        location.href = "/";
      } catch (e) { showError(e.message); }
    };
  };
  enter($("#loginform"), "/api/login");
  enter($("#signupform"), "/api/signup");
}

function accountPage() {
  if (!session.user) { location.href = "/login"; return; }
  $("#account").hidden = false;
  $("#myplayer").href = `/players/${encodeURIComponent(session.user.username)}`;
  const form = $("#passwordform");
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    try {
      await api("/api/password", {old: form.old.value, new: form.new.value});
      form.reset();
      $("#passwordchanged").hidden = false;
    } catch (e) { showError(e.message); }
  };
}

async function playerPage(username) {
  $("#player").hidden = false;
  const data = await api(`/api/players/${encodeURIComponent(decodeURIComponent(username))}`);
  const show = () => {
    $("#playername").textContent = data.display;
    $("#playerratings tbody").innerHTML = data.ratings.map((r) => `<tr data-preset="${esc(r.preset)}">` +
      `<td><a href="/leaderboard/${encodeURIComponent(r.preset)}">${esc(r.title)}</a></td>` +
      `<td>${r.ordinal.toFixed(1)}</td><td>${r.mu.toFixed(1)}</td><td>${r.sigma.toFixed(2)}</td><td>${r.games}</td></tr>`)
      .join("");
    $("#playerratings").hidden = !data.ratings.length;
    $("#playernoratings").hidden = data.ratings.length > 0;
    $("#playergames").innerHTML = data.games.map((g) => `<li class="item" data-game="${g.table_id}">` +
      `<div class="what"><b>${esc(g.title)}</b> · ${esc(when(g.finished_at))}</div>` +
      `<div class="who">${g.names.map((n, i) => {
        const who = playerLink(displayName(n, g.guests[i]), g.accounts[i]);
        return g.winner !== null && i % g.sides === g.winner ? `<b class="won">★ ${who}</b>` : who;
      }).join(", ")}</div>` +
      `<div class="links"><a class="go" href="${g.url}">${esc(t("replayThis"))}</a></div></li>`).join("") ||
      `<li class="empty">${esc(t("noGames"))}</li>`;
    document.body.dataset.player = data.username;
  };
  rerender = show;
  show();
}

$("#lang").onchange = (ev) => {
  lang = ev.target.value;
  localStorage.setItem("brisca:lang", lang);
  translate();
  renderWho();
  if (table.state) render();
  if (rerender) rerender();
};
translate();

// One page, eight places: the lobby, a table, the finished games, a replay, the leaderboard, logging in,
// the account, a player.
function route() {
  const path = location.pathname;
  let m;
  const pages = [
    [/^\/t\/([A-Za-z0-9_-]+)$/, "table", (id) => tablePage(id)],
    [/^\/games\/?$/, "history", () => historyPage()],
    [/^\/games\/([A-Za-z0-9_-]+)$/, "replay", (id) => replayPage(id)],
    [/^\/leaderboard(?:\/([A-Za-z0-9_-]+))?\/?$/, "leaderboard", (preset) => leaderboardPage(preset)],
    [/^\/login\/?$/, "login", () => loginPage()],
    [/^\/account\/?$/, "account", () => accountPage()],
    [/^\/players\/([^/]+)$/, "player", (username) => playerPage(username)],
  ];
  for (const [pattern, name, open] of pages) {
    if ((m = path.match(pattern))) {
      document.body.dataset.page = name;
      const nav = {history: "games", replay: "games", leaderboard: "leaderboard"}[name];
      if (nav) $(`#nav-${nav}`).classList.add("here");
      return Promise.resolve(open(m[1]));
    }
  }
  document.body.dataset.page = "lobby";
  $("#nav-lobby").classList.add("here");
  return lobby();
}
loadSession().catch((e) => showError(e.message)).then(route).catch((e) => showError(e.message));
