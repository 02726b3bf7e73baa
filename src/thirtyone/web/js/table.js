// The table page: play at a seat (its token kept in localStorage per table code) or watch.
// The server is the authority: this page only draws the latest state and sends the actions the
// state lists as legal (view.legal_actions), with the state's seq.
import {
  actedWords, actionWords, api, cardName, cardView, drawMiddle, h, livesText, points, pretty, prettyCards,
  refusalWords, resultView, showAlert,
} from "./common.js";
import * as fairness from "./fairness.js";

const code = document.getElementById("code").textContent.trim(); // as the server wrote it (normalized)
const tokenKey = `thirtyone.token.${code}`;
const hostKey = `thirtyone.host.${code}`; // the lobby keeps the host token of a table created here
const $ = (id) => document.getElementById(id);
const MAX_RETRY_MS = 3000; // a restarted server is found within 3 s
const RESULT_MS = 12000; // how long a round's result stays up unless hidden sooner (the game's end stays)

let socket = null;
let retry = 300; // ms before reconnecting; doubles up to MAX_RETRY_MS
let online = false; // welcomed on an open socket
let staleAlert = false; // the alert says "not connected": cleared once connected again
let table = null;
let view = null;
let seq = null;
let mySeat = null;
let seen = { round: null, count: 0, turn: false }; // history already announced
let presets = null;
let lastTop = null;
let shownResult = null;
let resultTimer = null;
let wasOver = null; // whether the last drawing showed the game over (null: nothing drawn yet)
let blitzRound = 0; // the round whose Blitz the banner shows
let picks = { seq: null, hand: new Set(), widow: new Set() }; // an exchange being picked (widow mode)
let sentFor = null; // the seq an action was sent for: one action per state (a double tap plays once)
let lastPlayed = null; // the newest stored action's {seq, seat, source} (who played it: player, bot, timer)
let focusedOnce = false; // the first move got the focus when the page opened on your turn
let seedSent = null; // the socket this page's client seed was sent on (once seated, before the game starts)

// ---------------------------------------------------------------------------------- words

function name(seat) {
  if (seat === mySeat) return "You";
  const s = table && table.seats[seat];
  if (!s) return `Seat ${seat + 1}`;
  if (s.name) return s.name;
  return s.kind === "bot" ? `Bot ${seat + 1} (${s.level})` : `Seat ${seat + 1} (free)`;
}

function names() {
  return table ? table.seats.map((s) => name(s.seat)) : [];
}

/** The expert's hint from its moves (notation and value in lives): "Hint: Take 9♥ from the pile +0.21 · …". */
function hintWords(moves) {
  if (!Array.isArray(moves) || !moves.length) return "";
  const shown = moves.slice(0, 5).map((move) => actionWords(move.action, view)
    + (move.value === null ? "" : ` ${move.value < 0 ? "−" : "+"}${Math.abs(move.value).toFixed(2)}`));
  const more = moves.length > 5 ? ` · ${moves.length - 5} more` : "";
  const legend = moves[0].value === null
    ? (moves.length === 1 ? " (the only move)" : "")
    : " (value = lives the others lose minus lives you lose this round, on average)";
  return `Hint: ${shown.join(" · ")}${more}${legend}`;
}

/** Say lines in the live region (together) and log each, oldest first (the log shows the newest on top). */
function announce(...lines) {
  if (!lines.length) return;
  $("announce").textContent = lines.join(". ");
  record(...lines);
}

/** Log lines without reading them aloud (what happened before the page opened). */
function record(...lines) {
  if (!lines.length) return;
  const log = $("log");
  for (const line of lines) log.prepend(h("li", {}, line));
  while (log.children.length > 80) log.lastElementChild.remove();
  $("log-section").hidden = false;
}

function eventWords(event) {
  switch (event.type) {
    case "round_started":
      return `Round ${event.round} is dealt; ${name(event.dealer)} ${event.dealer === mySeat ? "deal" : "deals"}`
        + (event.upcard ? `; ${prettyCards([event.upcard])} is face up on the pile` : "");
    case "acted":
      return actedWords(name(event.seat), event.action, event.received, event.revealed);
    case "reshuffled":
      return `The discard pile was shuffled into a new stock of ${event.stock_size} cards (R4.3)`;
    case "new_widow":
      return `Everyone passed: a new widow is dealt: ${prettyCards(event.widow)} (R7.3)`;
    case "game_over":
      return `Game over: ${name(event.winner)} ${event.winner === mySeat ? "win" : "wins"}`;
    default:
      return null;
  }
}

/** The hand's value in words: three cards have a value; four (after drawing) must lose one first. */
function handWords() {
  if (!view.hand) return "your cards are face down (R6.6)";
  if (view.hand.length !== 3 || view.hand_value === null) return "discard one to get back to three cards (R4.1)";
  return `${points(view.hand_value)} points`;
}

function turnWords() {
  if (!myTurn()) return null;
  if (!view.hand) return "Your turn: look at your cards or throw down unseen";
  return `Your turn: you hold ${prettyCards(view.hand)}; ${handWords()}`;
}

function myTurn() {
  return Boolean(view && view.is_my_turn && table && table.status === "playing" && view.phase !== "over");
}

/** Why this seat may not knock now (R6.1, R6.3, R6.4), from the table's rules and the view; null
 * when knocking is listed or not a choice at this point of the turn (after drawing, R4.1). */
function knockRefusal() {
  if (!myTurn() || view.phase !== "turn" || view.legal_actions.includes("knock")) return null;
  if (view.legal_actions.some((a) => a.startsWith("discard "))) return null;
  const rules = table.rules;
  if (view.knocker !== null) return `${name(view.knocker)} knocked already: only one knock per round (R6.1).`;
  const active = view.seats.filter((s) => !s.out).length;
  if (rules.knock_from_round === 2 && view.turn < active) return "Knocking is allowed once every player has had a turn (R6.3).";
  if (rules.min_knock_value && view.hand_value !== null && view.hand_value < rules.min_knock_value) {
    return `Knocking needs ${rules.min_knock_value} points or more (R6.4); you have ${points(view.hand_value)}.`;
  }
  return null;
}

// ---------------------------------------------------------------------------------- the socket

function connect() {
  const token = localStorage.getItem(tokenKey);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(code)}`);
  const mine = socket;
  mine.addEventListener("open", () => {
    retry = 300;
    mine.send(JSON.stringify(token ? { type: "hello", token } : { type: "hello" }));
  });
  mine.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  mine.addEventListener("close", (event) => {
    if (socket !== mine) return;
    setOnline(false);
    if (event.code === 4403 && localStorage.getItem(tokenKey)) {
      localStorage.removeItem(tokenKey);
      showAlert("Your seat's token was not accepted (it belongs to another table or server); you are watching.");
      connect();
      return;
    }
    if (event.code === 4404) {
      $("conn").hidden = true;
      showAlert(`There is no table ${code}.`);
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
    showAlert("Not connected to the server: reconnecting, try again in a moment.");
    staleAlert = true;
    return;
  }
  socket.send(JSON.stringify(message));
}

function act(notation) {
  if (sentFor === seq) return; // already sent for this state: wait for the answer
  $("hint-text").textContent = "";
  sentFor = seq;
  send({ type: "action", action: notation, seq });
  if (!online) sentFor = null;
}

function askHint() {
  if (table && table.status === "closed") {
    showAlert("The host closed the table: there are no more moves.");
    return;
  }
  if (!myTurn()) {
    showAlert(mySeat === null ? "Hints are for players: join a seat to play." : "Hints are for your own move: wait for your turn.");
    return;
  }
  $("hint-text").textContent = "The expert is thinking…";
  send({ type: "hint" });
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      mySeat = message.seat;
      fairness.noteSeat(code, mySeat);
      document.body.dataset.role = message.role;
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
    case "table":
      table = message.table;
      fairness.noteCommitment(code, table);
      render();
      break;
    case "deal":
      fairness.noteDeal(code, message);
      $("commitment").textContent = message.commitment;
      break;
    case "round_end":
      roundEnd(message);
      break;
    case "ack":
      if (!staleAlert) showAlert("");
      break;
    case "hint":
      if (message.seq === seq) $("hint-text").textContent = hintWords(message.moves);
      break;
    case "error":
      sentFor = null; // refused: the player may try another move
      showAlert(message.refusal ? refusalWords(message.refusal, names()) : message.message);
      $("hint-text").textContent = "";
      break;
    default:
      break;
  }
}

function newState(next) {
  const first = view === null && seen.round === null;
  view = next;
  if (view) {
    const history = view.history || [];
    if (first) {  // this round so far, in the log only: the live region reads what happens from now on
      record(...history.map(eventWords).filter(Boolean));
      seen = { round: view.round, count: history.length, turn: false };
    } else {
      if (view.round !== seen.round) seen = { round: view.round, count: 0, turn: false };
      const fresh = history.slice(seen.count).map(eventWords);
      if (lastPlayed && lastPlayed.source === "timer" && lastPlayed.seq === seq) {
        const index = history.length - 1 - seen.count; // the newest event is the timer's move
        if (index >= 0 && fresh[index] && history[history.length - 1].type === "acted") {
          fresh[index] += " (played by the turn timer)";
        }
      }
      announce(...fresh.filter(Boolean));
      seen.count = Math.max(seen.count, history.length);
      if (view.round > blitzRound && history.some((e) => e.type === "acted") && $("banner").dataset.kind === "blitz") {
        banner("", ""); // the next round is under way
      }
    }
    const turn = turnWords();
    if (turn && !seen.turn) announce(turn);
    seen.turn = Boolean(turn);
    if (!shownResult && view.last_result && view.phase === "over") showResult(view.last_result, false);
  }
  render();
}

async function roundEnd(message) {
  // The move that ended the round is in no state (the next state is the next round's): log the
  // round's moves not announced yet first, then the result.
  const history = Array.isArray(message.history) ? message.history : [];
  const stop = history.findIndex((e) => e.type === "round_ended" || e.type === "game_over");
  const end = stop < 0 ? history.length : stop;
  const moves = seen.round === message.round ? history.slice(seen.count, end).map(eventWords).filter(Boolean) : [];
  if (seen.round === message.round) seen.count = Math.max(seen.count, end);
  if (message.result) {
    const result = message.result;
    showResult(result, true);
    const blitz = result.blitz.length ? `Blitz! ${result.blitz.map(name).join(", ")} ${result.blitz.length === 1 && result.blitz[0] !== mySeat ? "has" : "have"} 31. ` : "";
    const losses = result.losses
      .map((l) => `${name(l.seat)} ${l.seat === mySeat ? "lose" : "loses"} ${l.lives} ${l.lives === 1 ? "life" : "lives"} (${l.rule})`)
      .join(", ");
    announce(...moves, `${blitz}Round ${message.round} is over. ${losses || "Nobody loses a life"}.`);
    if (result.blitz.length) {
      blitzRound = message.round;
      banner(blitz.trim(), "blitz");
    }
  } else {
    announce(...moves);
  }
  const verify = $("verify");
  const { ok, text } = await fairness.checkRound(code, message);
  verify.replaceChildren(ok ? h("span", { class: "verified" }, text) : h("strong", { class: "warning" }, text));
  verify.dataset.state = ok ? "verified" : "failed";
  const download = $("seen-download");
  if (download) { // what this page saw, for `thirtyone verify RECORD --seen FILE`
    if (download.href.startsWith("blob:")) URL.revokeObjectURL(download.href);
    download.href = URL.createObjectURL(new Blob([fairness.seenFile(code)], { type: "application/json" }));
    download.download = fairness.seenFileName(code);
    download.hidden = false;
  }
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

/** Show a round's result at the top; `fresh` (it just ended): hide it again after RESULT_MS unless the game is over. */
function showResult(result, fresh) {
  shownResult = result;
  $("result-heading").textContent = `Round ${result.round}: result`;
  $("result-body").replaceChildren(...resultView(result, names()));
  $("result").hidden = false;
  clearTimeout(resultTimer);
  if (fresh) {
    resultTimer = setTimeout(() => {
      if (!ended()) $("result").hidden = true;
    }, RESULT_MS);
  }
}

function banner(text, kind) {
  const box = $("banner");
  box.hidden = !text;
  box.dataset.kind = kind || "";
  $("banner-text").textContent = text || "";
  box.classList.remove("pop");
  void box.offsetWidth; // restart the animation
  box.classList.add("pop");
}

// ---------------------------------------------------------------------------------- drawing

function ended() {
  return Boolean(table) && (table.status === "finished" || table.status === "closed" || Boolean(view && view.phase === "over"));
}

function render() {
  if (!table) return;
  const focusKey = focusedKey();
  const over = ended();
  document.body.dataset.status = table.status;
  document.body.dataset.turn = myTurn() ? "me" : "other";
  const freeSeats = table.seats.filter((s) => s.kind === "human" && !s.taken);
  $("join").hidden = !(mySeat === null && table.status === "open" && freeSeats.length > 0);
  $("commitment").textContent = table.commitment && !over ? table.commitment : over ? "(no more deals: every deal is revealed in the record)" : "–";
  renderSeats();
  renderStatus(over);
  renderTimer();
  $("middle").hidden = !view;
  if (view) {
    drawMiddle(view, { stock: $("stock"), discard: $("discard"), widow: $("widow") });
    if (view.discard_top && view.discard_top !== lastTop && lastTop !== null) {
      const top = $("discard").querySelector(".card.top");
      if (top) top.classList.add("moved");
    }
    lastTop = view.discard_top;
  }
  if (!view || picks.seq !== seq) picks = { seq, hand: new Set(), widow: new Set() };
  renderHand();
  renderActions();
  renderOver(over);
  $("host").hidden = !(localStorage.getItem(hostKey) && (table.status === "open" || table.status === "playing"));
  $("log-section").hidden = $("log").children.length === 0;
  renderRules();
  restoreFocus(focusKey);
}

// The host (whoever created the table in this browser: the lobby keeps the host token) may close it,
// e.g. when someone left a game for good.
async function closeTable() {
  const hostToken = localStorage.getItem(hostKey);
  if (!hostToken || !confirm("Close this table for everyone? A game being played ends where it is.")) return;
  try {
    const closed = await api(`/api/tables/${code}/close`, { method: "POST", headers: { Authorization: `Bearer ${hostToken}` } });
    table = closed.table;
    render();
  } catch (error) {
    showAlert(`The table was not closed: ${error.message}`);
  }
}

function renderOver(over) {
  $("over").hidden = !over;
  if (!over) {
    wasOver = false;
    return;
  }
  const closed = table.status === "closed";
  $("over-heading").textContent = closed ? "Table closed" : "Game over";
  const winner = table.winner ?? null;
  $("winner").textContent = closed
    ? "The host closed the table: the game ends here."
    : winner !== null ? `${name(winner)} ${winner === mySeat ? "win" : "wins"} the game!` : "The game is over.";
  $("download").parentElement.hidden = !table.record_path; // closed before its game started: no record
  if (table.record_path) $("download").href = table.record_path;
  $("replay-link").href = `/r/${code}`;
  if (wasOver === false) $("over").scrollIntoView({ block: "nearest" }); // it just ended: show who won
  wasOver = true;
}

function renderStatus(over) {
  let text;
  const free = table.seats.filter((s) => s.kind === "human" && !s.taken).length;
  if (table.status === "open") text = `Waiting for players: ${free} ${free === 1 ? "seat is" : "seats are"} free. Share the link below.`;
  else if (table.status === "closed") text = "The host closed the table.";
  else if (over) text = "The game is over.";
  else if (view) text = `Round ${view.round}, turn ${view.turn + 1}. ${myTurn() ? "Your turn." : `${name(view.current_seat)} to move.`}`;
  else text = "";
  if (mySeat === null && table.status !== "open") text += " You are watching.";
  $("status").textContent = text;
  if (view && view.knocker !== null && !over) {
    const knocked = `${name(view.knocker)} knocked: last turns!`;
    if ($("banner-text").textContent !== knocked) banner(knocked, "knock");
  } else if ($("banner").dataset.kind === "knock") {
    banner("", "");
  }
}

// The turn timer (`thirtyone serve --turn-timer`): seconds left before the server plays a legal
// default for the player to move; the server's deadline is Unix time, so clocks must roughly agree.
// Not shown while disconnected: the page cannot know the server's deadline then.
function renderTimer() {
  const deadline = online && table && table.status === "playing" && view && view.phase !== "over" ? table.turn_deadline : null;
  const timer = $("timer");
  timer.hidden = deadline === null || deadline === undefined;
  if (timer.hidden) return;
  const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
  const mine = myTurn();
  const who = mine ? "you have" : `${name(view.current_seat)} has`;
  timer.textContent = `Turn timer: ${who} ${left} s left, then a legal move is played for ${mine ? "you" : "them"}.`;
  if (mine && left === 10) announce("10 seconds left for your move.");
}
setInterval(renderTimer, 1000);

/** The small cards of another seat: the ones everyone saw it take face up, the rest face down. */
function seatCards(status) {
  if (!view || ended() || status.out || status.seat === mySeat) return null;
  const known = status.known_cards || [];
  const held = view.current_seat === status.seat && view.phase === "discard" ? 4 : 3; // drawn, not yet discarded
  const hidden = Math.max(0, held - known.length);
  const label = known.length
    ? `${held} cards: ${known.map(cardName).join(", ")} known, ${hidden} face down`
    : `${held} cards face down`;
  return h("div", { class: "seat-cards", role: "img", "aria-label": label },
    known.map((c) => cardView(c, { "aria-hidden": "true", role: null })),
    Array.from({ length: hidden }, () => cardView(null, { "aria-hidden": "true", role: null })),
    known.length ? h("span", { class: "known", "aria-hidden": "true" }, prettyCards(known)) : null);
}

function renderSeats() {
  const playing = table.status === "playing";
  const items = table.seats.map((s) => {
    const status = view ? view.seats[s.seat] : null;
    const current = playing && view && view.current_seat === s.seat && view.phase !== "over";
    const connected = s.seat === mySeat ? online : s.connected;
    const chips = [];
    if (current) chips.push("to move");
    if (s.kind === "bot") chips.push(`bot, ${s.level}`);
    else if (!connected) chips.push(s.taken ? "not connected" : "free seat");
    else if (s.seat !== mySeat) chips.push("connected");
    if (view && view.dealer === s.seat) chips.push("dealer");
    if (view && view.knocker === s.seat) chips.push("knocked");
    const offline = s.kind === "human" && s.taken && !connected;
    return h("li", { class: `seat${current ? " current" : ""}${status && status.out ? " out" : ""}${offline ? " offline" : ""}`, "aria-current": current ? "true" : null, "data-seat": s.seat },
      h("h3", { title: name(s.seat) }, current ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ ") : null, name(s.seat)),
      h("p", { class: "lives" }, status ? livesText(status, table.preset) : `${table.rules.lives} lives`),
      h("p", { class: "chips" }, chips.join(" · ")),
      status ? seatCards(status) : null);
  });
  $("seats").replaceChildren(...items);
}

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
  if (set.has(card)) set.delete(card);
  else set.add(card);
  showAlert("");
  renderHand();
  renderActions();
}

function renderHand() {
  const box = $("hand");
  $("hand-section").hidden = mySeat === null || !view;
  if (mySeat === null || !view) return;
  if (view.seats[mySeat].out) {
    box.replaceChildren();
    $("hand-value").textContent = "You are out of this game; you can watch it to the end.";
    return;
  }
  const mine = myTurn();
  const discards = new Map(mine ? view.legal_actions.filter((a) => a.startsWith("discard ")).map((a) => [a.split(" ")[1], a]) : []);
  const swaps = exchanges();
  const kept = mine && view.taken_from_pile;
  const hand = view.hand || [null, null, null];
  const cards = hand.map((card) => {
    if (card && kept === card && discards.size) {
      const why = `You took ${pretty(card)} from the pile this turn: you keep it and may not discard it (R4.2). Discard one of the others.`;
      return h("button", { type: "button", class: "card-button kept", "aria-disabled": "true", "data-card": card, "data-key": `hand ${card}`, "aria-label": `${cardName(card)}: taken from the pile, kept this turn (R4.2)`, onclick: () => showAlert(why, "info") },
        cardView(card), h("span", { class: "kept-mark" }, "kept this turn (R4.2)"));
    }
    if (card && discards.has(card)) {
      return h("button", { type: "button", class: "card-button", "aria-label": `Discard ${cardName(card)}`, "data-card": card, "data-key": `hand ${card}`, onclick: () => act(discards.get(card)) }, cardView(card));
    }
    if (card && swaps.size) {
      return h("button", { type: "button", class: "card-button", "aria-pressed": String(picks.hand.has(card)), "aria-label": `Give ${cardName(card)}`, "data-card": card, "data-key": `hand ${card}`, onclick: () => togglePick(picks.hand, card) }, cardView(card));
    }
    return cardView(card, { "data-card": card || "" });
  });
  if (swaps.size) {
    const widow = (view.widow || []).map((card) => h("button", { type: "button", class: "card-button", "aria-pressed": String(picks.widow.has(card)), "aria-label": `Take ${cardName(card)} from the widow`, "data-key": `widow ${card}`, "data-card": card, onclick: () => togglePick(picks.widow, card) }, cardView(card)));
    box.replaceChildren(h("div", { class: "pick-group", role: "group", "aria-label": "Give from your hand" }, h("p", {}, "Give"), h("div", { class: "hand" }, cards)),
      h("div", { class: "pick-group", role: "group", "aria-label": "Take from the widow" }, h("p", {}, "Take from the widow"), h("div", { class: "hand" }, widow)));
  } else {
    box.replaceChildren(...cards);
  }
  const words = handWords(); // the card kept by R4.2 is marked on the card itself
  $("hand-value").textContent = `${words[0].toUpperCase()}${words.slice(1)}.`;
}

/** Pick-then-confirm for exchanges with the widow (R7.1, R7.5): pick cards of your hand and as
 * many of the widow (toggle buttons beside your hand), then this button; only a pick the view
 * lists as legal can be sent. */
function exchangeButton(swaps) {
  const give = [...picks.hand];
  const take = [...picks.widow];
  const chosen = swaps.get(pickKey(give, take));
  let label = "Exchange: pick the cards to swap";
  if (chosen) label = actionWords(chosen, view);
  else if (give.length && give.length === take.length) label = "Exchange: not that many at once (R7.5)";
  else if (give.length || take.length) label = `Exchange: pick ${take.length < give.length ? "widow cards" : "cards of your hand"} to match`;
  return h("button", { type: "button", class: "action primary exchange", "data-key": "exchange", "data-action": chosen || null, disabled: !chosen, onclick: () => chosen && act(chosen) }, label);
}

function renderActions() {
  const section = $("actions-section");
  section.hidden = !myTurn();
  $("knock-note").hidden = true;
  if (section.hidden) {
    $("hint-text").textContent = "";
    $("actions").replaceChildren();
    return;
  }
  const swaps = exchanges();
  const plain = view.legal_actions.filter((notation) => !(notation.startsWith("exchange ") && notation.includes(" for ")));
  $("actions").replaceChildren(
    ...(swaps.size ? [exchangeButton(swaps)] : []),
    ...plain.map((notation) => h("button", { type: "button", class: notation === "knock" ? "action knock" : "action", "data-action": notation, "data-key": `action ${notation}`, onclick: () => act(notation) }, actionWords(notation, view))));
  const why = knockRefusal();
  $("knock-note").hidden = !why;
  $("knock-note").textContent = why || "";
}

// Keyboard focus survives redrawing: the same control if it is still there, else the first move
// when it is your turn, else your hand's region (never <body>).
function focusedKey() {
  const active = document.activeElement;
  if (!active || !$("me").contains(active)) return null;
  return active.dataset.key || "region";
}

function restoreFocus(key) {
  if (key === null && !focusedOnce && myTurn() && document.activeElement === document.body) {
    const first = $("actions").querySelector("button:not(:disabled)");
    if (first) {
      focusedOnce = true;
      first.focus({ preventScroll: true });
    }
    return;
  }
  if (key === null) return;
  const same = key !== "region" ? document.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  const first = $("actions").querySelector("button:not(:disabled)");
  const target = same && !same.closest("[hidden]") ? same : myTurn() && first ? first : !$("hand-section").hidden ? $("hand-section") : null;
  if (target && target !== document.activeElement) target.focus({ preventScroll: true });
}

function renderRules() {
  if (!presets || !table || $("rules").dataset.done === "yes") return;
  const rows = Object.entries(table.rules).filter(([, value]) => value !== null).map(([option, value]) => {
    const spec = presets.options[option] || {};
    return h("tr", {}, h("th", { scope: "row" }, option.replaceAll("_", " ")), h("td", {}, String(value)), h("td", {}, spec.rule || ""), h("td", {}, spec.help || ""));
  });
  $("rules").replaceChildren(h("p", {}, `${table.describe} (nearest preset: ${table.preset})`),
    h("div", { class: "scroll" }, h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Option"), h("th", { scope: "col" }, "Value"), h("th", { scope: "col" }, "Rule"), h("th", { scope: "col" }, "What it does"))), h("tbody", {}, rows))));
  $("rules").dataset.done = "yes";
}

// ---------------------------------------------------------------------------------- start

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    announce(`${what} copied`);
  } catch {
    showAlert(`Could not copy: select and copy it yourself: ${text}`);
  }
}

function start() {
  const link = `${location.origin}/t/${code}`;
  $("share-link").href = link;
  $("share-link").textContent = link;
  $("copy-link").addEventListener("click", () => copy(link, "The link"));
  $("copy-code").addEventListener("click", () => copy(code, "The code"));
  $("hint").addEventListener("click", askHint);
  $("close-table").addEventListener("click", closeTable);
  $("result-close").addEventListener("click", () => {
    $("result").hidden = true;
    clearTimeout(resultTimer);
  });
  document.addEventListener("keydown", (event) => {
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement;
    if (event.key === "?" && !typing && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      askHint();
    }
  });
  $("join-name").value = localStorage.getItem("thirtyone.name") || "";
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const wanted = $("join-name").value.trim();
    if (!wanted) {
      showAlert("Give your name (1 to 20 characters) to take a seat.");
      return;
    }
    try {
      const joined = await api(`/api/tables/${code}/join`, { json: { name: wanted, seed: fairness.clientSeed(code) } });
      localStorage.setItem(tokenKey, joined.token);
      localStorage.setItem("thirtyone.name", wanted);
      showAlert("");
      const old = socket;
      socket = null;
      if (old) old.close();
      view = null;
      seen = { round: null, count: 0, turn: false };
      connect();
    } catch (error) {
      showAlert(`Could not join: ${error.message}`);
    }
  });
  api("/api/presets").then((data) => { presets = data; renderRules(); }).catch(() => {});
  connect();
}

start();
