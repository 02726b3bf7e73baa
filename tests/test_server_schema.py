"""API fuzzing: schemathesis generates requests for every HTTP endpoint from the app's OpenAPI spec
(in-process, over ASGI, on a temp SQLite database) — bodies and parameters that fit the spec and
ones that do not, for made-up table codes and real ones — and checks that none is answered with a
server error (5xx), and that every answer has a status and content type the spec documents and a
body its schema allows."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from support.server import create
from support.server import join
from support.server import make_app

ENDPOINTS = [
    ("GET", "/api/health"),
    ("GET", "/api/presets"),
    ("GET", "/api/tables"),
    ("POST", "/api/tables"),
    ("GET", "/api/tables/{code}"),
    ("POST", "/api/tables/{code}/join"),
    ("POST", "/api/tables/{code}/close"),
    ("POST", "/api/tables/{code}/seats/{seat}/bot"),
    ("POST", "/api/tables/{code}/rematch"),
    ("GET", "/api/tables/{code}/deals"),
    ("GET", "/api/tables/{code}/record"),
    ("GET", "/api/tables/{code}/record.json"),
    ("GET", "/api/tables/{code}/review"),
]
"""Every HTTP endpoint of the spec (checked below, so that a new one is not left unfuzzed)."""
EXAMPLES = 100
"""Requests per endpoint and mode: enough to find the usual holes, few enough to stay well under a minute."""
NEGATIVE = {
    ("GET", "/api/tables"),
    ("POST", "/api/tables"),
    ("POST", "/api/tables/{code}/join"),
    ("POST", "/api/tables/{code}/seats/{seat}/bot"),
}
"""The endpoints with something that can be made not to fit the spec (a body or a typed query value)."""
CHECKS = ("not_a_server_error", "status_code_conformance", "content_type_conformance", "response_schema_conformance")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> tuple[FastAPI, list[str]]:
    """An app with an open table (a free seat), one being played and one closed (its record kept);
    the app and their codes."""
    app = make_app(tmp_path_factory.mktemp("schema") / "schema.db")
    with TestClient(app) as client:
        waiting = create(client, ["human", "human", "easy"], name="Ann")["code"]
        playing = create(client, ["human", "human"], name="Ann")["code"]
        join(client, playing, "Ben")
        closed = create(client, ["human", "easy"], name="Ann")
        headers = {"Authorization": f"Bearer {closed['host_token']}"}
        assert client.post(f"/api/tables/{closed['code']}/close", headers=headers).status_code == 200
    return app, [waiting, playing, closed["code"]]


@pytest.fixture(scope="module")
def api(served: tuple[FastAPI, list[str]]) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", served[0])


def test_the_spec_lists_every_endpoint_with_its_bodies_and_errors(api: Any) -> None:
    spec = api.raw_schema
    listed = {(method.upper(), path) for path, item in spec["paths"].items() for method in item}
    assert listed == set(ENDPOINTS)
    body = spec["paths"]["/api/tables"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["$ref"].endswith("_CreateBody")
    assert "seats" in spec["components"]["schemas"]["_CreateBody"]["required"]
    responses = spec["paths"]["/api/tables/{code}/join"]["post"]["responses"]
    assert {"200", "403", "404", "409", "413", "422", "503"} <= set(responses)


@pytest.mark.parametrize(
    ("method", "path", "mode"),
    [(*endpoint, schemathesis.GenerationMode.POSITIVE) for endpoint in ENDPOINTS]
    + [(*endpoint, schemathesis.GenerationMode.NEGATIVE) for endpoint in ENDPOINTS if endpoint in NEGATIVE],
)
def test_no_request_is_a_server_error(
    api: Any, served: tuple[FastAPI, list[str]], method: str, path: str, mode: schemathesis.GenerationMode
) -> None:
    operation = api[path][method]
    strategies = [operation.as_strategy(mode)]
    if "{code}" in path:  # most requests name a real table, to get past "no such table"
        strategies += [operation.as_strategy(mode, path_parameters={"code": code}) for code in served[1]]
    checks = [getattr(schemathesis.checks, name) for name in CHECKS]

    @given(case=st.one_of(strategies))
    @settings(max_examples=EXAMPLES, database=None, suppress_health_check=list(HealthCheck))
    def fuzz(case: schemathesis.Case) -> None:
        case.call_and_validate(checks=checks)

    fuzz()


def test_a_body_that_is_not_utf8_is_bad_input_like_any_malformed_body(served: tuple[FastAPI, list[str]]) -> None:
    # found by the fuzzing above: Starlette answered 400 {"detail": …}, not the server's error form
    with TestClient(served[0]) as client:
        for body in (b"\xff\xfe{", b"{not json"):
            response = client.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
            assert response.status_code == 422
            assert response.json() == {"error": "malformed request: the body is not JSON", "code": "bad_input"}
        missing = client.get("/api/nothing")
        assert missing.status_code == 404
        assert missing.json() == {"error": "no such page: /api/nothing", "code": "not_found"}
        wrong = client.delete("/api/tables")
        assert wrong.status_code == 405
        assert wrong.json() == {"error": "DELETE is not allowed here", "code": "bad_method"}
        deep = client.post(
            "/api/tables", content=b"[" * 5000 + b"]" * 5000, headers={"Content-Type": "application/json"}
        )
        assert deep.status_code == 422
        assert deep.json()["error"].startswith("malformed request: the body's JSON is nested too deeply")
        for body, kind in ((b"[1, 2]", "application/json"), (b'{"seats": []}', "text/plain")):
            response = client.post("/api/tables", content=body, headers={"Content-Type": kind})
            assert response.status_code == 422
            assert response.json()["error"].startswith("malformed request: send a JSON object")


def test_a_chunked_body_over_the_limit_is_too_large(served: tuple[FastAPI, list[str]]) -> None:
    # found by a new user: with no Content-Length the body was cut and answered as "not JSON"
    with TestClient(served[0]) as client:
        big = iter([b'{"preset": "scat", "name": "', b"x" * 20_000, b'"}'])
        response = client.post("/api/tables", content=big, headers={"Content-Type": "application/json"})
        assert response.status_code == 413
        assert response.json()["code"] == "too_large"
        small = iter([b'{"preset": "scat", ', b'"seats": [{"type": "human"}, {"type": "bot"}]}'])
        response = client.post("/api/tables", content=small, headers={"Content-Type": "application/json"})
        assert response.status_code == 201, response.text
