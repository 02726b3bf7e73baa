// Deals no one can choose, checked in the browser (docs/record-format.md, "Provably fair
// shuffles"; the construction is thirtyone.fairness's, and the test vectors there hold here too).
//
// The table commits to a salt chain when it is created, before anyone sends a seed; each person's
// page adds a random client seed; round r's deck is a Fisher-Yates shuffle driven by
// HMAC-SHA256(salt_r, "thirtyone-deck/2 r SEEDS block"); when the round ends the salt is revealed,
// and this page checks, on its own, that it is round r's salt of the chain it saw committed
// (SHA-256 of "thirtyone-chain/1 SALT", r times, gives the commitment), that its own seed was
// used, and that the revealed deck is the one the salt and the seeds deal. After a 31 the hidden
// hands must stay hidden until the game ends (R5.7): such a round's deck and salt, and on a chain
// every later round's (round r's salt is the link of round r+1's), come only with the `reveal`
// message at the game's end (`round_end.revealed` false until then), and are checked then.
//
// What a page saw is kept in localStorage per table ("thirtyone.fair.CODE"), so that a reload
// keeps it, and can be downloaded for `thirtyone verify RECORD --seen FILE`.
//
// API (every function takes the table's code first):
//   clientSeed(code)                 -> this browser's seed for the table: 32 random bytes from
//                                       crypto.getRandomValues as 64 hex digits, made once, kept
//   noteCommitment(code, table)      -> keep table.commitment (a TABLE object, or any message
//                                       with .commitment and .scheme) the first time it is seen;
//                                       false when it differs from the one seen before
//   noteSeat(code, seat)             -> remember which seat this page holds (for checkRound)
//   seenSeat(code)                   -> the seat this browser held at the table, or null
//   noteDeal(code, message)          -> keep a `deal` message's seeds (and check the commitment)
//   checkRound(code, message)        -> Promise of a CHECK for a `round_end` message: the
//                                       checks above, kept with what was seen; a round that waits
//                                       for the game's end (revealed false) is noted, not checked
//   checkReveal(code, message)       -> Promise of {state, ok, rounds, verified, failed} for a
//                                       `reveal` message (the game's end): rounds, a CHECK of each
//                                       round it brings; verified and failed, their numbers;
//                                       state "verified" (every one checks) or "failed"
//   waitingRounds(code)              -> the numbers of the rounds noted as waiting for the game's
//                                       end and not checked yet, in order
//   seenFile(code)                   -> the --seen file as JSON text
//   seenFileName(code)               -> "thirtyone-CODE-seen.json"
// A CHECK is data, for the page to put in its own words: {round, state, ok, scheme, commitment,
// mine, problems, text}: state "verified", "failed" or "waits" (its deck and salt wait for the
// game's end, R5.7: ok null, nothing checked yet); commitment the one checked against (64 hex
// digits); mine whether this page's own seed was among the seeds checked; problems the codes of
// what did not check, in order ("not_seen": no commitment seen before the deal,
// "other_commitment", "salt", "seeds": not the ones announced with the deal, "own_seed", "deck";
// an older table's "commitment": its deck or salt changed); text the same in words (the fair.*
// messages), null while the round waits.
// and, for tests, the construction itself: chainLink(salt), saltMatches(commitment, salt, round),
// dealDeck(salt, round, seeds, size), sha256Hex(text), hmacSha256(keyHex, text), and `plain`, the
// SHA-256 and HMAC in plain JavaScript used where crypto.subtle is missing.

import { num, t } from "./i18n.js";
export const CHAIN = "thirtyone-chain/1";
const DECK = "thirtyone-deck/2";
const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const encoder = new TextEncoder();

// ---------------------------------------------------------------------------------- hashing

// SHA-256 in plain JavaScript, for pages served over plain HTTP on a home network, where the
// browser offers no crypto.subtle (it is only there on HTTPS and localhost).
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

function sha256Plain(bytes) {
  const length = bytes.length;
  const padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let at = 0; at < padded.length; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + 4 * i);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15];
      const b = w[i - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (k + s1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [k, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += k;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((word, i) => {
    outView.setUint32(4 * i, word);
  });
  return out;
}

const subtle = globalThis.crypto?.subtle;

async function sha256(bytes) {
  return subtle ? new Uint8Array(await subtle.digest("SHA-256", bytes)) : sha256Plain(bytes);
}

function hex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** SHA-256 of text (UTF-8), as 64 lowercase hex digits. */
export async function sha256Hex(text) {
  return hex(await sha256(encoder.encode(text)));
}

/** HMAC-SHA256 of text keyed with the bytes of keyHex: 32 bytes. */
export async function hmacSha256(keyHex, text) {
  const key = fromHex(keyHex);
  const data = encoder.encode(text);
  if (subtle) {
    const imported = await subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await subtle.sign("HMAC", imported, data));
  }
  return hmacPlain(key, data);
}

function hmacPlain(key, data) {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256Plain(key) : key);
  const inner = new Uint8Array(64 + data.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i] ^ 0x36;
    outer[i] = block[i] ^ 0x5c;
  }
  inner.set(data, 64);
  outer.set(sha256Plain(inner), 64);
  return sha256Plain(outer);
}

/** The plain-JavaScript SHA-256 and HMAC-SHA256 (hex), as used without crypto.subtle: for tests. */
export const plain = {
  sha256Hex: (text) => hex(sha256Plain(encoder.encode(text))),
  hmacSha256Hex: (keyHex, text) => hex(hmacPlain(fromHex(keyHex), encoder.encode(text))),
};

// ---------------------------------------------------------------------------------- the construction

/** One link of the salt chain: SHA-256 of "thirtyone-chain/1 SALT". */
export function chainLink(salt) {
  return sha256Hex(`${CHAIN} ${salt}`);
}

/** Whether salt is round `round`'s salt of the chain committed to by `commitment`. */
export async function saltMatches(commitment, salt, round) {
  if (typeof salt !== "string" || !/^[0-9a-f]{64}$/.test(salt) || !(round >= 1)) return false;
  let value = salt;
  for (let i = 0; i < round; i++) value = await chainLink(value);
  return value === commitment;
}

function seedsText(seeds) {
  return seeds.map((seed) => seed || "-").join(" ");
}

/** The card indexes of the deck of `size` cards, in order (thirtyone.cards.full_deck): 52, 32
 * (7 to ace) or 8 (9, Q, K and A of hearts and spades: the research variant mini). */
function deckIndexes(size) {
  if (size === 8) return [30, 31, 42, 43, 46, 47, 50, 51];
  const first = size === 32 ? 20 : 0;
  return Array.from({ length: 52 - first }, (_, i) => first + i);
}

/** Round `round`'s deck order (card texts, top first) from its salt and the seats' seeds. */
export async function dealDeck(salt, round, seeds, size = 52) {
  const cards = deckIndexes(size).map((i) => RANKS[i >> 2] + SUITS[i & 3]);
  const prefix = `${DECK} ${round} ${seedsText(seeds)} `;
  let block = 0;
  let numbers = [];
  async function next() {
    if (!numbers.length) {
      const digest = await hmacSha256(salt, `${prefix}${block}`);
      block += 1;
      const view = new DataView(digest.buffer, digest.byteOffset, 32);
      numbers = Array.from({ length: 8 }, (_, i) => view.getUint32(4 * i));
    }
    return numbers.shift();
  }
  for (let i = cards.length - 1; i > 0; i--) {
    const span = i + 1;
    const limit = 0x100000000 - (0x100000000 % span);
    let number = await next();
    while (number >= limit) number = await next();
    const j = number % span;
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

// ---------------------------------------------------------------------------------- what this page saw

function key(code) {
  return `thirtyone.fair.${code}`;
}

function load(code) {
  try {
    const saved = JSON.parse(localStorage.getItem(key(code)) || "null");
    if (saved && typeof saved === "object") return saved;
  } catch {
    // a damaged entry: start again
  }
  return { seed: null, commitment: null, scheme: null, seat: null, deals: {}, rounds: {}, waiting: {} };
}

function save(code, seen) {
  try {
    localStorage.setItem(key(code), JSON.stringify(seen));
  } catch {
    // storage full or refused: the checks still run, only the download loses them
  }
}

/** This browser's client seed for the table (64 hex digits), made once and kept. */
export function clientSeed(code) {
  const seen = load(code);
  if (!seen.seed) {
    const bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    seen.seed = hex(bytes);
    save(code, seen);
  }
  return seen.seed;
}

/** Keep the table's commitment the first time it is seen; false when it changed since. */
export function noteCommitment(code, table) {
  if (!table?.commitment) return true;
  const seen = load(code);
  const chained = table.scheme === CHAIN;
  if (!chained) return true; // an older table: each deal is committed to alone (checked per round)
  if (!seen.commitment) {
    seen.commitment = table.commitment;
    seen.scheme = table.scheme;
    save(code, seen);
    return true;
  }
  return seen.commitment === table.commitment;
}

/** Remember the seat this page plays (null: watching). */
export function noteSeat(code, seat) {
  const seen = load(code);
  if (seen.seat !== seat && seat !== null && seat !== undefined) {
    seen.seat = seat;
    save(code, seen);
  }
}

/** The seat this browser held at table `code` (noted while it played there), or null: the replay
 * page offers that seat's review first. */
export function seenSeat(code) {
  const seat = load(code).seat;
  return Number.isInteger(seat) ? seat : null;
}

/** Keep a `deal` message's seeds; false when its commitment is not the one seen before. */
export function noteDeal(code, message) {
  const agrees = noteCommitment(code, message);
  if (message.scheme === CHAIN && Array.isArray(message.seeds)) {
    const seen = load(code);
    seen.deals[message.round] = message.seeds;
    save(code, seen);
  }
  return agrees;
}

async function oldDealMatches(salt, deck, commitment) {
  const cards = Array.isArray(deck) ? deck.join(" ") : String(deck).trim().split(/\s+/).join(" ");
  return (await sha256Hex(`thirtyone-deal/1 ${salt} ${cards}`)) === commitment;
}

const PROBLEM_WORDS = {
  not_seen: () => t("fair.not_seen"),
  other_commitment: () => t("fair.other_commitment"),
  salt: (round) => t("fair.salt", { round: num(round) }),
  seeds: () => t("fair.seeds"),
  own_seed: () => t("fair.own_seed"),
  deck: () => t("fair.deck"),
};

function holdsOwnSeed(seen) {
  return seen.seat !== null && seen.seat !== undefined && Boolean(seen.seed);
}

/** Check one revealed deal ({round, deck, salt, commitment, scheme, seeds}: a `round_end`, or a
 * round of `reveal`) on this page alone, keep it with what was seen; returns a CHECK. */
async function checkDeal(code, message) {
  const round = message.round;
  const deck = String(message.deck || "")
    .trim()
    .split(/\s+/);
  const seen = load(code);
  if (seen.waiting) delete seen.waiting[round];
  if (message.scheme !== CHAIN) {
    const ok = await oldDealMatches(message.salt, deck, message.commitment);
    save(code, seen);
    const commitment = String(message.commitment);
    return checked({
      round,
      scheme: message.scheme,
      commitment,
      mine: false,
      problems: ok ? [] : ["commitment"],
      text: ok
        ? t("fair.old_ok", { round: num(round), commitment: commitment.slice(0, 12) })
        : t("fair.old_bad", { round: num(round) }),
    });
  }
  const problems = [];
  const commitment = seen.commitment || message.commitment;
  if (!seen.commitment) problems.push("not_seen");
  else if (message.commitment !== seen.commitment) problems.push("other_commitment");
  if (!(await saltMatches(commitment, message.salt, round))) problems.push("salt");
  const seeds = Array.isArray(message.seeds) ? message.seeds : [];
  const announced = seen.deals[round];
  if (announced && JSON.stringify(announced) !== JSON.stringify(seeds)) problems.push("seeds");
  const mine = holdsOwnSeed(seen);
  if (mine && seeds[seen.seat] !== seen.seed) problems.push("own_seed");
  const dealt = await dealDeck(message.salt, round, seeds, deck.length);
  if (dealt.join(" ") !== deck.join(" ")) problems.push("deck");
  const ok = problems.length === 0;
  seen.rounds[round] = { salt: message.salt, deck: deck.join(" "), seeds, ok };
  save(code, seen);
  return checked({
    round,
    scheme: message.scheme,
    commitment,
    mine,
    problems,
    text: ok
      ? t(mine ? "fair.ok_mine" : "fair.ok", { round: num(round), commitment: commitment.slice(0, 12) })
      : t("fair.bad", { round: num(round), problems: problems.map((code) => PROBLEM_WORDS[code](round)).join("; ") }),
  });
}

/** The CHECK of a round checked now ({round, scheme, commitment, mine, problems, text}): state
 * "verified" and ok true when problems is empty, else "failed" and ok false. */
function checked({ round, scheme, commitment, mine, problems, text }) {
  const ok = problems.length === 0;
  return { round, state: ok ? "verified" : "failed", ok, scheme, commitment, mine, problems, text };
}

/** Check a `round_end` message on this page alone; returns a CHECK (state "waits" for a round
 * whose deck and salt wait for the game's end, R5.7: noted, checked when `reveal` brings them). */
export async function checkRound(code, message) {
  if (message.revealed === false) {
    const seen = load(code);
    seen.waiting = { ...seen.waiting, [message.round]: true };
    save(code, seen);
    return {
      round: message.round,
      state: "waits",
      ok: null,
      scheme: message.scheme,
      commitment: seen.commitment || message.commitment,
      mine: holdsOwnSeed(seen),
      problems: [],
      text: null,
    };
  }
  return checkDeal(code, message);
}

/** Check every round a `reveal` message brings (the game's end, R5.7); returns {state, ok,
 * rounds: a CHECK each, verified: their numbers that check, failed: those that do not}. */
export async function checkReveal(code, message) {
  const rounds = [];
  for (const entry of Array.isArray(message.rounds) ? message.rounds : []) rounds.push(await checkDeal(code, entry));
  const failed = rounds.filter((check) => !check.ok).map((check) => check.round);
  return {
    state: failed.length ? "failed" : "verified",
    ok: failed.length === 0,
    rounds,
    verified: rounds.filter((check) => check.ok).map((check) => check.round),
    failed,
  };
}

/** The rounds noted as waiting for the game's end (R5.7) and not checked yet, in order. */
export function waitingRounds(code) {
  return Object.keys(load(code).waiting || {})
    .map(Number)
    .sort((a, b) => a - b);
}

/** What this page saw, as the file `thirtyone verify RECORD --seen FILE` reads. */
export function seenFile(code) {
  const seen = load(code);
  const rounds = Object.keys(seen.rounds)
    .map(Number)
    .sort((a, b) => a - b)
    .map((round) => ({ round, ...seen.rounds[round] }));
  return JSON.stringify(
    {
      format: "thirtyone-seen",
      version: 1,
      table: code,
      scheme: seen.scheme,
      commitment: seen.commitment,
      seat: seen.seat,
      seed: seen.seat !== null && seen.seat !== undefined ? seen.seed : null,
      rounds,
    },
    null,
    2,
  );
}

export function seenFileName(code) {
  return `thirtyone-${code}-seen.json`;
}
