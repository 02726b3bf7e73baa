"""Events and round results in words, as the person in one seat may see them.

The log of the terminal game is made of these lines; they are rich :class:`~rich.text.Text`
with red and black suits. Everything here is written from the core's data — events, a loss's
kind, a refusal's code — never from the engine's own English sentences.

Hand values are written with :func:`thirtyone.scoring.format_value` (``30½``) and the grace
life with :attr:`thirtyone.rules.Rules.grace_word` ("on the dole", "on the bus", "schwimmt").

>>> from thirtyone.rules import Rules
>>> lives_text(1, Rules.preset("widow")), lives_text(1, Rules.preset("scat")), lives_text(3, Rules.preset("namu"))
('on the bus', 'on the dole', '3 lives')
>>> from thirtyone.text import refusal
>>> refusal_text(refusal("second_knock", seat=0, seats=(1,)), ("you", "Ada (basic)"))
'R6.1: Ada has already knocked; only one knock per round'
>>> refusal_text(refusal("not_your_turn", seat=0, seats=(1,)), ("you", "Ada (basic)"))
"R2.1: it is Ada's turn"
>>> value_text(0.214), value_text(-0.3), value_text(-0.001)
('+0.21', '−0.30', '+0.00')
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from thirtyone.actions import (
    PILE,
    Action,
    Discard,
    Draw,
    Exchange,
    ExchangeAll,
    Keep,
    Knock,
    Look,
    Pass,
    TakeWidow,
    ThrowDown,
)
from thirtyone.bots.expert import Estimate
from thirtyone.cards import Card
from thirtyone.errors import IllegalActionError
from thirtyone.events import Acted, Event, GameOver, NewWidow, Reshuffled, RoundEnded, RoundResult, RoundStarted
from thirtyone.rules import Rules
from thirtyone.scoring import format_value
from thirtyone.settlement import Loss
from thirtyone.views import PlayerView

__all__ = [
    "lives_text",
    "card_text",
    "cards_text",
    "short_name",
    "refusal_text",
    "move_words",
    "value_text",
    "hint_text",
    "HINT_LEGEND",
    "HINT_TOP",
    "Narrator",
]

RED = "bold red"
"""Style of hearts and diamonds in the log."""
BLACK = "bold"
"""Style of clubs and spades in the log (the terminal's own text colour, readable on any theme)."""


def lives_text(remaining: int, rules: Rules) -> str:
    """A seat's lives in words from its remaining losses (R2.4): ``3 lives``, ``1 life``, the
    grace label when only the grace is left, ``out`` at 0."""
    if remaining <= 0:
        return "out"
    grace = 1 if rules.grace_life else 0
    if grace and remaining == 1:
        return rules.grace_word
    lives = remaining - grace
    return f"{lives} {'life' if lives == 1 else 'lives'}"


def card_text(card: Card) -> Text:
    """One card with its suit symbol, red or black: ``A♠``, ``10♦``."""
    return Text(card.pretty, style=RED if card.is_red else BLACK)


def cards_text(cards: Sequence[Card]) -> Text:
    """Cards separated by spaces, each red or black."""
    return Text(" ").join(card_text(card) for card in cards)


_REFUSALS: dict[str, str] = {
    "game_over": "the game is over",
    "not_your_turn": "it is {to_move}'s turn",
    "not_blind_phase": "{action} belongs to the blind phase, before anyone plays",
    "must_look": "look at your cards or throw down first",
    "not_dealer_choice": "{action} is the dealer's choice after the deal",
    "must_choose_hand": "the dealer first keeps this hand or takes the other one unseen",
    "must_discard": "you hold four cards: discard one to end your turn",
    "discard_not_in_hand": "{card} is not in your hand",
    "discard_taken_card": "you cannot discard {card}, just taken from the discard pile; discard another",
    "draw_first": "draw a card before you discard",
    "draw_or_knock": "draw a card or knock",
    "pile_empty": "the discard pile is empty: draw from the stock",
    "stock_empty": "the stock is empty and there is nothing to reshuffle: take the pile's card",
    "widow_turn": "exchange with the widow, pass or knock",
    "widow_face_down": "the widow is face down: take all of it, pass or knock",
    "exchange_two_needs_any": "exchange one card or all three",
    "exchange_not_in_hand": "{card} is not in your hand",
    "exchange_not_in_widow": "{card} is not in the widow",
    "second_knock": "{knocker} has already knocked; only one knock per round",
    "knock_too_early": "you may knock only after every player has had a turn: no knock in the first round of turns",
    "knock_too_low": "knocking needs a hand worth at least {need}; yours is {value}",
}


def refusal_text(error: IllegalActionError, names: Sequence[str], viewer: int = 0) -> str:
    """A refused move in words for the person in seat ``viewer``, from the refusal's data (its
    code, cards and seats), the rule id first: ``R4.2: you cannot discard 9♥, just taken …``."""
    seats = error.seats
    who = short_name(names[seats[0]]) if seats and seats[0] < len(names) else ""
    if seats and seats[0] == viewer and who.lower() == "you":
        who = "you"
    words = _REFUSALS[error.code].format(
        to_move=who,
        knocker=who,
        card=error.cards[0].pretty if error.cards else "",
        action=error.action if error.action is not None else "",
        need=format_value(error.values[0]) if error.values else "",
        value=format_value(error.values[1]) if len(error.values) > 1 else "",
    )
    return f"{error.rule}: {words}"


HINT_TOP = 5
"""The most moves a hint lists by name; the rest are counted."""

HINT_LEGEND = "value = lives the others lose minus lives you lose this round, on average"
"""What the numbers of a hint mean (the expert's utility, :class:`~thirtyone.bots.expert.Estimate`)."""


def move_words(action: Action, view: PlayerView) -> Text:
    """One of the person's moves in words, cards with their suits: ``draw from the stock``,
    ``take 9♥ from the pile``, ``discard 7♣``, ``exchange 2♦ for A♠``, ``knock``."""
    if isinstance(action, Draw):
        if action.source == PILE and view.discard_top is not None:
            return Text("take ").append_text(card_text(view.discard_top)).append(" from the pile")
        return Text("draw from the pile" if action.source == PILE else "draw from the stock")
    if isinstance(action, Discard):
        return Text("discard ").append_text(card_text(action.card))
    if isinstance(action, Knock):
        return Text("knock")
    if isinstance(action, Exchange):
        give, take = cards_text(action.give), cards_text(action.take)
        return Text("exchange ").append_text(give).append(" for ").append_text(take)
    if isinstance(action, ExchangeAll):
        return Text("take the widow unseen" if view.widow is None else "exchange all three")
    if isinstance(action, Pass):
        return Text("pass")
    if isinstance(action, Keep):
        return Text("keep your hand")
    if isinstance(action, TakeWidow):
        return Text("take the other hand unseen")
    if isinstance(action, Look):
        return Text("look at your cards")
    if isinstance(action, ThrowDown):
        return Text("throw down unseen")
    return Text(str(action))  # pragma: no cover - every action kind is handled above


def value_text(mean: float) -> str:
    """An estimated value in lives with its sign and two decimals: ``+0.21``, ``−0.30``."""
    text = f"{mean:+.2f}"
    if text == "-0.00":
        return "+0.00"
    return text.replace("-", "−")


def hint_text(estimates: Sequence[Estimate], view: PlayerView, *, top: int = HINT_TOP, width: int = 78) -> Text:
    """The expert's answer: its choice, then the other moves, each with its estimated value (best
    first; at most ``top`` named, the rest counted), in lines of at most ``width`` cells that never
    break a move::

        Hint: take 9♥ from the pile +0.21 · draw from the stock +0.05 · knock −0.30
    """
    pieces: list[Text] = []
    for i, estimate in enumerate(estimates[:top]):
        words = move_words(estimate.action, view)
        if i == 0:
            words.style = "bold green"  # the base style: the cards keep their colours
        pieces.append(words.append(" ").append(value_text(estimate.mean), style="bold" if i == 0 else ""))
    rest = len(estimates) - top
    if rest > 0:
        pieces.append(Text(f"{rest} more move{'s' if rest != 1 else ''}", style="dim"))
    text = Text().append("Hint: ", style="bold")
    column = text.cell_len
    for i, piece in enumerate(pieces):
        if i and column + 3 + piece.cell_len > width:
            text.append(" ·\n" if column + 2 <= width else "\n")
            column = 0
        elif i:
            text.append(" · ")
            column += 3
        text.append_text(piece)
        column += piece.cell_len
    return text


def short_name(name: str) -> str:
    """A seat name without the bot level: ``"Ada (basic)"`` → ``"Ada"``."""
    return name.split(" (", 1)[0]


class Narrator:
    """Turns events into log lines for the person in seat ``viewer``.

    ``names`` are the seats' names (``"you"``, ``"Ada (basic)"``, …); the log uses the short
    form (``Ada``) and ``You`` for a viewer called "you". The narrator follows the lives of every
    seat through the results it is shown, to say who has just gone onto the grace life or out.
    """

    def __init__(self, names: Sequence[str], rules: Rules, viewer: int = 0) -> None:
        self.names = tuple(names)
        self.rules = rules
        self.viewer = viewer
        self.remaining = [rules.lives + (1 if rules.grace_life else 0)] * len(self.names)

    def who(self, seat: int, *, start: bool = True) -> str:
        """The short name of a seat (``Ada``); the viewer called "you" is ``You`` at the start of
        a sentence and ``you`` elsewhere."""
        name = short_name(self.names[seat])
        if seat == self.viewer and name.lower() == "you":
            return "You" if start else "you"
        return name

    def _is_you(self, seat: int) -> bool:
        return self.who(seat) == "You"

    def why(self, loss: Loss, result: RoundResult) -> str:
        """Why ``loss`` was charged, in a player's words: ``Ada showed 31``, ``lowest hand``."""
        named = self.names_of(loss.seats, start=False) if loss.seats else ""
        shown = result.values[loss.seats[0]] if loss.seats else None
        what = "three aces (33)" if shown == 33 else "31"
        knocked = "threw down" if result.end == "throw_down" else "knocked"
        return {
            "blitz": f"{named} showed {what}",
            "blitz_after_knock": f"{named} showed {what} after the knock",
            "dealt_blitz": f"{named} got {what} in the deal",
            "dealt_blitz_beaten": f"{named} got {what} in the deal",
            "lowest": "lowest hand",
            "knocker_alone_lowest": f"{knocked} and alone had the lowest hand",
            "lowest_knocker_saved": f"lowest hand; {named} ({knocked}) tied and {self._be(loss.seats)} saved",
            "knocker_among_lowest": f"{knocked} and held the lowest hand",
            "knocker_not_highest": f"{knocked} without the highest hand",
            "lowest_all_passed": "lowest hand after everyone passed",
            "lowest_turn_limit": "lowest hand at the turn limit",
            "lowest_stock_out": "lowest hand when the stock ran out",
        }[loss.kind]

    def describe(self, event: Event) -> list[Text]:
        """The log lines of one event (as the viewer may see it; pass ``event.for_seat(viewer)``)."""
        if isinstance(event, Acted):
            return self.acted(event)
        if isinstance(event, RoundStarted):
            line = Text(f"Round {event.round}: {self.who(event.dealer)} dealt.", style="bold cyan")
            if event.upcard is not None:
                line.append(" Turned up: ").append_text(card_text(event.upcard))
            elif self.rules.dealer_hand:
                line.append(" The dealer has a second hand.")
            else:
                line.append(" The widow lies face down.")
            return [line]
        if isinstance(event, Reshuffled):
            return [Text(f"The discard pile was shuffled into a new stock of {event.stock_size} cards.")]
        if isinstance(event, NewWidow):
            line = Text("Everyone passed: the widow is set aside; the new widow is ")
            return [line.append_text(cards_text(event.widow)).append(".")]
        if isinstance(event, RoundEnded):
            return self.result_lines(event.result)
        if isinstance(event, GameOver):
            verb = "win" if self._is_you(event.winner) else "wins"
            return [Text(f"{self.who(event.winner)} {verb} the game!", style="bold green")]
        return []  # pragma: no cover - every event kind is handled above

    def acted(self, event: Acted) -> list[Text]:
        """One action in words: ``Bea drew from the stock``, ``Bea took 9♥ from the discard pile``;
        the cards it turned face up (``event.revealed``) in a clause or a second line."""
        widow = event.revealed
        line = self._acted(event, widow)
        action = event.action
        if widow and isinstance(action, (Pass, Knock)):  # R7.2: the opener's pass or knock
            turned = Text("The widow is turned face up: ").append_text(cards_text(widow)).append(".")
            return [line, turned]
        return [line]

    def _acted(self, event: Acted, widow: Sequence[Card]) -> Text:
        who = self.who(event.seat)
        action = event.action
        got = event.received
        line = Text(f"{who} ")
        if isinstance(action, Draw):
            if action.source == PILE and got:
                return line.append("took ").append_text(cards_text(got)).append(" from the discard pile")
            if got:
                return line.append("drew ").append_text(cards_text(got)).append(" from the stock")
            return line.append("drew from the stock")
        if isinstance(action, Discard):
            return line.append("discarded ").append_text(card_text(action.card))
        if isinstance(action, Knock):
            return line.append("knocked!", style="bold magenta")
        if isinstance(action, Exchange):
            line.append("exchanged ").append_text(cards_text(action.give))
            return line.append(" for ").append_text(cards_text(action.take)).append(" from the widow")
        if isinstance(action, ExchangeAll):
            if event.private:
                line.append("took the face-down widow")
                if got:
                    line.append(" (").append_text(cards_text(got)).append(")")
                line.append("; the old hand lies face up")
                if widow:
                    line.append(": ").append_text(cards_text(widow))
                return line
            line.append("exchanged the whole hand")
            if got:
                line.append(": took ").append_text(cards_text(got))
            if widow:
                line.append(", laid down ").append_text(cards_text(widow))
            return line
        if isinstance(action, Pass):
            return line.append("passed")
        if isinstance(action, Keep):
            line.append("kept the first hand; the second lies face up as the widow")
            if widow:
                line.append(": ").append_text(cards_text(widow))
            return line
        if isinstance(action, TakeWidow):
            line.append("took the second hand unseen")
            if got:
                line.append(" (").append_text(cards_text(got)).append(")")
            line.append("; the first lies face up as the widow")
            if widow:
                line.append(": ").append_text(cards_text(widow))
            return line
        if isinstance(action, Look):
            return line.append("looked at the cards")
        if isinstance(action, ThrowDown):
            return line.append("threw down!", style="bold magenta")
        return line.append(str(action))  # pragma: no cover - every action kind is handled above

    def headline(self, result: RoundResult) -> Text:
        """How a round ended, in one line (R5, R6, R7.3)."""
        end = result.end
        if end in ("blitz", "dealt_blitz"):
            who = " and ".join(self.who(seat, start=i == 0) for i, seat in enumerate(result.blitz))
            shown = [result.values[seat] for seat in result.blitz]
            what = "three aces (33)" if shown and shown[0] == 33 else "31"
            verb = "were dealt" if end == "dealt_blitz" else "showed"
            if end == "dealt_blitz" and len(result.blitz) == 1 and not self._is_you(result.blitz[0]):
                verb = "was dealt"
            return Text(f"Round {result.round}: {who} {verb} {what}!", style="bold yellow")
        if end == "knock" and result.knocker is not None:
            how = f"{self.who(result.knocker, start=False)} knocked"
        elif end == "throw_down" and result.knocker is not None:
            how = f"{self.who(result.knocker, start=False)} threw down"
        elif end == "all_pass":
            how = "everyone passed"
        elif end == "stock_exhausted":
            how = "the stock ran out"
        else:
            how = f"the turn limit ({result.turns} turns) was reached"
        return Text(f"Round {result.round}: showdown, {how}.", style="bold yellow")

    def loss_lines(self, result: RoundResult) -> list[Text]:
        """Who lost how many lives under which rule, who went onto the grace life or out, and the
        R2.6 note, one line for each group of seats that fared alike; updates the lives the
        narrator follows. A seat that had only its last loss left (the grace life, or the last
        life without one) does not "lose 1 life": it is out (or, saved by R2.6, would have been)."""
        lines: list[Text] = []
        grace = self.rules.grace_word
        state = "swimming (schwimmt)" if grace == "schwimmt" else grace  # "was schwimmt" reads wrong
        groups: dict[tuple[str, int, str, str], list[int]] = {}
        for loss in result.losses:
            last = self.remaining[loss.seat] == 1
            kind = ("out" if loss.seat in result.eliminated else "saved") if last else "lost"
            groups.setdefault((kind, 0 if last else loss.lives, loss.rule, self.why(loss, result)), []).append(
                loss.seat
            )
        said_out: set[int] = set()
        for (kind, lives, rule, reason), seats in groups.items():
            why = f"{reason} ({rule})."
            who, be = self.names_of(seats), self._be(seats)
            if kind == "lost":
                lost = "1 life" if lives == 1 else f"{lives} lives"
                lines.append(Text(f"{who} lost {lost}: {why}"))
                continue
            was = "were" if be == "are" else "was"
            before = f"{was} {state}" if self.rules.grace_life else "had one life left"
            if kind == "out":
                said_out.update(seats)
                lines.append(Text(f"{who} {before} and {be} out: {why}", style="bold red"))
            else:  # R2.6 keeps everyone in
                lines.append(Text(f"{who} {before} and would be out: {why}"))
        if not result.losses:
            lines.append(Text("Nobody lost a life."))
        changed = [
            seat
            for seat, after in enumerate(result.remaining)
            if self.remaining[seat] > 0 and after != self.remaining[seat]
        ]
        out = [seat for seat in changed if seat in result.eliminated and seat not in said_out]
        if out:
            lines.append(Text(f"{self.names_of(out)} {self._be(out)} out.", style="bold red"))
        on_grace = [
            seat
            for seat in changed
            if self.rules.grace_life and result.remaining[seat] == 1 and self.remaining[seat] > 1
        ]
        if on_grace:
            lines.append(
                Text(
                    f"{self.names_of(on_grace)} {self._be(on_grace)} {state} now: one more loss and out.",
                    style="yellow",
                )
            )
        if result.saved_by_r2_6:
            lines.append(
                Text(
                    "R2.6: that result would have put every player out, so nobody is out: "
                    "each is left with one last loss.",
                    style="yellow",
                )
            )
        self.remaining = list(result.remaining)
        return lines

    def names_of(self, seats: Sequence[int], *, start: bool = True) -> str:
        """Seats' short names as a list: ``You``, ``Ada and Bea``, ``You, Ada and Bea`` (``you``
        when not at the ``start`` of a sentence)."""
        names = [self.who(seat, start=start and i == 0) for i, seat in enumerate(seats)]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def _be(self, seats: Sequence[int]) -> str:
        return "is" if len(seats) == 1 and not self._is_you(seats[0]) else "are"

    def result_lines(self, result: RoundResult) -> list[Text]:
        """The headline and the losses of a round (see :meth:`headline`, :meth:`loss_lines`)."""
        return [self.headline(result), *self.loss_lines(result)]
