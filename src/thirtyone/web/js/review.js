// The review of a finished game on the replay page (GET /api/tables/CODE/review, made once by the
// server; by the judge, or by the expert where the judge does not value it, which the line above the
// legend says): a seat chooser (the seat this browser held first), a strip with one mark per
// decision of that seat, coloured by what it gave away (none, inaccuracy, mistake, blunder: the
// server marks them by thirtyone.bots.review.THRESHOLDS), each a button that shows the position
// before that decision, the seat's summary, its costliest decisions in a sentence each (a button
// too: "… gave away 0.41 lives; better: …", and under it the rules that explain it), and the
// moves' values at the position shown, with those rules: the terminal's words, from the same
// catalog keys. While the server makes the review the page says so and asks again. Everything is
// written from the review's data (a move's kind, source, card, give, take), never from notation.
import { actionWords, api, h, points } from "./common.js";
import { seenSeat } from "./fairness.js";
import { lang, num, t, tn } from "./i18n.js";

const MARKS = ["inaccuracy", "mistake", "blunder"];
const $ = (id) => document.getElementById(id);

const signed = new Intl.NumberFormat(lang, {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: "always",
});
const plain = new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const percent = new Intl.NumberFormat(lang, { style: "percent" });

/** A value in lives with its sign, kept left to right in a right-to-left sentence: "−0.31". */
function value(lives) {
  return `\u2066${signed.format(lives).replace("-", "−")}\u2069`;
}

/** Lives given away (0 or more): "1.23". */
function lives(amount) {
  return plain.format(amount);
}

/**
 * The review panel of the replay of table `code` (`record`: its record.json). `jump(step)` shows
 * the replay's step; the replay calls `showing(step)` for every step it shows. Returns {showing}.
 */
export function reviewPanel(code, record, jump) {
  const names = record.seats;
  const mine = seenSeat(code);
  let review = null;
  let seat = null;
  let shown = 0;

  /** What the table looked like before decision `step`: the pile's card and the widow its move names. */
  const viewAt = (step) => record.steps[step]?.view || null;
  const moveWords = (move, step) => actionWords(move, viewAt(step));

  function summaryWords(summary) {
    const who = names[summary.seat];
    if (!summary.decisions) return t("review.no_decisions", { who });
    const line = t("review.summary", {
      who,
      decisions: tn("review.decisions", summary.decisions),
      accuracy: percent.format(summary.accuracy),
      given: lives(summary.given),
      per_round: lives(summary.per_round || 0),
    });
    return [line, ...MARKS.map((mark) => tn(`review.marks.${mark}`, summary.marks[mark]))].join(" · ");
  }

  function pointWords(decision) {
    const said = {
      round: num(decision.round),
      turn: num(decision.turn),
      played: moveWords(decision.played_move, decision.step),
    };
    if (!decision.mark) return t("review.point", said);
    return t("review.point_marked", { ...said, mark: t(`review.mark.${decision.mark}`), given: lives(decision.given) });
  }

  /** A rule's reason, as the terminal says it: "why: a 31 now costs Ada one life, … (R5.3, R6.5)". */
  function reasonWords(reason) {
    const said = {};
    for (const [name, amount] of Object.entries(reason.values)) {
      said[name] = name === "knocker" ? names[amount] : points(amount);
    }
    return `${t("review.why")} ${t("review.why_line", { reason: t(reason.key, said), rules: reason.rules.join(", ") })}`;
  }

  function costlyWords(costly) {
    const said = {
      round: num(costly.round),
      turn: num(costly.turn),
      holding: points(costly.holding),
      played: moveWords(costly.played, costly.step),
      given: lives(costly.given),
      best: moveWords(costly.best, costly.step),
    };
    if (!costly.read) return t("review.costly_lives", said);
    const read = { who: names[costly.read.seat], suit: t(`suit.${costly.read.suit}`) };
    return t("review.costly_lives_read", { ...said, ...read });
  }

  function render() {
    const summary = review.summaries.find((one) => one.seat === seat);
    const decisions = review.decisions.filter((decision) => decision.seat === seat);
    $("review-summary").textContent = summaryWords(summary);
    const strip = $("review-strip");
    strip.setAttribute("aria-label", t("review.strip", { who: names[seat] }));
    let round = null;
    strip.replaceChildren(
      ...decisions.map((decision) => {
        const words = pointWords(decision);
        const newRound = round !== null && decision.round !== round;
        round = decision.round;
        const mark = h("button", {
          type: "button",
          class: `mark mark-${decision.mark || "none"}${newRound ? " new-round" : ""}`,
          "data-step": decision.step,
          "data-mark": decision.mark || "none",
          "aria-label": words,
          title: words,
        });
        mark.addEventListener("click", () => jump(decision.step));
        return mark;
      }),
    );
    const costliest = summary.costliest.map((costly) => {
      const go = h("button", { type: "button", class: "ghost costly", "data-step": costly.step }, costlyWords(costly));
      go.addEventListener("click", () => jump(costly.step));
      const why = costly.reasons.map((reason) => h("span", { class: "why muted small-text" }, reasonWords(reason)));
      return h("li", {}, go, ...why);
    });
    $("review-costliest").replaceChildren(
      ...(costliest.length ? costliest : [h("li", { class: "muted" }, t("review.none_costly"))]),
    );
    showing(shown);
  }

  /** The replay shows step `step`: mark the decision made there, and say its moves' values. */
  function showing(step) {
    shown = step;
    if (!review) return;
    for (const mark of $("review-strip").children) {
      if (Number(mark.dataset.step) === step) mark.setAttribute("aria-current", "step");
      else mark.removeAttribute("aria-current");
    }
    const decision = review.decisions.find((one) => one.seat === seat && one.step === step);
    if (!decision) {
      $("review-now").textContent = t("review.pick");
      $("review-now").dataset.mark = "";
      return;
    }
    // the move played is labelled where it stands among the values, with its mark
    const moves = decision.moves.map((move) => {
      const said = t("hint.move", { move: moveWords(move, step), value: value(move.value) });
      if (!move.chosen) return said;
      const mark = decision.mark ? t(`review.mark.${decision.mark}`) : null;
      return `▸\u00a0${mark ? t("review.played_marked", { move: said, mark }) : t("review.played", { move: said })}`;
    });
    const said = [t("review.now", { who: names[seat], moves: moves.join(" · ") })];
    $("review-now").replaceChildren(
      ...[...said, ...decision.reasons.map(reasonWords)].map((line) => h("span", { class: "line" }, line)),
    );
    $("review-now").dataset.mark = decision.mark || "none";
  }

  function legend() {
    const swatch = (mark, words) =>
      h("span", { class: "legend-item" }, h("span", { class: `swatch mark-${mark}`, "aria-hidden": "true" }), words);
    $("review-legend").replaceChildren(
      swatch("none", t("review.good")),
      ...MARKS.map((mark) => swatch(mark, t(`review.mark.${mark}`))),
    );
    // what valued the review: the judge (its values' measured error), or the expert's budget, after why not the judge
    const valuer =
      review.valuer === "judge"
        ? [t("review.budget_judge", { error: lives(review.judge_error) })]
        : [
            ...(review.fallback ? [t("review.fallback")] : []),
            tn("review.budget_worlds", review.budget.worlds, { seed: num(review.budget.seed) }),
          ];
    const about = [
      ...valuer,
      t("review.legend"),
      t("review.thresholds", {
        inaccuracy: lives(review.thresholds.inaccuracy),
        mistake: lives(review.thresholds.mistake),
        blunder: lives(review.thresholds.blunder),
      }),
    ];
    about.push(t("review.given_sum")); // 3.06 lives given away in a game of one life: why that can be
    if (!review.finished) about.push(t("review.unfinished"));
    $("review-about").replaceChildren(...about.map((line) => h("span", { class: "line" }, line))); // a line each
  }

  function ready(data) {
    review = data;
    const seats = [...review.seats].sort((a, b) => (b === mine) - (a === mine) || a - b); // this browser's first
    seat = seats[0];
    $("review-seat").replaceChildren(
      ...seats.map((one) =>
        h("option", { value: one }, one === mine ? t("review.seat_you", { who: names[one] }) : names[one]),
      ),
    );
    $("review-seat").addEventListener("change", (event) => {
      seat = Number(event.target.value);
      render();
    });
    legend();
    $("review-status").hidden = true;
    $("review-body").hidden = false;
    render();
  }

  const asked = Date.now();
  let waiting = true; // false while the page says why the last ask failed
  /** Say that the review is being prepared, and for how long already (it takes a while on a busy server). */
  function pending() {
    if (review) return;
    const seconds = Math.round((Date.now() - asked) / 1000);
    if (waiting)
      $("review-status").textContent =
        seconds < 2 ? t("review.pending") : t("review.pending_for", { seconds: num(seconds) });
    setTimeout(pending, 1000);
  }

  async function load() {
    let answer;
    try {
      answer = await api(`/api/tables/${encodeURIComponent(code)}/review`);
    } catch (error) {
      waiting = false;
      $("review-status").textContent = t("review.failed", { error: error.message });
      if (error.code === "busy")
        setTimeout(() => {
          waiting = true;
          load();
        }, 5000); // the worker stopped or was busy: ask again
      return;
    }
    if (answer.status !== "ready") {
      setTimeout(load, (answer.retry_after || 2) * 1000);
      return;
    }
    ready(answer.review);
  }

  $("review").hidden = false;
  pending();
  load();
  return { showing };
}
