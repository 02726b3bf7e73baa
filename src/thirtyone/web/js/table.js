// The table page: play at a seat (its token kept in localStorage per table code) or watch.
// The server is the authority: this page only draws the latest state and sends the actions the
// state lists as legal (view.legal_actions), with the state's seq.
import {
  actedWords, actionWords, api, cardName, cardView, checkDeal, drawMiddle, h, livesText, points, prettyCards,
  prettyText, resultView, showAlert,
} from "./common.js";

const code = document.getElementById("code").textContent.trim(); // as the server wrote it (normalized)
const tokenKey = `thirtyone.token.${code}`;
const $ = (id) => document.getElementById(id);

let socket = null;
let retry = 500; // ms before reconnecting; doubles up to 8 s
let table = null;
let view = null;
let seq = null;
let mySeat = null;
let seen = { round: null, count: 0, turn: false }; // history already announced
let presets = null;
let lastTop = null;
let shownResult = null;
let blitzRound = 0; // the round whose Blitz the banner shows

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

function announce(text) {
  const box = $("announce");
  box.textContent = text;
  const log = $("log");
  log.prepend(h("li", {}, text));
  while (log.children.length > 60) log.lastElementChild.remove();
}

function eventWords(event) {
  switch (event.type) {
    case "round_started":
      return `Round ${event.round} is dealt; ${name(event.dealer)} ${event.dealer === mySeat ? "deal" : "deals"}`
        + (event.upcard ? `; ${prettyCards([event.upcard])} is face up on the pile` : "");
    case "acted":
      return actedWords(name(event.seat), event.action, event.received);
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

function turnWords() {
  if (!view || !view.is_my_turn) return null;
  if (!view.hand) return "Your turn: look at your cards or throw down unseen";
  return `Your turn: you hold ${prettyCards(view.hand)}, ${points(view.hand_value)} points`;
}

// ---------------------------------------------------------------------------------- the socket

function connect() {
  const token = localStorage.getItem(tokenKey);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(code)}`);
  const mine = socket;
  mine.addEventListener("open", () => {
    retry = 500;
    mine.send(JSON.stringify(token ? { type: "hello", token } : { type: "hello" }));
  });
  mine.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  mine.addEventListener("close", (event) => {
    if (socket !== mine) return;
    document.body.dataset.connected = "no";
    if (event.code === 4403 && localStorage.getItem(tokenKey)) {
      localStorage.removeItem(tokenKey);
      showAlert("Your seat's token was not accepted (it belongs to another table or server); you are watching.");
      connect();
      return;
    }
    if (event.code === 4404) {
      showAlert(`There is no table ${code}.`);
      return;
    }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showAlert("Not connected to the server: reconnecting, try again in a moment.");
    return;
  }
  socket.send(JSON.stringify(message));
}

function act(notation) {
  $("hint-text").textContent = "";
  send({ type: "action", action: notation, seq });
}

function askHint() {
  if (!view || !view.is_my_turn) {
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
      document.body.dataset.connected = "yes";
      document.body.dataset.role = message.role;
      break;
    case "state":
      table = message.table;
      seq = message.seq;
      document.body.dataset.seq = String(seq);
      newState(message.view);
      break;
    case "table":
      table = message.table;
      render();
      break;
    case "deal":
      $("commitment").textContent = message.commitment;
      break;
    case "round_end":
      roundEnd(message);
      break;
    case "ack":
      showAlert("");
      break;
    case "hint":
      if (message.seq === seq) $("hint-text").textContent = prettyText(message.text);
      break;
    case "error":
      showAlert(prettyText(message.message));
      if (message.code === "not_your_turn" || message.code === "spectator") $("hint-text").textContent = "";
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
    if (first) {
      seen = { round: view.round, count: history.length, turn: false };
    } else {
      if (view.round !== seen.round) seen = { round: view.round, count: 0, turn: false };
      const fresh = history.slice(seen.count).map(eventWords).filter(Boolean);
      seen.count = history.length;
      if (fresh.length) announce(fresh.join(". "));
      if (view.round > blitzRound && history.some((e) => e.type === "acted") && $("banner").dataset.kind === "blitz") {
        banner("", ""); // the next round is under way
      }
    }
    const turn = turnWords();
    if (turn && !seen.turn) announce(turn);
    seen.turn = Boolean(turn);
    if (!shownResult && view.last_result) showResult(view.last_result);
  }
  render();
}

async function roundEnd(message) {
  if (message.result) {
    showResult(message.result);
    const blitz = message.result.blitz.length ? `Blitz! ${message.result.blitz.map(name).join(", ")} ${message.result.blitz.length === 1 && message.result.blitz[0] !== mySeat ? "has" : "have"} 31. ` : "";
    const losses = message.result.losses
      .map((l) => `${name(l.seat)} ${l.seat === mySeat ? "lose" : "loses"} ${l.lives} ${l.lives === 1 ? "life" : "lives"} (${l.rule})`)
      .join(", ");
    announce(`${blitz}Round ${message.round} is over. ${losses || "Nobody loses a life"}.`);
    if (message.result.blitz.length) {
      blitzRound = message.round;
      banner(blitz.trim(), "blitz");
    }
  }
  const verify = $("verify");
  const ok = await checkDeal(message.salt, message.deck, message.commitment);
  verify.replaceChildren(ok
    ? h("span", { class: "verified" }, `Round ${message.round}'s deal verified: SHA-256 of its salt and deck matches the commitment ${message.commitment.slice(0, 12)}… published before the deal.`)
    : h("strong", { class: "warning" }, `WARNING: round ${message.round}'s deal does NOT match its commitment: the deck or the salt was changed after the deal.`));
  verify.dataset.state = ok ? "verified" : "failed";
}

function showResult(result) {
  shownResult = result;
  $("result").hidden = false;
  $("result-body").replaceChildren(...resultView(result, names()));
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

function render() {
  if (!table) return;
  const over = table.status === "finished" || (view && view.phase === "over");
  const freeSeats = table.seats.filter((s) => s.kind === "human" && !s.taken);
  $("join").hidden = !(mySeat === null && table.status === "open" && freeSeats.length > 0);
  $("commitment").textContent = table.commitment || (over ? "(the game is over: every deal is revealed)" : "–");
  renderSeats();
  renderStatus(over);
  renderTimer();
  if (view) {
    drawMiddle(view, { stock: $("stock"), discard: $("discard"), widow: $("widow") });
    if (view.discard_top && view.discard_top !== lastTop && lastTop !== null) {
      const top = $("discard").querySelector(".card.top");
      if (top) top.classList.add("moved");
    }
    lastTop = view.discard_top;
  }
  renderHand();
  renderActions();
  $("over").hidden = !over;
  if (over) {
    $("winner").textContent = table.winner !== null && table.winner !== undefined
      ? `${name(table.winner)} ${table.winner === mySeat ? "win" : "wins"} the game!` : "The table was closed.";
    const download = $("download");
    download.hidden = !table.record_path;
    if (table.record_path) download.href = table.record_path;
    $("replay-link").href = `/r/${code}`;
    $("replay-link").hidden = !table.record_path;
  }
  renderRules();
}

function renderStatus(over) {
  let text;
  if (table.status === "open") text = `Waiting for players: ${table.seats.filter((s) => s.kind === "human" && !s.taken).length} seat(s) free. Share the link.`;
  else if (over) text = "The game is over.";
  else if (table.status === "closed") text = "The table was closed by its host.";
  else if (view) text = `Round ${view.round}, turn ${view.turn}. ${view.is_my_turn ? "Your turn." : `${name(view.current_seat)} to move.`}`;
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
function renderTimer() {
  const deadline = table && table.status === "playing" ? table.turn_deadline : null;
  const timer = $("timer");
  timer.hidden = deadline === null || deadline === undefined;
  if (timer.hidden) return;
  const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
  const who = view && view.is_my_turn ? "you have" : `${name(view ? view.current_seat : 0)} has`;
  timer.textContent = `Turn timer: ${who} ${left} s left, then a legal move is played for them.`;
  if (view && view.is_my_turn && left === 10) announce("10 seconds left for your move.");
}
setInterval(renderTimer, 1000);

function renderSeats() {
  const list = $("seats");
  const items = table.seats.map((s) => {
    const status = view ? view.seats[s.seat] : null;
    const chips = [];
    if (s.seat === mySeat) chips.push("you");
    if (s.kind === "bot") chips.push(`bot, ${s.level}`);
    else chips.push(s.connected ? "connected" : s.taken ? "not connected" : "free seat");
    if (view && view.dealer === s.seat) chips.push("dealer");
    if (view && view.knocker === s.seat) chips.push("knocked");
    const current = view && view.current_seat === s.seat && view.phase !== "over";
    const known = status && status.known_cards && status.known_cards.length && s.seat !== mySeat
      ? h("div", { class: "hand small", "aria-label": `Known cards: ${status.known_cards.map(cardName).join(", ")}` }, status.known_cards.map((c) => cardView(c)))
      : null;
    return h("li", { class: `seat${current ? " current" : ""}${status && status.out ? " out" : ""}`, "aria-current": current ? "true" : null, "data-seat": s.seat },
      h("h3", {}, name(s.seat), current ? h("span", { class: "turn-mark" }, " — to move") : null),
      h("p", { class: "lives" }, status ? livesText(status, table.preset) : `${table.rules.lives} lives`),
      h("p", { class: "chips" }, chips.join(" · ")),
      known);
  });
  list.replaceChildren(...items);
}

function renderHand() {
  const box = $("hand");
  $("hand-section").hidden = mySeat === null || !view;
  if (mySeat === null || !view) return;
  const discards = new Map(view.legal_actions.filter((a) => a.startsWith("discard ")).map((a) => [a.split(" ")[1], a]));
  if (view.seats[mySeat].out) {
    box.replaceChildren();
    $("hand-value").textContent = "You are out of this game; you can watch it to the end.";
    return;
  }
  const hand = view.hand || [null, null, null];
  box.replaceChildren(...hand.map((card) => {
    if (card && discards.has(card)) {
      return h("button", { type: "button", class: "card-button", "aria-label": `Discard ${cardName(card)}`, "data-card": card, onclick: () => act(discards.get(card)) }, cardView(card));
    }
    return cardView(card, { "data-card": card || "" });
  }));
  $("hand-value").textContent = view.hand ? `${points(view.hand_value)} points` + (view.taken_from_pile ? ` · you took ${prettyCards([view.taken_from_pile])} from the pile: keep it this turn (R4.2)` : "") : "Your cards are face down (R6.6).";
}

function renderActions() {
  const box = $("actions");
  $("actions-section").hidden = mySeat === null || !view || view.phase === "over";
  if (!view) return;
  box.replaceChildren(...view.legal_actions.map((notation) =>
    h("button", { type: "button", class: notation === "knock" ? "action knock" : "action", "data-action": notation, onclick: () => act(notation) }, actionWords(notation, view))));
  $("hint").disabled = !view.is_my_turn;
  if (!view.is_my_turn) $("hint-text").textContent = "";
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
      const joined = await api(`/api/tables/${code}/join`, { json: { name: wanted } });
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
