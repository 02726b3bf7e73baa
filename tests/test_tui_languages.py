"""The terminal game in every language it speaks, played as a person would at 80×24: a whole game
through the keys in each language and preset, the screen read at the person's turn, at each
showdown and at the final standings. Nothing English shows in a translated game (every word of
the English catalog that the language's catalog does not also use is looked for), every panel's
lines fit the panel, and Khmer — whose vowel signs Rich counts as no cell and many terminals as
one — is laid out in Khmer as those terminals draw it, every border in its place."""

from __future__ import annotations

import functools
import random
import re

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.pilot import Pilot

from support.tui import SIZE
from support.tui import make_app
from support.tui import screen_text
from support.tui import settle
from thirtyone.engine import Game
from thirtyone.i18n import load_catalog
from thirtyone.rules import Rules
from thirtyone.tui.app import ThirtyOneApp
from thirtyone.tui.cells import terminal_width
from thirtyone.tui.language import TERMINAL_LANGUAGES
from thirtyone.tui.screens import GameOverScreen
from thirtyone.tui.screens import RoundEndScreen
from thirtyone.tui.widgets import KeyBar
from thirtyone.tui.widgets import SeatsPanel
from thirtyone.tui.widgets import TablePanel
from thirtyone.tui.words import say_plural

TRANSLATED = [lang for lang in TERMINAL_LANGUAGES if lang != "en"]
WORD = re.compile(r"[A-Za-z]{4,}")
OPTION = re.compile(r"--[a-z][a-z-]*(?:=[^\s█│]+)?")
"""A command-line option and its value (``--bots=basic,random``): code, said as typed in every language."""
ALLOWED = {
    # names, the game's proper names and what the keys are called on a keyboard
    "Thirty", "Scat", "Blitz", "Schwimmen", "Namu", "Feuer",
    "enter", "space", "seed",
}  # fmt: skip


@functools.cache
def _catalog_words(lang: str) -> frozenset[str]:
    words: set[str] = set()
    for message in load_catalog(lang):
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        for form in forms:
            for literal in re.split(r"\{[a-z_]+\}", form):
                words |= {word.lower() for word in WORD.findall(literal)}
    return frozenset(words)


@functools.cache
def english_only_words(lang: str) -> frozenset[str]:
    """Words of the English catalog that the catalog of ``lang`` never uses (read once a language)."""
    return _catalog_words("en") - _catalog_words(lang) - {word.lower() for word in ALLOWED}


def check_screen(app: ThirtyOneApp, lang: str, english: frozenset[str], seen: list[str]) -> None:
    text = screen_text(app)
    seen.append(text)
    if lang != "en":
        leaked = {word for word in WORD.findall(OPTION.sub("", text)) if word.lower() in english}
        names = {"Ada", "Bea", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal"}
        assert not leaked - names, f"{lang}: English on the screen: {sorted(leaked - names)}\n{text}"
    if len(app.screen_stack) == 1:
        for panel in (app.query_one(SeatsPanel), app.query_one(TablePanel)):
            content = panel.content
            assert isinstance(content, Text)
            width = panel.content_size.width
            for line in content.split():
                assert line.cell_len <= width, f"{lang}: {line.plain!r} is wider than its panel ({width})"
        keys = app.query_one(KeyBar).content
        assert isinstance(keys, Text)
        assert all(line.cell_len <= app.size.width for line in keys.split())
    for line in text.splitlines():
        assert cell_len(line.rstrip()) <= app.size.width
        if lang == "km":  # laid out as a wcwidth terminal draws it: every border where Textual put it
            assert terminal_width(line.rstrip()) == cell_len(line.rstrip()), f"{line!r}"


async def play_a_game(app: ThirtyOneApp, pilot: Pilot[None], lang: str, seed: int) -> list[str]:
    """Press offered keys at random and close every showdown until the standings show; read the
    screen at the person's turns, the showdowns and the standings."""
    english = english_only_words(lang)
    rng = random.Random(seed)
    seen: list[str] = []
    for _ in range(3000):
        await settle(app, pilot)
        screen = app.screen
        if isinstance(screen, GameOverScreen):
            check_screen(app, lang, english, seen)
            return seen
        if isinstance(screen, RoundEndScreen):
            check_screen(app, lang, english, seen)
            await pilot.press("enter")
            continue
        if not app.session.human_to_move:
            await pilot.pause()
            continue
        if len(seen) < 40:
            check_screen(app, lang, english, seen)
        keys = [key for key in app.query_one(KeyBar).keys if key not in ("f", "q", "?")]
        key = rng.choice(keys)
        await pilot.press({"esc": "escape", ".": "full_stop"}.get(key, key))
        if "1" in keys and "4" in keys and app.session.view().rules.mode == "widow":
            await pilot.press(rng.choice(["4", "5", "6"]))  # a pick wants its partner
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("lang", TERMINAL_LANGUAGES)
@pytest.mark.parametrize(("preset", "seed"), [("scat", 3), ("widow", 4), ("schwimmen", 5)])
async def test_a_whole_game_in_each_language_at_80x24(lang: str, preset: str, seed: int) -> None:
    app = make_app(preset, 4, seed, lang=lang, bots="basic,heuristic,random", lives=2)  # every screen, fewer rounds
    async with app.run_test(size=SIZE) as pilot:
        seen = await play_a_game(app, pilot, lang, seed)
        assert app.game.is_over
        assert app.translate.lang == lang
        names = app.session.names
        assert all(names[standing.seat] in seen[-1] for standing in app.game.standings)
        log = "\n".join(app.log_lines)
        assert log, "nothing was logged"
        if lang != "en":
            english = english_only_words(lang)
            leaked = {word for word in WORD.findall(log) if word.lower() in english}
            assert not leaked - {"Ada", "Bea", "Cy"}, f"{lang}: English in the log: {sorted(leaked)}"


@pytest.mark.parametrize("lang", TRANSLATED)
async def test_the_hint_and_the_answers_to_keys_are_translated(lang: str) -> None:
    app = make_app("scat", 3, 2, lang=lang)
    english = english_only_words(lang)
    async with app.run_test(size=SIZE) as pilot:
        while not app.session.human_to_move:
            await settle(app, pilot)
            await pilot.pause()
        await pilot.press("question_mark")
        await settle(app, pilot)
        hint = app.hints.text.plain
        assert hint
        assert not {word for word in WORD.findall(hint) if word.lower() in english}, hint
        await pilot.press("z")  # a key that means nothing now
        answer = app.feedback.plain
        assert "z" in answer
        assert not {word for word in WORD.findall(answer) if word.lower() in english}, answer
        await pilot.press("f")
        assert not {word for word in WORD.findall(app.feedback.plain) if word.lower() in english}


def test_the_leak_check_finds_english() -> None:
    """The English words looked for are real ones: a German screen with an English line is caught."""
    english = english_only_words("de")
    assert {"stock", "discard", "knocked"} <= english
    assert "talon" not in english
    assert terminal_width("សាមញ្ញ") == 5 > cell_len("សាមញ្ញ")


@pytest.mark.parametrize("lang", ["ko", "km"])
async def test_wide_and_combining_scripts_keep_the_table_in_80_columns(lang: str) -> None:
    app = make_app("scat", 9, 6, lang=lang, name="王小明")
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(20):
            await settle(app, pilot)
            if app.session.human_to_move:
                break
            await pilot.pause()
        check_screen(app, lang, english_only_words(lang), [])
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        check_screen(app, lang, english_only_words(lang), [])


async def test_r4_2_a_kept_word_too_long_for_its_card_gives_the_rule_instead() -> None:
    """Czech "zůstává" does not fit the five cells under a card: the rule id stands there, not a cut word."""
    app = make_app("scat", 4, 5, lang="cs")
    async with app.run_test(size=SIZE) as pilot:
        while not app.session.human_to_move:
            await settle(app, pilot)
            await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        content = app.query_one(TablePanel).content
        assert isinstance(content, Text)
        assert app.session.view().taken_from_pile is not None
        assert "R4.2" in content.plain
        assert "zůstá" not in content.plain


@pytest.mark.parametrize(("lang", "own", "other"), [("de", "Du ziehst", ": zieht"), ("cs", "Vy lížete", ": líže")])
async def test_the_persons_own_moves_are_conjugated_for_you(lang: str, own: str, other: str) -> None:
    """German and Czech say "Du ziehst vom Talon", not "Du: zieht"; the others stay "Ada: zieht"."""
    app = make_app("scat", 3, 2, lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(6):
            while not app.session.human_to_move:
                await settle(app, pilot)
                await pilot.pause()
            await pilot.press("s")
            await pilot.press("1")
            await settle(app, pilot)
            if isinstance(app.screen, RoundEndScreen):
                break
        log = "\n".join(app.log_lines)
        assert own in log
        assert other in log
        assert f"{own.split()[0]}{other}" not in log  # not "Du: zieht"


async def test_a_long_status_never_hides_the_quit_key() -> None:
    """German widow picks make a two-line status; the key line keeps its three rows, q included."""
    app = make_app("widow", 4, 21, lang="de", exchange="any")
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(30):
            await settle(app, pilot)
            view = app.session.view()
            if app.session.human_to_move and view.widow is not None and view.phase.name == "TURN":
                break
            if app.session.human_to_move:
                await pilot.press("space" if view.phase.name == "TURN" else "h")
            await pilot.pause()
        await pilot.press("1", "2", "4", "5")
        await pilot.pause()
        rows = app.query_one(KeyBar).content
        assert isinstance(rows, Text)
        assert len(rows.plain.splitlines()) == 3  # the case: a key line of three rows
        assert "beenden" in screen_text(app).splitlines()[-1]


async def test_rich_counts_khmer_as_terminals_do_only_while_a_khmer_game_runs() -> None:
    assert cell_len("សាមញ្ញ") == 4
    app = make_app("scat", 3, 2, lang="km")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert cell_len("សាមញ្ញ") == 5 == terminal_width("សាមញ្ញ")
    assert cell_len("សាមញ្ញ") == 4


def _long_discard_pile(seed: int) -> Game:
    """A 4-player scat round where nobody knocks: stock draws and discards until the pile holds 30 cards."""
    game = Game(Rules.preset("scat"), players=4, seed=seed)
    while game.view(0).discard_size < 30:
        assert game.round == 1, "a 31 ended the round: take another seed"
        legal = game.legal_actions()
        game.apply(next((a for a in legal if str(a) == "draw stock"), next(a for a in legal if str(a) != "knock")))
    return game


@pytest.mark.parametrize("lang", TERMINAL_LANGUAGES)
async def test_a_long_discard_pile_is_counted_in_words_at_80x24(lang: str) -> None:
    """Two digits of cards in the pile still say what they count, next to the pile's label."""
    app = make_app("scat", 4, 3, lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = _long_discard_pile(1)
        panel = app.query_one(TablePanel)
        for seat in range(4):
            view = game.view(seat)
            panel.show(view, app.controls)
            first = panel.content.plain.splitlines()[0]  # type: ignore[union-attr]
            count = say_plural(app.translate, "tui.table.in_pile", view.discard_size).plain
            assert first.endswith(count), f"{lang}: {first!r}"
            assert cell_len(first) <= panel.content_size.width
