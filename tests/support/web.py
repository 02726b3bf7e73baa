"""The browser at a real test server: ``thirtyone serve`` in a subprocess (its randomness seeded,
or its deals pinned by tests/web_pinned.py), Debian's Chromium driven by Playwright (sync API), and
what a person does on its pages (join, seat, play a move, ask a hint, close a showdown) and waits
for.

Importing it skips the importing test module when chromium or Playwright is missing, unless
``THIRTYONE_REQUIRE_BROWSER=1`` (CI), where that fails instead."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.processes import free_port
from support.server import SEED
from support.server import table_body

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 20_000  # the longest any one UI change may take
HINT_WAIT_S = 60
"""The test servers' ``--hint-wait``: a server's first hint loads the expert's compiled kernels on
its hint worker (compiles them, in a fresh clone), which on a loaded machine outlasts the default."""

_MISSING = not CHROMIUM.exists() or importlib.util.find_spec("playwright") is None
if _MISSING and os.environ.get("THIRTYONE_REQUIRE_BROWSER") != "1":
    pytest.skip(
        "needs /usr/bin/chromium and playwright (THIRTYONE_REQUIRE_BROWSER=1 requires them)", allow_module_level=True
    )

from playwright.sync_api import Browser  # noqa: E402
from playwright.sync_api import Locator  # noqa: E402
from playwright.sync_api import Page  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

expect.set_options(timeout=WAIT_MS)  # a loaded machine (two browsers, bots, the server) may be slow


def get_json(url: str) -> Any:
    """The JSON a GET of ``url`` answers."""
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


def post_json(url: str, body: dict[str, Any]) -> Any:
    """The JSON a POST of ``body`` (as JSON) to ``url`` answers."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


@contextlib.contextmanager
def running_server(folder: Path, *options: str, port: int | None = None, pinned: str | None = None) -> Iterator[str]:
    """A real server on ``port`` (default: a free one) with an SQLite file in ``folder``, bots
    that play at once and its randomness seeded (``--seed``: its tables' chains, first dealers and
    bots' seeds are the same every run; ``options``: more ``thirtyone serve`` options); yields its
    base URL. With
    ``pinned`` (64 hex digits) its deals are pinned (tests/web_pinned.py)."""
    port = port or free_port()
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[2] / "src"))
    process = subprocess.Popen(
        [
            sys.executable,
            *(("-m", "thirtyone") if pinned is None else (str(Path(__file__).parents[1] / "web_pinned.py"), pinned)),
            *("serve", "--port", str(port), "--bot-delay", "0"),
            *("--showdown-timeout", "0"),  # the bots wait for no showdown to be closed (options may ask for it)
            *("--hint-wait", str(HINT_WAIT_S)),
            *("--seed", str(SEED)),  # as every test server's: options may give another
            *("--log-level", "warning", "--database-url", f"sqlite:///{folder / 'web.db'}"),
            *(
                "--table-burst",
                "1000",
                "--requests-per-second",
                "1000",
                "--connections-per-second",
                "1000",
            ),  # every page and test here is 127.0.0.1 (options may ask for the server's own limits)
            *options,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(folder / "server.log").open("w"),
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            try:
                if get_json(f"{base}/api/health")["ok"]:
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {(folder / 'server.log').read_text()}")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_until(page: Page, expression: str, seconds: float = WAIT_MS / 1000) -> None:
    """Wait up to ``seconds`` until ``expression`` is true in ``page`` (polled with ``evaluate``,
    which the pages' Content-Security-Policy allows; Playwright's ``wait_for_function`` evaluates a
    string, which it forbids, as it should: no ``eval``)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        page.wait_for_timeout(25)


def watched(page: Page, console: list[str]) -> Page:
    """``page``, its script errors and console errors (a Content-Security-Policy refusal is one)
    collected in ``console``."""
    page.on("pageerror", lambda error: console.append(f"script error: {error}"))
    page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    return page


def new_page(browser: Browser, **options: Any) -> Page:
    page = browser.new_context(**options).new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def join_by_ui(page: Page, base: str, code: str, name: str) -> None:
    page.goto(f"{base}/t/{code}")
    page.fill("#join-name", name)
    page.click("#join-form button[type=submit]")
    expect(page.locator("#join")).to_be_hidden()
    expect(page.locator("body")).to_have_attribute("data-role", "player")


SHOWDOWN_OPEN = "document.getElementById('showdown-foot')?.hidden === false"
"""Whether the page shows a round's showdown that its person is to close (the next round waits)."""


HINT_ANSWERED = (
    "(() => { const hint = document.getElementById('hint-text').textContent;"
    " const alert = document.getElementById('alert');"
    " return (hint !== '' && !hint.endsWith('…')) || (!alert.hidden && alert.textContent !== ''); })()"
)
"""Whether the hint asked for is answered: its words (not the "thinking…" line), or an alert."""


def ask_hint(page: Page, tries: int = 3) -> None:
    """Press ``?`` for the expert's hint, and again a moment later when an alert answered instead
    ("busy": the hint worker is taken by hints other tests asked), as a person would."""
    for _ in range(tries):
        page.keyboard.press("?")
        wait_until(page, HINT_ANSWERED, HINT_WAIT_S + 5)
        if page.evaluate("document.getElementById('alert').hidden"):
            return
        page.wait_for_timeout(1000)
    raise AssertionError(f"no hint: {page.locator('#alert').text_content()}")


def close_showdown(page: Page) -> bool:
    """Close the showdown if the page shows one (its button, clicked in the page: it may close by
    itself meanwhile, when the next round began without this person). Returns whether it did."""
    return bool(
        page.evaluate(
            "() => { const open = " + SHOWDOWN_OPEN + "; if (open) document.getElementById('showdown-close').click();"
            " return open; }"
        )
    )


def play_one(page: Page) -> bool:
    """Close the showdown if the page shows one, else click one action button if it shows any (knock
    first, to keep games short) and wait for the next state, or for the showdown of the round it
    ended. Returns whether it did either."""
    if close_showdown(page):
        return True
    buttons = page.locator("#actions-section:not([hidden]) #actions button:not([disabled])")
    if buttons.count() == 0:
        return False
    seq = page.get_attribute("body", "data-seq")
    knock = page.locator("#actions button[data-action=knock]")
    (knock if knock.count() else buttons.first).click()
    wait_until(page, f"document.body.dataset.seq !== {json.dumps(seq)} || {SHOWDOWN_OPEN}")
    return True


def my_turn(page: Page) -> None:
    """Wait for a turn of this page's person (closing the showdowns on the way: each holds the next
    round until its person closes it)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while not page.locator("#actions button").first.is_visible():
        assert time.monotonic() < deadline, "no turn came"
        if not close_showdown(page):
            page.wait_for_timeout(25)


PHONE = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}


def seated_page(browser: Browser, base: str, created: dict[str, Any], **options: Any) -> Page:
    """A page holding the seat of ``created`` (the answer of POST /api/tables with a name)."""
    page = new_page(browser, **options)
    page.goto(f"{base}/")
    page.evaluate(
        "([key, token]) => localStorage.setItem(key, token)", [f"thirtyone.token.{created['code']}", created["token"]]
    )
    page.goto(f"{base}/t/{created['code']}")
    expect(page.locator("body")).to_have_attribute("data-role", "player")
    return page


def create_table(
    base: str, preset: str, seats: list[str], *, name: str | None = "Ann", **settings: Any
) -> dict[str, Any]:
    """Create a table on the server at ``base``, its host Ann (``settings`` as
    :func:`support.server.table_body` takes them); returns the answer."""
    return dict(post_json(f"{base}/api/tables", table_body(seats, preset=preset, name=name, **settings)))


def offered_actions(page: Page) -> list[str]:
    return [
        str(page.locator("#actions button[data-action]").nth(i).get_attribute("data-action"))
        for i in range(page.locator("#actions button[data-action]").count())
    ]


def two_people(browser: Browser, base: str) -> tuple[dict[str, Any], Page, Page]:
    """Ann (created through the API, her host token kept as the lobby keeps it) and Ben (joined by
    the page), at a scat table of two; returns the creation answer and both pages."""
    created = create_table(base, "scat", ["human", "human"], lives=3)
    ann = seated_page(browser, base, created)
    ann.evaluate(
        "([key, token]) => localStorage.setItem(key, token)",
        [f"thirtyone.host.{created['code']}", created["host_token"]],
    )
    ben = new_page(browser)
    join_by_ui(ben, base, created["code"], "Ben")
    return created, ann, ben


# ---------------------------------------------------------------------------------------------- pinned deals

KEY = "5a" * 32
"""The salt chain every table of the pinned server deals from (tests/web_pinned.py)."""
SEEDS = ("00112233445566778899aabbccddeeff", "ffeeddccbbaa99887766554433221100")
"""The people's client seeds, by person: with KEY and the bots' play, every game here is one game."""
SIZES = {"laptop": (1280, 800), "desktop": (1920, 1080), "phone": (390, 844)}


def seat_people(
    browser: Browser,
    base: str,
    seats: list[str],
    people: int = 1,
    viewport: tuple[int, int] = SIZES["laptop"],
    lang: str = "en",
    **options: Any,
) -> tuple[str, list[Page]]:
    """A table of ``seats`` ("human" or a bot level) whose first ``people`` human seats are taken
    by pages, each joined with its pinned seed (the last join starts the game); returns the code
    and the pages, in seat order."""
    created = post_json(
        f"{base}/api/tables",
        {
            "preset": options.pop("preset", "scat"),
            "options": options,
            "seats": [{"type": "human"} if s == "human" else {"type": "bot", "level": s} for s in seats],
        },
    )
    code = created["code"]
    pages = []
    for person, name in zip(range(people), ("Ann", "Ben", "Cleo"), strict=False):
        joined = post_json(f"{base}/api/tables/{code}/join", {"name": name, "seed": SEEDS[person]})
        page = new_page(browser, viewport={"width": viewport[0], "height": viewport[1]})
        page.goto(f"{base}/")
        page.evaluate(
            "([key, token, lang]) => { localStorage.setItem(key, token);"
            " localStorage.setItem('thirtyone.lang', lang); }",
            [f"thirtyone.token.{code}", joined["token"], lang],
        )
        page.goto(f"{base}/t/{code}")
        expect(page.locator("body")).to_have_attribute("data-role", "player")
        pages.append(page)
    return code, pages


def play_a_turn(page: Page, knock: bool = True) -> None:
    """One move of this page's person if it is their turn: knock if ``knock`` and the rules let,
    else draw from the stock, or discard the first card; then wait for the next state (or the
    showdown that move led to)."""
    moves = "#actions-section:not([hidden]) #actions button"
    knocks = page.locator(f"{moves}[data-action=knock]")
    draw = page.locator(f"{moves}[data-action='draw stock']")
    discard = page.locator(f"{moves}[data-action^='discard ']")
    press(page, knocks if knock and knocks.count() else draw if draw.count() else discard.first)


def press(page: Page, button: Locator) -> str | None:
    """Click ``button`` when it shows and wait for the next state or a showdown; the seq before the
    click, or ``None`` (after a short wait) when the button is not there."""
    if not button.count():
        page.wait_for_timeout(25)
        return None
    seq = page.get_attribute("body", "data-seq")
    button.click()
    wait_until(page, f"document.body.dataset.seq !== {json.dumps(seq)} || {SHOWDOWN_OPEN}")
    return seq
