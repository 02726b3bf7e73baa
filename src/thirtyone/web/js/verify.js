// Deals no one can choose (fairness.js): the page keeps each commitment it saw and checks every
// revealed round itself; what it saw can be downloaded for `thirtyone verify RECORD --seen FILE`.
// After a 31 a round's deck and salt wait for the game's end (R5.7): that round is said to wait,
// and the `reveal` message at the end brings it (and every round after it) to be checked then.
import { h } from "./common.js";
import * as fairness from "./fairness.js";
import { list, num, tn } from "./i18n.js";
import { $, code } from "./state.js";

const shown = { round: null, reveal: null }; // the newest round's check, and the game's end's

export function fairnessDeal(message) {
  fairness.noteDeal(code, message);
  $("commitment").textContent = message.commitment;
}

/** A `round_end`: check its deal (or say that it waits for the game's end). */
export async function fairnessRoundEnd(message) {
  shown.round = await fairness.checkRound(code, message);
  renderVerify();
}

/** A `reveal` (the game's end): check every round that waited for it. */
export async function fairnessReveal(message) {
  shown.reveal = await fairness.checkReveal(code, message);
  renderVerify();
}

/** The checks in words where the page shows them (the Table panel's fair deal). */
function renderVerify() {
  const verify = $("verify");
  const lines = [];
  const check = shown.round;
  if (check?.state === "waits") {
    const waiting = fairness.waitingRounds(code);
    lines.push(h("span", { class: "waits" }, tn("fair.waits", waiting.length, { rounds: list(waiting.map(num)) })));
  } else if (check) lines.push(check.ok ? h("span", { class: "verified" }, check.text) : warning(check.text));
  const reveal = shown.reveal;
  if (reveal?.rounds.length) {
    const mine = reveal.rounds.some((round) => round.mine);
    if (reveal.ok)
      lines.push(
        h(
          "span",
          { class: "verified" },
          tn(mine ? "fair.revealed_mine" : "fair.revealed", reveal.verified.length, {
            rounds: list(reveal.verified.map(num)),
          }),
        ),
      );
    else for (const round of reveal.rounds.filter((one) => !one.ok)) lines.push(warning(round.text));
  }
  verify.replaceChildren(...lines.flatMap((line, i) => (i ? [h("br"), line] : [line])));
  const failed = (check && check.state === "failed") || reveal?.ok === false;
  verify.dataset.state = failed ? "failed" : check?.state === "waits" && !reveal ? "waits" : "verified";
  const download = $("seen-download");
  if (download.href.startsWith("blob:")) URL.revokeObjectURL(download.href);
  download.href = URL.createObjectURL(new Blob([fairness.seenFile(code)], { type: "application/json" }));
  download.download = fairness.seenFileName(code);
  download.hidden = false;
}

function warning(text) {
  return h("strong", { class: "warning" }, text);
}
