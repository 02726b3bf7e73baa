"""The person's keys: which keys do what now, and what a pressed key means.

Keys are Textual key names (``"s"``, ``"1"``, ``"space"``, ``"full_stop"``, ``"enter"``).

=================  =====================================================  ===============
key                what it does                                           when
=================  =====================================================  ===============
``s``              draw the top card of the stock                         draw mode
``p``              take the top card of the discard pile                  draw mode
``1``–``4``        discard your card N                                    after drawing
``1``–``3``        pick your card N for an exchange                       widow mode
``4``–``6``        pick widow card N (4 is the first) for an exchange     widow mode
``enter``/``x``    exchange the picked cards (option ``exchange=any``)    widow mode
``escape``         clear the picks                                        widow mode
``a``              exchange all three cards (take the face-down widow)    widow mode
``space``/``.``    pass                                                   widow mode
``k``              knock                                                  on your turn
``l``/``t``        look at your cards / throw down unseen                 blind phase
``h``/``w``        keep your hand / take the second hand (dealer)         Schwimmen deal
``?``              ask the expert for a hint (the app answers it)         on your turn
=================  =====================================================  ===============

>>> from thirtyone import Game, Rules
>>> game = Game(Rules.preset("scat"), players=2, seed=3)
>>> controls = Controls()
>>> [hint.keys for hint in controls.hints(game.view(game.current_seat))]
['s', 'p', 'k']
>>> controls.press(game.view(game.current_seat), "s").action
Draw(source='stock')
"""

from __future__ import annotations

from dataclasses import dataclass

from thirtyone.actions import PILE
from thirtyone.actions import STOCK
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
from thirtyone.cards import Card
from thirtyone.i18n import Messages
from thirtyone.i18n import messages
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = ["KeyHint", "Press", "Controls", "PASS_KEYS", "CONFIRM_KEYS", "HINT_KEYS", "KEY_NAMES"]

PASS_KEYS = ("space", "full_stop")
"""Keys that pass (widow mode)."""
CONFIRM_KEYS = ("enter", "x")
"""Keys that make the picked exchange (option ``exchange=any``)."""
HINT_KEYS = ("question_mark", "?")
"""Keys that ask for a hint (Textual names ``?`` ``question_mark``); not an action, so
:meth:`Controls.press` leaves them to the app."""
KEY_NAMES = {"space": "space", "full_stop": ".", "enter": "enter", "escape": "esc"}
"""How key names are written on screen."""

_HAND_KEYS = ("1", "2", "3", "4")
_WIDOW_KEYS = ("4", "5", "6")


@dataclass(frozen=True)
class KeyHint:
    """One entry of the key line: the key(s) as shown (``"s"``, ``"1 2 4"``) and what they do."""

    keys: str
    label: str


@dataclass(frozen=True)
class Press:
    """What a pressed key means: an ``action`` to play, a ``message`` that explains why nothing
    happens, or ``changed`` when the exchange picks changed (redraw the hand)."""

    action: Action | None = None
    message: str | None = None
    changed: bool = False


class Controls:
    """Maps keys to the person's actions for a view, and keeps the cards picked for an exchange
    (widow mode: ``picked_hand`` and ``picked_widow`` are card positions from 0). Labels and
    answers are in the language of ``t`` (English by default); the keys themselves are the keys
    on the keyboard in every language."""

    def __init__(self, t: Messages | None = None) -> None:
        self.t = t if t is not None else messages()
        """The language of the key line and of the answers to keys."""
        self.picked_hand: list[int] = []
        self.picked_widow: list[int] = []

    def clear(self) -> None:
        """Forget the exchange picks (after every move and whenever the turn changes)."""
        self.picked_hand.clear()
        self.picked_widow.clear()

    # ------------------------------------------------------------------ the key line

    def hints(self, view: PlayerView) -> list[KeyHint]:
        """The keys that do something now, for a view of the seat to move (else ``[]``);
        only legal moves are offered."""
        if not view.is_my_turn:
            return []
        t = self.t
        legal = view.legal_actions
        hints: list[KeyHint] = []
        if view.phase is Phase.LOOK:
            return [KeyHint("l", t("tui.key.look")), KeyHint("t", t("tui.key.throw"))]
        if view.phase is Phase.DEALER_CHOICE:
            return [KeyHint("h", t("tui.key.keep")), KeyHint("w", t("tui.key.take_other"))]
        hand = view.hand or ()
        if view.phase is Phase.DISCARD:
            keys = [_HAND_KEYS[i] for i, card in enumerate(hand) if Discard(card) in legal]
            return [KeyHint(" ".join(keys), t("tui.key.discard"))]
        if view.rules.mode == "draw":
            if Draw(STOCK) in legal:
                hints.append(KeyHint("s", t("tui.key.draw")))
            if Draw(PILE) in legal and view.discard_top is not None:
                hints.append(KeyHint("p", t("tui.key.take", card=view.discard_top.pretty)))
        else:
            if view.widow is not None and any(isinstance(action, Exchange) for action in legal):
                hints.append(KeyHint("1-3", t("tui.key.pick_yours")))
                hints.append(KeyHint("4-6", t("tui.key.pick_widow")))
                picked = len(self.picked_hand)
                if view.rules.exchange == "any" and picked and picked == len(self.picked_widow):
                    hints.append(KeyHint("enter", t("tui.key.exchange")))
                if self.picked_hand or self.picked_widow:
                    hints.append(KeyHint("esc", t("tui.key.clear")))
            if ExchangeAll() in legal:
                label = t("tui.key.take_widow") if view.widow is None else t("tui.key.exchange_all")
                hints.append(KeyHint("a", label))
            if Pass() in legal:
                hints.append(KeyHint("space", t("tui.key.pass")))
        if Knock() in legal:
            hints.append(KeyHint("k", t("tui.key.knock")))
        return hints

    # ------------------------------------------------------------------ pressing a key

    def press(self, view: PlayerView, key: str) -> Press | None:
        """What ``key`` means for the seat to move; ``None`` for a key that is not a game key.

        An action that the key names but the rules forbid now (knocking too early, discarding
        the card just taken from the pile) is returned all the same, so that the engine explains
        the rule when it refuses it.
        """
        if not view.is_my_turn:
            return None
        phase = view.phase
        if phase is Phase.LOOK:
            return {"l": Press(Look()), "t": Press(ThrowDown())}.get(key) or self._nothing(key, "tui.do.look")
        if phase is Phase.DEALER_CHOICE:
            return {"h": Press(Keep()), "w": Press(TakeWidow())}.get(key) or self._nothing(key, "tui.do.dealer")
        hand = view.hand or ()
        if phase is Phase.DISCARD:
            if key in _HAND_KEYS[: len(hand)]:
                return Press(Discard(hand[_HAND_KEYS.index(key)]))
            return self._nothing(key, "tui.do.discard")
        if key == "k":
            return Press(Knock())
        if view.rules.mode == "draw":
            if key == "s":
                return Press(Draw(STOCK))
            if key == "p":
                return Press(Draw(PILE))
            return self._nothing(key, "tui.do.draw_knock" if Knock() in view.legal_actions else "tui.do.draw")
        return self._widow_turn(view, key)

    def _widow_turn(self, view: PlayerView, key: str) -> Press | None:
        if key == "a":
            return Press(ExchangeAll())
        if key in PASS_KEYS:
            return Press(Pass())
        hand, widow = view.hand or (), view.widow
        picking = key in ("1", "2", "3", "4", "5", "6", "escape", *CONFIRM_KEYS)
        knock = Knock() in view.legal_actions
        if widow is None:
            if picking:
                return Press(message=self.t("tui.msg.widow_down_knock" if knock else "tui.msg.widow_down"))
            return self._nothing(key, "tui.do.widow_down_knock" if knock else "tui.do.widow_down")
        if key == "escape":
            if not (self.picked_hand or self.picked_widow):
                return self._nothing(key, "tui.do.nothing_picked")
            self.clear()
            return Press(changed=True)
        any_number = view.rules.exchange == "any"
        if key in ("1", "2", "3"):
            self._pick(self.picked_hand, int(key) - 1, any_number)
        elif key in _WIDOW_KEYS:
            self._pick(self.picked_widow, _WIDOW_KEYS.index(key), any_number)
        elif key in CONFIRM_KEYS:
            if not any_number:
                return Press(message=self.t("tui.msg.pick_one_each"))
            return self._confirm(hand, widow)
        else:
            return self._nothing(key, "tui.do.widow_knock" if knock else "tui.do.widow")
        if not any_number and self.picked_hand and self.picked_widow:
            return Press(Exchange(hand[self.picked_hand[0]], widow[self.picked_widow[0]]), changed=True)
        return Press(changed=True)

    @staticmethod
    def _pick(picks: list[int], index: int, many: bool) -> None:
        if index in picks:
            picks.remove(index)
        elif many:
            picks.append(index)
        else:
            picks[:] = [index]

    def _confirm(self, hand: tuple[Card, ...], widow: tuple[Card, ...]) -> Press:
        give, take = len(self.picked_hand), len(self.picked_widow)
        if give == 0 or give != take:
            return Press(message=self.t("tui.msg.pick_as_many"))
        if give == 3:
            return Press(ExchangeAll())
        gave = tuple(hand[i] for i in sorted(self.picked_hand))
        took = tuple(widow[i] for i in sorted(self.picked_widow))
        return Press(Exchange(gave, took))

    def _nothing(self, key: str, hint: str) -> Press | None:
        """The answer to a key that means nothing now (see :func:`nothing_now`); ``None`` for a
        key the app may use."""
        message = nothing_now(key, hint, self.t)
        return None if message is None else Press(message=message)


def nothing_now(key: str, hint: str, t: Messages) -> str | None:
    """The answer to a key that means nothing now — a letter, a digit, ``?``, or one of the named
    keys that mean something at other times (space, ``.``, enter, esc) — with the message
    ``hint`` saying what to press; ``None`` for any other key (arrows, tab, …)."""
    if key in KEY_NAMES:
        shown = KEY_NAMES[key]
    elif key in HINT_KEYS:
        shown = "?"
    elif len(key) == 1 and key.isalnum():
        shown = key
    else:
        return None
    return t("tui.nothing", pressed=shown, hint=t(hint))


WAYS_OUT = frozenset({"q", "ctrl+q", "ctrl+c"})
"""The keys that quit (as :func:`key_name` reads them: ``Q`` is ``q``), on every screen. They
are handled in the order they were typed, after every key typed before them (never as Textual's
priority bindings, which act on a key as it arrives, ahead of the keys still queued)."""


def key_name(key: str) -> str:
    """A key as the game reads it: a capital letter (shift, Caps Lock) as its small one."""
    return key.lower() if len(key) == 1 else key
