"""Events and round results in words, as the person in one seat may see them, in the person's
language.

The log of the terminal game is made of these lines; they are rich :class:`~rich.text.Text`
with red and black suits. Everything here is written from the core's data — events, a loss's
kind, a refusal's code — never from the engine's own English sentences, through the one message
catalog of the terminal game and the page (:mod:`thirtyone.i18n`): :func:`say` fills a message's
``{placeholders}`` with styled text, so cards keep their colours inside any language's sentence.

Hand values are written with :func:`thirtyone.scoring.format_value` (``30½``) and the grace
life in the catalog's words for :attr:`thirtyone.rules.Rules.grace_word` ("on the dole", "on the
bus", "schwimmt").

>>> from thirtyone.rules import Rules
>>> lives_text(1, Rules.preset("widow")), lives_text(1, Rules.preset("scat")), lives_text(3, Rules.preset("namu"))
('on the bus', 'on the dole', '3 lives')
>>> lives_text(3, Rules.preset("namu"), messages("cs")), lives_text(1, Rules.preset("schwimmen"), messages("de"))
('3 životy', 'schwimmt')
>>> from thirtyone.text import refusal
>>> refusal_text(refusal("second_knock", seat=0, seats=(1,)), ("you", "Ada (basic)"))
'R6.1: Ada has already knocked; only one knock per round'
>>> refusal_text(refusal("not_your_turn", seat=0, seats=(1,)), ("you", "Ada (basic)"))
"R2.1: it is Ada's turn"
>>> value_text(0.214), value_text(-0.3), value_text(-0.001), value_text(0.214, messages("de"))
('+0.21', '−0.30', '+0.00', '+0,21')
>>> say(ENGLISH, "acted.discard", who="Ada", card=card_text(Card.parse("9h"))).spans[0].style
'bold red'
"""

from __future__ import annotations

import string
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence

from babel.numbers import format_decimal
from rich.text import Text

from thirtyone import narration
from thirtyone.actions import PILE
from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Keep
from thirtyone.actions import Knock
from thirtyone.actions import Look
from thirtyone.actions import Pass
from thirtyone.actions import TakeWidow
from thirtyone.actions import ThrowDown
from thirtyone.bots.expert import Estimate
from thirtyone.cards import Card
from thirtyone.checks import escaped
from thirtyone.events import Event
from thirtyone.events import RoundEnded
from thirtyone.events import RoundResult
from thirtyone.i18n import Messages
from thirtyone.i18n import messages
from thirtyone.narration import Cards
from thirtyone.narration import Phrase
from thirtyone.narration import Points
from thirtyone.narration import Seats
from thirtyone.refusals import IllegalActionError
from thirtyone.rules import Rules
from thirtyone.scoring import format_value
from thirtyone.settlement import Loss
from thirtyone.views import PlayerView

__all__ = [
    "ENGLISH",
    "say",
    "say_plural",
    "grace_key",
    "lives_text",
    "card_text",
    "cards_text",
    "short_name",
    "refusal_text",
    "phrase_text",
    "error_words",
    "move_words",
    "value_text",
    "hint_text",
    "HINT_TOP",
    "Narrator",
]

ENGLISH = messages("en")
"""The messages a function uses when it is given none."""

RED = "bold red"
"""Style of hearts and diamonds in the log."""
BLACK = "bold"
"""Style of clubs and spades in the log (the terminal's own text colour, readable on any theme)."""


def say(t: Messages, key: str, style: str = "", **values: str | Text) -> Text:
    """The message ``key`` of ``t`` as rich text, its ``{placeholders}`` filled with ``values``:
    a :class:`~rich.text.Text` value keeps its own styles (red and black cards), a string takes
    ``style``, the style of the whole line."""
    return _fill(t.template(key), style, values)


def say_plural(t: Messages, key: str, count: int, style: str = "", **values: str | Text) -> Text:
    """The form of the plural message ``key`` for ``count`` (written as ``{count}``), as :func:`say`."""
    return _fill(t.template(key, count), style, {"count": t.number(count), **values})


def _fill(template: str, style: str, values: Mapping[str, str | Text]) -> Text:
    text = Text(style=style)
    for literal, field, _, _ in string.Formatter().parse(template):
        text.append(literal)
        if field:
            value = values[field]
            if isinstance(value, Text):
                text.append_text(value)
            else:
                text.append(str(value))
    return text


_GRACE_KEYS = {"on the dole": "dole", "on the bus": "bus", "schwimmt": "schwimmt"}


def grace_key(rules: Rules) -> str:
    """Which grace life the rules have (R2.3): ``dole``, ``bus`` or ``schwimmt`` (the catalog's
    ``grace.*`` and ``tui.state.*`` keys)."""
    return _GRACE_KEYS[rules.grace_word]


def grace_text(rules: Rules, t: Messages = ENGLISH) -> str:
    """What a player on the grace life is called, as a label: ``on the dole``, ``schwimmt``."""
    return t({"dole": "grace.dole", "bus": "grace.bus", "schwimmt": "grace.schwimmt"}[grace_key(rules)])


def _state(rules: Rules, t: Messages) -> str:
    """The grace life inside a sentence ("Ada was {state} and is out")."""
    return t({"dole": "tui.state.dole", "bus": "tui.state.bus", "schwimmt": "tui.state.schwimmt"}[grace_key(rules)])


def lives_text(remaining: int, rules: Rules, t: Messages = ENGLISH) -> str:
    """A seat's lives in words from its remaining losses (R2.4): ``3 lives``, ``1 life``, the
    grace label when only the grace is left, ``out`` at 0."""
    if remaining <= 0:
        return t("lives.out")
    grace = 1 if rules.grace_life else 0
    if grace and remaining == 1:
        return grace_text(rules, t)
    return t.plural("lives.count", remaining - grace)


def card_text(card: Card) -> Text:
    """One card with its suit symbol, red or black: ``A♠``, ``10♦``."""
    return Text(card.pretty, style=RED if card.is_red else BLACK)


def cards_text(cards: Sequence[Card]) -> Text:
    """Cards separated by spaces, each red or black."""
    return Text(" ").join(card_text(card) for card in cards)


def phrase_text(t: Messages, phrase: Phrase, seats: Callable[[Sequence[int]], str], style: str = "") -> Text:
    """A phrase (:mod:`thirtyone.narration`) as rich text in the language of ``t``: seats as
    ``seats`` names them, cards red and black, hand values as
    :func:`~thirtyone.scoring.format_value` writes them (``30½``), numbers the language's way, a
    clause said in turn; ``style`` as :func:`say`."""
    values: dict[str, str | Text] = {}
    for name, value in phrase.values.items():
        if isinstance(value, Seats):
            values[name] = seats(value.seats)
        elif isinstance(value, Cards):
            values[name] = cards_text(value.cards)
        elif isinstance(value, Points):
            values[name] = format_value(value.value)
        elif isinstance(value, Phrase):
            values[name] = phrase_text(t, value, seats)
        elif isinstance(value, int):
            values[name] = t.number(value)
        else:
            values[name] = value
    if phrase.count is not None:
        return say_plural(t, phrase.key, phrase.count, style, **values)
    return say(t, phrase.key, style, **values)


def refusal_text(error: IllegalActionError, names: Sequence[str], t: Messages = ENGLISH) -> str:
    """A refused move in words (:func:`thirtyone.narration.refusal`), seats by the short form of
    ``names``, the rule id first: ``R4.2: you cannot discard 9♥, just taken …``."""

    def named(seats: Sequence[int]) -> str:
        return t.list([short_name(names[seat]) for seat in seats if seat < len(names)])

    return t("refusal.line", rule=error.rule, text=phrase_text(t, narration.refusal(error), named).plain)


def error_words(error: Exception, names: Sequence[str], t: Messages = ENGLISH) -> str:
    """An error in words for the person in seat 0: a refusal from its data, with the players'
    names (:func:`refusal_text`: ``R6.1: Ada has already knocked; …``); any other error its own
    message, :func:`~thirtyone.checks.escaped` (a plugin's words may hold anything)."""
    if isinstance(error, IllegalActionError):
        return refusal_text(error, names, t)
    return escaped(str(error))


HINT_TOP = 5
"""The most moves a hint lists by name; the rest are counted."""


def move_words(action: Action, view: PlayerView, t: Messages = ENGLISH) -> Text:
    """One of the person's moves in words, cards with their suits: ``Draw from the stock``,
    ``Take 9♥ from the pile``, ``Discard 7♣``, ``Exchange 2♦ for A♠``, ``Knock``."""
    if isinstance(action, Draw):
        if action.source == PILE and view.discard_top is not None:
            return say(t, "move.take_pile", card=card_text(view.discard_top))
        return say(t, "move.draw_pile" if action.source == PILE else "move.draw_stock")
    if isinstance(action, Discard):
        return say(t, "move.discard", card=card_text(action.card))
    if isinstance(action, Knock):
        return say(t, "move.knock")
    if isinstance(action, Exchange):
        return say(t, "move.exchange", give=cards_text(action.give), take=cards_text(action.take))
    if isinstance(action, ExchangeAll):
        return say(t, "move.take_widow_unseen" if view.widow is None else "move.exchange_all")
    if isinstance(action, Pass):
        return say(t, "move.pass")
    if isinstance(action, Keep):
        return say(t, "move.keep")
    if isinstance(action, TakeWidow):
        return say(t, "move.take_other")
    if isinstance(action, Look):
        return say(t, "move.look")
    if isinstance(action, ThrowDown):
        return say(t, "move.throw")
    return Text(str(action))  # pragma: no cover - every action kind is handled above


def value_text(mean: float, t: Messages = ENGLISH) -> str:
    """An estimated value in lives with its sign and two decimals, as the language writes
    decimals: ``+0.21``, ``−0.30`` (``+0,21`` in German)."""
    shown = str(format_decimal(abs(mean), format="0.00", locale=t.lang))
    negative = mean < 0 and shown.strip("0.,٫") != ""
    return ("−" if negative else "+") + shown


def hint_text(
    estimates: Sequence[Estimate],
    view: PlayerView,
    *,
    reads: Sequence[tuple[int, str, float]] = (),
    names: Sequence[str] = (),
    top: int = HINT_TOP,
    width: int = 78,
    t: Messages = ENGLISH,
) -> Text:
    """The expert's answer: its choice, then the other moves best first, each with its estimated
    value (at most ``top`` named, the rest counted; a knock and a pass are always named, as the
    moves at hand whatever they score), in lines of at most ``width`` cells that never break a
    move; then what it believes of the opponents (``reads``, as
    :func:`~thirtyone.bots.work.told_reads` gives them, named from ``names`` by seat)::

        Hint: Take 9♥ from the pile +0.21 · Draw from the stock +0.05 · Knock −0.30
        The expert reads: Ben probably collects hearts (72%).
    """
    named = _named(estimates, top)
    pieces: list[Text] = []
    for i, estimate in enumerate(named):
        words = move_words(estimate.action, view, t)
        if i == 0:
            words.style = "bold green"  # the base style: the cards keep their colours
        value = Text(value_text(estimate.mean, t), style="bold" if i == 0 else "")
        pieces.append(say(t, "hint.move", move=words, value=value))
    rest = len(estimates) - len(named)
    if rest > 0:
        pieces.append(say_plural(t, "hint.more", rest, style="dim"))
    text = _pieces_in_lines(t.template("hint.plain"), "{moves}", pieces, width)
    if reads:
        told = [_read_words(t, short_name(names[seat]), suit, chance) for seat, suit, chance in reads]
        said = _pieces_in_lines(t.template("hint.reads"), "{reads}", told, width)
        said.stylize("italic")
        text.append("\n").append_text(said)
    return text


def _named(estimates: Sequence[Estimate], top: int) -> list[Estimate]:
    """The moves a hint names, in the order of ``estimates``: the expert's (the first), a knock and
    a pass, then the best of the others, ``top`` in all (more when the knock and the pass need the
    room)."""
    always = {i for i, estimate in enumerate(estimates) if i == 0 or isinstance(estimate.action, Knock | Pass)}
    others = [i for i in range(len(estimates)) if i not in always]
    return [estimates[i] for i in sorted(always.union(others[: max(top - len(always), 0)]))]


READ_LIKELY = 0.9
"""From this share of the expert's deals on, a read is said "very likely" rather than "probably"."""


def _read_words(t: Messages, who: str, suit: str, chance: float) -> Text:
    """What the expert believes of one opponent: "probably (72%)", from :data:`READ_LIKELY` on
    "very likely (97%)"; a share of its imagined deals, never a certainty, so one that shows as
    100% is said in words alone (as the page says it), "very likely"."""
    words = {"who": who, "suit": t(f"suit.{suit}"), "chance": t.percent(chance)}
    if words["chance"] == t.percent(1):
        return Text(t("hint.read_sure", **words))
    return Text(t("hint.read_likely" if chance >= READ_LIKELY else "hint.read", **words))


def _pieces_in_lines(template: str, slot: str, pieces: Sequence[Text], width: int) -> Text:
    """``template`` with ``pieces`` joined by `` · `` in its ``slot``, in lines of at most
    ``width`` cells that never break a piece and never lose a separator (the words before the slot
    in bold)."""
    head, _, tail = template.partition(slot)
    text = Text().append(head, style="bold")
    column = text.cell_len
    for i, piece in enumerate(pieces):
        if i and column + 3 + piece.cell_len > width:  # the separator ends the line, or starts the next
            text.append(" ·\n" if column + 2 <= width else "\n· ")
            column = 0 if column + 2 <= width else 2
        elif i:
            text.append(" · ")
            column += 3
        text.append_text(piece)
        column += piece.cell_len
    return text.append(tail)


def short_name(name: str) -> str:
    """A seat name without the bot level: ``"Ada (basic)"`` → ``"Ada"``."""
    return name.split(" (", 1)[0]


_STYLES: Mapping[str, str] = {
    **dict.fromkeys(("acted.knock", "acted.knock_you", "acted.throw", "acted.throw_you"), "bold magenta"),
    **dict.fromkeys(("event.dealt_upcard", "event.dealt_second_hand", "event.dealt_widow_down"), "bold cyan"),
    **dict.fromkeys(("over.winner", "over.winner_you"), "bold green"),
}
"""The style of a log line by its phrase's key: the moves that change the round for everyone, a
new deal and the game's end stand out."""


class Narrator:
    """Turns events into log lines for the person in seat ``viewer``, in the language of ``t``.

    ``names`` are the seats' names (``"you"``, ``"Ada (basic)"``, …); the log uses the short
    form (``Ada``) and ``You`` for the viewer when they kept the default name (the catalog's
    ``tui.you``). The narrator follows the lives of every seat through the results it is shown,
    to say who has just gone onto the grace life or out.
    """

    def __init__(self, names: Sequence[str], rules: Rules, viewer: int = 0, t: Messages = ENGLISH) -> None:
        self.names = tuple(names)
        self.rules = rules
        self.viewer = viewer
        self.t = t
        self.remaining = [rules.lives + (1 if rules.grace_life else 0)] * len(self.names)

    def who(self, seat: int, *, start: bool = True) -> str:
        """The short name of a seat (``Ada``); the viewer with the default name is ``You`` at the
        start of a sentence and ``you`` elsewhere (the catalog's ``seat.you`` and ``tui.you``)."""
        name = short_name(self.names[seat])
        if self._is_you(seat):
            return self.t("seat.you") if start else self.t("tui.you")
        return name

    def _is_you(self, seat: int) -> bool:
        name = short_name(self.names[seat]).lower()
        return seat == self.viewer and name in (self.t("tui.you").lower(), "you")

    def _you(self) -> int | None:
        """The seat the narrator addresses as "you" (:mod:`thirtyone.narration`'s ``you``): the
        viewer, when they kept the default name."""
        return self.viewer if self._is_you(self.viewer) else None

    def say(self, phrase: Phrase, style: str = "", *, start: bool = True) -> Text:
        """A phrase as a styled line (:func:`phrase_text`), seats by their short names
        (:meth:`names_of`; ``start``: the first name begins the sentence)."""
        return phrase_text(self.t, phrase, lambda seats: self.names_of(seats, start=start), style)

    def why(self, loss: Loss, result: RoundResult) -> str:
        """Why ``loss`` was charged, in a player's words (:func:`thirtyone.narration.loss`):
        ``Ada showed 31``, ``lowest hand``."""
        return self.say(narration.loss(loss, result, self._you()), start=False).plain

    def describe(self, event: Event) -> list[Text]:
        """The log lines of one event (as the viewer may see it; pass ``event.for_seat(viewer)``),
        the narrator's phrases (:func:`thirtyone.narration.event`) styled: ``Bea drew from the
        stock``, ``Bea took 9♥ from the discard pile``, the cards a move turned face up in a clause
        or a line of their own; a round's end as its headline and losses (:meth:`result_lines`)."""
        if isinstance(event, RoundEnded):
            return self.result_lines(event.result)
        return [
            self.say(phrase, _STYLES.get(phrase.key, "")) for phrase in narration.event(event, self.rules, self._you())
        ]

    def headline(self, result: RoundResult) -> Text:
        """How a round ended, in one line (:func:`thirtyone.narration.headline`; R5, R6, R7.3)."""
        return self.say(narration.headline(result, self._you()), "bold yellow")

    def loss_lines(self, result: RoundResult) -> list[Text]:
        """Who lost how many lives under which rule, who went onto the grace life or out, and the
        R2.6 note, one line for each group of seats that fared alike; updates the lives the
        narrator follows. A seat that had only its last loss left (the grace life, or the last
        life without one) does not "lose 1 life": it is out (or, saved by R2.6, would have been)."""
        t = self.t
        lines: list[Text] = []
        state = _state(self.rules, t)
        grace = self.rules.grace_life
        groups: dict[tuple[str, int, str, str], list[int]] = {}
        for loss in result.losses:
            last = self.remaining[loss.seat] == 1
            kind = ("out" if loss.seat in result.eliminated else "saved") if last else "lost"
            groups.setdefault((kind, 0 if last else loss.lives, loss.rule, self.why(loss, result)), []).append(
                loss.seat
            )
        said_out: set[int] = set()
        for (kind, lives, rule, reason), seats in groups.items():
            who, many = self.names_of(seats), self._many(seats)
            values = {"who": who, "why": reason, "rule": rule, "state": state}
            if kind == "lost":
                lines.append(say_plural(t, "tui.loss.lost", lives, **values))
                continue
            if kind == "out":
                said_out.update(seats)
                if grace:
                    key = "tui.loss.out_many" if many else "tui.loss.out_one"
                else:
                    key = "tui.loss.out_last_many" if many else "tui.loss.out_last_one"
                lines.append(say(t, key, "bold red", **values))
            else:  # R2.6 keeps everyone in
                key = ("tui.loss.saved_many" if many else "tui.loss.saved_one") if grace else "tui.loss.saved_last"
                lines.append(say(t, key, **values))
        if not result.losses:
            lines.append(say(t, "tui.loss.nobody"))
        changed = [
            seat
            for seat, after in enumerate(result.remaining)
            if self.remaining[seat] > 0 and after != self.remaining[seat]
        ]
        out = [seat for seat in changed if seat in result.eliminated and seat not in said_out]
        if out:
            key = "tui.out_many" if self._many(out) else "tui.out_one"
            lines.append(say(t, key, "bold red", who=self.names_of(out)))
        on_grace = [seat for seat in changed if grace and result.remaining[seat] == 1 and self.remaining[seat] > 1]
        if on_grace:
            key = "tui.grace_now_many" if self._many(on_grace) else "tui.grace_now_one"
            lines.append(say(t, key, "yellow", who=self.names_of(on_grace), state=state))
        if result.saved_by_r2_6:
            lines.append(say(t, "tui.r2_6", "yellow"))
        self.remaining = list(result.remaining)
        return lines

    def names_of(self, seats: Sequence[int], *, start: bool = True) -> str:
        """Seats' short names as a list, the language's way: ``You``, ``Ada and Bea``, ``You,
        Ada, and Bea`` (``you`` when not at the ``start`` of a sentence)."""
        return self.t.list([self.who(seat, start=start and i == 0) for i, seat in enumerate(seats)])

    def _many(self, seats: Sequence[int]) -> bool:
        """True when English says "are" of these seats: more than one, or the viewer."""
        return len(seats) != 1 or self._is_you(seats[0])

    def result_lines(self, result: RoundResult) -> list[Text]:
        """The headline and the losses of a round (see :meth:`headline`, :meth:`loss_lines`)."""
        return [self.headline(result), *self.loss_lines(result)]
