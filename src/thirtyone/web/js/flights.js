// Motion at the table from the game's events (motion.js plays it): cards dealt, drawn, discarded
// and swapped, speech bubbles at a seat, and a knock's banner (a Blitz is the showdown's heading).
import { h } from "./common.js";
import { t } from "./i18n.js";
import { follow, reducedMotion } from "./motion.js";
import { play as sound } from "./sound.js";
import { $, motion, name, roundOf, state } from "./state.js";
import { bubbleWords } from "./words.js";

const BUBBLE_MS = 1900;
const MOMENT_MS = 2400; // a knock's banner
const TAKES = new Set(["draw", "exchange", "exchange_all", "take_widow"]); // the moves that sound as a draw

/** Where things are before a redraw: the stock, the pile's top card, the widow's cards, your
 * hand's cards and each seat's cards, as rectangles. */
export function snapshot() {
  const rect = (node) => (node ? node.getBoundingClientRect() : null);
  const shot = {
    stock: rect(document.querySelector("#stock .stack") || $("stock")),
    pile: rect(document.querySelector("#discard .card") || $("discard")),
    widow: new Map(),
    widowAll: rect(document.querySelector("#widow .widow-cards")),
    hand: new Map(),
    seats: new Map(),
  };
  for (const node of document.querySelectorAll("#widow [data-card]")) shot.widow.set(node.dataset.card, rect(node));
  for (const node of document.querySelectorAll("#hand [data-card]"))
    if (node.dataset.card) shot.hand.set(node.dataset.card, rect(node));
  for (const node of document.querySelectorAll(".seat")) {
    shot.seats.set(Number(node.dataset.seat), rect(node.querySelector(".seat-cards") || node));
  }
  return shot;
}

function seatCardsNode(seat) {
  return (
    document.querySelector(`.seat[data-seat="${seat}"] .seat-cards`) ||
    document.querySelector(`.seat[data-seat="${seat}"]`)
  );
}

/** Where a card given to ``seat`` lands: your hand's card, or the last card at the seat. */
function landingFor(seat, card, n = 0) {
  if (seat === state.mySeat && !$("hand-section").hidden) {
    const mine = card ? document.querySelector(`#hand [data-card="${CSS.escape(card)}"]`) : null;
    return mine || document.querySelectorAll("#hand .card-button, #hand > .card")[n] || $("hand");
  }
  const cards = document.querySelectorAll(`.seat[data-seat="${seat}"] .seat-cards .card`);
  return cards[Math.min(n, cards.length - 1)] || cards[cards.length - 1] || seatCardsNode(seat);
}

function fromSeat(seat, card, before) {
  if (seat === state.mySeat && card && before.hand.has(card)) return before.hand.get(card);
  return before.seats.get(seat) || seatCardsNode(seat)?.getBoundingClientRect();
}

/** Run ``show`` in its turn among the motion steps (at once when motion is reduced): what is
 * said at a seat, or a moment's banner, comes in the order things happened. */
export function inOrder(show) {
  if (reducedMotion()) show();
  else motion.add(async () => show());
}

export function animate(fresh, before) {
  for (const item of fresh) {
    const event = item.event;
    const live = () => !roundOf(item.round).result; // a round already over says no more at its seats
    if (event.type === "acted") {
      inOrder(() => live() && bubble(event.seat, bubbleWords(event), event.kind === "knock" ? "knock" : ""));
      if (event.kind === "knock") {
        inOrder(() => {
          if (!live()) return;
          sound("knock");
          banner(t("banner.knocked", { who: name(event.seat) }), "knock", MOMENT_MS);
        });
        motion.add((speed) => motion.pulse(document.querySelector(`.seat[data-seat="${event.seat}"] .plate`), speed));
      } else if (TAKES.has(event.kind)) {
        inOrder(() => sound("draw"));
      }
      motion.add((speed) => flyAction(event, before, speed));
    } else if (event.type === "round_started" && state.view && event.round === state.view.round) {
      // dealt as the new hand first shows, not after the queue: a hand in view is never dealt again
      sound("deal");
      motion.now((speed) => dealCards(event, speed));
    } else if (event.type === "reshuffled") {
      motion.add((speed) =>
        Promise.all(
          [0, 1, 2].map((i) =>
            motion.fly(before.pile, document.querySelector("#stock .stack .card") || $("stock"), {
              delay: i * 90,
              speed,
            }),
          ),
        ),
      );
    } else if (event.type === "new_widow") {
      motion.add((speed) =>
        Promise.all([...document.querySelectorAll("#widow .card")].map((node) => motion.turnOver(node, speed))),
      );
    }
  }
}

function flyAction(event, before, speed) {
  const seat = event.seat;
  const got = event.received || [];
  const flights = [];
  const all = event.kind === "exchange_all";
  if (event.kind === "draw") {
    const card = got[0] || null;
    const from = event.source === "pile" ? before.pile : before.stock;
    const known = event.source === "pile" || seat === state.mySeat ? card : null;
    flights.push(
      motion.fly(from, landingFor(seat, card, 3), {
        card: known,
        turn: event.source === "stock" && known ? "up" : null,
        speed,
      }),
    );
  } else if (event.kind === "discard") {
    const card = event.card;
    const top = document.querySelector("#discard .card");
    flights.push(motion.fly(fromSeat(seat, card, before), top || $("discard"), { card, speed }));
  } else if (event.kind === "exchange" || all) {
    const give = all ? event.revealed || [] : event.give;
    const take = all ? got : event.take;
    give.forEach((card, i) => {
      const slot =
        document.querySelector(`#widow [data-card="${CSS.escape(card)}"]`) ||
        document.querySelectorAll("#widow .card")[i];
      flights.push(motion.fly(fromSeat(seat, card, before), slot, { card, delay: i * 70, speed }));
    });
    const count = all ? 3 : take.length;
    for (let i = 0; i < count; i++) {
      const card = take[i] || null;
      const from = (card && before.widow.get(card)) || before.widowAll;
      const known = seat === state.mySeat || !all ? card : null;
      flights.push(motion.fly(from, landingFor(seat, card, i), { card: known, delay: 120 + i * 70, speed }));
    }
  } else if (event.kind === "take_widow") {
    // the Schwimmen dealer takes the other hand unseen (R7.6)
    (event.revealed || []).forEach((card, i) => {
      flights.push(
        motion.fly(fromSeat(seat, null, before), document.querySelectorAll("#widow .card")[i], {
          card,
          delay: i * 70,
          speed,
        }),
      );
    });
    for (let i = 0; i < 3; i++)
      flights.push(
        motion.fly(before.widowAll, landingFor(seat, got[i] || null, i), {
          card: seat === state.mySeat ? got[i] || null : null,
          turn: seat === state.mySeat && got[i] ? "up" : null,
          delay: 150 + i * 70,
          speed,
        }),
      );
  } else if ((event.revealed || []).length) {
    // keep, pass or knock that turned the widow up (R7.2, R7.6)
    for (const node of document.querySelectorAll("#widow .card")) flights.push(motion.turnOver(node, speed));
  }
  return Promise.all(flights);
}

function dealCards(event, speed) {
  const stock = document.querySelector("#stock .stack") || $("middle");
  const from = stock.getBoundingClientRect();
  const order = event.seats.slice();
  const at = order.indexOf(event.dealer);
  const seats = order.slice(at + 1).concat(order.slice(0, at + 1));
  const flights = [];
  let n = 0;
  for (let i = 0; i < 3; i++) {
    for (const seat of seats) {
      const card = seat === state.mySeat && state.view.hand ? state.view.hand[i] : null;
      flights.push(
        motion.fly(from, landingFor(seat, card, i), {
          card,
          turn: card ? "up" : null,
          delay: n * 55,
          speed,
          duration: 320,
        }),
      );
      n++;
    }
  }
  const widow = document.querySelectorAll("#widow .card");
  widow.forEach((node, i) => {
    flights.push(
      motion.fly(from, node, { card: node.dataset.card || null, delay: (n + i) * 55, speed, duration: 320 }),
    );
  });
  n += widow.length;
  if (event.upcard) {
    const top = document.querySelector("#discard .card");
    if (top) flights.push(motion.fly(from, top, { card: event.upcard, turn: "up", delay: n * 55, speed }));
  }
  return Promise.all(flights);
}

/** A speech bubble over ``seat`` for a moment (what it did, or said). */
const bubbles = new Map(); // seat -> its bubble showing now

export function bubble(seat, text, kind = "") {
  const seatNode = () => document.querySelector(`.seat[data-seat="${seat}"]`);
  const anchor = seatNode();
  if (!anchor || !text) return;
  if (bubbles.has(seat)) bubbles.get(seat).remove();
  // over the seat's own cards, just above its plate: inside the seat's place, over nothing in the
  // middle; it moves with the seat (a turn's moves appearing move the seats), and fades there
  const where = () => {
    const place = seatNode(); // drawn anew at each change of the table
    if (!place) return null;
    const box = place.getBoundingClientRect();
    const plate = (place.querySelector(".plate") || place).getBoundingClientRect();
    return { left: box.left + box.width / 2, top: Math.max(18, plate.top + 4), width: box.width };
  };
  const node = h(
    "div",
    { class: `bubble${kind ? ` ${kind}` : ""}${reducedMotion() ? "" : " show"}`, "aria-hidden": "true" },
    text,
  );
  const first = where();
  node.style.left = `${first.left}px`;
  node.style.top = `${first.top}px`;
  node.style.maxWidth = `${Math.round(first.width)}px`;
  $("flyers").append(node);
  bubbles.set(seat, node);
  const stop = follow(node, where);
  setTimeout(() => {
    stop();
    node.remove();
    if (bubbles.get(seat) === node) bubbles.delete(seat);
  }, BUBBLE_MS);
}

export function banner(text, kind, ms = 0) {
  const box = $("banner");
  clearTimeout(banner.timer);
  if (ms)
    banner.timer = setTimeout(() => {
      if (box.dataset.kind === kind) banner("", "");
    }, ms);
  box.hidden = !text;
  box.dataset.kind = kind || "";
  $("middle").dataset.moment = text ? kind : "";
  $("banner-text").textContent = text || "";
  box.classList.remove("pop");
  void box.offsetWidth; // restart the animation
  if (!reducedMotion()) box.classList.add("pop");
}
