// The replay page: a finished game's record (GET /api/tables/CODE/record.json), step by step,
// every hand open, and the expert's review of it (review.js), whose marks jump to their positions.
import {
  api,
  cardName,
  cardView,
  drawMiddle,
  h,
  livesText,
  pointsWords,
  resultView,
  saidWords,
  showAlert,
} from "./common.js";
import { describeRules } from "./howto.js";
import { list, num, t, translatePage } from "./i18n.js";
import { reviewPanel } from "./review.js";

translatePage();

const code = document.getElementById("code").textContent.trim(); // as the server wrote it (normalized)
const $ = (id) => document.getElementById(id);
let record = null;
let index = 0;
let review = null;

function show(next) {
  const steps = record.steps;
  index = Math.max(0, Math.min(steps.length - 1, next));
  const step = steps[index];
  const view = step.view;
  $("position").textContent = t("replay.position", {
    step: num(index + 1),
    steps: num(steps.length),
    round: num(step.round),
  });
  $("step-text").textContent =
    step.kind === null
      ? t("replay.dealt", { who: record.seats[view.dealer] })
      : t("replay.step", { text: saidWords(step, (seat) => record.seats[seat]) });
  $("seats").replaceChildren(
    ...record.seats.map((seatName, seat) => {
      const status = view.seats[seat];
      const hand = step.hands[seat] || [];
      const current = view.current_seat === seat && view.phase !== "over";
      return h(
        "li",
        { class: `seat${current ? " current" : ""}${status.out ? " out" : ""}`, "data-seat": seat },
        h(
          "h3",
          { title: seatName },
          current ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ ") : null,
          seatName,
        ),
        h(
          "p",
          { class: "lives" },
          [
            livesText(status, record.preset),
            current ? t("chip.to_move") : null,
            view.dealer === seat ? t("seat.dealer") : null,
            view.knocker === seat ? t("replay.knocked") : null,
          ]
            .filter(Boolean)
            .join(" · "),
        ),
        h(
          "div",
          {
            class: "hand small",
            "aria-label": hand.length ? t("replay.hand", { cards: list(hand.map(cardName)) }) : t("replay.no_cards"),
          },
          hand.map((card) => cardView(card)),
        ),
        h("p", { class: "muted" }, step.values[seat] !== null ? pointsWords(step.values[seat]) : ""),
      );
    }),
  );
  drawMiddle(view, { stock: $("stock"), discard: $("discard"), widow: $("widow") });
  const results = step.results || (step.ended ? [step.ended] : []); // two when a deal's 31 followed (R5.2)
  $("result").hidden = !results.length;
  if (results.length)
    $("result-body").replaceChildren(...results.flatMap((result) => resultView(result, record.seats)));
  const last = index === steps.length - 1;
  $("winner").textContent = last && record.winner !== null ? t("replay.won", { who: record.seats[record.winner] }) : "";
  $("first").disabled = $("prev").disabled = index === 0;
  $("next").disabled = $("last").disabled = last;
  review?.showing(index);
}

async function start() {
  try {
    record = await api(`/api/tables/${encodeURIComponent(code)}/record.json`);
  } catch (error) {
    // not_over: the game goes on, its decks are secret until it ends: no steps, no record yet
    if (error.code === "not_over") $("waiting").hidden = false;
    else showAlert(t("replay.failed", { error: error.message }));
    return;
  }
  $("describe").textContent = describeRules(record); // "Scat, 2 lives", as the table says it
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
  review = reviewPanel(code, record, (step) => {
    show(step);
    $("position").scrollIntoView({ block: "nearest" });
  });
}

start();
