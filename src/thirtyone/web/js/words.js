// What the table says, from the game's data in the reader's language: events, results, hints,
// bubbles, the hand's value, why a knock is refused, the rules' names (never from the server's
// sentences: docs/architecture.md, "One narrator").
import { actionWords, points, pointsWords, pretty, prettyCards, saidWords } from "./common.js";
import { has, lang, list, num, t, tn } from "./i18n.js";
import { legalMove, myTurn, name, state } from "./state.js";

/** The server's `hint` message in words, a line each (.hint keeps line breaks): its moves (each its
 * data and its value in lives), "Hint: Take 9♥ from the pile +0.21 · …"; when the expert's move,
 * first, scores below another, that this is within the noise of its deals (as the terminal says);
 * when the expert weighed too few deals (`rough`), that the values are rough; its reads of the
 * opponents, "Ben probably collects hearts (72%)." */
export function hintWords({ moves, reads, deals, rough }) {
  const said = movesWords(moves);
  if (!said) return said;
  const lines = [said];
  const first = moves[0].value;
  if (typeof first === "number" && moves.some((move) => typeof move.value === "number" && move.value > first)) {
    lines.push(t("tui.hint.noise"));
  }
  if (rough === true) lines.push(t("hint.rough", { count: num(deals) }));
  if (Array.isArray(reads) && reads.length) {
    const percent = new Intl.NumberFormat(document.documentElement.lang, { style: "percent" });
    const told = reads.map((read) => {
      const words = { who: name(read.seat), suit: t(`suit.${read.suit}`), chance: percent.format(read.probability) };
      // a share of the deals the expert imagined, never a certainty: "probably (100%)" is said in words alone
      return t(words.chance === percent.format(1) ? "hint.read_sure" : "hint.read", words);
    });
    lines.push(t("hint.reads", { reads: told.join(" · ") }));
  }
  return lines.join("\n");
}

/** The hint's moves in words: "Hint: Take 9♥ from the pile +0.21 · Draw from the stock +0.05". */
function movesWords(moves) {
  if (!Array.isArray(moves) || !moves.length) return "";
  const signed = new Intl.NumberFormat(document.documentElement.lang, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: "always",
  });
  const shown = moves.slice(0, 5).map((move) =>
    move.value === null || move.value === undefined
      ? actionWords(move, state.view)
      : t("hint.move", {
          move: actionWords(move, state.view),
          value: `\u2066${signed.format(move.value).replace("-", "−")}\u2069`,
        }),
  );
  if (moves.length > 5) shown.push(tn("hint.more", moves.length - 5));
  const legend =
    moves[0].value === null || moves[0].value === undefined
      ? moves.length === 1
        ? "hint.only"
        : "hint.plain"
      : "hint.legend";
  return t(legend, { moves: shown.join(" · ") });
}

/** A server's error message for the reader: its code's words in their language (the server
 * writes English; an English page shows the server's own more detailed line). */
export function serverWords(message) {
  return lang !== "en" && message.code && has(`error.${message.code}`) ? t(`error.${message.code}`) : message.message;
}

/** A round's result as one line: "Blitz! Ben has 31. Round 2 is over. Ann loses 1 life (R6.5)". */
function resultLine(result) {
  const losses = result.losses.map((l) =>
    tn(l.seat === state.mySeat ? "line.loss_you" : "line.loss", l.lives, { who: name(l.seat), rule: l.rule }),
  );
  const over = losses.length
    ? t("line.round_over", { round: num(result.round), losses: list(losses) })
    : t("line.round_over_nobody", { round: num(result.round) });
  if (!result.blitz.length) return over;
  return t("line.blitz_then", { blitz: blitzWords(result), text: over });
}

/** A round's 31 (or three aces, R1.5) in words: "Blitz! Ben has 31." (empty when none). */
export function blitzWords(result) {
  if (!result.blitz.length) return "";
  const you = result.blitz.length === 1 && result.blitz[0] === state.mySeat;
  const key =
    result.values[result.blitz[0]] === 33
      ? you
        ? "line.blitz_aces_you"
        : "line.blitz_aces"
      : you
        ? "line.blitz_you"
        : "line.blitz";
  return t(key, { who: list(result.blitz.map(name)) });
}

/** One event in words (the log and the live region): the narrator's phrases the server sent with
 * it (``said``, thirtyone.narration), a round's end its result; null for one that is not told. */
export function eventWords(event, source) {
  if (event.type === "round_ended") return resultLine(event.result);
  const said = saidWords(event, name);
  if (!said) return null;
  return event.type === "acted" && source === "timer" ? t("line.by_timer", { text: said }) : said;
}

/** What an action looks like at the table, in two or three words (a bubble at the seat). */
export function bubbleWords(event) {
  switch (event.kind) {
    case "draw":
      return event.source === "pile"
        ? event.received?.[0]
          ? t("bubble.takes", { card: pretty(event.received[0]) })
          : t("bubble.takes_top")
        : t("bubble.draws");
    case "discard":
      return t("bubble.discards", { card: pretty(event.card) });
    case "knock":
      return t("bubble.knocks");
    case "pass":
      return t("bubble.passes");
    case "exchange":
      return t("bubble.swaps");
    case "exchange_all":
      return t("bubble.swaps_all");
    case "keep":
      return t("bubble.keeps");
    case "take_widow":
      return t("bubble.takes_other");
    case "look":
      return t("bubble.looks");
    case "throw_down":
      return t("bubble.throws");
    default:
      return String(event.kind);
  }
}

/** The hand's value in words: three cards have a value; four (after drawing) must lose one first. */
export function handWords() {
  if (!state.view.hand) return t("hand.face_down");
  if (state.view.hand.length !== 3 || state.view.hand_value === null) return t("hand.discard_one");
  return pointsWords(state.view.hand_value);
}

export function turnWords() {
  if (!myTurn()) return null;
  if (!state.view.hand) return t("turn.blind");
  return t("turn.hold", { cards: prettyCards(state.view.hand), value: handWords() });
}

/** Why this seat may not knock now (R6.1, R6.3, R6.4), from the table's rules and the view; null
 * when knocking is listed or not a choice at this point of the turn (after drawing, R4.1). */
export function knockRefusal() {
  if (!myTurn() || state.view.phase !== "turn" || legalMove("knock")) return null;
  if (legalMove("discard")) return null;
  const rules = state.table.rules;
  if (state.view.knocker !== null) return null; // the status says "last turns", the seat wears the knock (R6.1)
  const active = state.view.seats.filter((s) => !s.out).length;
  if (rules.knock_from_round === 2 && state.view.turn < active) return t("knock.too_early");
  if (rules.min_knock_value && state.view.hand_value !== null && state.view.hand_value < rules.min_knock_value) {
    return t("knock.too_low", { need: num(rules.min_knock_value), value: points(state.view.hand_value) });
  }
  return null;
}

export function shortResult(result) {
  if (!result) return t("status.result");
  if (!result.losses.length) return t("status.nobody");
  return list(result.losses.map((l) => t("status.lost", { who: name(l.seat), lives: num(l.lives) })));
}

/** A move in a word or two, for a narrow screen (the button's full words stay for screen readers). */
export function shortWords(move) {
  switch (move.kind) {
    case "draw":
      if (move.source === "stock") return t("short.draw");
      return state.view.discard_top ? t("short.take_card", { card: pretty(state.view.discard_top) }) : t("short.take");
    case "discard":
      return pretty(move.card);
    case "exchange_all":
      return state.view.widow === null ? t("short.take_widow") : t("short.swap_all");
    case "take_widow":
      return t("short.other_hand");
    case "keep":
      return t("short.keep");
    case "throw_down":
      return t("short.throw");
    default:
      return actionWords(move, state.view);
  }
}
