"""The terminal game under Textual's pilot: an app of given settings whose expert is ready at once,
waiting for its bots and hints, ending a paced bot's pause, what the screen shows as text, the keys
the key line offers, and playing on to a given moment (the person's move, a widow on the table,
the final standings), and ``thirtyone play`` up to the app it would run."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.pilot import Pilot

from thirtyone import Game
from thirtyone import Rules
from thirtyone.cli import main
from thirtyone.cli import play as play_cli
from thirtyone.events import GameOver
from thirtyone.events import RoundEnded
from thirtyone.events import RoundStarted
from thirtyone.record import GameRecord
from thirtyone.tui.app import ThirtyOneApp
from thirtyone.tui.keys import WaitingFor
from thirtyone.tui.prepare import Preparation
from thirtyone.tui.review_screen import ReviewScreen
from thirtyone.tui.screens import GameOverScreen
from thirtyone.tui.screens import RoundEndScreen
from thirtyone.tui.settings import PlaySettings
from thirtyone.tui.widgets import KeyBar
from thirtyone.views import PlayerView

SIZE = (80, 24)
KEY_NAMES = {"esc": "escape", ".": "full_stop"}
HINT_WORLDS = 30
"""The hint budget in the tests: a number of sampled deals, so hints are the same on every machine."""
REVIEW_WORLDS = 10
"""The review's budget in the tests (deals a decision): small, so that a game's review takes a moment."""


def ready_preparation() -> Preparation:
    """A preparation of the expert that has ended already: the tests that do not test the
    preparation never wait for it (their searches load the simulator themselves)."""
    preparation = Preparation(lambda: None)
    preparation.wait()
    return preparation


def ada_moves_first(players: int) -> int:
    """A seed of ``scat`` whose first turn is Ada's (seat 1), so that the bots move before the person."""
    return next(s for s in range(100) if Game(Rules.preset("scat"), players, seed=s).current_seat == 1)


def make_app(
    preset: str = "scat",
    players: int = 4,
    seed: int | None = 1,
    *,
    preparation: Preparation | None = None,
    **options: object,
) -> ThirtyOneApp:
    bots = str(options.pop("bots", "basic"))
    record = options.pop("record", None)
    overwrite = bool(options.pop("overwrite", False))
    name = str(options.pop("name", "you"))
    fast = bool(options.pop("fast", True))
    delay = float(options.pop("delay", 0.8))  # type: ignore[arg-type]
    hint_worlds = int(options.pop("hint_worlds", HINT_WORLDS))  # type: ignore[call-overload]
    review_worlds = int(options.pop("review_worlds", REVIEW_WORLDS))  # type: ignore[call-overload]
    lang = str(options.pop("lang", "en"))
    rules = Rules.preset(preset, **options)
    settings = PlaySettings.create(
        rules,
        players,
        bots,
        seed=seed,
        fast=fast,
        name=name,
        record=record,  # type: ignore[arg-type]
        delay=delay,
        hint_worlds=hint_worlds,
        overwrite=overwrite,
        lang=lang,
        review_worlds=review_worlds,
    )
    return ThirtyOneApp(settings, preparation=preparation or ready_preparation())


async def settle(app: ThirtyOneApp, pilot: Pilot[None]) -> None:
    """Wait until no bot is thinking on its thread and every hint has been worked out."""
    for _ in range(1000):
        if not app.pacing.thinking and not app.workers:
            return
        await app.workers.wait_for_complete()
        await pilot.pause()
    raise AssertionError("a bot never stopped thinking")


UNENDING_PAUSE = 3600.0
"""A paced bot's pause in seconds (``app.pacing.delay``, longer than ``--delay`` allows) that never
ends by itself in a test: the test ends each pause when it chooses, with :func:`end_bot_pause`, so
that no machine is too slow for it."""


async def end_bot_pause(app: ThirtyOneApp, pilot: Pilot[None]) -> None:
    """End the pause of the paced bot to move now, as its timer does once the app's ``delay`` has
    passed (:meth:`~thirtyone.tui.pacing.BotPacing.end_pause`): the bot plays its whole turn, the
    app shows it, and the next bot's pause begins. Raises AssertionError when no bot is paced, or
    the bot to move searches (its pause ends with ``f``)."""
    assert app.waiting_for == WaitingFor.BOTS, app.waiting_for
    assert not app.pacing.fast, "fast bots have no pause"
    assert not app.session.bot_thinks(), "a searching bot's pause ends with f"
    app.pacing.cancel()
    app.pacing.end_pause()
    await pilot.pause()


_ROW = re.compile(r'<text [^>]*\bx="([\d.]+)"[^>]*clip-path="url\(#[\w-]+-line-(\d+)\)">([^<]*)</text>')
"""A run of text in Textual's SVG screenshot: its x (the column times the cell's width), its row, its
characters (spaces as ``&#160;``; a row's end, past its last column, as a newline)."""
_CELL = re.compile(r'<clipPath id="[\w-]+-line-0">\s*<rect [^>]*\bwidth="([\d.]+)"')
"""The first row's clip in the screenshot: as wide as the terminal's columns."""


def screen_text(app: ThirtyOneApp) -> str:
    """What the terminal shows now, as plain text, a line a row as wide as the terminal (the screen
    and any screen under a modal), read from Textual's public screenshot,
    :meth:`textual.app.App.export_screenshot`: an SVG whose runs of text each lie on one row's clip
    path at x = column × the cell's width (blank runs are left out: spaces)."""
    svg = app.export_screenshot()
    width, height = app.size
    clip = _CELL.search(svg)
    assert clip is not None, "no row in the screenshot"
    cell = float(clip.group(1)) / width
    rows: list[list[tuple[int, str]]] = [[] for _ in range(height)]
    for x, row, text in _ROW.findall(svg):
        rows[int(row)].append((round(float(x) / cell), html.unescape(text).replace("\xa0", " ").rstrip("\n")))
    lines = []
    for runs in rows:
        line, column = "", 0
        for at, text in sorted(runs):
            line += " " * (at - column) + text
            column = at + cell_len(text)
        lines.append(line + " " * (width - column))
    return "\n".join(lines)


def plain(widget: object) -> str:
    content = widget.content  # type: ignore[attr-defined]
    return content.plain if isinstance(content, Text) else str(content)


def offered_keys(app: ThirtyOneApp) -> list[str]:
    keys = [key for key in app.query_one(KeyBar).keys if key not in ("f", "q", "?")]
    return [KEY_NAMES.get(key, key) for key in keys]


async def to_my_move(app: ThirtyOneApp, pilot: Pilot[None]) -> None:
    """Close showdowns until the person is to move."""
    for _ in range(50):
        await settle(app, pilot)
        if isinstance(app.screen, RoundEndScreen):
            await pilot.press("enter")
        elif app.session.human_to_move:
            return
        else:
            await pilot.pause()
    raise AssertionError("the person never got a move")


async def play_until(
    app: ThirtyOneApp,
    pilot: Pilot[None],
    reached: Callable[[PlayerView], bool],
    keys: Callable[[PlayerView], str] = lambda view: "space",
    tries: int = 20,
) -> PlayerView:
    """Close showdowns and play the person's moves (the key ``keys`` gives for the view: ``space``,
    the first offered move, by default) until it is the person's move in a view where ``reached``
    holds, at most ``tries`` moves; returns that view. Raises AssertionError if it never comes."""
    for _ in range(tries):
        await to_my_move(app, pilot)
        view = app.session.view()
        if reached(view):
            return view
        await pilot.press(keys(view))
    raise AssertionError(f"not reached in {tries} moves of the person")


async def knock_to_showdown(app: ThirtyOneApp, pilot: Pilot[None], tries: int = 100) -> RoundEndScreen:
    """Knock (``k``) at every move of the person until a showdown shows, at most ``tries`` moves;
    returns its screen. Raises AssertionError if none comes."""
    for _ in range(tries):
        if isinstance(app.screen, RoundEndScreen):
            return app.screen
        await to_my_move(app, pilot)
        await pilot.press("k")
    raise AssertionError(f"no showdown in {tries} moves of the person")


async def to_widow(app: ThirtyOneApp, pilot: Pilot[None]) -> PlayerView:
    """Play on until the person is to move with a widow on the table (a widow preset); returns that view."""
    return await play_until(app, pilot, lambda view: view.widow is not None)


async def to_game_over(app: ThirtyOneApp, pilot: Pilot[None]) -> None:
    """Play offered keys until the final standings show (back from their review: ``esc``)."""
    for presses in range(4000):
        await settle(app, pilot)
        if isinstance(app.screen, GameOverScreen):
            return
        if isinstance(app.screen, ReviewScreen):
            await pilot.press("escape")
            continue
        if isinstance(app.screen, RoundEndScreen):
            await pilot.press("enter")
            continue
        keys = offered_keys(app)
        await pilot.press(keys[presses % len(keys)] if keys else "k")
    raise AssertionError("the game never ended")


def assert_replays(record: GameRecord, game: Game) -> None:
    """``record`` replays to ``game`` as played. One saved while a showdown showed holds the next
    deal too (a record holds every round begun, and replays only so): its replay goes on to that
    deal, past the game's events."""
    replayed = record.replay().events
    assert replayed[: len(game.events)] == game.events
    later = replayed[len(game.events) :]
    assert not later or game.is_chance(), later  # only while the next deal waits
    assert all(isinstance(event, (RoundStarted, RoundEnded, GameOver)) for event in later), later


def state(app: ThirtyOneApp) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """The number of events and the cards picked (hand, widow): what an offered key changes."""
    return len(app.game.events), tuple(app.controls.picked_hand), tuple(app.controls.picked_widow)


async def play_to_end(app: ThirtyOneApp, pilot: Pilot[None], seed: int, max_presses: int = 4000) -> int:
    """Press keys offered on the key line (chosen at random) and close every showdown with enter
    until the final standings show; returns the number of showdowns seen. Every offered key
    must change something."""
    rng = random.Random(seed)
    showdowns = 0
    for _ in range(max_presses):
        await settle(app, pilot)
        screen = app.screen
        if isinstance(screen, GameOverScreen):
            return showdowns
        if isinstance(screen, RoundEndScreen):
            showdowns += 1
            text = screen_text(app)
            for _ in range(100):  # a showdown just pushed may not be laid out yet (a loaded machine)
                if text.strip():
                    break
                await pilot.pause(0.02)
                text = screen_text(app)
            assert f"Round {screen.result.round}:" in text
            for seat, hand in enumerate(screen.result.hands):
                if hand is not None:
                    assert " ".join(card.pretty for card in hand) in text, (seat, text)
            await pilot.press("enter")
            continue
        keys = offered_keys(app)
        text = screen_text(app)
        assert keys, f"no key offered:\n{text}"
        for hint in app.query_one(KeyBar).hints:
            assert f" {hint.keys} " in text
        before = state(app)
        key = rng.choice(keys)
        await pilot.press(key)
        assert state(app) != before, f"key {key} did nothing:\n{screen_text(app)}"
        assert "red" not in str(app.feedback.style), app.feedback.plain  # an offered key is never refused
    raise AssertionError(f"no game over after {max_presses} presses:\n{screen_text(app)}")


def captured_apps(monkeypatch: pytest.MonkeyPatch) -> list[ThirtyOneApp]:
    """The apps ``thirtyone play`` makes from now on, caught instead of run (nothing autosaved, the
    terminal taken as interactive)."""
    apps: list[ThirtyOneApp] = []
    monkeypatch.setattr(ThirtyOneApp, "run", lambda app: apps.append(app))
    monkeypatch.setattr(ThirtyOneApp, "autosave", lambda app: None)
    monkeypatch.setattr(play_cli, "interactive", lambda: True)
    return apps


def language_environment(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    """An environment whose language variables are only those of ``env``."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)


def play_command(monkeypatch: pytest.MonkeyPatch, args: list[str], env: dict[str, str]) -> ThirtyOneApp:
    """``thirtyone play ARGS`` in the environment ``env`` (no other language variable set), up to
    the app it would run."""
    language_environment(monkeypatch, env)
    apps = captured_apps(monkeypatch)
    assert main(["play", *args]) == 0
    assert len(apps) == 1
    return apps[0]
