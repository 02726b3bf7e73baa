// Deals no one can choose (fairness.js): the page keeps each commitment it saw and checks every
// revealed round itself; what it saw can be downloaded for `thirtyone verify RECORD --seen FILE`.
import { h } from "./common.js";
import * as fairness from "./fairness.js";
import { $, code } from "./state.js";

// Deals no one can choose (fairness.js): the page keeps each commitment it saw and checks every
// revealed round itself; what it saw can be downloaded for `thirtyone verify RECORD --seen FILE`.
export function fairnessDeal(message) {
  fairness.noteDeal(code, message);
  $("commitment").textContent = message.commitment;
}

export async function fairnessRoundEnd(message) {
  const verify = $("verify");
  const { ok, text } = await fairness.checkRound(code, message);
  verify.replaceChildren(ok ? h("span", { class: "verified" }, text) : h("strong", { class: "warning" }, text));
  verify.dataset.state = ok ? "verified" : "failed";
  const download = $("seen-download");
  if (download.href.startsWith("blob:")) URL.revokeObjectURL(download.href);
  download.href = URL.createObjectURL(new Blob([fairness.seenFile(code)], { type: "application/json" }));
  download.download = fairness.seenFileName(code);
  download.hidden = false;
}
