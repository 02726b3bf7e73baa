"""The catalogs over HTTP (no browser): ``/i18n/{lang}.json`` for every language and a 404 for any
other (a malformed or hostile name included), and the 404 pages in the language the browser asks
for (``Accept-Language``), right to left for Urdu, English for anything else."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from support.server import make_app
from thirtyone.i18n import LANGUAGES


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "t.db")) as test_client:
        yield test_client


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_catalog_is_served_as_json(client: TestClient, lang: str) -> None:
    answer = client.get(f"/i18n/{lang}.json")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    data = answer.json()
    assert data["lang"] == lang
    assert data["dir"] == ("rtl" if lang == "ur" else "ltr")
    assert set(data["languages"]) == set(LANGUAGES)
    assert "{rule}" in data["messages"]["refusal.line"]


@pytest.mark.parametrize("name", ["xx", "EN", "..%2F..%2Fetc", "de.po", "x" * 300, "%00"])
def test_no_other_catalog_is_served(client: TestClient, name: str) -> None:
    answer = client.get(f"/i18n/{name}.json", headers={"Accept": "application/json"})
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"


@pytest.mark.parametrize(
    ("header", "lang", "words"),
    [
        ("de-DE,de;q=0.9", "de", "Kein Tisch hat den Code"),
        ("ur-PK", "ur", "کسی میز کا کوڈ"),
        ("ko", "ko", "코드의 테이블이 없습니다"),
        ("fr-FR", "en", "No table has the code"),
        ("q=;;;", "en", "No table has the code"),
    ],
)
def test_a_missing_table_is_said_in_the_browsers_language(
    client: TestClient, header: str, lang: str, words: str
) -> None:
    page = client.get("/t/ZZZZZZ", headers={"Accept": "text/html", "Accept-Language": header})
    assert page.status_code == 404
    assert f'<html lang="{lang}" dir="{"rtl" if lang == "ur" else "ltr"}">' in page.text
    assert words in page.text


def test_a_missing_page_is_said_in_the_browsers_language(client: TestClient) -> None:
    page = client.get("/nowhere", headers={"Accept": "text/html", "Accept-Language": "cs"})
    assert page.status_code == 404
    assert "Taková stránka neexistuje" in page.text
    assert "/nowhere" in page.text
