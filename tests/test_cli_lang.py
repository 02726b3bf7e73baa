"""``thirtyone play --lang`` and the environment's language: a malformed code is a one-line error
(exit 2); a language the terminal game does not speak (Urdu: terminals neither shape nor reorder
it) is said in one line, on the screen first and on standard error after, and the game plays in
English, never in a mix."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from cli_helpers import cli_error_line
from support.tui import SIZE
from support.tui import captured_apps
from support.tui import language_environment
from support.tui import make_app
from support.tui import play_command
from support.tui import screen_text
from thirtyone.cli import main
from thirtyone.tui.language import terminal_language


@pytest.mark.parametrize("bad", ["ko;rm -rf /", "--", "k", "ko_KR.UTF-8.extra.x!", "\u0627\u0631\u062f\u0648"])
def test_a_malformed_lang_is_a_one_line_error(capsys: pytest.CaptureFixture[str], bad: str) -> None:
    line = cli_error_line(capsys, ["play", f"--lang={bad}"])
    assert "--lang" in line
    assert "give a language code such as ko" in line


@pytest.mark.parametrize(
    ("args", "env", "lang"),
    [
        (["--lang", "ko"], {}, "ko"),
        (["--lang", "de-AT"], {}, "de"),
        (["--lang", "km"], {}, "km"),
        (["--lang", "ms"], {"LANG": "de_DE.UTF-8"}, "ms"),
        ([], {"LANG": "cs_CZ.UTF-8"}, "cs"),
        ([], {"LANGUAGE": "de:en", "LANG": "C"}, "de"),
        ([], {"LC_MESSAGES": "ko_KR.UTF-8"}, "ko"),
    ],
)
def test_lang_and_the_environment_choose_the_screens_language_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], env: dict[str, str], lang: str
) -> None:
    app = play_command(monkeypatch, args, env)
    assert app.settings.lang == lang
    assert app.translate.lang == lang
    assert app.settings.notice is None
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (["--lang", "ur"], {}, "Urdu needs right-to-left shaping that terminals do not do"),
        (["--lang", "tlh"], {}, 'Language "tlh" is not available; playing in English.'),
        ([], {"LC_ALL": "ur_PK.UTF-8", "LANG": "en_US.UTF-8"}, "Urdu needs"),
    ],
)
def test_a_language_the_terminal_game_does_not_speak_is_said_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], env: dict[str, str], said: str
) -> None:
    app = play_command(monkeypatch, args, env)
    assert app.settings.lang == "en"
    assert app.settings.notice is not None
    assert said in app.settings.notice
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("thirtyone: ")
    assert said in err[0]


def test_a_language_not_spoken_is_said_before_the_game_naming_those_spoken(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``play --lang xx`` said so on standard error only after the game (issue 42)."""
    from thirtyone.tui.app import ThirtyOneApp

    language_environment(monkeypatch, {})
    captured_apps(monkeypatch)
    said_before: list[str] = []
    monkeypatch.setattr(ThirtyOneApp, "run", lambda app: said_before.append(capsys.readouterr().err))
    assert main(["play", "--lang", "xx"]) == 0
    assert said_before == [
        'thirtyone: Language "xx" is not available; playing in English. --lang takes en, de, cs, ms, km or ko.\n'
    ]
    assert capsys.readouterr().err == "", "said once"


def test_review_says_a_language_it_does_not_speak_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``thirtyone review --lang ur`` printed its notice wrapped to two lines on standard error."""
    argv = ["simulate", "--bots", "random", "--players", "2", "--games", "1", "--lives", "1", "--seed", "2"]
    assert main([*argv, "--record", str(tmp_path / "records")]) == 0
    capsys.readouterr()
    record = tmp_path / "records" / "game-000001.toml"
    assert main(["review", str(record), "--budget", "20:engine", "--seat", "0", "--json", "--lang", "ur"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(
        "thirtyone: Urdu needs right-to-left shaping that terminals do not do: reviewing in English"
    )


def test_a_broken_catalog_plays_in_english_with_its_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    from thirtyone import i18n
    from thirtyone.tui import language

    broken = i18n.Messages("en", i18n.messages("en").translations, "The ko messages are broken; showing English.")
    monkeypatch.setattr(language, "messages", lambda lang: broken if lang == "ko" else i18n.messages(lang))
    assert terminal_language("ko", {}) == ("en", "The ko messages are broken; playing in English.")


@pytest.mark.parametrize(
    "env", [{}, {"LANG": "C.UTF-8"}, {"LANG": "POSIX"}, {"LANG": "en_GB.UTF-8"}, {"LANG": "fr_FR"}]
)
def test_english_or_an_unknown_environment_plays_quietly_in_english(env: dict[str, str]) -> None:
    assert terminal_language(None, env) == ("en", None)


async def test_the_notice_is_the_first_thing_the_screen_says() -> None:
    app = make_app()
    lang, notice = terminal_language("ur", {})
    assert lang == "en"
    app.settings = replace(app.settings, notice=notice)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Urdu needs right-to-left shaping" in text
        assert "Players" in text  # the table itself, in English
