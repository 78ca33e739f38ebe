// The brisca web table: a small client with no build step. The server decides everything;
// this page only shows the view it is sent and offers the legal actions it lists.
"use strict";

// STRINGS (language -> key -> text) comes from /messages.js, which the server builds from the gettext catalogs
// (brisca/locale) and the English texts of brisca/server/pagetext.py.
const LEVELS = ["easy", "normal", "hard", "expert"];
let lang = localStorage.getItem("brisca:lang") || (navigator.language || "en").slice(0, 2);
if (!STRINGS[lang]) lang = "en";
// A text by key, its {fields} filled; ``KEY_one`` where ``n`` is 1 and the language has one ("1 trick").
const t = (key, args) => {
  const one = args && Number(args.n) === 1 && (STRINGS[lang][`${key}_one`] ?? STRINGS.en[`${key}_one`]);
  let text = one || (STRINGS[lang][key] ?? STRINGS.en[key] ?? key);
  for (const [k, v] of Object.entries(args || {})) text = text.replace(`{${k}}`, v);
  return text;
};
const $ = (sel) => document.querySelector(sel);
// A preset's title in the page's language (the server's English title for one the catalogs lack).
const presetTitle = (name, fallback) => STRINGS[lang][`title_${name}`] || fallback || name;

function translate() {
  document.documentElement.lang = lang;
  $("#lang").value = lang;
  document.querySelectorAll("[data-t]").forEach((el) => {
    el.textContent = t(el.dataset.t) + (el.dataset.times ? ` (${el.dataset.times})` : "");
  });
}

// What the server says, in the page's language: its English text matched against the templates ``srv_*`` of the
// page's texts (each ``{field}`` any text, put back in the translation); a text none matches stays as it is.
function serverText(text) {
  if (!text || lang === "en") return text;
  for (const key of Object.keys(STRINGS.en)) {
    if (!key.startsWith("srv_")) continue;
    const names = [];
    const pattern = STRINGS.en[key].split(/(\{\w+\})/).map((part) => {
      const field = part.match(/^\{(\w+)\}$/);
      if (field) { names.push(field[1]); return "(.+?)"; }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }).join("");
    const found = text.match(new RegExp(`^${pattern}$`));
    if (found) {
      const fields = {};
      names.forEach((name, i) => { fields[name] = serverText(found[i + 1]); });
      return t(key, fields);
    }
  }
  return text;
}

function showError(text) {
  const box = $("#error");
  text = serverText(text);
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
  form.preset.innerHTML = presets.map((p) => `<option value="${p.name}" data-t="title_${p.name}">${esc(presetTitle(p.name, p.title))}</option>`).join("");
  const setPlayers = () => {
    const preset = presets.find((p) => p.name === form.preset.value);
    form.players.innerHTML = preset.players.map((n) => `<option>${n}</option>`).join("");
    setClocks();
    setSeats();
  };
  // Each clock's times beside its name: the preset's own, fast, slow.
  const setClocks = () => {
    const preset = presets.find((p) => p.name === form.preset.value);
    for (const option of form.clock.options) {
      const times = option.value === "default" ? preset.clock : preset.clocks[option.value];
      option.dataset.times = times.text;
      option.textContent = `${t(option.dataset.t)} (${times.text})`;
    }
  };
  const setSeats = () => {
    const n = Number(form.players.value);
    const rows = [];
    for (let seat = 1; seat < n; seat++) {
      // data-t: a language switch translates them in place (translate()).
      rows.push(`<label>${seat}: <select name="seat${seat}"><option value="" data-t="human">${t("human")}</option>` +
        LEVELS.map((l) => `<option value="${l}" data-t="level_${l}"${l === "normal" ? " selected" : ""}>` +
          `${esc(t(`level_${l}`))}</option>`).join("") + `</select></label>`);
    }
    $("#seatbots").innerHTML = `<legend data-t="otherSeats">${t("otherSeats")}</legend>` + rows.join("");
  };
  form.preset.onchange = setPlayers;
  form.players.onchange = setSeats;
  form.preset.value = "spanish";
  setPlayers();
  form.name.value = localStorage.getItem("brisca:name") || "";
  asAccount(form);
  form.clock.querySelector("option[value=days]").hidden = !session.user;  // slow tables are for accounts
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
                                             hints: form.hints.checked,
                                             clock: form.clock.value,
                                             options: parseOptions(form.options.value)});
      localStorage.setItem(`brisca:seat:${made.table_id}`, JSON.stringify({seat: made.seat, token: made.token}));
      localStorage.setItem(`brisca:created:${made.table_id}`, "1");
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
  return name.startsWith("bot:") ? t("botName", {name: t(`level_${name.slice(4)}`)}) : name;
}

// A link to an account's page (a guest's or a bot's name is plain text).
function playerLink(text, account) {
  return account ? `<a class="player" href="/players/${encodeURIComponent(account)}">${esc(text)}</a>` : esc(text);
}

function seatLabel(s) {
  if (s.bot) return esc(t("botName", {name: t(`level_${s.bot}`)}));
  if (s.name === null) return `<i>${esc(t("freeSeat"))}</i>`;
  const rating = s.rating === null || s.rating === undefined ? ""
    : ` <span class="rating">★ ${Number(s.rating).toFixed(1)}</span>${provisionalMark(s.provisional)}`;
  return playerLink(displayName(s.name, s.guest), s.account) + rating;
}

// After a rating: "provisional" while the account has played too few rated matches, or met too few opponents,
// for it to count (it is not on the leaderboard meanwhile).
function provisionalMark(provisional) {
  return provisional ? ` <span class="tag provisional" title="${esc(t("provisionalHint"))}">${esc(t("provisional"))}</span>` : "";
}

// The forms where someone sits down: a name for a guest, the account's name for someone logged in.
function asAccount(form) {
  const user = session.user;
  form.querySelector(".guestname").hidden = !!user;
  form.name.required = !user;
  form.querySelector(".asaccount").hidden = !user;
  if (user) form.querySelector(".asaccount .me").textContent = user.display;
}

// A game's score so far, each side named: "Team A 2 · Team B 1", or "Ana 3 · easy (bot) 1".
function score(entry) {
  const values = entry.match_points && entry.match_points.some((p) => p) ? entry.match_points : entry.hands_won;
  if (!values) return "";
  const name = (s) => (s.bot ? t("botName", {name: t(`level_${s.bot}`)}) : s.name || "?");
  return values.map((v, side) => `${entry.sides < entry.players ? `${t("team")} ${"ABCDEF"[side]}`
    : name(entry.seats[side])} ${v}`).join(" · ");
}

// Time left before a deadline, in days and hours, hours and minutes, or minutes.
function timeLeft(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d) return t("daysHours", {d, h});
  if (h) return t("hoursMinutes", {h, m});
  return t("minutesLeft", {m});
}

// One of the account's tables: where it is, whether it is their turn, and until when.
function myItem(e, now) {
  const state = e.status === "waiting" ? t("waiting") : e.your_turn
    ? `<b class="yourturn">${esc(t("yourTurn"))}</b> · ${esc(t("dueIn", {time: timeLeft(e.deadline - now)}))}`
    : esc(t("theirTurn"));
  return `<li class="item" data-table="${e.table_id}"${e.your_turn ? ' data-turn="1"' : ""}>` +
    `<div class="what"><b>${esc(presetTitle(e.preset, e.title))}</b> · ${esc(t("playersN", {n: e.players}))}` +
    (e.clock ? ` · <span class="clocktag nowrap">⏱ ${esc(e.clock.text)}</span>` : "") + `</div>` +
    `<div class="who">${e.status === "waiting" ? esc(state) : state}</div>` +
    `<a class="go" href="${e.url}">${esc(t(e.your_turn ? "playNow" : "openTable"))}</a></li>`;
}

async function myTables() {
  const mine = await api("/api/my/tables");
  return {tables: mine.tables, now: mine.now};  // the server's time: the deadlines are in it
}

async function myPage() {
  $("#my").hidden = false;
  if (!session.user) { location.href = "/login"; return; }
  const show = async () => {
    const {tables, now} = await myTables();
    $("#mytables").innerHTML = tables.map((e) => myItem(e, now)).join("") ||
      `<li class="empty">${esc(t("noMyTables"))}</li>`;
    const turns = tables.filter((e) => e.your_turn).length;
    document.title = `${turns ? `(${turns}) ` : ""}${t("myTables")} · Brisca`;
    document.body.dataset.my = String(Date.now());
  };
  rerender = () => show().catch(() => {});
  await show();
  setInterval(() => { if (document.visibilityState === "visible") show().catch(() => {}); }, LOBBY_EVERY_MS * 10);
}

async function refreshLobby() {
  if (session.user) {
    const {tables, now} = await myTables();
    const turn = tables.filter((e) => e.your_turn);
    $("#yourturn").hidden = !turn.length;
    document.title = turn.length ? `(${turn.length}) Brisca` : "Brisca";
    $("#yourturntables").innerHTML = turn.map((e) => myItem(e, now)).join("");
  }
  const lobby = await api("/api/lobby");
  const item = (e, open) => `<li class="item" data-table="${e.table_id}">` +
    `<div class="what"><b>${esc(presetTitle(e.preset, e.title))}</b> · ${esc(t("playersN", {n: e.players}))}` +
    (e.practice ? ` · <span class="practice">${esc(t("practiceTag"))}</span>`
      : e.hints ? ` · <span class="hints">${esc(t("hintsTag"))}</span>` : "") +
    (e.clock ? ` · <span class="clocktag nowrap" title="${esc(t("moveClock"))}">⏱ ${esc(e.clock)}</span>` : "") +
    (open ? ` · <span class="free">${esc(t("free", {n: e.free.length}))}</span>`
      : ` · <span class="nowrap">${esc(t("handN", {n: e.hand_number + 1}))}</span> · ${esc(score(e))}`) + `</div>` +
    `<div class="who">${e.seats.map(seatLabel).join(", ")}</div>` +
    `<a class="go" href="${e.url}">${esc(open ? t("joinTable") : t("watch"))}</a></li>`;
  $("#opentables").innerHTML = lobby.open.map((e) => item(e, true)).join("") ||
    `<li class="empty">${esc(t("noOpen"))}</li>`;
  $("#playingtables").innerHTML = lobby.playing.map((e) => item(e, false)).join("") ||
    `<li class="empty">${esc(t("noPlaying"))}</li>`;
  await lobbyTournaments();
  document.body.dataset.lobby = String(Date.now());
}

function when(iso) {
  const date = new Date(iso.endsWith("Z") || iso.includes("+") ? iso : iso + "Z");
  return date.toLocaleString(lang, {dateStyle: "medium", timeStyle: "short"});
}

// ------------------------------------------------------------------ finished games

const PAGE = 20;

async function historyPage() {
  $("#history").hidden = false;
  const presets = await api("/api/presets");
  const select = $("#historypreset");
  select.insertAdjacentHTML("beforeend",
    presets.map((p) => `<option value="${p.name}" data-t="title_${p.name}">${esc(presetTitle(p.name, p.title))}</option>`).join(""));
  let offset = 0;
  const more = async (fresh) => {
    if (fresh) { offset = 0; $("#games").innerHTML = ""; }
    const preset = select.value ? `&preset=${encodeURIComponent(select.value)}` : "";
    const games = await api(`/api/games?limit=${PAGE}&offset=${offset}${preset}`);
    offset += games.length;
    $("#games").insertAdjacentHTML("beforeend", games.map((g) => `<li class="item" data-game="${g.table_id}">` +
      `<div class="what"><b>${esc(presetTitle(g.preset, g.title))}</b> · ${esc(when(g.finished_at))}</div>` +
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
  replay.info = {players: data.players, sides: data.sides, seats: data.names.map((n, i) => ({
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
  rerender = () => { showStep(replay.at); briscaAnalysis.render(); };
  window.addEventListener("hashchange", () => {
    const n = Number(location.hash.slice(1));
    if (Number.isInteger(n) && n !== replay.at) go(n);
  });
  const fromHash = Number(location.hash.slice(1));
  showStep(Number.isInteger(fromHash) && fromHash >= 0 && fromHash <= last ? fromHash : 0);
  briscaAnalysis.open(id).catch((e) => showError(e.message));
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
  $("#rtitle").textContent = presetTitle(d.preset, d.title);
  const won = d.winner === null ? t("drawn") : t("winners", {names: winnerNames(replay.info, d.winner)});
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
  const scoreText = d.match === "target_points" ? `${sideScores(info, step.match_points)} / ${d.target_points}`
    : d.match === "game_points" ? `${sideScores(info, step.game_points)} / ${d.target_game_points}`
    : d.match === "fixed_hands" ? `${sideScores(info, step.hands_won)} (${t("fixedHands", {n: d.match_hands})})`
    : sideScores(info, step.hands_won);
  $("#rscore").textContent = `${t("match")}: ${scoreText}`;
  $("#rcontract").innerHTML = contractHTML(info, view);
  $("#rauction").innerHTML = auctionHTML(info, view);
  $("#rfaceup").innerHTML = view.face_up ? cardSVG(view.face_up) : trumpHTML(view);
  $("#rstock").textContent = t("stockN", {n: view.stock_count});
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
    // Each part whole on its line: "Equipo A", "21 ptos", never "Equipo" above "A".
    const side = d.sides < d.players ? ` · <span class="nowrap">${esc(sideLabel(info, seat % d.sides))}</span>` : "";
    return `<div class="${cls}" data-seat="${seat}"><div class="rname">${esc(seatName(info, seat))}` +
      ` · <span class="nowrap"><span class="pts">${view.seat_points[seat]}</span> ${esc(t("points"))}</span>${side}</div>` +
      `<div class="hand small">${cards.map(cardSVG).join("")}</div></div>`;
  }).join("");
  let result = "";
  if (view.result) {
    result = esc(t("handOver") + sideScores(info, view.result.side_points));
    if (view.result.scores) {
      result += " · " + esc(t("scores") + view.result.scores.map((v, i) => `${playerName(info, i)} ${v}`).join(", "));
    }
    result += sharedText(info, view.result);
  }
  if (n === d.steps.length - 1) {
    result += (result ? "<br>" : "") + esc(d.winner === null ? t("draw")
      : `${t("matchOverShort")} · ★ ${t("winners", {names: winnerNames(info, d.winner)})}`);
  }
  $("#rresult").innerHTML = result;
  briscaAnalysis.step(n);
  replayMoveLog(info, d.steps, step);
}

// A hand tied for the most points under tie=shared: every tied side is awarded it.
function sharedText(info, result) {
  return result.winner === null && result.winners && result.winners.length > 1
    ? " · " + esc(t("handShared", {list: result.winners.map((w) => sideLabel(info, w)).join(", ")})) : "";
}

// ------------------------------------------------------------------ the leaderboard

async function leaderboardPage(preset) {
  $("#leaderboard").hidden = false;
  const [presets, rated] = await Promise.all([api("/api/presets"), api("/api/ratings")]);
  const select = $("#boardpreset");
  select.innerHTML = presets.map((p) => `<option value="${p.name}" data-t="title_${p.name}">${esc(presetTitle(p.name, p.title))}</option>`).join("");
  select.value = preset || (rated.length ? rated[0].preset : "spanish");
  const show = async () => {
    const board = await api(`/api/ratings/${encodeURIComponent(select.value)}`);
    history.replaceState(null, "", `/leaderboard/${select.value}`);
    $("#ratingtable tbody").innerHTML = board.map((r) => `<tr><td>${r.rank}</td><td>${playerLink(displayName(r.name), r.account)}</td>` +
      `<td>${r.ordinal.toFixed(1)}${provisionalMark(r.provisional)}</td><td>${r.mu.toFixed(1)}</td><td>${r.sigma.toFixed(2)}</td><td>${r.games}</td></tr>`).join("");
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
  $("#nav-my").hidden = !user;
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
      `<td><a href="/leaderboard/${encodeURIComponent(r.preset)}">${esc(presetTitle(r.preset, r.title))}</a></td>` +
      `<td>${r.ordinal.toFixed(1)}${provisionalMark(r.provisional)}</td><td>${r.mu.toFixed(1)}</td><td>${r.sigma.toFixed(2)}</td><td>${r.games}</td></tr>`)
      .join("");
    $("#playerratings").hidden = !data.ratings.length;
    $("#playernoratings").hidden = data.ratings.length > 0;
    $("#playergames").innerHTML = data.games.map((g) => `<li class="item" data-game="${g.table_id}">` +
      `<div class="what"><b>${esc(presetTitle(g.preset, g.title))}</b> · ${esc(when(g.finished_at))}</div>` +
      `<div class="who">${g.names.map((n, i) => {
        const who = playerLink(displayName(n, g.guests[i]), g.accounts[i]);
        return g.winner !== null && i % g.sides === g.winner ? `<b class="won">★ ${who}</b>` : who;
      }).join(", ")}</div>` +
      `<div class="links"><a class="go" href="${g.url}">${esc(t("replayThis"))}</a></div></li>`).join("") ||
      `<li class="empty">${esc(t("noGames"))}</li>`;
    document.body.dataset.player = data.username;
  };
  rerender = () => { show(); briscaAnalysis.player(data.username).catch((e) => showError(e.message)); };
  show();
  await briscaAnalysis.player(data.username);
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

// One page, ten places: the lobby, a table, the finished games, a replay, the leaderboard, logging in,
// the account, a player, the tournaments, a tournament.
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
    [/^\/my\/?$/, "my", () => myPage()],
    [/^\/tournaments\/?$/, "tournaments", () => tournamentsPage()],
    [/^\/tournaments\/([A-Za-z0-9_-]+)$/, "tournament", (id) => tournamentPage(id)],
  ];
  for (const [pattern, name, open] of pages) {
    if ((m = path.match(pattern))) {
      document.body.dataset.page = name;
      const nav = {history: "games", replay: "games", leaderboard: "leaderboard", my: "my", tournaments: "tournaments",
        tournament: "tournaments"}[name];
      if (nav) $(`#nav-${nav}`).classList.add("here");
      return Promise.resolve(open(m[1]));
    }
  }
  document.body.dataset.page = "lobby";
  $("#nav-lobby").classList.add("here");
  return lobby();
}
loadSession().catch((e) => showError(e.message)).then(route).catch((e) => showError(e.message));
