"""The page counts lives as the seats show them (R2.4): the lives, then the grace life by its mark.
The tables of lives left after each round (the Scores panel, the final standings) show "3 … 1,
dole", not the grace life as one more life ("4 … 1"). common.livesLeft, run by Node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from thirtyone.i18n import catalog_json
from thirtyone.rules import Rules

WEB = Path(__file__).resolve().parent.parent / "src" / "thirtyone" / "web" / "js"


def lives_left(tmp_path: Path, lang: str, preset: str, remaining: list[int]) -> list[str]:
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
    rules = json.dumps(Rules.preset(preset).options())
    script = (
        "import { livesLeft } from './common.js';\n"
        f"console.log(JSON.stringify({json.dumps(remaining)}.map((left) => livesLeft(left, {rules}, "
        f"{json.dumps(preset)}))));\n"
    )
    (tmp_path / "run.mjs").write_text(script, encoding="utf-8")
    done = subprocess.run([node, "run.mjs"], cwd=tmp_path, capture_output=True, text=True, check=True)
    return list(json.loads(done.stdout))


def test_r2_4_the_grace_life_is_shown_by_its_mark_not_as_one_more_life(tmp_path: Path) -> None:
    assert lives_left(tmp_path, "en", "scat", [4, 3, 2, 1]) == ["3", "2", "1", "dole"]
    assert lives_left(tmp_path, "en", "widow", [2, 1]) == ["1", "bus"]
    assert lives_left(tmp_path, "de", "schwimmen", [1]) == ["schw."]


def test_without_a_grace_life_the_lives_are_the_count(tmp_path: Path) -> None:
    assert lives_left(tmp_path, "en", "mini", [1]) == ["1"]
