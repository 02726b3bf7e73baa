// The deck, drawn here (no image files, no third-party art): SVG faces with corner indices, pips,
// court figures (a crowned king with a sceptre, a queen with a flower, a jack with a feathered cap
// and a halberd; each double-headed, as court cards are), and one card back (CSS). Suits are told
// apart by shape first; the colours are the two-colour deck's red and black or, as an option, the
// four-colour deck's (spades black, hearts red, diamonds blue, clubs green), chosen so that each
// suit also differs in lightness for colour-blind players.

import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

const RANK_SHOWN = { T: "10" };

const TWO_COLOURS = { s: "#1b1b1b", c: "#1b1b1b", h: "#c8102e", d: "#c8102e" };
const FOUR_COLOURS = { s: "#1b1b1b", c: "#0b5e2e", h: "#d7263d", d: "#1f5fbf" };
// the second colour of each suit's court robes (the first is the suit's own)
const TRIM = { h: "#2d5da8", d: "#2f8f4e", s: "#b3262e", c: "#2d5da8" };
const GOLD = "#e0ae32";
const SKIN = "#f4d6b8";

let fourColours = false;

/** Use the four-colour deck (true) or the two-colour one (false) for cards drawn from now on. */
export function setFourColours(on) {
  fourColours = Boolean(on);
}

export function suitColour(suit) {
  return (fourColours ? FOUR_COLOURS : TWO_COLOURS)[suit];
}

export function isCard(text) {
  return typeof text === "string" && /^[2-9TJQKA][cdhs]$/.test(text);
}

/** "As" -> "Ace of spades" (in the page's language); anything else -> "face-down card". */
export function cardLabel(card) {
  return isCard(card) ? t("card.name", { rank: t(`rank.${card[0]}`), suit: t(`suit.${card[1]}`) }) : t("card.hidden");
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

// Suit shapes in a 100 x 100 box.
const SUIT_PATHS = {
  h: ["M50 90C50 90 6 62 6 33C6 17 18 7 32 7C41 7 47 12 50 20C53 12 59 7 68 7C82 7 94 17 94 33C94 62 50 90 50 90Z"],
  d: ["M50 3C61 22 74 37 91 50C74 63 61 78 50 97C39 78 26 63 9 50C26 37 39 22 50 3Z"],
  s: [
    "M50 4C50 4 93 35 93 59C93 73 83 81 71 81C63 81 57 77 53.5 71C54.5 81 58.5 89 67 95L33 95C41.5 89 45.5 81 46.5 71C43 77 37 81 29 81C17 81 7 73 7 59C7 35 50 4 50 4Z",
  ],
  c: [
    "M50 8A19 19 0 1 1 49.9 8Z",
    "M27 40A19 19 0 1 1 26.9 40Z",
    "M73 40A19 19 0 1 1 72.9 40Z",
    "M44 50L56 50L55 60C56 77 60 88 68 95L32 95C40 88 44 77 45 60Z",
  ],
};

/** A suit symbol centred on (x, y), ``size`` units across; upside down with ``flip``. */
function pip(suit, x, y, size, flip = false, colour = null) {
  const scale = size / 100;
  const turn = flip ? ` rotate(180 50 50)` : "";
  const group = el("g", {
    transform: `translate(${x - size / 2} ${y - size / 2}) scale(${scale})${turn}`,
    fill: colour || suitColour(suit),
  });
  for (const d of SUIT_PATHS[suit]) group.append(el("path", { d }));
  return group;
}

/** A suit symbol on its own, as an inline SVG (for words: "10♦" in the log, scores). */
export function suitIcon(suit, className = "suit-icon") {
  const icon = el("svg", { viewBox: "0 0 100 100", class: className, "aria-hidden": "true", focusable: "false" });
  icon.append(pip(suit, 50, 50, 100));
  return icon;
}

// Where the pips of 2-10 go (x, y on a 100 x 140 card); those below the middle are upside down.
const COLS = [32, 50, 68];
const PIPS = {
  2: [
    [1, 30],
    [1, 110],
  ],
  3: [
    [1, 30],
    [1, 70],
    [1, 110],
  ],
  4: [
    [0, 30],
    [2, 30],
    [0, 110],
    [2, 110],
  ],
  5: [
    [0, 30],
    [2, 30],
    [1, 70],
    [0, 110],
    [2, 110],
  ],
  6: [
    [0, 30],
    [2, 30],
    [0, 70],
    [2, 70],
    [0, 110],
    [2, 110],
  ],
  7: [
    [0, 30],
    [2, 30],
    [1, 50],
    [0, 70],
    [2, 70],
    [0, 110],
    [2, 110],
  ],
  8: [
    [0, 30],
    [2, 30],
    [1, 50],
    [0, 70],
    [2, 70],
    [1, 90],
    [0, 110],
    [2, 110],
  ],
  9: [
    [0, 30],
    [2, 30],
    [0, 56.7],
    [2, 56.7],
    [1, 70],
    [0, 83.3],
    [2, 83.3],
    [0, 110],
    [2, 110],
  ],
  T: [
    [0, 30],
    [2, 30],
    [1, 43.3],
    [0, 56.7],
    [2, 56.7],
    [0, 83.3],
    [2, 83.3],
    [1, 96.7],
    [0, 110],
    [2, 110],
  ],
};

function corner(rank, suit, colour) {
  const group = el("g", { class: "index" });
  const shown = RANK_SHOWN[rank] || rank;
  group.append(
    el(
      "text",
      {
        x: 12,
        y: 25,
        "text-anchor": "middle",
        fill: colour,
        "font-size": shown.length > 1 ? 21 : 24,
        "font-weight": 700,
        "font-family": "Georgia, 'DejaVu Serif', serif",
        "letter-spacing": shown.length > 1 ? -2 : 0,
      },
      document.createTextNode(shown),
    ),
  );
  group.append(pip(suit, 12, 36, 14));
  return group;
}

/** One half of a court figure (the top half, down to y = 70); ``rank`` J, Q or K. */
function courtHalf(rank, suit) {
  const colour = suitColour(suit);
  const trim = TRIM[suit];
  const g = el("g");
  const line = { stroke: "#3a2a1a", "stroke-width": 0.8, "stroke-linejoin": "round" };
  if (rank === "Q") {
    // hair behind the head
    g.append(
      el("path", {
        d: "M39 38C37 22 63 22 61 38C62 46 64 50 67 53L33 53C36 50 38 46 39 38Z",
        fill: "#8a5a2b",
        ...line,
      }),
    );
  }
  if (rank === "J") {
    // the halberd behind
    g.append(el("path", { d: "M29 18L32 69", stroke: "#6d6d6d", "stroke-width": 1.8 }));
    g.append(el("path", { d: "M29 17L24 24L30 26L34 20Z", fill: "#bfc3c7", ...line }));
  }
  // robe, shoulders to the middle
  g.append(el("path", { d: "M19 70L19 61C22 51 33 47 41 46L59 46C67 47 78 51 81 61L81 70Z", fill: colour, ...line }));
  g.append(el("path", { d: "M19 64L81 64", stroke: GOLD, "stroke-width": 3 }));
  g.append(el("path", { d: "M19 67.5L81 67.5", stroke: trim, "stroke-width": 2 }));
  g.append(el("path", { d: "M41 46L50 60L59 46", fill: trim, ...line }));
  g.append(el("path", { d: "M43 46L50 56L57 46", fill: "#fff8e6" }));
  g.append(pip(suit, 31, 56, 9, false, "#fff8e6"));
  g.append(pip(suit, 69, 56, 9, false, "#fff8e6"));
  g.append(el("rect", { x: 46, y: 40, width: 8, height: 7, fill: SKIN }));
  g.append(el("ellipse", { cx: 50, cy: 34, rx: 8.5, ry: 9.5, fill: SKIN, ...line }));
  g.append(el("circle", { cx: 46.8, cy: 33, r: 1, fill: "#222" }));
  g.append(el("circle", { cx: 53.2, cy: 33, r: 1, fill: "#222" }));
  g.append(el("path", { d: "M47.5 38.5Q50 40 52.5 38.5", fill: "none", stroke: "#8a3a2a", "stroke-width": 0.9 }));
  if (rank === "K") {
    g.append(el("path", { d: "M42 38C42 48 58 48 58 38C55 42 45 42 42 38Z", fill: "#7a5230", ...line })); // beard
    g.append(
      el("path", {
        d: "M40.5 27L40.5 16L44.5 21.5L47.3 13L50 20.5L52.7 13L55.5 21.5L59.5 16L59.5 27Z",
        fill: GOLD,
        ...line,
      }),
    );
    g.append(el("circle", { cx: 50, cy: 24, r: 1.6, fill: trim }));
    g.append(el("path", { d: "M71 21L67 69", stroke: GOLD, "stroke-width": 2.4, "stroke-linecap": "round" })); // sceptre
    g.append(el("circle", { cx: 71.3, cy: 19.5, r: 3, fill: GOLD, ...line }));
  } else if (rank === "Q") {
    g.append(el("path", { d: "M41.5 27Q50 19 58.5 27", fill: "none", stroke: GOLD, "stroke-width": 2.6 }));
    g.append(el("circle", { cx: 50, cy: 22.5, r: 1.9, fill: trim, ...line }));
    for (const [x, y] of [
      [31, 40],
      [27.5, 43.5],
      [34.5, 43.5],
      [29, 47.5],
      [33, 47.5],
    ]) {
      g.append(el("circle", { cx: x, cy: y, r: 2.7, fill: trim === "#2f8f4e" ? "#e2557a" : "#e2557a", ...line }));
    }
    g.append(el("circle", { cx: 31, cy: 44.5, r: 1.6, fill: GOLD }));
    g.append(el("path", { d: "M31 48L33 62", stroke: "#3d7a2f", "stroke-width": 1.4 }));
  } else {
    // jack: cap and feather, short hair
    g.append(
      el("path", {
        d: "M41 32C40 28 42 26 44 26L56 26C58 26 60 28 59 32C60 36 61 38 62 40L58 40L58 33L42 33L42 40L38 40C39 38 40 36 41 32Z",
        fill: "#8a5a2b",
        ...line,
      }),
    );
    g.append(el("path", { d: "M39 27C39 19 61 19 61 27Z", fill: trim, ...line }));
    g.append(el("path", { d: "M38 27L62 27", stroke: GOLD, "stroke-width": 2.2 }));
    g.append(el("path", { d: "M58 23C66 11 76 14 78 21C71 19 65 21 61 26Z", fill: GOLD, ...line }));
  }
  return g;
}

function courtArt(rank, suit) {
  const group = el("g", { class: "court" });
  group.append(
    el("rect", {
      x: 21,
      y: 12,
      width: 58,
      height: 116,
      rx: 3,
      fill: "#fff8e6",
      stroke: suitColour(suit),
      "stroke-width": 1.2,
    }),
  );
  const clip = `clip-${rank}${suit}-${Math.random().toString(36).slice(2, 8)}`;
  const defs = el("defs");
  defs.append(el("clipPath", { id: clip }, el("rect", { x: 21, y: 12, width: 58, height: 58 })));
  group.append(defs);
  const top = el("g", { "clip-path": `url(#${clip})` }, courtHalf(rank, suit));
  const bottom = el(
    "g",
    { transform: "rotate(180 50 70)" },
    el("g", { "clip-path": `url(#${clip})` }, courtHalf(rank, suit)),
  );
  group.append(top, bottom);
  group.append(el("path", { d: "M21 70L79 70", stroke: suitColour(suit), "stroke-width": 0.8 }));
  return group;
}

/** The face of ``card`` as an SVG (100 x 140 units): corners, and pips, an ace or a court figure. */
export function cardFace(card) {
  const [rank, suit] = [card[0], card[1]];
  const colour = suitColour(suit);
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-face", "aria-hidden": "true", focusable: "false" });
  svg.append(
    el("rect", {
      x: 0.75,
      y: 0.75,
      width: 98.5,
      height: 138.5,
      rx: 8,
      fill: "#fffdf8",
      stroke: "#9a9a92",
      "stroke-width": 1.5,
    }),
  );
  if (rank === "J" || rank === "Q" || rank === "K") {
    svg.append(courtArt(rank, suit));
  } else if (rank === "A") {
    if (suit === "s")
      svg.append(
        el("circle", {
          cx: 50,
          cy: 70,
          r: 30,
          fill: "none",
          stroke: colour,
          "stroke-width": 1.2,
          "stroke-dasharray": "3 2.5",
        }),
      );
    svg.append(pip(suit, 50, 70, suit === "s" ? 44 : 40));
  } else {
    for (const [col, y] of PIPS[rank]) svg.append(pip(suit, COLS[col], y, 19, y > 70.1));
  }
  svg.append(corner(rank, suit, colour));
  const other = corner(rank, suit, colour);
  other.setAttribute("transform", "rotate(180 50 70)");
  svg.append(other);
  return svg;
}

/** A card to look at: ``<span class="card">`` with the face's SVG (or the back, for a card not
 * known), role img and its name as the label; ``data-card`` its text. */
export function cardElement(card, options = {}) {
  const known = isCard(card);
  const node = document.createElement("span");
  node.className = `card${known ? "" : " back"}${options.className ? ` ${options.className}` : ""}`;
  if (options.label !== false) {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", cardLabel(card));
  } else {
    node.setAttribute("aria-hidden", "true");
  }
  if (known) {
    node.dataset.card = card;
    node.append(cardFace(card));
  }
  return node;
}
