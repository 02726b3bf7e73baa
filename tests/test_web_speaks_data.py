"""The page speaks ids and data, never notation (issue 30 item 2): it plays a move by the id the
view's ``legal`` gives it and reads what a move or an event is from its data (``kind``,
``source``, ``card``, ``give``, ``take``: docs/server-protocol.md, "Actions as data"); no module
of the page reads ``legal_actions``, an action's notation (``event.action``, ``move.text``) or
takes notation apart. A static check of every module, with the lines the page used to have as
its own test (no browser: the browser tests play through the same modules)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parent.parent / "src" / "thirtyone" / "web"
MODULES = sorted([*WEB.glob("js/*.js"), *WEB.glob("*.html")])

FORBIDDEN = {
    "the notation list (read view.legal)": re.compile(r"\blegal_actions\b"),
    "an action's notation (event.action, step.action, move.action)": re.compile(r"\.action\b"),
    "a move's notation compared or taken apart": re.compile(
        r"\.text\s*(===|!==|==|!=)|\.text\??\.(split|startsWith|endsWith|includes|match|indexOf|slice|replace|trim)\b"
    ),
    "notation split into words": re.compile(r"(action|notation|move|text)\w*(\.\w+|\(\))*\.split\(", re.IGNORECASE),
    "notation written out to compare with": re.compile(
        r"""["'`](draw (stock|pile)|discard |exchange |take widow|throw down)"""
    ),
    "an action sent by its notation (send its id)": re.compile(r"""type:\s*["']action["'],\s*action\s*:"""),
}


def test_there_are_modules_to_check() -> None:
    names = {path.name for path in MODULES}
    assert {"common.js", "hand.js", "flights.js", "words.js", "socket.js", "table.html"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_no_module_of_the_page_reads_notation(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for what, pattern in FORBIDDEN.items():
        found = pattern.search(text)
        assert found is None, f"{path.name} reads {what}: {text[max(found.start() - 50, 0) : found.end() + 30]!r}"


def test_the_page_sends_an_action_by_its_id() -> None:
    socket = (WEB / "js" / "socket.js").read_text(encoding="utf-8")
    assert re.search(r"""send\(\{\s*type:\s*"action",\s*id:\s*move\.id,\s*seq:""", socket)


@pytest.mark.parametrize(
    "old",
    [
        "const words = notation.trim().split(/\\s+/);",  # common.js's actionWords and actedWords
        "const words = event.action.split(/\\s+/);",  # flights.js, words.js
        'return event.action.startsWith("draw") && event.received ? event.received[0] : null;',  # hand.js
        'mine ? state.view.legal_actions.filter((a) => a.startsWith("discard ")) : []',  # hand.js
        "const notation = `exchange ${state.drag.card} for ${node.dataset.card}`;",  # drag.js
        'myTurn() && state.view.legal_actions.includes("draw stock") && act("draw stock", click)',  # table.js
        'if (!send({ type: "action", action: notation, seq: state.seq })) state.sentFor = null;',  # socket.js
        'const discard = drawn.legal.find((move) => move.text.startsWith("discard"));',
        "const card = move.text.split(' ')[1];",
    ],
)
def test_the_check_finds_what_the_page_used_to_do(old: str) -> None:
    assert any(pattern.search(old) for pattern in FORBIDDEN.values()), old
