// An exchange with the widow picked card by card (R7.1, R7.5), which your hand, the widow and a
// drag share: the exchanges the view lists, keyed by their cards, and a card picked or put back.
import { showAlert } from "./common.js";
import { clickAfterDrag, hooks, legalMoves, myTurn } from "./state.js";

/** The exchanges the view lists (their moves), keyed by the cards given and taken (pickKey). */
export function exchanges() {
  const found = new Map();
  if (!myTurn()) return found;
  for (const move of legalMoves("exchange")) found.set(pickKey(move.give, move.take), move);
  return found;
}

/** One key for an exchange of the cards ``give`` for ``take``, whatever their order. */
export function pickKey(give, take) {
  return `${[...give].sort().join(" ")}|${[...take].sort().join(" ")}`;
}

/** Pick ``card`` into ``set`` (state.picks.hand or .widow), or put it back. */
export function togglePick(set, card) {
  if (clickAfterDrag()) return;
  if (set.has(card)) set.delete(card);
  else set.add(card);
  showAlert("");
  hooks.renderPicks();
}
