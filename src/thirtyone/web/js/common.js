// Shared by the pages: the HTTP API, a DOM builder, cards (their art is cards.js) and actions in
// words. Cards are their text as the server sends them: rank 2-9 T J Q K A, suit c d h s ("As", "Td");
// actions their data (kind, source, card, give, take), never their notation.
import { cardElement } from "./cards.js";

import { has, lang, list, num, rtl, t, tn } from "./i18n.js";

const SUIT_SIGNS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANK_SIGNS = { T: "10" };

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
    throw new Error(t("error.unreachable", { detail: error.message }));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    // the server's one-line error is English; a player reads its code's words in their language
    const known = lang !== "en" && data && data.code && has(`error.${data.code}`);
    const error = new Error(
      known ? t(`error.${data.code}`) : data?.error || t("error.status", { status: response.status }),
    );
    error.code = data?.code;
    throw error;
  }
  return data;
}

/** Hold a name box to ``max`` characters as the server counts them (code points): maxlength
 * counts UTF-16 units, two for an emoji, so it is only a bound here and the rest is cut on input,
 * never silently: ``said`` (the limit in words) shows as an info alert when a name was cut. */
export function limitChars(input, max, said) {
  input.maxLength = max * 2;
  input.addEventListener("input", () => {
    const chars = Array.from(input.value);
    if (chars.length > max) {
      input.value = chars.slice(0, max).join("");
      showAlert(said, "info");
    }
  });
}

const graphemes = typeof Intl.Segmenter === "function" ? new Intl.Segmenter() : null; // made once: seats redraw often

/** The first letter a person sees in ``text`` (a grapheme: an emoji or a letter with its accents). */
export function firstGrapheme(text) {
  if (graphemes) {
    const first = graphemes.segment(text)[Symbol.iterator]().next();
    return first.done ? "" : first.value.segment;
  }
  return Array.from(text)[0] || "";
}

/** ``text`` as a sentence: a capital first letter and a full stop (a server's lowercase line). */
export function sentence(text) {
  const clean = String(text).trim();
  if (!clean) return clean;
  return `${clean[0].toUpperCase()}${clean.slice(1)}${/[.!?。۔។]$/.test(clean) ? "" : "."}`;
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

/** "As" -> "A♠", "Td" -> "10♦": card faces are signs, the same in every language. */
export function pretty(card) {
  if (!isCard(card)) return String(card);
  const text = (RANK_SIGNS[card[0]] || card[0]) + SUIT_SIGNS[card[1]];
  return rtl ? `\u2066${text}\u2069` : text; // "2♥" stays "2♥" inside a right-to-left sentence
}

/** "As" -> "Ace of spades", in the page's language. */
export function cardName(card) {
  return isCard(card) ? t("card.name", { rank: t(`rank.${card[0]}`), suit: t(`suit.${card[1]}`) }) : t("card.hidden");
}

/** Cards as signs, kept left to right in a right-to-left page (a bidi isolate: U+2066 … U+2069). */
export function prettyCards(cards) {
  const text = (cards || [])
    .map((card) => (isCard(card) ? (RANK_SIGNS[card[0]] || card[0]) + SUIT_SIGNS[card[1]] : String(card)))
    .join(" ");
  return rtl && text ? `\u2066${text}\u2069` : text;
}

/** A card for reading: ``<span class="card">`` with its face (cards.js) or its back, role img and
 * its name as the label ("Ace of spades"); ``extra`` attributes override (``null`` removes one). */
export function cardView(card, extra = {}) {
  const node = cardElement(card);
  node.title = isCard(card) ? pretty(card) : t("card.hidden");
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

const GRACE = { widow: "bus", schwimmen: "schwimmt" };

/** A hand's value with its unit: "24 points", "30½ points" (a half is "other" in every plural rule). */
export function pointsWords(value) {
  return Number.isInteger(value) ? tn("points.count", value) : t("points.half", { value: points(value) });
}

/** What a player on the grace life (R2.3) is called under the table's preset. */
export function graceWord(preset) {
  return t(`grace.${GRACE[preset] || "dole"}`);
}

/** The grace life's short mark (a seat's plate, a cell of a table): "dole", "bus", "schw.". */
export function graceMark(preset) {
  return t(`grace_mark.${GRACE[preset] || "dole"}`);
}

/** Lives left after a round as the seats show them (R2.4): the lives, then the grace life by its
 * mark: "3", "1", "dole". ``left`` counts the grace life (a round result's ``remaining``), more
 * than 0. */
export function livesLeft(left, rules, preset) {
  if (!rules.grace_life) return num(left);
  return left === 1 ? graceMark(preset) : num(left - 1);
}

/** A seat's lives in words (R2.4): "3 lives", "1 life", "on the dole", "out". */
export function livesText(status, preset) {
  if (status.out || status.remaining <= 0) return t("lives.out");
  if (status.on_grace) return graceWord(preset);
  return tn("lives.count", status.lives);
}

function exchangeParts(move) {
  return { give: prettyCards(move.give), take: prettyCards(move.take) };
}

/** One of the person's own moves in words, from its data (``kind``, ``source``, ``card``,
 * ``give``, ``take``: docs/server-protocol.md, "Actions as data"). */
export function actionWords(move, view) {
  switch (move.kind) {
    case "draw":
      if (move.source === "pile")
        return view?.discard_top ? t("move.take_pile", { card: pretty(view.discard_top) }) : t("move.draw_pile");
      return t("move.draw_stock");
    case "discard":
      return t("move.discard", { card: pretty(move.card) });
    case "knock":
      return t("move.knock");
    case "exchange":
      return t("move.exchange", exchangeParts(move));
    case "exchange_all":
      return view && view.widow === null ? t("move.take_widow_unseen") : t("move.exchange_all");
    case "pass":
      return t("move.pass");
    case "keep":
      return t("move.keep");
    case "take_widow":
      return t("move.take_other");
    case "look":
      return t("move.look");
    case "throw_down":
      return t("move.throw");
    default:
      return String(move.kind);
  }
}

/** An event or a replay's step in words, as the game's one narrator told it to this reader
 * (thirtyone.narration): the phrases the server sends with it (``said``), their seats named by
 * ``nameOf`` ("Ben drew from the stock"; the cards a move turned face up in a clause or a
 * sentence of their own, R7.2, R7.6). */
export function saidWords(item, nameOf) {
  return (item.said || []).map((phrase) => phraseWords(phrase, nameOf)).join(" · ");
}

/** A phrase of the narrator (thirtyone.narration, as the server sends it: ``{key, values,
 * count}``) in the reader's language: its key looked up, seats named by ``nameOf`` (a list the
 * language's way), cards as signs, hand values in points, numbers the language's way, a clause in
 * its own words. The page never chooses the sentence. */
export function phraseWords(phrase, nameOf) {
  const values = {};
  for (const [key, value] of Object.entries(phrase.values || {})) values[key] = phraseValue(value, nameOf);
  return typeof phrase.count === "number" ? tn(phrase.key, phrase.count, values) : t(phrase.key, values);
}

function phraseValue(value, nameOf) {
  if (typeof value === "number") return num(value);
  if (typeof value === "string") return value;
  if (Array.isArray(value?.seats)) return list(value.seats.map(nameOf));
  if (Array.isArray(value?.cards)) return prettyCards(value.cards);
  if (value && "points" in value) return points(value.points);
  if (value?.phrase) return phraseWords(value.phrase, nameOf);
  return "";
}

/** How round `result.round` ended, as a sentence (its phrase, ``how``: rule ids as in RULES.md,
 * a 31 after a knock is R5.3, else R5.1). */
export function endWords(result) {
  return phraseWords(result.how, String);
}

/** Names as a list, the language's way. */
export function namesList(seats, names) {
  return list((seats || []).map((seat) => names[seat]));
}

/** Why a seat lost lives: its phrase (``why``, from the loss's kind and the seats it names,
 * thirtyone.narration.loss), the seats named from ``names``; a loss without one is shown as its kind. */
export function lossWords(loss, names) {
  return loss.why && has(loss.why.key) ? phraseWords(loss.why, (seat) => names[seat]) : String(loss.kind);
}

/** A move the rules refused, in words: its phrase (``said``, from the refusal's code, cards and
 * seats, thirtyone.narration.refusal), the seats named from ``names``, with the rule id first:
 * "R4.2: you cannot discard 9♥, …"; a refusal without one is shown as its code. */
export function refusalWords(refusal, names) {
  const said = refusal.said;
  const text = said && has(said.key) ? phraseWords(said, (seat) => names[seat]) : refusal.code;
  return t("refusal.line", { rule: refusal.rule, text });
}

/** A round's result as a list: who lost lives and why (rule ids), then each hand as shown (a seat
 * out before the round: "out"; a hand the table did not see after a 31: "not shown", R5.1).
 * `you`: the viewer's seat (their lines say "You lose"), or null. */
export function resultView(result, names, you = null) {
  const hands = h("ul", { class: "result" });
  result.hands.forEach((hand, seat) => {
    const value = result.values[seat];
    const out = !hand && result.remaining[seat] <= 0 && !result.eliminated.includes(seat);
    const cards = hand ? prettyCards(hand) : out ? t("result.out") : t("result.not_shown");
    hands.append(
      h(
        "li",
        {},
        value !== null && value !== undefined
          ? t("result.hand_value", { who: names[seat], cards, value: points(value) })
          : t("result.hand", { who: names[seat], cards }),
      ),
    );
  });
  let how = endWords(result);
  if (result.knocker !== null)
    how = t(result.end === "throw_down" ? "result.with_thrower" : "result.with_knocker", {
      text: how,
      who: names[result.knocker],
    });
  if (result.blitz.length) how = t("result.with_blitz", { text: how, who: namesList(result.blitz, names) });
  const lines = [h("p", {}, how)];
  const losses = h("ul", { class: "losses" });
  for (const loss of result.losses) {
    losses.append(
      h(
        "li",
        {},
        tn(loss.seat === you || names[loss.seat] === t("seat.you") ? "result.loss_you" : "result.loss", loss.lives, {
          who: names[loss.seat],
          why: lossWords(loss, names),
          rule: loss.rule,
        }),
      ),
    );
  }
  if (!result.losses.length) losses.append(h("li", {}, t("result.nobody")));
  lines.push(losses, hands);
  if (result.eliminated.length)
    lines.push(h("p", {}, t("result.eliminated", { who: namesList(result.eliminated, names) })));
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
  boxes.stock.replaceChildren(
    h("h3", {}, t("pile.stock")),
    view.stock_size ? cardView(null) : h("span", { class: "empty" }, t("pile.empty")),
    h("p", { class: "muted" }, tn("cards.count", view.stock_size)),
  );
  boxes.discard.hidden = widowMode && !view.discard_size;
  boxes.discard.replaceChildren(
    h("h3", {}, t("pile.discard")),
    view.discard_top
      ? cardView(view.discard_top, { class: "top", "data-card": view.discard_top })
      : h("span", { class: "empty" }, t("pile.empty")),
    h("p", { class: "muted" }, tn("cards.count", view.discard_size)),
  );
  boxes.widow.hidden = !widowMode;
  if (widowMode) {
    const cards = view.widow
      ? view.widow.map((card) => cardView(card))
      : [cardView(null), cardView(null), cardView(null)];
    boxes.widow.replaceChildren(
      h("h3", {}, view.widow ? t("pile.widow_up") : t("pile.widow_down")),
      h("div", { class: "hand small" }, cards),
    );
  }
}
