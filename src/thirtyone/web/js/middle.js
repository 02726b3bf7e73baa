// The middle of the felt: the stock, the discard pile or the widow, the status line and the turn
// timer.
import { actionWords, h } from "./common.js";
import { list, num, t, tn } from "./i18n.js";
import { cardElement, cardLabel } from "./cards.js";
import { announce } from "./notices.js";
import { exchanges, togglePick } from "./picks.js";
import { tickRing } from "./seats.js";
import { $, legalMove, myTurn, name, state } from "./state.js";

function compact() {
  return Number($("stage").dataset.scale || 1) < 0.85;
}

export function renderMiddle(over) {
  const middle = $("middle");
  const waiting = !state.view && state.table.status === "open"; // nothing dealt yet: the middle says who is awaited
  // the round's result lies over the middle (a showdown, or the last result asked for): the piles wait under it
  middle.hidden = (!state.view && !waiting) || over || !$("result").hidden;
  middle.querySelector(".piles").hidden = waiting;
  if (middle.hidden || waiting) return;
  const widowMode = state.view.widow !== null || state.view.widow_face_down;
  const mine = myTurn();
  const canStock = mine && Boolean(legalMove("draw", { source: "stock" }));
  const fromPile = mine && legalMove("draw", { source: "pile" });
  const stock = $("stock");
  stock.hidden = widowMode; // widow mode: nobody draws from the stock
  stock.disabled = !canStock;
  const stockLabel = compact()
    ? t("pile.stock")
    : t("pile.with_count", { pile: t("pile.stock"), count: num(state.view.stock_size) });
  stock.replaceChildren(
    state.view.stock_size
      ? h(
          "span",
          { class: "stack" },
          ...Array.from({ length: Math.min(3, state.view.stock_size) }, () => cardElement(null, { label: false })),
        )
      : h("span", { class: "empty" }, t("pile.empty")),
    ...pileWords(
      stockLabel,
      canStock ? t("move.draw_stock") : compact() ? tn("pile.stock_label", state.view.stock_size) : null,
    ),
  );
  const discard = $("discard");
  discard.hidden = widowMode && !state.view.discard_size;
  discard.disabled = !fromPile;
  const discardLabel = compact()
    ? t("pile.short")
    : state.view.discard_size
      ? t("pile.with_count", { pile: t("pile.discard"), count: num(state.view.discard_size) })
      : t("pile.discard");
  discard.replaceChildren(
    state.view.discard_top
      ? cardElement(state.view.discard_top, { className: "top", label: false }) // named by the pile
      : h("span", { class: "empty" }, t("pile.empty")),
    ...pileWords(
      discardLabel,
      fromPile
        ? actionWords(fromPile, state.view)
        : state.view.discard_top
          ? t("pile.discard_top", { card: cardLabel(state.view.discard_top) })
          : t("pile.discard_empty"),
    ),
  );
  const widow = $("widow");
  widow.hidden = !widowMode;
  if (widowMode) {
    const swaps = exchanges();
    const cards = state.view.widow
      ? state.view.widow.map((card) =>
          swaps.size
            ? h(
                "button",
                {
                  type: "button",
                  class: "card-button",
                  "aria-pressed": String(state.picks.widow.has(card)),
                  "aria-label": t("widow.take", { card: cardLabel(card) }),
                  "data-key": `widow ${card}`,
                  "data-card": card,
                  onclick: () => togglePick(state.picks.widow, card),
                },
                cardElement(card, { label: false }),
              )
            : cardElement(card),
        )
      : [cardElement(null), cardElement(null), cardElement(null)];
    widow.replaceChildren(
      h("div", { class: "widow-cards" }, cards),
      h("span", { class: "pile-label" }, state.view.widow ? t("pile.widow") : t("pile.widow_face_down")),
    );
  }
}

/**
 * A pile's words: its visible `label`, then, for a screen reader, `more` (what taking from it does,
 * or what it holds) after the label's own words. The pile is named by its content, so its name
 * starts with what is written on it (a spoken command that says the label works: WCAG 2.5.3).
 */
function pileWords(label, more) {
  if (!more) return [h("span", { class: "pile-label" }, label)];
  return [
    h("span", { class: "pile-label", "aria-hidden": "true" }, label),
    h("span", { class: "sr-only" }, t("pile.named", { pile: label, more })),
  ];
}

export function renderStatus(over) {
  let text;
  const free = state.table.seats.filter((s) => s.kind === "human" && !s.taken).length;
  if (state.table.status === "open") {
    const kept = state.table.seats.filter((s) => s.reserved).map((s) => s.name);
    text = kept.length ? tn("status.waiting_for", kept.length, { who: list(kept) }) : tn("status.waiting", free);
  } else if (state.table.status === "closed") text = t("status.closed");
  else if (over) text = t("status.over");
  else if (state.view)
    text = myTurn()
      ? state.view.phase === "discard"
        ? t("status.your_turn_discard")
        : t("status.your_turn")
      : reading().length // the bots and the timer wait for them (a person may still move)
        ? tn("status.reading", reading().length, { who: list(reading().map(name)) })
        : state.table.seats[state.view.current_seat]?.kind === "bot" // a bot's turn: said while it thinks
          ? t("status.thinking", { who: name(state.view.current_seat) })
          : t("status.to_move", { who: name(state.view.current_seat) });
  else text = "";
  if (state.mySeat === null && state.table.status !== "open" && !over) text = t("status.watching", { text });
  else if (state.mySeat === null && over) text = t("status.watched", { text });
  if (state.view && !over) text = t("status.round", { round: num(state.view.round), text });
  $("status").textContent = text;
  if (state.view && state.view.knocker !== null && !over)
    $("status").textContent = t("status.last_turns", { text: $("status").textContent }); // the seat wears the knock too
}

// The turn timer (`thirtyone serve --turn-timer`): seconds left before the server plays a legal
// default for the player to move; the server's deadline is Unix time, so clocks must roughly agree.
// Not shown while disconnected: the page cannot know the server's deadline then.
export function renderTimer() {
  const deadline =
    state.online && state.table && state.table.status === "playing" && state.view && state.view.phase !== "over"
      ? state.table.turn_deadline
      : null;
  const timer = $("timer");
  timer.hidden = deadline === null || deadline === undefined;
  for (const ring of document.querySelectorAll(".seat .ring")) tickRing(ring);
  if (timer.hidden) return;
  const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
  const mine = myTurn();
  timer.textContent = mine
    ? t("timer.you", { seconds: num(left) })
    : t("timer.other", { who: name(state.view.current_seat), seconds: num(left) });
  timer.title = mine ? t("timer.title_you") : t("timer.title_other");
  if (mine && left === 10) announce(t("timer.ten"));
}

setInterval(renderTimer, 1000);

/** The people the table waits for to close the last showdown, this reader aside (TABLE.showdown). */
function reading() {
  const wait = state.table.showdown;
  return wait && !state.showdown ? wait.waiting.filter((seat) => seat !== state.mySeat) : [];
}
