// The side panel: the log, the scores round by round, how to play and every option, and the
// table's tools (invite, the rejoin link, the host's seats and close); the chat's unread count on
// the tabs that open it.
import { api, h, livesLeft, resultView, showAlert } from "./common.js";
import { num, rtl, t, tn } from "./i18n.js";
import { toast } from "./notices.js";
import { $, code, graceWord, hooks, hostKey, name, names, rounds, sourceOf, state, tokenKey } from "./state.js";
import { describeRules, howToPlay, optionHelp, optionName, optionValue, presetName } from "./howto.js";
import { eventWords, shortResult } from "./words.js";

/** Whether the side panel stands beside the table (a wide screen) rather than over it. */
export function wide() {
  return window.matchMedia("(min-width: 1000px)").matches;
}

export function openPanel(which, toggle = false) {
  if (toggle && state.sideOpen && state.panel === which) {
    state.sideOpen = false;
  } else {
    state.panel = which;
    state.sideOpen = true;
  }
  $("side").classList.toggle("open", state.sideOpen);
  for (const tab of document.querySelectorAll(".side-tabs [role=tab]")) {
    const on = tab.dataset.panel === state.panel;
    tab.setAttribute("aria-selected", String(on));
    $(`${tab.dataset.panel}-section`).hidden = !on;
  }
  if (state.panel === "chat") {
    state.unread = 0;
    renderUnread();
  }
  const scores = document.querySelector(".scores-scroll");
  if (state.panel === "scores" && scores) {
    scores.scrollLeft = rtl ? -scores.scrollWidth : scores.scrollWidth; // hidden, it could not be scrolled
    markEdges(scores);
  }
  renderLog();
}

export function renderUnread() {
  for (const id of ["chat-unread", "chat-unread-tab"]) {
    $(id).hidden = !state.unread;
    $(id).textContent = state.unread ? String(state.unread) : "";
  }
}

export function renderLog() {
  const lines = [];
  for (const number of [...rounds.keys()].sort((a, b) => a - b)) {
    const entry = rounds.get(number);
    entry.events.forEach((event, index) => {
      const line = eventWords(event, sourceOf(number, index));
      if (line)
        lines.push(
          h(
            "li",
            {
              class:
                event.type === "round_started" ? "round-line" : event.type === "round_ended" ? "result-line" : null,
            },
            line,
          ),
        );
    });
  }
  lines.reverse();
  $("log").replaceChildren(...lines.slice(0, 400));
}

export function renderScores() {
  if (!state.table) return;
  const numbers = [...rounds.keys()].sort((a, b) => a - b).filter((n) => rounds.get(n).result);
  // a column a round and nothing else (the note above says what everyone starts with), each cell
  // as narrow as it can be: the lives left, and those just lost as a small mark (in words in its title)
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, t("over.player")),
    ...numbers.map((n) => h("th", { scope: "col" }, t("over.round_col", { round: num(n) }))),
  );
  const rows = state.table.seats.map((s) => {
    let before = state.table.rules.lives + (state.table.rules.grace_life ? 1 : 0);
    const cells = numbers.map((n) => {
      const result = rounds.get(n).result;
      const left = result.remaining[s.seat];
      const lost = result.losses.filter((l) => l.seat === s.seat).reduce((sum, l) => sum + l.lives, 0);
      const gone = left <= 0;
      const shown = gone ? "" : livesLeft(left, state.table.rules, state.table.preset); // as the seats count them
      const words = t("scores.left_lost", { left: shown, lost: num(lost) });
      const cell = gone
        ? h("td", { class: before > 0 ? "lost" : null }, before > 0 ? t("lives.out") : "–")
        : lost
          ? h(
              "td",
              { class: "lost", title: words },
              h("span", { "aria-hidden": "true" }, shown, h("span", { class: "lost-mark" }, `−${num(lost)}`)),
              h("span", { class: "sr-only" }, words),
            )
          : h("td", {}, shown);
      before = left;
      return cell;
    });
    return h("tr", {}, h("th", { scope: "row", title: s.name || name(s.seat) }, name(s.seat)), ...cells);
  });
  // drawn anew only when it changes (a redraw would lose where it was scrolled to), then opened at
  // its newest rounds; the names stay put and an edge says that more rounds lie beyond
  const key = JSON.stringify([numbers, names()]);
  if (key !== state.scoresKey) {
    state.scoresKey = key;
    const box = h(
      "div",
      { class: "scroll scores-scroll", onscroll: (event) => markEdges(event.currentTarget) },
      h("table", {}, h("thead", {}, head), h("tbody", {}, rows)),
    );
    $("scores").replaceChildren(
      h(
        "p",
        { class: "muted small-text" },
        state.table.rules.grace_life
          ? tn("scores.note_grace", state.table.rules.lives, { grace: graceWord() })
          : tn("scores.note", state.table.rules.lives),
      ),
      box,
    );
    box.scrollLeft = rtl ? -box.scrollWidth : box.scrollWidth;
    markEdges(box);
  }
  $("results").replaceChildren(
    ...numbers
      .slice()
      .reverse()
      .map((n) => {
        const result = rounds.get(n).result;
        return h(
          "details",
          { open: n === numbers[numbers.length - 1] ? true : null },
          h("summary", {}, t("scores.round", { round: num(n), text: shortResult(result) })),
          ...resultView(result, names(), state.mySeat),
        );
      }),
  );
}

/** Whether columns lie hidden before or after the ones a sideways-scrolling ``box`` shows (its
 * data-before and data-after, which cast an edge there); right to left, scrollLeft counts down from 0. */
export function markEdges(box) {
  const gone = Math.abs(box.scrollLeft);
  box.dataset.before = gone > 1 ? "yes" : "no";
  box.dataset.after = gone + box.clientWidth < box.scrollWidth - 1 ? "yes" : "no";
}

export function renderRules() {
  if (!state.table || $("howto").dataset.done === "yes") return;
  const sections = howToPlay(state.table.rules, state.table.preset);
  $("howto").replaceChildren(
    ...sections.flatMap((section) => [
      h("h3", {}, section.title),
      h(
        "p",
        {},
        ...section.lines.flatMap(([text, rule]) => [
          h("span", rule ? { title: t("summary.rule", { rule }) } : {}, text),
          " ",
        ]),
      ),
    ]),
  );
  $("howto").dataset.done = "yes";
  if (!state.presets) return;
  const rows = Object.entries(state.table.rules)
    .filter(([, value]) => value !== null)
    .map(([option, value]) => {
      const spec = state.presets.options[option] || {};
      return h(
        "tr",
        {},
        h("th", { scope: "row" }, optionName(option)),
        h("td", {}, optionValue(value)),
        h("td", {}, spec.rule || ""),
        h("td", {}, optionHelp(option, spec)),
      );
    });
  $("rules").replaceChildren(
    h("p", {}, t("rules.nearest", { describe: describeRules(state.table), preset: presetName(state.table.preset) })),
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, t("rules.option")),
            h("th", { scope: "col" }, t("rules.value")),
            h("th", { scope: "col" }, t("rules.rule")),
            h("th", { scope: "col" }, t("rules.what")),
          ),
        ),
        h("tbody", {}, rows),
      ),
    ),
  );
}

export function renderTableTools() {
  $("privacy").textContent = state.table.public ? t("privacy.public") : t("privacy.private");
  const token = localStorage.getItem(tokenKey);
  $("rejoin-box").hidden = state.mySeat === null || !token;
  if (token && state.mySeat !== null) $("rejoin-link").value = `${location.origin}/t/${code}#seat=${code}.${token}`;
  const hostToken = localStorage.getItem(hostKey);
  const hosting = Boolean(hostToken) && (state.table.status === "open" || state.table.status === "playing");
  $("host").hidden = !hosting;
  if (!hosting) return;
  const gone = state.table.seats.filter(
    (s) => s.kind === "human" && s.seat !== state.mySeat && (!s.taken || !s.connected),
  );
  $("host-seats").replaceChildren(
    ...(gone.length ? [h("p", { class: "small-text" }, t("host.gone"))] : []),
    ...gone.map((s) => {
      const level = h(
        "select",
        { "aria-label": t("host.level", { n: num(s.seat + 1) }), class: "small" },
        ...["easy", "medium", "hard"].map((l) =>
          h("option", { value: l, selected: l === "medium" ? true : null }, t(`level.${l}`)),
        ),
      );
      const who = s.name || t("seat.number", { n: num(s.seat + 1) });
      return h(
        "div",
        { class: "row" },
        h("span", {}, t(s.taken ? "host.left" : s.reserved ? "host.not_back" : "host.free", { who })),
        h(
          "span",
          { class: "row" },
          level,
          h(
            "button",
            { type: "button", class: "small", "data-seat": s.seat, onclick: () => seatBot(s.seat, level.value) },
            t("host.give"),
          ),
        ),
      );
    }),
  );
}

async function seatBot(seat, level) {
  const hostToken = localStorage.getItem(hostKey);
  try {
    const answer = await api(`/api/tables/${code}/seats/${seat}/bot`, {
      json: { level },
      headers: { Authorization: `Bearer ${hostToken}` },
    });
    state.table = answer.table;
    hooks.render();
    toast(t("host.bot_plays", { level: t(`level.${level}`), n: num(seat + 1) }));
  } catch (error) {
    showAlert(t("host.bot_failed", { error: error.message }));
  }
}

// The host (whoever created the table in this browser: the lobby keeps the host token) may close it,
// e.g. when someone left a game for good.
export async function closeTable() {
  const hostToken = localStorage.getItem(hostKey);
  if (!hostToken || !confirm(t("host.confirm_close"))) return;
  try {
    const closed = await api(`/api/tables/${code}/close`, {
      method: "POST",
      headers: { Authorization: `Bearer ${hostToken}` },
    });
    state.table = closed.table;
    hooks.render();
  } catch (error) {
    showAlert(t("host.close_failed", { error: error.message }));
  }
}
