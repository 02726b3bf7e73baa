// The game's end: the winner, the standings round by round, the record, and Play again.
import { api, h, livesLeft, showAlert } from "./common.js";
import { num, rtl, t } from "./i18n.js";
import { showResult } from "./result.js";
import { $, code, ended, motion, name, names, rounds, state, tokenKey } from "./state.js";

/** Places at the end (R2.5): the winner first, then the reverse order of elimination; players put
 * out by the same round share a place. */
function standings() {
  const results = [...rounds.keys()]
    .sort((a, b) => a - b)
    .map((n) => rounds.get(n).result)
    .filter(Boolean);
  const out = [];
  for (const result of results) if (result.eliminated.length) out.push(result.eliminated);
  const places = [];
  if (state.table.winner !== null && state.table.winner !== undefined)
    places.push({ place: 1, seats: [state.table.winner] });
  let place = places.length + 1;
  for (const group of out.reverse()) {
    places.push({ place, seats: group });
    place += group.length;
  }
  const placed = new Set(places.flatMap((p) => p.seats));
  const rest = state.table.seats.map((s) => s.seat).filter((seat) => !placed.has(seat));
  if (rest.length) places.push({ place, seats: rest }); // a closed game: the others, still in
  return places;
}

export function renderOver() {
  if (!state.table) return;
  const over = ended();
  const opening = over && $("over").hidden;
  $("over").hidden = !over;
  $("centre").classList.toggle("ending", over);
  if (!over) return;
  if (opening) {
    motion.skip(); // the end: what still flies lands, under the final standings
    showAlert(""); // an earlier alert would lie over the end's heading, and no longer holds
  }
  const closed = state.table.status === "closed";
  $("over-heading").textContent = closed ? t("over.closed_heading") : t("table.game_over");
  const winner = state.table.winner ?? null;
  $("winner").textContent = closed
    ? t("over.closed")
    : winner !== null
      ? t(winner === state.mySeat ? "over.winner_you" : "over.winner", { who: name(winner) })
      : t("status.over");
  const numbers = [...rounds.keys()].sort((a, b) => a - b).filter((n) => rounds.get(n).result);
  const places = standings();
  const key = JSON.stringify([closed, numbers, places, names()]);
  if (key !== state.standingsKey) renderStandings(closed, numbers, places);
  state.standingsKey = key;
  $("download").parentElement.hidden = !state.table.record_path; // closed before its game started: no record
  if (state.table.record_path) $("download").href = state.table.record_path;
  $("replay-link").href = `/r/${code}`;
  const next = state.table.rematch;
  const mine = next && localStorage.getItem(`thirtyone.token.${next}`);
  const rematch = $("rematch");
  rematch.hidden = state.mySeat === null;
  rematch.textContent = mine ? t("rematch.go") : next ? t("rematch.take_seat") : t("table.play_again");
  $("rematch-link").hidden = !(next && state.mySeat === null);
  if (next) $("rematch-link").href = `/t/${next}`;
  $("rematch-note").textContent = next
    ? state.rematchBy !== null
      ? t("rematch.asked", { who: name(state.rematchBy), code: next })
      : t("rematch.there", { code: next })
    : state.mySeat === null
      ? t("rematch.watch")
      : t("rematch.offer");
  const last = [...rounds.keys()]
    .sort((a, b) => b - a)
    .map((n) => rounds.get(n).result)
    .find(Boolean);
  if (!last) return; // closed in round 1: no round has a result to show
  if (state.resultShown !== last.round) showResult(last);
  else if (state.table.record_path) $("result").hidden = false;
}

/** The final standings, one column a round: drawn anew only when they change (a redraw would lose
 * where they were scrolled to), then scrolled to their last rounds, where the game was lost. */
function renderStandings(closed, numbers, places) {
  const box = $("standings");
  box.replaceChildren(
    ...(closed && !rounds.size
      ? []
      : [
          h(
            "table",
            { class: "standings-table" },
            h("caption", { class: "sr-only" }, t("over.caption")),
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", { scope: "col" }, t("over.place")),
                h("th", { scope: "col" }, t("over.player")),
                ...numbers.map((n) =>
                  h(
                    "th",
                    { scope: "col", title: t("over.round_title", { round: num(n) }) },
                    t("over.round_col", { round: num(n) }),
                  ),
                ),
              ),
            ),
            h(
              "tbody",
              {},
              ...places.flatMap(({ place, seats }) =>
                seats.map((seat) =>
                  h(
                    "tr",
                    { class: place === 1 && !closed ? "first" : null },
                    h("td", { class: "place" }, closed ? "–" : t("over.place_n", { place: num(place) })),
                    h("th", { scope: "row", class: "name" }, name(seat)),
                    ...numbers.map((n) => {
                      const left = rounds.get(n).result.remaining[seat];
                      const shown = left <= 0 ? "✕" : livesLeft(left, state.table.rules, state.table.preset);
                      return h("td", { class: left <= 0 ? "gone" : null }, shown);
                    }),
                  ),
                ),
              ),
            ),
          ),
        ]),
  );
  box.scrollLeft = rtl ? -box.scrollWidth : box.scrollWidth;
  markScrolled(box);
}

/** Where the names stay put (just after the places, as wide as they are now), and whether rounds
 * are hidden before the ones in view: the name column then casts an edge over them. */
export function markScrolled(box) {
  const place = box.querySelector("tr > :first-child");
  if (place) box.style.setProperty("--place-w", `${place.offsetWidth}px`);
  box.dataset.before = Math.abs(box.scrollLeft) > 1 ? "yes" : "no";
}

export async function playAgain() {
  const next = state.table?.rematch;
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
    const made = await api(`/api/tables/${code}/rematch`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
    });
    localStorage.setItem(`thirtyone.token.${made.code}`, made.token);
    if (made.host_token) localStorage.setItem(`thirtyone.host.${made.code}`, made.host_token);
    location.assign(`/t/${made.code}`);
  } catch (error) {
    $("rematch").disabled = false;
    if (error.code === "seat_taken" && next) showAlert(t("rematch.seated", { code: next }), "info");
    else showAlert(t("rematch.failed", { error: error.message }));
  }
}
