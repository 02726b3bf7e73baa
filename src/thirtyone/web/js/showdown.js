// The showdown: every hand face up at its seat with its value after a round, and the round's
// result in the room the seats leave in the middle, until its person closes it (button, Enter or
// Escape); the next round's state waits meanwhile, and the server's bots and timer wait for it
// (docs/server-protocol.md, "The showdown's pace").
import { endWords, h, lossWords, namesList } from "./common.js";
import { list, num, t, tn } from "./i18n.js";
import { renderMiddle, renderStatus } from "./middle.js";
import { render } from "./render.js";
import { banner } from "./flights.js";
import { applyState } from "./happened.js";
import { send } from "./socket.js";
import { $, ended, motion, name, names, state } from "./state.js";
import { blitzWords } from "./words.js";

/** The showdown of ``result`` (a round's public result): every hand face up at its seat and the
 * result in the middle, until the reader closes it (closeShowdown). Meanwhile the table stays as
 * the round left it: the next round's state waits in ``state.held``. */
export function startShowdown(result) {
  state.showdown = { round: result.round, result };
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
  hideResult();
  const held = state.held;
  state.held = null;
  if (held) applyState(held);
  else render();
}

/** Whether the state ``message`` waits for the open showdown to close: one of the next round,
 * while nobody has moved in it (a move means the server stopped waiting for this reader). */
export function holds(message) {
  if (!state.showdown || !message.view || message.view.phase === "over" || message.table.status !== "playing")
    return false;
  return !(message.view.history || []).some((event) => event.type === "acted");
}

/** A round's result in a few lines for the middle of the table (the hands are at the seats; every
 * detail is in the scores panel): how it ended, who lost how many lives and why, who is out. */
function resultSummary(result) {
  const who = names();
  const losses = result.losses.map((loss) =>
    h(
      "li",
      {},
      h(
        "strong",
        {},
        tn(loss.seat === state.mySeat ? "summary.loses_you" : "summary.loses", loss.lives, { who: who[loss.seat] }),
      ),
      t("summary.why", { why: lossWords(loss, result, who) }),
      " ",
      h("span", { class: "rule", title: t("summary.rule", { rule: loss.rule }) }, `(${loss.rule})`),
    ),
  );
  if (!losses.length) losses.push(h("li", {}, t("result.nobody")));
  const how =
    result.knocker === null
      ? endWords(result)
      : t(result.end === "throw_down" ? "result.with_thrower" : "result.with_knocker", {
          text: endWords(result),
          who: who[result.knocker],
        });
  return [
    h("p", { class: "how" }, how),
    h("ul", { class: "losses" }, losses),
    result.eliminated.length
      ? h("p", { class: "out-line" }, t("result.eliminated", { who: namesList(result.eliminated, who) }))
      : null,
  ].filter(Boolean);
}

export function showResult(result) {
  state.resultShown = result.round;
  $("result-heading").textContent = t("result.heading", { round: num(result.round) });
  $("result").dataset.kind = result.blitz.length ? "blitz" : ""; // its moment: the panel says it first
  $("result-body").replaceChildren(
    ...(result.blitz.length ? [h("p", { class: "blitz-line" }, blitzWords(result))] : []),
    ...resultSummary(result),
  );
  $("result").hidden = false;
  renderShowdown();
  renderMiddle(ended());
  renderStatus(ended());
}

export function hideResult() {
  $("result").hidden = true;
  state.resultShown = null;
  if (!state.table) return;
  renderShowdown();
  renderMiddle(ended());
  renderStatus(ended());
}

/** The result panel's foot: while the showdown is open (the game goes on), the button that closes
 * it, and who else is still reading it; otherwise the panel's own Hide. */
export function renderShowdown() {
  const open = Boolean(state.showdown) && !ended() && state.resultShown === state.showdown.round;
  $("showdown-foot").hidden = !open;
  $("result-close").hidden = open;
  const waiting = open ? readers().filter((seat) => seat !== state.mySeat) : [];
  $("showdown-waiting").hidden = !waiting.length;
  $("showdown-waiting").textContent = waiting.length
    ? tn("showdown.waiting", waiting.length, { who: list(waiting.map(name)) })
    : "";
}

/** The seats of the people the table still waits for to close this showdown (TABLE.showdown). */
function readers() {
  const wait = state.table?.showdown;
  return wait && wait.round === state.showdown?.round ? wait.waiting : [];
}
