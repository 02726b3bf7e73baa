// What happened: every round's events as the states and round ends bring them, who played each
// action (player, bot, timer), said in the live region once, logged, and shown at the seats.
import { play as sound } from "./sound.js";
import { hearChat, renderChat } from "./chat.js";
import { animate, snapshot } from "./flights.js";
import { announce } from "./notices.js";
import { render } from "./render.js";
import { hideResult } from "./result.js";
import { renderLog, renderScores } from "./side.js";
import { announced, chatLines, ended, roundOf, rounds, sourceOf, state } from "./state.js";
import { eventWords, turnWords } from "./words.js";

/** Take a round's events as far as they go; returns the new ones, each {round, index, event}. */
function absorb(number, events) {
  const entry = roundOf(number);
  const fresh = [];
  for (let index = entry.events.length; index < events.length; index++)
    fresh.push({ round: number, index, event: events[index] });
  if (events.length > entry.events.length) entry.events = events.slice();
  for (const item of fresh) if (item.event.type === "round_ended" && !entry.result) entry.result = item.event.result;
  return fresh;
}

/** The source (player, bot, timer) of the newest acted event: who played the action of ``last``. */
function noteSource() {
  if (!state.lastPlayed || state.lastPlayed.seq !== state.seq) return;
  const numbers = [...rounds.keys()].sort((a, b) => b - a);
  for (const number of numbers) {
    const entry = rounds.get(number);
    const acted = entry.events.filter((e) => e.type === "acted").length;
    if (acted) {
      entry.sources[acted - 1] = state.lastPlayed.source;
      return;
    }
  }
}

function say(fresh) {
  const lines = [];
  for (const item of fresh) {
    const key = `${item.round}:${item.index}`;
    if (announced.has(key)) continue;
    announced.add(key);
    const line = eventWords(item.event, sourceOf(item.round, item.index));
    if (line) lines.push(line);
  }
  announce(...lines);
}

function silently(fresh) {
  for (const item of fresh) announced.add(`${item.round}:${item.index}`);
}

/** The catch-up of a page that opens mid-game: every round so far, and the chat. Logged, not read out. */
export function catchUp(message) {
  for (const rnd of message.rounds || []) {
    silently(absorb(rnd.round, rnd.events || []));
    const entry = roundOf(rnd.round);
    (rnd.sources || []).forEach((source, i) => {
      entry.sources[i] = source;
    });
  }
  chatLines.length = 0;
  for (const line of message.chat || []) hearChat(line, false);
  renderLog();
  renderScores();
  renderChat();
  if (state.view && state.view.phase === "over") render();
}

/** Take the server's ``state`` message: its seq (what an action is sent for), who played its last
 * action, and its view. */
export function applyState(message) {
  state.seq = message.seq;
  state.lastPlayed = message.last || null;
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.round = message.view ? String(message.view.round) : "";
  newState(message.view);
}

function newState(next) {
  const first = state.view === null && !rounds.size;
  const before = snapshot();
  state.view = next;
  let fresh = [];
  if (state.view) {
    fresh = absorb(state.view.round, state.view.history || []);
    noteSource();
    if (first) silently(fresh);
    else say(fresh);
    const turn = turnWords();
    if (turn && !state.wasMyTurn) {
      announce(turn);
      if (!first) sound("turn");
    }
    state.wasMyTurn = Boolean(turn);
    if (
      state.resultShown !== null &&
      state.view.round > state.resultShown &&
      fresh.some((item) => item.event.type === "acted") &&
      !ended() &&
      !state.showdown
    )
      hideResult();
    if (!state.lastResultRound && state.view.last_result) state.lastResultRound = state.view.last_result.round;
  }
  render();
  if (!first) animate(fresh, before);
  renderLog();
  renderScores();
}

/** A ``round_end`` message's events and result, said and shown: the move that ended the round is in
 * no state (the next state is the next round's). Its showdown comes next (showdown.js). */
export function takeRoundEnd(message) {
  const before = snapshot();
  const history = Array.isArray(message.history) ? message.history : [];
  const fresh = absorb(message.round, history);
  const entry = roundOf(message.round);
  if (message.result) entry.result = message.result;
  say(fresh);
  animate(
    fresh.filter((item) => item.event.type !== "round_ended" && item.event.type !== "game_over"),
    before,
  );
  if (message.result) state.lastResultRound = message.result.round;
}
