// The analysis of a finished game on its replay page (brisca.analysis, made by the server on request): a graph
// of each side's win chance over the game, the moves with mistakes marked, and for the move on the table the
// values of every move its player could have made, as that player could know them and with the cards face up.
// An account's figures from its analysed games on the player page. app.js calls open(), step() and player().
"use strict";

const briscaAnalysis = (() => {
  const POLL_MS = 2000;
  const COLOURS = ["#8cc4ff", "#ff9e80", "#b9f6ca", "#ffe082", "#e1bee7", "#eeeeee"];
  const state = {id: null, status: null, analysis: null, reason: "", ahead: 0, progress: null, steps: new Map(),
                 timer: null, hand: null};
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
    state.progress = body.progress || null;
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
      const p = state.progress;
      html += `<p class="queued">${esc(p && p.total ? t("analysisProgress", {done: p.done, total: p.total})
        : t("analysisQueued", {n: state.ahead}))}</p>`;
      if (p && p.total) html += `<progress max="${p.total}" value="${p.done}"></progress>`;
    } else if (state.status === "done") {
      state.hand = handAt(replay.at);
      html += `<p class="note">${esc(t("analysisNote"))}</p><div id="rgraphbox">${graph()}</div>` +
        `<div id="ralternatives"></div>${moveList()}`;
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
  const words = (m) => moveWords(replay.info, m.act, m.action, m.words);
  // The hand of replay step n (the graph draws one hand: in a called game the sides change from hand to hand).
  const handAt = (n) => { const s = replay.data.steps[n]; return s ? s.hand : 0; };

  // Each side's win chance after each of its own moves in the hand on the table, as the mover read it; a mark on
  // every mistake.
  function graph() {
    const moves = searched().filter((m) => m.hand === state.hand);
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
          `${esc(seatName(replay.info, m.seat))}: ${esc(words(m))} · ${pct(m.taken.win)}` +
          `${m.mark ? " · " + esc(t(m.mark)) : ""}</title></circle>`;
      }
    }
    svg += `<line id="rgraphnow" class="now" x1="0" x2="0" y1="${pad / 2}" y2="${h - pad / 2}" visibility="hidden"/>`;
    svg += "</svg>";
    const legend = sides.map((s) => `<span class="side" data-side="${s}" style="color:${COLOURS[s % COLOURS.length]}">` +
      `■ ${esc(sideLabel(s))}</span>`).join(" ");
    const hands = new Set(state.analysis.moves.map((m) => m.hand)).size;
    const title = hands > 1 ? `${esc(t("graphHand", {n: state.hand + 1}))} · ` : "";
    return `${svg}<div class="legend">${title}${esc(t("winChance"))}: ${legend}</div>`;
  }

  // A side of the hand on the graph, as its players knew it: under a contract the declarer's side by the declarer
  // alone (the called partner is hidden until the card shows) and the defenders; else its players by name.
  function sideLabel(side) {
    const last = replay.data.steps.filter((s) => s.hand === state.hand).pop();
    const contract = last && last.position && last.position.contract;
    if (contract && contract.declarer !== undefined && contract.declarer !== null) {
      return side === 0 ? t("declarerSideOf", {name: seatName(replay.info, contract.declarer)}) : t("defenders");
    }
    const seats = state.analysis.moves.filter((m) => m.side === side && m.hand === state.hand).map((m) => m.seat);
    return [...new Set(seats)].sort().map((s) => seatName(replay.info, s)).join(", ") || t("sideN", {n: side});
  }

  function moveList() {
    let html = `<ol id="amoves" class="amoves">`;
    for (const m of state.analysis.moves) {
      const k = stepOf(m);
      const mark = m.mark ? ` <b class="mark ${m.mark}">${esc(t(m.mark))}</b>` : "";
      const value = m.taken ? ` <span class="val">${pct(m.taken.win)}</span>` +
        (m.loss >= 0.005 ? ` <span class="loss">−${m.loss.toFixed(2)}</span>` : "") : "";
      html += `<li data-step="${k}" data-hand="${m.hand}" data-mark="${m.mark || ""}" class="${m.mark || ""}">` +
        `<span class="who">${esc(seatName(replay.info, m.seat))}</span> <b class="what">${esc(words(m))}</b>` +
        `${value}${mark}</li>`;
    }
    return html + "</ol>";
  }

  // The move that led to step n: its options as its player read them, and face up.
  function step(n) {
    if (state.status !== "done" || !state.analysis) return;
    if (handAt(n) !== state.hand) {
      state.hand = handAt(n);
      const box = document.querySelector("#rgraphbox");
      if (box) {
        box.innerHTML = graph();
        box.querySelectorAll("[data-step]").forEach((el) => { el.onclick = () => { location.hash = `#${el.dataset.step}`; }; });
      }
    }
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
    const faceUp = up.size > 0;  // only where solved exactly: nothing else beside the player's own values
    const rows = here.reading.options.map((o) => {
      const f = up.get(o.action);
      const cls = [o.action === here.action ? "taken" : "", o.action === here.reading.best ? "best" : ""].join(" ");
      return `<tr class="${cls.trim()}" data-action="${esc(o.action)}"><td>${o.action === here.reading.best ? "★ " : ""}` +
        `${esc(moveWords(replay.info, o.act, o.action, o.words))}</td><td>${pct(o.win)} ± ${pct(o.win_se)}</td>` +
        `<td>${signed(o.margin)} ± ${o.margin_se.toFixed(1)}</td>` +
        (faceUp ? `<td>${f ? pct(f.win) + " · " + signed(f.margin) : ""}</td>` : "") + "</tr>";
    }).join("");
    box.innerHTML = `<table class="board alternatives"><thead><tr><th>${esc(t("moveCol"))}</th>` +
      `<th>${esc(t("winChance"))}</th><th>${esc(t("marginCol"))}</th>` +
      (faceUp ? `<th>${esc(t("faceUp"))}</th>` : "") + `</tr></thead><tbody>${rows}</tbody></table>`;
  }

  // The player page: the account's play by preset, from its analysed games.
  async function player(username) {
    const box = $("#playeranalysis");
    if (!box) return;
    const rows = await api(`/api/players/${encodeURIComponent(username)}/analysis`);
    box.hidden = !rows.length;
    box.innerHTML = `<h2>${esc(t("analysisStats"))}</h2><div class="scroll"><table class="board stats"><thead><tr>` +
      ["preset", "statGames", "statDecisions", "statLoss", "statMistakes", "statBlunders"]
        .map((k) => `<th>${esc(t(k))}</th>`).join("") + "</tr></thead><tbody>" +
      rows.map((r) => `<tr data-preset="${esc(r.preset)}"><td>${esc(presetTitle(r.preset))}</td><td>${r.games}</td>` +
        `<td>${r.decisions}</td><td>${r.loss.toFixed(3)}</td><td>${r.mistakes_per_hand.toFixed(2)}</td>` +
        `<td>${r.blunders_per_hand.toFixed(2)}</td></tr>`).join("") + "</tbody></table></div>";
  }

  // The hint button of a table with hints (a practice table, or one made with them; never rated: the server
  // refuses elsewhere too): the best move for the person's own view, asked for on their turn.
  const hint = {key: null, text: "", asking: false};
  function tableHint(info, view, mine) {
    const box = $("#hintbox");
    if (!box) return;
    const mayAsk = Boolean(info.hints && view && mine !== null && view.turn === mine && info.status === "playing"
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
          hint.text = body.hint ? t("hintText", {move: moveWords(info, body.hint.action, body.hint.text, body.hint.words),
                                                 win: pct(body.hint.win),
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
    .amoves { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 17em), 1fr));
      gap: 0.15em 1.5em; font-size: 0.9em; padding-left: 0; list-style-position: inside; }
    .amoves li { cursor: pointer; min-width: 0; overflow-wrap: anywhere; }
    .amoves li.here { outline: 2px solid #ffd740; }
    .alternatives { width: 100%; max-width: 40em; } #ranalysis progress { width: 100%; max-width: 640px; }
    .amoves .mark.mistake { color: #ffd740; } .amoves .mark.blunder { color: #ff8a80; }
    .amoves .loss { color: #ffab91; } .alternatives tr.best td:first-child { font-weight: bold; }
    .alternatives tr.taken { outline: 2px solid #ffd740; }`;
  document.head.appendChild(style);

  return {open, step, render, player, tableHint};
})();
