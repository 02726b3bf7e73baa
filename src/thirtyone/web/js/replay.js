// The replay page: a finished game's record (GET /api/tables/CODE/record.json), step by step,
// every hand open.
import { actedWords, api, cardName, cardView, drawMiddle, h, livesText, points, resultView, showAlert } from "./common.js";

const code = document.getElementById("code").textContent.trim(); // as the server wrote it (normalized)
const $ = (id) => document.getElementById(id);
let record = null;
let index = 0;

function show(next) {
  const steps = record.steps;
  index = Math.max(0, Math.min(steps.length - 1, next));
  const step = steps[index];
  const view = step.view;
  $("position").textContent = `Step ${index + 1} of ${steps.length}, round ${step.round}`;
  $("step-text").textContent = step.action === null
    ? `Round 1 is dealt; ${record.seats[view.dealer]} deals.`
    : actedWords(record.seats[step.seat], step.action, null) + ".";
  $("seats").replaceChildren(...record.seats.map((seatName, seat) => {
    const status = view.seats[seat];
    const hand = step.hands[seat] || [];
    const current = view.current_seat === seat && view.phase !== "over";
    return h("li", { class: `seat${current ? " current" : ""}${status.out ? " out" : ""}`, "data-seat": seat },
      h("h3", { title: seatName }, current ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ ") : null, seatName),
      h("p", { class: "lives" }, `${livesText(status, record.preset)}${current ? " · to move" : ""}${view.dealer === seat ? " · dealer" : ""}${view.knocker === seat ? " · knocked" : ""}`),
      h("div", { class: "hand small", "aria-label": hand.length ? `Hand: ${hand.map(cardName).join(", ")}` : "No cards" }, hand.map((card) => cardView(card))),
      h("p", { class: "muted" }, step.values[seat] !== null ? `${points(step.values[seat])} points` : ""));
  }));
  drawMiddle(view, { stock: $("stock"), discard: $("discard"), widow: $("widow") });
  const results = step.results || (step.ended ? [step.ended] : []); // two when a deal's 31 followed (R5.2)
  $("result").hidden = !results.length;
  if (results.length) $("result-body").replaceChildren(...results.flatMap((result) => resultView(result, record.seats)));
  const last = index === steps.length - 1;
  $("winner").textContent = last && record.winner !== null ? `${record.seats[record.winner]} won the game.` : "";
  $("first").disabled = $("prev").disabled = index === 0;
  $("next").disabled = $("last").disabled = last;
}

async function start() {
  try {
    record = await api(`/api/tables/${encodeURIComponent(code)}/record.json`);
  } catch (error) {
    // not_over: the game goes on, its decks are secret until it ends: no steps, no record yet
    if (error.code === "not_over") $("waiting").hidden = false;
    else showAlert(`No replay: ${error.message}`);
    return;
  }
  $("controls").hidden = false;
  $("download").hidden = false;
  $("seats-section").hidden = false; // shown only once there is a game to step through
  $("middle-section").hidden = false;
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(index - 1));
  $("next").addEventListener("click", () => show(index + 1));
  $("last").addEventListener("click", () => show(record.steps.length - 1));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") show(index + 1);
    else if (event.key === "ArrowLeft") show(index - 1);
  });
  show(0);
}

start();
