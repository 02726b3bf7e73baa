// Sounds, made here with the Web Audio API (no sound files): a card dealt, a card drawn, a knock
// on wood, a Blitz chime and "your turn". Off unless the player turns them on (kept in the
// browser); the first sound waits for that click, as browsers want.

const KEY = "thirtyone.sound";
let context = null;
let on = localStorage.getItem(KEY) === "on";

export function soundOn() {
  return on;
}

/** Turn sounds on or off (remembered); returns the new setting. */
export function setSound(value) {
  on = Boolean(value);
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) audio();
  return on;
}

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    try {
      context = new Context();
    } catch {
      return null;
    }
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function noise(ctx, seconds) {
  const buffer = ctx.createBuffer(1, Math.max(1, Math.floor(ctx.sampleRate * seconds)), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  return source;
}

function swish(ctx, at, seconds, frequency, level) {
  const source = noise(ctx, seconds);
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = frequency;
  filter.Q.value = 0.8;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(level, at);
  gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at);
}

function tone(ctx, at, frequency, seconds, level, type = "sine") {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(frequency, at);
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(level, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + seconds + 0.05);
}

function knockOnWood(ctx, at) {
  const osc = ctx.createOscillator();
  osc.type = "triangle";
  osc.frequency.setValueAtTime(190, at);
  osc.frequency.exponentialRampToValueAtTime(90, at + 0.09);
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.5, at);
  gain.gain.exponentialRampToValueAtTime(0.001, at + 0.12);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + 0.15);
  swish(ctx, at, 0.04, 1800, 0.25);
}

const SOUNDS = {
  deal: (ctx, t) => swish(ctx, t, 0.09, 3200, 0.22),
  draw: (ctx, t) => swish(ctx, t, 0.16, 2200, 0.28),
  knock: (ctx, t) => {
    knockOnWood(ctx, t);
    knockOnWood(ctx, t + 0.18);
  },
  blitz: (ctx, t) => {
    [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => {
      tone(ctx, t + i * 0.09, f, 0.5, 0.16, "triangle");
    });
  },
  turn: (ctx, t) => {
    tone(ctx, t, 880, 0.25, 0.12);
    tone(ctx, t + 0.14, 1318.5, 0.35, 0.1);
  },
};

/** Play one of the sounds (deal, draw, knock, blitz, turn) if sounds are on. The page's body
 * names the last one played (``data-sound``) for tests and curious players. */
export function play(name) {
  if (!on || !SOUNDS[name]) return;
  document.body.dataset.sound = name;
  const ctx = audio();
  if (!ctx) return;
  try {
    SOUNDS[name](ctx, ctx.currentTime + 0.01);
  } catch {
    // no audio device: the game goes on in silence
  }
}
