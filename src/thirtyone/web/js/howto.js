// "How to play this table", in plain words, from the table's rules (every option, R8): what a
// player needs to know to sit down, not the options' names. Each sentence keeps its rule's id in
// a tooltip (a sentence of no rule has none). And one line about each preset for the lobby's form.
// The presets' and options' names, values and help, and a table's rules in a line. In the reader's
// language, from the rules as data (the server's English sentences only where a catalog has none).
import { has, lang, num, t, tn } from "./i18n.js";

const PRESETS = ["scat", "widow", "namu", "schwimmen"];
const PENALTIES = ["scat", "namu", "namu_risky", "widow", "plain"];
const GRACE = { widow: "bus", schwimmen: "schwimmt" };

/** A one-line description of a preset (R8), for the lobby. */
export function presetWords(preset) {
  return PRESETS.includes(preset) ? t(`preset_words.${preset}`) : "";
}

/** The name of a preset (R8) in the reader's language. */
export function presetName(preset) {
  return has(`preset.${preset}`) ? t(`preset.${preset}`) : preset;
}

export function optionName(option) {
  return has(`option.${option}`) ? t(`option.${option}`) : option.replaceAll("_", " ");
}

/** An option's help: the catalog's, or on an English page (or one whose catalog lacks it) the server's. */
export function optionHelp(option, spec) {
  return lang !== "en" && has(`option.${option}.help`) ? t(`option.${option}.help`) : spec.help || "";
}

export function optionValue(value) {
  if (typeof value === "boolean") return value ? t("value.on") : t("value.off");
  if (typeof value === "number") return num(value);
  return has(`value.${value}`) ? t(`value.${value}`) : String(value).replaceAll("_", " ");
}

/** A table's rules in a line, from the server's data: the preset's name, the lives (when the table
 * says them: a table's ``rules``, else a lobby line's ``differs``) and each other option that differs
 * from the preset ("Widow, 2 lives, deck 32"). */
export function describeRules(table) {
  const differs = table.differs || {};
  const lives = table.rules ? table.rules.lives : differs.lives;
  const words = [presetName(table.preset)];
  if (lives !== undefined) words.push(tn("lives.count", lives));
  for (const [option, value] of Object.entries(differs)) {
    if (option !== "lives")
      words.push(t("rules.option_value", { option: optionName(option), value: optionValue(value) }));
  }
  return words.reduce((rules, more) => t("rules.more", { rules, more }));
}

/** The table's rules as short paragraphs: ``[{title, lines: [[sentence, ruleId], ...]}]``, and last where
 * to read how to play well (the strategy guide), the page's keys before it (their sentences have no
 * rule: ``ruleId`` null). */
export function howToPlay(rules, preset) {
  const widow = rules.mode === "widow";
  const sections = [];
  sections.push({
    title: t("howto.aim"),
    lines: [
      [t(rules.deck === 32 ? "howto.deal_32" : "howto.deal_52"), "R1.3"],
      [t("howto.values"), "R1.2"],
      ...(rules.three_of_a_kind !== "off"
        ? [[t("howto.three_kind", { value: rules.three_of_a_kind === "30.5" ? "30½" : "30" }), "R1.4"]]
        : []),
      ...(rules.three_aces ? [[t("howto.three_aces"), "R1.5"]] : []),
      ...(rules.straight_flush ? [[t("howto.straight"), "R1.6"]] : []),
    ],
  });
  const turn = [];
  if (widow) {
    turn.push([t("howto.widow"), "R7.1"]);
    if (rules.exchange === "any") turn.push([t("howto.exchange_any"), "R7.5"]);
    turn.push([t("howto.first_widow"), "R7.2"]);
    if (rules.dealer_hand) turn.push([t("howto.dealer_hand"), "R7.6"]);
    turn.push([t(rules.all_pass === "new_widow" ? "howto.new_widow" : "howto.all_pass_end"), "R7.3"]);
  } else {
    turn.push([t("howto.draw"), "R4.1"]);
    turn.push([t("howto.no_back"), "R4.2"]);
    turn.push([t(rules.stock_exhausted === "showdown" ? "howto.stock_showdown" : "howto.stock_reshuffle"), "R4.3"]);
  }
  if (rules.throw_down) turn.push([t("howto.throw_down"), "R6.6"]);
  sections.push({ title: t("howto.your_turn"), lines: turn });
  const knock = [];
  knock.push([t(widow ? "howto.knock_widow" : "howto.knock_draw"), "R6.1"]);
  if (rules.knock_from_round === 2) knock.push([t("howto.knock_round"), "R6.3"]);
  if (rules.min_knock_value > 0) knock.push([t("howto.knock_value", { value: rules.min_knock_value }), "R6.4"]);
  if (PENALTIES.includes(rules.knock_penalty)) knock.push([t(`howto.penalty.${rules.knock_penalty}`), "R6.5"]);
  knock.push([t("howto.blitz"), "R5.1"]);
  sections.push({ title: t("howto.knocking"), lines: knock });
  const lives = [[tn("howto.start_lives", rules.lives), "R2.2"]];
  lives.push(
    rules.grace_life
      ? [t("howto.grace", { grace: t(`grace.sentence.${GRACE[preset] || "dole"}`) }), "R2.3"]
      : [t("howto.no_grace"), "R2.3"],
  );
  lives.push([t("howto.last_wins"), "R2.5"]);
  sections.push({ title: t("howto.lives"), lines: lives });
  sections.push({ title: t("howto.keys"), lines: [[t(widow ? "howto.keys_widow" : "howto.keys_draw"), null]] });
  sections.push({ title: t("howto.playing_well"), lines: [[t("howto.strategy"), null]] });
  return sections;
}
