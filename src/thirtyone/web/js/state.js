// The table page's one state object and what every part of the page asks of it: who this page
// is (the table's code, its seat), the server's latest table and view, what happened so far
// (every round's events and result), and the names of the seats as the reader reads them.
import { num, t } from "./i18n.js";
import { Motion } from "./motion.js";
import { graceWord as presetGrace } from "./common.js";

export const code = document.getElementById("code").textContent.trim(); // as the server wrote it (normalized)

export const tokenKey = `thirtyone.token.${code}`;

export const hostKey = `thirtyone.host.${code}`; // the lobby keeps the host token of a table created here

export const muteKey = `thirtyone.mute.${code}`;

export const $ = (id) => document.getElementById(id);

/** Everything that changes as the table goes on (one object: every module reads and sets its fields). */
export const state = {
  socket: null,
  retry: 300, // ms before reconnecting; doubles up to MAX_RETRY_MS, from 300 again once welcomed
  limitRetry: 0, // ms before trying again after a refusal for a limit (0: the first wait, connection.js)
  limited: null, // the error of that refusal, said again when its close comes
  online: false, // welcomed on an open socket
  staleAlert: false, // the alert says "not connected": cleared once connected again
  table: null,
  view: null,
  seq: null,
  mySeat: null,
  lastPlayed: null, // the newest stored action's {seq, seat, source} (who played it: player, bot, timer)
  presets: null,
  picks: { seq: null, hand: new Set(), widow: new Set() }, // an exchange being picked (widow mode)
  sentFor: null, // the seq an action was sent for: one action per state (a double tap plays once)
  focusedOnce: false, // the first move got the focus when the page opened on your turn
  wasMyTurn: false,
  showdown: null, // {round, result}: every hand face up at its seat after a round, until the reader closes it
  held: null, // the state message that waits for the showdown to close (the next round's)
  resultShown: null, // the round whose result the centre panel shows
  lastResultRound: null,
  rematchBy: null, // who asked for the rematch (heard live)
  rejoin: null, // {token, previous}: a rejoin link being tried
  drag: null, // a card being dragged
  suppressClick: false, // a drag just ended: its click is not a tap (clickAfterDrag)
  panel: "log",
  sideOpen: false,
  unread: 0,
  layoutKey: "",
  seedSent: null, // the socket this page's client seed was sent on (once seated, before the game starts)
  handKey: "",
  actionsKey: "",
  paint: 0, // bumped when the cards are drawn anew (the four-colour deck)
  standingsKey: "",
  scoresKey: "", // what the scores panel shows (drawn anew only when it changes)
};

export const rounds = new Map(); // round -> {events, sources, result}

export const announced = new Set(); // "round:index" of every event already said or logged

export const chatLines = [];

export const mutes = new Set(JSON.parse(localStorage.getItem(muteKey) || "[]"));

export const motion = new Motion($("flyers"));

/** The calls that go up the page's modules, filled by table.js at start: a part asks through them
 * for what a module above it draws, so that every import points down (table.js sits on top). */
export const hooks = {
  render: () => {}, // the whole table drawn anew (render.js)
  renderPicks: () => {}, // what shows an exchange's picks drawn anew: the hand, its moves, the widow (render.js)
};

/** Whether a click is the one that follows a drag's release (it is then used up): a card's click
 * plays or picks it only when it is not. */
export function clickAfterDrag() {
  if (!state.suppressClick) return false;
  state.suppressClick = false;
  return true;
}

export function name(seat) {
  if (seat === state.mySeat) return t("seat.you");
  const s = state.table?.seats[seat];
  if (!s) return t("seat.number", { n: num(seat + 1) });
  if (s.name) return s.name;
  return s.kind === "bot" ? t("seat.bot", { n: num(seat + 1) }) : t("seat.free", { n: num(seat + 1) });
}

export function names() {
  return state.table ? state.table.seats.map((s) => name(s.seat)) : [];
}

export function graceWord() {
  return presetGrace(state.table?.preset);
}

export function myTurn() {
  return Boolean(
    state.view?.is_my_turn &&
      state.table &&
      state.table.status === "playing" &&
      state.view.phase !== "over" &&
      !state.showdown, // the round is over for the reader until the showdown is closed
  );
}

export function ended() {
  return (
    Boolean(state.table) &&
    (state.table.status === "finished" ||
      state.table.status === "closed" ||
      Boolean(state.view && state.view.phase === "over"))
  );
}

export function roundOf(number) {
  let entry = rounds.get(number);
  if (!entry) {
    entry = { events: [], sources: [], result: null };
    rounds.set(number, entry);
  }
  return entry;
}

/** Who played the event ``index`` of round ``number`` (player, bot, timer), if it is an acted one. */
export function sourceOf(number, index) {
  const entry = rounds.get(number);
  const acted = entry.events.slice(0, index + 1).filter((e) => e.type === "acted").length;
  return entry.events[index].type === "acted" ? entry.sources[acted - 1] : null;
}

/** The moves of ``kind`` the view lists as legal (view.legal: each {id, text, kind, source, card,
 * give, take}), those whose other data match ``fields`` ({source: "stock"}); none when it is not
 * this seat's move. */
export function legalMoves(kind, fields = {}) {
  return (state.view?.legal || []).filter(
    (move) => move.kind === kind && Object.entries(fields).every(([key, value]) => move[key] === value),
  );
}

/** The first of legalMoves(kind, fields), or null. */
export function legalMove(kind, fields = {}) {
  return legalMoves(kind, fields)[0] || null;
}
