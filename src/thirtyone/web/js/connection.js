// The table's connection: connect (and reconnect) with this browser's token, and hand every
// message from the server to its part of the page.
import { api, refusalWords, sentence, showAlert } from "./common.js";
import { describeRules } from "./howto.js";
import { t } from "./i18n.js";
import * as fairness from "./fairness.js";
import { hearChat } from "./chat.js";
import { applyState, catchUp } from "./happened.js";
import { announce, toast } from "./notices.js";
import { renderOver } from "./over.js";
import { render } from "./render.js";
import { closeShowdown, holds, roundEnd } from "./showdown.js";
import { send } from "./socket.js";
import { $, code, ended, names, state, tokenKey } from "./state.js";
import { fairnessDeal, fairnessReveal, fairnessRoundEnd } from "./verify.js";
import { hintWords, serverWords } from "./words.js";

const MAX_RETRY_MS = 3000; // a restarted server is found within 3 s
const LIMIT_CLOSE = 4429; // refused for a limit: this seat open in too many places, a full table, too fast
const LIMIT_RETRY_MS = [5000, 60000]; // then tried again after 5 s, doubling up to a minute (and on coming back to the tab)
const LIMITS = new Set(["too_many_connections", "too_many_spectators", "rate_limited"]);
const CHAT_ERRORS = new Set(["chat_too_fast", "bad_chat"]); // refusals of a chat line

export function connect() {
  const token = state.rejoin ? state.rejoin.token : localStorage.getItem(tokenKey);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  state.socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(code)}`);
  const mine = state.socket;
  mine.addEventListener("open", () => {
    mine.send(JSON.stringify(token ? { type: "hello", token } : { type: "hello" }));
  });
  mine.addEventListener("message", (event) => {
    if (state.socket === mine) receive(JSON.parse(event.data)); // an old socket's news is not this page's any more
  });
  mine.addEventListener("close", (event) => {
    if (state.socket !== mine) return;
    setOnline(false);
    if (event.code === 4403 && state.rejoin) {
      if (state.rejoin.previous) localStorage.setItem(tokenKey, state.rejoin.previous);
      state.rejoin = null;
      showAlert(t("alert.rejoin_no_seat", { code }));
      connect();
      return;
    }
    if (event.code === 4403 && localStorage.getItem(tokenKey)) {
      localStorage.removeItem(tokenKey);
      showAlert(t("alert.token_refused"));
      connect();
      return;
    }
    if (event.code === 4404) {
      $("conn").hidden = true;
      showAlert(t("alert.no_table", { code }));
      return;
    }
    if (event.code === LIMIT_CLOSE) {
      refused();
      return;
    }
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, MAX_RETRY_MS);
  });
}

/** Refused for a limit (its error came just before the close): the server's words stay readable
 * (no "reconnecting" over them), the header names the table's rules all the same, and the page
 * tries again after a growing wait, or at once when its person comes back to the tab (having
 * closed another, say); once let in, the alert goes. */
function refused() {
  $("conn").hidden = true;
  showAlert(state.limited ? sentence(serverWords(state.limited)) : t("error.too_many_connections"));
  state.staleAlert = true;
  if (!state.table) {
    api(`/api/tables/${encodeURIComponent(code)}`)
      .then((answer) => {
        if (!state.table) $("describe").textContent = describeRules(answer.table);
      })
      .catch(() => {});
  }
  const again = () => {
    clearTimeout(timer);
    removeEventListener("focus", again);
    if (state.socket && state.socket.readyState === WebSocket.CLOSED) connect();
  };
  const wait = state.limitRetry || LIMIT_RETRY_MS[0];
  const timer = setTimeout(again, wait);
  addEventListener("focus", again);
  state.limitRetry = Math.min(wait * 2, LIMIT_RETRY_MS[1]);
}

function setOnline(yes) {
  state.online = yes;
  document.body.dataset.connected = yes ? "yes" : "no";
  $("conn").hidden = yes;
  if (yes && state.staleAlert) showAlert("");
  if (yes) state.staleAlert = false;
  if (state.table) render();
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      state.retry = 300; // let in: the next loss of the connection is retried at once again
      state.limitRetry = 0;
      state.limited = null;
      state.mySeat = message.seat;
      fairness.noteSeat(code, state.mySeat);
      document.body.dataset.role = message.role;
      if (state.rejoin) {
        if (message.role === "player") {
          localStorage.setItem(tokenKey, state.rejoin.token);
          toast(t("toast.welcome_back"));
        }
        state.rejoin = null;
      }
      setOnline(true);
      break;
    case "state":
      state.table = message.table;
      fairness.noteCommitment(code, state.table);
      sendSeed();
      if (holds(message)) {
        state.held = message; // the next deal shows when the showdown is closed
        render();
      } else if (state.showdown && !ended() && message.view?.phase !== "over") {
        state.held = message; // the next round began without this reader: close, and show it
        closeShowdown(false);
      } else applyState(message);
      break;
    case "history":
      catchUp(message);
      break;
    case "table":
      state.table = message.table;
      fairness.noteCommitment(code, state.table);
      render();
      break;
    case "deal":
      fairnessDeal(message);
      break;
    case "round_end":
      roundEnd(message);
      fairnessRoundEnd(message);
      break;
    case "reveal":
      fairnessReveal(message);
      break;
    case "chat":
      hearChat(message, true);
      break;
    case "rematch":
      state.table = state.table ? { ...state.table, rematch: message.code } : state.table;
      renderOver();
      announce(t("announce.rematch"));
      break;
    case "ack":
      if (!state.staleAlert) showAlert("");
      break;
    case "hint":
      if (message.seq === state.seq) $("hint-text").textContent = hintWords(message);
      break;
    case "error":
      if (LIMITS.has(message.code)) state.limited = message; // the close that follows says it again, and waits
      if (CHAT_ERRORS.has(message.code)) {
        // said under the chat box, where it was asked, and gone with the next line
        $("chat-note").textContent = sentence(serverWords(message)); // the line stays in its box, to mend
        break;
      }
      state.sentFor = null; // refused: the player may try another move
      showAlert(message.refusal ? refusalWords(message.refusal, names()) : serverWords(message));
      $("hint-text").textContent = "";
      break;
    default:
      break;
  }
}

/** Once seated at a table whose game has not started: send this browser's client seed (the
 * deck then depends on it too); a seat given its seed with the join has it already. */
function sendSeed() {
  if (state.mySeat === null || !state.table || state.table.status !== "open" || state.seedSent === state.socket) return;
  const seat = state.table.seats[state.mySeat];
  if (!seat || seat.seeded) return;
  state.seedSent = state.socket;
  send({ type: "seed", seed: fairness.clientSeed(code) });
}
