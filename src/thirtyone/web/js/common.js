// Shared by the pages: the HTTP API, a DOM builder, cards (their art is cards.js) and actions in
// words. Cards are their text as the server sends them: rank 2-9 T J Q K A, suit c d h s ("As", "Td").
import { cardElement } from "./cards.js";

const SUITS = { c: ["♣", "clubs"], d: ["♦", "diamonds"], h: ["♥", "hearts"], s: ["♠", "spades"] };
const RANKS = {
  A: ["A", "Ace"], K: ["K", "King"], Q: ["Q", "Queen"], J: ["J", "Jack"], T: ["10", "Ten"],
  9: ["9", "Nine"], 8: ["8", "Eight"], 7: ["7", "Seven"], 6: ["6", "Six"], 5: ["5", "Five"],
  4: ["4", "Four"], 3: ["3", "Three"], 2: ["2", "Two"],
};

/** Build an element: h("button", {class: "x", onclick: f}, "text", child). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/** Call the API: the JSON answer, or an Error whose message is the server's one-line error. */
export async function api(path, options = {}) {
  const init = { ...options, headers: { Accept: "application/json", ...(options.headers || {}) } };
  if (options.json !== undefined) {
    init.method = init.method || "POST";
    init.body = JSON.stringify(options.json);
    init.headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new Error(`the server cannot be reached (${error.message}); check the connection and try again`);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error((data && data.error) || `the server answered ${response.status}`);
    error.code = data && data.code;
    throw error;
  }
  return data;
}

/** Show a message in the page's role=alert box (empty: hide it). */
export function showAlert(text, kind = "error") {
  const box = document.getElementById("alert");
  box.textContent = text || "";
  box.dataset.kind = kind;
  box.hidden = !text;
}

export function isCard(text) {
  return typeof text === "string" && /^[2-9TJQKA][cdhs]$/.test(text);
}

/** "As" -> "A♠", "Td" -> "10♦". */
export function pretty(card) {
  return isCard(card) ? RANKS[card[0]][0] + SUITS[card[1]][0] : String(card);
}

/** "As" -> "Ace of spades". */
export function cardName(card) {
  return isCard(card) ? `${RANKS[card[0]][1]} of ${SUITS[card[1]][1]}` : "a hidden card";
}

export function prettyCards(cards) {
  return (cards || []).map(pretty).join(" ");
}

/** A card for reading: ``<span class="card">`` with its face (cards.js) or its back, role img and
 * its name as the label ("Ace of spades"); ``extra`` attributes override (``null`` removes one). */
export function cardView(card, extra = {}) {
  const node = cardElement(card);
  node.title = isCard(card) ? pretty(card) : "face-down card";
  for (const [key, value] of Object.entries(extra)) {
    if (value === null || value === undefined || value === false) node.removeAttribute(key);
    else if (key === "class") node.classList.add(...String(value).split(/\s+/).filter(Boolean));
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  return node;
}

/** A value as the rules write it: 30.5 -> "30½". */
export function points(value) {
  if (value === null || value === undefined) return "";
  return Number.isInteger(value) ? String(value) : `${Math.floor(value)}½`;
}

/** What a player on the grace life (R2.3) is called under the table's preset. */
export function graceWord(preset) {
  return { widow: "on the bus", schwimmen: "schwimmt" }[preset] || "on the dole";
}

/** A seat's lives in words (R2.4): "3 lives", "1 life", "on the dole", "out". */
export function livesText(status, preset) {
  if (status.out || status.remaining <= 0) return "out";
  if (status.on_grace) return graceWord(preset);
  return `${status.lives} ${status.lives === 1 ? "life" : "lives"}`;
}

/** One of the person's own moves in words, from its notation (thirtyone.actions). */
export function actionWords(notation, view) {
  const words = notation.trim().split(/\s+/);
  switch (words[0]) {
    case "draw":
      if (words[1] === "pile") return view && view.discard_top ? `Take ${pretty(view.discard_top)} from the pile` : "Draw from the pile";
      return "Draw from the stock";
    case "discard":
      return `Discard ${pretty(words[1])}`;
    case "knock":
      return "Knock";
    case "exchange": {
      if (words[1] === "all") return view && view.widow === null ? "Take the widow unseen" : "Exchange all three";
      const split = words.indexOf("for");
      return `Exchange ${prettyCards(words.slice(1, split))} for ${prettyCards(words.slice(split + 1))}`;
    }
    case "pass":
      return "Pass";
    case "keep":
      return "Keep your hand";
    case "take":
      return "Take the other hand unseen";
    case "look":
      return "Look at your cards";
    case "throw":
      return "Throw down unseen";
    default:
      return notation;
  }
}

/** Someone's action in words, third person: "Ben drew from the stock". `received` is the card
 * they got when the viewer may know it; `revealed` the cards the action turned face up (R7.2, R7.6). */
export function actedWords(who, notation, received, revealed) {
  const words = baseActedWords(who, notation, received);
  return revealed && revealed.length ? `${words}; face up now: ${prettyCards(revealed)}` : words;
}

function baseActedWords(who, notation, received) {
  const words = notation.trim().split(/\s+/);
  switch (words[0]) {
    case "draw":
      if (words[1] === "pile") return `${who} took ${received && received[0] ? pretty(received[0]) : "the top card"} from the pile`;
      return `${who} drew from the stock` + (received && received[0] ? ` (${pretty(received[0])})` : "");
    case "discard":
      return `${who} discarded ${pretty(words[1])}`;
    case "knock":
      return `${who} knocked: everyone else has one last turn`;
    case "exchange":
      if (words[1] === "all") {
        return `${who} exchanged all three cards` + (received && received.every(isCard) ? ` for ${prettyCards(received)}` : "");
      }
      return `${who} exchanged ${prettyCards(words.slice(1, words.indexOf("for")))} for ${prettyCards(words.slice(words.indexOf("for") + 1))}`;
    case "pass":
      return `${who} passed`;
    case "keep":
      return `${who} kept the first hand`;
    case "take":
      return `${who} took the other hand`;
    case "look":
      return `${who} looked at their cards`;
    case "throw":
      return `${who} threw down unseen`;
    default:
      return `${who}: ${notation}`;
  }
}

/** How a round ended, in words, after "Round N ended" (rule ids as in RULES.md). A 31 after a knock
 * is R5.3, else R5.1. */
export function endWords(result) {
  switch (result.end) {
    case "knock": return "after a knock (R6.2)";
    case "blitz": return `with a 31, Blitz (${result.knocker !== null ? "R5.3" : "R5.1"})`;
    case "dealt_blitz": return "with a 31 dealt, Blitz on the deal (R5.2)";
    case "stock_exhausted": return "when the stock ran out (R4.3)";
    case "max_turns": return "at the turn limit (R6.7)";
    case "all_pass": return "when everyone passed (R7.3)";
    case "throw_down": return "with a throw-down (R6.6)";
    default: return `(${result.end})`;
  }
}

/** Why a seat lost lives, from the loss's kind and the seats it names (thirtyone.settlement.LossKind). */
export function lossWords(loss, result, names) {
  const who = (loss.seats || []).map((seat) => names[seat]).join(" and ");
  const shown = loss.seats && loss.seats.length && result.values[loss.seats[0]] === 33 ? "three aces (33)" : "31";
  const knocked = result.end === "throw_down" ? "threw down" : "knocked";
  switch (loss.kind) {
    case "blitz": return `${who} showed ${shown}`;
    case "blitz_after_knock": return `${who} showed ${shown} after the knock`;
    case "dealt_blitz":
    case "dealt_blitz_beaten": return `${who} got ${shown} in the deal`;
    case "lowest": return "lowest hand";
    case "knocker_alone_lowest": return `${knocked} and alone had the lowest hand`;
    case "lowest_knocker_saved": return `lowest hand; ${who} (${knocked}) tied and is saved`;
    case "knocker_among_lowest": return `${knocked} and was among the lowest hands`;
    case "knocker_not_highest": return `${knocked} without the highest hand`;
    case "lowest_all_passed": return "lowest hand after everyone passed";
    case "lowest_turn_limit": return "lowest hand at the turn limit";
    case "lowest_stock_out": return "lowest hand when the stock ran out";
    default: return loss.kind;
  }
}

/** A move the rules refused, in words, from the refusal's data (its code, cards and seats; see
 * thirtyone.errors.RefusalCode), with the rule id first: "R4.2: you cannot discard 9♥, …". */
export function refusalWords(refusal, names) {
  const other = refusal.seats && refusal.seats.length ? names[refusal.seats[0]] : "";
  const card = refusal.cards && refusal.cards.length ? pretty(refusal.cards[0]) : "";
  const values = refusal.values || [];
  const words = {
    game_over: "the game is over",
    not_your_turn: `it is ${other}'s turn`,
    not_blind_phase: "that belongs to the blind phase, before anyone plays",
    must_look: "look at your cards or throw down first",
    not_dealer_choice: "that is the dealer's choice after the deal",
    must_choose_hand: "the dealer first keeps this hand or takes the other one unseen",
    must_discard: "you hold four cards: discard one to end your turn",
    discard_not_in_hand: `${card} is not in your hand`,
    discard_taken_card: `you cannot discard ${card}, just taken from the discard pile; discard another`,
    draw_first: "draw a card before you discard",
    draw_or_knock: "draw a card or knock",
    pile_empty: "the discard pile is empty: draw from the stock",
    stock_empty: "the stock is empty and there is nothing to reshuffle: take the pile's card",
    widow_turn: "exchange with the widow, pass or knock",
    widow_face_down: "the widow is face down: take all of it, pass or knock",
    exchange_two_needs_any: "exchange one card or all three",
    exchange_not_in_hand: `${card} is not in your hand`,
    exchange_not_in_widow: `${card} is not in the widow`,
    second_knock: `${other} has already knocked; only one knock per round`,
    knock_too_early: "you may knock only after every player has had a turn",
    knock_too_low: `knocking needs a hand worth at least ${points(values[0])}; yours is ${points(values[1])}`,
  }[refusal.code] || refusal.code;
  return `${refusal.rule}: ${words}`;
}

/** A round's result as a list: who lost lives and why (rule ids), then each hand as shown (a seat
 * out before the round: "out"; a hand the table did not see after a 31: "not shown", R5.1). */
export function resultView(result, names) {
  const list = h("ul", { class: "result" });
  result.hands.forEach((hand, seat) => {
    const value = result.values[seat];
    const out = !hand && result.remaining[seat] <= 0 && !result.eliminated.includes(seat);
    const shown = hand ? prettyCards(hand) : out ? "out" : "not shown (R5.1)";
    list.append(h("li", {}, `${names[seat]}: ${shown}${value !== null && value !== undefined ? ` = ${points(value)}` : ""}`));
  });
  const lines = [h("p", {}, `Round ${result.round} ended ${endWords(result)}.`
    + (result.knocker !== null ? ` ${names[result.knocker]} knocked.` : "")
    + (result.blitz.length ? ` Blitz: ${result.blitz.map((s) => names[s]).join(", ")}.` : ""))];
  const losses = h("ul", { class: "losses" });
  for (const loss of result.losses) {
    const verb = names[loss.seat] === "You" ? "lose" : "loses";
    losses.append(h("li", {}, `${names[loss.seat]} ${verb} ${loss.lives} ${loss.lives === 1 ? "life" : "lives"}: ${lossWords(loss, result, names)} (${loss.rule})`));
  }
  if (!result.losses.length) losses.append(h("li", {}, "Nobody loses a life."));
  lines.push(losses, list);
  if (result.eliminated.length) lines.push(h("p", {}, `Out of the game: ${result.eliminated.map((s) => names[s]).join(", ")}.`));
  return lines;
}

/** SHA-256 of text, as lowercase hex (crypto.subtle). */
export async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether a revealed deal matches its commitment (thirtyone.record.deal_commitment):
 * SHA-256 of "thirtyone-deal/1 SALT DECK", the deck's cards joined by single spaces. */
export async function checkDeal(salt, deck, commitment) {
  const cards = Array.isArray(deck) ? deck.join(" ") : String(deck).trim().split(/\s+/).join(" ");
  return (await sha256Hex(`thirtyone-deal/1 ${salt} ${cards}`)) === commitment;
}

/** The stock, the discard pile and the widow of a view, drawn into the three boxes (the replay
 * page). In widow mode there is no stock to draw from, so none is shown. */
export function drawMiddle(view, boxes) {
  const widowMode = view.widow !== null || view.widow_face_down;
  boxes.stock.hidden = widowMode;
  boxes.stock.replaceChildren(h("h3", {}, "Stock"),
    view.stock_size ? cardView(null) : h("span", { class: "empty" }, "empty"),
    h("p", { class: "muted" }, `${view.stock_size} ${view.stock_size === 1 ? "card" : "cards"}`));
  boxes.discard.hidden = widowMode && !view.discard_size;
  boxes.discard.replaceChildren(h("h3", {}, "Discard pile"),
    view.discard_top ? cardView(view.discard_top, { class: "top", "data-card": view.discard_top }) : h("span", { class: "empty" }, "empty"),
    h("p", { class: "muted" }, `${view.discard_size} ${view.discard_size === 1 ? "card" : "cards"}`));
  boxes.widow.hidden = !widowMode;
  if (widowMode) {
    const cards = view.widow ? view.widow.map((card) => cardView(card)) : [cardView(null), cardView(null), cardView(null)];
    boxes.widow.replaceChildren(h("h3", {}, view.widow ? "Widow (face up)" : "Widow (face down)"), h("div", { class: "hand small" }, cards));
  }
}
