// The brisca web table: a small client with no build step. The server decides everything;
// this page only shows the view it is sent and offers the legal actions it lists.
"use strict";

const STRINGS = {
  en: {newTable: "New table", preset: "Rules", players: "Players", yourName: "Your name", otherSeats: "Other seats",
       create: "Create table", history: "Finished games", join: "Take a seat", invite: "Invite link:", trump: "Trump",
       send: "Send", human: "person", stock: "stock", yourTurn: "Your turn", turnOf: "Turn: ", waiting: "Waiting for players",
       spectating: "Watching", matchOver: "Match over. Winner: side ", draw: "Match drawn", record: "Download record",
       handOver: "Hand over. Points: ", exchange: "Exchange ", disconnected: "Reconnecting…", points: "pts"},
  es: {newTable: "Mesa nueva", preset: "Reglas", players: "Jugadores", yourName: "Tu nombre", otherSeats: "Otros asientos",
       create: "Crear mesa", history: "Partidas terminadas", join: "Sentarse", invite: "Enlace de invitación:", trump: "Triunfo",
       send: "Enviar", human: "persona", stock: "mazo", yourTurn: "Te toca", turnOf: "Turno: ", waiting: "Esperando jugadores",
       spectating: "Mirando", matchOver: "Partida terminada. Gana el equipo ", draw: "Partida empatada",
       record: "Descargar registro", handOver: "Mano terminada. Puntos: ", exchange: "Cambiar ",
       disconnected: "Reconectando…", points: "ptos"},
  it: {newTable: "Nuovo tavolo", preset: "Regole", players: "Giocatori", yourName: "Il tuo nome", otherSeats: "Altri posti",
       create: "Crea tavolo", history: "Partite finite", join: "Siediti", invite: "Link di invito:", trump: "Briscola",
       send: "Invia", human: "persona", stock: "mazzo", yourTurn: "Tocca a te", turnOf: "Turno: ", waiting: "In attesa di giocatori",
       spectating: "Spettatore", matchOver: "Partita finita. Vince la squadra ", draw: "Partita pari",
       record: "Scarica la registrazione", handOver: "Mano finita. Punti: ", exchange: "Scambia ",
       disconnected: "Riconnessione…", points: "punti"},
};
const LEVELS = ["easy", "normal", "hard", "expert"];
const SUIT_COLOURS = {O: "#c99a06", C: "#c0392b", E: "#2563eb", B: "#15803d"};
let lang = localStorage.getItem("brisca:lang") || (navigator.language || "en").slice(0, 2);
if (!STRINGS[lang]) lang = "en";
const t = (key) => STRINGS[lang][key] || STRINGS.en[key] || key;
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

function suitSymbol(suit, colour) {
  switch (suit) {
    case "O": return `<circle cx="30" cy="52" r="15" fill="${colour}" stroke="#7c5e00" stroke-width="2"/>` +
                     `<circle cx="30" cy="52" r="7" fill="none" stroke="#7c5e00" stroke-width="1.5"/>`;
    case "C": return `<path d="M17 38 h26 q0 18 -10 22 v8 h7 v4 h-20 v-4 h7 v-8 q-10 -4 -10 -22z" fill="${colour}"/>`;
    case "E": return `<path d="M29 30 h2 v36 h-2z M22 62 h16 v3 h-16z M28 66 h4 v8 h-4z" fill="${colour}"/>`;
    default: return `<path d="M26 32 q4 -4 8 0 l-2 40 h-4z" fill="${colour}"/>` +
                    `<circle cx="30" cy="36" r="5" fill="${colour}"/>`;
  }
}

// A card face drawn here: rank and suit symbol in the Spanish suit colours.
function cardSVG(code) {
  const rank = code.slice(0, -1), suit = code.slice(-1), colour = SUIT_COLOURS[suit] || "#333";
  return `<svg class="card" viewBox="0 0 60 94" role="img" aria-label="${code}" data-card="${code}">` +
    `<rect x="1" y="1" width="58" height="92" rx="5" fill="#fffdf5" stroke="${colour}" stroke-width="2"/>` +
    `<text x="6" y="17" font-size="14" font-weight="bold" fill="${colour}">${rank}</text>` +
    `<text x="54" y="88" font-size="14" font-weight="bold" fill="${colour}" text-anchor="end">${rank}</text>` +
    suitSymbol(suit, colour) + `</svg>`;
}

function cardBack() {
  return `<svg class="card" viewBox="0 0 60 94"><rect x="1" y="1" width="58" height="92" rx="5" fill="#7f1d1d"` +
    ` stroke="#fde68a" stroke-width="2"/><path d="M10 10 L50 84 M50 10 L10 84" stroke="#fde68a" opacity=".4"/></svg>`;
}

function esc(text) {
  const div = document.createElement("div");
  div.textContent = text;
  return div.innerHTML;
}

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail || res.status));
  return data;
}

// ------------------------------------------------------------------ lobby

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
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const bots = {};
    for (let seat = 1; seat < Number(form.players.value); seat++) {
      const level = form[`seat${seat}`].value;
      if (level) bots[seat] = level;
    }
    try {
      localStorage.setItem("brisca:name", form.name.value);
      const made = await api("/api/tables", {preset: form.preset.value, players: Number(form.players.value),
                                             bots, name: form.name.value});
      localStorage.setItem(`brisca:seat:${made.table_id}`, JSON.stringify({seat: made.seat, token: made.token}));
      location.href = made.url;
    } catch (e) { showError(e.message); }
  };
  const games = await api("/api/games");
  $("#games").innerHTML = games.map((g) => `<li>${esc(g.preset)}: ${g.names.map(esc).join(", ")} ` +
    `<a href="/api/games/${g.table_id}/record">${t("record")}</a></li>`).join("");
}

// ------------------------------------------------------------------ the table

const table = {id: null, ws: null, v: null, state: null, seat: null, token: null, retry: 500};

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
    $("#status").textContent = t("disconnected");
    setTimeout(connect, table.retry);
    table.retry = Math.min(table.retry * 2, 10000);
  };
}

function receive(m) {
  if (m.type === "welcome") {
    table.seat = m.seat;
  } else if (m.type === "sync") {
    table.v = m.v;
    table.state = m.state;
    render();
  } else if (m.type === "event") {
    if (table.v !== null && m.v !== table.v + 1) {  // a gap: ask again from the last event seen
      table.ws.close();
      return;
    }
    table.v = m.v;
    if (m.kind === "chat") addChat(m.name, m.text);
    if (m.state) { table.state = m.state; render(); }
  } else if (m.type === "error") {
    if (m.code === "bad_token") { table.token = null; localStorage.removeItem(`brisca:seat:${table.id}`); }
    showError(m.message);
  }
}

function addChat(name, text) {
  const log = $("#chatlog");
  log.insertAdjacentHTML("beforeend", `<div><b>${esc(name)}:</b> ${esc(text)}</div>`);
  log.scrollTop = log.scrollHeight;
}

function play(action) {
  if (table.ws && table.ws.readyState === WebSocket.OPEN) {
    table.ws.send(JSON.stringify({type: "play", action, id: Date.now()}));
  }
}

function seatName(info, seat) {
  const s = info.seats[seat];
  return s && s.name ? s.name : `#${seat}`;
}

function render() {
  const {table: info, view} = table.state;
  const mine = table.seat;
  $("#join").hidden = !(info.status === "waiting" && mine === null);
  $("#invite").value = `${location.origin}/t/${info.id}`;
  if (!view) {
    $("#status").textContent = t("waiting");
    $("#seats").innerHTML = info.seats.map((s) => `<span class="seat">${esc(s.name || "…")}</span>`).join("");
    return;
  }
  let status = view.turn === null ? "" : (view.turn === mine ? t("yourTurn") : t("turnOf") + seatName(info, view.turn));
  if (mine === null) status = `${t("spectating")} · ${status}`;
  $("#status").textContent = status;
  $("#seats").innerHTML = info.seats.map((s, i) =>
    `<span class="seat${i === view.turn ? " turn" : ""}${i === mine ? " me" : ""}">${esc(seatName(info, i))}` +
    ` · ${view.seat_points[i]} ${t("points")} · 🂠${view.hand_sizes[i]}</span>`).join("") +
    (info.hands_won ? `<span class="seat">${info.hands_won.join(" – ")}</span>` : "");
  $("#faceup").innerHTML = view.face_up ? cardSVG(view.face_up) : `<b>${view.trump}</b>`;
  $("#stock").textContent = `${view.stock_count} ${t("stock")}`;
  $("#trick").innerHTML = view.trick.map((c, i) =>
    `<figure>${cardSVG(c)}<figcaption>${esc(seatName(info, view.trick_seats[i]))}</figcaption></figure>`).join("");
  const legalPlays = new Set(view.legal.filter((a) => a.play && !a.arrastro).map((a) => a.play));
  $("#hand").innerHTML = mine === null
    ? view.hand_sizes.map(() => "").join("")
    : view.hand.map((c) => cardSVG(c).replace('class="card"', `class="card${legalPlays.has(c) ? " legal" : ""}"`)).join("");
  document.querySelectorAll("#hand .card.legal").forEach((el) => { el.onclick = () => play(el.dataset.card); });
  const others = view.legal.filter((a) => !(a.play && !a.arrastro));
  $("#actions").innerHTML = others.map((a, i) =>
    `<button data-i="${i}">${a.exchange ? t("exchange") + a.exchange : esc(a.text)}</button>`).join("");
  document.querySelectorAll("#actions button").forEach((el) => {
    el.onclick = () => { const a = {...others[Number(el.dataset.i)]}; delete a.text; play(a); };
  });
  let result = "";
  if (view.result) result = t("handOver") + view.result.side_points.join(" – ");
  if (info.status === "finished") {
    result = (info.match_winner === null ? t("draw") : t("matchOver") + info.match_winner) +
      ` · <a href="/api/games/${info.id}/record">${t("record")}</a>`;
  }
  $("#result").innerHTML = result;
}

async function tablePage(id) {
  table.id = id;
  $("#table").hidden = false;
  const saved = JSON.parse(localStorage.getItem(`brisca:seat:${id}`) || "null");
  if (saved) { table.token = saved.token; }
  $("#joinform").name.value = localStorage.getItem("brisca:name") || "";
  $("#joinform").onsubmit = async (ev) => {
    ev.preventDefault();
    try {
      localStorage.setItem("brisca:name", ev.target.name.value);
      const seat = await api(`/api/tables/${id}/join`, {name: ev.target.name.value});
      localStorage.setItem(`brisca:seat:${id}`, JSON.stringify(seat));
      table.token = seat.token;
      table.v = null;
      table.ws.send(JSON.stringify({type: "hello", token: seat.token}));
    } catch (e) { showError(e.message); }
  };
  $("#chatform").onsubmit = (ev) => {
    ev.preventDefault();
    const text = ev.target.text.value.trim();
    if (text && table.ws) table.ws.send(JSON.stringify({type: "chat", text}));
    ev.target.text.value = "";
  };
  connect();
}

$("#lang").onchange = (ev) => {
  lang = ev.target.value;
  localStorage.setItem("brisca:lang", lang);
  translate();
  if (table.state) render();
};
translate();
const route = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)/);
if (route) tablePage(route[1]); else lobby().catch((e) => showError(e.message));
