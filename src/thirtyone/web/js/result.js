// The round's result in the room the seats leave in the middle: how it ended, who lost how many
// lives and why, who is out; its foot (the showdown's close button and whom the table still waits
// for, or the panel's own Hide), and the chip that brings the last round's result back.
import { endWords, h, lossWords, namesList } from "./common.js";
import { list, num, t, tn } from "./i18n.js";
import { renderMiddle, renderStatus } from "./middle.js";
import { $, ended, name, names, roundOf, state } from "./state.js";
import { blitzWords, shortResult } from "./words.js";

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
      t("summary.why", { why: lossWords(loss, who) }),
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
  renderLastResult(ended());
}

export function hideResult() {
  $("result").hidden = true;
  state.resultShown = null;
  if (!state.table) return;
  renderShowdown();
  renderMiddle(ended());
  renderStatus(ended());
  renderLastResult(ended());
}

/** The chip under the status line that shows the last round's result again, while no result lies
 * in the middle (``over``: the game has ended). */
export function renderLastResult(over) {
  const chip = state.lastResultRound && !over && !state.showdown && $("result").hidden ? state.lastResultRound : null;
  let button = $("last-result");
  if (chip && !button) {
    button = h("button", {
      type: "button",
      id: "last-result",
      class: "last-result",
      onclick: () => {
        const r = roundOf(state.lastResultRound).result;
        if (r) showResult(r);
      },
    });
    $("middle").append(button);
  }
  if (button) {
    button.hidden = !chip;
    if (chip)
      button.textContent = t("status.last_result", { round: num(chip), text: shortResult(roundOf(chip).result) });
  }
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
