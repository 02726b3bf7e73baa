"""The pages in every language, as a reader of it sees them (the real server, Debian's Chromium):
for each language the browser asks for (Accept-Language and navigator.languages, Playwright's
``locale``), the lobby, your turn, a showdown and the game's end at 1280x800 and 375x667, each
screenshot (with THIRTYONE_SCREENSHOTS=1, under ``docs/screenshots/languages/``) and
checked: the page is in that language
(``<html lang>``; Urdu ``dir="rtl"`` and mirrored, cards still left to right), no English word of the
catalog's shows up, no text is clipped by its box, and no character is drawn with a font that lacks
it (Chromium's own account of the fonts that rendered each text node). Then the switch: another
language chosen on one page is remembered on the next, a spectator reads their own language, and a
language nobody has gives English with a one-line notice.

Skipped when chromium or Playwright is missing, unless ``THIRTYONE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.web import CHROMIUM
from support.web import PHONE
from support.web import my_turn
from support.web import new_page
from support.web import play_one
from support.web import post_json
from support.web import seated_page

if not CHROMIUM.exists():  # pragma: no cover - support.web skipped the module already
    pytest.skip("needs chromium", allow_module_level=True)

from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect

from thirtyone.i18n import LANGUAGES

SHOTS = (
    Path(__file__).resolve().parent.parent / "docs" / "screenshots" / "languages"
    if os.environ.get("THIRTYONE_SCREENSHOTS") == "1"
    else None
)
"""Where the pictures go: docs/ when THIRTYONE_SCREENSHOTS=1 (the README shows some), else nowhere
(nothing here looks at them, and a picture costs more than the checks of its page)."""
SIZES = {"laptop": {"viewport": {"width": 1280, "height": 800}}, "phone": PHONE}

# The fonts that may draw each script (the page's CSS names them; .ci/run installs them).
SCRIPT_FONTS = {
    "khmer": (re.compile(r"[\u1780-\u17ff]"), ("Noto Sans Khmer", "Khmer OS")),
    "arabic": (re.compile(r"[\u0600-\u06ff]"), ("Noto Nastaliq Urdu", "Noto Naskh Arabic", "Noto Sans Arabic")),
    "hangul": (re.compile(r"[\uac00-\ud7af]"), ("NanumBarunGothic", "NanumGothic")),
}

# Every text node the page shows, its element's box and whether the box clips it.
_TEXTS = """() => {
  // the text itself (a range over it, not its element's box) beyond an ancestor that hides what
  // overflows; an ancestor that scrolls ends the search (the text is reachable), and an ellipsis
  // is a deliberate cut with the whole text one hover away
  const cutByAncestor = (node, el) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.textOverflow === "ellipsis") return false;
      if (/auto|scroll/.test(st.overflowX + st.overflowY)) return false;
      const box = a.getBoundingClientRect();
      const where = (low, high) => `${a.tagName}.${a.className}: the text at ${Math.round(r[low])}-`
        + `${Math.round(r[high])}, the box ${Math.round(box[low])}-${Math.round(box[high])}`;
      if (/hidden|clip/.test(st.overflowX) && (r.left < box.left - 1 || r.right > box.right + 1)) {
        return where("left", "right");
      }
      if (/hidden|clip/.test(st.overflowY) && (r.top < box.top - 2 || r.bottom > box.bottom + 2)) {
        return where("top", "bottom");
      }
    }
    return false;
  };
  // words for a screen reader only, shown to no one: a box clipped to nothing (.sr-only, and on a
  // phone a move's full words, whose short words are shown), recognised by that style, not a class
  const unseen = (el) => {
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.position === "absolute" && st.clip === "rect(0px, 0px, 0px, 0px)") return true;
    }
    return false;
  };
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.data.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest("[hidden], script, style, option, [aria-hidden=true]") || unseen(el)) continue;
    if (!el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") continue;
    const clips = style.overflowX !== "visible" || style.overflowY !== "visible";
    const wide = el.scrollWidth > el.clientWidth + 1 && clips && el.clientWidth > 0;
    const tall = el.scrollHeight > el.clientHeight + 2 && clips && el.clientHeight > 0 && style.overflowY !== "auto";
    const own = (wide || tall) && style.textOverflow !== "ellipsis" && style.overflowX !== "auto";
    found.push({ text, tag: el.tagName, id: el.id, cls: el.className && String(el.className),
      clipped: own || cutByAncestor(node, el) });
  }
  return found;
}"""


_OWN_TEXT = "function () { return [...this.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join(''); }"


def _table(base: str, **options: Any) -> dict[str, Any]:
    body = {
        "preset": "scat",
        "name": "Ann",
        "options": options,
        "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}],
    }
    return dict(post_json(f"{base}/api/tables", body))


def _english_words(lang: str) -> set[str]:
    """Longer English words of the catalog that the language's own catalog does not use: one of
    them on the page is an untranslated message."""
    from thirtyone.i18n import catalog_json

    english = catalog_json("en")["messages"]
    own = catalog_json(lang)["messages"]
    words: set[str] = set()
    for value in english.values():
        for text in value.values() if isinstance(value, dict) else [value]:
            words.update(w for w in re.findall(r"[A-Za-z]{6,}", text))
    ours = " ".join(text for value in own.values() for text in (value.values() if isinstance(value, dict) else [value]))
    return {w for w in words if w not in ours}


def check_page(page: Page, lang: str, what: str) -> None:
    """The checks every screen passes in every language (see the module docstring)."""
    assert page.evaluate("document.documentElement.lang") == lang, what
    direction = page.evaluate("document.documentElement.dir")
    assert direction == ("rtl" if lang == "ur" else "ltr"), what
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), f"{what}: scrolls sideways"
    texts = page.evaluate(_TEXTS)
    clipped = [t for t in texts if t["clipped"]]
    assert not clipped, f"{lang} {what}: text clipped by its box: {clipped[:3]}"
    if lang != "en":
        english = _english_words(lang)
        shown = {w for t in texts for w in re.findall(r"[A-Za-z]{6,}", t["text"]) if w in english}
        assert not shown, f"{lang} {what}: English words on the page: {sorted(shown)[:8]}"
    _check_fonts(page, lang, what)


def _elements(node: dict[str, Any]) -> Iterator[tuple[int, str]]:
    """The elements under ``node`` of a DOM.getDocument tree but scripts and styles, in document
    order (as ``querySelectorAll("body *:not(script):not(style)")`` lists them), each with its own
    text (that of its text children)."""
    for child in node.get("children", ()):
        if child["nodeType"] == 1:
            if child["localName"] not in ("script", "style"):
                own = "".join(c["nodeValue"] for c in child.get("children", ()) if c["nodeType"] == 3)
                yield child["nodeId"], own
            yield from _elements(child)


def _body(node: dict[str, Any]) -> dict[str, Any] | None:
    if node.get("localName") == "body":
        return node
    for child in node.get("children", ()):
        found = _body(child)
        if found is not None:
            return found
    return None


def _check_fonts(page: Page, lang: str, what: str) -> None:
    """Each element whose text has Khmer, Arabic-script or Hangul characters is drawn, by
    Chromium's account (CSS.getPlatformFontsForNode), with a font that has that script; a missing
    glyph would be counted under another font (the tofu box of the first one). The elements and
    their own texts come from one snapshot of the document (DOM.getDocument, text nodes
    included); only those with such text are asked for their fonts."""
    session = page.context.new_cdp_session(page)
    try:
        session.send("DOM.enable")
        session.send("CSS.enable")
        body = _body(session.send("DOM.getDocument", {"depth": -1})["root"])
        assert body is not None, what
        checked = 0
        for node, own in itertools.islice(_elements(body), 600):
            scripts = [(script, wanted) for script, (pattern, wanted) in SCRIPT_FONTS.items() if pattern.search(own)]
            if not scripts:
                continue
            try:
                fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
            except Exception:  # a node gone meanwhile (the page lives): nothing to check there
                continue
            if not fonts:
                continue
            families = {font["familyName"] for font in fonts}
            for script, wanted in scripts:
                checked += 1
                assert families & set(wanted), f"{lang} {what}: {script} text {own[:30]!r} drawn with {families}"
        if lang in ("km", "ur", "ko"):
            assert checked > 0, f"{lang} {what}: no text of the language's script was found"
    finally:
        session.detach()
    # and the page's own check: every character shown is covered by the fonts it names
    chars = page.evaluate("[...new Set(document.body.innerText)].filter((c) => c.trim()).join('')")
    assert page.evaluate("(c) => document.fonts.check('16px sans-serif', c)", chars), f"{lang} {what}"


def _showdown_on_my_turn(page: Page) -> bool:
    """Open the last round's showdown on my turn, when nothing moves under it, with the chip for the
    last result: the showdown that the round's end shows hides on its own after a while (or at a
    bot's move of the next round), the one the chip opens stays. False before any round has ended."""
    if page.locator("#actions-section:not([hidden]) #actions button:not([disabled])").count() == 0:
        return False
    result, chip = page.locator("#result"), page.locator("#last-result")
    if not result.is_visible() and not chip.is_visible():
        return False  # still the first round
    expect(chip).to_be_visible(timeout=10_000)  # the round's own showdown ends, its chip shows
    chip.click()
    expect(result).to_be_visible()
    return True


def _shot(page: Page, lang: str, size: str, name: str) -> None:
    if SHOTS is None:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{lang}-{size}-{name}.png"))


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_round_and_a_game_in_each_language(server: str, browser: Browser, lang: str, size: str) -> None:
    options = {**SIZES[size], "locale": lang, "reduced_motion": "reduce"}  # still pictures: nothing in flight
    lobby = new_page(browser, **options)
    try:
        lobby.goto(f"{server}/")
        expect(lobby.locator("#preset option").first).to_be_attached()
        expect(lobby.locator("#lang-switch")).to_have_value(lang)
        _shot(lobby, lang, size, "lobby")
        check_page(lobby, lang, "lobby")
    finally:
        lobby.context.close()
    created = _table(server, lives=3, grace_life=False)  # no round can end it: a showdown first
    page = seated_page(browser, server, created, **options)
    try:
        my_turn(page)
        expect(page.locator("#status")).not_to_be_empty()
        _shot(page, lang, size, "your-turn")
        check_page(page, lang, "your turn")
        if lang == "ur":  # mirrored: the side panel (or the tools) on the left, the hand still left to right
            assert page.evaluate("getComputedStyle(document.querySelector('#hand')).direction") == "ltr"
            assert page.evaluate("getComputedStyle(document.querySelector('.topbar')).direction") == "rtl"
            if size == "laptop":
                side = page.locator("#side").bounding_box()
                stage = page.locator("#stage").bounding_box()
                assert side is not None
                assert stage is not None
                assert side["x"] < stage["x"], "the side panel stands on the left of a right-to-left page"
        rounds_seen = False
        while not page.locator("#over").is_visible():
            if not rounds_seen and _showdown_on_my_turn(page):
                rounds_seen = True
                _shot(page, lang, size, "showdown")
                check_page(page, lang, "showdown")
            if not play_one(page):
                page.wait_for_timeout(50)
        if not rounds_seen:  # a 31 ended the game before my first move of a later round: its end shows the showdown
            expect(page.locator("#result")).to_be_visible()
            _shot(page, lang, size, "showdown")
            check_page(page, lang, "showdown")
        expect(page.locator("#winner")).not_to_be_empty()
        _shot(page, lang, size, "game-over")
        check_page(page, lang, "game over")
    finally:
        page.context.close()


def test_the_switch_is_remembered_and_each_reader_has_their_own_language(server: str, browser: Browser) -> None:
    created = _table(server)
    player = seated_page(browser, server, created, locale="de")
    watcher = new_page(browser, locale="ko")
    try:
        expect(player.locator("html")).to_have_attribute("lang", "de")
        watcher.goto(f"{server}/t/{created['code']}")
        expect(watcher.locator("html")).to_have_attribute("lang", "ko")
        expect(watcher.locator("#tab-log")).to_have_text("기록")
        player.select_option("#lang-switch", "cs")
        expect(player.locator("html")).to_have_attribute("lang", "cs")
        expect(player.locator("#tab-log")).to_have_text("Průběh")
        player.goto(f"{server}/")  # remembered on the next page
        expect(player.locator("html")).to_have_attribute("lang", "cs")
        expect(player.locator("#code-heading")).to_have_text("Připojit se kódem")
        expect(watcher.locator("html")).to_have_attribute("lang", "ko")  # the other reader keeps theirs
    finally:
        player.context.close()
        watcher.context.close()


@pytest.mark.parametrize("asked", ["tlh", "x<script>", "zz-ZZ"])
def test_an_unknown_language_gives_english_with_a_notice(server: str, browser: Browser, asked: str) -> None:
    page = new_page(browser)
    try:
        page.goto(f"{server}/?lang={asked}")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        notice = page.locator(".lang-notice")
        expect(notice).to_have_count(1)
        expect(notice).to_contain_text("is not available; showing English")
        expect(page.locator("#code-heading")).to_have_text("Join with a code")
    finally:
        page.context.close()


def test_a_browser_asking_for_no_language_of_ours_reads_english_without_a_notice(server: str, browser: Browser) -> None:
    page = new_page(browser, locale="fr-FR")
    try:
        page.goto(f"{server}/")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator(".lang-notice")).to_have_count(0)
    finally:
        page.context.close()


@pytest.mark.parametrize(
    ("lang", "own", "not_own"),
    [
        ("de", r"\bDu (ziehst|nimmst|legst|klopfst)\b", r"\bDu: (zieht|nimmt|legt|klopft)\b"),
        ("cs", r"\bVy (lížete|berete|odhazujete|klepete)\b", r"\bVy: (líže|bere|odhazuje|klepe)\b"),
    ],
)
def test_your_own_moves_are_conjugated_for_you(
    server: str, browser: Browser, lang: str, own: str, not_own: str
) -> None:
    """The log says "Du ziehst vom Talon" of your moves; "Ada: zieht vom Talon" stays for the others."""
    page = seated_page(
        browser, server, _table(server, lives=9), **SIZES["laptop"], locale=lang, reduced_motion="reduce"
    )
    try:
        for _ in range(2):
            my_turn(page)
            play_one(page)
        log = page.locator("#log").inner_text()
        assert re.search(own, log), log
        assert not re.search(not_own, log), log
    finally:
        page.context.close()
