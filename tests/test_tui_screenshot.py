"""A picture of the terminal game for the README: a 100x30 headless terminal at the person's first
move, saved as SVG (Textual's own screenshot) to docs/screenshots/terminal.svg when
THIRTYONE_SCREENSHOTS=1, else to a temporary folder."""

from __future__ import annotations

import os
from pathlib import Path

from support.tui import make_app
from support.tui import screen_text
from support.tui import to_my_move


async def test_a_screenshot_of_the_terminal_game(tmp_path: Path) -> None:
    folder = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
    if os.environ.get("THIRTYONE_SCREENSHOTS") != "1":
        folder = tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    app = make_app("scat", 4, 7)
    async with app.run_test(size=(100, 30)) as pilot:
        await to_my_move(app, pilot)
        await pilot.pause()
        saved = Path(app.save_screenshot("terminal.svg", str(folder)))
        assert saved == folder / "terminal.svg"
        text = saved.read_text(encoding="utf-8")
        assert text.startswith("<svg")
        assert "You" in screen_text(app)
