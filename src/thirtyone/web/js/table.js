// The table page: play at a seat (its token kept in localStorage per table code) or watch.
// The server is the authority: this page draws the latest state at once and sends only the
// actions the state lists as legal (view.legal_actions), with the state's seq. What happened is
// told and shown from the events' data (never from sentences): the log and the live region say
// it, and the cards fly (motion.js) after the page is already drawn in its new state, so nothing
// waits on an animation to accept a move.
import {
  actedWords, actionWords, api, endWords, firstGrapheme, h, limitChars, lossWords, points, pretty, prettyCards, refusalWords,
  graceWord as presetGrace, namesList, pointsWords, resultView, sentence, showAlert,
} from "./common.js";
import { has, lang, list, num, rtl, t, tn, translatePage } from "./i18n.js";
import { cardElement, cardLabel, setFourColours } from "./cards.js";
import { placeSeats } from "./felt.js";
import { howToPlay } from "./howto.js";
import { Motion, reducedMotion } from "./motion.js";
import { play as sound, setSound, soundOn } from "./sound.js";
import * as fairness from "./fairness.js";

translatePage();
const code = document.getElementById("code").textContent.trim(); // as the server wrote it (normalized)
const tokenKey = `thirtyone.token.${code}`;
const hostKey = `thirtyone.host.${code}`; // the lobby keeps the host token of a table created here
const muteKey = `thirtyone.mute.${code}`;
const $ = (id) => document.getElementById(id);
const MAX_RETRY_MS = 3000; // a restarted server is found within 3 s
const SHOWDOWN_MS = 3600; // how long every hand lies face up at its seat after a round
const BUBBLE_MS = 1900;
const MOMENT_MS = 2400; // a knock's or a Blitz's banner
const AVATARS = ["#d1495b", "#2e86ab", "#e0a526", "#4f9d69", "#8d6a9f", "#e07a5f", "#3d6aa8", "#b5838d", "#00897b"];
const LIGHT_AVATARS = new Set(["#e0a526"]);
// the reactions' words are the reader's: each is sent as its key and shown in the language of whoever reads it
const REACTIONS = Object.fromEntries(["good_luck", "nice_hand", "well_played", "good_game", "unlucky", "wow", "laugh", "thinking"]
  .map((key) => [key, t(`reaction.${key}`)]));
const PRESETS = ["scat", "widow", "namu", "schwimmen"];
const GRACE_MARK = { widow: t("grace_mark.bus"), schwimmen: t("grace_mark.schwimmt") }; // the grace life, still to come, on a seat's plate
const PLATE = { w: 172, h: 104 }; // a seat's size at scale 1: its cards (44) above its plate
const CARD = { w: 66, h: 92 }; // a card in the middle at scale 1

let socket = null;
let retry = 300; // ms before reconnecting; doubles up to MAX_RETRY_MS
let online = false; // welcomed on an open socket
const CHAT_ERRORS = new Set(["chat_too_fast", "bad_chat"]); // refusals of a chat line
let staleAlert = false; // the alert says "not connected": cleared once connected again
let table = null;
let view = null;
let seq = null;
let mySeat = null;
let lastPlayed = null; // the newest stored action's {seq, seat, source} (who played it: player, bot, timer)
let presets = null;
let picks = { seq: null, hand: new Set(), widow: new Set() }; // an exchange being picked (widow mode)
let sentFor = null; // the seq an action was sent for: one action per state (a double tap plays once)
let focusedOnce = false; // the first move got the focus when the page opened on your turn
let wasMyTurn = false;
let showdown = null; // {round, result}: every hand face up at its seat for a moment after a round
let showdownTimer = null;
let resultShown = null; // the round whose result the centre panel shows
let lastResultRound = null;
let blitzRound = 0; // the round whose Blitz the banner shows
let rematchBy = null; // who asked for the rematch (heard live)
let rejoin = null; // {token, previous}: a rejoin link being tried
let drag = null; // a card being dragged
let suppressClick = false;
let panel = "log";
let sideOpen = false;
let unread = 0;
let layoutKey = "";
const rounds = new Map(); // round -> {events, sources, result}
const announced = new Set(); // "round:index" of every event already said or logged
const chatLines = [];
const mutes = new Set(JSON.parse(localStorage.getItem(muteKey) || "[]"));
const motion = new Motion($("flyers"));
let seedSent = null; // the socket this page's client seed was sent on (once seated, before the game starts)

// ---------------------------------------------------------------------------------- words

function name(seat) {
  if (seat === mySeat) return t("seat.you");
  const s = table && table.seats[seat];
  if (!s) return t("seat.number", { n: num(seat + 1) });
  if (s.name) return s.name;
  return s.kind === "bot" ? t("seat.bot", { n: num(seat + 1) }) : t("seat.free", { n: num(seat + 1) });
}

function names() {
  return table ? table.seats.map((s) => name(s.seat)) : [];
}

function graceWord() {
  return presetGrace(table && table.preset);
}

/** The expert's hint from its moves (notation and value in lives) and its reads of the
 * opponents: "Hint: Take 9♥ from the pile +0.21 · … Ben probably collects hearts (72%)." */
function hintWords(moves, reads) {
  const said = movesWords(moves);
  if (!said || !Array.isArray(reads) || !reads.length) return said;
  const percent = new Intl.NumberFormat(document.documentElement.lang, { style: "percent" });
  const told = reads.map((read) => {
    const words = { who: name(read.seat), suit: t(`suit.${read.suit}`), chance: percent.format(read.probability) };
    // a share of the deals the expert imagined, never a certainty: "probably (100%)" is said in words alone
    return t(words.chance === percent.format(1) ? "hint.read_sure" : "hint.read", words);
  });
  return `${said}\n${t("hint.reads", { reads: told.join(" · ") })}`; // a line of its own (.hint keeps line breaks)
}

/** The hint's moves in words: "Hint: Take 9♥ from the pile +0.21 · Draw from the stock +0.05". */
function movesWords(moves) {
  if (!Array.isArray(moves) || !moves.length) return "";
  const signed = new Intl.NumberFormat(document.documentElement.lang, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "always" });
  const shown = moves.slice(0, 5).map((move) => (move.value === null || move.value === undefined
    ? actionWords(move.action, view)
    : t("hint.move", { move: actionWords(move.action, view), value: `\u2066${signed.format(move.value).replace("-", "−")}\u2069` })));
  if (moves.length > 5) shown.push(tn("hint.more", moves.length - 5));
  const legend = moves[0].value === null || moves[0].value === undefined ? (moves.length === 1 ? "hint.only" : "hint.plain") : "hint.legend";
  return t(legend, { moves: shown.join(" · ") });
}

/** A server's error message for the reader: its code's words in their language (the server
 * writes English; an English page shows the server's own more detailed line). */
function serverWords(message) {
  return lang !== "en" && message.code && has(`error.${message.code}`) ? t(`error.${message.code}`) : message.message;
}

/** Say lines in the live region (together). */
function announce(...lines) {
  if (lines.length) $("announce").textContent = lines.join(". ");
}

/** A round's result as one line: "Blitz! Ben has 31. Round 2 is over. Ann loses 1 life (R6.5)". */
function resultLine(result) {
  const losses = result.losses.map((l) => tn(l.seat === mySeat ? "line.loss_you" : "line.loss", l.lives, { who: name(l.seat), rule: l.rule }));
  const over = losses.length ? t("line.round_over", { round: num(result.round), losses: list(losses) }) : t("line.round_over_nobody", { round: num(result.round) });
  if (!result.blitz.length) return over;
  const you = result.blitz.length === 1 && result.blitz[0] === mySeat;
  const key = result.values[result.blitz[0]] === 33 ? (you ? "line.blitz_aces_you" : "line.blitz_aces") : you ? "line.blitz_you" : "line.blitz";
  return t("line.blitz_then", { blitz: t(key, { who: list(result.blitz.map(name)) }), text: over });
}

/** One event in words (the log and the live region); null for one that is not told. */
function eventWords(event, source) {
  switch (event.type) {
    case "round_started":
      return t(event.upcard ? (event.dealer === mySeat ? "line.dealt_upcard_you" : "line.dealt_upcard") : event.dealer === mySeat ? "line.dealt_you" : "line.dealt",
        { round: num(event.round), who: name(event.dealer), card: event.upcard ? prettyCards([event.upcard]) : "" });
    case "acted":
      return source === "timer"
        ? t("line.by_timer", { text: actedWords(name(event.seat), event.action, event.received, event.revealed) })
        : actedWords(name(event.seat), event.action, event.received, event.revealed);
    case "reshuffled":
      return tn("line.reshuffled", event.stock_size);
    case "new_widow":
      return t("line.new_widow", { cards: prettyCards(event.widow) });
    case "round_ended":
      return resultLine(event.result);
    case "game_over":
      return t(event.winner === mySeat ? "line.game_over_you" : "line.game_over", { who: name(event.winner) });
    default:
      return null;
  }
}

/** What an action looks like at the table, in two or three words (a bubble at the seat). */
function bubbleWords(event) {
  const words = event.action.split(/\s+/);
  switch (words[0]) {
    case "draw": return words[1] === "pile" ? (event.received && event.received[0] ? t("bubble.takes", { card: pretty(event.received[0]) }) : t("bubble.takes_top")) : t("bubble.draws");
    case "discard": return t("bubble.discards", { card: pretty(words[1]) });
    case "knock": return t("bubble.knocks");
    case "pass": return t("bubble.passes");
    case "exchange": return words[1] === "all" ? t("bubble.swaps_all") : t("bubble.swaps");
    case "keep": return t("bubble.keeps");
    case "take": return t("bubble.takes_other");
    case "look": return t("bubble.looks");
    case "throw": return t("bubble.throws");
    default: return event.action;
  }
}

/** The hand's value in words: three cards have a value; four (after drawing) must lose one first. */
function handWords() {
  if (!view.hand) return t("hand.face_down");
  if (view.hand.length !== 3 || view.hand_value === null) return t("hand.discard_one");
  return pointsWords(view.hand_value);
}

function turnWords() {
  if (!myTurn()) return null;
  if (!view.hand) return t("turn.blind");
  return t("turn.hold", { cards: prettyCards(view.hand), value: handWords() });
}

function myTurn() {
  return Boolean(view && view.is_my_turn && table && table.status === "playing" && view.phase !== "over");
}

function ended() {
  return Boolean(table) && (table.status === "finished" || table.status === "closed" || Boolean(view && view.phase === "over"));
}

/** Why this seat may not knock now (R6.1, R6.3, R6.4), from the table's rules and the view; null
 * when knocking is listed or not a choice at this point of the turn (after drawing, R4.1). */
function knockRefusal() {
  if (!myTurn() || view.phase !== "turn" || view.legal_actions.includes("knock")) return null;
  if (view.legal_actions.some((a) => a.startsWith("discard "))) return null;
  const rules = table.rules;
  if (view.knocker !== null) return null; // the status says "last turns", the seat wears the knock (R6.1)
  const active = view.seats.filter((s) => !s.out).length;
  if (rules.knock_from_round === 2 && view.turn < active) return t("knock.too_early");
  if (rules.min_knock_value && view.hand_value !== null && view.hand_value < rules.min_knock_value) {
    return t("knock.too_low", { need: num(rules.min_knock_value), value: points(view.hand_value) });
  }
  return null;
}

// ---------------------------------------------------------------------------------- the socket

function connect() {
  const token = rejoin ? rejoin.token : localStorage.getItem(tokenKey);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(code)}`);
  const mine = socket;
  mine.addEventListener("open", () => {
    retry = 300;
    mine.send(JSON.stringify(token ? { type: "hello", token } : { type: "hello" }));
  });
  mine.addEventListener("message", (event) => {
    if (socket === mine) receive(JSON.parse(event.data)); // an old socket's news is not this page's any more
  });
  mine.addEventListener("close", (event) => {
    if (socket !== mine) return;
    setOnline(false);
    if (event.code === 4403 && rejoin) {
      if (rejoin.previous) localStorage.setItem(tokenKey, rejoin.previous);
      rejoin = null;
      showAlert(t("alert.rejoin_no_seat", { code }));
      connect();
      return;
    }
    if (event.code === 4403 && localStorage.getItem(tokenKey)) {
      localStorage.removeItem(tokenKey);
      showAlert(t("alert.token_refused"));
      connect();
      return;
    }
    if (event.code === 4404) {
      $("conn").hidden = true;
      showAlert(t("alert.no_table", { code }));
      return;
    }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, MAX_RETRY_MS);
  });
}

function setOnline(yes) {
  online = yes;
  document.body.dataset.connected = yes ? "yes" : "no";
  $("conn").hidden = yes;
  if (yes && staleAlert) showAlert("");
  if (yes) staleAlert = false;
  if (table) render();
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN || !online) {
    showAlert(t("alert.not_connected"));
    staleAlert = true;
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

function act(notation, click) {
  if (sentFor === seq) return; // already sent for this state: wait for the answer
  // a double tap is one tap: its second click lands on what the next state drew under the finger
  if (click && click.detail > 1) return;
  $("hint-text").textContent = "";
  motion.skip(); // the player moves on: everything still flying lands now
  endShowdown();
  sentFor = seq;
  if (!send({ type: "action", action: notation, seq })) sentFor = null;
}

function askHint() {
  if (table && table.status === "closed") {
    showAlert(t("alert.closed_no_moves"));
    return;
  }
  if (table && table.hints === false) {
    showAlert(t("alert.hints_off"), "info");
    return;
  }
  if (!myTurn()) {
    showAlert(mySeat === null ? t("alert.hints_players") : t("alert.hints_own_move"));
    return;
  }
  $("hint-text").textContent = t("hint.thinking");
  send({ type: "hint" });
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      mySeat = message.seat;
      fairness.noteSeat(code, mySeat);
      document.body.dataset.role = message.role;
      if (rejoin) {
        if (message.role === "player") {
          localStorage.setItem(tokenKey, rejoin.token);
          toast(t("toast.welcome_back"));
        }
        rejoin = null;
      }
      setOnline(true);
      break;
    case "state":
      table = message.table;
      fairness.noteCommitment(code, table);
      sendSeed();
      seq = message.seq;
      lastPlayed = message.last || null;
      document.body.dataset.seq = String(seq);
      newState(message.view);
      break;
    case "history":
      catchUp(message);
      break;
    case "table":
      table = message.table;
      fairness.noteCommitment(code, table);
      render();
      break;
    case "deal":
      fairnessDeal(message);
      break;
    case "round_end":
      roundEnd(message);
      fairnessRoundEnd(message);
      break;
    case "chat":
      hearChat(message, true);
      break;
    case "rematch":
      table = table ? { ...table, rematch: message.code } : table;
      renderOver();
      announce(t("announce.rematch"));
      break;
    case "ack":
      if (!staleAlert) showAlert("");
      break;
    case "hint":
      if (message.seq === seq) $("hint-text").textContent = hintWords(message.moves, message.reads);
      break;
    case "error":
      if (CHAT_ERRORS.has(message.code)) { // said under the chat box, where it was asked, and gone with the next line
        $("chat-note").textContent = sentence(serverWords(message)); // the line stays in its box, to mend
        break;
      }
      sentFor = null; // refused: the player may try another move
      showAlert(message.refusal ? refusalWords(message.refusal, names()) : serverWords(message));
      $("hint-text").textContent = "";
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------------------------- what happened

function roundOf(number) {
  let entry = rounds.get(number);
  if (!entry) {
    entry = { events: [], sources: [], result: null };
    rounds.set(number, entry);
  }
  return entry;
}

/** Take a round's events as far as they go; returns the new ones, each {round, index, event}. */
function absorb(number, events) {
  const entry = roundOf(number);
  const fresh = [];
  for (let index = entry.events.length; index < events.length; index++) fresh.push({ round: number, index, event: events[index] });
  if (events.length > entry.events.length) entry.events = events.slice();
  for (const item of fresh) if (item.event.type === "round_ended" && !entry.result) entry.result = item.event.result;
  return fresh;
}

/** The source (player, bot, timer) of the newest acted event: who played the action of ``last``. */
function noteSource() {
  if (!lastPlayed || lastPlayed.seq !== seq) return;
  const numbers = [...rounds.keys()].sort((a, b) => b - a);
  for (const number of numbers) {
    const entry = rounds.get(number);
    const acted = entry.events.filter((e) => e.type === "acted").length;
    if (acted) {
      entry.sources[acted - 1] = lastPlayed.source;
      return;
    }
  }
}

function sourceOf(number, index) {
  const entry = rounds.get(number);
  const acted = entry.events.slice(0, index + 1).filter((e) => e.type === "acted").length;
  return entry.events[index].type === "acted" ? entry.sources[acted - 1] : null;
}

function say(fresh) {
  const lines = [];
  for (const item of fresh) {
    const key = `${item.round}:${item.index}`;
    if (announced.has(key)) continue;
    announced.add(key);
    const line = eventWords(item.event, sourceOf(item.round, item.index));
    if (line) lines.push(line);
  }
  announce(...lines);
}

function silently(fresh) {
  for (const item of fresh) announced.add(`${item.round}:${item.index}`);
}

/** The catch-up of a page that opens mid-game: every round so far, and the chat. Logged, not read out. */
function catchUp(message) {
  for (const rnd of message.rounds || []) {
    silently(absorb(rnd.round, rnd.events || []));
    const entry = roundOf(rnd.round);
    (rnd.sources || []).forEach((source, i) => { entry.sources[i] = source; });
  }
  chatLines.length = 0;
  for (const line of message.chat || []) hearChat(line, false);
  renderLog();
  renderScores();
  renderChat();
  if (view && view.phase === "over") render();
}

function newState(next) {
  const first = view === null && !rounds.size;
  const before = snapshot();
  view = next;
  let fresh = [];
  if (view) {
    fresh = absorb(view.round, view.history || []);
    noteSource();
    if (first) silently(fresh);
    else say(fresh);
    const turn = turnWords();
    if (turn && !wasMyTurn) {
      announce(turn);
      if (!first) sound("turn");
    }
    wasMyTurn = Boolean(turn);
    if (view.round > blitzRound && fresh.some((item) => item.event.type === "acted") && $("banner").dataset.kind === "blitz") banner("", "");
    if (resultShown !== null && view.round > resultShown && fresh.some((item) => item.event.type === "acted") && !ended() && !showdown) hideResult();
    if (!lastResultRound && view.last_result) lastResultRound = view.last_result.round;
  }
  render();
  if (!first) animate(fresh, before);
  renderLog();
  renderScores();
}

function roundEnd(message) {
  // The move that ended the round is in no state (the next state is the next round's): take the
  // round's last events from here, then show the showdown.
  const before = snapshot();
  const history = Array.isArray(message.history) ? message.history : [];
  const fresh = absorb(message.round, history);
  const entry = roundOf(message.round);
  if (message.result) entry.result = message.result;
  say(fresh);
  animate(fresh.filter((item) => item.event.type !== "round_ended" && item.event.type !== "game_over"), before);
  if (message.result) {
    const result = message.result;
    lastResultRound = result.round;
    startShowdown(result);
    if (result.blitz.length) {
      blitzRound = message.round;
      inOrder(() => {
        banner(t(result.values[result.blitz[0]] === 33 ? "banner.blitz_aces" : "banner.blitz", { who: list(result.blitz.map(name)) }), "blitz", SHOWDOWN_MS);
        sound("blitz");
      });
    }
  }
  renderLog();
  renderScores();
}

/** Once seated at a table whose game has not started: send this browser's client seed (the
 * deck then depends on it too); a seat given its seed with the join has it already. */
function sendSeed() {
  if (mySeat === null || !table || table.status !== "open" || seedSent === socket) return;
  const seat = table.seats[mySeat];
  if (!seat || seat.seeded) return;
  seedSent = socket;
  send({ type: "seed", seed: fairness.clientSeed(code) });
}

function startShowdown(result) {
  showdown = { round: result.round, result };
  showResult(result);
  clearTimeout(showdownTimer);
  showdownTimer = setTimeout(endShowdown, SHOWDOWN_MS);
  render();
  motion.add(async (speed) => {
    const seats = [...document.querySelectorAll(".seat .seat-cards.shown")];
    await Promise.all(seats.map((row, i) => Promise.all([...row.querySelectorAll(".card")].map((card) => motion.wait(i * 60, speed).then(() => motion.turnOver(card, speed))))));
    for (const loss of result.losses) {
      const lives = document.querySelector(`.seat[data-seat="${loss.seat}"] .lives`);
      if (lives) for (let i = 0; i < loss.lives; i++) motion.flyOff(lives.getBoundingClientRect(), speed);
    }
    for (const seat of result.blitz) motion.pulse(document.querySelector(`.seat[data-seat="${seat}"] .plate`), speed);
    await motion.wait(SHOWDOWN_MS - 600, 1);
  });
}

function endShowdown() {
  if (!showdown) return;
  showdown = null;
  clearTimeout(showdownTimer);
  if (!ended()) hideResult();
  if (table) render();
}

// ---------------------------------------------------------------------------------- motion

/** Where things are before a redraw: the stock, the pile's top card, the widow's cards, your
 * hand's cards and each seat's cards, as rectangles. */
function snapshot() {
  const rect = (node) => (node ? node.getBoundingClientRect() : null);
  const shot = {
    stock: rect(document.querySelector("#stock .stack") || $("stock")),
    pile: rect(document.querySelector("#discard .card") || $("discard")),
    widow: new Map(), widowAll: rect(document.querySelector("#widow .widow-cards")), hand: new Map(), seats: new Map(),
  };
  for (const node of document.querySelectorAll("#widow [data-card]")) shot.widow.set(node.dataset.card, rect(node));
  for (const node of document.querySelectorAll("#hand [data-card]")) if (node.dataset.card) shot.hand.set(node.dataset.card, rect(node));
  for (const node of document.querySelectorAll(".seat")) {
    shot.seats.set(Number(node.dataset.seat), rect(node.querySelector(".seat-cards") || node));
  }
  return shot;
}

function seatCardsNode(seat) {
  return document.querySelector(`.seat[data-seat="${seat}"] .seat-cards`) || document.querySelector(`.seat[data-seat="${seat}"]`);
}

/** Where a card given to ``seat`` lands: your hand's card, or the last card at the seat. */
function landingFor(seat, card, n = 0) {
  if (seat === mySeat && !$("hand-section").hidden) {
    const mine = card ? document.querySelector(`#hand [data-card="${CSS.escape(card)}"]`) : null;
    return mine || document.querySelectorAll("#hand .card-button, #hand > .card")[n] || $("hand");
  }
  const cards = document.querySelectorAll(`.seat[data-seat="${seat}"] .seat-cards .card`);
  return cards[Math.min(n, cards.length - 1)] || cards[cards.length - 1] || seatCardsNode(seat);
}

function fromSeat(seat, card, before) {
  if (seat === mySeat && card && before.hand.has(card)) return before.hand.get(card);
  return before.seats.get(seat) || (seatCardsNode(seat) && seatCardsNode(seat).getBoundingClientRect());
}

/** Run ``show`` in its turn among the motion steps (at once when motion is reduced): what is
 * said at a seat, or a moment's banner, comes in the order things happened. */
function inOrder(show) {
  if (reducedMotion()) show();
  else motion.add(async () => show());
}

function animate(fresh, before) {
  for (const item of fresh) {
    const event = item.event;
    const live = () => !roundOf(item.round).result; // a round already over says no more at its seats
    if (event.type === "acted") {
      inOrder(() => live() && bubble(event.seat, bubbleWords(event), event.action === "knock" ? "knock" : ""));
      if (event.action === "knock") {
        inOrder(() => {
          if (!live()) return;
          sound("knock");
          banner(t("banner.knocked", { who: name(event.seat) }), "knock", MOMENT_MS);
        });
        motion.add((speed) => motion.pulse(document.querySelector(`.seat[data-seat="${event.seat}"] .plate`), speed));
      } else if (/^(draw|exchange|take)/.test(event.action)) {
        inOrder(() => sound("draw"));
      }
      motion.add((speed) => flyAction(event, before, speed));
    } else if (event.type === "round_started" && view && event.round === view.round) {
      // dealt as the new hand first shows, not after the queue: a hand in view is never dealt again
      sound("deal");
      motion.now((speed) => dealCards(event, speed));
    } else if (event.type === "reshuffled") {
      motion.add((speed) => Promise.all([0, 1, 2].map((i) => motion.fly(before.pile, document.querySelector("#stock .stack .card") || $("stock"), { delay: i * 90, speed }))));
    } else if (event.type === "new_widow") {
      motion.add((speed) => Promise.all([...document.querySelectorAll("#widow .card")].map((node) => motion.turnOver(node, speed))));
    }
  }
}

function flyAction(event, before, speed) {
  const words = event.action.split(/\s+/);
  const seat = event.seat;
  const got = event.received || [];
  const flights = [];
  if (words[0] === "draw") {
    const card = got[0] || (words[1] === "pile" ? null : null);
    const from = words[1] === "pile" ? before.pile : before.stock;
    const known = words[1] === "pile" || seat === mySeat ? card : null;
    flights.push(motion.fly(from, landingFor(seat, card, 3), { card: known, turn: words[1] === "stock" && known ? "up" : null, speed }));
  } else if (words[0] === "discard") {
    const card = words[1];
    const top = document.querySelector("#discard .card");
    flights.push(motion.fly(fromSeat(seat, card, before), top || $("discard"), { card, speed }));
  } else if (words[0] === "exchange") {
    const split = words.indexOf("for");
    const give = words[1] === "all" ? (event.revealed || []) : words.slice(1, split);
    const take = words[1] === "all" ? got : words.slice(split + 1);
    give.forEach((card, i) => {
      const slot = document.querySelector(`#widow [data-card="${CSS.escape(card)}"]`) || document.querySelectorAll("#widow .card")[i];
      flights.push(motion.fly(fromSeat(seat, card, before), slot, { card, delay: i * 70, speed }));
    });
    const count = words[1] === "all" ? 3 : take.length;
    for (let i = 0; i < count; i++) {
      const card = take[i] || null;
      const from = (card && before.widow.get(card)) || before.widowAll;
      const known = seat === mySeat || words[1] !== "all" ? card : null;
      flights.push(motion.fly(from, landingFor(seat, card, i), { card: known, delay: 120 + i * 70, speed }));
    }
  } else if (words[0] === "take") { // the Schwimmen dealer takes the other hand unseen (R7.6)
    (event.revealed || []).forEach((card, i) => {
      flights.push(motion.fly(fromSeat(seat, null, before), document.querySelectorAll("#widow .card")[i], { card, delay: i * 70, speed }));
    });
    for (let i = 0; i < 3; i++) flights.push(motion.fly(before.widowAll, landingFor(seat, got[i] || null, i), { card: seat === mySeat ? got[i] || null : null, turn: seat === mySeat && got[i] ? "up" : null, delay: 150 + i * 70, speed }));
  } else if ((event.revealed || []).length) { // keep, pass or knock that turned the widow up (R7.2, R7.6)
    for (const node of document.querySelectorAll("#widow .card")) flights.push(motion.turnOver(node, speed));
  }
  return Promise.all(flights);
}

function dealCards(event, speed) {
  const stock = document.querySelector("#stock .stack") || $("middle");
  const from = stock.getBoundingClientRect();
  const order = event.seats.slice();
  const at = order.indexOf(event.dealer);
  const seats = order.slice(at + 1).concat(order.slice(0, at + 1));
  const flights = [];
  let n = 0;
  for (let i = 0; i < 3; i++) {
    for (const seat of seats) {
      if (showdown && seat !== mySeat) continue; // the seat still shows its last hand face up
      const card = seat === mySeat && view.hand ? view.hand[i] : null;
      flights.push(motion.fly(from, landingFor(seat, card, i), { card, turn: card ? "up" : null, delay: n * 55, speed, duration: 320 }));
      n++;
    }
  }
  const widow = document.querySelectorAll("#widow .card");
  widow.forEach((node, i) => flights.push(motion.fly(from, node, { card: node.dataset.card || null, delay: (n + i) * 55, speed, duration: 320 })));
  n += widow.length;
  if (event.upcard) {
    const top = document.querySelector("#discard .card");
    if (top) flights.push(motion.fly(from, top, { card: event.upcard, turn: "up", delay: n * 55, speed }));
  }
  return Promise.all(flights);
}

/** A speech bubble over ``seat`` for a moment (what it did, or said). */
const bubbles = new Map(); // seat -> its bubble showing now

function bubble(seat, text, kind = "") {
  const anchor = document.querySelector(`.seat[data-seat="${seat}"]`);
  if (!anchor || !text) return;
  if (bubbles.has(seat)) bubbles.get(seat).remove();
  const box = anchor.getBoundingClientRect();
  const node = h("div", { class: `bubble${kind ? ` ${kind}` : ""}${reducedMotion() ? "" : " show"}`, "aria-hidden": "true" }, text);
  node.style.left = `${box.left + box.width / 2}px`;
  node.style.top = `${Math.max(18, box.top - 2)}px`;
  $("flyers").append(node);
  bubbles.set(seat, node);
  setTimeout(() => {
    node.remove();
    if (bubbles.get(seat) === node) bubbles.delete(seat);
  }, BUBBLE_MS);
}

// ---------------------------------------------------------------------------------- drawing

function render() {
  if (!table) return;
  const focusKey = focusedKey();
  const over = ended();
  document.body.dataset.status = table.status;
  if (lang !== "en") $("describe").textContent = describeRules(); // the server writes the rules in English
  $("stage").dataset.over = over ? "yes" : "no";
  document.body.dataset.turn = myTurn() ? "me" : "other";
  const freeSeats = table.seats.filter((s) => s.kind === "human" && !s.taken && !s.reserved);
  $("join").hidden = !(mySeat === null && table.status === "open" && freeSeats.length > 0);
  $("join-free").textContent = tn("join.free", freeSeats.length);
  $("commitment").textContent = table.commitment && !over ? table.commitment : over ? t("fair.no_more") : "–";
  layoutStage();
  renderSeats();
  renderMiddle(over);
  renderStatus(over);
  renderTimer();
  if (!view || picks.seq !== seq) picks = { seq, hand: new Set(), widow: new Set() };
  renderHand();
  renderActions();
  renderOver();
  renderTableTools();
  renderRules();
  restoreFocus(focusKey);
}

/** The seats' places around the felt for this stage's size and the number of seats. */
function layoutStage() {
  const stage = $("stage");
  const box = stage.getBoundingClientRect();
  const count = table.players;
  const widow = table.rules.mode === "widow";
  const key = `${Math.round(box.width)}x${Math.round(box.height)}:${count}:${widow}:${mySeat}`;
  if (key === layoutKey) return;
  layoutKey = key;
  const cardAt = (scale) => Math.round(Math.max(40, Math.min(96, CARD.w * scale)));
  const centre = (scale) => {
    const w = cardAt(scale);
    const cards = widow ? 3 * w + 2 * 6 : 2 * w + 16;
    return { w: Math.max(cards + 12, 176), h: Math.round(w * 1.4) + 16 + 40 + 16 + 26 + 14 }; // + a label's second line
  };
  const layout = placeSeats({ width: box.width, height: box.height, count, plate: PLATE, centre, scales: [1.25, 0.5] });
  stage.dataset.scale = layout.scale.toFixed(2);
  const s = layout.plate.w / PLATE.w;
  stage.dataset.compact = s < 0.8 ? "yes" : "no";
  stage.style.setProperty("--s", String(s));
  stage.style.setProperty("--mini-w", `${Math.round(28 * Math.max(s, 0.62))}px`);
  stage.style.setProperty("--mini-h", `${Math.round(39 * Math.max(s, 0.62))}px`);
  const cardW = cardAt(layout.scale);
  stage.style.setProperty("--card-w", `${cardW}px`);
  stage.style.setProperty("--card-h", `${Math.round(cardW * 1.4)}px`);
  $("middle").style.width = `${Math.round(layout.centre.w)}px`;
  $("middle").style.height = `${Math.round(layout.centre.h)}px`;
  stage.style.setProperty("--centre-w", `${Math.round(Math.max(layout.centre.w + 40, 220))}px`);
  const felt = $("felt");
  felt.style.left = `${layout.felt.x}px`;
  felt.style.top = `${layout.felt.y}px`;
  felt.style.width = `${layout.felt.w}px`;
  felt.style.height = `${layout.felt.h}px`;
  stage.layout = layout;
}

function avatarColour(seat) {
  return AVATARS[seat % AVATARS.length];
}

/** A seat's lives as tokens (R2.2-R2.4): a penny for each life, then the grace life as its own
 * mark (on the dole / on the bus / schwimmt), lit when it is all that is left. ``short``: one
 * penny and the number instead (more than five lives, or a plate too narrow for them all). */
function livesView(status, short = false) {
  const rules = table.rules;
  const node = h("p", { class: "lives" });
  if (status.out || status.remaining <= 0) {
    node.append(h("span", { class: "out-word" }, t("lives.out")));
    node.setAttribute("aria-label", t("lives.out_long"));
    return node;
  }
  if (short || rules.lives > 5) {
    node.classList.add("short");
    if (status.lives > 0) node.append(h("span", { class: "coin", "aria-hidden": "true" }), h("span", { class: "more", "aria-hidden": "true" }, num(status.lives)));
  } else {
    for (let i = 0; i < rules.lives; i++) node.append(h("span", { class: `coin${i < status.lives ? "" : " lost"}`, "aria-hidden": "true" }));
  }
  if (rules.grace_life) node.append(h("span", { class: `grace${status.on_grace ? " now" : ""}`, title: t("grace.title", { grace: graceWord() }), "aria-hidden": "true" }, h("span", { class: "grace-word" }, status.on_grace ? graceWord() : GRACE_MARK[table.preset] || t("grace_mark.dole"))));
  const words = status.on_grace ? graceWord() : rules.grace_life ? tn("lives.then_grace", status.lives, { grace: graceWord() }) : tn("lives.count", status.lives);
  node.setAttribute("aria-label", words);
  node.setAttribute("role", "img");
  return node;
}

/** A seat's cards: the ones everyone saw it take face up, the rest face down; in a showdown, its
 * hand face up with its value. */
function seatCards(seatInfo, status) {
  const seat = seatInfo.seat;
  if (showdown) {
    const hand = showdown.result.hands[seat];
    const value = showdown.result.values[seat];
    if (hand) {
      const lost = showdown.result.losses.filter((l) => l.seat === seat).reduce((sum, l) => sum + l.lives, 0);
      const blitz = showdown.result.blitz.includes(seat);
      return h("div", { class: "seat-cards shown", role: "img", "aria-label": t("seat.shows", { cards: list(hand.map(cardLabel)), value: points(value) }) },
        hand.map((card) => cardElement(card, { label: false })),
        h("span", { class: `value-badge${blitz ? " blitz" : lost ? " low" : ""}` }, `${points(value)}${lost ? ` −${lost}` : ""}`));
    }
  }
  if (!view || ended() || !status || status.out || seat === mySeat) return h("div", { class: "seat-cards" });
  const known = status.known_cards || [];
  const held = view.current_seat === seat && view.phase === "discard" ? 4 : 3; // drawn, not yet discarded
  const hidden = Math.max(0, held - known.length);
  const label = known.length
    ? tn("seat.cards_known", held, { known: list(known.map(cardLabel)), hidden: num(hidden) })
    : tn("seat.cards_down", held);
  return h("div", { class: "seat-cards", role: "img", "aria-label": label },
    known.map((card) => cardElement(card, { label: false })),
    Array.from({ length: hidden }, () => cardElement(null, { label: false })));
}

function renderSeats() {
  const layout = $("stage").layout;
  const playing = table.status === "playing";
  const bottom = mySeat ?? 0;
  const count = table.players;
  const items = table.seats.map((s) => {
    const status = view ? view.seats[s.seat] : null;
    const current = playing && view && view.current_seat === s.seat && view.phase !== "over";
    const connected = s.seat === mySeat ? online : s.connected;
    const chips = [];
    if (s.kind === "bot") chips.push(t("chip.bot", { level: t(`level.${s.level}`) }));
    else if (!s.taken) chips.push(s.reserved ? t("chip.kept") : t("chip.free"));
    else if (!connected) chips.push(t("chip.offline"));
    if (current) chips.unshift(t("chip.to_move"));
    const offline = s.kind === "human" && s.taken && !connected;
    const winner = ended() && table.winner === s.seat;
    const colour = avatarColour(s.seat);
    const avatar = h("span", { class: `avatar${LIGHT_AVATARS.has(colour) ? " light" : ""}`, "aria-hidden": "true" },
      firstGrapheme((s.seat === mySeat && s.name ? s.name : name(s.seat)).trim()).toUpperCase() || "?",
      h("span", { class: `dot${s.kind === "bot" ? " bot" : connected ? "" : " offline"}` }));
    avatar.style.setProperty("--avatar", colour);
    if (current && table.turn_deadline && online) avatar.append(timerRing());
    const marks = h("span", { class: "marks" },
      view && view.dealer === s.seat && !ended() ? h("span", { class: "dealer-button", title: t("seat.dealer_title"), "aria-label": t("seat.dealer") }, t("seat.dealer_mark")) : null,
      view && view.knocker === s.seat && !ended() ? h("span", { class: "knock-mark", title: t("seat.knocked_title") }, t("seat.knocked")) : null);
    const item = h("li", {
      class: `seat${s.seat === mySeat ? " me" : ""}${current ? " current" : ""}${status && status.out ? " out" : ""}${offline ? " offline" : ""}${winner ? " winner" : ""}`,
      "aria-current": current ? "true" : null, "data-seat": s.seat,
    },
    seatCards(s, status),
    h("div", { class: "plate-wrap" }, h("div", { class: "plate" }, avatar,
      h("div", { class: "who" }, h("h3", { title: s.name || name(s.seat) }, name(s.seat)),
        status ? livesView(status) : h("p", { class: "lives" }, tn("lives.count", table.rules.lives)),
        h("p", { class: "chips" }, chips.join(" · ")))),
      marks));
    if (layout) {
      const spot = layout.spots[(s.seat - bottom + count) % count];
      item.style.left = `${spot.x}px`;
      item.style.top = `${spot.y}px`;
      item.style.width = `${layout.plate.w}px`;
      item.style.height = `${layout.plate.h}px`;
    }
    return item;
  });
  $("seats").replaceChildren(...items);
  for (const lives of document.querySelectorAll(".seat .lives[role=img]:not(.short)")) { // a penny cut off would misstate the lives
    if (lives.scrollWidth > lives.clientWidth + 1) lives.replaceWith(livesView(view.seats[Number(lives.closest(".seat").dataset.seat)], true));
  }
}

function timerRing() {
  const ring = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  ring.setAttribute("viewBox", "0 0 40 40");
  ring.setAttribute("class", "ring");
  ring.setAttribute("aria-hidden", "true");
  for (const kind of ["track", "left"]) {
    const circle = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    circle.setAttribute("cx", "20");
    circle.setAttribute("cy", "20");
    circle.setAttribute("r", "18");
    circle.setAttribute("class", kind);
    circle.setAttribute("pathLength", "100");
    circle.setAttribute("stroke-dasharray", "100");
    ring.append(circle);
  }
  tickRing(ring);
  return ring;
}

function tickRing(ring) {
  const left = ring.querySelector(".left");
  if (!left || !table || !table.turn_deadline || !table.turn_timer) return;
  const seconds = Math.max(0, table.turn_deadline - Date.now() / 1000);
  const part = Math.max(0, Math.min(1, seconds / table.turn_timer));
  left.setAttribute("stroke-dashoffset", String(100 - part * 100));
  left.classList.toggle("hurry", seconds <= 10);
}

function compact() {
  return Number($("stage").dataset.scale || 1) < 0.85;
}

function renderMiddle(over) {
  const middle = $("middle");
  const waiting = !view && table.status === "open"; // nothing dealt yet: the middle says who is awaited
  middle.hidden = (!view && !waiting) || over;
  middle.querySelector(".piles").hidden = waiting;
  if (middle.hidden || waiting) return;
  const widowMode = view.widow !== null || view.widow_face_down;
  const mine = myTurn();
  const canStock = mine && view.legal_actions.includes("draw stock");
  const canPile = mine && view.legal_actions.includes("draw pile");
  const stock = $("stock");
  stock.hidden = widowMode; // widow mode: nobody draws from the stock
  stock.disabled = !canStock;
  stock.setAttribute("aria-label", canStock ? t("move.draw_stock") : tn("pile.stock_label", view.stock_size));
  stock.replaceChildren(
    view.stock_size ? h("span", { class: "stack" }, ...Array.from({ length: Math.min(3, view.stock_size) }, () => cardElement(null, { label: false })))
      : h("span", { class: "empty" }, t("pile.empty")),
    h("span", { class: "pile-label" }, compact() ? t("pile.stock") : t("pile.with_count", { pile: t("pile.stock"), count: num(view.stock_size) })));
  const discard = $("discard");
  discard.hidden = widowMode && !view.discard_size;
  discard.disabled = !canPile;
  discard.setAttribute("aria-label", canPile ? actionWords("draw pile", view) : view.discard_top ? t("pile.discard_top", { card: cardLabel(view.discard_top) }) : t("pile.discard_empty"));
  discard.replaceChildren(
    view.discard_top ? cardElement(view.discard_top, { className: "top" }) : h("span", { class: "empty" }, t("pile.empty")),
    h("span", { class: "pile-label" }, compact() ? t("pile.short") : view.discard_size ? t("pile.with_count", { pile: t("pile.discard"), count: num(view.discard_size) }) : t("pile.discard")));
  const widow = $("widow");
  widow.hidden = !widowMode;
  if (widowMode) {
    const swaps = exchanges();
    const cards = view.widow
      ? view.widow.map((card) => (swaps.size
        ? h("button", { type: "button", class: "card-button", "aria-pressed": String(picks.widow.has(card)), "aria-label": t("widow.take", { card: cardLabel(card) }), "data-key": `widow ${card}`, "data-card": card, onclick: () => togglePick(picks.widow, card) }, cardElement(card, { label: false }))
        : cardElement(card)))
      : [cardElement(null), cardElement(null), cardElement(null)];
    widow.replaceChildren(h("div", { class: "widow-cards" }, cards), h("span", { class: "pile-label" }, view.widow ? t("pile.widow") : t("pile.widow_face_down")));
  }
}

function renderStatus(over) {
  let text;
  const free = table.seats.filter((s) => s.kind === "human" && !s.taken).length;
  if (table.status === "open") {
    const kept = table.seats.filter((s) => s.reserved).map((s) => s.name);
    text = kept.length
      ? tn("status.waiting_for", kept.length, { who: list(kept) })
      : tn("status.waiting", free);
  } else if (table.status === "closed") text = t("status.closed");
  else if (over) text = t("status.over");
  else if (view) text = myTurn() ? (view.phase === "discard" ? t("status.your_turn_discard") : t("status.your_turn")) : t("status.to_move", { who: name(view.current_seat) });
  else text = "";
  if (mySeat === null && table.status !== "open" && !over) text = t("status.watching", { text });
  else if (mySeat === null && over) text = t("status.watched", { text });
  if (view && !over) text = t("status.round", { round: num(view.round), text });
  $("status").textContent = text;
  const chip = lastResultRound && !over && !showdown && $("result").hidden ? lastResultRound : null;
  let button = $("last-result");
  if (chip && !button) {
    button = h("button", { type: "button", id: "last-result", class: "last-result", onclick: () => { const r = roundOf(lastResultRound).result; if (r) showResult(r); } });
    $("middle").append(button);
  }
  if (button) {
    button.hidden = !chip;
    if (chip) button.textContent = t("status.last_result", { round: num(chip), text: shortResult(roundOf(chip).result) });
  }
  if (view && view.knocker !== null && !over) $("status").textContent = t("status.last_turns", { text: $("status").textContent }); // the seat wears the knock too
}

function shortResult(result) {
  if (!result) return t("status.result");
  if (!result.losses.length) return t("status.nobody");
  return list(result.losses.map((l) => t("status.lost", { who: name(l.seat), lives: num(l.lives) })));
}

// The turn timer (`thirtyone serve --turn-timer`): seconds left before the server plays a legal
// default for the player to move; the server's deadline is Unix time, so clocks must roughly agree.
// Not shown while disconnected: the page cannot know the server's deadline then.
function renderTimer() {
  const deadline = online && table && table.status === "playing" && view && view.phase !== "over" ? table.turn_deadline : null;
  const timer = $("timer");
  timer.hidden = deadline === null || deadline === undefined;
  for (const ring of document.querySelectorAll(".seat .ring")) tickRing(ring);
  if (timer.hidden) return;
  const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
  const mine = myTurn();
  timer.textContent = mine ? t("timer.you", { seconds: num(left) }) : t("timer.other", { who: name(view.current_seat), seconds: num(left) });
  timer.title = mine ? t("timer.title_you") : t("timer.title_other");
  if (mine && left === 10) announce(t("timer.ten"));
}
setInterval(renderTimer, 1000);

function banner(text, kind, ms = 0) {
  const box = $("banner");
  clearTimeout(banner.timer);
  if (ms) banner.timer = setTimeout(() => { if (box.dataset.kind === kind) banner("", ""); }, ms);
  box.hidden = !text;
  box.dataset.kind = kind || "";
  $("banner-text").textContent = text || "";
  box.classList.remove("pop");
  void box.offsetWidth; // restart the animation
  if (!reducedMotion()) box.classList.add("pop");
}

/** A round's result in a few lines for the middle of the table (the hands are at the seats; every
 * detail is in the scores panel): how it ended, who lost how many lives and why, who is out. */
function resultSummary(result) {
  const who = names();
  const losses = result.losses.map((loss) => h("li", {}, h("strong", {}, tn(loss.seat === mySeat ? "summary.loses_you" : "summary.loses", loss.lives, { who: who[loss.seat] })),
    t("summary.why", { why: lossWords(loss, result, who) }), " ", h("span", { class: "rule", title: t("summary.rule", { rule: loss.rule }) }, `(${loss.rule})`)));
  if (!losses.length) losses.push(h("li", {}, t("result.nobody")));
  const how = result.knocker === null ? endWords(result)
    : t(result.end === "throw_down" ? "result.with_thrower" : "result.with_knocker", { text: endWords(result), who: who[result.knocker] });
  return [
    h("p", { class: "how" }, how),
    h("ul", { class: "losses" }, losses),
    result.eliminated.length ? h("p", { class: "out-line" }, t("result.eliminated", { who: namesList(result.eliminated, who) })) : null,
  ].filter(Boolean);
}

function showResult(result) {
  resultShown = result.round;
  $("result-heading").textContent = t("result.heading", { round: num(result.round) });
  $("result-body").replaceChildren(...resultSummary(result));
  $("result").hidden = false;
  renderStatus(ended());
}

function hideResult() {
  $("result").hidden = true;
  resultShown = null;
  if (table) renderStatus(ended());
}

// ---------------------------------------------------------------------------------- your hand and moves

/** The exchanges the view lists ("exchange Kd 2s for 4h 2h"), keyed by the cards given and taken. */
function exchanges() {
  const found = new Map();
  if (!myTurn()) return found;
  for (const notation of view.legal_actions) {
    const words = notation.split(/\s+/);
    const split = words.indexOf("for");
    if (words[0] !== "exchange" || split < 0) continue;
    found.set(pickKey(words.slice(1, split), words.slice(split + 1)), notation);
  }
  return found;
}

function pickKey(give, take) {
  return `${[...give].sort().join(" ")}|${[...take].sort().join(" ")}`;
}

function togglePick(set, card) {
  if (suppressClick) return;
  if (set.has(card)) set.delete(card);
  else set.add(card);
  showAlert("");
  renderMiddle(ended());
  renderHand();
  renderActions();
}

const RANK_VALUE = { A: 14, K: 13, Q: 12, J: 11, T: 10 };

/** Your cards as a player holds them: suits together (the suit with most cards, then the most
 * points, first), high cards first within a suit. */
function sortHand(hand) {
  const count = {};
  const total = {};
  for (const card of hand) {
    count[card[1]] = (count[card[1]] || 0) + 1;
    total[card[1]] = (total[card[1]] || 0) + (RANK_VALUE[card[0]] || Number(card[0]));
  }
  const rank = (card) => RANK_VALUE[card[0]] || Number(card[0]);
  return [...hand].sort((a, b) => count[b[1]] - count[a[1]] || total[b[1]] - total[a[1]] || b[1].localeCompare(a[1]) || rank(b) - rank(a));
}

/** The card this seat got this turn (drawn, not yet discarded: R4.1), from its own events. */
function justDrawn() {
  if (!myTurn() || view.phase !== "discard") return null;
  const events = roundOf(view.round).events;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event.type === "acted" && event.seat === mySeat) return event.action.startsWith("draw") && event.received ? event.received[0] : null;
  }
  return null;
}

let handKey = "";
let actionsKey = "";
let paint = 0; // bumped when the cards are drawn anew (the four-colour deck)

function renderHand() {
  const key = JSON.stringify([paint, seq, mySeat, ended(), view && view.hand, view && view.legal_actions, view && view.taken_from_pile, [...picks.hand], [...picks.widow], drag !== null]);
  if (key === handKey && $("hand").children.length) return;
  handKey = key;
  const box = $("hand");
  $("hand-section").hidden = mySeat === null || !view || ended();
  if ($("hand-section").hidden) {
    box.replaceChildren();
    $("hand-value").textContent = "";
    return;
  }
  if (view.seats[mySeat].out) {
    box.replaceChildren();
    $("hand-value").textContent = t("hand.out");
    return;
  }
  const mine = myTurn();
  const discards = new Map(mine ? view.legal_actions.filter((a) => a.startsWith("discard ")).map((a) => [a.split(" ")[1], a]) : []);
  const swaps = exchanges();
  const kept = mine && view.taken_from_pile;
  const fresh = justDrawn();
  const hand = view.hand ? sortHand(view.hand) : [null, null, null];
  const cards = hand.map((card, i) => {
    let node;
    const face = cardElement(card, { label: false });
    if (card && kept === card && discards.size) {
      const why = t("kept.why", { card: pretty(card) });
      node = h("button", { type: "button", class: "card-button kept", "aria-disabled": "true", "data-card": card, "data-key": `hand ${card}`, "aria-label": t("kept.label", { card: cardLabel(card) }), title: t("kept.title"), onclick: () => showAlert(why, "info") },
        face, h("span", { class: "tag kept-mark" }, t("kept.tag"), h("span", { class: "sr-only" }, t("kept.sr"))));
    } else if (card && discards.has(card)) {
      node = h("button", { type: "button", class: "card-button", "aria-label": t("move.discard", { card: cardLabel(card) }), "aria-keyshortcuts": String(i + 1), "data-card": card, "data-key": `hand ${card}`, onclick: (click) => { if (!suppressClick) act(discards.get(card), click); } }, face);
    } else if (card && swaps.size) {
      node = h("button", { type: "button", class: "card-button", "aria-pressed": String(picks.hand.has(card)), "aria-label": t("widow.give", { card: cardLabel(card) }), "data-card": card, "data-key": `hand ${card}`, onclick: () => togglePick(picks.hand, card) }, face);
    } else {
      node = cardElement(card);
      if (!card) node.dataset.card = "";
    }
    if (card && card === fresh) node.append(h("span", { class: "tag new-mark" }, t("hand.new")));
    node.style.setProperty("--i", String(i));
    node.style.setProperty("--n", String(hand.length));
    const middle = (hand.length - 1) / 2;
    node.style.setProperty("--arc", `${Math.round(Math.abs(i - middle) ** 2 * 4)}px`);
    if (node.tagName === "BUTTON" && (discards.has(card) || swaps.size)) node.addEventListener("pointerdown", (event) => startDrag(event, node, card));
    return node;
  });
  box.replaceChildren(...cards);
  const words = handWords(); // the card kept by R4.2 is marked on the card itself
  $("hand-value").replaceChildren(view.hand && view.hand.length === 3 && view.hand_value !== null
    ? h("strong", {}, pointsWords(view.hand_value))
    : `${words[0].toUpperCase()}${words.slice(1)}.`);
}

/** Pick-then-confirm for exchanges with the widow (R7.1, R7.5): pick cards of your hand and as
 * many of the widow (toggle buttons), then this button; only a pick the view lists as legal can be sent. */
function exchangeButton(swaps) {
  const give = [...picks.hand];
  const take = [...picks.widow];
  const chosen = swaps.get(pickKey(give, take));
  let label = t("swap.pick");
  if (chosen) label = actionWords(chosen, view);
  else if (give.length && give.length === take.length) label = t("swap.too_many");
  else if (give.length || take.length) label = take.length < give.length ? t("swap.now_widow") : t("swap.now_yours");
  return h("button", { type: "button", class: "action primary exchange", "data-key": "exchange", "data-action": chosen || null, disabled: !chosen, onclick: (click) => chosen && act(chosen, click) }, label);
}

/** A move in a word or two, for a narrow screen (the button's full words stay for screen readers). */
function shortWords(notation) {
  const words = notation.split(/\s+/);
  if (notation === "draw stock") return t("short.draw");
  if (notation === "draw pile") return view.discard_top ? t("short.take_card", { card: pretty(view.discard_top) }) : t("short.take");
  if (words[0] === "discard") return pretty(words[1]);
  if (notation === "exchange all") return view.widow === null ? t("short.take_widow") : t("short.swap_all");
  if (notation === "take widow") return t("short.other_hand");
  if (notation === "keep") return t("short.keep");
  if (notation === "throw down") return t("short.throw");
  return actionWords(notation, view);
}

const ORDER = ["draw stock", "draw pile", "look", "keep", "take widow", "exchange all", "pass", "throw down", "knock"];

function renderActions() {
  const key = JSON.stringify([seq, myTurn(), view && view.legal_actions, view && view.discard_top, [...picks.hand], [...picks.widow], table.hints]);
  if (key === actionsKey) return;
  actionsKey = key;
  const section = $("actions-section");
  section.hidden = !myTurn();
  $("knock-note").hidden = true;
  $("hint").hidden = table.hints === false;
  if (section.hidden) {
    $("hint-text").textContent = "";
    $("actions").replaceChildren();
    return;
  }
  const swaps = exchanges();
  const plain = view.legal_actions.filter((notation) => !(notation.startsWith("exchange ") && notation.includes(" for ")));
  const rank = (notation) => (notation.startsWith("discard ") ? 0.5 : ORDER.indexOf(notation) >= 0 ? ORDER.indexOf(notation) : 5);
  plain.sort((a, b) => rank(a) - rank(b));
  const first = plain.find((n) => n !== "knock");
  $("actions").replaceChildren(
    ...(swaps.size ? [exchangeButton(swaps)] : []),
    ...plain.map((notation) => h("button", {
      type: "button", class: `action${notation === "knock" ? " knock" : notation === first && !swaps.size && !notation.startsWith("discard ") ? " primary" : ""}`,
      "data-action": notation, "data-key": `action ${notation}`, onclick: (click) => act(notation, click),
    }, h("span", { class: "long" }, actionWords(notation, view)), h("span", { class: "short", "aria-hidden": "true" }, shortWords(notation)))));
  const why = knockRefusal();
  $("knock-note").hidden = !why;
  $("knock-note").textContent = why || "";
}

// Drag a card of your hand onto the discard pile (discard it) or onto a widow card (swap the two);
// anywhere else it goes back, and the page says where it may go.
function startDrag(event, node, card) {
  if (event.button !== 0 || !myTurn()) return;
  drag = { node, card, x: event.clientX, y: event.clientY, moved: false, pointer: event.pointerId };
  node.setPointerCapture(event.pointerId);
  node.addEventListener("pointermove", moveDrag);
  node.addEventListener("pointerup", endDrag);
  node.addEventListener("pointercancel", cancelDrag);
}

function dropTargets() {
  const targets = [];
  if (!drag) return targets;
  if (view.legal_actions.includes(`discard ${drag.card}`)) targets.push({ node: $("discard"), action: `discard ${drag.card}` });
  for (const node of document.querySelectorAll("#widow [data-card]")) {
    const notation = `exchange ${drag.card} for ${node.dataset.card}`;
    if (view.legal_actions.includes(notation)) targets.push({ node, action: notation });
  }
  return targets;
}

function moveDrag(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 8) return;
  if (!drag.moved) {
    drag.moved = true;
    drag.node.classList.add("dragging");
    for (const target of dropTargets()) target.node.classList.add("drop-target");
  }
  drag.node.style.translate = `${dx}px ${dy}px`;
}

function endDrag(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const { node, card, moved } = drag;
  const targets = dropTargets();
  cancelDrag();
  if (!moved) return;
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  const under = document.elementsFromPoint(event.clientX, event.clientY);
  const hit = targets.find((target) => under.some((element) => target.node === element || target.node.contains(element)));
  if (hit) {
    act(hit.action);
    return;
  }
  if (card === view.taken_from_pile) showAlert(t("drag.kept", { card: pretty(card) }), "info");
  else if (targets.length) showAlert(t(targets.some((target) => target.node === $("discard")) ? "drag.back_pile" : "drag.back_widow", { card: pretty(card) }), "info");
  else showAlert(t("drag.back", { card: pretty(card) }), "info");
  void node;
}

function cancelDrag() {
  if (!drag) return;
  const { node } = drag;
  node.classList.remove("dragging");
  node.style.translate = "";
  node.removeEventListener("pointermove", moveDrag);
  node.removeEventListener("pointerup", endDrag);
  node.removeEventListener("pointercancel", cancelDrag);
  for (const target of document.querySelectorAll(".drop-target")) target.classList.remove("drop-target");
  drag = null;
}

// Keyboard focus survives redrawing: the same control if it is still there, else the first move
// when it is your turn, else your hand's region (never <body>).
function focusedKey() {
  const active = document.activeElement;
  if (!active || !($("me").contains(active) || $("middle").contains(active))) return null;
  return active.dataset.key || "region";
}

function restoreFocus(key) {
  const first = $("actions").querySelector("button:not(:disabled):not(.knock)") || $("actions").querySelector("button:not(:disabled)");
  if (key === null && !focusedOnce && myTurn() && document.activeElement === document.body) {
    if (first) {
      focusedOnce = true;
      first.focus({ preventScroll: true });
    }
    return;
  }
  if (key === null) return;
  const same = key !== "region" ? document.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  const target = same && !same.closest("[hidden]") ? same : myTurn() && first ? first : !$("hand-section").hidden ? $("hand-section") : null;
  if (target && target !== document.activeElement) target.focus({ preventScroll: true });
}

// ---------------------------------------------------------------------------------- the end, and play again

/** Places at the end (R2.5): the winner first, then the reverse order of elimination; players put
 * out by the same round share a place. */
function standings() {
  const results = [...rounds.keys()].sort((a, b) => a - b).map((n) => rounds.get(n).result).filter(Boolean);
  const out = [];
  for (const result of results) if (result.eliminated.length) out.push(result.eliminated);
  const places = [];
  if (table.winner !== null && table.winner !== undefined) places.push({ place: 1, seats: [table.winner] });
  let place = places.length + 1;
  for (const group of out.reverse()) {
    places.push({ place, seats: group });
    place += group.length;
  }
  const placed = new Set(places.flatMap((p) => p.seats));
  const rest = table.seats.map((s) => s.seat).filter((seat) => !placed.has(seat));
  if (rest.length) places.push({ place, seats: rest }); // a closed game: the others, still in
  return places;
}

function renderOver() {
  if (!table) return;
  const over = ended();
  const opening = over && $("over").hidden;
  $("over").hidden = !over;
  $("centre").classList.toggle("ending", over);
  if (!over) return;
  if (opening) {
    motion.skip(); // the end: what still flies lands, under the final standings
    showAlert(""); // an earlier alert would lie over the end's heading, and no longer holds
  }
  const closed = table.status === "closed";
  $("over-heading").textContent = closed ? t("over.closed_heading") : t("table.game_over");
  const winner = table.winner ?? null;
  $("winner").textContent = closed
    ? t("over.closed")
    : winner !== null ? t(winner === mySeat ? "over.winner_you" : "over.winner", { who: name(winner) }) : t("status.over");
  const numbers = [...rounds.keys()].sort((a, b) => a - b).filter((n) => rounds.get(n).result);
  const places = standings();
  const key = JSON.stringify([closed, numbers, places, names()]);
  if (key !== standingsKey) renderStandings(closed, numbers, places);
  standingsKey = key;
  $("download").parentElement.hidden = !table.record_path; // closed before its game started: no record
  if (table.record_path) $("download").href = table.record_path;
  $("replay-link").href = `/r/${code}`;
  const next = table.rematch;
  const mine = next && localStorage.getItem(`thirtyone.token.${next}`);
  const rematch = $("rematch");
  rematch.hidden = mySeat === null;
  rematch.textContent = mine ? t("rematch.go") : next ? t("rematch.take_seat") : t("table.play_again");
  $("rematch-link").hidden = !(next && mySeat === null);
  if (next) $("rematch-link").href = `/t/${next}`;
  $("rematch-note").textContent = next
    ? (rematchBy !== null ? t("rematch.asked", { who: name(rematchBy), code: next }) : t("rematch.there", { code: next }))
    : mySeat === null ? t("rematch.watch") : t("rematch.offer");
  const last = [...rounds.keys()].sort((a, b) => b - a).map((n) => rounds.get(n).result).find(Boolean);
  if (!last) return; // closed in round 1: no round has a result to show
  if (resultShown !== last.round) showResult(last);
  else if (table.record_path) $("result").hidden = false;
}

let standingsKey = "";

/** The final standings, one column a round: drawn anew only when they change (a redraw would lose
 * where they were scrolled to), then scrolled to their last rounds, where the game was lost. */
function renderStandings(closed, numbers, places) {
  const box = $("standings");
  box.replaceChildren(...(closed && !rounds.size ? [] : [h("table", { class: "standings-table" },
    h("caption", { class: "sr-only" }, t("over.caption")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("over.place")), h("th", { scope: "col" }, t("over.player")),
      ...numbers.map((n) => h("th", { scope: "col", title: t("over.round_title", { round: num(n) }) }, t("over.round_col", { round: num(n) }))))),
    h("tbody", {}, ...places.flatMap(({ place, seats }) => seats.map((seat) => h("tr", { class: place === 1 && !closed ? "first" : null },
      h("td", { class: "place" }, closed ? "–" : t("over.place_n", { place: num(place) })),
      h("th", { scope: "row", class: "name" }, name(seat)),
      ...numbers.map((n) => {
        const left = rounds.get(n).result.remaining[seat];
        return h("td", { class: left <= 0 ? "gone" : null }, left <= 0 ? "✕" : num(left));
      }))))))]));
  box.scrollLeft = rtl ? -box.scrollWidth : box.scrollWidth;
  markScrolled(box);
}

/** Where the names stay put (just after the places, as wide as they are now), and whether rounds
 * are hidden before the ones in view: the name column then casts an edge over them. */
function markScrolled(box) {
  const place = box.querySelector("tr > :first-child");
  if (place) box.style.setProperty("--place-w", `${place.offsetWidth}px`);
  box.dataset.before = Math.abs(box.scrollLeft) > 1 ? "yes" : "no";
}

async function playAgain() {
  const next = table && table.rematch;
  if (next && localStorage.getItem(`thirtyone.token.${next}`)) {
    location.assign(`/t/${next}`);
    return;
  }
  const token = localStorage.getItem(tokenKey);
  if (!token) {
    showAlert(t("rematch.players_only"));
    return;
  }
  $("rematch").disabled = true;
  try {
    const made = await api(`/api/tables/${code}/rematch`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
    localStorage.setItem(`thirtyone.token.${made.code}`, made.token);
    if (made.host_token) localStorage.setItem(`thirtyone.host.${made.code}`, made.host_token);
    location.assign(`/t/${made.code}`);
  } catch (error) {
    $("rematch").disabled = false;
    if (error.code === "seat_taken" && next) showAlert(t("rematch.seated", { code: next }), "info");
    else showAlert(t("rematch.failed", { error: error.message }));
  }
}

// ---------------------------------------------------------------------------------- the side panels

/** Whether the side panel stands beside the table (a wide screen) rather than over it. */
function wide() {
  return window.matchMedia("(min-width: 1000px)").matches;
}

function openPanel(which, toggle = false) {
  if (toggle && sideOpen && panel === which) {
    sideOpen = false;
  } else {
    panel = which;
    sideOpen = true;
  }
  $("side").classList.toggle("open", sideOpen);
  for (const tab of document.querySelectorAll(".side-tabs [role=tab]")) {
    const on = tab.dataset.panel === panel;
    tab.setAttribute("aria-selected", String(on));
    $(`${tab.dataset.panel}-section`).hidden = !on;
  }
  if (panel === "chat") {
    unread = 0;
    renderUnread();
  }
  renderLog();
}

function renderLog() {
  const lines = [];
  for (const number of [...rounds.keys()].sort((a, b) => a - b)) {
    const entry = rounds.get(number);
    entry.events.forEach((event, index) => {
      const line = eventWords(event, sourceOf(number, index));
      if (line) lines.push(h("li", { class: event.type === "round_started" ? "round-line" : event.type === "round_ended" ? "result-line" : null }, line));
    });
  }
  lines.reverse();
  $("log").replaceChildren(...lines.slice(0, 400));
}

function renderScores() {
  if (!table) return;
  const numbers = [...rounds.keys()].sort((a, b) => a - b).filter((n) => rounds.get(n).result);
  const start = table.rules.lives + (table.rules.grace_life ? 1 : 0);
  const head = h("tr", {}, h("th", { scope: "col" }, t("over.player")), h("th", { scope: "col", title: t("scores.start_title") }, t("scores.start")),
    ...numbers.map((n) => h("th", { scope: "col" }, t("over.round_col", { round: num(n) }))));
  const rows = table.seats.map((s) => {
    let before = start;
    const cells = numbers.map((n) => {
      const result = rounds.get(n).result;
      const left = result.remaining[s.seat];
      const lost = result.losses.filter((l) => l.seat === s.seat).reduce((sum, l) => sum + l.lives, 0);
      const text = left <= 0 ? (before > 0 ? t("lives.out") : "–") : lost ? t("scores.left_lost", { left: num(left), lost: num(lost) }) : num(left);
      before = left;
      return h("td", { class: lost ? "lost" : null }, text);
    });
    return h("tr", {}, h("th", { scope: "row", title: s.name || name(s.seat) }, name(s.seat)), h("td", {}, num(start)), ...cells);
  });
  $("scores").replaceChildren(
    h("p", { class: "muted small-text" }, table.rules.grace_life ? tn("scores.note_grace", table.rules.lives, { grace: graceWord() }) : tn("scores.note", table.rules.lives)),
    h("div", { class: "scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, rows))));
  $("results").replaceChildren(...numbers.slice().reverse().map((n) => {
    const result = rounds.get(n).result;
    return h("details", { open: n === numbers[numbers.length - 1] ? true : null }, h("summary", {}, t("scores.round", { round: num(n), text: shortResult(result) })), ...resultView(result, names(), mySeat));
  }));
}

function renderRules() {
  if (!table || $("howto").dataset.done === "yes") return;
  const sections = howToPlay(table.rules, table.preset);
  $("howto").replaceChildren(...sections.flatMap((section) => [h("h3", {}, section.title),
    h("p", {}, ...section.lines.flatMap(([text, rule]) => [h("span", { title: t("summary.rule", { rule }) }, text), " "]))]));
  $("howto").dataset.done = "yes";
  if (!presets) return;
  const rows = Object.entries(table.rules).filter(([, value]) => value !== null).map(([option, value]) => {
    const spec = presets.options[option] || {};
    return h("tr", {}, h("th", { scope: "row" }, optionName(option)), h("td", {}, optionValue(option, value)), h("td", {}, spec.rule || ""), h("td", {}, optionHelp(option, spec)));
  });
  $("rules").replaceChildren(h("p", {}, t("rules.nearest", { describe: describeRules(), preset: presetName(table.preset) })),
    h("div", { class: "scroll" }, h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("rules.option")), h("th", { scope: "col" }, t("rules.value")), h("th", { scope: "col" }, t("rules.rule")), h("th", { scope: "col" }, t("rules.what")))), h("tbody", {}, rows))));
}

/** The name of a preset (R8) in the reader's language. */
function presetName(preset) {
  return PRESETS.includes(preset) ? t(`preset.${preset}`) : preset;
}

/** The table's rules in a line: the server's English for an English page, else the preset's name
 * and the lives (every option is in the table under it). */
function describeRules() {
  if (lang === "en") return table.describe;
  return t("rules.describe", { preset: presetName(table.preset), lives: tn("lives.count", table.rules.lives) });
}

function optionName(option) {
  return has(`option.${option}`) ? t(`option.${option}`) : option.replaceAll("_", " ");
}

function optionHelp(option, spec) {
  return lang !== "en" && has(`option.${option}.help`) ? t(`option.${option}.help`) : spec.help || "";
}

function optionValue(option, value) {
  if (typeof value === "boolean") return value ? t("value.on") : t("value.off");
  if (typeof value === "number") return num(value);
  return has(`value.${value}`) ? t(`value.${value}`) : String(value).replaceAll("_", " ");
}

function renderTableTools() {
  $("privacy").textContent = table.public ? t("privacy.public") : t("privacy.private");
  const token = localStorage.getItem(tokenKey);
  $("rejoin-box").hidden = mySeat === null || !token;
  if (token && mySeat !== null) $("rejoin-link").value = `${location.origin}/t/${code}#seat=${code}.${token}`;
  const hostToken = localStorage.getItem(hostKey);
  const hosting = Boolean(hostToken) && (table.status === "open" || table.status === "playing");
  $("host").hidden = !hosting;
  if (!hosting) return;
  const gone = table.seats.filter((s) => s.kind === "human" && s.seat !== mySeat && (!s.taken || !s.connected));
  $("host-seats").replaceChildren(...(gone.length ? [h("p", { class: "small-text" }, t("host.gone"))] : []),
    ...gone.map((s) => {
      const level = h("select", { "aria-label": t("host.level", { n: num(s.seat + 1) }), class: "small" }, ...["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: l === "medium" ? true : null }, t(`level.${l}`))));
      const who = s.name || t("seat.number", { n: num(s.seat + 1) });
      return h("div", { class: "row" }, h("span", {}, t(s.taken ? "host.left" : s.reserved ? "host.not_back" : "host.free", { who })),
        h("span", { class: "row" }, level, h("button", { type: "button", class: "small", "data-seat": s.seat, onclick: () => seatBot(s.seat, level.value) }, t("host.give"))));
    }));
}

async function seatBot(seat, level) {
  const hostToken = localStorage.getItem(hostKey);
  try {
    const answer = await api(`/api/tables/${code}/seats/${seat}/bot`, { json: { level }, headers: { Authorization: `Bearer ${hostToken}` } });
    table = answer.table;
    render();
    toast(t("host.bot_plays", { level: t(`level.${level}`), n: num(seat + 1) }));
  } catch (error) {
    showAlert(t("host.bot_failed", { error: error.message }));
  }
}

// The host (whoever created the table in this browser: the lobby keeps the host token) may close it,
// e.g. when someone left a game for good.
async function closeTable() {
  const hostToken = localStorage.getItem(hostKey);
  if (!hostToken || !confirm(t("host.confirm_close"))) return;
  try {
    const closed = await api(`/api/tables/${code}/close`, { method: "POST", headers: { Authorization: `Bearer ${hostToken}` } });
    table = closed.table;
    render();
  } catch (error) {
    showAlert(t("host.close_failed", { error: error.message }));
  }
}

// ---------------------------------------------------------------------------------- chat

function hearChat(line, live) {
  if (chatLines.some((known) => known.id === line.id)) return;
  if (live && line.seat === mySeat) {
    $("chat-note").textContent = ""; // said: an earlier refusal no longer holds
    // the box keeps a line until the table takes it (as the server cleans it), not what was typed since
    if (line.text && $("chat-text").value.normalize("NFC").trim() === line.text) $("chat-text").value = "";
  }
  chatLines.push(line);
  if (chatLines.length > 200) chatLines.shift();
  if (live && !mutes.has(line.seat)) {
    bubble(line.seat, line.reaction ? REACTIONS[line.reaction] || line.reaction : line.text, "chat");
    if (!(sideOpen || wide()) || panel !== "chat") {
      if (line.seat !== mySeat) unread++;
    }
    if (line.seat !== mySeat) announce(`${name(line.seat)} says: ${line.reaction ? REACTIONS[line.reaction] || line.reaction : line.text}`);
  }
  renderUnread();
  renderChat();
}

function renderUnread() {
  for (const id of ["chat-unread", "chat-unread-tab"]) {
    $(id).hidden = !unread;
    $(id).textContent = unread ? String(unread) : "";
  }
}

function renderChat() {
  const list = $("chat-lines");
  const shown = chatLines.filter((line) => !mutes.has(line.seat));
  list.replaceChildren(...shown.map((line) => h("li", { class: line.seat === mySeat ? "mine" : null, "data-id": line.id },
    h("span", { class: "from" }, `${name(line.seat)}:`),
    line.reaction ? h("span", { class: "reaction" }, REACTIONS[line.reaction] || line.reaction) : h("span", { class: "text" }, line.text))));
  list.scrollTop = list.scrollHeight;
  const others = table ? table.seats.filter((s) => s.kind === "human" && s.taken && s.seat !== mySeat) : [];
  $("mute-list").replaceChildren(...others.map((s) => h("li", {}, h("span", {}, name(s.seat)),
    h("button", { type: "button", class: "small", "aria-pressed": String(mutes.has(s.seat)), "data-seat": s.seat, onclick: () => toggleMute(s.seat) }, mutes.has(s.seat) ? "Muted" : "Mute"))));
  $("chat-form").hidden = mySeat === null;
  $("reactions").hidden = mySeat === null;
  if (mySeat === null) $("chat-note").textContent = t("chat.spectator");
}

function toggleMute(seat) {
  if (mutes.has(seat)) mutes.delete(seat);
  else mutes.add(seat);
  localStorage.setItem(muteKey, JSON.stringify([...mutes]));
  renderChat();
}

function sendChat(message) {
  $("chat-note").textContent = "";
  send({ type: "chat", ...message });
}

// ---------------------------------------------------------------------------------- fairness
// Deals no one can choose (fairness.js): the page keeps each commitment it saw and checks every
// revealed round itself; what it saw can be downloaded for `thirtyone verify RECORD --seen FILE`.

function fairnessDeal(message) {
  fairness.noteDeal(code, message);
  $("commitment").textContent = message.commitment;
}

async function fairnessRoundEnd(message) {
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

// ---------------------------------------------------------------------------------- start

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  announce(text);
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 2600);
}

async function copy(text, what, button) {
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = t("copy.done");
    toast(t("copy.toast", { what }));
  } catch {
    const field = $("rejoin-link");
    if (button.id === "copy-rejoin") {
      field.hidden = false;
      field.select();
    }
    showAlert(t("copy.failed", { text }), "info");
  }
  setTimeout(() => { button.textContent = label; }, 2000);
}

/** A personal rejoin link (/t/CODE#seat=CODE.TOKEN): its seat's token, if it is this table's. */
function readRejoinLink() {
  const found = location.hash.match(/^#seat=([^.]+)\.([A-Za-z0-9_-]{20,100})$/);
  if (!location.hash.startsWith("#seat=")) return;
  history.replaceState(null, "", location.pathname + location.search); // the token leaves the address bar
  if (!found) {
    showAlert(t("rejoin.damaged"));
    return;
  }
  if (found[1].toUpperCase() !== code) {
    showAlert(t("rejoin.other_table", { other: found[1].toUpperCase(), code }));
    return;
  }
  rejoin = { token: found[2], previous: localStorage.getItem(tokenKey) };
}

function start() {
  readRejoinLink();
  window.addEventListener("hashchange", () => { // a rejoin link pasted into this open page: only the #… changed
    readRejoinLink();
    if (rejoin) connect();
  });
  const link = `${location.origin}/t/${code}`;
  $("share-link").href = link;
  $("share-link").textContent = link;
  $("copy-link").addEventListener("click", (event) => copy(link, t("copy.link"), event.currentTarget));
  $("copy-code").addEventListener("click", (event) => copy(code, t("copy.code"), event.currentTarget));
  $("copy-rejoin").addEventListener("click", (event) => copy($("rejoin-link").value, t("copy.rejoin"), event.currentTarget));
  $("hint").addEventListener("click", askHint);
  $("close-table").addEventListener("click", closeTable);
  $("rematch").addEventListener("click", playAgain);
  $("stock").addEventListener("click", (click) => myTurn() && view.legal_actions.includes("draw stock") && act("draw stock", click));
  $("discard").addEventListener("click", (click) => myTurn() && view.legal_actions.includes("draw pile") && act("draw pile", click));
  $("result-close").addEventListener("click", hideResult);
  $("standings").addEventListener("scroll", (event) => markScrolled(event.currentTarget), { passive: true });
  for (const button of document.querySelectorAll("[data-panel]")) {
    button.addEventListener("click", () => openPanel(button.dataset.panel, !button.closest(".side") && !wide()));
  }
  $("side-close").addEventListener("click", () => { sideOpen = false; $("side").classList.remove("open"); });
  const showSound = () => {
    for (const button of [$("sound"), $("sound-2")]) button.setAttribute("aria-pressed", String(soundOn()));
    $("sound").title = soundOn() ? t("table.sounds_on") : t("table.sounds_off");
  };
  showSound();
  for (const button of [$("sound"), $("sound-2")]) {
    button.addEventListener("click", () => { setSound(!soundOn()); showSound(); toast(soundOn() ? t("toast.sounds_on") : t("toast.sounds_off")); });
  }
  const four = $("four-colours");
  const fourOn = localStorage.getItem("thirtyone.four") === "on";
  setFourColours(fourOn);
  four.setAttribute("aria-pressed", String(fourOn));
  four.addEventListener("click", () => {
    const on = four.getAttribute("aria-pressed") !== "true";
    localStorage.setItem("thirtyone.four", on ? "on" : "off");
    four.setAttribute("aria-pressed", String(on));
    setFourColours(on);
    toast(on ? t("toast.four_colours") : t("toast.two_colours"));
    layoutKey = "";
    paint++;
    render();
  });
  $("reactions").replaceChildren(...Object.entries(REACTIONS).map(([id, words]) => h("button", { type: "button", "data-reaction": id, onclick: () => sendChat({ reaction: id }) }, words)));
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("chat-text").value;
    if (!text.trim()) {
      $("chat-note").textContent = t("chat.empty");
      return;
    }
    sendChat({ text });
  });
  document.addEventListener("keydown", (event) => {
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || event.target instanceof HTMLTextAreaElement;
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "?") {
      event.preventDefault();
      askHint();
    } else if (/^[1-4]$/.test(event.key) && myTurn()) {
      const button = $("hand").querySelectorAll(".card-button")[Number(event.key) - 1];
      if (button) {
        event.preventDefault();
        button.click();
      }
    } else if (event.key === "Escape" && sideOpen) {
      sideOpen = false;
      $("side").classList.remove("open");
    }
  });
  $("join-name").value = localStorage.getItem("thirtyone.name") || "";
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = $("join-form").querySelector("button[type=submit]");
    if (button.disabled) return; // a second tap while the first join is on its way
    const wanted = $("join-name").value.trim();
    if (!wanted) {
      showAlert(t("join.no_name"));
      return;
    }
    button.disabled = true;
    try {
      const joined = await api(`/api/tables/${code}/join`, { json: { name: wanted, seed: fairness.clientSeed(code) } });
      localStorage.setItem(tokenKey, joined.token);
      localStorage.setItem("thirtyone.name", wanted);
      showAlert("");
      const old = socket;
      socket = null; // its messages are no longer this page's: the new connection tells everything again
      if (old) old.close();
      view = null;
      rounds.clear();
      announced.clear();
      connect();
    } catch (error) {
      showAlert(t("join.failed", { error: error.message }));
    } finally {
      button.disabled = false; // the form hides once seated; after a refusal it may be sent again
    }
  });
  new ResizeObserver(() => {
    if (!table) return;
    layoutStage();
    renderSeats();
  }).observe($("stage"));
  if (wide()) openPanel("log");
  api("/api/presets").then((data) => {
    presets = data;
    limitChars($("join-name"), data.limits.max_name);
    $("howto").dataset.done = "";
    renderRules();
  }).catch(() => {});
  connect();
}

start();
