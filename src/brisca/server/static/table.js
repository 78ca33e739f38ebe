// The card table: seats around a felt, the trick in front of whoever played each card, the stock with the
// face-up trump under it, the hand, the actions the server lists, and the results between hands.
// The server decides everything: this page shows the view it is sent (the true state, at once) and moves
// cards to explain what changed; the motion never holds the state back, and a click or a key finishes it.
"use strict";

const table = {id: null, ws: null, v: null, state: null, seat: null, token: null, retry: 500, skew: 0,
               away: {}, picked: new Set(), nextDealAt: null, closedResults: null, openedResults: null,
               keys: null};

// Where each seat sits around the felt (centre of its box, % of the felt), by players and by its place from
// the viewer (0: the viewer, at the bottom), counter-clockwise as play goes round: the next seat is on the
// right, a partner opposite.
const SEAT_AT = {
  1: [[50, 91]],
  2: [[50, 91], [50, 11]],
  3: [[50, 91], [85, 20], [15, 20]],
  4: [[50, 91], [87, 46], [50, 11], [13, 46]],
  5: [[50, 91], [87, 56], [73, 13], [27, 13], [13, 56]],
  6: [[50, 91], [87, 62], [79, 15], [50, 12], [21, 15], [13, 62]],
};
// Where each seat's card of the trick lies: from the middle of the felt, in table-card widths and heights.
const TRICK_AT = {
  1: [[0, 0.55]],
  2: [[-0.32, 0.48], [0.32, -0.48]],
  3: [[0, 0.55], [0.72, -0.38], [-0.72, -0.38]],
  4: [[0, 0.56], [1.1, 0], [0, -0.5], [-1.1, 0]],
  5: [[0, 0.58], [1.12, 0.12], [0.6, -0.6], [-0.6, -0.6], [-1.12, 0.12]],
  6: [[0, 0.6], [1.15, 0.3], [0.82, -0.45], [0, -0.68], [-0.82, -0.45], [-1.15, 0.3]],
};
//: A mark for each team besides its colour (colour is never the only cue).
const SIDE_MARKS = ["●", "▲", "■", "◆", "★", "✚"];
const SIDE_LETTERS = "ABCDEF";
//: How long one motion lasts (ms); a click or a key finishes every motion at once.
const MOVE_MS = 320;

// ------------------------------------------------------------------ names and words

//: "spanish" or "italian": the table's rules decide (``card_names``).
let faces = "spanish";

// A card's name: the deck's own words, as the server names it (``card_CODE`` in /messages.js, from ``Card.name``) and
// the terminal and the analysis say it; the page's own words for a code the server did not name.
function cardName(code) {
  const named = STRINGS[lang][`card_${code}`];
  if (named) return named;
  const [rank, suit] = cardParts(code);
  const word = STRINGS[lang][`rank_${faces}_${rank}`] ?? STRINGS.en[`rank_${faces}_${rank}`];
  return t("cardOf", {rank: word || cardIndex(code, faces).rank, suit: suitName(suit)});
}

function cardSVG(code) {
  return cardFace(code, faces, esc(cardName(code)));
}

// A card inside a button: the button is named by its text, so the picture is hidden from assistive technology.
function cardInButton(code) {
  return cardSVG(code).replace('role="img"', 'aria-hidden="true"') + `<span class="sr">${esc(cardName(code))}</span>`;
}

function cardBack() {
  return cardBackSVG();
}

const suitName = (letter) => t(faces === "italian" ? `suitIt_${letter}` : `suit_${letter}`);
const strip = (a) => { const out = {...a}; delete out.text; return out; };

// A seat's name: a person's, or a bot's level ("normal"), with its seat number when two seats share it.
function seatName(info, seat) {
  const s = info.seats[seat];
  if (!s) return `#${seat}`;
  if (s.bot) {
    const level = t(`level_${s.bot}`);
    return info.seats.filter((o) => o.bot === s.bot).length > 1 ? `${level} #${seat}` : level;
  }
  return s.name ? displayName(s.name, false) : `#${seat}`;
}

// What the history, the auction and the contract say in words.
function actionText(info, a) {
  if (a.exchange) return t("exchangedLog", {card: cardName(a.exchange)});
  if (a.play !== undefined && !a.claim) return a.arrastro ? t("arrastroMove", {card: cardName(a.play)}) : cardName(a.play);
  if (a.pass) return t("passed");
  if (a.bid !== undefined) return typeof a.bid === "string" ? t("bidRank") + a.bid : String(a.bid);
  if (a.trump) return `${t("trump")}: ${suitName(a.trump)}`;
  if (a.declare) return `${t("declared")} ${suitName(a.declare)}`;
  if (a.call) return `${t("called")} ${cardName(a.call)}`;
  return a.text;
}

// A move as a card player says it: a card by its name, an exchange, an arrastro; an auction's choice as the move
// log gives it. ``a``: an action's JSON ({play}, {exchange}, {bid}, ...), ``text`` its notation where nothing else;
// ``words``: the server's words for a card's move in each language (the analysis sends them, as the terminal says
// them), used before the page's own.
function moveWords(info, a, text, words) {
  if (!a) return text || "";
  if (words && words[lang] && (a.exchange || a.play !== undefined)) return words[lang];
  if (a.exchange) return t("exchangeMove", {card: cardName(a.exchange)});
  if (a.play !== undefined) return a.arrastro ? t("arrastroMove", {card: cardName(a.play)}) : cardName(a.play);
  return actionText(info, {text: text || "", ...a});
}

function teams(info) {
  return info.sides < info.players;
}

function sideOf(info, seat) {
  return seat % info.sides;
}

function sideMark(info, side) {
  return `<span class="mark side-${side}" aria-hidden="true">${SIDE_MARKS[side] || ""}</span>`;
}

function sideLabel(info, side) {
  if (!teams(info)) return seatName(info, side);
  return `${t("team")} ${SIDE_LETTERS[side]}`;
}

// A seat's name where a result names it: a bot's says it is a bot ("normal (bot)"), a guest's that it is a guest
// ("Ana (guest)"), so neither reads as an account's name.
function playerName(info, seat) {
  const s = info.seats[seat];
  if (s && s.bot) return t("botName", {name: seatName(info, seat)});
  return s && s.guest && s.name ? displayName(s.name, true) : seatName(info, seat);
}

// One number a side, each with who it is: "Team A 3 · Team B 1", or "Ana 11 · normal #1 (bot) -1 · …".
function sideScores(info, values) {
  return values.map((v, side) => `${teams(info) ? sideLabel(info, side) : playerName(info, side)} ${v}`).join(" · ");
}

// The seats of the side that won, by name.
function winnerNames(info, side) {
  return info.seats.map((_s, i) => i).filter((i) => sideOf(info, i) === side).map((i) => playerName(info, i)).join(", ");
}

// ------------------------------------------------------------------ the connection

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${table.id}`);
  table.ws = ws;
  ws.onopen = () => {
    table.retry = 500;
    const hello = {type: "hello"};
    if (table.token) hello.token = table.token;
    if (table.v !== null) hello.last = table.v;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (msg) => receive(JSON.parse(msg.data));
  ws.onclose = () => {
    if (table.closed) return;  // closed for good: nothing to come back to
    $("#status").textContent = t("disconnected");
    setTimeout(connect, table.retry);
    table.retry = Math.min(table.retry * 2, 10000);
  };
}

function receive(m) {
  if (m.type === "welcome") {
    table.seat = m.seat;
    // The move clocks' deadlines are the server's times: how far this device's clock is from it.
    if (typeof m.now === "number") table.skew = m.now * 1000 - Date.now();
    // Back after a reconnection that missed nothing: no sync or event follows, so show the table again now
    // (else the status would say "Reconnecting…" until the next event).
    if (table.state && m.v === table.v) { render(); sendQueued(); }
  } else if (m.type === "sync") {
    table.v = m.v;
    show(m.state, null);
    sendQueued();
  } else if (m.type === "event") {
    if (table.v !== null && m.v !== table.v + 1) {  // a gap: ask again from the last event seen
      table.ws.close();
      return;
    }
    table.v = m.v;
    if (m.kind === "chat") addChat(m.seat === null || !m.state ? m.name : playerName(m.state.table, m.seat), m.text);
    if (m.kind === "partners" && m.state) {
      // The draw for partners moved everybody: this event says where this connection now sits.
      table.seat = m.you === undefined ? null : m.you;
      if (table.token && table.seat !== null) {
        localStorage.setItem(`brisca:seat:${table.id}`, JSON.stringify({seat: table.seat, token: table.token}));
      }
      addNote(drawText(m.state.table, m.draw));
    }
    if (m.state) {
      const name = seatName(m.state.table, m.seat);
      if (m.kind === "away") {
        table.away[m.seat] = Date.now() + m.seconds * 1000;
        addNote(t("awayNote", {name, n: Math.round(m.seconds)}));
      } else if (m.kind === "takeover") {
        addNote(t(m.clock ? "clockTakeoverNote" : "takeoverNote", {name}));
      } else if (m.kind === "action" && m.timeout) {
        addNote(t("timeoutNote", {name: seatName(m.state.table, m.action.seat)}));
      } else if (m.kind === "back") {
        addNote(t("backNote", {name}));
      } else if (m.kind === "left" || m.kind === "resigned") {
        addNote(t(m.kind === "left" ? "leftNote" : m.clock ? "forfeitNote" : "resignedNote", {name: m.name || name}));
        if (m.seat === table.seat) giveUpSeat();
      } else if (m.kind === "closed") {
        closed(m.reason);
      }
      show(m.state, m);
      sendQueued();
    } else {
      document.body.dataset.v = String(table.v);
    }
  } else if (m.type === "error") {
    if (m.code === "closed") {
      // "this table is closed (nobody was at it for 30 min)": the reason, where the server kept it.
      const why = /^this table is closed \((.+)\)$/.exec(m.message || "");
      closed(why ? why[1] : null);
      return;
    }
    if (m.code === "bad_token") { table.token = null; localStorage.removeItem(`brisca:seat:${table.id}`); }
    showError(m.message);
  }
}

// A new state: drawn at once, then the motion that explains how it came from the one before.
function show(state, event) {
  const before = table.state;
  // A new lead ends at once the motion of the trick taken before it, whose cards would lie over the new card
  // (fast bots lead while it still slides to its winner); any other new state speeds the motions up.
  if (event && event.kind === "action" && state.view && state.view.trick.length === 1) motion.finish();
  else motion.hurry();
  const rects = motion.on() ? measure() : null;
  table.state = state;
  const next = state.table.next_hand_in;
  table.nextDealAt = next === null || next === undefined ? null : Date.now() + next * 1000;
  render();
  try { sound.react(before, state, event); } catch (e) { document.body.dataset.soundError = String(e && e.stack || e); }
  if (rects && before && event) {
    // A motion that fails is dropped (the state is drawn already); the page notes it for its tests.
    try { explain(before, state, event, rects); } catch (e) {
      motion.finish();
      document.body.dataset.motionError = String(e && e.stack || e);
    }
  }
}

// This page's person no longer holds a seat here (they left it, or resigned): they watch.
function giveUpSeat() {
  table.seat = null;
  table.token = null;
  localStorage.removeItem(`brisca:seat:${table.id}`);
  if (table.state) render();
}

function closed(reason) {
  if (table.closed) return;
  table.closed = true;
  table.closedReason = reason;
  document.body.dataset.closed = "1";
  if (reason) addNote(t("closedNote", {reason: serverText(reason)}));
  localStorage.removeItem(`brisca:seat:${table.id}`);
  localStorage.removeItem(`brisca:created:${table.id}`);
  for (const id of ["#leavebtn", "#cancelbtn", "#resignbtn", "#join"]) $(id).hidden = true;
  $("#status").textContent = reason ? t("closedNote", {reason: serverText(reason)}) : t("tableClosed");
  if (table.state) render();
}

// Leave a waiting table, resign the match, cancel the table one created: the server says what happened (an
// event), and the page follows it.
function seatButtons(info, mine) {
  const live = !table.closed;
  $("#leavebtn").hidden = !(live && info.status === "waiting" && mine !== null);
  $("#resignbtn").hidden = !(live && info.status === "playing" && mine !== null);
  const seat = mine === null ? null : info.seats[mine];
  $("#backbtn").hidden = !(live && info.status === "playing" && seat && seat.standin && !seat.resigned);
  $("#tableclock").textContent = info.clock ? t("clockShort", {text: info.clock.text}) : "";
  $("#cancelbtn").hidden = !(live && info.status === "waiting" && localStorage.getItem(`brisca:created:${info.id}`));
}

function sendSeat(what) {
  if (table.ws && table.ws.readyState === WebSocket.OPEN) table.ws.send(JSON.stringify({type: what, id: what}));
}

function addChat(name, text) {
  const log = $("#chatlog");
  log.insertAdjacentHTML("beforeend", `<div><b>${esc(name)}:</b> ${esc(text)}</div>`);
  log.scrollTop = log.scrollHeight;
}

// The tab's title says whose turn it is, so a person whose table is in another tab sees their turn come.
function tabTitle(info, myTurn) {
  const name = presetTitle(info.preset, info.title);
  document.title = myTurn ? `● ${t("yourTurn")} · ${name}` : `${name} · Brisca`;
}

function addNote(text) {
  const log = $("#chatlog");
  log.insertAdjacentHTML("beforeend", `<div class="note">${esc(text)}</div>`);
  log.scrollTop = log.scrollHeight;
}

function play(action) {
  motion.finish();
  if (table.ws && table.ws.readyState === WebSocket.OPEN) {
    table.ws.send(JSON.stringify({type: "play", action, id: Date.now()}));
  } else {
    // Chosen while the connection is being made again: sent once the table is back, if still legal then.
    table.queued = action;
  }
}

// The action chosen while reconnecting, sent once the page has the table's state again and only if the rules
// still allow it (else it is dropped, and the player chooses again from what the table shows).
function sendQueued() {
  const action = table.queued;
  table.queued = null;
  if (!action || !table.state || !table.state.view || !table.ws || table.ws.readyState !== WebSocket.OPEN) return;
  const key = (a) => JSON.stringify(Object.entries(strip(a)).sort());
  const view = table.state.view;
  if ([...view.legal, ...(view.out_of_turn || [])].some((a) => key(a) === key(action))) play(action);
}

// ------------------------------------------------------------------ drawing the table

function render() {
  const {table: info, view} = table.state;
  faces = info.card_names === "italian" ? "italian" : "spanish";
  const mine = table.seat;
  // For tests and styles: the last event seen, the table's status, the hand number and the phase.
  document.body.dataset.v = String(table.v);
  document.body.dataset.status = info.status;
  document.body.dataset.hand = String(info.hand_number);
  document.body.dataset.phase = view ? view.phase : "";
  document.body.dataset.faces = faces;
  $("#join").hidden = !(info.status === "waiting" && mine === null) || Boolean(table.closed);
  seatButtons(info, mine);
  $("#invite").value = `${location.origin}/t/${info.id}`;
  const felt = $("#felt");
  felt.dataset.players = String(info.players);
  renderSeats(info, view, mine);
  renderScoreboard(info, view);
  renderMoveLog(info, view);
  renderFair(info);
  briscaAnalysis.tableHint(info, view, mine);
  sound.label();
  if (!view) {
    $("#status").textContent = info.status === "closed" || table.closed ? closedText(info) : t("waiting");
    for (const id of ["#trick", "#lasttrick", "#stockcards", "#faceup", "#hand", "#actions", "#prompt", "#callgrid",
                      "#contract", "#auction", "#stock", "#trumpsuit", "#keyhint"]) {
      $(id).innerHTML = "";
      shownHtml.delete($(id));  // drawn again in full next time, whatever it showed before
    }
    $("#lastbox").hidden = $("#talon").hidden = true;
    renderResults(info, view);
    return;
  }
  let status = view.turn === null ? "" : (view.turn === mine ? t("yourTurn") : t("turnOf") + seatName(info, view.turn));
  if (view.phase !== "play" && view.turn !== null) status += ` · ${t(`phase_${view.phase}`)}`;
  if (view.result) status = info.status === "finished" ? t("matchEnded") : t("handEnded", {n: info.hand_number + 1});
  if (mine === null) status = `${t("spectating")} · ${status}`;
  // Over: what ended it, not whose turn it was.
  if (info.status === "finished") status = t("matchEnded");
  if (info.status === "closed" || table.closed) status = closedText(info);
  $("#status").textContent = status;
  tabTitle(info, view.turn !== null && view.turn === mine && info.status === "playing" && !view.result && !table.closed);
  $("#contract").innerHTML = contractHTML(info, view);
  renderAuction(info, view);
  renderPile(info, view);
  renderTrick(info, view, mine);
  if (info.status === "playing" && !table.closed) renderHandAndActions(info, view, mine);
  else for (const id of ["#hand", "#actions", "#prompt", "#callgrid", "#keyhint"]) $(id).innerHTML = "";
  renderResults(info, view);
}

// "The table is closed: nobody was at it for 30 min", in the page's language.
function closedText(info) {
  const reason = info.closed_reason || table.closedReason;
  return reason ? t("closedNote", {reason: serverText(reason)}) : t("tableClosed");
}

// Why the match ended before its end: who resigned, and who won.
function resignedText(info) {
  const who = info.seats.filter((s) => s.resigned).map((s) => playerName(info, s.seat)).join(", ");
  return t("wonByResignation", {names: who});
}

function place(info, seat, mine) {
  const n = info.players;
  return (seat - (mine === null ? 0 : mine) + n) % n;
}

// The offset of a trick card in front of the seat at place `pos`.
function trickStyle(n, pos) {
  const [dx, dy] = (TRICK_AT[n] || TRICK_AT[6])[pos] || [0, 0];
  return `left:calc(50% + ${dx} * var(--cw));top:calc(50% + ${dy} * var(--ch))`;
}

function renderSeats(info, view, mine) {
  const n = info.players;
  const lastBid = {};
  if (view) for (const b of view.bids) lastBid[b.seat] = b;
  const contract = view && (view.contract || (view.result && view.result.contract));
  $("#seats").innerHTML = info.seats.map((s, i) => {
    const pos = place(info, i, mine);
    const [x, y] = (SEAT_AT[n] || SEAT_AT[6])[pos] || [50, 50];
    const me = i === mine;
    const live = info.status === "playing" && !table.closed;
    const turn = live && view && view.turn === i;
    const side = sideOf(info, i);
    const cls = ["seat", `pos-${pos}`, me ? "me" : "", turn ? "turn" : "", pos === 0 ? "bottom" : "",
                 s.away || s.standin ? "away" : "", teams(info) ? `side-${side}` : "",
                 view && view.dealer === i ? "dealer" : ""].filter(Boolean).join(" ");
    // Who sits here: the name, then a bot's level, an account's rating, or "guest".
    let tag = "";
    if (s.bot) tag = `<span class="tag bot">${esc(t("bot"))}</span>`;
    else if (s.rating !== null && s.rating !== undefined) {
      tag = `<span class="tag rating" title="${esc(t("ordinal"))}">★ ${Number(s.rating).toFixed(1)}</span>` +
        provisionalMark(s.provisional);
    } else if (s.guest) tag = `<span class="tag guest">${esc(t("guest"))}</span>`;
    const name = s.name || s.bot ? seatName(info, i) : t("freeSeat");
    const mark = teams(info) ? sideMark(info, side) + `<span class="sr">${esc(sideLabel(info, side))}</span>` : "";
    const dealer = view && view.dealer === i
      ? `<span class="chip dealerchip" title="${esc(t("dealer"))}" aria-label="${esc(t("dealer"))}">${esc(t("dealerMark"))}</span>` : "";
    let role = "";
    if (contract && contract.declarer === i) role = `<span class="chip role">${esc(t("declarer"))}</span>`;
    else if (contract && contract.partner === i) role = `<span class="chip role">${esc(t("partner"))}</span>`;
    const turnChip = turn ? `<span class="chip turnchip">${esc(me ? t("yourTurnShort") : t("toPlay"))}</span>` : "";
    let clock = "";
    if (s.standin) clock = `<div class="clock">${esc(t("standin"))}</div>`;
    else if (s.away) {
      const until = table.away[i];
      clock = `<div class="clock" ${until ? `data-until="${until}"` : ""}>${esc(until
        ? t("away", {n: Math.max(0, Math.ceil((until - Date.now()) / 1000))}) : t("awayShort"))}</div>`;
    }
    if (!clock) clock = seatClock(info, i);
    let fan = "";
    if (view && live && !(me && pos === 0)) {
      const known = view.known.filter((k) => k.seat === i).map((k) => k.card);
      const size = view.hand_sizes[i];
      const open = known.slice(0, size).map((c) => cardSVG(c).replace('class="card', 'class="card known'));
      const backs = Array.from({length: Math.max(0, size - open.length)}, () => cardBack());
      fan = `<div class="fan" data-count="${size}" aria-label="${esc(t("cardsN", {n: size}))}" role="img">` +
        open.join("") + backs.join("") + `</div>`;
    }
    let stats = "";
    if (view) {
      const tricks = view.tricks.filter((tr) => tr.winner === i).length;
      stats = `<div class="stats"><span class="pts">${view.seat_points[i]}</span> ${esc(t("points"))} · ` +
        `<span class="tricks">${tricks}</span> ${esc(t(tricks === 1 ? "trickShort" : "tricksShort"))}</div>`;
    }
    const bid = view && view.phase === "bid" && lastBid[i]
      ? `<div class="bubble">${esc(actionText(info, lastBid[i]))}</div>` : "";
    // Seats at the sides keep to the felt's edge, however long their name.
    const where = x >= 80 ? `right:2%;top:${y}%` : x <= 20 ? `left:2%;top:${y}%` : `left:${x}%;top:${y}%`;
    const edge = x >= 80 ? " edge-right" : x <= 20 ? " edge-left" : "";
    return `<div class="${cls}${edge}" data-seat="${i}" data-pos="${pos}" style="${where}">` +
      `<div class="plate">${mark}<span class="name">${esc(name)}</span>${tag}${dealer}${role}${turnChip}</div>` +
      fan + stats + clock + bid + `</div>`;
  }).join("");
}

// A person's move clock: while it runs, the move's time left (then the reserve's); else the reserve left.
function seatClock(info, i) {
  const c = info.clock, s = info.seats[i];
  if (!c || !s.clock || s.bot || s.standin || s.resigned) return "";
  if (c.seat === i && c.deadline) {
    return `<div class="clock moveclock running" data-deadline="${c.deadline}" data-base="${c.base_until}">` +
      `${esc(clockLeft(c.deadline, c.base_until))}</div>`;
  }
  return `<div class="clock moveclock">${esc(t("reserveLeft", {time: mmss(s.clock.reserve)}))}</div>`;
}

function serverNow() {
  return (Date.now() + table.skew) / 1000;
}

function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function clockLeft(deadline, base) {
  const now = serverNow();
  if (base !== null && now < base) return t("moveLeft", {time: mmss(base - now), reserve: mmss(deadline - base)});
  return t("reserveRunning", {time: mmss(deadline - now)});
}

function renderScoreboard(info, view) {
  const parts = [];
  if (view && teams(info)) {
    for (let side = 0; side < info.sides; side++) {
      const names = info.seats.map((_s, i) => i).filter((i) => sideOf(info, i) === side).map((i) => seatName(info, i));
      parts.push(`<span class="sidebox side-${side}" data-side="${side}" title="${esc(names.join(", "))}">` +
        `${sideMark(info, side)} <b>${esc(sideLabel(info, side))}</b> <span class="pts">${view.side_points[side]}</span>` +
        ` ${esc(t("points"))}</span>`);
    }
  }
  const score = matchScore(info);
  if (score) parts.push(`<span class="matchscore">${esc(t("match"))}: ${esc(score)}</span>`);
  if (info.draw && info.hand_number === 0) parts.push(`<span class="draw">${esc(drawText(info, info.draw))}</span>`);
  $("#scoreboard").innerHTML = parts.join("");
}

function matchScore(info) {
  if (info.match === "target_points" && info.match_points) {
    return `${sideScores(info, info.match_points)} / ${info.target_points}`;
  }
  if (info.match === "game_points" && info.game_points) {
    return `${t("gamePoints")}: ${sideScores(info, info.game_points)} / ${info.target_game_points}`;
  }
  if (info.match === "fixed_hands" && info.hands_won) {
    return `${sideScores(info, info.hands_won)} (${t("fixedHands", {n: info.hands})})`;
  }
  return info.hands_won ? `${sideScores(info, info.hands_won)} / ${info.target_hands}` : "";
}

// The draw for partners and seats (partners: draw), each card by the seat its drawer now holds.
function drawText(info, draw) {
  const cards = draw.rounds.map((round) => round.map((d) => `${seatName(info, d.seat)} ${d.card}`).join(", "))
    .join(" · ");
  return t("drawNote", {cards, dealer: seatName(info, draw.dealer)});
}

// The trump suit in words; "?" while an auction decides it; under a blind call (Chiamata Buia) the first trick,
// played before any trump, says so.
function trumpHTML(view) {
  if (view.trump) return `<b class="suit">${esc(suitName(view.trump))}</b>`;
  if (view.phase === "play" && view.bids.length) return `<b class="suit notrump">${esc(t("noTrumpYet"))}</b>`;
  return `<b class="suit">?</b>`;
}

function contractHTML(info, view) {
  const c = view.contract || (view.result && view.result.contract);
  const parts = [];
  if (c) {
    let text = `${t("contract")}: ${c.bid} ${t("by")} ${seatName(info, c.declarer)} · ${t("trump")} ${suitName(c.trump)}`;
    if (c.called) text += ` · ${t("called")} ${cardName(c.called)}`;
    if (c.partner !== null && c.partner !== undefined) text += ` · ${t("partner")} ${seatName(info, c.partner)}`;
    parts.push(esc(text));
  }
  if (view.declarations.length) {
    parts.push(view.declarations.map((d) =>
      esc(`${seatName(info, d.seat)} ${t("declared")} ${suitName(d.suit)}`)).join(" · "));
  }
  if (view.shown.length) {
    parts.push(esc(t("shown")) + view.shown.map((s) => esc(`${seatName(info, s.seat)} ${cardName(s.card)}`)).join(", "));
  }
  // An announced exchange (001): the trump laid under the face-up card, in everybody's sight.
  if (view.announced) {
    parts.push(`<span class="announced">${esc(`${t("announcedLabel")}: ${seatName(info, view.announced.seat)} ` +
      cardName(view.announced.card))}</span>`);
  }
  // The partner signals this seat may see (the view holds only those).
  if (view.signals && view.signals.length) {
    parts.push(`<span class="signals">${esc(t("signalsLabel"))}: ` + view.signals.map((g) =>
      `<span class="sig" data-seat="${g.seat}">${esc(`${seatName(info, g.seat)}: ${t(`sig_${g.signal}`)}`)}</span>`)
      .join(" · ") + "</span>");
  }
  return parts.map((p) => `<div>${p}</div>`).join("");
}

// At the table the auction is one line, the highest bid and who made it (each seat's own last bid is in a
// bubble at the seat, every bid in the move log): however long the auction, it covers no seat and no button.
function renderAuction(info, view) {
  const auction = $("#auction");
  const bids = view.phase === "bid" ? view.bids.filter((b) => !b.pass) : [];
  const high = bids[bids.length - 1];
  auction.innerHTML = high ? `<b>${esc(t("auction"))}:</b> <span class="bid">${esc(actionText(info, high))}</span> ` +
    `<span class="who">${esc(seatName(info, high.seat))}</span>` : "";
  auction.hidden = !high;
}

function auctionHTML(info, view) {
  if (!view.bids.length && view.phase !== "bid") return "";
  return `<b>${t("auction")}:</b> ` + view.bids.map((b) =>
    `<span class="bid">${esc(seatName(info, b.seat))}: ${esc(actionText(info, b))}</span>`).join(" ");
}

// The stock as a pile of backs, the face-up trump under it turned sideways; the talon when there is one.
function renderPile(info, view) {
  const stock = view.stock_count;
  const layers = stock ? Math.min(4, 1 + Math.floor(stock / 10)) : 0;
  $("#stockcards").innerHTML = Array.from({length: layers}, (_x, i) =>
    `<div class="layer" style="--i:${i}">${cardBack()}</div>`).join("");
  $("#stock").innerHTML = `${stock}<span class="sr"> ${esc(t("stock"))}</span>`;
  // The face-up card; without one, the trump in words (or "?" while an auction decides it).
  $("#faceup").innerHTML = view.face_up ? cardSVG(view.face_up) : trumpHTML(view);
  $("#faceup").dataset.card = view.face_up || "";
  $("#trumpsuit").innerHTML = `<span class="label">${esc(t("trump"))}</span>` +
    (view.face_up && view.trump ? ` <span class="suitchip">${esc(suitName(view.trump))}</span>` : "");
  $("#pile").classList.toggle("empty", !stock && !view.face_up);
  $("#pile").classList.toggle("nocard", !view.face_up);
  // The talon once it is shown; the declarer's own discards.
  const talonCards = view.talon.length ? view.talon : view.discards;
  $("#talon").hidden = !talonCards.length;
  $("#talonlabel").textContent = view.talon.length ? t("talon") : t("yourDiscards");
  $("#taloncards").innerHTML = talonCards.map(cardSVG).join("");
  if (view.talon.length && view.discards.length) {
    $("#taloncards").insertAdjacentHTML("beforeend",
      `<div class="discards"><div>${t("yourDiscards")}</div>${view.discards.map(cardSVG).join("")}</div>`);
  }
}

function renderTrick(info, view, mine) {
  const n = info.players;
  $("#trick").innerHTML = view.trick.map((c, i) => {
    const seat = view.trick_seats[i];
    const winning = view.trick_winner === seat ? " winning" : "";
    return `<figure class="played${winning}" data-seat="${seat}" style="${trickStyle(n, place(info, seat, mine))}">` +
      `${cardSVG(c)}<figcaption class="sr">${esc(seatName(info, seat))}</figcaption></figure>`;
  }).join("");
  const last = view.tricks.length ? view.tricks[view.tricks.length - 1] : null;
  $("#lastbox").hidden = !last;
  $("#lasttrick").innerHTML = last ? last.cards.map((c, i) => {
    const seat = (last.leader + i) % view.players;
    return `<figure class="${seat === last.winner ? "winner" : ""}" data-seat="${seat}">` +
      cardSVG(c).replace('class="card', `class="card${seat === last.winner ? " winner" : ""}`) +
      `<figcaption class="sr">${esc(seatName(info, seat))}${seat === last.winner ? ` · ${esc(t("tookIt"))}` : ""}` +
      `</figcaption></figure>`;
  }).join("") : "";
}

// The commitment of the hand in play, and every commitment seen here, kept to check the record later.
function renderFair(info) {
  const commitments = info.commitments || [];
  if (commitments.length) {
    const key = `brisca:commitments:${info.id}`;
    const kept = JSON.parse(localStorage.getItem(key) || "[]");
    commitments.forEach((h, i) => { if (!kept[i]) kept[i] = h; });
    localStorage.setItem(key, JSON.stringify(kept));
  }
  const parts = [];
  if (info.practice) parts.push(esc(t("practice", {seed: info.seed})));
  else if (info.hints) parts.push(`<span class="hintson">${esc(t("hintsOn"))}</span>`);
  const current = commitments[commitments.length - 1];
  if (current) {
    parts.push(`<span title="${esc(current)}">${esc(t("committed", {n: commitments.length, h: current.slice(0, 16) + "…"}))}</span>`);
  }
  $("#fair").innerHTML = parts.join(" · ");
}

// Replaces a box's buttons only when what they show changed: an event that leaves them as they were (a signal,
// a chat line, a seat coming back) must not swap the button under a finger between its press and its release
// (the tap would be lost) nor clear a bid being typed. The handlers are set again by the caller either way.
const shownHtml = new WeakMap();
function setHtml(el, html) {
  if (shownHtml.get(el) === html) return;
  el.innerHTML = html;
  shownHtml.set(el, html);
}

function renderHandAndActions(info, view, mine) {
  // A seat not to act may have what the rules let it do out of turn (its exchange, 000): only that is offered.
  const early = mine !== null && view.turn !== mine && (view.out_of_turn || []).length > 0;
  const legal = mine === null ? [] : (view.turn === mine ? view.legal : (view.out_of_turn || []));
  const plays = new Set(legal.filter((a) => a.play && !a.arrastro).map((a) => a.play));
  const discards = legal.filter((a) => a.discard);
  const need = discards.length ? discards[0].discard.length : 0;
  if (!need) table.picked.clear();
  for (const c of [...table.picked]) if (!view.hand.includes(c)) table.picked.delete(c);
  const hand = mine === null ? [] : view.hand;
  const handBox = $("#hand");
  handBox.setAttribute("aria-label", t("yourHand"));
  handBox.style.setProperty("--count", String(Math.max(1, hand.length)));
  setHtml(handBox, hand.map((c, i) => {
    const usable = plays.has(c) || need;
    const cls = `${usable ? " legal" : ""}${table.picked.has(c) ? " picked" : ""}`;
    const key = i < 9 ? String(i + 1) : (i === 9 ? "0" : "");
    return `<button type="button" class="cardbtn${cls}" data-card="${c}" data-key="${key}"` +
      `${usable ? "" : " disabled"}${need ? ` aria-pressed="${table.picked.has(c)}"` : ""}>` +
      cardInButton(c).replace('class="card', `class="card${cls}`) +
      (key ? `<span class="key">${key}</span>` : "") + `</button>`;
  }).join(""));
  fitHand();
  handBox.querySelectorAll(".cardbtn.legal").forEach((el) => {
    el.onclick = need ? () => {
      const card = el.dataset.card;
      if (table.picked.has(card)) table.picked.delete(card);
      else if (table.picked.size < need) table.picked.add(card);
      renderHandAndActions(info, view, mine);
    } : () => play({play: el.dataset.card});
  });
  $("#keyhint").textContent = hand.length && (plays.size || need) ? t("keyHint", {n: Math.min(hand.length, 10)}) : "";

  const buttons = [];  // [label, action, class]
  let prompt = "";
  let grid = "";
  const pointBids = legal.filter((a) => a.bid !== undefined && typeof a.bid === "number").map((a) => a.bid);
  if (need) {
    prompt = t("discardHint", {n: need});
    const key = [...table.picked].sort().join(" ");
    const match = discards.find((a) => [...a.discard].sort().join(" ") === key);
    buttons.push([`${t("confirm")} (${table.picked.size}/${need})`, match ? strip(match) : null, "confirm"]);
  }
  if (legal.some((a) => a.trump)) prompt = t("nameTrump");
  if (early) prompt = t("outOfTurn");
  const calls = legal.filter((a) => a.call);
  if (calls.length) {
    prompt = t("callHint");
    // One row a suit, over the felt: the hand stays in sight below it, whatever the screen.
    const rows = new Map();
    for (const a of calls) {
      const suit = a.call.slice(-1);
      if (!rows.has(suit)) rows.set(suit, []);
      rows.get(suit).push(`<button type="button" class="callcard" data-call="${a.call}">${cardInButton(a.call)}</button>`);
    }
    grid = [...rows.values()].map((r) => `<div class="callrow">${r.join("")}</div>`).join("");
  }
  let bidInput = "";
  if (pointBids.length > 6) {
    const lo = Math.min(...pointBids), hi = Math.max(...pointBids);
    const step = pointBids.length > 1 ? Math.min(...pointBids.slice(1).map((b, i) => b - pointBids[i]).filter((d) => d > 0)) : 1;
    bidInput = `<input id="bidvalue" type="number" min="${lo}" max="${hi}" step="${step}" value="${lo}" aria-label="${esc(t("bid"))}">` +
      `<button type="button" id="bidbutton">${t("bid")}</button>`;
  }
  // Every other legal action is a button; an action this page does not know shows the server's text.
  for (const a of legal) {
    if ((a.play && !a.arrastro) || a.discard || a.call) continue;
    if (a.bid !== undefined && typeof a.bid === "number" && bidInput) continue;
    let label = a.text;
    if (a.pass) label = t("pass");
    else if (a.bid !== undefined) label = typeof a.bid === "string" ? t("bidRank") + a.bid : `${t("bid")} ${a.bid}`;
    else if (a.trump) label = suitName(a.trump);
    else if (a.declare) label = t("declare") + suitName(a.declare);
    else if (a.exchange) label = t("exchange") + cardName(a.exchange);
    else if (a.announce) label = t("announce") + cardName(a.announce);
    else if (a.signal) label = t(a.aloud ? "sayPrefix" : "signalPrefix") + t(`sig_${a.signal}`);
    else if (a.cut) label = t("cutPrefix") + a.cut;
    else if (a.claim) label = t("claim");
    else if (a.arrastro) label = t("arrastro") + cardName(a.play);
    buttons.push([label, strip(a), a.pass ? "pass" : (a.bid !== undefined ? "bid" : "")]);
  }
  $("#prompt").textContent = prompt;
  setHtml($("#actions"), bidInput + buttons.map(([label, a, cls], i) =>
    `<button type="button" data-i="${i}" class="${cls}"${a ? "" : " disabled"}>${esc(label)}</button>`).join(""));
  document.querySelectorAll("#actions button[data-i]").forEach((el) => {
    el.onclick = () => {
      const a = buttons[Number(el.dataset.i)][1];
      if (a) { table.picked.clear(); play(a); }
    };
  });
  if (bidInput) {
    $("#bidbutton").onclick = () => {
      const value = Number($("#bidvalue").value);
      if (pointBids.includes(value)) play({bid: value});
      else showError(`${t("bid")}: ${pointBids[0]}…${pointBids[pointBids.length - 1]}`);
    };
  }
  setHtml($("#callgrid"), grid);
  document.querySelectorAll("#callgrid .callcard").forEach((el) => { el.onclick = () => play({call: el.dataset.call}); });
}

// The hand fits its row: the cards overlap when there are many (rematada deals ten) on a narrow screen.
function fitHand() {
  const box = $("#hand");
  const cards = box.querySelectorAll(".cardbtn");
  if (!cards.length) return;
  const width = cards[0].getBoundingClientRect().width;
  const room = box.clientWidth - 8;
  const n = cards.length;
  const gap = n > 1 ? Math.min(8, (room - n * width) / (n - 1)) : 0;
  box.style.setProperty("--gap", `${Math.floor(gap)}px`);
}
window.addEventListener("resize", () => { if (table.state) fitHand(); });

// ------------------------------------------------------------------ results

// The words of an engine's bonus ("last trick", "king and knight of cups [declared]").
function bonusText(why) {
  if (why === "last trick") return t("bonusLast");
  const m = why.match(/^king and knight of (\w+)( declared)?$/);
  if (m) {
    const letter = {coins: "O", cups: "C", swords: "E", clubs: "B", batons: "B"}[m[1].toLowerCase()];
    return t("bonusPair", {suit: letter ? suitName(letter) : m[1]});
  }
  return t(`bonus_${why}`) === `bonus_${why}` ? why : t(`bonus_${why}`);
}

function cardStrip(cards) {
  return `<div class="cardstrip">${cards.map(cardSVG).join("")}</div>`;
}

// The panel at the end of a hand: points per side with the cards that made them, the bonuses, the contract,
// the match so far; at the end of the match its winners, the rating changes, play again and the replay.
function resultsHTML(info, view) {
  const r = view.result;
  const n = info.players;
  const out = [];
  const byContract = r.contract && r.contract.partner !== null && r.contract.partner !== undefined && info.sides === n;
  // Who plays for whom: the sides of the rules, or the declarer (and partner) against the rest.
  let groups;
  if (byContract) {
    const c = r.contract;
    const mine = [...new Set([c.declarer, c.partner])];
    groups = [{key: "declarer", seats: mine, label: t("declarerSide")},
              {key: "defenders", seats: [...Array(n).keys()].filter((s) => !mine.includes(s)), label: t("defenders")}];
  } else {
    groups = [...Array(info.sides).keys()].map((side) => ({
      key: side, side, seats: [...Array(n).keys()].filter((s) => sideOf(info, s) === side), label: sideLabel(info, side)}));
  }
  const rows = groups.map((g) => {
    const taken = view.tricks.filter((tr) => g.seats.includes(tr.winner));
    const cards = taken.flatMap((tr) => tr.cards);
    const trickPoints = taken.reduce((sum, tr) => sum + tr.points, 0);
    const seatPoints = g.seats.reduce((sum, s) => sum + r.seat_points[s], 0);
    const bonuses = g.side === undefined ? [] : r.bonuses.filter((b) => b.side === g.side);
    const total = g.side === undefined ? seatPoints + bonuses.reduce((x, b) => x + b.points, 0) : r.side_points[g.side];
    const other = seatPoints - trickPoints;
    const won = g.side !== undefined && r.winners.includes(g.side);  // "sidewon": ".won" is the lobby's
    const names = g.seats.map((s) => seatName(info, s)).join(", ");
    return `<div class="sideresult${won ? " sidewon" : ""}" data-side="${g.key}">` +
      `<div class="sidehead">${g.side !== undefined && teams(info) ? sideMark(info, g.side) : ""}` +
      `<b>${esc(g.label)}</b>${teams(info) || byContract ? ` <span class="who">${esc(names)}</span>` : ""}` +
      `${won ? ` <span class="chip winchip">${esc(t("wonHand"))}</span>` : ""}` +
      `<span class="total" data-total="${total}">${total}</span></div>` +
      `<div class="line"><span>${esc(t("cardPoints"))}</span> <span class="cardpoints">${seatPoints}</span>` +
      ` · ${esc(t("tricksN", {n: taken.length}))}${other ? ` · ${esc(t("otherCards", {n: other}))}` : ""}</div>` +
      bonuses.map((b) => `<div class="line bonus" data-points="${b.points}"><span>${esc(bonusText(b.why))}</span>` +
        ` <b>+${b.points}</b></div>`).join("") +
      (cards.length ? cardStrip(cards) : "") + `</div>`;
  });
  out.push(`<div class="sides">${rows.join("")}</div>`);
  if (r.contract) {
    const c = r.contract;
    let made = null;
    if (r.scores) made = r.scores[c.declarer] > 0;
    const line = `${t("contract")}: ${c.bid} ${t("by")} ${seatName(info, c.declarer)}` +
      (c.partner !== null && c.partner !== undefined && c.partner !== c.declarer ? ` · ${t("partner")} ${seatName(info, c.partner)}` : "") +
      (made === null ? "" : ` · ${made ? t("contractMade") : t("contractSet")}`);
    out.push(`<div class="contractresult${made ? " made" : made === false ? " set" : ""}">${esc(line)}</div>`);
  }
  if (r.scores) {
    out.push(`<div class="scores"><b>${esc(t("scores"))}</b>` + r.scores.map((s, i) =>
      `<span class="score" data-seat="${i}">${esc(seatName(info, i))} <b>${s > 0 ? "+" : ""}${s}</b></span>`).join("") + `</div>`);
  }
  if (r.reason && r.reason !== "points") {
    const why = t(`reason_${r.reason}`);
    if (why !== `reason_${r.reason}`) out.push(`<div class="reason">${esc(why)}</div>`);
  }
  if (r.winner === null && r.winners && r.winners.length > 1) {
    out.push(`<div class="reason">${esc(t("handShared", {list: r.winners.map((w) => teams(info) ? sideLabel(info, w)
      : playerName(info, w)).join(", ")}))}</div>`);
  }
  out.push(matchHTML(info));
  return out.join("");
}

// The match so far; at its end, its winners and the rating changes.
function matchHTML(info) {
  const out = [];
  const kind = info.match;
  const sidesN = kind === "target_points" ? info.match_points : kind === "game_points" ? info.game_points
    : info.hands_won;
  if (sidesN) {
    const target = kind === "target_points" ? t("toPoints", {n: info.target_points})
      : kind === "game_points" ? `${t("gamePoints")} / ${info.target_game_points}`
      : kind === "fixed_hands" ? `(${t("fixedHands", {n: info.hands})})` : t("toHands", {n: info.target_hands});
    out.push(`<div class="matchline"><b>${esc(t("match"))}</b> ` + sidesN.map((v, side) =>
      `<span class="matchside" data-side="${side}">${teams(info) ? sideMark(info, side) : ""}${esc(sideLabel(info, side))}` +
      ` <b>${v}</b></span>`).join("") + ` <span class="target">${esc(target)}</span></div>`);
  }
  if (info.status === "finished") {
    const w = info.match_winner;
    out.push(`<div class="winners">${w === null ? esc(t("draw"))
      : `★ ${esc(t("winners", {names: winnerNames(info, w)}))}`}</div>`);
    const changes = info.rating_changes || [];
    if (changes.length) {
      out.push(`<div class="ratings"><b>${esc(t("ratingChanges"))}</b>` + changes.map((c) => {
        const d = c.after - c.before;
        return `<span class="ratingchange" data-seat="${c.seat}">${esc(seatName(info, c.seat))} ` +
          `${c.before.toFixed(1)} → ${c.after.toFixed(1)} <b>(${d >= 0 ? "+" : ""}${d.toFixed(1)})</b></span>`;
      }).join("") + `</div>`);
    }
  }
  return out.join("");
}

function renderResults(info, view) {
  const panel = $("#results");
  const over = info.status === "finished";
  const closedNow = info.status === "closed" || Boolean(table.closed);
  // A match ended by a resignation, or a table closed, mid-hand: no hand's result, but the match's and why.
  const ended = !(view && view.result) && (over || closedNow) && info.hand_number !== null;
  const result = view && view.result;
  const key = result || ended ? `${info.id}:${info.hand_number}:${over}:${closedNow}` : null;
  $("#showresults").hidden = !(result || ended);
  if (!result && !ended) {
    panel.hidden = true;
    table.openedResults = null;
    $("#result").innerHTML = "";
    $("#replaylink").hidden = true;
    return;
  }
  $("#resultstitle").textContent = over ? t("matchOverTitle") : closedNow ? t("tableClosed")
    : t("handN", {n: info.hand_number + 1});
  const why = closedNow ? closedText(info) : info.ended === "resigned" ? resignedText(info) : null;
  $("#resultsbody").innerHTML = (why ? `<div class="reason endreason">${esc(why)}</div>` : "") +
    (result ? resultsHTML(info, view) : matchHTML(info));
  const buttons = [];
  if (over) {
    buttons.push(`<button type="button" id="playagain">${esc(t("playAgain"))}</button>`);
    buttons.push(`<a class="button" id="seereplay" href="/games/${info.id}">${esc(t("seeReplay"))}</a>`);
    buttons.push(`<a class="button" href="/api/games/${info.id}/record" download>${esc(t("record"))}</a>`);
  }
  $("#resultsactions").innerHTML = buttons.join("");
  if (over) $("#playagain").onclick = () => playAgain(info);
  tickClocks();
  if (table.closedResults !== key && table.openedResults !== key) {
    panel.hidden = false;
    table.openedResults = key;
  }
  // The line under the hand says the same in short, with the record.
  let line = result ? esc(t("handOver") + sideScores(info, result.side_points)) : esc(why || "");
  if (closedNow && !over) line = esc(why || "");
  else if (over) {
    const w = info.match_winner;
    const names = w === null ? "" : winnerNames(info, w);
    line = (why ? `${esc(why)} · ` : "") + esc(w === null ? t("draw") : `${t("matchOverShort")} · ${t("winners", {names})}`) +
      (info.match === "target_points" && info.match_points ? esc(` (${sideScores(info, info.match_points)})`) : "") +
      (info.match === "game_points" && info.game_points ? esc(` (${sideScores(info, info.game_points)})`) : "") +
      ` · <a href="/api/games/${info.id}/record">${t("record")}</a>`;
  }
  $("#result").innerHTML = line;
  $("#replaylink").hidden = !over;
  $("#replaylink").href = `/games/${info.id}`;
  $("#tourback").hidden = !info.tournament;
  if (info.tournament) $("#tourback").href = `/tournaments/${info.tournament}`;
}

function closeResults() {
  const panel = $("#results");
  if (panel.hidden) return;
  panel.hidden = true;
  table.closedResults = table.openedResults;
}

// The same table again: the same rules, players, bots and bot speed; the other people get the new invite.
async function playAgain(info) {
  const bots = {};
  info.seats.forEach((s, i) => { if (s.bot) bots[i] = s.bot; });
  const who = session.user ? {sit: true} : {name: localStorage.getItem("brisca:name") || seatName(info, table.seat ?? 0)};
  try {
    const made = await api("/api/tables", {preset: info.preset, players: info.players, bots, options: info.options,
                                           bot_delay: info.bot_delay ?? 0.6, ...who});
    localStorage.setItem(`brisca:seat:${made.table_id}`, JSON.stringify({seat: made.seat, token: made.token}));
    localStorage.setItem(`brisca:created:${made.table_id}`, "1");
    location.href = made.url;
  } catch (e) { showError(e.message); }
}

// Countdowns: the next deal, and absent players' grace periods; one timer for all of them.
function tickClocks() {
  const next = $("#nexthand");
  if (table.nextDealAt !== null && table.state && table.state.view && table.state.view.result) {
    const left = Math.max(0, Math.ceil((table.nextDealAt - Date.now()) / 1000));
    next.textContent = t("nextHandIn", {n: left});
    next.dataset.left = String(left);
  } else {
    next.textContent = "";
    delete next.dataset.left;
  }
  document.querySelectorAll("[data-deadline]").forEach((el) => {
    const deadline = Number(el.dataset.deadline);
    el.textContent = clockLeft(deadline, el.dataset.base === "null" ? null : Number(el.dataset.base));
    el.classList.toggle("low", deadline - serverNow() < 10);
  });
  document.querySelectorAll("[data-until]").forEach((el) => {
    const left = Math.max(0, Math.ceil((Number(el.dataset.until) - Date.now()) / 1000));
    el.textContent = t("away", {n: left});
  });
}

// ------------------------------------------------------------------ motion

const motion = {
  running: new Set(),
  moves: 0,
  on() {
    return !!(document.body.animate) && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  },
  animate(el, frames, options) {
    if (!el || !this.on()) return null;
    const a = el.animate(frames, {duration: MOVE_MS, easing: "cubic-bezier(.25,.8,.3,1)", ...options});
    this.running.add(a);
    const done = () => this.running.delete(a);
    a.finished.then(done, done);
    this.moves += 1;
    document.body.dataset.moves = String(this.moves);
    return a;
  },
  // A new state while cards still move: the motions under way end three times faster.
  hurry() {
    for (const a of this.running) { try { a.updatePlaybackRate(3); } catch (e) { a.finish(); } }
  },
  // Finish every motion now: the page is left showing the true state.
  finish() {
    for (const a of [...this.running]) { try { a.finish(); } catch (e) { a.cancel(); } }
    this.running.clear();
    const fx = document.getElementById("fx");
    if (fx) fx.innerHTML = "";
  },
};

// Where things are before a new state is drawn.
function measure() {
  const rects = {hand: {}, seats: {}, faceup: null, pile: null};
  document.querySelectorAll("#hand .cardbtn").forEach((el) => { rects.hand[el.dataset.card] = el.getBoundingClientRect(); });
  const face = document.querySelector("#faceup .card");
  if (face) rects.faceup = face.getBoundingClientRect();
  return rects;
}

function centre(r) {
  return {x: r.left + r.width / 2, y: r.top + r.height / 2};
}

// Where a seat's cards come from and go to: its fan of backs (its name plate when it holds none).
function seatRect(seat) {
  const el = document.querySelector(`#seats .seat[data-seat="${seat}"]`);
  if (!el) return null;
  return (el.querySelector(".fan .card") ? el.querySelector(".fan") : el.querySelector(".plate") || el).getBoundingClientRect();
}

function pileRect() {
  const el = document.querySelector("#stockcards .layer") || document.querySelector("#pile");
  return el.getBoundingClientRect();
}

// Move `el` from the rectangle `from` to where it is now.
function flyFrom(el, from, options = {}) {
  if (!el || !from) return null;
  const to = el.getBoundingClientRect();
  if (!to.width) return null;
  const a = centre(from), b = centre(to);
  const scale = Math.max(0.2, Math.min(3, from.width / to.width));
  return motion.animate(el, [
    {transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})`},
    {transform: "none"}], {fill: "backwards", ...options});
}

// A card drawn over the felt for a motion only (removed when it ends).
function ghost(html, style) {
  const fx = $("#fx");
  fx.insertAdjacentHTML("beforeend", `<div class="ghost" style="${style}">${html}</div>`);
  return fx.lastElementChild;
}

function ghostAt(html, rect) {
  const fx = $("#fx").getBoundingClientRect();
  return ghost(html, `left:${rect.left - fx.left}px;top:${rect.top - fx.top}px;width:${rect.width}px;height:${rect.height}px`);
}

function removeAfter(el, animations) {
  const live = animations.filter(Boolean);
  if (!live.length) { el.remove(); return; }
  Promise.all(live.map((a) => a.finished)).then(() => el.remove(), () => el.remove());
}

// What changed from `before` to `after`, shown: a card played from its seat to the table, the trick to its
// winner, cards drawn from the stock, the trump exchanged, a new deal.
function explain(before, after, event, rects) {
  const info = after.table, view = after.view, old = before.view;
  if (!view) return;
  const mine = table.seat;
  const n = info.players;
  const sameHand = old && before.table.hand_number === info.hand_number;
  let wait = 0;
  const action = event.kind === "action" ? event.action : null;
  if (event.kind === "deal" || (old && !sameHand)) {
    // A new deal: the cards come from the dealer.
    const from = seatRect(view.dealer) || pileRect();
    document.querySelectorAll("#hand .cardbtn").forEach((el, i) => flyFrom(el, from, {delay: i * 50}));
    document.querySelectorAll("#seats .fan").forEach((el, i) => flyFrom(el, from, {delay: i * 50}));
    return;
  }
  if (!sameHand) return;
  if (action && action.play) {
    const seat = action.seat;
    const origin = seat === mine ? rects.hand[action.play] : seatRect(seat);
    const closed = view.tricks.length === old.tricks.length + 1;
    if (!closed) {
      const el = document.querySelector(`#trick figure[data-seat="${seat}"] .card`);
      flyFrom(el, origin);
    } else {
      // The trick is complete: its cards stay a moment, the winner's lit, then slide to the winner.
      const last = view.tricks[view.tricks.length - 1];
      const to = seatRect(last.winner);
      last.cards.forEach((c, i) => {
        const s = (last.leader + i) % n;
        const g = ghost(`<figure class="played${s === last.winner ? " winner" : ""}">${cardSVG(c)}</figure>`,
                        trickStyle(n, place(info, s, mine)));
        g.classList.add("trickghost");
        const anims = [];
        if (s === seat) anims.push(flyFrom(g, origin));
        if (s === last.winner) {
          anims.push(motion.animate(g, [{transform: "scale(1)"}, {transform: "scale(1.12)"}, {transform: "scale(1)"}],
                                    {delay: MOVE_MS, duration: MOVE_MS}));
        }
        if (to) {
          const a = centre(g.getBoundingClientRect()), b = centre(to);
          anims.push(motion.animate(g, [{transform: "none", opacity: 1},
            {transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(.4)`, opacity: 0}],
          {delay: 2 * MOVE_MS, fill: "forwards"}));
        }
        removeAfter(g, anims);
      });
      wait = 3 * MOVE_MS;
    }
  }
  // Cards drawn from the stock (the face-up card counts), from the trick's winner round the table.
  const left = (v) => v.stock_count + (v.face_up ? 1 : 0);
  const drawn = left(old) - left(view);
  if (drawn > 0 && view.tricks.length) {
    const from = pileRect();
    const first = view.tricks[view.tricks.length - 1].winner;
    const mineNew = view.hand.filter((c) => !old.hand.includes(c));
    for (let j = 0; j < drawn; j++) {
      const seat = (first + j) % n;
      const delay = wait + j * 90;
      if (seat === mine && mineNew.length) {
        flyFrom(document.querySelector(`#hand .cardbtn[data-card="${mineNew[0]}"]`), from, {delay});
      } else {
        const to = seatRect(seat);
        if (!to) continue;
        const g = ghostAt(cardBack(), from);
        const a = centre(from), b = centre(to);
        removeAfter(g, [motion.animate(g, [{transform: "none"},
          {transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(.6)`}], {delay, fill: "both"})]);
      }
    }
  }
  // The trump exchanged: the seat's card goes under the stock, the face-up card to the seat.
  if (action && action.exchange && old.face_up) {
    const seat = action.seat;
    const origin = seat === mine ? rects.hand[action.exchange] : seatRect(seat);
    flyFrom(document.querySelector("#faceup"), origin);
    if (rects.faceup) {
      if (seat === mine) {
        flyFrom(document.querySelector(`#hand .cardbtn[data-card="${old.face_up}"]`), rects.faceup);
      } else {
        const to = seatRect(seat);
        const g = ghostAt(cardSVG(old.face_up), rects.faceup);
        if (to) {
          const a = centre(rects.faceup), b = centre(to);
          removeAfter(g, [motion.animate(g, [{transform: "none"},
            {transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(.5)`, opacity: 0.2}], {fill: "forwards"})]);
        } else g.remove();
      }
    }
  }
}

// A click, a tap or a key finishes every motion, and what they pressed still happens: a card pressed while it
// flies is snapped to its place by the finish, so its release lands beside it and the browser sends no click;
// the press is then taken as the click on that button.
let pressedMoving = null;
document.addEventListener("pointerdown", (ev) => {
  const moving = motion.running.size > 0;
  motion.finish();
  pressedMoving = moving && ev.target instanceof Element ? ev.target.closest("button") : null;
}, true);
document.addEventListener("pointerup", (ev) => {
  const button = pressedMoving;
  pressedMoving = null;
  if (button && button.isConnected && !button.disabled && !(ev.target instanceof Node && button.contains(ev.target))) {
    button.click();
  }
}, true);
document.addEventListener("pointercancel", () => { pressedMoving = null; }, true);

// ------------------------------------------------------------------ keys

// Number keys play the cards of the hand (1 is the leftmost; 0 the tenth); Enter confirms a discard;
// Escape closes the results.
document.addEventListener("keydown", (ev) => {
  if (document.body.dataset.page !== "table") return;
  motion.finish();
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Escape") { closeResults(); return; }
  if (/^[0-9]$/.test(ev.key)) {
    const el = document.querySelector(`#hand .cardbtn[data-key="${ev.key}"]`);
    if (el && !el.disabled) { ev.preventDefault(); el.click(); }
  } else if (ev.key === "Enter" && tag !== "BUTTON" && tag !== "A") {
    const confirm = document.querySelector("#actions button.confirm:not([disabled])");
    if (confirm) { ev.preventDefault(); confirm.click(); }
  }
});

// ------------------------------------------------------------------ the page

async function tablePage(id) {
  table.id = id;
  $("#table").hidden = false;
  const saved = JSON.parse(localStorage.getItem(`brisca:seat:${id}`) || "null");
  if (saved) { table.token = saved.token; }
  $("#joinform").name.value = localStorage.getItem("brisca:name") || "";
  asAccount($("#joinform"));
  $("#joinform").onsubmit = async (ev) => {
    ev.preventDefault();
    try {
      if (!session.user) localStorage.setItem("brisca:name", ev.target.name.value);
      const seat = await api(`/api/tables/${id}/join`, session.user ? {} : {name: ev.target.name.value});
      localStorage.setItem(`brisca:seat:${id}`, JSON.stringify(seat));
      table.token = seat.token;
      table.v = null;  // a snapshot as this seat sees it (its hand), not the spectator's view it had
      table.ws.send(JSON.stringify({type: "hello", token: seat.token}));
    } catch (e) { showError(e.message); }
  };
  $("#chatform").onsubmit = (ev) => {
    ev.preventDefault();
    const text = ev.target.text.value.trim();
    if (text && table.ws) table.ws.send(JSON.stringify({type: "chat", text}));
    ev.target.text.value = "";
  };
  $("#leavebtn").onclick = () => sendSeat("leave");
  $("#backbtn").onclick = () => sendSeat("back");
  $("#resignbtn").onclick = () => { if (confirm(t("resignConfirm"))) sendSeat("resign"); };
  $("#cancelbtn").onclick = async () => {
    if (!confirm(t("cancelConfirm"))) return;
    try { await api(`/api/tables/${id}/cancel`, {}); } catch (e) { showError(e.message); }
  };
  $("#closeresults").onclick = closeResults;
  $("#showresults").onclick = () => {
    $("#results").hidden = false;
    table.closedResults = null;
    $("#closeresults").focus();
  };
  soundButton();
  setInterval(tickClocks, 250);
  connect();
}
