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

Without a seed the session picks one (:data:`SEED_RANGE`), so that every game has a seed to
show and to replay with ``--seed``:

>>> picked = PlaySession(PlaySettings.create(Rules.preset("scat"), players=2))
>>> 0 <= picked.game_seed < SEED_RANGE
True
>>> again = PlaySession(PlaySettings.create(Rules.preset("scat"), players=2, seed=picked.game_seed))
>>> again.game.hand(0) == picked.game.hand(0)
True

A hint asks a fresh expert, seeded from the game's seed and the position, about the person's view:

>>> session = PlaySession(PlaySettings.create(Rules.preset("scat"), players=2, seed=5, hint_worlds=5))
>>> session.human_to_move, session.hint_seed() == session.hint_seed()
(True, True)
>>> analysis = session.hint_bot().analyse(session.view())
>>> analysis.best in session.view().legal_actions, analysis.estimates[0].worlds
(True, 5)
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import os
import random
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from thirtyone.actions import Action
from thirtyone.bots import make_bot
from thirtyone.bots.base import Bot
from thirtyone.bots.expert import ExpertBot
from thirtyone.chance import ScriptedChance
from thirtyone.engine import Game
from thirtyone.errors import ThirtyOneError
from thirtyone.events import Acted, Event, RoundEnded, RoundResult, RoundStarted
from thirtyone.position import Position as GamePosition
from thirtyone.text import refusal
from thirtyone.tui.settings import PlaySettings, play_bot_spec
from thirtyone.views import Phase, PlayerView, SeatStatus

__all__ = ["PlaySession", "BotTurn", "Position", "StaleMoveError", "HUMAN", "SEED_RANGE"]

HUMAN = 0
"""The person's seat."""

SEED_RANGE = 1_000_000
"""A session started without a seed plays its first game with a seed picked from
``0 … SEED_RANGE - 1``: short enough to read off the screen and type as ``--seed``."""


class StaleMoveError(ThirtyOneError):
    """A bot's move chosen for a position play has since left (nothing was played)."""


Position = tuple[int, int]
"""Where a session stands: the game's number and how many events it has had. Every move adds an
event, so a position names one moment of play (a hint or a bot's choice is for one position)."""


@dataclass(frozen=True)
class BotTurn:
    """A bot's move to make: the seat, its bot, what it may see, and the position it is for.
    ``bot.choose(view, view.legal_actions)`` may run on another thread: the view is a snapshot."""

    seat: int
    bot: Bot
    view: PlayerView
    position: Position


class PlaySession:
    """The current game, its bots and what the person has been shown of it.

    The first game of a session with a seed uses that seed, so ``--seed 5`` plays the same game
    as ``Game(rules, players, seed=5)``; each further game gets the next seed derived from it, as
    short as a picked one (below :data:`SEED_RANGE`), so that every title has room for it.
    Without a seed the session picks one at random (below :data:`SEED_RANGE`, from
    :mod:`secrets`) and goes on as if it had been given: every game has a ``game_seed``, which
    ``--seed`` replays.
    The bot in seat ``s`` is seeded with ``game_seed + s``; an ``expert`` (``hard``) bot named
    without a budget thinks :data:`~thirtyone.tui.settings.PLAY_EXPERT_SECONDS` per move.
    ``simulator_ready`` is given to every expert of the session, the bots' and the hints'
    (:attr:`~thirtyone.bots.expert.ExpertBot.simulator_ready`): while it returns ``False`` they
    search on the engine.
    """

    def __init__(self, settings: PlaySettings, *, simulator_ready: Callable[[], bool] | None = None) -> None:
        self.settings = settings
        self.simulator_ready = simulator_ready
        self.names = settings.seat_names()
        self.first_seed = secrets.randbelow(SEED_RANGE) if settings.seed is None else settings.seed
        """The seed of the session's first game: the settings' seed, or the one picked."""
        self._seeds = random.Random(self.first_seed)
        self.game_number = 0
        self.game_seed: int = self.first_seed
        """The seed of the current game (``--seed`` with it replays the game as a first game)."""
        self.game: Game
        self.bots: dict[int, Bot] = {}
        self.saved_to: Path | None = None
        self._seen = 0
        self._round_ends: dict[int, PlayerView] = {}  # round -> the table as it was left
        self._written: set[Path] = set()  # record files this session wrote (its own to overwrite)
        self.new_game()

    def new_game(self) -> None:
        """Deal a new game (the next of the session)."""
        self.game_number += 1
        self.game_seed = self.first_seed if self.game_number == 1 else self._seeds.randrange(SEED_RANGE)
        seed = self.game_seed
        self.game = Game(self.settings.rules, self.settings.players, seed=seed)
        self.bots = {
            seat: make_bot(play_bot_spec(name), seed + seat) for seat, name in enumerate(self.settings.bots, start=1)
        }
        for bot in self.bots.values():
            if isinstance(bot, ExpertBot):
                bot.simulator_ready = self.simulator_ready
        self.saved_to = None
        self._seen = 0
        self._round_ends = {}

    def view(self) -> PlayerView:
        """What the person (seat 0) may know now."""
        return self.game.view(HUMAN)

    @property
    def human_to_move(self) -> bool:
        """True when the game waits for the person."""
        return self.game.current_seat == HUMAN

    @property
    def position(self) -> Position:
        """Where play stands now (see :data:`Position`)."""
        return (self.game_number, len(self.game.events))

    def hint_seed(self) -> int:
        """The seed of the expert that answers a hint now: drawn from the game's seed and the
        position, so the same ``--seed`` gives the same hints."""
        return random.Random(f"hint {self.game_seed} {len(self.game.events)}").getrandbits(63)

    def hint_bot(self) -> ExpertBot:
        """A fresh expert to analyse the person's view now, with the hint budget of the settings:
        ``hint_worlds`` sampled deals exactly when set, else as many as ``hint_seconds`` allow."""
        worlds = self.settings.hint_worlds
        if worlds is not None:
            bot = ExpertBot(self.hint_seed(), worlds=worlds, seconds=None)
        else:
            bot = ExpertBot(self.hint_seed(), worlds=1_000_000, seconds=self.settings.hint_seconds)
        bot.simulator_ready = self.simulator_ready
        return bot

    @property
    def has_expert(self) -> bool:
        """True when a bot of the game searches (an expert)."""
        return any(isinstance(bot, ExpertBot) for bot in self.bots.values())

    def bot_thinks(self) -> bool:
        """True when the bot to move searches (an expert), so its choice should be made off the
        screen's thread; the other bots choose in well under a millisecond."""
        seat = self.game.current_seat
        return seat is not None and isinstance(self.bots.get(seat), ExpertBot)

    def play(self, action: Action) -> None:
        """Play the person's ``action``.

        Raises:
            IllegalActionError: when it is not the person's move or the rules forbid the action;
                the message names the rule and the game is unchanged.
        """
        self._apply(action, HUMAN)

    def _apply(self, action: Action, seat: int) -> None:
        """Apply ``action`` for ``seat``, keeping the table as it was left when the action ended a round."""
        game = self.game
        index = len(game.events)
        before = game.position()
        game.apply(action, seat=seat)
        ended = [event.result for event in game.events[index:] if isinstance(event, RoundEnded)]
        if ended:
            self._keep_round_end(before, action, seat, ended)

    def _keep_round_end(self, before: GamePosition, action: Action, seat: int, results: list[RoundResult]) -> None:
        """Keep the table as the action that ended a round left it (the engine has dealt the next
        round already): the action played again from ``before`` on a game that stops at the end
        of that round. A round then ended on its deal (R5.2) keeps the table of that deal: the
        same deck orders, from the game's round logs, played on to the end of that round."""
        logs = self.game.round_logs
        chance = ScriptedChance(0, [log.deck for log in logs], [log.reshuffles for log in logs])
        for count, result in enumerate(results, start=1):
            game = Game.from_position(before, chance=chance, rounds=count)
            game.apply(action, seat=seat)
            self._round_ends[result.round] = self._with_result(game.view(HUMAN), result)

    @staticmethod
    def _with_result(table: PlayerView, result: RoundResult) -> PlayerView:
        """``table`` as the person saw it at the end of the round of ``result``: the round's
        number and dealer, everyone's lives after it, the person's hand at the showdown (when it
        was in the round), nobody to move."""
        grace = 1 if table.rules.grace_life else 0
        seats = tuple(
            SeatStatus(
                status.seat,
                left,
                max(left - grace, 0),
                grace == 1 and left == 1,
                left <= 0,
                status.has_looked,
                status.known_cards,
            )
            for status, left in zip(table.seats, result.remaining, strict=True)
        )
        seen = result.for_seat(HUMAN)
        return dataclasses.replace(
            table,
            round=result.round,
            dealer=result.dealer,
            phase=Phase.OVER,
            current_seat=None,
            hand=seen.hands[HUMAN],
            hand_value=seen.values[HUMAN],
            seats=seats,
            knocker=result.knocker,
            taken_from_pile=None,
            last_result=seen,
            legal_actions=(),
        )

    def round_end_view(self, result: RoundResult) -> PlayerView:
        """What the person saw at the end of the round of ``result`` (while its showdown shows,
        the table behind it stays in that round, not the next deal); the view now when the round
        was not ended by a move of this session."""
        kept = self._round_ends.get(result.round)
        return kept if kept is not None else self._with_result(self.view(), result)

    def turn_continues(self) -> bool:
        """True when the seat to move made the last move of this round: its turn goes on (a
        discard after a draw), so a paced bot plays on without another pause."""
        seat = self.game.current_seat
        for event in reversed(self.game.events):
            if isinstance(event, Acted):
                return event.seat == seat
            if isinstance(event, (RoundStarted, RoundEnded)):
                return False
        return False

    def bot_move(self) -> Action:
        """Let the bot to move choose and play; returns its action.

        Raises:
            IllegalActionError: when it is not a bot's move, or the bot chose an illegal action.
        """
        turn = self.bot_turn()
        action = turn.bot.choose(turn.view, turn.view.legal_actions)
        self.play_bot(turn, action)
        return action

    def bot_turn(self) -> BotTurn:
        """The bot move to make now, for choosing it apart (:meth:`play_bot` plays it).

        Raises:
            IllegalActionError: when it is not a bot's move.
        """
        seat = self.game.current_seat
        if seat is None:
            raise refusal("game_over")
        if seat == HUMAN:
            raise refusal("not_your_turn", seats=(HUMAN,))
        return BotTurn(seat, self.bots[seat], self.game.view(seat), self.position)

    def play_bot(self, turn: BotTurn, action: Action) -> None:
        """Play the action a bot chose for ``turn``.

        Raises:
            StaleMoveError: when play has moved on since ``turn`` (nothing is played).
            IllegalActionError: when the bot chose an illegal action.
        """
        if turn.position != self.position:
            raise StaleMoveError(f"seat {turn.seat}'s move was chosen for a position that has passed")
        self._apply(action, turn.seat)

    def next_events(self) -> Iterator[Event]:
        """The events the person has not been shown yet, as seat 0 sees them, one at a time.

        Each is marked as shown when it is yielded, so a caller may stop after a ``RoundEnded``
        and come back for the rest later.
        """
        events = self.game.events
        while self._seen < len(events):
            index = self._seen
            self._seen += 1
            yield events[index].for_seat(HUMAN)

    @property
    def has_played(self) -> bool:
        """True once anything happened in the current game (an action or a round's end)."""
        return any(isinstance(event, (Acted, RoundEnded)) for event in self.game.events)

    def save_record(self) -> Path | None:
        """Save the current game's record where the settings say (``--record``); returns the path,
        or ``None`` without ``--record``. Saving again overwrites the same file. The record is
        written to a temporary file in the same folder and renamed over the old one, so the
        file is always a whole record, whenever the program is stopped.

        Raises:
            OSError: when the file cannot be written (its ``filename`` the record's path).
            ThirtyOneError: when the record cannot be made, or the file exists, was not written
                by this session and the settings do not allow overwriting it.
        """
        path = self.settings.record_path(self.game_number)
        if path is None:
            return None
        if path not in self._written and path.exists() and not self.settings.overwrite:
            raise ThirtyOneError(f"{path} already exists: not overwritten (start with --overwrite to replace it)")
        try:
            from thirtyone.record import GameRecord
        except ImportError as error:  # the record module is optional at runtime
            raise ThirtyOneError(f"game records are not available: {error}") from error
        today = datetime.date.today().isoformat()
        seed = self.game_seed
        record = GameRecord.from_game(
            self.game,
            list(self.names),
            event="thirtyone play",
            date=today,
            comment=f"seed {seed} (thirtyone play {self.settings.deal_again(seed)} deals this game again)",
        )
        text = record.dumps()
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, path)
        except BaseException as error:
            with contextlib.suppress(OSError):
                temporary.unlink()
            if isinstance(error, OSError):  # say the record's path: the temporary file is ours, not the person's
                raise OSError(error.errno, error.strerror, str(path)) from error
            raise
        self._written.add(path)
        self.saved_to = path
        return path
