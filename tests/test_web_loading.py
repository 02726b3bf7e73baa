"""A page loads whatever else comes from its address (the real server with its own request limits,
and Debian's Chromium driven by Playwright, as in test_web_e2e): a family on one Wi-Fi opens one
table in five browsers at the same moment and every page loads, since the pages' files are never
refused by the per-address request budget; and a page one of whose files fails to load says so in
the reader's language and loads itself again, instead of staying blank.

Skipped when chromium or Playwright is missing, unless ``THIRTYONE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.web import CHROMIUM
from support.web import WAIT_MS
from support.web import post_json
from support.web import running_server

if not CHROMIUM.exists():  # pragma: no cover - support.web skipped the module already
    pytest.skip("needs chromium", allow_module_level=True)

from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import Route
from playwright.sync_api import expect

LOADED = re.compile(r"^(player|spectator)$")
"""The page's modules ran and its WebSocket said welcome (``body[data-role]``)."""


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with the default request limits (20 requests a second, 40 at once, per address)."""
    defaults = ("--requests-per-second", "20", "--connections-per-second", "5", "--table-burst", "10")
    with running_server(tmp_path_factory.mktemp("loading"), *defaults) as base:
        yield base


def test_one_table_opened_in_five_browsers_at_once_from_one_address_loads_everywhere(
    limited: str, browser: Browser
) -> None:
    code = post_json(f"{limited}/api/tables", {"seats": [{"type": "human"}, {"type": "human"}, {"type": "bot"}]})[
        "code"
    ]
    pages: list[Page] = []
    for _ in range(5):
        page = browser.new_context().new_page()
        page.set_default_timeout(WAIT_MS)
        pages.append(page)
    failed: list[str] = []
    for page in pages:
        page.on("response", lambda answer: failed.append(answer.url) if answer.status == 429 else None)
    for page in pages:  # each returns once its HTML arrives: the five pages' files load together
        page.goto(f"{limited}/t/{code}", wait_until="commit")
    for page in pages:
        expect(page.locator("body")).to_have_attribute("data-role", LOADED)
        expect(page.locator("#load-failed")).to_be_hidden()
        expect(page.locator("#code")).to_have_text(code)
    assert failed == []
    for page in pages:
        page.context.close()


@pytest.mark.parametrize(("lang", "words"), [("en", "did not load completely"), ("de", "nicht vollständig geladen")])
def test_a_page_whose_file_fails_to_load_says_so_and_loads_again(
    server: str, browser: Browser, tmp_path: Path, lang: str, words: str
) -> None:
    context = browser.new_context(locale=lang)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    refused: list[str] = []

    def once(route: Route) -> None:  # the first try of one module fails, as a refused or lost request would
        if not refused:
            refused.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route("**/static/js/howto.js", once)
    page.goto(f"{server}/", wait_until="commit")
    notice = page.locator("#load-failed")
    expect(notice).to_be_visible()
    assert words in notice.inner_text()
    expect(notice).to_be_hidden()  # loaded again by itself, whole this time
    expect(page.locator("#seat-2")).to_be_attached()  # the lobby's modules ran
    assert len(refused) == 1
    context.close()
