// Tournaments: the list (with the form that makes one), and a tournament's page: its entrants, its rounds with
// their tables, the standings with their tie-breaks, and the link to one's own table. Everything comes from the
// server (/api/tournaments); an entrant's token, which says who they are, is kept in localStorage.
"use strict";

const TOUR_EVERY_MS = 3000;
const tourToken = (id) => localStorage.getItem(`brisca:entrant:${id}`);

// "Swiss · round 2 of 3", "open to join", "finished".
function tourState(tr) {
  if (tr.status === "open") return t("tourOpen");
  if (tr.status === "cancelled") return t("tourCancelled");
  if (tr.status === "finished") return `${t(`system_${tr.system}`)} · ${t("tourFinished")}`;
  return `${t(`system_${tr.system}`)} · ${t("roundOf", {n: tr.round, m: tr.total_rounds})}`;
}

function tourItem(tr) {
  return `<li class="item" data-tournament="${esc(tr.id)}">` +
    `<div class="what"><b>${esc(tr.name)}</b> · ${esc(presetTitle(tr.preset, tr.preset))} · ` +
    `${esc(t("playersN", {n: tr.players}))}${tr.rated ? ` · <span class="rated">★</span>` : ""}</div>` +
    `<div class="who">${esc(tourState(tr))} · ${esc(t("entrantsOf", {n: tr.entrants, max: tr.max_entrants}))}</div>` +
    `<a class="go" href="${esc(tr.url)}">${esc(tr.status === "open" ? t("joinTournament") : t("watch"))}</a></li>`;
}

// The lobby's few: open and playing ones first.
async function lobbyTournaments() {
  const {tournaments} = await api("/api/tournaments");
  const live = tournaments.filter((tr) => tr.status !== "finished").slice(0, 5);
  $("#lobbytournaments").innerHTML = live.map(tourItem).join("") ||
    `<li class="empty">${esc(t("noTournaments"))}</li>`;
}

async function tournamentsPage() {
  $("#tournaments").hidden = false;
  const show = async () => {
    const {tournaments} = await api("/api/tournaments");
    $("#tournamentlist").innerHTML = tournaments.map(tourItem).join("") ||
      `<li class="empty">${esc(t("noTournaments"))}</li>`;
    document.body.dataset.tournaments = String(Date.now());
  };
  const form = $("#newtournament");
  $("#tourlogin").hidden = !!session.user;
  form.hidden = !session.user;
  if (session.user) {
    const presets = await api("/api/presets");
    form.preset.innerHTML = presets.map((p) => `<option value="${esc(p.name)}">${esc(presetTitle(p.name, p.title))}</option>`).join("");
    const setPlayers = () => {
      const preset = presets.find((p) => p.name === form.preset.value);
      form.players.innerHTML = preset.players.filter((n) => n >= 2).map((n) => `<option>${n}</option>`).join("");
    };
    form.preset.onchange = setPlayers;
    form.preset.value = "spanish";
    setPlayers();
    form.onsubmit = async (ev) => {
      ev.preventDefault();
      try {
        const made = await api("/api/tournaments", {
          name: form.name.value, preset: form.preset.value, players: Number(form.players.value),
          rounds: Number(form.rounds.value), max_entrants: Number(form.max_entrants.value), clock: form.clock.value,
          start: form.start.value, rated: form.rated.checked, options: parseOptions(form.options.value)});
        location.href = made.url;
      } catch (e) { showError(e.message); }
    };
  }
  rerender = () => show().catch(() => {});
  await show();
  setInterval(() => { if (document.visibilityState === "visible") show().catch(() => {}); }, TOUR_EVERY_MS * 3);
}

function tourSeat(s) {
  if (s.bot) return esc(t("botName", {name: t(`level_${s.bot}`)}));
  return playerLink(s.name || "?", s.account);
}

// One table of a round: its seats (sides joined by "–"), its state or result, and the link to it.
function tourTable(tr, table) {
  const sides = [];
  table.seats.forEach((s, seat) => { (sides[seat % tr.sides] ||= []).push(s); });
  const mark = (side) => table.over && table.finished && table.winner === side ? "★ " : "";
  const who = sides.map((members, side) => `${mark(side)}${members.map(tourSeat).join(" & ")}`).join(" – ");
  let state;
  if (!table.over) state = t("tablePlaying");
  else if (!table.finished) state = t("tableNoResult");
  else if (table.winner === null) state = t("levelResult");
  else state = t("tableOver");
  const points = table.points && table.finished ? ` · ${table.points.join(" – ")} ${t("points")}` : "";
  return `<li class="item" data-board="${table.board}" data-table="${esc(table.table_id)}">` +
    `<div class="who">${who}</div><div class="what">${esc(state)}${esc(points)}</div>` +
    `<a class="go" href="${esc(table.url)}">${esc(table.over ? t("replayThis") : t("watch"))}</a></li>`;
}

async function tournamentPage(id) {
  $("#tournament").hidden = false;
  let data = null, mine = null;
  const load = async () => {
    data = await api(`/api/tournaments/${encodeURIComponent(id)}`);
    mine = await api(`/api/tournaments/${encodeURIComponent(id)}/me`, {token: tourToken(id)});
  };
  const show = () => {
    $("#tourname").textContent = data.name;
    const clock = `⏱ ${data.clock.move} s + ${data.clock.reserve} s`;
    $("#tourinfo").textContent = [presetTitle(data.preset, data.preset), t("playersN", {n: data.players}),
      tourState(data), t("entrantsOf", {n: data.entrants.length, max: data.max_entrants}), clock,
      data.rated ? t("ratedTournament") : ""].filter(Boolean).join(" · ");
    const me = mine.entrant;
    $("#tourme").hidden = !me;
    if (me) $("#tourme").textContent = t("youAreIn", {name: me.name});
    const link = $("#tourtable");
    link.hidden = !mine.table;
    if (mine.table) {
      // The seat's token, where the table's page looks for it.
      localStorage.setItem(`brisca:seat:${mine.table.table_id}`, JSON.stringify({seat: mine.table.seat, token: mine.table.token}));
      link.href = mine.table.url;
    }
    const form = $("#tourjoin");
    form.hidden = data.status !== "open" || !!me;
    $("#tourleave").hidden = data.status !== "open" || !me;
    $("#tourstart").hidden = data.status !== "open" || !mine.creator;
    $("#tourcancel").hidden = data.status !== "open" || !mine.creator;
    // The standings: rank, name, score, then the tie-breaks of the system, in order.
    const box = $("#tourstandingsbox");
    box.hidden = !data.standings.length;
    if (data.standings.length) {
      const breaks = Object.keys(data.standings[0].tiebreaks);
      $("#tourstandings thead").innerHTML = `<tr><th>#</th><th>${esc(t("name"))}</th><th>${esc(t("score"))}</th>` +
        breaks.map((b) => `<th>${esc(t(`tb_${b}`))}</th>`).join("") + `</tr>`;
      $("#tourstandings tbody").innerHTML = data.standings.map((s) => `<tr data-entrant="${s.entrant}">` +
        `<td>${s.rank}</td><td>${tourSeat(s)}</td><td>${s.score}</td>` +
        breaks.map((b) => `<td>${s.tiebreaks[b]}</td>`).join("") + `</tr>`).join("");
    }
    $("#tourrounds").innerHTML = data.pairings.slice().reverse().map((r) =>
      `<h2>${esc(t("roundN", {n: r.round}))}</h2><ul class="list" data-round="${r.round}">` +
      r.tables.map((table) => tourTable(data, table)).join("") + `</ul>`).join("");
    $("#tourentrants").innerHTML = data.entrants.map((e) => `<li>${playerLink(e.name, e.account)}</li>`).join("");
    document.title = `${data.name} · Brisca`;
    document.body.dataset.tournament = `${data.status}:${data.round}:${Date.now()}`;
  };
  const refresh = async () => { await load(); show(); };
  const form = $("#tourjoin");
  form.name.value = localStorage.getItem("brisca:name") || "";
  asAccount(form);
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    try {
      const joined = await api(`/api/tournaments/${encodeURIComponent(id)}/join`, session.user ? {} : {name: form.name.value});
      if (!session.user) localStorage.setItem("brisca:name", form.name.value);
      localStorage.setItem(`brisca:entrant:${id}`, joined.token);
      await refresh();
    } catch (e) { showError(e.message); }
  };
  $("#tourleave").onclick = async () => {
    try {
      await api(`/api/tournaments/${encodeURIComponent(id)}/leave`, {token: tourToken(id)});
      localStorage.removeItem(`brisca:entrant:${id}`);
      await refresh();
    } catch (e) { showError(e.message); }
  };
  $("#tourstart").onclick = async () => {
    try {
      await api(`/api/tournaments/${encodeURIComponent(id)}/start`, {});
      await refresh();
    } catch (e) { showError(e.message); }
  };
  $("#tourcancel").onclick = async () => {
    try {
      await api(`/api/tournaments/${encodeURIComponent(id)}/cancel`, {});
      await refresh();
    } catch (e) { showError(e.message); }
  };
  rerender = () => { if (data) show(); };
  await refresh();
  setInterval(() => {
    if (document.visibilityState === "visible" && data && ["open", "playing"].includes(data.status)) {
      refresh().catch(() => {});
    }
  }, TOUR_EVERY_MS);
}
