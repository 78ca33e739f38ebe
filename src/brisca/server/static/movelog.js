// The move log of a hand, as the table and the replay page show it: the auction and every other choice a line
// each, and a line a trick (who played what, in order, and who took it with how many points).
// Built from what the viewer may see only: a seat's view's history (its hidden discards and signals stay hidden)
// or a finished game's steps.
"use strict";

// ``actions``: the hand's moves in order ({seat, play?, bid?, ..., text}); ``tricks``: its completed tricks in
// order ({cards, winner, points}). Each line knows the index of its last move (``last``).
function moveLogLines(info, actions, tricks) {
  const lines = [];
  let plays = [];
  let trick = 0;
  const flush = (done) => {
    if (!plays.length) return;
    const taken = done ? tricks[trick] : null;
    lines.push({kind: "trick", n: trick + 1, plays, taken, last: plays[plays.length - 1].i});
    plays = [];
    if (done) trick += 1;
  };
  actions.forEach((a, i) => {
    if (a.play !== undefined && !a.claim) {
      plays.push({seat: a.seat, card: a.play, i, arrastro: Boolean(a.arrastro)});
      const size = tricks[trick] ? tricks[trick].cards.length : info.players;
      if (plays.length >= size && tricks[trick]) flush(true);
    } else {
      lines.push({kind: "move", action: a, last: i});
    }
  });
  flush(false);  // the trick on the table
  return lines;
}

function moveLogHTML(info, actions, tricks) {
  return moveLogLines(info, actions, tricks).map((line) => {
    if (line.kind === "move") {
      return `<li class="logmove" data-i="${line.last}"><b>${esc(seatName(info, line.action.seat))}</b> ` +
        `${esc(actionText(info, line.action))}</li>`;
    }
    const cards = line.plays.map((p) => `<span class="logplay">${esc(seatName(info, p.seat))} ` +
      `<b class="logcard" data-card="${p.card}">${esc(cardName(p.card))}</b></span>`).join(", ");
    const taken = line.taken ? ` → <b class="logtaker">${esc(seatName(info, line.taken.winner))}</b>` +
      ` <span class="logpoints">+${line.taken.points}</span>` : " …";
    return `<li class="logtrick" data-i="${line.last}" data-trick="${line.n}"><span class="logn">${esc(t("trickN",
      {n: line.n}))}</span> ${cards}${taken}</li>`;
  }).join("");
}

// The log beside the table: the hands seen on this page before, then the hand in play, the newest line in sight.
function renderMoveLog(info, view) {
  const box = $("#movelog");
  box.setAttribute("aria-label", t("moves"));
  if (!view) { setHtml(box, ""); return; }
  table.logs = table.logs || {};
  const hand = info.hand_number;
  table.logs[hand] = moveLogHTML(info, view.history, view.tricks);
  const html = Object.keys(table.logs).map(Number).sort((a, b) => a - b).map((h) =>
    `<li class="loghand">${esc(t("handN", {n: h + 1}))}</li>${table.logs[h]}`).join("");
  const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
  setHtml(box, html);
  if (atEnd) box.scrollTop = box.scrollHeight;
}

// The replay's log: the moves of the step's hand up to the step, the step's own move marked.
function replayMoveLog(info, steps, step) {
  const mine = steps.filter((s) => s.hand === step.hand && s.action && s.index <= step.index);
  const tricks = [];
  let played = 0;
  for (const s of mine) {
    if (s.position.tricks_played > played) { tricks.push(s.position.last_trick); played = s.position.tricks_played; }
  }
  const html = moveLogHTML(info, mine.map((s) => s.action), tricks);
  const box = $("#rmoves");
  box.setAttribute("aria-label", t("moves"));
  box.innerHTML = `<li class="loghand">${esc(t("handN", {n: step.hand + 1}))}</li>${html}`;
  const now = box.querySelector(`li[data-i="${mine.length - 1}"]`);
  if (now) now.classList.add("now");
  box.scrollTop = box.scrollHeight;
}
