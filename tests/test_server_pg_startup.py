"""``thirtyone serve`` on a PostgreSQL it cannot use: a server that refuses or never answers, and a
role without the right to make the tables, are each one line at start and exit status 2 (Uvicorn
is never started). A throwaway PostgreSQL as tests/test_server_cluster.py makes it."""

from __future__ import annotations

import socket
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from cli_helpers import cli_error_line
from support.postgres import new_database  # noqa: F401 - fixtures
from support.postgres import postgres  # noqa: F401
from thirtyone.server import db_open
from thirtyone.server.db_open import normalize_url


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Stand-in for uvicorn.run: records that the server would have started."""
    calls: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(app))
    return calls


def serve(url: str) -> list[str]:
    return ["serve", "--port", "48032", "--database-url", url]


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port whose listener takes connections and never answers (a server hung or cut off)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield listener.getsockname()[1]


def test_a_database_server_that_refuses_is_one_line(started: list[Any], capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    line = cli_error_line(capsys, serve(f"postgresql://thirtyone:secret@127.0.0.1:{port}/thirtyone"))
    assert f"cannot open the database postgresql+psycopg://thirtyone:***@127.0.0.1:{port}/thirtyone" in line
    assert "Connection refused" in line
    assert "secret" not in line
    assert started == []


def test_a_database_server_that_never_answers_is_given_up(
    started: list[Any], capsys: pytest.CaptureFixture[str], silent_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ``connect_timeout`` libpq would wait for ever: the server gives up after
    CONNECT_TIMEOUT seconds (2 here) with one line."""
    monkeypatch.setattr(db_open, "CONNECT_TIMEOUT", 2)
    line = cli_error_line(capsys, serve(f"postgresql://thirtyone@127.0.0.1:{silent_port}/thirtyone"))
    assert "cannot open the database" in line
    assert "timeout" in line.lower()
    assert started == []


def test_a_role_that_may_not_make_the_tables_is_told_what_to_grant(
    started: list[Any],
    capsys: pytest.CaptureFixture[str],
    new_database: Callable[[], str],  # noqa: F811
    postgres: str,  # noqa: F811
) -> None:
    import psycopg

    url = new_database()  # owned by the superuser: since PostgreSQL 15 others may not create in public
    role = "weak_" + url.rsplit("_", 1)[1]
    with psycopg.connect(postgres, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
    weak = normalize_url(url).set(username=role).render_as_string(hide_password=False)
    line = cli_error_line(capsys, serve(weak))
    assert "permission denied for schema public" in line
    assert f"GRANT CREATE ON SCHEMA public TO {role}" in line
    assert started == []
