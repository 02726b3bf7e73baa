// The seats around the felt: name, avatar, lives as pennies and the grace life, the dealer and
// the knock, the turn timer's ring, and the seat's cards (face up at the showdown).
import { firstGrapheme, graceMark, h, points } from "./common.js";
import { list, num, t, tn } from "./i18n.js";
import { cardElement, cardLabel } from "./cards.js";
import { $, ended, graceWord, name, state } from "./state.js";

const AVATARS = ["#d1495b", "#2e86ab", "#e0a526", "#4f9d69", "#8d6a9f", "#e07a5f", "#3d6aa8", "#b5838d", "#00897b"];
const LIGHT_AVATARS = new Set(["#e0a526"]);

function avatarColour(seat) {
  return AVATARS[seat % AVATARS.length];
}

/** A seat's lives as tokens (R2.2-R2.4): a penny for each life, then the grace life as its own
 * mark (on the dole / on the bus / schwimmt), lit when it is all that is left. ``short``: one
 * penny and the number instead (more than five lives, or a plate too narrow for them all). */
function livesView(status, short = false) {
  const rules = state.table.rules;
  const node = h("p", { class: "lives" });
  if (status.out || status.remaining <= 0) {
    node.append(h("span", { class: "out-word" }, t("lives.out")));
    node.setAttribute("aria-label", t("lives.out_long"));
    return node;
  }
  if (short || rules.lives > 5) {
    node.classList.add("short");
    if (status.lives > 0)
      node.append(
        h("span", { class: "coin", "aria-hidden": "true" }),
        h("span", { class: "more", "aria-hidden": "true" }, num(status.lives)),
      );
  } else if (!status.on_grace) {
    // on the grace life its word stands alone, whole: the lost pennies would crowd it out
    for (let i = 0; i < rules.lives; i++)
      node.append(h("span", { class: `coin${i < status.lives ? "" : " lost"}`, "aria-hidden": "true" }));
  }
  if (rules.grace_life)
    node.append(
      h(
        "span",
        {
          class: `grace${status.on_grace ? " now" : ""}`,
          title: t("grace.title", { grace: graceWord() }),
          "aria-hidden": "true",
        },
        h(
          "span",
          { class: "grace-word" },
          status.on_grace ? graceWord() : graceMark(state.table.preset), // the grace life, still to come
        ),
      ),
    );
  const words = status.on_grace
    ? graceWord()
    : rules.grace_life
      ? tn("lives.then_grace", status.lives, { grace: graceWord() })
      : tn("lives.count", status.lives);
  node.setAttribute("aria-label", words);
  node.setAttribute("role", "img");
  return node;
}

/** A seat's cards: the ones everyone saw it take face up, the rest face down; in a showdown, its
 * hand face up with its value. */
function seatCards(seatInfo, status) {
  const seat = seatInfo.seat;
  if (state.showdown) {
    const hand = state.showdown.result.hands[seat];
    const value = state.showdown.result.values[seat];
    if (hand) {
      const lost = state.showdown.result.losses.filter((l) => l.seat === seat).reduce((sum, l) => sum + l.lives, 0);
      const blitz = state.showdown.result.blitz.includes(seat);
      return h(
        "div",
        {
          class: "seat-cards shown",
          role: "img",
          "aria-label": t("seat.shows", { cards: list(hand.map(cardLabel)), value: points(value) }),
        },
        hand.map((card) => cardElement(card, { label: false })),
        h(
          "span",
          { class: `value-badge${blitz ? " blitz" : lost ? " low" : ""}` },
          `${points(value)}${lost ? ` −${lost}` : ""}`,
        ),
      );
    }
  }
  if (!state.view || ended() || !status || status.out || seat === state.mySeat)
    return h("div", { class: "seat-cards" });
  const known = status.known_cards || [];
  const held = state.view.current_seat === seat && state.view.phase === "discard" ? 4 : 3; // drawn, not yet discarded
  const hidden = Math.max(0, held - known.length);
  const label = known.length
    ? tn("seat.cards_known", held, { known: list(known.map(cardLabel)), hidden: num(hidden) })
    : tn("seat.cards_down", held);
  return h(
    "div",
    { class: "seat-cards", role: "img", "aria-label": label },
    known.map((card) => cardElement(card, { label: false })),
    Array.from({ length: hidden }, () => cardElement(null, { label: false })),
  );
}

/** Seat ``seat``'s status as the page shows it: the view's, but while a showdown is open with
 * the lives its result left (result.remaining, R2.3-R2.4): the panel says the loss, so the plate
 * shows it too (the view is from before the round's end; the next round's waits, state.held). */
function seatStatus(seat) {
  const status = state.view ? state.view.seats[seat] : null;
  const remaining = state.showdown?.result.remaining?.[seat];
  if (!status || typeof remaining !== "number" || remaining === status.remaining) return status;
  const grace = state.table.rules.grace_life ? 1 : 0;
  return {
    ...status,
    remaining,
    lives: Math.max(remaining - grace, 0),
    on_grace: grace === 1 && remaining === 1,
    out: status.out || remaining <= 0,
  };
}

export function renderSeats() {
  const layout = $("stage").layout;
  const playing = state.table.status === "playing";
  const bottom = state.mySeat ?? 0;
  const count = state.table.players;
  const items = state.table.seats.map((s) => {
    const status = seatStatus(s.seat);
    const current =
      playing && state.view && state.view.current_seat === s.seat && state.view.phase !== "over" && !state.showdown; // nobody is to move while the round's hands lie face up
    const connected = s.seat === state.mySeat ? state.online : s.connected;
    const chips = [];
    if (s.kind === "bot") chips.push(t("chip.bot", { level: t(`level.${s.level}`) }));
    else if (!s.taken) chips.push(s.reserved ? t("chip.kept") : t("chip.free"));
    else if (!connected) chips.push(t("chip.offline"));
    if (current) chips.unshift(t("chip.to_move"));
    const offline = s.kind === "human" && s.taken && !connected;
    const winner = ended() && state.table.winner === s.seat;
    const colour = avatarColour(s.seat);
    const avatar = h(
      "span",
      { class: `avatar${LIGHT_AVATARS.has(colour) ? " light" : ""}`, "aria-hidden": "true" },
      firstGrapheme((s.seat === state.mySeat && s.name ? s.name : name(s.seat)).trim()).toUpperCase() || "?",
      h("span", { class: `dot${s.kind === "bot" ? " bot" : connected ? "" : " offline"}` }),
    );
    avatar.style.setProperty("--avatar", colour);
    if (current && state.table.turn_deadline && state.online) avatar.append(timerRing());
    const marks = h(
      "span",
      { class: "marks" },
      state.view && state.view.dealer === s.seat && !ended()
        ? h(
            "span",
            { class: "dealer-button", title: t("seat.dealer_title"), "aria-label": t("seat.dealer") },
            t("seat.dealer_mark"),
          )
        : null,
      state.view && state.view.knocker === s.seat && !ended()
        ? h(
            "span",
            { class: "knock-mark", title: t("seat.knocked_title"), role: "img", "aria-label": t("seat.knocked") },
            h("span", { class: "mark-word", "aria-hidden": "true" }, t("seat.knocked")),
            fist(), // a narrow plate's
          )
        : null,
    );
    const item = h(
      "li",
      {
        class: `seat${s.seat === state.mySeat ? " me" : ""}${current ? " current" : ""}${status?.out ? " out" : ""}${offline ? " offline" : ""}${winner ? " winner" : ""}`,
        "aria-current": current ? "true" : null,
        "data-seat": s.seat,
      },
      seatCards(s, status),
      h(
        "div",
        { class: "plate-wrap" },
        h(
          "div",
          { class: "plate" },
          avatar,
          h(
            "div",
            { class: "who" },
            h("h3", { title: s.name || name(s.seat) }, name(s.seat)),
            status ? livesView(status) : h("p", { class: "lives" }, tn("lives.count", state.table.rules.lives)),
            h("p", { class: "chips" }, chips.join(" · ")),
          ),
          marks, // in the plate: over no card, value badge or other seat
        ),
      ),
    );
    if (layout) {
      const spot = layout.spots[(s.seat - bottom + count) % count];
      item.style.left = `${spot.x}px`;
      item.style.top = `${spot.y}px`;
      item.style.width = `${layout.plate.w}px`;
      item.style.height = `${layout.plate.h}px`;
    }
    return item;
  });
  $("seats").replaceChildren(...items);
  // a penny cut off would misstate the lives: then every seat counts them with one penny and a
  // number, so that all the seats read alike
  const full = [...document.querySelectorAll(".seat .lives[role=img]:not(.short)")];
  if (full.some((lives) => lives.scrollWidth > lives.clientWidth + 1))
    for (const lives of full)
      lives.replaceWith(livesView(seatStatus(Number(lives.closest(".seat").dataset.seat)), true));
}

/** The knock's mark on a narrow plate, where its word has no room: a fist's knuckles (an
 * icon, not a letter: the first letters of "dealer" and "knocked" are alike in some languages). */
function fist() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "mark-glyph");
  svg.setAttribute("aria-hidden", "true");
  const hand = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  for (const [key, value] of Object.entries({ x: 2.5, y: 3.5, width: 11, height: 9.5, rx: 2.5, fill: "currentColor" }))
    hand.setAttribute(key, String(value));
  const fingers = document.createElementNS("http://www.w3.org/2000/svg", "path");
  fingers.setAttribute("d", "M5.25 3.5v4M8 3.5v4M10.75 3.5v4M2.5 9.5h4");
  fingers.setAttribute("stroke", "#8a2d00");
  fingers.setAttribute("stroke-width", "1.2");
  svg.append(hand, fingers);
  return svg;
}

function timerRing() {
  const ring = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  ring.setAttribute("viewBox", "0 0 40 40");
  ring.setAttribute("class", "ring");
  ring.setAttribute("aria-hidden", "true");
  for (const kind of ["track", "left"]) {
    const circle = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    circle.setAttribute("cx", "20");
    circle.setAttribute("cy", "20");
    circle.setAttribute("r", "18");
    circle.setAttribute("class", kind);
    circle.setAttribute("pathLength", "100");
    circle.setAttribute("stroke-dasharray", "100");
    ring.append(circle);
  }
  tickRing(ring);
  return ring;
}

export function tickRing(ring) {
  const left = ring.querySelector(".left");
  if (!left || !state.table?.turn_deadline || !state.table.turn_timer) return;
  const seconds = Math.max(0, state.table.turn_deadline - Date.now() / 1000);
  const part = Math.max(0, Math.min(1, seconds / state.table.turn_timer));
  left.setAttribute("stroke-dashoffset", String(100 - part * 100));
  left.classList.toggle("hurry", seconds <= 10);
}
