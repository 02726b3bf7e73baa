// The table page: play at a seat (its token kept in localStorage per table code) or watch.
// The server is the authority: this page draws the latest state at once and sends only the
// actions the state lists as legal (view.legal, by id), with the state's seq. What happened is
// told and shown from the events' data (never from sentences): the log and the live region say
// it, and the cards fly (motion.js) after the page is already drawn in its new state, so nothing
// waits on an animation to accept a move. This module wires the parts together: each imports only
// the ones below it, and asks for what is drawn above it through state.hooks, filled here.
import { api, h, limitChars, showAlert } from "./common.js";
import { t, translatePage } from "./i18n.js";
import { setFourColours } from "./cards.js";
import { setSound, soundOn } from "./sound.js";
import * as fairness from "./fairness.js";
import { REACTIONS, sendChat } from "./chat.js";
import { connect } from "./connection.js";
import { toast } from "./notices.js";
import { markScrolled, playAgain } from "./over.js";
import { layoutStage, render, renderPicks } from "./render.js";
import { hideResult } from "./result.js";
import { renderSeats } from "./seats.js";
import { closeShowdown } from "./showdown.js";
import { closeTable, openPanel, renderRules, wide } from "./side.js";
import { act, askHint } from "./socket.js";
import { $, announced, code, hooks, legalMove, myTurn, rounds, state, tokenKey } from "./state.js";

/** The keys of the moves (as 1-4 discard; shown in "How to play": howto.keys_draw, howto.keys_widow,
 * which the terminal's keys match): key → [the move's kind, its fields]. */
const MOVE_KEYS = {
  s: ["draw", { source: "stock" }],
  p: ["draw", { source: "pile" }],
  a: ["exchange_all", {}],
  k: ["knock", {}],
  ".": ["pass", {}],
  " ": ["pass", {}],
  h: ["keep", {}],
  w: ["take_widow", {}],
};

translatePage();
hooks.render = render;
hooks.renderPicks = renderPicks;

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
  setTimeout(() => {
    button.textContent = label;
  }, 2000);
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
  state.rejoin = { token: found[2], previous: localStorage.getItem(tokenKey) };
}

function start() {
  readRejoinLink();
  window.addEventListener("hashchange", () => {
    // a rejoin link pasted into this open page: only the #… changed
    readRejoinLink();
    if (state.rejoin) connect();
  });
  const link = `${location.origin}/t/${code}`;
  $("share-link").href = link;
  $("share-link").textContent = link;
  $("copy-link").addEventListener("click", (event) => copy(link, t("copy.link"), event.currentTarget));
  $("copy-code").addEventListener("click", (event) => copy(code, t("copy.code"), event.currentTarget));
  $("copy-rejoin").addEventListener("click", (event) =>
    copy($("rejoin-link").value, t("copy.rejoin"), event.currentTarget),
  );
  $("hint").addEventListener("click", askHint);
  $("close-table").addEventListener("click", closeTable);
  $("rematch").addEventListener("click", playAgain);
  for (const [id, source] of [
    ["stock", "stock"],
    ["discard", "pile"],
  ]) {
    $(id).addEventListener("click", (click) => {
      const draw = myTurn() && legalMove("draw", { source });
      if (draw) act(draw, click);
    });
  }
  $("result-close").addEventListener("click", hideResult);
  $("showdown-close").addEventListener("click", () => closeShowdown());
  $("standings").addEventListener("scroll", (event) => markScrolled(event.currentTarget), { passive: true });
  for (const button of document.querySelectorAll("[data-panel]")) {
    button.addEventListener("click", () => openPanel(button.dataset.panel, !button.closest(".side") && !wide()));
  }
  $("side-close").addEventListener("click", () => {
    state.sideOpen = false;
    $("side").classList.remove("open");
  });
  const showSound = () => {
    for (const button of [$("sound"), $("sound-2")]) button.setAttribute("aria-pressed", String(soundOn()));
    $("sound").title = soundOn() ? t("table.sounds_on") : t("table.sounds_off");
  };
  showSound();
  for (const button of [$("sound"), $("sound-2")]) {
    button.addEventListener("click", () => {
      setSound(!soundOn());
      showSound();
      toast(soundOn() ? t("toast.sounds_on") : t("toast.sounds_off"));
    });
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
    state.layoutKey = "";
    state.paint++;
    render();
  });
  $("reactions").replaceChildren(
    ...Object.entries(REACTIONS).map(([id, words]) =>
      h("button", { type: "button", "data-reaction": id, onclick: () => sendChat({ reaction: id }) }, words),
    ),
  );
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("chat-text").value;
    if (!text.trim()) {
      $("chat-note").textContent = t("chat.empty");
      return;
    }
    sendChat({ text });
  });
  /** The move a key plays (MOVE_KEYS; the space bar passes where it presses no control), or null. */
  const moveKey = (event) => {
    if (event.key === " " && event.target.closest("button, a, summary, [role=button]")) return null;
    return MOVE_KEYS[event.key.toLowerCase()] || null;
  };
  /** The button of the legal move [kind, fields], where the page offers it. */
  const moveButton = ([kind, fields]) => {
    const move = legalMove(kind, fields);
    return move ? $("actions").querySelector(`button[data-id="${move.id}"]`) : null;
  };
  document.addEventListener("keydown", (event) => {
    const typing =
      event.target instanceof HTMLInputElement ||
      event.target instanceof HTMLSelectElement ||
      event.target instanceof HTMLTextAreaElement;
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "?") {
      event.preventDefault();
      askHint();
    } else if (moveKey(event) && myTurn()) {
      const button = moveButton(moveKey(event));
      if (button) {
        event.preventDefault();
        button.click();
      }
    } else if (/^[1-4]$/.test(event.key) && myTurn()) {
      const button = $("hand").querySelectorAll(".card-button")[Number(event.key) - 1];
      if (button) {
        event.preventDefault();
        button.click();
      }
    } else if (event.key === "Escape" && state.sideOpen && !wide()) {
      state.sideOpen = false;
      $("side").classList.remove("open");
    } else if ((event.key === "Enter" || event.key === "Escape") && !$("showdown-foot").hidden) {
      if (event.key === "Enter" && event.target.closest("button, a, summary")) return; // that control's own Enter
      event.preventDefault();
      closeShowdown();
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
      const old = state.socket;
      state.socket = null; // its messages are no longer this page's: the new connection tells everything again
      if (old) old.close();
      state.view = null;
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
    if (!state.table) return;
    if (layoutStage()) renderSeats();
  }).observe($("stage"));
  if (wide()) openPanel("log");
  api("/api/presets")
    .then((data) => {
      state.presets = data;
      limitChars($("join-name"), data.limits.max_name, t("join.no_name"));
      $("howto").dataset.done = "";
      renderRules();
    })
    .catch(() => {});
  connect();
}

start();
