// The showdown: every hand face up at its seat with its value after a round, and the round's
// result in the middle of the table.
import { endWords, h, lossWords, namesList } from "./common.js";
import { num, t, tn } from "./i18n.js";
import { renderStatus } from "./middle.js";
import { render } from "./render.js";
import { $, ended, motion, names, state } from "./state.js";

export const SHOWDOWN_MS = 3600; // how long every hand lies face up at its seat after a round

export function startShowdown(result) {
  state.showdown = { round: result.round, result };
  showResult(result);
  clearTimeout(state.showdownTimer);
  state.showdownTimer = setTimeout(endShowdown, SHOWDOWN_MS);
  render();
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
    await motion.wait(SHOWDOWN_MS - 600, 1);
  });
}

export function endShowdown() {
  if (!state.showdown) return;
  state.showdown = null;
  clearTimeout(state.showdownTimer);
  if (!ended()) hideResult();
  if (state.table) render();
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
  $("result-body").replaceChildren(...resultSummary(result));
  $("result").hidden = false;
  renderStatus(ended());
}

export function hideResult() {
  $("result").hidden = true;
  state.resultShown = null;
  if (state.table) renderStatus(ended());
}
