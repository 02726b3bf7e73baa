"""What the server answers, beyond the game: every refusal code it can send has words in every
language the pages speak; options of the wrong JSON type are refused by name; no answer echoes the
request's Host header, and none that carries a token may be cached; a WebSocket from another site's
page is refused at the handshake; the pages' templates are not served raw; and chat is text, shown as
text, so innocent text such as ``a<b and b>c`` is said while control and direction characters are not."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.server import create
from support.server import hello
from support.server import join
from support.server import make_app
from thirtyone.i18n import LANGUAGES
from thirtyone.i18n import catalog_json
from thirtyone.i18n import placeholders
from thirtyone.server import errors
from thirtyone.server.chat import check_line

SERVER = Path(errors.__file__).resolve().parent
NEVER_SENT = {"quiet"}
"""Codes the server makes but drops unsent (app.py: a rate limit is told at most once a second)."""


def _error_classes() -> dict[str, type[errors.ServerError]]:
    found = vars(errors).items()
    return {name: cls for name, cls in found if isinstance(cls, type) and issubclass(cls, errors.ServerError)}


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _code_of(call: ast.Call, cls: type[errors.ServerError], scope: ast.AST, where: str) -> set[str]:
    """The codes a ``ServerError`` subclass's constructor call can give: its ``code`` argument (a
    literal, or a local name whose every assignment is read) or the class's default."""
    if cls is errors.SettingError:
        return {cls.default_code}
    given = call.args[1] if len(call.args) > 1 else None
    for keyword in call.keywords:
        if keyword.arg == "code":
            given = keyword.value
    if given is None:
        return {cls.default_code}
    if isinstance(given, ast.Constant) and isinstance(given.value, str):
        return {given.value}
    if isinstance(given, ast.Name):
        assigned = [
            node.value
            for node in ast.walk(scope)
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == given.id for t in node.targets)
        ]
        if assigned:
            return set().union(*(_strings(value) for value in assigned))
    raise AssertionError(f"{where}: cannot read the code {ast.unparse(given)!r}; write it as a literal")


def sent_codes() -> set[str]:
    """Every refusal code an answer of the server can carry, read from the server's source: each
    construction of a :class:`~thirtyone.server.errors.ServerError` (its code, or its class's
    default) and each JSON error answer written out (``{"error": …, "code": "…"}``)."""
    classes = _error_classes()
    codes: set[str] = set()
    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scopes = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name in classes:
                    scope = min(
                        (s for s in scopes if s.lineno <= node.lineno <= (s.end_lineno or s.lineno)),
                        key=lambda s: (s.end_lineno or s.lineno) - s.lineno,
                        default=tree,
                    )
                    codes |= _code_of(node, classes[name], scope, f"{path.name}:{node.lineno}")
            elif isinstance(node, ast.Dict):
                keys = [key.value if isinstance(key, ast.Constant) else None for key in node.keys]
                if "error" in keys and "code" in keys:
                    value = node.values[keys.index("code")]
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        codes.add(value.value)
    return codes


# ---------------------------------------------------------------------------------------------- codes


def test_the_codes_are_read_from_the_source() -> None:
    codes = sent_codes()
    assert {"name_reserved", "seat_reserved", "not_your_turn", "illegal_action", "bad_method", "rate_limited"} <= codes
    assert codes >= NEVER_SENT  # the exception is still there


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_code_has_its_own_words_in_every_language(lang: str) -> None:
    said = catalog_json(lang)["messages"]
    english = catalog_json("en")["messages"]
    codes = sorted(sent_codes() - NEVER_SENT)
    missing = [code for code in codes if f"error.{code}" not in said]
    assert not missing, f"{lang}: no words for {missing}"
    words = {code: said[f"error.{code}"] for code in codes}
    assert all(isinstance(text, str) and text.strip() for text in words.values())
    shared = {text for text in words.values() if list(words.values()).count(text) > 1}
    assert not shared, f"{lang}: codes with the same words: {[c for c, t in words.items() if t in shared]}"
    assert not [code for code, text in words.items() if placeholders(str(text))], "the pages fill no placeholder here"
    if lang != "en":
        copied = [code for code in codes if words[code] == english[f"error.{code}"]]
        assert not copied, f"{lang}: English words for {copied}"


def test_the_english_words_say_what_the_codes_mean() -> None:
    said = catalog_json("en")["messages"]
    assert "left" not in str(said["error.name_reserved"])  # it is about names that read as someone else
    assert "You" in str(said["error.name_reserved"])
    assert "kept" in str(said["error.seat_reserved"])
    assert "already" not in str(said["error.seat_taken"])  # another's seat, not one's own


# ---------------------------------------------------------------------------------------------- options


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "answers.db")) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"lives": "3"}, 'option lives is a whole number from 1 to 20: send a JSON number, not "3"'),
        ({"lives": 3.0}, "option lives is a whole number from 1 to 20: send a JSON number, not 3.0"),
        ({"lives": True}, "option lives"),
        ({"throw_down": "on"}, 'option throw_down is on or off: send true or false, not "on"'),
        ({"throw_down": 1}, "option throw_down is on or off: send true or false, not 1"),
        ({"three_of_a_kind": 30.5}, "option three_of_a_kind is one of off, 30, 30.5: send it as text, not 30.5"),
        ({"deck": "32"}, 'option deck is 8 or 32 or 52: send a JSON number, not "32"'),
        ({"mode": None}, "option mode is one of draw, widow"),  # null is the rules' to refuse
    ],
)
def test_an_option_of_the_wrong_json_type_is_refused_by_name(
    client: TestClient, options: dict[str, object], words: str
) -> None:
    body = {"seats": [{"type": "human"}, {"type": "bot"}], "options": options, "public": True}
    answer = client.post("/api/tables", json=body)
    assert (answer.status_code, answer.json()["code"]) == (422, "bad_input"), answer.text
    assert words in answer.json()["error"]
    assert client.get("/api/tables").json()["tables"] == []  # nothing was made


def test_a_presets_options_as_the_server_lists_them_are_taken(client: TestClient) -> None:
    for preset, options in client.get("/api/presets").json()["presets"].items():  # nulls: the other mode's
        body = {"preset": preset, "seats": [{"type": "human"}, {"type": "bot"}], "options": options}
        assert client.post("/api/tables", json=body).status_code == 201, preset


def test_options_as_the_page_sends_them_are_taken(client: TestClient) -> None:
    options = {"lives": 4, "three_of_a_kind": "30.5", "throw_down": True, "deck": 32, "mode": "draw"}
    answer = client.post("/api/tables", json={"seats": [{"type": "human"}, {"type": "bot"}], "options": options})
    assert answer.status_code == 201, answer.text
    rules = answer.json()["table"]["rules"]
    assert (rules["lives"], rules["three_of_a_kind"], rules["throw_down"], rules["deck"]) == (4, "30.5", True, 32)


# ---------------------------------------------------------------------------------------------- links and caches


def test_the_share_url_never_echoes_the_host_header(client: TestClient) -> None:
    evil = {"host": "evil.example"}
    body = {"seats": [{"type": "human"}, {"type": "human"}], "name": "Ann"}
    created = client.post("/api/tables", json=body, headers=evil).json()
    assert created["share_url"] == f"/t/{created['code']}"  # relative to wherever the page came from
    joined = client.post(f"/api/tables/{created['code']}/join", json={"name": "Ben"}, headers=evil).json()
    assert joined["share_url"] == f"/t/{created['code']}"


def test_the_share_url_starts_with_the_public_url(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "public.db", public_url="HTTPS://Cards.Example.org/play/")) as client:
        body = {"seats": [{"type": "human"}, {"type": "bot"}], "name": "Ann"}
        created = client.post("/api/tables", json=body, headers={"host": "evil.example"}).json()
        assert created["share_url"] == f"https://cards.example.org/play/t/{created['code']}"


def test_answers_that_carry_a_token_are_never_stored(client: TestClient) -> None:
    created = client.post("/api/tables", json={"seats": [{"type": "human"}, {"type": "human"}], "name": "Ann"})
    assert "token" in created.json()
    assert created.headers["cache-control"] == "no-store"
    joined = client.post(f"/api/tables/{created.json()['code']}/join", json={"name": "Ben"})
    assert "token" in joined.json()
    assert joined.headers["cache-control"] == "no-store"
    refused = client.post(f"/api/tables/{created.json()['code']}/rematch", headers={"authorization": "Bearer x"})
    assert refused.status_code == 403
    assert "no-store" not in refused.headers.get("cache-control", "")  # an error carries no token


# ---------------------------------------------------------------------------------------------- origins


def _welcome(client: TestClient, code: str, headers: dict[str, str]) -> dict[str, object]:
    """The welcome of a spectator's connection opened with ``headers``."""
    with client.websocket_connect(f"/ws/tables/{code}", headers=headers) as ws:
        return hello(ws, None, None).messages[0]


def test_a_page_of_another_site_cannot_open_a_websocket(tmp_path: Path) -> None:
    from starlette.testclient import WebSocketDenialResponse

    with TestClient(make_app(tmp_path / "origins.db", allowed_origins=("https://Friends.example.net",))) as client:
        code = create(client, ["human", "easy"])["code"]
        for origin in ("https://evil.example", "null", "http://testserver.evil.example", "https://testserver:8443"):
            with (
                pytest.raises(WebSocketDenialResponse) as refused,
                client.websocket_connect(f"/ws/tables/{code}", headers={"origin": origin}),
            ):
                pass
            assert refused.value.status_code == 403
            assert refused.value.json()["code"] == "bad_origin"
            assert "--allowed-origin" in refused.value.json()["error"]
        assert _welcome(client, code, {"origin": "http://testserver"})["role"] == "spectator"  # its own pages
        assert _welcome(client, code, {"origin": "https://friends.example.net"})["role"] == "spectator"
        assert _welcome(client, code, {})["role"] == "spectator"  # no Origin: no browser page


def test_the_public_urls_pages_may_connect_behind_a_proxy(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "proxy.db", public_url="https://cards.example.org")) as client:
        code = create(client, ["human", "easy"])["code"]
        welcome = _welcome(client, code, {"origin": "https://cards.example.org", "host": "127.0.0.1:8031"})
        assert welcome["role"] == "spectator"


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("public_url", "ftp://cards.example.org"),
        ("public_url", "cards.example.org"),
        ("public_url", "https://cards.example.org/?x=1"),
        ("public_url", "https://user@cards.example.org"),
        ("allowed_origins", ("https://friends.example.net/page",)),
        ("allowed_origins", ("https://friends.example.net:99999",)),
        ("allowed_origins", "https://friends.example.net"),
    ],
)
def test_addresses_that_are_none_are_refused_by_name(setting: str, value: object) -> None:
    from thirtyone.server import ServerSettings

    with pytest.raises(errors.SettingError) as refused:
        ServerSettings(**{setting: value})  # type: ignore[arg-type]
    assert refused.value.setting == setting
    assert "https://" in refused.value.problem


def test_serve_takes_the_addresses_as_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from thirtyone.cli import main

    seen: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.append(app.state.settings))
    args = [
        "serve",
        "--port",
        "48032",
        "--database-url",
        f"sqlite:///{tmp_path}/t.db",
        "--public-url",
        "https://a.example/",
    ]
    assert main([*args, "--allowed-origin", "https://b.example", "--allowed-origin", "http://c.example:8080"]) == 0
    settings = seen[-1]
    assert settings.public_url == "https://a.example"  # type: ignore[attr-defined]
    assert settings.allowed_origins == ("https://b.example", "http://c.example:8080")  # type: ignore[attr-defined]


def test_serve_takes_a_seed_for_every_random_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    from thirtyone.cli import main

    seen: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.append(app.state.settings))
    args = ["serve", "--port", "48032", "--database-url", f"sqlite:///{tmp_path}/t.db"]
    assert main(args) == 0
    assert seen[-1].randomness.secure  # by default: the system's randomness
    assert main([*args, "--seed", "7"]) == 0
    assert seen[-1].randomness.seed == 7
    assert "seed 7: its deals repeat (tests only)" in capsys.readouterr().err
    assert main([*args, "--seed", "seven"]) == 2
    assert capsys.readouterr().err.strip() == "thirtyone: error: --seed 'seven': give a whole number"


# ---------------------------------------------------------------------------------------------- pages


def test_the_templates_are_not_served_raw(client: TestClient) -> None:
    for name in ("table.html", "index.html", "replay.html", "TABLE.HTML"):
        answer = client.get(f"/static/{name}")
        assert answer.status_code == 404, name
        assert "{{" not in answer.text
    assert client.get("/static/style.css").status_code == 200
    assert client.get("/static/js/table.js").status_code == 200
    code = create(client, ["human", "easy"])["code"]
    page = client.get(f"/t/{code}")
    assert page.status_code == 200
    assert code in page.text
    assert "{{" not in page.text


# ---------------------------------------------------------------------------------------------- chat


@pytest.mark.parametrize(
    "text", ["a<b and b>c", "<3", "<b>bold</b> is just text", "x < y > z", "see javascript: no", "می\u200cخواہم"]
)
def test_innocent_text_is_chat(text: str) -> None:
    assert check_line({"text": text}) == (text, None)


@pytest.mark.parametrize(
    "text", ["turned \u202earound", "an \u2066isolate\u2069", "a \u200bhidden space", "bell\x07", "esc\x1b[31m"]
)
def test_control_and_direction_characters_are_not(text: str) -> None:
    with pytest.raises(errors.InputError, match="one line of plain text") as refused:
        check_line({"text": text})
    assert refused.value.code == "bad_chat"


@pytest.mark.parametrize("text", ["\u200d" * 50, "\u200c \u200d", "\u3000\u200d\u00a0"])
def test_a_line_of_joiners_and_spaces_alone_shows_nothing_and_is_refused(text: str) -> None:
    with pytest.raises(errors.InputError, match="shows nothing") as refused:
        check_line({"text": text})
    assert refused.value.code == "bad_chat"


@pytest.mark.parametrize("text", ["a" + "\u0301" * 150, "Zalgo z" + "\u0336\u0301\u0302\u0303" * 2])
def test_a_letter_under_a_stack_of_combining_marks_is_refused(text: str) -> None:
    """Issue: "a" under 150 accents (U+0301) drew over the page's heading."""
    with pytest.raises(errors.InputError, match="combining marks on one letter") as refused:
        check_line({"text": text})
    assert refused.value.code == "bad_chat"


@pytest.mark.parametrize(
    "text",
    [
        "Tiếng Việt",  # Vietnamese: a letter with two marks (one left after NFC)
        "ཧཱུྃ་བསྒྲུབས",  # Tibetan: subjoined letters and vowel signs stacked
        "क्षत्रिय",  # Devanagari: viramas and vowel signs
        "e" + "\u0301" * 6,  # six marks on one letter: the most
    ],
)
def test_the_marks_that_scripts_stack_are_chat(text: str) -> None:
    said, reaction = check_line({"text": text})
    assert said  # not refused
    assert reaction is None


def test_a_line_with_angle_brackets_reaches_everyone_as_it_was_written(client: TestClient) -> None:
    created = create(client, ["human", "human"], name="Ann")
    ben = join(client, created["code"], "Ben")
    with (
        client.websocket_connect(f"/ws/tables/{created['code']}") as one,
        client.websocket_connect(f"/ws/tables/{created['code']}") as two,
    ):
        ann, ben_player = hello(one, created["token"], 0), hello(two, ben["token"], 1)
        ann.ws.send_json({"type": "chat", "text": "a<b and b>c"})
        assert ben_player.until("chat")["text"] == "a<b and b>c"
