"""Display names, as Unicode's security mechanisms (UTS #39) judge them: a name of one script (its
resolved script set not empty; Latin, Han and kana, Han and Hangul may go together), compared with
the others by its confusables skeleton, and something that shows. Look-alikes from other scripts
are refused, and so are blank names; the names of real people in every language the project speaks
(with the joiners their scripts need) still join."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from support.server import create
from support.server import join
from support.server import make_app
from thirtyone.checks import printable
from thirtyone.server.errors import InputError
from thirtyone.server.names import check_display_name
from thirtyone.server.names import skeleton


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "names.db")) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ꓮnn", "name_mixed"),  # U+A4EE, a Lisu letter, among Latin ones
        ("Ꭺnn", "name_mixed"),  # U+13AA Cherokee
        ("Anո", "name_mixed"),  # U+0578 Armenian
        ("ꓮꓠꓠ", "name_taken"),  # all Lisu: one script, and Ann's skeleton
        ("ʏᴏᴜ", "name_reserved"),  # Latin small capitals: one script, and reads as You
        ("ꓬou", "name_mixed"),  # Lisu
        ("Ꮍou", "name_mixed"),  # Cherokee
        ("Yօu", "name_mixed"),  # Armenian
        ("Ann⠀", "name_mixed"),  # a blank braille cell after Latin letters
        ("Ab1٣", "name_mixed"),  # an Arabic-Indic digit beside a Latin one
        ("⠀", "name_blank"),  # U+2800, the braille pattern blank
        ("⠀ ⠀", "name_blank"),
        ("\u3164", "name_blank"),  # a Hangul filler: a letter to Unicode, nothing on the screen
        ("\u115f\u1160", "name_blank"),
        ("\u0301\u0301", "name_blank"),  # marks with no letter to sit on
        ("\u200d", "name_blank"),  # a joiner alone
        ("\ufe0f", "name_blank"),  # a variation selector alone
        # small capitals (Latin letters to Unicode) of reserved words and seat labels
        ("ʜᴏꜱᴛ", "name_reserved"),
        ("Bᴏᴛ 1", "name_reserved"),
        ("ᴅᴇᴀʟᴇʀ", "name_reserved"),
        ("Sᴇᴀᴛ 3", "name_reserved"),
        ("ꜱeat 3", "name_reserved"),
        ("ᴴost", "name_reserved"),  # a modifier letter
        ("ᴀɴɴ", "name_taken"),  # Ann in small capitals
    ],
)
def test_a_look_alike_or_a_blank_name_is_refused_and_changes_nothing(client: TestClient, name: str, code: str) -> None:
    created = create(client, ["human", "human", "easy"], name="Ann")
    before = client.get(f"/api/tables/{created['code']}").json()
    answer = client.post(f"/api/tables/{created['code']}/join", json={"name": name})
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == code
    assert repr(name) in answer.json()["error"]  # the name, written so that it can be seen
    assert client.get(f"/api/tables/{created['code']}").json() == before
    assert join(client, created["code"], "Ben")["seat"] == 1


def test_a_blank_creator_is_refused_before_any_table_is_made(client: TestClient) -> None:
    body = {"preset": "scat", "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}], "name": "\u2800"}
    answer = client.post("/api/tables", json=body)
    assert (answer.status_code, answer.json()["code"]) == (422, "name_blank")
    assert client.get("/api/tables").json()["tables"] == []


def test_the_refusals_name_what_is_wrong() -> None:
    with pytest.raises(InputError, match="mixes Lisu and Latin letters"):
        check_display_name("ꓮnn", [])
    with pytest.raises(InputError, match="mixes Latin and Armenian letters"):
        check_display_name("Anո", [])
    with pytest.raises(InputError, match="shows nothing"):
        check_display_name("\u2800", [])
    with pytest.raises(InputError, match="looks like 'Ann'"):
        check_display_name("ꓮꓠꓠ", ["Ann"])
    with pytest.raises(InputError, match="same mark twice"):
        check_display_name("e\u0301\u0301", [])


REAL_NAMES = {
    "cs": ["Jiří Dvořák", "Šárka Nováková", "Řehoř Čapek", "Ludmila Žáková"],
    "de": ["Jürgen Groß", "Müller-Lüdenscheidt", "Zoë", "Anna-Lena Weiß"],
    "ms": ["Siti Nurhaliza", "Ahmad bin Ali", "Nur Aisyah", "عائشة"],  # the last in Jawi
    "km": ["សុខ ចាន់", "ស្រីពៅ", "វណ្ណា", "ចាន់ធី", "សុភា"],
    "ur": ["عمران خان", "فاطمہ", "محمد\u200cعلی", "نور\u200cجہاں", "ثناء"],  # with the zero-width non-joiner
    "ko": ["김민준", "이서연", "최유나", "홍길동", "李 민준"],  # Han and Hangul may go together
    "en": ["O'Brien", "Ann Lee", "Jan III", "👩\u200d💻", "🐱 Kit", "山田タロウ"],  # an emoji with its joiner
}


@pytest.mark.parametrize(("lang", "name"), [(lang, name) for lang, names in REAL_NAMES.items() for name in names])
def test_real_names_in_every_language_join(lang: str, name: str) -> None:
    assert printable(name)  # the terminal takes them too
    assert check_display_name(name, ["Ann", "Ben", "Cy", None]) == name


@pytest.mark.parametrize("lang", REAL_NAMES)
def test_the_real_names_of_a_language_sit_together(client: TestClient, lang: str) -> None:
    names = REAL_NAMES[lang][:4]
    created = create(client, ["human"] * len(names), name=names[0])
    for seat, name in enumerate(names[1:], start=1):
        assert join(client, created["code"], name)["seat"] == seat
    seats = client.get(f"/api/tables/{created['code']}").json()["table"]["seats"]
    assert [seat["name"] for seat in seats] == names


def test_skeletons_are_unicodes_confusables() -> None:
    assert skeleton("ꓮnn") == skeleton("Ꭺnn") == skeleton("Anո") == skeleton("Ann") == "ann"
    assert skeleton("ʏᴏᴜ") == skeleton("ꓬou") == skeleton("Yօu") == "you"
    assert skeleton("Апп") != skeleton("Ann")  # Unicode's data: a Cyrillic п looks like a π, not an n
    assert check_display_name("Апп", ["Ann"]) == "Апп"
    with pytest.raises(InputError, match="is taken"):  # the same name in another case
        check_display_name("ivy", ["Ivy"])
