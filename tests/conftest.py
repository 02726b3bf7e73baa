from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# No time limit on an example: a loaded CI machine made slow examples fail on their speed, and
# speed is measured in benchmarks/, not asserted in tests.
settings.register_profile("thirtyone", deadline=None)
settings.load_profile("thirtyone")


@pytest.fixture(autouse=True, scope="session")
def _history_elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test keeps a game in the user's own history (``thirtyone play`` keeps each finished
    game under ``$XDG_DATA_HOME``: thirtyone.tui.history); the programs tests start inherit it."""
    patch = pytest.MonkeyPatch()
    patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    yield
    patch.undo()


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real server whose bots play at once, one for each browser test module
    (see test_web_e2e.running_server)."""
    from test_web_e2e import running_server  # only the browser tests start one

    with running_server(tmp_path_factory.mktemp(request.module.__name__)) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, one for each browser test module."""
    from playwright.sync_api import sync_playwright  # only the browser tests need Playwright

    from test_web_e2e import ARGS
    from test_web_e2e import CHROMIUM

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()
