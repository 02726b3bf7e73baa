// Drawing the table from the state: the stage laid out for its size and seats, each part drawn,
// and the keyboard focus kept where it was.
import { t, tn } from "./i18n.js";
import { CHAIN } from "./fairness.js";
import { clearRoom, placeSeats } from "./felt.js";
import { renderActions, renderHand } from "./hand.js";
import { renderMiddle, renderStatus, renderTimer } from "./middle.js";
import { renderOver } from "./over.js";
import { renderLastResult, renderShowdown } from "./result.js";
import { renderSeats } from "./seats.js";
import { renderRules, renderTableTools } from "./side.js";
import { $, ended, myTurn, state } from "./state.js";
import { describeRules } from "./howto.js";

const PLATE = { w: 172, h: 104 }; // a seat's size at scale 1: its cards (44) above its plate
const CARD = { w: 66, h: 92 }; // a card in the middle at scale 1

export function render() {
  if (!state.table) return;
  const focusKey = focusedKey();
  const over = ended();
  document.body.dataset.status = state.table.status;
  $("describe").textContent = describeRules(state.table); // the server's page says them in the library's English
  $("stage").dataset.over = over ? "yes" : "no";
  document.body.dataset.turn = myTurn() ? "me" : "other";
  const freeSeats = state.table.seats.filter((s) => s.kind === "human" && !s.taken && !s.reserved);
  $("join").hidden = !(state.mySeat === null && state.table.status === "open" && freeSeats.length > 0);
  $("join-free").textContent = tn("join.free", freeSeats.length);
  // a table's salt chain commits to every deal of the game; an older table's commitment is the deal's
  $("commitment-label").textContent = t(state.table.scheme === CHAIN ? "table.commitment_chain" : "table.commitment");
  $("commitment").textContent =
    state.table.commitment && !over ? state.table.commitment : over ? t("fair.no_more") : "–";
  renderMiddle(over);
  renderStatus(over);
  renderLastResult(over);
  renderTimer();
  if (!state.view || state.picks.seq !== state.seq) state.picks = { seq: state.seq, hand: new Set(), widow: new Set() };
  renderHand();
  renderActions();
  renderOver();
  renderShowdown();
  // the seats after the hand: its moves come with your turn and go after it, and the stage the
  // seats are placed in is what the hand's row leaves (placed before, they lay a frame out of it)
  layoutStage();
  renderSeats();
  renderTableTools();
  renderRules();
  restoreFocus(focusKey);
}

/** A card picked for an exchange, or put back: only what shows the picks is drawn anew. */
export function renderPicks() {
  renderMiddle(ended());
  renderHand();
  renderActions();
  if (layoutStage()) renderSeats(); // a move's row that wraps anew changes the stage's height
}

/** The seats' places around the felt for this stage's size and the number of seats; whether
 * they moved (then the seats are to be drawn anew). */
export function layoutStage() {
  const stage = $("stage");
  const box = stage.getBoundingClientRect();
  const count = state.table.players;
  const widow = state.table.rules.mode === "widow";
  const key = `${Math.round(box.width)}x${Math.round(box.height)}:${count}:${widow}:${state.mySeat}`;
  if (key === state.layoutKey) return false;
  state.layoutKey = key;
  const cardAt = (scale) => Math.round(Math.max(40, Math.min(96, CARD.w * scale)));
  const centre = (scale) => {
    const w = cardAt(scale);
    const cards = widow ? 3 * w + 2 * 6 : 2 * w + 16;
    return { w: Math.max(cards + 12, 176), h: Math.round(w * 1.4) + 16 + 40 + 16 + 26 + 14 }; // + a label's second line
  };
  const layout = placeSeats({ width: box.width, height: box.height, count, plate: PLATE, centre, scales: [1.25, 0.5] });
  stage.dataset.scale = layout.scale.toFixed(2);
  const s = layout.plate.w / PLATE.w;
  stage.dataset.compact = s < 0.8 ? "yes" : "no";
  stage.style.setProperty("--s", String(s));
  stage.style.setProperty("--mini-w", `${Math.round(28 * Math.max(s, 0.62))}px`);
  stage.style.setProperty("--mini-h", `${Math.round(39 * Math.max(s, 0.62))}px`);
  const cardW = cardAt(layout.scale);
  stage.style.setProperty("--card-w", `${cardW}px`);
  stage.style.setProperty("--card-h", `${Math.round(cardW * 1.4)}px`);
  $("middle").style.width = `${Math.round(layout.centre.w)}px`;
  $("middle").style.height = `${Math.round(layout.centre.h)}px`;
  // the round's result and the join form lie in the room the seats leave in the middle, over none of them
  const room = clearRoom({ width: box.width, height: box.height, layout });
  stage.style.setProperty("--room-w", `${room.w}px`);
  stage.style.setProperty("--room-h", `${room.h}px`);
  const felt = $("felt");
  felt.style.left = `${layout.felt.x}px`;
  felt.style.top = `${layout.felt.y}px`;
  felt.style.width = `${layout.felt.w}px`;
  felt.style.height = `${layout.felt.h}px`;
  stage.layout = layout;
  return true;
}

// Keyboard focus survives redrawing: the same control if it is still there, else the first move
// when it is your turn, else your hand's region (never <body>).
function focusedKey() {
  const active = document.activeElement;
  if (!active || !($("me").contains(active) || $("middle").contains(active))) return null;
  return active.dataset.key || "region";
}

/** Give the keyboard focus to the table: the first move when it is your turn, else your hand's
 * region (after a panel that held it, such as the showdown's result, closes). */
export function focusTable() {
  restoreFocus("region");
}

function restoreFocus(key) {
  const first =
    $("actions").querySelector("button:not(:disabled):not(.knock)") ||
    $("actions").querySelector("button:not(:disabled)");
  if (key === null && !state.focusedOnce && myTurn() && document.activeElement === document.body) {
    if (first) {
      state.focusedOnce = true;
      first.focus({ preventScroll: true });
    }
    return;
  }
  if (key === null) return;
  const same = key !== "region" ? document.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  const target =
    same && !same.closest("[hidden]")
      ? same
      : myTurn() && first
        ? first
        : !$("hand-section").hidden
          ? $("hand-section")
          : null;
  if (target && target !== document.activeElement) target.focus({ preventScroll: true });
}
