// The decks the web table draws: a Spanish baraja and an Italian (Piacentine-like) deck, drawn here in SVG
// (no artwork from any printed deck), and a back. Each suit has its own pip shape and an index letter, so a
// card never depends on its colour alone: oros ○ (O), copas (C), espadas (E), bastos (B); denari (D),
// coppe (C), spade (S), bastoni (B). The Spanish frame has the "pintas" of the real deck: unbroken for oros,
// one break for copas, two for espadas, three for bastos.
"use strict";

const CARD_W = 100, CARD_H = 155;
//: Suit colours of the printed decks; darker shades for outlines. Colour is never the only cue.
const SUIT_INK = {O: "#b7860b", C: "#b91c1c", E: "#1d4ed8", B: "#15803d"};
const SUIT_DARK = {O: "#6b4e00", C: "#6b1010", E: "#172554", B: "#14532d"};
const SUIT_LETTER = {spanish: {O: "O", C: "C", E: "E", B: "B"}, italian: {O: "D", C: "C", E: "S", B: "B"}};
//: Court cards: the Spanish deck prints 10, 11, 12 (sota, caballo, rey); the Italian one 8, 9, 10
//: (fante, cavallo, re).
const ITALIAN_INDEX = {"10": "8", "11": "9", "12": "10"};

// The shapes every card refers to (<use href="#...">), put once into the page.
function cardDefs() {
  const gold = "#e8b923", goldDark = "#7a5a00";
  const sym = (id, box, body) => `<symbol id="${id}" viewBox="${box}" overflow="visible">${body}</symbol>`;
  // Spanish suits.
  const oros = sym("pip-spanish-O", "-20 -20 40 40",
    `<circle r="18" fill="${gold}" stroke="${goldDark}" stroke-width="2"/>` +
    `<circle r="12.5" fill="none" stroke="${goldDark}" stroke-width="1.6"/>` +
    `<path d="M0 -8 L2.4 -2.4 L8 0 L2.4 2.4 L0 8 L-2.4 2.4 L-8 0 L-2.4 -2.4Z" fill="${goldDark}"/>`);
  const copas = sym("pip-spanish-C", "-20 -20 40 40",
    `<path d="M-15 -17 H15 Q15 1 4 5 V10 Q10 11 12 17 H-12 Q-10 11 -4 10 V5 Q-15 1 -15 -17Z" fill="#c0392b"` +
    ` stroke="#6b1010" stroke-width="1.8" stroke-linejoin="round"/>` +
    `<path d="M-15 -12 H15" stroke="${gold}" stroke-width="3"/><circle cy="7" r="2.2" fill="${gold}"/>`);
  const espadas = sym("pip-spanish-E", "-9 -55 18 110",
    `<path d="M0 -54 L4.5 -40 L3.5 28 H-3.5 L-4.5 -40Z" fill="#dbeafe" stroke="#1d4ed8" stroke-width="1.8"/>` +
    `<path d="M0 -44 V24" stroke="#1d4ed8" stroke-width="1"/>` +
    `<path d="M-13 28 H13 Q14 32 10 33 H-10 Q-14 32 -13 28Z" fill="#1d4ed8"/>` +
    `<rect x="-2.8" y="33" width="5.6" height="14" rx="1.5" fill="#b7860b" stroke="#6b4e00"/>` +
    `<circle cy="50" r="4" fill="#1d4ed8"/>`);
  const bastos = sym("pip-spanish-B", "-10 -55 20 110",
    `<path d="M-8 -50 Q0 -56 8 -50 L3.5 52 Q0 55 -3.5 52Z" fill="#3f9d5a" stroke="#14532d" stroke-width="1.8"/>` +
    `<path d="M-6 -34 l4 3 M5 -20 l-4 3 M-5 -4 l4 3 M4 12 l-3 3 M-3 28 l3 3" stroke="#14532d" stroke-width="2"` +
    ` stroke-linecap="round"/><ellipse cy="-48" rx="7" ry="3" fill="#7fc48f"/>`);
  // Italian suits: a sunburst coin, a lidless chalice, a curved sword, a straight baton with bands.
  let rays = "";
  for (let i = 0; i < 16; i++) {
    const a = (Math.PI * i) / 8, r1 = 13, r2 = i % 2 ? 17 : 19.5;
    rays += `M${(r1 * Math.cos(a)).toFixed(1)} ${(r1 * Math.sin(a)).toFixed(1)} L${(r2 * Math.cos(a + 0.12)).toFixed(1)}` +
      ` ${(r2 * Math.sin(a + 0.12)).toFixed(1)} L${(r1 * Math.cos(a + 0.24)).toFixed(1)} ${(r1 * Math.sin(a + 0.24)).toFixed(1)}Z `;
  }
  const denari = sym("pip-italian-O", "-20 -20 40 40",
    `<path d="${rays}" fill="#d97706"/><circle r="13" fill="${gold}" stroke="${goldDark}" stroke-width="1.6"/>` +
    `<circle r="7" fill="#d97706" stroke="${goldDark}"/><circle r="2.5" fill="${goldDark}"/>`);
  const coppe = sym("pip-italian-C", "-20 -20 40 40",
    `<path d="M-13 -15 Q-14 -2 -3 3 V9 L-9 16 H9 L3 9 V3 Q14 -2 13 -15Z" fill="${gold}" stroke="#7a1d10"` +
    ` stroke-width="1.6" stroke-linejoin="round"/><ellipse cy="-15" rx="13" ry="3.5" fill="#c0392b" stroke="#7a1d10"/>` +
    `<path d="M-12 -8 Q0 -3 12 -8" stroke="#c0392b" stroke-width="2.5" fill="none"/>`);
  const spade = sym("pip-italian-E", "-12 -55 24 110",
    `<path d="M-2 -54 Q14 -20 4 30 L-3 30 Q5 -20 -6 -50Z" fill="#dbeafe" stroke="#1d4ed8" stroke-width="1.8"/>` +
    `<path d="M-12 30 H12 V34 H-12Z" fill="#1d4ed8"/><rect x="-2.6" y="34" width="5.2" height="13" fill="#c0392b"/>` +
    `<path d="M-5 47 H5 L0 53Z" fill="#1d4ed8"/>`);
  const bastoni = sym("pip-italian-B", "-10 -55 20 110",
    `<rect x="-5" y="-52" width="10" height="104" rx="5" fill="#a16207" stroke="#3f2a05" stroke-width="1.6"/>` +
    `<path d="M-5 -30 H5 M-5 -10 H5 M-5 10 H5 M-5 30 H5" stroke="#15803d" stroke-width="5"/>` +
    `<circle cy="-52" r="6" fill="#15803d" stroke="#3f2a05"/><circle cy="52" r="6" fill="#15803d" stroke="#3f2a05"/>`);
  // The back: a lattice on deep red, a gold border and a medallion.
  const back = `<pattern id="back-lattice" width="12" height="12" patternUnits="userSpaceOnUse"` +
    ` patternTransform="rotate(45)"><rect width="12" height="12" fill="#7f1d1d"/>` +
    `<path d="M0 6 H12 M6 0 V12" stroke="#b45309" stroke-width="1.4"/></pattern>` +
    sym("card-back", `0 0 ${CARD_W} ${CARD_H}`,
      `<rect x="1" y="1" width="98" height="153" rx="7" fill="#7f1d1d" stroke="#1f0a0a" stroke-width="1.5"/>` +
      `<rect x="7" y="7" width="86" height="141" rx="4" fill="url(#back-lattice)" stroke="${gold}" stroke-width="2.5"/>` +
      `<ellipse cx="50" cy="77.5" rx="21" ry="28" fill="#7f1d1d" stroke="${gold}" stroke-width="2.5"/>` +
      `<path d="M50 57 L55 72 L70 77.5 L55 83 L50 98 L45 83 L30 77.5 L45 72Z" fill="${gold}"/>`);
  return `<svg width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false"><defs>` +
    oros + copas + espadas + bastos + denari + coppe + spade + bastoni + back + `</defs></svg>`;
}

// Where the pips of a number card go, on a 100 x 155 card: [x, y, angle, size]. Round suits (coins and
// cups) in the rows of the printed decks; long suits (swords and clubs) crossed in a lattice, as they are.
const ROUND_PIPS = {
  1: [[50, 77.5]],
  2: [[50, 42], [50, 113]],
  3: [[50, 36], [50, 77.5], [50, 119]],
  4: [[36, 42], [64, 42], [36, 113], [64, 113]],
  5: [[36, 40], [64, 40], [50, 77.5], [36, 115], [64, 115]],
  6: [[36, 36], [64, 36], [36, 77.5], [64, 77.5], [36, 119], [64, 119]],
  7: [[36, 34], [64, 34], [50, 56], [36, 78], [64, 78], [36, 121], [64, 121]],
  8: [[36, 32], [64, 32], [36, 63], [64, 63], [36, 92], [64, 92], [36, 123], [64, 123]],
  9: [[36, 32], [64, 32], [36, 60], [64, 60], [50, 77.5], [36, 95], [64, 95], [36, 123], [64, 123]],
};

function pipPlaces(rank, long) {
  if (!long) {
    const size = rank === 1 ? 46 : rank >= 8 ? 20 : 23;
    return (ROUND_PIPS[rank] || ROUND_PIPS[1]).map(([x, y]) => [x, y, 0, size]);
  }
  if (rank === 1) return [[50, 77.5, 0, 1.25]];
  const out = [];
  const pairs = Math.floor(rank / 2), odd = rank % 2 === 1;
  // The outermost crossings stay clear of the corner indices.
  const spread = pairs > 1 ? Math.min(22, 34 / (pairs - 1)) : 0;
  const angle = pairs > 1 ? 13 : 16;
  for (let p = 0; p < pairs; p++) {
    const x = 50 + (p - (pairs - 1) / 2) * spread;
    out.push([x, 77.5, -angle, 1], [x, 77.5, angle, 1]);
  }
  if (odd) out.push([50, 77.5, 0, 1]);
  return out;
}

function pipsSVG(style, suit, rank) {
  const long = suit === "E" || suit === "B";
  const id = `#pip-${style}-${suit}`;
  return pipPlaces(rank, long).map(([x, y, angle, size]) => {
    if (!long) {
      return `<use href="${id}" x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}"/>`;
    }
    const h = (rank <= 3 ? 118 : rank <= 5 ? 108 : 96) * size, w = h * 0.2;
    return `<use href="${id}" x="${-w / 2}" y="${-h / 2}" width="${w}" height="${h}"` +
      ` transform="translate(${x} ${y}) rotate(${angle})"/>`;
  }).join("");
}

// The court cards as simple figures holding their suit: the page (sota, fante) standing, the knight
// (caballo, cavallo) on a horse, the king (rey, re) crowned with a cape.
function figureSVG(style, suit, rank) {
  const ink = SUIT_INK[suit], dark = SUIT_DARK[suit], skin = "#f3cfa6", hair = "#5b3a1a";
  const italian = style === "italian";
  const cape = italian ? "#1e3a8a" : "#b91c1c", trim = "#e8b923";
  const long = suit === "E" || suit === "B";
  const held = (x, y, scale) => long
    ? `<use href="#pip-${style}-${suit}" x="-6" y="-30" width="12" height="60" transform="translate(${x} ${y}) rotate(-20) scale(${scale})"/>`
    : `<use href="#pip-${style}-${suit}" x="${x - 9 * scale}" y="${y - 9 * scale}" width="${18 * scale}" height="${18 * scale}"/>`;
  const head = (x, y) => `<circle cx="${x}" cy="${y}" r="7.5" fill="${skin}" stroke="#7c4a1e" stroke-width="1"/>` +
    `<circle cx="${x - 2.5}" cy="${y - 0.5}" r="0.9" fill="#1f2937"/><circle cx="${x + 2.5}" cy="${y - 0.5}" r="0.9" fill="#1f2937"/>`;
  if (rank === 12) {  // the king
    const crown = `<path d="M40 33 L42 24 L46 30 L50 21 L54 30 L58 24 L60 33Z" fill="${trim}" stroke="#7a5a00"/>`;
    return `<path d="M34 124 L38 60 Q50 50 62 60 L66 124Z" fill="${ink}" stroke="${dark}" stroke-width="1.5"/>` +
      `<path d="M34 60 Q50 48 66 60 L70 112 Q62 118 58 104 L56 64 H44 L42 104 Q38 118 30 112Z" fill="${cape}"` +
      ` stroke="${trim}" stroke-width="2"/>` +
      `<path d="M44 64 H56" stroke="${trim}" stroke-width="3"/>` + head(50, 41) +
      `<path d="M43 44 Q50 56 57 44 Q54 50 50 50 Q46 50 43 44Z" fill="#e5e7eb"/>` + crown +
      `<rect x="38" y="124" width="9" height="8" fill="${dark}"/><rect x="53" y="124" width="9" height="8" fill="${dark}"/>` +
      held(72, 62, 1.2);
  }
  if (rank === 11) {  // the knight on his horse
    const horse = italian ? "#e7e5e4" : "#d6c6a8";
    return `<path d="M22 92 Q24 78 40 78 H66 Q74 60 80 60 Q88 62 86 70 L80 72 Q78 84 74 92 Q72 100 64 100 H34 Q24 100 22 92Z"` +
      ` fill="${horse}" stroke="#57534e" stroke-width="1.5"/>` +
      `<path d="M30 98 L27 128 M38 100 L40 128 M62 100 L60 128 M70 96 L75 126" stroke="#57534e" stroke-width="4"` +
      ` stroke-linecap="round"/><path d="M22 88 Q12 96 16 112" stroke="#57534e" stroke-width="3" fill="none"/>` +
      `<circle cx="81" cy="65" r="1.2" fill="#1f2937"/>` +
      `<path d="M42 80 L46 52 Q52 46 58 52 L60 80Z" fill="${ink}" stroke="${dark}" stroke-width="1.5"/>` +
      `<path d="M47 80 L44 98 M55 80 L57 96" stroke="${dark}" stroke-width="4" stroke-linecap="round"/>` +
      head(52, 40) + `<path d="M43 36 Q52 24 61 36 Z" fill="${italian ? "#15803d" : cape}"/>` + held(34, 50, 1);
  }
  // the page, standing (rank 10)
  const hat = italian ? `<path d="M41 34 Q50 22 60 34 L64 36 H38Z" fill="#15803d"/>`
    : `<path d="M40 35 Q50 24 60 35Z" fill="${cape}"/><path d="M58 30 Q66 22 70 26" stroke="${trim}" stroke-width="2" fill="none"/>`;
  return `<path d="M37 96 L40 56 Q50 48 60 56 L63 96Z" fill="${ink}" stroke="${dark}" stroke-width="1.5"/>` +
    `<path d="M38 74 H62" stroke="${trim}" stroke-width="3"/>` +
    `<path d="M43 96 L42 128 M57 96 L58 128" stroke="${italian ? "#57534e" : cape}" stroke-width="6" stroke-linecap="round"/>` +
    `<path d="M40 58 L30 80 M60 58 L66 70" stroke="${ink}" stroke-width="5" stroke-linecap="round"/>` +
    head(50, 42) + `<path d="M42.5 38 Q50 31 57.5 38" stroke="${hair}" stroke-width="3" fill="none"/>` + hat +
    held(70, 66, 1);
}

// Parse "3O" / "12E" into [rank, suit].
function cardParts(code) {
  return [Number(code.slice(0, -1)), code.slice(-1)];
}

// The index a card prints in its corners: rank (Italian numbering for Italian faces) and suit letter.
function cardIndex(code, style) {
  const [rank, suit] = cardParts(code);
  const shown = style === "italian" ? (ITALIAN_INDEX[String(rank)] || String(rank)) : String(rank);
  return {rank: shown, letter: SUIT_LETTER[style][suit] || suit};
}

// The pintas of the Spanish frame: the inner frame line broken once (copas), twice (espadas), three times
// (bastos), or not at all (oros), at the top and the bottom edges.
function frameSVG(style, suit) {
  const ink = SUIT_INK[suit];
  if (style === "italian") {
    return `<rect x="6" y="6" width="88" height="143" rx="4" fill="none" stroke="${ink}" stroke-width="1"/>`;
  }
  const breaks = {O: 0, C: 1, E: 2, B: 3}[suit] || 0;
  const x0 = 6, x1 = 94, gap = 6;
  const edge = (y) => {
    if (!breaks) return `M${x0} ${y} H${x1}`;
    const step = (x1 - x0) / (breaks + 1);
    let d = "", x = x0;
    for (let i = 1; i <= breaks; i++) {
      const at = x0 + step * i;
      d += `M${x.toFixed(1)} ${y} H${(at - gap / 2).toFixed(1)} `;
      x = at + gap / 2;
    }
    return d + `M${x.toFixed(1)} ${y} H${x1}`;
  };
  return `<path d="${edge(6)} ${edge(149)} M6 6 V149 M94 6 V149" fill="none" stroke="${ink}" stroke-width="1.6"/>`;
}

// A card face: `style` "spanish" or "italian"; `label` the card's name for assistive technology.
function cardFace(code, style, label) {
  const [rank, suit] = cardParts(code);
  const ink = SUIT_INK[suit] || "#333";
  const {rank: index, letter} = cardIndex(code, style);
  const court = rank >= 10;
  const corner = (transform) => `<g class="index"${transform}>` +
    `<text class="rank" x="15.5" y="25" font-size="${index.length > 1 ? 21 : 26}" font-weight="700" fill="${ink}"` +
    ` text-anchor="middle" font-family="Georgia, 'DejaVu Serif', serif"${index.length > 1 ? ' textLength="23"' : ""}>` +
    `${index}</text><text class="letter" x="15.5" y="43" font-size="17" font-weight="700" fill="${ink}"` +
    ` text-anchor="middle" font-family="system-ui, sans-serif">${letter}</text></g>`;
  const body = court
    ? `<rect x="20" y="18" width="60" height="119" rx="3" fill="${style === "italian" ? "#fef3c7" : "#fdf2e9"}"` +
      ` stroke="${ink}" stroke-width="0.8"/>` + figureSVG(style, suit, rank)
    : pipsSVG(style, suit, rank);
  return `<svg class="card face ${style}" viewBox="0 0 ${CARD_W} ${CARD_H}" role="img" aria-label="${label}"` +
    ` data-card="${code}" data-rank="${index}" data-letter="${letter}">` +
    `<rect class="paper" x="1" y="1" width="98" height="153" rx="7" fill="#fffdf7" stroke="#44403c" stroke-width="1.2"/>` +
    frameSVG(style, suit) + body + corner("") + corner(` transform="rotate(180 50 77.5)"`) + `</svg>`;
}

function cardBackSVG(extra) {
  return `<svg class="card back${extra ? " " + extra : ""}" viewBox="0 0 ${CARD_W} ${CARD_H}" aria-hidden="true">` +
    `<use href="#card-back"/></svg>`;
}

document.body.insertAdjacentHTML("afterbegin", cardDefs());
