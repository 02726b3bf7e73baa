"""The title line and the status line of the terminal game, in the person's language.

The title says the rules (the nearest preset and each option that differs from it), the game,
the round and the seed; the status line whose turn it is and what the person may do now, built
from the legal actions (a knock makes it the last turn), then how the expert stands while one
is in play (:meth:`~thirtyone.tui.hints.Hints.note`). Each fits the screen's width when it can be
said shorter.
"""

from __future__ import annotations

from rich.text import Text

from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Knock
from thirtyone.actions import Pass
from thirtyone.rules import OPTIONS
from thirtyone.scoring import format_value
from thirtyone.tui.cells import cells
from thirtyone.tui.controls import Controls
from thirtyone.tui.hints import Hints
from thirtyone.tui.keys import WaitingFor
from thirtyone.tui.session import PlaySession
from thirtyone.tui.words import cards_text
from thirtyone.tui.words import say
from thirtyone.tui.words import say_plural
from thirtyone.tui.words import short_name
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = ["Status"]


class Status:
    """The title and status lines of ``session``'s game: the picks of ``controls`` (widow mode)
    and the expert's state from ``hints``, in the words of ``session``'s settings' language
    (``hints.t``)."""

    def __init__(self, session: PlaySession, controls: Controls, hints: Hints) -> None:
        self.session = session
        self.controls = controls
        self.hints = hints
        self.t = hints.t

    def title_text(self, view: PlayerView, width: int) -> Text:
        """The title line, at most ``width`` cells: the rules, the game, the round and the seed.
        The game, round and seed always show, and the rule options before the app's name; when
        the line is too long the last options are counted (``Scat, lives 5, +2 more``): the
        log's first line of a game names them all (:meth:`rules_line`)."""
        t = self.t
        number = self.session.game_number
        game = t("tui.title.tail", game=t.number(number), round=t.number(view.round), seed=self.session.game_seed)
        parts = self.rules_words()
        counted = [
            [*parts[:named], t.plural("tui.title.more", len(parts) - named)] for named in range(len(parts) - 1, 0, -1)
        ]
        for rules in (parts, *counted):
            for head in (t("app.name"), ""):
                line = " · ".join(part for part in (head, ", ".join(rules), game) if part)
                if cells(line) <= width:
                    return Text(line)
        return Text(game)

    def rules_line(self) -> Text | None:
        """The log's first line of a game: the rules with every option that differs from the
        preset (``Rules: Scat, lives 5, throw down on.``), which the title may only count; ``None``
        for a preset as it is."""
        words = self.rules_words()
        return Text(self.t("tui.rules_line", rules=", ".join(words)), style="dim") if len(words) > 1 else None

    def rules_words(self) -> list[str]:
        """The rules in words: the nearest preset's name, then each option that differs from it
        with its value (``["Scat", "lives 5"]``)."""
        t = self.t
        preset, differences = self.session.settings.rules.nearest_preset()
        words = [t(_PRESETS[preset])] if preset in _PRESETS else [preset]
        for name, value in differences.items():
            shown = OPTIONS[name].format(value)
            value_key = f"value.{shown}"
            if t.translations.gettext(value_key) != value_key:  # a word of the catalog: on, off, reshuffle …
                shown = t(value_key)
            words.append(t("rules.option_value", option=t(f"option.{name}"), value=shown))
        return words

    def status_text(self, view: PlayerView, waiting_for: WaitingFor, width: int) -> Text:
        """Whose turn it is, and what the person can do now, built from the legal actions: a
        knock makes it the last turn; then, while someone is to move and an expert is in play,
        how it stands (getting ready: searching on the engine meanwhile; then ready), on the same
        line when it fits and else on a line of its own. Never wider than ``width`` cells when it
        can be said shorter (else it wraps onto a second line, between words). ``waiting_for``
        is what play waits for (:class:`~thirtyone.tui.keys.WaitingFor`)."""
        for short, short_note in ((False, False), (True, False), (True, True)):
            text = self._status(view, waiting_for, short=short)
            note = self._note(waiting_for, short=short_note)
            if note.plain:
                text = Text.assemble(text, " ", note)
            if cells(text.plain) <= width:
                return text
        text = self._status(view, waiting_for, short=cells(self._status(view, waiting_for, short=False).plain) > width)
        note = self._note(waiting_for, short=False)
        if not note.plain:
            return text
        if cells(note.plain) > width:
            note = self._note(waiting_for, short=True)
        return Text("\n").join([text, note])

    def _note(self, waiting_for: WaitingFor, *, short: bool) -> Text:
        """The expert's state, while someone is to move."""
        return self.hints.note(short=short) if waiting_for.someone_to_move else Text("")

    def _status(self, view: PlayerView, waiting_for: WaitingFor, *, short: bool) -> Text:
        t = self.t
        names = self.session.names
        knocked = short_name(names[view.knocker]) if view.knocker is not None else None
        last = t("tui.status.last_turn", who=knocked) if knocked is not None else ""
        if waiting_for == WaitingFor.BROKEN:  # a bot failed: nobody is to move any more
            return Text(t("tui.status.stopped"))
        if view.phase in (Phase.CHANCE, Phase.OVER):  # a round has ended: the next deal waits, or the game is over
            if waiting_for == WaitingFor.SHOWDOWN:
                result = view.last_result
                blitz = result is not None and result.end in ("blitz", "dealt_blitz")  # no showdown after a 31
                key = "tui.status.round_over" if blitz else "tui.status.showdown"
                return Text(t(key, round=t.number(view.round)))
            return Text(t("status.over"))
        if not view.is_my_turn:
            seat = view.current_seat
            if seat is None:  # pragma: no cover - a game not over always has a seat to move
                return Text("")
            who = names[seat]
            then = last if not short else ""
            if view.seats[view.seat].out:
                return Text(_sentences(t("tui.status.out", who=who), then))
            if self.session.bot_thinks():
                return Text(_sentences(t("tui.status.thinking", who=who), then), style="cyan")
            return Text(_sentences(t("tui.status.to_move", who=who), then), style="cyan")
        what = self._what_to_do(view, short=short)
        if knocked is not None:  # a new sentence
            return Text(last + " ", style="bold magenta").append_text(Text(what.plain[:1].upper()) + what[1:])
        head, _, tail = t.template("tui.status.your_turn").partition("{what}")
        return Text(head, style="bold green").append_text(what).append(tail)

    def _what_to_do(self, view: PlayerView, *, short: bool) -> Text:
        """The person's choices now, in words, from the legal actions."""
        t = self.t
        if view.phase is Phase.LOOK:
            return Text(t("tui.what.look"))
        if view.phase is Phase.DEALER_CHOICE:
            return Text(t("tui.what.dealer"))
        if view.phase is Phase.DISCARD:
            taken = view.taken_from_pile
            if taken is None:
                return Text(t("tui.what.discard"))
            key = "tui.what.discard_not_short" if short else "tui.what.discard_not"
            return say(t, key, card=cards_text([taken]))
        picks = self._picks_text(view)
        if picks is not None:
            return picks
        legal = view.legal_actions
        choices: list[str] = []
        if any(isinstance(action, Draw) for action in legal):
            choices.append(t("tui.choice.draw"))
        if view.widow is None and ExchangeAll() in legal:
            choices.append(t("tui.choice.widow_down"))
        elif any(isinstance(action, (Exchange, ExchangeAll)) for action in legal):
            choices.append(t("tui.choice.widow"))
        if Pass() in legal:
            choices.append(t("tui.choice.pass"))
        if Knock() in legal:
            choices.append(t("tui.choice.knock"))
        said = t.list(choices, style="or")
        value = format_value(view.hand_value) if view.hand_value is not None else "?"
        return Text(t("tui.what.choices_short" if short else "tui.what.choices", choices=said, value=value))

    def _picks_text(self, view: PlayerView) -> Text | None:
        """The cards picked for an exchange, named (widow mode), and what to do next; ``None``
        when nothing is picked."""
        t = self.t
        hand, widow = view.hand or (), view.widow or ()
        give = [hand[i] for i in sorted(self.controls.picked_hand) if i < len(hand)]
        take = [widow[i] for i in sorted(self.controls.picked_widow) if i < len(widow)]
        if not give and not take:
            return None
        if give and take:
            picks = say(t, "tui.pick.give_for", give=cards_text(give), take=cards_text(take))
        elif give:
            picks = say(t, "tui.pick.give", give=cards_text(give))
        else:
            picks = say(t, "tui.pick.take", take=cards_text(take))
        if view.rules.exchange != "any":
            return say(t, "tui.pick.then_widow" if give else "tui.pick.then_yours", picks=picks)
        if len(give) == len(take):
            return say(t, "tui.pick.ready", picks=picks)
        more = abs(len(give) - len(take))
        if len(give) > len(take):
            key = "tui.pick.more_widow_cards" if take else "tui.pick.widow_cards"
        else:
            key = "tui.pick.more_yours" if give else "tui.pick.yours"
        return say_plural(t, key, more, picks=picks)


_PRESETS = {
    "scat": "preset.scat",
    "widow": "preset.widow",
    "namu": "preset.namu",
    "schwimmen": "preset.schwimmen",
}
"""Each preset (R8) and the message of its name."""


def _sentences(*sentences: str) -> str:
    """Whole sentences one after the other, a space apart (an empty one is left out)."""
    return " ".join(sentence for sentence in sentences if sentence)
