"""The first ``hard`` move of a fresh server waits on no start: the server starts its bot workers
(each warming the compiled simulator, tests/test_server_workers.py) when it starts, before any
table, and a worker starts without the web framework and the database (seconds of imports that a
fresh server's first move used to wait for; benchmarks/bench_first_move.py has the times)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from support.server import make_app
from thirtyone.server.workers import WorkerPool


def test_a_server_starts_its_bot_workers_before_any_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    monkeypatch.setattr(WorkerPool, "prestart", lambda pool: started.append(pool.name))
    app = make_app(tmp_path / "t.db")
    assert started == []
    with TestClient(app) as client:
        assert client.get("/api/health").status_code == 200
        assert started == ["bot"]


def test_a_bot_worker_starts_without_the_web_framework_or_the_database() -> None:
    """What a worker process imports to start (its initializer's module, and the bots' moves)."""
    code = (
        "import sys\n"
        "import thirtyone.server.workers, thirtyone.bots.work\n"
        "heavy = ('fastapi', 'starlette', 'sqlalchemy', 'alembic', 'uvicorn')\n"
        "print(sorted(name for name in heavy if name in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_server_package_still_gives_its_names() -> None:
    import thirtyone.server as server
    from thirtyone.server.app import create_app
    from thirtyone.server.config import ServerSettings
    from thirtyone.server.errors import ServerError

    assert (server.create_app, server.ServerSettings, server.ServerError) == (create_app, ServerSettings, ServerError)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = server.nothing  # type: ignore[attr-defined]
