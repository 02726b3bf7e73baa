"""One bot turn (thirtyone.bots.turn), used by the runner, the arena, the server, the terminal game
and the bench: a bot's move is checked against its view's legal actions, and a bot that raises,
returns something illegal or something the engine refuses gives a BotFailure naming it, its seat
and its move, its own text escaped; the game is then as it was."""

from __future__ import annotations

import pytest

from helpers import snapshot
from thirtyone import Game
from thirtyone import IllegalActionError
from thirtyone import Knock
from thirtyone import Rules
from thirtyone.arena.play import play_safely
from thirtyone.bots import make_bot
from thirtyone.bots.runner import BotError
from thirtyone.bots.runner import bot_action
from thirtyone.bots.runner import play_game
from thirtyone.bots.turn import BotFailure
from thirtyone.bots.turn import choose
from thirtyone.bots.turn import play_turn


class Raising:
    name = "raiser"

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def choose(self, view, legal):
        raise self.error


class Returning:
    name = "returner"

    def __init__(self, action: object) -> None:
        self.action = action

    def choose(self, view, legal):
        return self.action


def fresh() -> Game:
    return Game(Rules.preset("scat"), 3, seed=11)


def test_a_legal_move_is_played():
    game = fresh()
    seat = game.current_seat
    assert play_turn(game, make_bot("basic", 1)) is None
    assert game.round_logs[0].actions[0][0] == seat


@pytest.mark.parametrize(
    ("bot", "action", "reason"),
    [
        (Raising(ValueError("no idea\nat all")), None, "raised ValueError: no idea"),
        (Raising(ZeroDivisionError()), None, "raised ZeroDivisionError"),
        (Returning("knock"), "'knock'", "chose 'knock' (not an action), which is not legal now"),
        (Returning(None), "None", "chose None (not an action), which is not legal now"),
    ],
)
def test_a_failing_bot_gives_a_failure_and_changes_nothing(bot, action, reason):
    game = fresh()
    seat = game.current_seat
    before = snapshot(game)
    failure = play_turn(game, bot)
    assert isinstance(failure, BotFailure)
    assert (failure.seat, failure.bot, failure.action, failure.reason) == (seat, bot.name, action, reason)
    assert str(failure) == f"bot {bot.name} in seat {seat} {reason}"
    assert snapshot(game) == before


def test_an_action_illegal_now_is_a_failure():
    game = fresh()
    game.apply("knock")
    failure = play_turn(game, Returning(Knock()))  # a second knock (R6.1)
    assert isinstance(failure, BotFailure)
    assert failure.reason == "chose knock, which is not legal now"


def test_a_bots_own_text_is_escaped():
    game = fresh()
    failure = play_turn(game, Raising(RuntimeError("\x1b]0;PWNED\x07\x1b[2J")))
    assert isinstance(failure, BotFailure)
    assert "\x1b" not in str(failure)
    assert "\\x1b]0;PWNED\\x07" in failure.reason


def test_an_interrupt_is_not_a_failure():
    with pytest.raises(KeyboardInterrupt):
        play_turn(fresh(), Raising(KeyboardInterrupt()))


def test_the_engine_refusing_a_move_the_view_allowed_is_a_failure(monkeypatch):
    game = fresh()

    def refuse(action, seat=None):
        raise IllegalActionError("R0.0: no", code="draw_first")

    monkeypatch.setattr(game, "apply", refuse)
    failure = play_turn(game, make_bot("basic", 1))
    assert isinstance(failure, BotFailure)
    assert failure.reason.endswith("the engine refused it: R0.0: no")


def test_no_turn_to_play_is_the_engines_refusal():
    game = Game(Rules.preset("scat", lives=1), 2, seed=3)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="over"):
        play_turn(game, make_bot("basic"))
    chancy = Game(Rules.preset("scat"), 2, seed=3, explicit_chance=True)
    with pytest.raises(IllegalActionError) as refused:
        play_turn(chancy, make_bot("basic"))
    assert refused.value.code == "chance_due"


def test_the_runner_and_the_arena_say_a_failure_the_same_way():
    game = fresh()
    expected = str(play_turn(game.copy(), Returning("knock")))
    with pytest.raises(BotError) as raised:
        bot_action(Returning("knock"), game.view(game.current_seat))
    assert str(raised.value) == expected
    assert choose(make_bot("basic", 1), game.view(game.current_seat)) in game.legal_actions()
    with pytest.raises(BotError, match="raised ValueError: no idea"):
        play_game(Rules.preset("scat"), [Raising(ValueError("no idea"))] * 3, seed=11)


def test_the_arena_escapes_a_plugin_bots_error(monkeypatch):
    import thirtyone.arena.play as arena_play

    monkeypatch.setattr(arena_play, "make_bot", lambda name, seed: Raising(RuntimeError("\x1b]0;PWNED\x07")))
    _game, failure = play_safely(Rules.preset("scat"), ["plug", "plug"], 5, [1, 2])
    assert failure is not None
    assert "\x1b" not in failure.error
    assert "\\x1b]0;PWNED\\x07" in failure.error
