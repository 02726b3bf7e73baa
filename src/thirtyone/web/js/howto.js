// "How to play this table", in plain words, from the table's rules (every option, R8): what a
// player needs to know to sit down, not the options' names. Each sentence keeps its rule's id in
// a tooltip. And one line about each preset for the lobby's form.

/** A one-line description of each preset (R8), for the lobby. */
export const PRESET_WORDS = {
  scat: "The classic game: draw from the stock or take the face-up card, then discard one. "
    + "Knock when you think you are ahead; 31 wins at once. 52 cards, and a last life \"on the dole\".",
  widow: "No stock to draw from: swap with three cards face up in the middle (the widow), pass or knock. "
    + "A knocker caught with the lowest hand pays two lives. Your last life is \"on the bus\".",
  namu: "Scat as it is often played at home: a knocker tied for the lowest hand is saved, "
    + "and there is no extra life: at zero you are out.",
  schwimmen: "The German favourite: 32 cards (7 to ace), swap with the middle, three of a kind is 30½ "
    + "and three aces (Feuer) beat 31. The dealer picks one of two hands; nobody knocks in the first "
    + "round of turns. On your last life you \"schwimmst\".",
};

const GRACE = { widow: "on the bus", schwimmen: "schwimmen" };

function lifeWord(count) {
  return `${count} ${count === 1 ? "life" : "lives"}`;
}

/** The table's rules as short paragraphs: ``[{title, lines: [[sentence, ruleId], ...]}]``. */
export function howToPlay(rules, preset) {
  const grace = GRACE[preset] || "on the dole";
  const widow = rules.mode === "widow";
  const sections = [];
  const deck = rules.deck === 32 ? "a 32-card deck (7 to ace)" : "a full 52-card deck";
  sections.push({
    title: "The aim",
    lines: [
      [`Everyone gets three cards from ${deck}. Collect cards of one suit: your hand is worth its best suit's total.`, "R1.3"],
      ["Aces count 11, kings, queens and jacks 10, the other cards their number. 31 is the best hand.", "R1.2"],
      ...(rules.three_of_a_kind !== "off"
        ? [[`Three cards of the same rank are worth ${rules.three_of_a_kind === "30.5" ? "30½" : "30"}.`, "R1.4"]] : []),
      ...(rules.three_aces ? [["Three aces (Feuer) are worth 33: they beat a 31 and win at once.", "R1.5"]] : []),
      ...(rules.straight_flush ? [["Three suited cards in a row are worth 30 (ace, king, queen: 31).", "R1.6"]] : []),
    ],
  });
  const turn = [];
  if (widow) {
    turn.push(["Three cards lie face up in the middle (the widow). On your turn, swap one of your cards for one of them, swap all three, or pass.", "R7.1"]);
    if (rules.exchange === "any") turn.push(["You may swap any number of cards at once.", "R7.5"]);
    turn.push(["The first player may take the face-down widow for their whole hand, or pass or knock; then it is turned face up.", "R7.2"]);
    if (rules.dealer_hand) turn.push(["The dealer gets two hands, looks at one, and keeps it or takes the other unseen; the hand left over becomes the widow.", "R7.6"]);
    turn.push([rules.all_pass === "new_widow"
      ? "If everyone passes in a row, the widow is put aside and three new cards are laid out."
      : "If everyone passes in a row, the round ends and the hands are compared.", "R7.3"]);
  } else {
    turn.push(["On your turn, take the top card of the stock or the face-up card on the discard pile, then discard one card.", "R4.1"]);
    turn.push(["A card you took from the pile cannot go straight back on it.", "R4.2"]);
    turn.push([rules.stock_exhausted === "showdown"
      ? "When the stock runs out, the round ends and the hands are compared."
      : "When the stock runs out, the discard pile is shuffled into a new stock.", "R4.3"]);
  }
  if (rules.throw_down) turn.push(["Before anyone plays, each of you either looks at their cards or throws down unseen: the first throw-down ends the round at once.", "R6.6"]);
  sections.push({ title: "Your turn", lines: turn });
  const knock = [];
  knock.push([`Instead of ${widow ? "swapping" : "drawing"}, you may knock when you think your hand is good enough: everyone else gets one last turn, then all hands are shown.`, "R6.1"]);
  if (rules.knock_from_round === 2) knock.push(["Nobody may knock until everyone has had a turn.", "R6.3"]);
  if (rules.min_knock_value > 0) knock.push([`You need at least ${rules.min_knock_value} points to knock.`, "R6.4"]);
  const penalty = {
    scat: "The lowest hand loses a life. A knocker who has the lowest hand alone loses two; a knocker tied for the lowest is saved.",
    namu: "The lowest hands lose a life each; a knocker tied for the lowest is saved.",
    namu_risky: "The lowest hands lose a life each; a knocker tied for the lowest is saved, but a knocker without the best hand loses two.",
    widow: "The lowest hand loses a life; a knocker among the lowest loses two.",
    plain: "The lowest hands lose a life each, the knocker like anyone else.",
  }[rules.knock_penalty];
  knock.push([penalty, "R6.5"]);
  knock.push(["Whoever holds 31 shows it at once: the round ends and everyone else loses a life.", "R5.1"]);
  sections.push({ title: "Knocking and the showdown", lines: knock });
  const lives = [[`Everyone starts with ${lifeWord(rules.lives)} (pennies in the kitty).`, "R2.2"]];
  lives.push(rules.grace_life
    ? [`After your last life you are "${grace}": one more loss and you are out.`, "R2.3"]
    : ["When your last life is gone you are out.", "R2.3"]);
  lives.push(["The last player left wins the game.", "R2.5"]);
  sections.push({ title: "Lives", lines: lives });
  return sections;
}
