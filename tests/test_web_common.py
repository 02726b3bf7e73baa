"""The page's words for the game's data (web/js/common.js, run by Node with a catalog's messages).

Lives as the seats show them (R2.4): the tables of lives left after each round (the Scores panel,
the final standings) show "3 … 1, dole", not the grace life as one more life ("4 … 1"). Every
refusal code and loss kind of the engine has its words in every language, read from the catalog
(the page keeps no list of them to fall out of step); an unknown one is shown as its code."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any
from typing import get_args

import pytest

from thirtyone import narration
from thirtyone.actions import parse_action
from thirtyone.cards import Card
from thirtyone.cards import parse_cards as cards
from thirtyone.events import Acted
from thirtyone.events import RoundResult
from thirtyone.i18n import LANGUAGES
from thirtyone.i18n import catalog_json
from thirtyone.i18n import messages
from thirtyone.refusals import RefusalCode
from thirtyone.rules import Rules
from thirtyone.server.serialize import phrase_json
from thirtyone.server.serialize import refusal_json
from thirtyone.server.serialize import result_json
from thirtyone.settlement import Loss
from thirtyone.settlement import LossKind
from thirtyone.text import refusal
from thirtyone.tui.words import Narrator

WEB = Path(__file__).resolve().parent.parent / "src" / "thirtyone" / "web" / "js"


def run_common(tmp_path: Path, lang: str, names: str, expression: str) -> Any:
    """The JSON value of ``expression`` with ``names`` imported from common.js, in ``lang``."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node is not installed")
    for module in ("common.js", "cards.js"):
        shutil.copy(WEB / module, tmp_path / module)
    messages = json.dumps(catalog_json(lang)["messages"])
    (tmp_path / "i18n.js").write_text(
        f"const M = {messages};\n"
        "const fill = (text, params) => text.replace(/\\{(\\w+)\\}/g, (_, key) => String(params[key]));\n"
        "export const t = (key, params = {}) => fill(M[key], params);\n"
        "export const tn = (key, count, params = {}) => fill(M[key].other, { count, ...params });\n"
        "export const num = (value) => String(value);\n"
        "export const has = (key) => key in M;\n"
        f"export const lang = {json.dumps(lang)};\n"
        "export const rtl = false;\n"
        "export const list = (items) => items.join(', ');\n",
        encoding="utf-8",
    )
    script = f"import {{ {names} }} from './common.js';\nconsole.log(JSON.stringify({expression}));\n"
    (tmp_path / "run.mjs").write_text(script, encoding="utf-8")
    done = subprocess.run([node, "run.mjs"], cwd=tmp_path, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def lives_left(tmp_path: Path, lang: str, preset: str, remaining: list[int]) -> list[str]:
    rules = json.dumps(Rules.preset(preset).options())
    expression = f"{json.dumps(remaining)}.map((left) => livesLeft(left, {rules}, {json.dumps(preset)}))"
    return list(run_common(tmp_path, lang, "livesLeft", expression))


def test_r2_4_the_grace_life_is_shown_by_its_mark_not_as_one_more_life(tmp_path: Path) -> None:
    assert lives_left(tmp_path, "en", "scat", [4, 3, 2, 1]) == ["3", "2", "1", "dole"]
    assert lives_left(tmp_path, "en", "widow", [2, 1]) == ["1", "bus"]
    assert lives_left(tmp_path, "de", "schwimmen", [1]) == ["schw."]


def test_without_a_grace_life_the_lives_are_the_count(tmp_path: Path) -> None:
    assert lives_left(tmp_path, "en", "mini", [1]) == ["1"]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_refusal_code_has_words_in_every_language(tmp_path: Path, lang: str) -> None:
    codes = list(get_args(RefusalCode))
    errors = [refusal(code, seat=0, cards=(Card.parse("As"),), seats=(1,), values=(31, 20)) for code in codes]
    sent = json.dumps([refusal_json(error) for error in errors])  # as the server sends them, with their phrase
    lines = run_common(tmp_path, lang, "refusalWords", f"{sent}.map((r) => refusalWords(r, ['A', 'B']))")
    for code, error, line in zip(codes, errors, lines, strict=True):
        assert code not in line, (lang, line)
        assert "refusal." not in line, (lang, line)
        assert error.rule in line, (lang, code, line)


def _result_json(end: str, losses: list[Loss]) -> dict[str, Any]:
    """A round's result as the server sends it (its losses with their phrases)."""
    result = RoundResult(1, 0, end, 0, (), (None, None), (20, 25), tuple(losses), (3, 3), (), False, 9)  # type: ignore[arg-type]
    return result_json(result)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_loss_kind_has_words_in_every_language(tmp_path: Path, lang: str) -> None:
    kinds = list(get_args(LossKind))
    sent = _result_json("knock", [Loss(0, 1, kind, (0,)) for kind in kinds])
    lines = run_common(tmp_path, lang, "lossWords", f"{json.dumps(sent)}.losses.map((l) => lossWords(l, ['A', 'B']))")
    for kind, line in zip(kinds, lines, strict=True):
        assert line != kind, (lang, line)
        assert "loss." not in line, (lang, line)


def test_a_knocker_s_loss_after_a_throw_down_has_its_own_words_r6_6(tmp_path: Path) -> None:
    loss = Loss(0, 2, "knocker_alone_lowest")
    knock, throw = (json.dumps(_result_json(end, [loss])["losses"][0]) for end in ("knock", "throw_down"))
    expression = f"[lossWords({knock}, ['A', 'B']), lossWords({throw}, ['A', 'B'])]"
    knocked, thrown = run_common(tmp_path, "en", "lossWords", expression)
    messages = catalog_json("en")["messages"]
    assert knocked == messages["loss.knocker_alone_lowest"].replace("{who}", "A")
    assert thrown == messages["loss.knocker_alone_lowest.throw"].replace("{who}", "A")
    assert knocked != thrown


def test_an_unknown_refusal_or_loss_is_shown_as_its_code(tmp_path: Path) -> None:
    expression = (
        "[refusalWords({code: 'no_such_code', rule: 'R9.9'}, []), lossWords({kind: 'no_such_loss', seats: []}, [])]"
    )
    refused, lost = run_common(tmp_path, "en", "lossWords, refusalWords", expression)
    assert "no_such_code" in refused
    assert "R9.9" in refused
    assert lost == "no_such_loss"


MOVES = [
    ("draw stock", "9h", False, ()),
    ("draw stock", None, False, ()),
    ("draw pile", "Td", False, ()),
    ("discard 9h", None, False, ()),
    ("knock", None, False, ()),
    ("exchange 9h for As", None, False, ()),
    ("exchange all", "2c 3d 4h", False, ("5s", "6s", "7s")),
    ("exchange all", None, True, ("5s", "6s", "7s")),
    ("pass", None, False, ("5s", "6s", "7s")),
    ("keep", None, False, ("5s", "6s", "7s")),
    ("take widow", "2c 3d 4h", False, ("5s", "6s", "7s")),
    ("look", None, False, ()),
    ("throw down", None, False, ()),
]


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("mover", [0, 1])
def test_the_page_says_every_move_as_the_terminal_does_one_narrator(tmp_path: Path, lang: str, mover: int) -> None:
    """The page renders the phrases the server sends (thirtyone.narration, serialize.phrase_json)
    and the terminal the same phrases: the same sentence in every language, the viewer's own moves
    (seat 0, "you") in their own form."""
    t = messages(lang)
    events = [
        Acted(mover, parse_action(text), None if got is None else cards(got), private, tuple(map(Card.parse, shown)))
        for text, got, private, shown in MOVES
    ]
    said = [{"said": [phrase_json(phrase) for phrase in narration.acted(event, 0)]} for event in events]
    names = [t("seat.you"), "Ben"]
    expression = f"{json.dumps(said)}.map((act) => act.said.map((p) => phraseWords(p, (s) => {json.dumps(names)}[s])))"
    page = run_common(tmp_path, lang, "phraseWords", expression)
    narrator = Narrator(("you", "Ben (basic)"), Rules.preset("scat"), 0, t)
    terminal = [[line.plain for line in narrator.describe(event)] for event in events]
    assert page == terminal
    assert not any("acted." in line for lines in page for line in lines), page


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_round_end_is_said_from_its_phrase(tmp_path: Path, lang: str) -> None:
    ends = ["knock", "blitz", "dealt_blitz", "stock_exhausted", "max_turns", "all_pass", "throw_down"]
    sent = json.dumps([_result_json(end, []) for end in ends])
    lines = run_common(tmp_path, lang, "endWords", f"{sent}.map((r) => endWords(r))")
    for end, line in zip(ends, lines, strict=True):
        assert "end." not in line, (lang, line)
        assert "{" not in line, (lang, end, line)
