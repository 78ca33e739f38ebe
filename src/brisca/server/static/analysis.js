// The analysis of a finished game on its replay page (brisca.analysis, made by the server on request): a graph
// of each side's win chance over the game, the moves with mistakes marked, and for the move on the table the
// values of every move its player could have made, as that player could know them and with the cards face up.
// An account's figures from its analysed games on the player page. app.js calls open(), step() and player().
"use strict";

const briscaAnalysis = (() => {
  const POLL_MS = 2000;
  const COLOURS = ["#8cc4ff", "#ff9e80", "#b9f6ca", "#ffe082", "#e1bee7", "#eeeeee"];
  const state = {id: null, status: null, analysis: null, reason: "", ahead: 0, steps: new Map(), timer: null};
  const pct = (x) => `${Math.round(100 * x)}%`;
  const signed = (x) => `${x >= 0 ? "+" : ""}${x.toFixed(1)}`;

  // The replay step of each analysed move: step 0 of a hand is its deal, step index i + 1 its action i.
  function indexSteps() {
    state.steps.clear();
    replay.data.steps.forEach((s, k) => { if (s.index > 0) state.steps.set(`${s.hand}:${s.index - 1}`, k); });
  }

  async function open(id) {
    state.id = id;
    indexSteps();
    await load();
  }

  async function load() {
    const body = await api(`/api/games/${encodeURIComponent(state.id)}/analysis`);
    take(body);
  }

  function take(body) {
    state.status = body.status;
    state.analysis = body.analysis || null;
    state.reason = body.reason || "";
    state.ahead = body.ahead || 0;
    clearTimeout(state.timer);
    if (state.status === "queued") state.timer = setTimeout(() => load().catch((e) => showError(e.message)), POLL_MS);
    render();
  }

  async function ask() {
    try {
      take(await api(`/api/games/${encodeURIComponent(state.id)}/analysis`, {}));
    } catch (e) {
      showError(e.message);
    }
  }

  function render() {
    const box = $("#ranalysis");
    if (!box) return;
    box.dataset.status = state.status || "";
    let html = `<h2>${esc(t("analysis"))}</h2>`;
    if (state.status === "none" || state.status === "failed") {
      if (state.status === "failed") html += `<p class="failed">${esc(t("analysisFailed", {reason: state.reason}))}</p>`;
      html += `<button id="ranalyse">${esc(t("analyse"))}</button>`;
    } else if (state.status === "queued") {
      html += `<p class="queued">${esc(t("analysisQueued", {n: state.ahead}))}</p>`;
    } else if (state.status === "done") {
      html += `<p class="note">${esc(t("analysisNote"))}</p>${graph()}<div id="ralternatives"></div>${moveList()}`;
    }
    box.innerHTML = html;
    const button = $("#ranalyse");
    if (button) button.onclick = ask;
    box.querySelectorAll("[data-step]").forEach((el) => {
      el.onclick = () => { location.hash = `#${el.dataset.step}`; };
    });
    step(replay.at);
  }

  const searched = () => state.analysis.moves.filter((m) => m.taken);
  const stepOf = (m) => state.steps.get(`${m.hand}:${m.index}`);

  // Each side's win chance after each of its own moves, as the mover read it; a mark on every mistake.
  function graph() {
    const moves = searched();
    const w = 640, h = 170, pad = 24;
    const x = (i) => pad + (moves.length > 1 ? i * (w - 2 * pad) / (moves.length - 1) : 0);
    const y = (p) => h - pad - p * (h - 2 * pad);
    const sides = [...new Set(moves.map((m) => m.side))].sort();
    let svg = `<svg id="rgraph" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(t("winChance"))}">`;
    svg += `<line class="half" x1="${pad}" x2="${w - pad}" y1="${y(0.5)}" y2="${y(0.5)}"/>`;
    svg += `<text x="2" y="${y(1) + 4}">100%</text><text x="2" y="${y(0) + 4}">0%</text>`;
    for (const side of sides) {
      const colour = COLOURS[side % COLOURS.length];
      const points = moves.map((m, i) => [m, i]).filter(([m]) => m.side === side);
      svg += `<polyline data-side="${side}" fill="none" stroke="${colour}" stroke-width="2" points="` +
        points.map(([m, i]) => `${x(i).toFixed(1)},${y(m.taken.win).toFixed(1)}`).join(" ") + `"/>`;
      for (const [m, i] of points) {
        const r = m.mark ? 5 : 3;
        svg += `<circle class="pt ${m.mark}" data-step="${stepOf(m)}" data-side="${side}" cx="${x(i).toFixed(1)}" ` +
          `cy="${y(m.taken.win).toFixed(1)}" r="${r}" fill="${m.mark ? "" : colour}"><title>` +
          `${esc(seatName(replay.info, m.seat))}: ${esc(m.action)} · ${pct(m.taken.win)}` +
          `${m.mark ? " · " + esc(t(m.mark)) : ""}</title></circle>`;
      }
    }
    svg += `<line id="rgraphnow" class="now" x1="0" x2="0" y1="${pad / 2}" y2="${h - pad / 2}" visibility="hidden"/>`;
    svg += "</svg>";
    const legend = sides.map((s) => `<span style="color:${COLOURS[s % COLOURS.length]}">■ ` +
      `${esc(sideLabel(s))}</span>`).join(" ");
    return `${svg}<div class="legend">${esc(t("winChance"))}: ${legend}</div>`;
  }

  function sideLabel(side) {
    const seats = state.analysis.moves.filter((m) => m.side === side).map((m) => m.seat);
    return [...new Set(seats)].sort().map((s) => seatName(replay.info, s)).join(", ") || t("sideN", {n: side});
  }

  function moveList() {
    let html = `<ol id="amoves" class="amoves">`;
    for (const m of state.analysis.moves) {
      const k = stepOf(m);
      const mark = m.mark ? ` <b class="mark ${m.mark}">${esc(t(m.mark))}</b>` : "";
      const value = m.taken ? ` <span class="val">${pct(m.taken.win)}</span>` +
        (m.loss >= 0.005 ? ` <span class="loss">−${m.loss.toFixed(2)}</span>` : "") : "";
      html += `<li data-step="${k}" data-mark="${m.mark || ""}" class="${m.mark || ""}">` +
        `${esc(seatName(replay.info, m.seat))}: <b>${esc(m.action)}</b>${value}${mark}</li>`;
    }
    return html + "</ol>";
  }

  // The move that led to step n: its options as its player read them, and face up.
  function step(n) {
    if (state.status !== "done" || !state.analysis) return;
    const here = state.analysis.moves.find((m) => stepOf(m) === n);
    document.querySelectorAll("#amoves li").forEach((li) => li.classList.toggle("here", Number(li.dataset.step) === n));
    const now = document.querySelector("#rgraphnow");
    const dot = document.querySelector(`#rgraph circle[data-step="${n}"]`);
    if (now) {
      now.setAttribute("visibility", dot ? "visible" : "hidden");
      if (dot) { now.setAttribute("x1", dot.getAttribute("cx")); now.setAttribute("x2", dot.getAttribute("cx")); }
    }
    const box = document.querySelector("#ralternatives");
    if (!box) return;
    if (!here || !here.reading) { box.innerHTML = ""; return; }
    const up = new Map((here.face_up ? here.face_up.options : []).map((o) => [o.action, o]));
    const rows = here.reading.options.map((o) => {
      const f = up.get(o.action);
      const cls = [o.action === here.action ? "taken" : "", o.action === here.reading.best ? "best" : ""].join(" ");
      return `<tr class="${cls.trim()}" data-action="${esc(o.action)}"><td>${o.action === here.reading.best ? "★ " : ""}` +
        `${esc(o.action)}</td><td>${pct(o.win)} ± ${pct(o.win_se)}</td><td>${signed(o.margin)} ± ${o.margin_se.toFixed(1)}` +
        `</td><td>${f ? pct(f.win) + " · " + signed(f.margin) : ""}</td></tr>`;
    }).join("");
    box.innerHTML = `<table class="board alternatives"><thead><tr><th>${esc(t("moveCol"))}</th>` +
      `<th>${esc(t("winChance"))}</th><th>${esc(t("marginCol"))}</th><th>${esc(t("faceUp"))}</th></tr></thead>` +
      `<tbody>${rows}</tbody></table>`;
  }

  // The player page: the account's play by preset, from its analysed games.
  async function player(username) {
    const box = $("#playeranalysis");
    if (!box) return;
    const rows = await api(`/api/players/${encodeURIComponent(username)}/analysis`);
    box.hidden = !rows.length;
    box.innerHTML = `<h2>${esc(t("analysisStats"))}</h2><table class="board"><thead><tr>` +
      ["preset", "statGames", "statDecisions", "statLoss", "statMistakes", "statBlunders"]
        .map((k) => `<th>${esc(t(k))}</th>`).join("") + "</tr></thead><tbody>" +
      rows.map((r) => `<tr data-preset="${esc(r.preset)}"><td>${esc(r.preset)}</td><td>${r.games}</td>` +
        `<td>${r.decisions}</td><td>${r.loss.toFixed(3)}</td><td>${r.mistakes_per_hand.toFixed(2)}</td>` +
        `<td>${r.blunders_per_hand.toFixed(2)}</td></tr>`).join("") + "</tbody></table>";
  }

  // A practice table's hint button (never at a rated table: the server refuses there too): the best move for the
  // person's own view, asked for on their turn.
  const hint = {key: null, text: "", asking: false};
  function tableHint(info, view, mine) {
    const box = $("#hintbox");
    if (!box) return;
    const mayAsk = Boolean(info.practice && view && mine !== null && view.turn === mine && info.status === "playing"
      && table.token);
    const key = mayAsk ? `${info.id}:${info.hand_number}:${view.history ? view.history.length : table.v}` : null;
    if (key !== hint.key) { hint.key = key; hint.text = ""; }
    box.hidden = !mayAsk;
    box.dataset.key = key || "";
    if (!mayAsk) { box.innerHTML = ""; return; }
    box.innerHTML = `<button id="hintbtn" class="ghostbtn" type="button"${hint.asking ? " disabled" : ""}>` +
      `${esc(t("hint"))}</button> <span id="hinttext">${esc(hint.text)}</span>`;
    $("#hintbtn").onclick = async () => {
      const asked = hint.key;
      hint.asking = true;
      tableHint(info, view, mine);
      try {
        const body = await api(`/api/tables/${encodeURIComponent(info.id)}/hint`, {token: table.token});
        if (hint.key === asked) {
          hint.text = body.hint ? t("hintText", {move: body.hint.text, win: pct(body.hint.win),
                                                 margin: signed(body.hint.margin)}) : t("hintNone");
        }
      } catch (e) {
        showError(e.message);
      } finally {
        hint.asking = false;
        if (table.state) tableHint(table.state.table, table.state.view, table.seat);
      }
    };
  }

  // Its look, here with the drawing rather than in style.css.
  const style = document.createElement("style");
  style.textContent = `
    .ranalysis { margin-top: 1em; }
    #rgraph { width: 100%; max-width: 640px; height: auto; display: block; }
    #rgraph text { font-size: 10px; fill: currentColor; opacity: 0.7; }
    #rgraph .half { stroke: currentColor; opacity: 0.4; stroke-dasharray: 4 3; }
    #rgraph .now { stroke: currentColor; opacity: 0.6; stroke-width: 1; pointer-events: none; }
    #rgraph circle { cursor: pointer; }
    #rgraph circle.mistake { fill: #ffd740; } #rgraph circle.blunder { fill: #ff5252; }
    .amoves { columns: 14em; font-size: 0.9em; }
    .amoves li { cursor: pointer; } .amoves li.here { outline: 2px solid #ffd740; }
    .amoves .mark.mistake { color: #ffd740; } .amoves .mark.blunder { color: #ff8a80; }
    .amoves .loss { color: #ffab91; } .alternatives tr.best td:first-child { font-weight: bold; }
    .alternatives tr.taken { outline: 2px solid #ffd740; }`;
  document.head.appendChild(style);

  return {open, step, render, player, tableHint};
})();
