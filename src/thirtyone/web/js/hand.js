// Your hand (fanned, sorted as a player holds it, the drawn and the kept card marked) and your
// moves: the buttons of the actions the view lists, the widow's pick-then-confirm exchange.
import { actionWords, h, pointsWords, pretty, showAlert } from "./common.js";
import { t } from "./i18n.js";
import { cardElement, cardLabel } from "./cards.js";
import { startDrag } from "./drag.js";
import { exchanges, pickKey, togglePick } from "./picks.js";
import { act } from "./socket.js";
import { $, clickAfterDrag, ended, legalMoves, myTurn, roundOf, state } from "./state.js";
import { handWords, knockRefusal, shortWords } from "./words.js";

const RANK_VALUE = { A: 14, K: 13, Q: 12, J: 11, T: 10 };

/** Your cards as a player holds them: suits together (the suit with most cards, then the most
 * points, first), high cards first within a suit. */
function sortHand(hand) {
  const count = {};
  const total = {};
  for (const card of hand) {
    count[card[1]] = (count[card[1]] || 0) + 1;
    total[card[1]] = (total[card[1]] || 0) + (RANK_VALUE[card[0]] || Number(card[0]));
  }
  const rank = (card) => RANK_VALUE[card[0]] || Number(card[0]);
  return [...hand].sort(
    (a, b) => count[b[1]] - count[a[1]] || total[b[1]] - total[a[1]] || b[1].localeCompare(a[1]) || rank(b) - rank(a),
  );
}

/** The card this seat got this turn (drawn, not yet discarded: R4.1), from its own events. */
function justDrawn() {
  if (!myTurn() || state.view.phase !== "discard") return null;
  const events = roundOf(state.view.round).events;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event.type === "acted" && event.seat === state.mySeat)
      return event.kind === "draw" && event.received ? event.received[0] : null;
  }
  return null;
}

/** Lay ``node``, the card ``i`` of ``n``, in the hand's fan. */
function fan(node, i, n) {
  node.style.setProperty("--i", String(i));
  node.style.setProperty("--n", String(n));
  node.style.setProperty("--arc", `${Math.round(Math.abs(i - (n - 1) / 2) ** 2 * 4)}px`);
}

/** The hand the reader showed at the showdown (``{cards, value}``): plain cards and their value,
 * no move, no mark; the round is over. */
function showdownHand(box, shown) {
  const hand = sortHand(shown.cards);
  box.replaceChildren(
    ...hand.map((card, i) => {
      const node = cardElement(card);
      fan(node, i, hand.length);
      return node;
    }),
  );
  $("hand-value").replaceChildren(shown.value === null ? "" : h("strong", {}, pointsWords(shown.value)));
}

export function renderHand() {
  // a card being dragged is never drawn anew under the pointer (a message meanwhile would drop
  // it): the drag's end draws the hand again
  if (state.drag) return;
  const key = JSON.stringify([
    state.paint,
    state.seq,
    state.mySeat,
    ended(),
    state.view?.hand,
    state.view?.legal,
    state.view?.taken_from_pile,
    [...state.picks.hand],
    [...state.picks.widow],
    state.showdown?.hand,
  ]);
  if (key === state.handKey && $("hand").children.length) return;
  state.handKey = key;
  const box = $("hand");
  $("hand-section").hidden = state.mySeat === null || !state.view || ended();
  if ($("hand-section").hidden) {
    box.replaceChildren();
    $("hand-value").textContent = "";
    return;
  }
  if (state.view.seats[state.mySeat].out) {
    box.replaceChildren();
    $("hand-value").textContent = t("hand.out");
    return;
  }
  if (state.showdown?.hand) {
    showdownHand(box, state.showdown.hand);
    return;
  }
  const mine = myTurn();
  const discards = new Map(mine ? legalMoves("discard").map((move) => [move.card, move]) : []);
  const swaps = exchanges();
  const kept = mine && state.view.taken_from_pile;
  const fresh = justDrawn();
  const hand = state.view.hand ? sortHand(state.view.hand) : [null, null, null];
  const cards = hand.map((card, i) => {
    let node;
    const face = cardElement(card, { label: false });
    if (card && kept === card && discards.size) {
      const why = t("kept.why", { card: pretty(card) });
      node = h(
        "button",
        {
          type: "button",
          class: "card-button kept",
          "aria-disabled": "true",
          "data-card": card,
          "data-key": `hand ${card}`,
          "aria-label": t("kept.label", { card: cardLabel(card) }),
          title: t("kept.title"),
          onclick: () => showAlert(why, "info"),
        },
        face,
        h("span", { class: "tag kept-mark" }, t("kept.tag"), h("span", { class: "sr-only" }, t("kept.sr"))),
      );
    } else if (card && discards.has(card)) {
      node = h(
        "button",
        {
          type: "button",
          class: "card-button",
          "aria-label": t("move.discard", { card: cardLabel(card) }),
          "aria-keyshortcuts": String(i + 1),
          "data-card": card,
          "data-key": `hand ${card}`,
          onclick: (click) => {
            if (!clickAfterDrag()) act(discards.get(card), click);
          },
        },
        face,
      );
    } else if (card && swaps.size) {
      node = h(
        "button",
        {
          type: "button",
          class: "card-button",
          "aria-pressed": String(state.picks.hand.has(card)),
          "aria-label": t("widow.give", { card: cardLabel(card) }),
          "data-card": card,
          "data-key": `hand ${card}`,
          onclick: () => togglePick(state.picks.hand, card),
        },
        face,
      );
    } else {
      node = cardElement(card);
      if (!card) node.dataset.card = "";
    }
    if (card && card === fresh) node.append(h("span", { class: "tag new-mark" }, t("hand.new")));
    fan(node, i, hand.length);
    if (node.tagName === "BUTTON" && (discards.has(card) || swaps.size))
      node.addEventListener("pointerdown", (event) => startDrag(event, node, card, renderHand));
    return node;
  });
  box.replaceChildren(...cards);
  const words = handWords(); // the card kept by R4.2 is marked on the card itself
  $("hand-value").replaceChildren(
    state.view.hand && state.view.hand.length === 3 && state.view.hand_value !== null
      ? h("strong", {}, pointsWords(state.view.hand_value))
      : `${words[0].toUpperCase()}${words.slice(1)}.`,
  );
}

/** Pick-then-confirm for exchanges with the widow (R7.1, R7.5): pick cards of your hand and as
 * many of the widow (toggle buttons), then this button; only a pick the view lists as legal can be sent. */
function exchangeButton(swaps) {
  const give = [...state.picks.hand];
  const take = [...state.picks.widow];
  const chosen = swaps.get(pickKey(give, take));
  let label = t("swap.pick");
  if (chosen) label = actionWords(chosen, state.view);
  else if (give.length && give.length === take.length) label = t("swap.too_many");
  else if (give.length || take.length) label = take.length < give.length ? t("swap.now_widow") : t("swap.now_yours");
  return h(
    "button",
    {
      type: "button",
      class: "action primary exchange",
      "data-key": "exchange",
      "data-action": chosen?.text || null,
      disabled: !chosen,
      onclick: (click) => chosen && act(chosen, click),
    },
    label,
  );
}
const ORDER = ["draw_stock", "draw_pile", "look", "keep", "take_widow", "exchange_all", "pass", "throw_down", "knock"];

/** Where a move's button goes among the moves: draws first, a discard next, the knock last. */
function rank(move) {
  if (move.kind === "discard") return 0.5;
  const at = ORDER.indexOf(move.kind === "draw" ? `draw_${move.source}` : move.kind);
  return at >= 0 ? at : 5;
}

export function renderActions() {
  const key = JSON.stringify([
    state.seq,
    myTurn(),
    state.view?.legal,
    state.view?.discard_top,
    [...state.picks.hand],
    [...state.picks.widow],
    state.table.hints,
  ]);
  if (key === state.actionsKey) return;
  state.actionsKey = key;
  const section = $("actions-section");
  section.hidden = !myTurn();
  $("knock-note").hidden = true;
  $("hint").hidden = state.table.hints === false;
  if (section.hidden) {
    $("hint-text").textContent = "";
    $("actions").replaceChildren();
    return;
  }
  const swaps = exchanges();
  const plain = state.view.legal.filter((move) => move.kind !== "exchange"); // exchanges are picked, then confirmed
  plain.sort((a, b) => rank(a) - rank(b));
  const first = plain.find((move) => move.kind !== "knock");
  const primary = (move) => move === first && !swaps.size && move.kind !== "discard";
  $("actions").replaceChildren(
    ...(swaps.size ? [exchangeButton(swaps)] : []),
    ...plain.map((move) =>
      h(
        "button",
        {
          type: "button",
          class: `action${move.kind === "knock" ? " knock" : primary(move) ? " primary" : ""}`,
          "data-action": move.text, // for people and tests: the page reads the move's data, never this
          "data-id": move.id,
          "data-key": `action ${move.id}`,
          onclick: (click) => act(move, click),
        },
        h("span", { class: "long" }, actionWords(move, state.view)),
        h("span", { class: "short", "aria-hidden": "true" }, shortWords(move)),
      ),
    ),
  );
  const why = knockRefusal();
  $("knock-note").hidden = !why;
  $("knock-note").textContent = why || "";
}
