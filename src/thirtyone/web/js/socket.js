// Talking to the server over the table's WebSocket (connection.js opens it): a message, an action
// the state lists as legal (by its id), a hint asked for. The server is the authority: an action is
// sent for the state's seq, one per state.
import { showAlert } from "./common.js";
import { t } from "./i18n.js";
import { $, motion, myTurn, state } from "./state.js";

export function send(message) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN || !state.online) {
    showAlert(t("alert.not_connected"));
    state.staleAlert = true;
    return false;
  }
  state.socket.send(JSON.stringify(message));
  return true;
}

/** Play ``move``, one of the view's legal moves, by its id for the state's seq. */
export function act(move, click) {
  if (state.sentFor === state.seq) return; // already sent for this state: wait for the answer
  // a double tap is one tap: its second click lands on what the next state drew under the finger
  if (click && click.detail > 1) return;
  $("hint-text").textContent = "";
  motion.skip(); // the player moves on: everything still flying lands now
  state.sentFor = state.seq;
  if (!send({ type: "action", id: move.id, seq: state.seq })) state.sentFor = null;
}

export function askHint() {
  if (state.table && state.table.status === "closed") {
    showAlert(t("alert.closed_no_moves"));
    return;
  }
  if (state.table && state.table.hints === false) {
    showAlert(t("alert.hints_off"), "info");
    return;
  }
  if (!myTurn()) {
    showAlert(state.mySeat === null ? t("alert.hints_players") : t("alert.hints_own_move"));
    return;
  }
  $("hint-text").textContent = t("hint.thinking");
  send({ type: "hint" });
}
