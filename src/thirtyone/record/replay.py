"""Replaying a record through the engine, checking every action, dealer, reshuffle, result and
the outcome against what the record says."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from typing import Final

from thirtyone.cards import format_cards
from thirtyone.checks import shown
from thirtyone.checks import whole_number
from thirtyone.engine import Game
from thirtyone.errors import RecordError
from thirtyone.errors import ThirtyOneError
from thirtyone.events import RoundResult
from thirtyone.record.shapes import RecordBody
from thirtyone.record.shapes import RoundRecord
from thirtyone.record.shapes import format_action
from thirtyone.record.writing import _toml_ints
from thirtyone.record.writing import _toml_value
from thirtyone.text import describe_end

__all__ = ["replay", "replay_steps"]


def replay(record: RecordBody, upto: int | None = None) -> Game:
    """:meth:`GameRecord.replay <thirtyone.record.GameRecord.replay>` (see there) of ``record``."""
    wanted = None if upto is None else whole_number(upto)
    if upto is not None and (wanted is None or wanted < 0):
        raise RecordError(f"upto is a whole number of actions from 0 (or None for all), not {shown(upto)}")
    stop = None if wanted is None or wanted >= record.action_count else wanted
    last: Game | None = None
    for count, game in enumerate(replay_steps(record)):
        last = game
        if stop is not None and count >= stop:
            break
    assert last is not None
    return last


def replay_steps(record: RecordBody) -> Iterator[Game]:
    """:meth:`GameRecord.replay_steps <thirtyone.record.GameRecord.replay_steps>` (see there) of ``record``."""
    return _Replayer(record).steps()


class _Missing(Exception):  # noqa: N818 - the replay's own signal, turned into a RecordError
    """The record has no deck for a round, or no order for a reshuffle, that the replay needs."""


class _Replayer:
    """Plays a record through the engine and checks it as it goes: the game takes its chance steps
    from the record (the first dealer, each round's deck order and reshuffles, R3.5)."""

    def __init__(self, record: RecordBody) -> None:
        self.record = record
        self.started = 0  # rounds whose dealer has been checked
        self.checked = 0  # rounds whose result has been checked

    def deal(self, game: Game) -> None:
        """Take every chance step the game waits for from the record."""
        rounds = self.record.rounds
        while True:
            step = game.chance_step
            if step is None:
                return
            if step.kind == "dealer":
                game.deal(self.record.first_dealer)
            elif step.kind == "deal":
                if step.round > len(rounds):
                    raise _Missing(
                        f"round {step.round - 1} ended and the game goes on, but the record has no round "
                        f"{step.round} (rounds missing)"
                    )
                game.deal(rounds[step.round - 1].deck)
            else:
                orders = rounds[step.round - 1].reshuffles
                if step.number > len(orders):
                    raise _Missing(
                        f"the stock is empty and the record gives no order for reshuffle {step.number} (R4.3)"
                    )
                game.deal(orders[step.number - 1])

    def steps(self) -> Iterator[Game]:
        record = self.record
        game = Game(record.rules, record.players, explicit_chance=True)
        try:
            self.deal(game)
        except _Missing as missing:
            raise RecordError(str(missing)) from None
        except ThirtyOneError as error:
            raise RecordError(f"round 1: {error}") from None
        self.sync(game)
        yield game
        for index, rnd in enumerate(record.rounds):
            number = index + 1
            if index >= len(game.round_logs):
                raise RecordError(
                    f"round {number}: the game ended after round {index} (seat {game.winner} won), "
                    f"but the record goes on to round {len(record.rounds)}"
                )
            log = game.round_logs[index]
            for position, (seat, action) in enumerate(rnd.actions, 1):
                where = f'round {number}, action {position} ("{format_action(seat, action)}")'
                if log.result is not None:  # also caught by sync; kept as a guard
                    raise RecordError(f"{where}: the round has already ended ({log.result.end}); extra actions")
                try:
                    game.apply(action, seat=seat)
                    self.deal(game)
                except _Missing as missing:
                    raise RecordError(f"{where}: {missing}") from None
                except ThirtyOneError as error:
                    raise RecordError(f"{where}: {_strip_round(str(error), number)}") from None
                self.sync(game)
                yield game
            if rnd.result is not None and log.result is None:
                raise RecordError(
                    f"round {number}: actions missing: the record ends the round after {len(rnd.actions)} actions, "
                    f"but in the replay {self.waiting(game)}"
                )
        last = record.rounds[-1]
        log = game.round_logs[len(record.rounds) - 1]
        if last.result is None and len(log.reshuffles) != len(last.reshuffles):
            raise RecordError(self.reshuffle_mismatch(last, len(log.reshuffles)))
        self.check_outcome(game)

    def waiting(self, game: Game) -> str:
        return f"seat {game.current_seat} is still to move ({game.phase.value})"

    def sync(self, game: Game) -> None:
        """Check each newly dealt round's dealer, and each newly ended round's actions,
        reshuffles and result."""
        record = self.record
        logs = game.round_logs
        while self.started < len(logs):
            index = self.started
            if logs[index].dealer != record.rounds[index].dealer:
                raise RecordError(
                    f"round {index + 1}: the record says dealer {record.rounds[index].dealer}, "
                    f"but the deal passes to seat {logs[index].dealer} (R3.1)"
                )
            self.started += 1
        while self.checked < len(logs) and logs[self.checked].result is not None:
            index = self.checked
            log, rnd = logs[index], record.rounds[index]
            result = log.result
            assert result is not None
            done = len(log.actions)
            if done < len(rnd.actions):
                seat, action = rnd.actions[done]
                ended = "on the deal" if done == 0 else f"after action {done}"
                over = "; the game is over" if game.is_over else ""
                raise RecordError(
                    f'round {index + 1}, action {done + 1} ("{format_action(seat, action)}"): '
                    f"the round already ended {ended} ({result.end}){over}: trailing actions"
                )
            if len(log.reshuffles) != len(rnd.reshuffles):
                raise RecordError(self.reshuffle_mismatch(rnd, len(log.reshuffles)))
            if rnd.result is None:
                raise RecordError(
                    f"round {index + 1}: the replay ends the round ({describe_end(result)}), "
                    "but the record gives no result"
                )
            difference = _difference(rnd.result, result.public())
            if difference is not None:
                raise RecordError(f"round {index + 1}: the recorded result differs from the replay: {difference}")
            self.checked += 1

    @staticmethod
    def reshuffle_mismatch(rnd: RoundRecord, used: int) -> str:
        return (
            f"round {rnd.round}: the record gives {len(rnd.reshuffles)} reshuffle order(s), "
            f"but the replay reshuffled {used} time(s) (R4.3)"
        )

    def check_outcome(self, game: Game) -> None:
        record = self.record
        if not game.is_over:
            if record.winner is not None:
                raise RecordError(
                    f"outcome: the record says seat {record.winner} won, but after round {game.round} "
                    f"the game goes on ({self.waiting(game)})"
                )
            return
        places = tuple(standing.place for standing in sorted(game.standings, key=lambda s: s.seat))
        if record.winner is None:
            raise RecordError(
                f"outcome: missing: the game is over (seat {game.winner} won) but the record has no [outcome]"
            )
        if record.winner != game.winner:
            raise RecordError(
                f"outcome: the record says seat {record.winner} won, the replay seat {game.winner} (R2.5)"
            )
        if record.places != places:
            raise RecordError(
                f"outcome: the record gives places {_toml_ints(record.places or ())}, "
                f"the replay {_toml_ints(places)} (R2.5)"
            )


def _strip_round(message: str, number: int) -> str:
    prefix = f"round {number}: "
    return message[len(prefix) :] if message.startswith(prefix) else message


_COMPARED: Final = (
    "end", "knocker", "blitz", "hands", "values", "losses", "remaining", "eliminated", "saved_by_r2_6", "turns",
)  # fmt: skip


def _difference(recorded: RoundResult, replayed: RoundResult) -> str | None:
    """The first field in which two results differ, in words; ``None`` if they agree. The
    losses' words (``reason``) are for people and are not read."""
    for name in _COMPARED:
        mine, theirs = getattr(recorded, name), getattr(replayed, name)
        if mine != theirs:
            return f"{name}: the record says {_describe(name, mine)}, the replay {_describe(name, theirs)}"
    return None


def _describe(name: str, value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if name == "knocker":
        return f"seat {value}"
    if name in ("blitz", "eliminated"):
        return ", ".join(f"seat {seat}" for seat in value) if value else "nobody"
    if name == "hands":
        shown = [f"seat {seat} {format_cards(hand)}" for seat, hand in enumerate(value) if hand is not None]
        return ", ".join(shown) if shown else "none shown"
    if name == "values":
        shown = [f"seat {seat} {_toml_value(v)}" for seat, v in enumerate(value) if v is not None]
        return ", ".join(shown) if shown else "none shown"
    if name == "losses":
        losses = [
            f"seat {loss.seat} lost {loss.lives} ({loss.rule} {loss.kind}"
            + (f", naming seat {', '.join(map(str, loss.seats))}" if loss.seats else "")
            + ")"
            for loss in value
        ]
        return ", ".join(losses) if losses else "no losses"
    if name == "remaining":
        return _toml_ints(value)
    return str(value)
