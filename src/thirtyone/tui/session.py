"""A play session without a screen: the games one person plays in seat 0 against bots.

The terminal app drives it; tests and other faces can too.

>>> from thirtyone.rules import Rules
>>> from thirtyone.tui.settings import PlaySettings
>>> session = PlaySession(PlaySettings.create(Rules.preset("scat"), players=3, seed=5, fast=True))
>>> session.game.players, session.game_number
(3, 1)
>>> while not session.game.is_over:
...     if session.game.current_seat == 0:
...         session.play(session.view().legal_actions[0])
...     else:
...         _ = session.bot_move()
>>> session.game.winner is not None, [type(event).__name__ for event in session.next_events()][:2]
(True, ['RoundStarted', 'Acted'])
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator
from pathlib import Path

from thirtyone.actions import Action
from thirtyone.bots import make_bot
from thirtyone.bots.base import Bot
from thirtyone.engine import Game
from thirtyone.errors import IllegalActionError, ThirtyOneError
from thirtyone.events import Acted, Event, RoundEnded
from thirtyone.tui.settings import PlaySettings
from thirtyone.views import PlayerView

__all__ = ["PlaySession", "HUMAN"]

HUMAN = 0
"""The person's seat."""


class PlaySession:
    """The current game, its bots and what the person has been shown of it.

    The first game of a session with a seed uses that seed, so ``--seed 5`` plays the same game
    as ``Game(rules, players, seed=5)``; each further game gets the next seed derived from it.
    The bot in seat ``s`` is seeded with ``game_seed + s``.
    """

    def __init__(self, settings: PlaySettings) -> None:
        self.settings = settings
        self.names = settings.seat_names()
        self._seeds = random.Random(settings.seed)
        self.game_number = 0
        self.game_seed: int | None = None
        self.game: Game
        self.bots: dict[int, Bot] = {}
        self.saved_to: Path | None = None
        self._seen = 0
        self.new_game()

    def new_game(self) -> None:
        """Deal a new game (the next of the session)."""
        self.game_number += 1
        if self.settings.seed is None:
            self.game_seed = None
        elif self.game_number == 1:
            self.game_seed = self.settings.seed
        else:
            self.game_seed = self._seeds.getrandbits(63)
        seed = self.game_seed
        self.game = Game(self.settings.rules, self.settings.players, seed=seed)
        self.bots = {
            seat: make_bot(name, None if seed is None else seed + seat)
            for seat, name in enumerate(self.settings.bots, start=1)
        }
        self.saved_to = None
        self._seen = 0

    def view(self) -> PlayerView:
        """What the person (seat 0) may know now."""
        return self.game.view(HUMAN)

    @property
    def human_to_move(self) -> bool:
        """True when the game waits for the person."""
        return self.game.current_seat == HUMAN

    def play(self, action: Action) -> None:
        """Play the person's ``action``.

        Raises:
            IllegalActionError: when it is not the person's move or the rules forbid the action;
                the message names the rule and the game is unchanged.
        """
        self.game.apply(action, seat=HUMAN)

    def bot_move(self) -> Action:
        """Let the bot to move choose and play; returns its action.

        Raises:
            IllegalActionError: when it is not a bot's move, or the bot chose an illegal action.
        """
        seat = self.game.current_seat
        if seat is None or seat == HUMAN:
            raise IllegalActionError("it is not a bot's move")
        view = self.game.view(seat)
        action = self.bots[seat].choose(view, view.legal_actions)
        self.game.apply(action, seat=seat)
        return action

    def next_events(self) -> Iterator[Event]:
        """The events the person has not been shown yet, as seat 0 sees them, one at a time.

        Each is marked as shown when it is yielded, so a caller may stop after a ``RoundEnded``
        and come back for the rest later.
        """
        events = self.game.events
        while self._seen < len(events):
            event = events[self._seen]
            self._seen += 1
            yield event.for_seat(HUMAN)

    @property
    def has_played(self) -> bool:
        """True once anything happened in the current game (an action or a round's end)."""
        return any(isinstance(event, (Acted, RoundEnded)) for event in self.game.events)

    def save_record(self) -> Path | None:
        """Save the current game's record where the settings say (``--record``); returns the path,
        or ``None`` without ``--record``. Saving again overwrites the same file.

        Raises:
            OSError: when the file cannot be written.
            ThirtyOneError: when the record cannot be made.
        """
        path = self.settings.record_path(self.game_number)
        if path is None:
            return None
        try:
            from thirtyone.record import GameRecord
        except ImportError as error:  # the record module is optional at runtime
            raise ThirtyOneError(f"game records are not available: {error}") from error
        today = datetime.date.today().isoformat()
        text = GameRecord.from_game(self.game, list(self.names), event="thirtyone play", date=today).dumps()
        path.write_text(text, encoding="utf-8")
        self.saved_to = path
        return path
