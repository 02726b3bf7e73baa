// The lobby: join a table by its code, the public tables to join or watch, and the form to
// create a table (private unless listed, hints on or off).
import { cardElement } from "./cards.js";
import { api, h, limitChars, showAlert } from "./common.js";
import { describeRules, optionHelp, optionName, optionValue, presetName, presetWords } from "./howto.js";
import { list, num, t, translatePage } from "./i18n.js";

translatePage();
import { clientSeed, noteCommitment } from "./fairness.js";

const form = document.getElementById("create-form");
const seatsList = document.getElementById("seats");
let presets = null;

function tableItem(table, verb) {
  const people = list(
    table.seats.map((s) =>
      s.kind === "bot" ? t("lobby.bot_seat", { who: s.name, level: t(`level.${s.level}`) }) : s.name || t("chip.free"),
    ),
  );
  const describe = describeRules(table);
  return h(
    "li",
    { class: "table-item" },
    h("a", { href: table.share_path, class: "button" }, t(verb, { code: table.code })),
    h("span", {}, " ", t("lobby.table_line", { describe, seats: num(table.players), people })),
  );
}

/** A code typed or pasted (K7QW2M, k7qw-2m, or a whole share link): the table's code, or null. */
function codeOf(text) {
  const link = text.trim().match(/\/t\/([A-Za-z0-9 -]+)\/?$/);
  const clean = (link ? link[1] : text).replace(/[\s-]/g, "").toUpperCase();
  return /^[2-9A-HJKMNP-Z]{6}$/.test(clean) ? clean : null;
}

async function joinByCode(event) {
  event.preventDefault();
  const input = document.getElementById("join-code");
  const typed = input.value;
  const clean = codeOf(typed);
  if (!clean) {
    input.setAttribute("aria-invalid", "true");
    showAlert(typed.trim() ? t("lobby.bad_code", { typed: typed.trim().slice(0, 30) }) : t("lobby.no_code"));
    input.focus();
    return;
  }
  try {
    await api(`/api/tables/${clean}`);
  } catch (error) {
    input.setAttribute("aria-invalid", "true");
    showAlert(
      error.code === "not_found"
        ? t("lobby.not_found", { code: clean })
        : t("lobby.open_failed", { code: clean, error: error.message }),
    );
    input.focus();
    return;
  }
  input.removeAttribute("aria-invalid");
  location.assign(`/t/${clean}`);
}

function showPresetWords() {
  document.getElementById("preset-words").textContent = presetWords(form.preset.value);
}

async function loadTables() {
  for (const [status, verb] of [
    ["open", "lobby.join_code"],
    ["playing", "lobby.watch_code"],
  ]) {
    try {
      const { tables } = await api(`/api/tables?status=${status}`);
      document.getElementById(`${status}-tables`).replaceChildren(...tables.map((t) => tableItem(t, verb)));
      document.getElementById(`${status}-empty`).hidden = tables.length > 0;
    } catch (error) {
      showAlert(t("lobby.list_failed", { error: error.message }));
    }
  }
}

function seatRow(index) {
  const levels = presets.bot_levels;
  const seat = t("seat.number", { n: num(index + 1) });
  const select = h(
    "select",
    { id: `seat-${index}`, "aria-label": seat },
    h("option", { value: "human" }, t("lobby.person")),
    ...levels.map((level) => h("option", { value: level }, t("lobby.bot_level", { level: t(`level.${level}`) }))),
  );
  if (index === 0) {
    return h("li", {}, h("span", {}, t("lobby.seat_you")));
  }
  select.value = "medium"; // bots: a table of one person starts at once (a friend's seat is one choice away)
  return h("li", {}, h("label", { for: `seat-${index}` }, seat), select);
}

function setSeats(count) {
  const max = presets.limits.max_seats;
  count = Math.max(2, Math.min(max, count));
  while (seatsList.children.length < count) seatsList.append(seatRow(seatsList.children.length));
  while (seatsList.children.length > count) seatsList.lastElementChild.remove();
}

// The values an int option takes when they are not a whole range (the deck: 8, 32 or 52 cards, R1.1).
function numberChoices(spec) {
  return spec.only || null;
}

function optionInput(name, spec, value) {
  const id = `opt-${name}`;
  let input;
  const numbers = spec.kind === "int" ? numberChoices(spec) : null;
  if (spec.kind === "bool") {
    input = h("input", { id, type: "checkbox", "data-option": name });
    input.checked = Boolean(value);
  } else if (numbers) {
    input = h("select", { id, "data-option": name }, ...numbers.map((n) => h("option", { value: n }, num(n))));
    input.value = String(value);
  } else if (spec.kind === "int") {
    input = h("input", {
      id,
      type: "number",
      min: spec.low,
      max: spec.high,
      "data-option": name,
      inputmode: "numeric",
    });
    input.value = value ?? "";
  } else {
    // the value sent stays the option's own word; what is shown reads as words ("one or all")
    input = h(
      "select",
      { id, "data-option": name },
      ...spec.choices.map((choice) => h("option", { value: choice }, optionValue(choice))),
    );
    if (value !== null && value !== undefined) input.value = String(value);
  }
  return h(
    "div",
    { class: "field", "data-mode": spec.mode || null },
    h("label", { for: id }, t("lobby.option_label", { option: optionName(name), rule: spec.rule })),
    input,
    h("small", { class: "muted" }, optionHelp(name, spec)),
  );
}

function showOptions() {
  const base = presets.presets[form.preset.value];
  const box = document.getElementById("options");
  box.replaceChildren(
    ...Object.entries(presets.options)
      .filter(([name]) => name !== "lives")
      .map(([name, spec]) =>
        optionInput(
          name,
          spec,
          base[name] ?? (spec.choices ? spec.choices[0] : spec.kind === "bool" ? false : spec.low),
        ),
      ),
  );
  form.lives.value = base.lives;
  document.getElementById("opt-mode").addEventListener("change", showModeOptions);
  showModeOptions();
}

/** Only the options of the chosen mode are shown (and sent): the others do not apply to it (R8). */
function showModeOptions() {
  const mode = document.getElementById("opt-mode").value;
  for (const field of document.querySelectorAll("#options [data-mode]")) field.hidden = field.dataset.mode !== mode;
}

/** A whole number typed into `input`, checked against the option's range; throws a one-line error naming the field. */
function wholeNumber(input, label, low, high) {
  const text = input.value.trim();
  const number = Number(text);
  if (!/^\d+$/.test(text) || number < low || number > high) {
    input.setAttribute("aria-invalid", "true");
    const values = { label, low: num(low), high: num(high), text: text.slice(0, 20) };
    const error = new Error(text ? t("lobby.not_number", values) : t("lobby.empty_number", values));
    error.input = input;
    throw error;
  }
  input.removeAttribute("aria-invalid");
  return number;
}

function chosenOptions() {
  const base = presets.presets[form.preset.value];
  const options = {};
  for (const input of form.querySelectorAll("[data-option]")) {
    if (input.closest("[hidden]")) continue; // an option of the other mode: not shown, not sent
    const name = input.dataset.option;
    const spec = presets.options[name];
    let value = input.value;
    if (spec.kind === "bool") value = input.checked;
    else if (spec.kind === "int") value = wholeNumber(input, optionName(name), spec.low, spec.high);
    if (value !== base[name]) options[name] = value;
  }
  const lives = wholeNumber(form.lives, t("lobby.lives"), presets.options.lives.low, presets.options.lives.high);
  if (lives !== base.lives) options.lives = lives;
  return options;
}

async function create(event) {
  event.preventDefault();
  const button = document.getElementById("create");
  if (button.disabled) return; // a double click or a second Enter: one table, not two
  const name = form.name.value.trim();
  if (!name) {
    showAlert(t("lobby.no_name"));
    form.name.focus();
    return;
  }
  const seats = [{ type: "human" }];
  for (let i = 1; i < seatsList.children.length; i++) {
    const kind = document.getElementById(`seat-${i}`).value;
    seats.push(kind === "human" ? { type: "human" } : { type: "bot", level: kind });
  }
  let options;
  try {
    options = chosenOptions();
  } catch (error) {
    showAlert(error.message);
    if (error.input.closest("details")) error.input.closest("details").open = true;
    error.input.focus();
    return;
  }
  button.disabled = true;
  try {
    // Create first and join after: this page's seed is sent only once it has seen the table's
    // commitment, so the server cannot have chosen its salts knowing the seed.
    const created = await api("/api/tables", {
      json: { preset: form.preset.value, options, seats, public: form.public.checked, hints: form.hints.checked },
    });
    localStorage.setItem(`thirtyone.host.${created.code}`, created.host_token);
    noteCommitment(created.code, created.table);
    const joined = await api(`/api/tables/${created.code}/join`, { json: { name, seed: clientSeed(created.code) } });
    localStorage.setItem(`thirtyone.token.${created.code}`, joined.token);
    location.assign(`/t/${created.code}`);
  } catch (error) {
    button.disabled = false;
    showAlert(t("lobby.create_failed", { error: error.message }));
  }
}

async function start() {
  try {
    presets = await api("/api/presets");
  } catch (error) {
    showAlert(t("lobby.rules_failed", { error: error.message }));
    return;
  }
  form.preset.replaceChildren(
    ...Object.keys(presets.presets).map((name) => h("option", { value: name }, presetName(name))),
  );
  form.preset.addEventListener("change", () => {
    showOptions();
    showPresetWords();
  });
  showPresetWords();
  document.getElementById("code-form").addEventListener("submit", joinByCode);
  document
    .getElementById("hero")
    .replaceChildren(
      cardElement("Ah", { label: false }),
      cardElement("Kh", { label: false }),
      cardElement("Th", { label: false }),
      h("p", {}, t("lobby.hero")),
    );
  form.lives.max = presets.options.lives.high;
  limitChars(form.name, presets.limits.max_name, t("lobby.no_name"));
  showOptions();
  setSeats(3);
  document.getElementById("add-seat").addEventListener("click", () => setSeats(seatsList.children.length + 1));
  document.getElementById("remove-seat").addEventListener("click", () => setSeats(seatsList.children.length - 1));
  form.addEventListener("submit", create);
  if (!form.name.value) form.name.value = localStorage.getItem("thirtyone.name") || ""; // not over what was typed meanwhile
  form.name.addEventListener("change", () => localStorage.setItem("thirtyone.name", form.name.value.trim()));
  await loadTables();
}

start();
