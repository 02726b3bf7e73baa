"""Bursts of keys on every screen of the terminal game (issue 29, item 11).

A paste, a key held down over SSH or a slow machine delivers several keys before the app has
handled the first: two ``enter`` at the showdown closed it once and then asked Textual to pop a
screen that was gone (``ScreenStackError``, a traceback, exit status 0). Here the keys of a burst
are all handed to the driver before the app reads any of them, as a terminal delivers them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Awaitable
from collections.abc import Callable
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot

from support.tui import SIZE
from support.tui import assert_replays
from support.tui import make_app
from support.tui import offered_keys
from support.tui import settle
from support.tui import to_game_over
from support.tui import to_my_move
from thirtyone.record import GameRecord
from thirtyone.tui.app import ThirtyOneApp
from thirtyone.tui.review_screen import ReviewScreen
from thirtyone.tui.screens import GameOverScreen
from thirtyone.tui.screens import RoundEndScreen
from thirtyone.views import Phase

KEYS = (
    *"abcdefghijklmnoprstuvwxyz",  # q quits: its bursts are tested on their own
    *"ABDEFHKLNPSTWX",
    *"0123456789",
    "space",
    "full_stop",
    "enter",
    "escape",
    "question_mark",
    "tab",
    "backspace",
    "up",
    "down",
    "left",
    "right",
    "home",
    "pagedown",
    "f1",
)
"""Every key a person may press at the table, and some that mean nothing to the game."""

BURST = 4
"""Keys in one burst."""


async def burst(app: ThirtyOneApp, pilot: Pilot[None], keys: list[str]) -> None:
    """Hand every key of ``keys`` to the app at once, as a paste does, then let it handle them."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        try:
            char: str | None = unicodedata.lookup(key.upper().replace("_", " "))
        except KeyError:
            char = key if len(key) == 1 else None
        event = events.Key(key, char)
        event.set_sender(app)
        driver.send_message(event)
    await pilot.pause()
    await settle(app, pilot)
    await pilot.pause()


async def to_showdown(app: ThirtyOneApp, pilot: Pilot[None]) -> None:
    """Play offered keys until a showdown shows."""
    for presses in range(2000):
        await settle(app, pilot)
        if isinstance(app.screen, RoundEndScreen):
            return
        if isinstance(app.screen, GameOverScreen):
            await pilot.press("n")
            continue
        keys = offered_keys(app)
        await pilot.press(keys[presses % len(keys)] if keys else "k")
    raise AssertionError("no showdown came")


async def to_review(app: ThirtyOneApp, pilot: Pilot[None]) -> None:
    """Play on to the final standings and open the review of the game (``r``)."""
    await to_game_over(app, pilot)
    await pilot.press("r")
    await settle(app, pilot)


async def to_phase(app: ThirtyOneApp, pilot: Pilot[None], phase: Phase) -> None:
    """Play on until the person is to move in ``phase``."""
    for presses in range(2000):
        await to_my_move(app, pilot)
        if app.session.view().phase is phase:
            return
        keys = offered_keys(app)
        await pilot.press(keys[presses % len(keys)])
    raise AssertionError(f"the person never came to move in {phase}")


Reach = Callable[[ThirtyOneApp, Pilot[None]], Awaitable[None]]

SCREENS: dict[str, tuple[dict[str, object], Reach, Callable[[ThirtyOneApp], bool]]] = {
    "draw": ({}, lambda app, pilot: to_phase(app, pilot, Phase.TURN), lambda app: len(app.screen_stack) == 1),
    "discard": (
        {},
        lambda app, pilot: to_phase(app, pilot, Phase.DISCARD),
        lambda app: len(app.screen_stack) == 1,
    ),
    "widow": (
        {"preset": "widow"},
        lambda app, pilot: to_phase(app, pilot, Phase.TURN),
        lambda app: len(app.screen_stack) == 1,
    ),
    "look": (
        {"throw_down": True},
        lambda app, pilot: to_phase(app, pilot, Phase.LOOK),
        lambda app: len(app.screen_stack) == 1,
    ),
    "dealer-choice": (
        {"preset": "schwimmen", "players": 2},
        lambda app, pilot: to_phase(app, pilot, Phase.DEALER_CHOICE),
        lambda app: len(app.screen_stack) == 1,
    ),
    "showdown": ({}, to_showdown, lambda app: isinstance(app.screen, RoundEndScreen)),
    "game-over": ({"lives": 1}, to_game_over, lambda app: isinstance(app.screen, GameOverScreen)),
    "review": ({"lives": 1}, to_review, lambda app: isinstance(app.screen, ReviewScreen)),
}


@pytest.mark.parametrize("screen", list(SCREENS))
async def test_item11_every_screen_takes_a_burst_of_every_key(screen: str) -> None:
    """Seed 5 (and the others' fixed seeds): a burst of each key on each screen; the app must
    survive every one of them, and the screen is reached again before the next burst."""
    options, reach, on_screen = SCREENS[screen]
    options = dict(options)
    preset = str(options.pop("preset", "scat"))
    players = int(options.pop("players", 3))  # type: ignore[call-overload]
    if screen not in ("game-over", "review"):
        options.setdefault("lives", 20)
    app = make_app(preset, players, 5, **options)
    async with app.run_test(size=SIZE) as pilot:
        for key in KEYS:
            if not on_screen(app):
                await reach(app, pilot)
            assert on_screen(app), key
            await burst(app, pilot, [key] * BURST)
            assert app.is_running, key
            assert app._exception is None, (key, app._exception)
    assert app.return_code in (None, 0)


async def test_item11_two_enters_at_the_showdown_close_it_once() -> None:
    """The issue's case: ``thirtyone play --seed 5``, ``k``, then two ``enter`` at once."""
    app = make_app("scat", 4, 5)
    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)
        await pilot.press("k")
        await settle(app, pilot)
        assert isinstance(app.screen, RoundEndScreen)
        rounds = app.game.round
        await burst(app, pilot, ["enter", "enter"])
        assert app._exception is None
        assert len(app.screen_stack) == 1  # closed once: the next round's table
        assert app.game.round == rounds + 1  # dealt once the showdown closed
        await to_my_move(app, pilot)
        assert app.session.view().phase is Phase.TURN


@pytest.mark.parametrize("keys", [["n", "n", "n"], ["n", "enter", "s", "n"]])
async def test_item11_a_burst_at_the_final_standings_starts_one_game(keys: list[str]) -> None:
    app = make_app("scat", 2, 5, lives=1)
    async with app.run_test(size=SIZE) as pilot:
        await to_game_over(app, pilot)
        await burst(app, pilot, keys)
        assert app._exception is None
        assert app.session.game_number == 2
        assert not isinstance(app.screen, GameOverScreen)


async def test_a_burst_of_keys_while_the_review_is_being_made_changes_nothing_it_should_not() -> None:
    """``r r r r`` opens one review; a burst of ``tab`` while reviews are being made leaves one
    being made at most; ``esc esc`` goes back to the standings once (the second is the
    standings' "nothing now"), and ``n`` there deals one game."""
    app = make_app("scat", 3, 5, lives=1, review_worlds=300)
    async with app.run_test(size=SIZE) as pilot:
        await to_game_over(app, pilot)
        await burst(app, pilot, ["r"] * BURST)
        assert isinstance(app.screen, ReviewScreen)
        assert len(app.screen_stack) == 3
        review = app.screen
        await burst(app, pilot, ["tab"] * (BURST + 1))
        assert review.seat == (BURST + 1) % 3
        assert set(review.reviews) == {0, review.seat}  # the reviews stopped on the way are not kept
        await burst(app, pilot, ["escape", "escape"])
        assert isinstance(app.screen, GameOverScreen)
        assert app._exception is None
        await burst(app, pilot, ["n"])
        assert app.session.game_number == 2
        assert not isinstance(app.screen, GameOverScreen | ReviewScreen)


@pytest.mark.parametrize("key", ["q", "Q", "ctrl+q", "ctrl+c"])
async def test_item11_a_burst_of_quit_keys_quits_once(key: str) -> None:
    app = make_app("scat", 3, 5)
    async with app.run_test(size=SIZE) as pilot:
        await to_showdown(app, pilot)
        await burst(app, pilot, [key] * BURST)
    assert app._exception is None
    assert app.return_code == 0


async def test_item11_bursts_while_the_terminal_is_too_small_change_nothing() -> None:
    app = make_app("scat", 3, 5)
    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        events_before = len(app.game.events)
        for key in KEYS:
            await burst(app, pilot, [key] * BURST)
        assert len(app.game.events) == events_before
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        await burst(app, pilot, ["s", "1"])
        assert len(app.game.events) > events_before


WAYS_OUT = ("q", "Q", "ctrl+q", "ctrl+c")


async def send_at_once(app: ThirtyOneApp, pilot: Pilot[None], keys: list[str]) -> None:
    """Hand every key of ``keys`` to the app at once (as :func:`burst`), then wait until it has
    handled them or ended."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        driver.send_message(event)
    for _ in range(200):
        if not app.is_running:
            return
        await pilot.pause()


@pytest.mark.parametrize("way_out", WAYS_OUT)
@pytest.mark.parametrize("moves", [["k"], ["s", "1"], ["p", "2"]], ids=["knock", "draw-discard", "pile"])
async def test_issue40_keys_typed_before_a_way_out_are_played_and_saved_first(
    tmp_path: Path, moves: list[str], way_out: str
) -> None:
    """Issue 40, item 1: ``thirtyone play --seed 5 --record x.toml``, then on the first turn
    ``k`` (or ``s 1``, ``p 2``) and a way out typed in one burst. The way out was a priority
    binding, handled before the keys queued ahead of it: the record ended before them. Every
    way out (``q`` asks first mid-round: typed twice) comes after the moves typed before it."""
    path = tmp_path / "x.toml"
    app = make_app("scat", 4, 5, record=path)
    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)
        before = len(app.game.events)
        await send_at_once(app, pilot, [*moves, way_out, way_out])
    assert not app.is_running
    assert app._exception is None
    record = GameRecord.loads(path.read_text(encoding="utf-8"))
    played = [pair for log in record.rounds for pair in log.actions]
    mine = [action for seat, action in played if seat == 0]
    assert len(app.game.events) > before
    expected = {"k": ["knock"], "s": ["draw stock", "discard"], "p": ["draw pile", "discard"]}[moves[0]]
    shown = [str(action) for action in mine[: len(expected)]]
    assert [text.partition(" ")[0] if text.startswith("discard") else text for text in shown] == expected, mine
    assert_replays(record, app.game)
