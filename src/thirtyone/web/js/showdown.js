// The showdown: every hand face up at its seat with its value after a round, and the round's
// result in the middle (result.js), until its person closes it (button, Enter or Escape); the next
// round's state waits meanwhile, and the server's bots and timer wait for it
// (docs/server-protocol.md, "The showdown's pace").
import { play as sound } from "./sound.js";
import { banner, inOrder } from "./flights.js";
import { applyState, takeRoundEnd } from "./happened.js";
import { focusTable, render } from "./render.js";
import { hideResult, showResult } from "./result.js";
import { renderLog, renderScores } from "./side.js";
import { send } from "./socket.js";
import { $, ended, motion, roundOf, state } from "./state.js";

/** A round ended (``round_end``): its last events, then its showdown, and the log and the scores. */
export function roundEnd(message) {
  takeRoundEnd(message);
  if (message.result) startShowdown(message.result);
  renderLog();
  renderScores();
}

/** The hand this page's seat showed as round ``number`` ended, ``{cards, value}``, or null (a
 * spectator, a seat out of the round): its ``round_ended`` event as this seat saw it, which always
 * holds the seat's own hand (after a 31 the public result holds only the 31s, R5.1). The page's
 * view is older: the move that ended the round is in no state (the next state is the next
 * round's), so after a last turn's discard the view still holds four cards. */
function shownHand(number) {
  if (state.mySeat === null) return null;
  const ended = roundOf(number).events.find((event) => event.type === "round_ended");
  const cards = ended?.result?.hands?.[state.mySeat];
  return cards ? { cards, value: ended.result.values[state.mySeat] } : null;
}

/** The showdown of ``result`` (a round's public result): every hand face up at its seat and the
 * result in the middle, until the reader closes it (closeShowdown). Meanwhile the table stays as
 * the round left it: the next round's state waits in ``state.held``; the reader's hand is the one
 * it showed (``hand``, not the view's, which is from before the round's last move), and every
 * seat's lives are those the result left (result.remaining: the panel says the loss). */
function startShowdown(result) {
  state.showdown = { round: result.round, result, hand: shownHand(result.round) };
  banner("", "");
  showResult(result);
  render();
  const active = document.activeElement;
  if (!ended() && (!active || active === document.body || $("me").contains(active) || $("middle").contains(active)))
    $("showdown-close").focus({ preventScroll: true }); // the move just made is gone: the next thing to do
  motion.add(async (speed) => {
    const seats = [...document.querySelectorAll(".seat .seat-cards.shown")];
    await Promise.all(
      seats.map((row, i) =>
        Promise.all(
          [...row.querySelectorAll(".card")].map((card) =>
            motion.wait(i * 60, speed).then(() => motion.turnOver(card, speed)),
          ),
        ),
      ),
    );
    for (const loss of result.losses) {
      const lives = document.querySelector(`.seat[data-seat="${loss.seat}"] .lives`);
      if (lives) for (let i = 0; i < loss.lives; i++) motion.flyOff(lives.getBoundingClientRect(), speed);
    }
    for (const seat of result.blitz) motion.pulse(document.querySelector(`.seat[data-seat="${seat}"] .plate`), speed);
  });
  if (result.blitz.length) inOrder(() => sound("blitz"));
}

/** Close the showdown and show the state that waited meanwhile. ``told``: whether to tell the
 * server (``showdown_closed`` with the round that ended: it holds the bots and timers until every
 * person has read it); not when the next round began without this reader. */
export function closeShowdown(told = true) {
  const open = state.showdown;
  if (!open || ended()) return;
  state.showdown = null;
  motion.skip(); // what still turns over lands now
  if (told && state.mySeat !== null) send({ type: "showdown_closed", round: open.round });
  const focused = $("result").contains(document.activeElement); // hidden below: the focus goes back to the table
  hideResult();
  const held = state.held;
  state.held = null;
  if (held) applyState(held);
  else render();
  if (focused) focusTable();
}

/** Whether the state ``message`` waits for the open showdown to close: one of the next round,
 * while nobody has moved in it (a move means the server stopped waiting for this reader). */
export function holds(message) {
  if (!state.showdown || !message.view || message.view.phase === "over" || message.table.status !== "playing")
    return false;
  return !(message.view.history || []).some((event) => event.type === "acted");
}
