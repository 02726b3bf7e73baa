"""Paced bots with no pause, or one shorter than a timer can keep: ``thirtyone play --delay 0``
(without ``--fast``) froze the game. Textual's one-shot timer of 0 seconds divided by zero on its
own task, so the bots never moved and quitting raised the error, and one of a few nanoseconds
(``--delay 1e-9``) found its moment gone before it first looked and never fired. Each pause now
plays the bot's turn after ``delay`` seconds, however short."""

from __future__ import annotations

import pytest

from support.tui import SIZE
from support.tui import ada_moves_first
from support.tui import make_app
from support.tui import offered_keys
from support.tui import play_until
from support.tui import to_my_move
from thirtyone.cli import main
from thirtyone.views import PlayerView


@pytest.mark.parametrize("delay", [0.0, 1e-9])
async def test_paced_bots_with_a_pause_of_next_to_nothing_play_on_to_the_persons_move(delay: float) -> None:
    seed = ada_moves_first(3)
    app = make_app("scat", 3, seed, fast=False, delay=delay)
    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)  # Ada's turn, then Bea's
        seats = [seat for seat, _ in app.game.round_logs[0].actions]
        assert seats[0] == 1, seats
        assert 2 in seats, seats
        assert not app.pacing.fast

        def bots_moved_after_the_person(view: PlayerView) -> bool:
            seats = [seat for seat, _ in app.game.round_logs[-1].actions]
            return app.game.round > 1 or (0 in seats and seats[-1] != 0)

        await play_until(app, pilot, bots_moved_after_the_person, lambda view: offered_keys(app)[0], tries=5)
        await pilot.press("q", "q")  # quits cleanly (run_test raises what the app raised)
    assert app.return_code == 0


@pytest.mark.parametrize(
    ("delay", "said"),
    [
        ("-1", "--delay -1.0: give a pause from 0 to 10 seconds"),
        ("-0.001", "--delay -0.001: give a pause from 0 to 10 seconds"),
        ("nan", "--delay nan: give a pause from 0 to 10 seconds"),
        ("inf", "--delay inf: give a pause from 0 to 10 seconds"),
        ("10.5", "--delay 10.5: give a pause from 0 to 10 seconds"),
        ("soon", "--delay 'soon': give a number of seconds"),
    ],
)
def test_a_delay_outside_0_to_10_seconds_is_one_line(delay: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--delay", delay]) == 2
    assert capsys.readouterr().err == f"thirtyone: error: {said}\n"
