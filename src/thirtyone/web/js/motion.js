// Motion at the table: cards that fly from one place to another (and turn over on the way),
// speech bubbles at a seat, and short moments (a knock, a Blitz). Every step waits its turn in one
// queue, so that what happened is shown in order and a person can follow the bots; a queue that
// grows is played faster. Nothing here holds up a move: the page is drawn in its new state before
// anything flies, and a move by the player plays every waiting step to its end at once (skip).
// With prefers-reduced-motion nothing moves at all: the steps are dropped, the page just shows
// the new state (and what is said is still said).
import { cardFace } from "./cards.js";

export const FLIGHT_MS = 420;
const reduce = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

export function reducedMotion() {
  return reduce.matches;
}

/**
 * Keep the fixed `node` at the place `where()` gives (a rectangle; none with no width: where it
 * was), each frame, until the returned function is called: what flies or speaks at a place moves
 * with it when the page's layout changes.
 */
export function follow(node, where) {
  let frame = 0;
  const place = () => {
    const now = where();
    if (now?.width) {
      node.style.left = `${now.left}px`;
      node.style.top = `${now.top}px`;
    }
    frame = requestAnimationFrame(place);
  };
  frame = requestAnimationFrame(place);
  return () => cancelAnimationFrame(frame);
}

export class Motion {
  constructor(layer) {
    this.layer = layer;
    this.queue = Promise.resolve();
    this.waiting = 0;
    this.generation = 0;
    this.running = new Set();
  }

  /** Whether steps are waiting or playing. */
  get busy() {
    return this.waiting > 0;
  }

  /** Queue ``step(speed)`` (an async function; speed 1 is normal, less is faster); ``done()`` runs
   * after it, or at once when motion is reduced or the queue is skipped. */
  add(step, done = null) {
    if (reducedMotion()) {
      if (done) done();
      return;
    }
    const generation = this.generation;
    this.waiting++;
    document.body.dataset.animating = "yes";
    this.queue = this.queue.then(async () => {
      try {
        if (generation === this.generation) {
          const speed = this.waiting > 4 ? 0.3 : this.waiting > 2 ? 0.6 : 1;
          await step(speed);
        }
      } catch {
        // a step whose elements went away: the page is drawn anyway
      } finally {
        this.waiting--;
        if (done) done();
        if (!this.waiting) document.body.dataset.animating = "no";
      }
    });
  }

  /** Play ``step(1)`` now, beside the queue (dropped when motion is reduced): for what must move the
   * moment it appears, such as a new round's cards while the last round's showdown still plays. */
  now(step) {
    if (reducedMotion()) return;
    step(1).catch(() => {}); // a step whose elements went away: the page is drawn anyway
  }

  /** Play everything at once: every flight lands, every waiting step is dropped (their ``done``
   * still runs). */
  skip() {
    this.generation++;
    for (const animation of [...this.running]) animation.finish();
    this.layer.replaceChildren();
    for (const node of document.querySelectorAll(".landing")) node.classList.remove("landing");
  }

  /** A card flying from the rectangle ``from`` to the element (or rectangle) ``to``, face up
   * (``card``) or down, turning over on the way when ``turn`` ("up": from its back to its face;
   * "down": the other way). The landing element is hidden until the card arrives. */
  async fly(from, to, { card = null, turn = null, duration = FLIGHT_MS, delay = 0, speed = 1 } = {}) {
    const target = to instanceof Element ? to : null;
    const end = target ? target.getBoundingClientRect() : to;
    if (!from || !end?.width) return;
    if (target) target.classList.add("landing");
    const flyer = document.createElement("div");
    flyer.className = "flyer";
    flyer.style.left = `${end.left ?? end.x}px`;
    flyer.style.top = `${end.top ?? end.y}px`;
    flyer.style.width = `${end.width}px`;
    flyer.style.height = `${end.height}px`;
    const inner = document.createElement("div");
    inner.className = "flip";
    const back = document.createElement("span");
    back.className = "side back card";
    inner.append(back);
    if (card) {
      const front = document.createElement("span");
      front.className = "side front card";
      front.append(cardFace(card));
      inner.append(front);
    }
    flyer.append(inner);
    this.layer.append(flyer);
    const dx = (from.left ?? from.x) - (end.left ?? end.x);
    const dy = (from.top ?? from.y) - (end.top ?? end.y);
    const scale = from.width / end.width || 1;
    const ms = Math.max(60, duration * speed);
    const path = flyer.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, offset: 0 },
        { transform: "translate(0, 0) scale(1)", offset: 1 },
      ],
      { duration: ms, delay: delay * speed, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
    );
    // the landing place may move meanwhile (your turn's moves appear under the table and the seats
    // move up): the card lands where its place is now, never on a name plate that took it
    const stop = target ? follow(flyer, () => target.getBoundingClientRect()) : () => {};
    const faces = card ? (turn === "up" ? [180, 0] : turn === "down" ? [0, 180] : [0, 0]) : [180, 180];
    const flip = inner.animate([{ transform: `rotateY(${faces[0]}deg)` }, { transform: `rotateY(${faces[1]}deg)` }], {
      duration: ms,
      delay: delay * speed,
      fill: "both",
      easing: "ease-in-out",
    });
    this.running.add(flip);
    await this.settle(path);
    stop();
    this.running.delete(flip);
    flyer.remove();
    if (target) target.classList.remove("landing");
  }

  /** Wait for ``animation`` to end (or be cancelled by a skip), holding it among the running ones. */
  async settle(animation) {
    this.running.add(animation);
    try {
      await animation.finished;
    } catch {
      // cancelled
    } finally {
      this.running.delete(animation);
    }
  }

  /** Turn a card over where it lies (the element ``node``): from its back to its face. */
  async turnOver(node, speed = 1) {
    if (!node) return;
    const animation = node.animate([{ transform: "rotateY(90deg)" }, { transform: "rotateY(0deg)" }], {
      duration: 300 * speed,
      easing: "ease-out",
    });
    await this.settle(animation);
  }

  /** A short pulse of ``node`` (a seat that knocked, a hand of 31). */
  async pulse(node, speed = 1) {
    if (!node) return;
    const animation = node.animate(
      [{ transform: "scale(1)" }, { transform: "scale(1.08)" }, { transform: "scale(1)" }],
      { duration: 520 * speed, easing: "ease-in-out" },
    );
    await this.settle(animation);
  }

  /** A token (a penny, a life lost) flying off ``from`` and fading out, upward. */
  async flyOff(from, speed = 1) {
    if (!from) return;
    const coin = document.createElement("span");
    coin.className = "coin flying-coin";
    coin.style.left = `${from.left + from.width / 2 - 9}px`;
    coin.style.top = `${from.top + from.height / 2 - 9}px`;
    this.layer.append(coin);
    const animation = coin.animate(
      [
        { transform: "translate(0, 0) scale(1)", opacity: 1 },
        { transform: "translate(0, -70px) scale(1.6)", opacity: 0 },
      ],
      { duration: 900 * speed, easing: "ease-out" },
    );
    await this.settle(animation);
    coin.remove();
  }

  /** Wait ``ms`` (times ``speed``), unless the queue is skipped meanwhile. */
  wait(ms, speed = 1) {
    const generation = this.generation;
    return new Promise((resolve) => {
      const started = performance.now();
      const tick = () => {
        if (generation !== this.generation || performance.now() - started >= ms * speed) resolve();
        else setTimeout(tick, 50);
      };
      tick();
    });
  }
}
