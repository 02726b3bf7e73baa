"""No face reads the engine's English (docs/architecture.md, "Data, not words": the core reports in
data, each face puts it in its own words): the terminal game, the server, the command line and the
page never look inside a loss's reason or an error's message, and never pick seat numbers or cards
out of a sentence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "thirtyone"
FACES = sorted(
    [*PACKAGE.glob("tui/*.py"), *PACKAGE.glob("server/*.py"), *PACKAGE.glob("cli/*.py"), *PACKAGE.glob("web/js/*.js")]
)

FORBIDDEN = {
    "a loss's English reason": re.compile(r"\.reason\b"),
    "seat numbers picked out of a sentence": re.compile(r"seat \(\\d|seat \\d"),
    "cards picked out of a sentence": re.compile(r"\\b\(\[2-9TJQKA\]"),
    "the old sentence rewriters": re.compile(r"\b(name_seats|pretty_cards|prettyText|_seats_in)\b"),
    "a regex over an error's text": re.compile(r"re\.(sub|search|match|fullmatch|findall)\([^)]*(error|message)"),
    "an error's text taken apart": re.compile(r"str\(error\)\.(split|partition|replace|startswith|removeprefix)"),
    "a message taken apart on the page": re.compile(r"message\.message\.(replace|match|split|startsWith)"),
}


def test_there_are_faces_to_check() -> None:
    names = {path.parent.name for path in FACES}
    assert {"tui", "server", "cli", "js"} <= names


@pytest.mark.parametrize("path", FACES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_face_never_parses_an_engine_sentence(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for what, pattern in FORBIDDEN.items():
        found = pattern.search(text)
        assert found is None, f"{path.name} reads {what}: {text[max(found.start() - 40, 0) : found.end() + 20]!r}"


@pytest.mark.parametrize(
    "bad",
    [
        "const reason = loss.reason.replace(/x/, y);",
        "text.replace(/\\bseat (\\d+)\\b/g, f)",
        "return String(text).replace(/\\b([2-9TJQKA][cdhs])\\b/g, f);",
        "self.set_feedback(name_seats(message, names))",
        "kind = re.sub('x', 'y', str(error))",
        'reason = str(error).removeprefix("R4.2: ")',
        "showAlert(message.message.replace(/a/, b))",
    ],
)
def test_the_check_finds_what_the_faces_used_to_do(bad: str) -> None:
    assert any(pattern.search(bad) for pattern in FORBIDDEN.values()), bad
