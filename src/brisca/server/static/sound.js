// Sound at the card table: off until the player turns it on (the choice is kept in this browser).
// Every sound is synthesised with the Web Audio API (no recordings are shipped): a soft snap when a card
// is played, a rising pair of notes when your side takes a trick and a falling one when the other side
// does, a chime when it becomes your turn, three notes when a hand ends.
"use strict";

const sound = {
  ctx: null,
  played: 0,
  on() {
    return localStorage.getItem("brisca:sound") === "on";
  },
  // The audio context is made on a click or a key (browsers start sound only after a gesture).
  context() {
    if (!this.ctx) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return null;
      this.ctx = new Ctx();
    }
    if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
    return this.ctx;
  },
  toggle() {
    localStorage.setItem("brisca:sound", this.on() ? "off" : "on");
    if (this.on()) { this.context(); this.tone([660], 0.08); }
    this.label();
  },
  label() {
    const button = document.getElementById("soundtoggle");
    if (!button) return;
    const on = this.on();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.innerHTML = speakerSVG(on);
    button.title = button.ariaLabel = t(on ? "soundOn" : "soundOff");
  },
  // Counted on the page for its tests, like the motions.
  count() {
    this.played += 1;
    document.body.dataset.sounds = String(this.played);
  },
  // Notes one after the other (Hz), each `length` seconds, with a quick fade so nothing clicks.
  tone(freqs, length, type = "sine") {
    const ctx = this.on() && this.context();
    if (!ctx) return;
    const start = ctx.currentTime + 0.01;
    freqs.forEach((f, i) => {
      const osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.type = type;
      osc.frequency.value = f;
      const at = start + i * length;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.12, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + length + 0.02);
    });
    this.count();
  },
  // A card on the cloth: a short burst of filtered noise.
  snap() {
    const ctx = this.on() && this.context();
    if (!ctx) return;
    const length = 0.06, buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
    const source = ctx.createBufferSource(), filter = ctx.createBiquadFilter(), gain = ctx.createGain();
    source.buffer = buffer;
    filter.type = "bandpass";
    filter.frequency.value = 1800;
    gain.gain.value = 0.5;
    source.connect(filter).connect(gain).connect(ctx.destination);
    source.start();
    this.count();
  },
  // What a new state sounds like, from the event that made it.
  react(before, after, event) {
    if (!this.on() || !event || !after.view) return;
    const view = after.view, old = before && before.view, mine = table.seat;
    const action = event.kind === "action" ? event.action : null;
    if (view.result && !(old && old.result)) { this.tone([523, 659, 784], 0.12); return; }
    if (action && (action.play || action.exchange)) this.snap();
    const sameHand = old && before.table.hand_number === after.table.hand_number;
    if (sameHand && action && action.play && view.tricks.length === old.tricks.length + 1) {
      const winner = view.tricks[view.tricks.length - 1].winner;
      const ours = mine !== null && sideOf(after.table, winner) === sideOf(after.table, mine);
      this.tone(ours ? [587, 880] : [440, 330], 0.1, "triangle");
    }
    if (mine !== null && view.turn === mine && !(old && old.turn === mine)) this.tone([988], 0.15);
  },
};

// The speaker, drawn (an emoji shows as an empty box without an emoji font): sound waves when on, a cross when off.
function speakerSVG(on) {
  const more = on
    ? '<path d="M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'
    : '<path d="M16 9l6 6M22 9l-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
  return `<svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">` +
    `<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>${more}</svg>`;
}

function soundButton() {
  const button = document.getElementById("soundtoggle");
  if (!button) return;
  button.hidden = false;
  button.onclick = () => sound.toggle();
  sound.label();
}
