"""A throwaway PostgreSQL for the server's tests: ``THIRTYONE_TEST_POSTGRES_URL`` when set, otherwise
a cluster made with ``initdb`` in a temporary folder and started with ``pg_ctl`` on a free port of
127.0.0.1 (as root, run by the ``postgres`` system user); a new database on it for each test that
asks, rows read from one, and the lease of the server processes that share one. Importing it skips
the importing module without PostgreSQL, unless ``THIRTYONE_REQUIRE_POSTGRES=1`` (CI), where that
fails. Its fixtures, ``postgres`` and ``new_database``, serve the modules that import them."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.processes import free_port
from thirtyone.server.db_open import normalize_url

REQUIRED = os.environ.get("THIRTYONE_REQUIRE_POSTGRES") == "1"
GIVEN_URL = os.environ.get("THIRTYONE_TEST_POSTGRES_URL")


def _postgres_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (initdb, pg_ctl): on the PATH, or Debian's newest."""
    found = shutil.which("pg_ctl")
    if found is not None and shutil.which("initdb") is not None:
        return Path(found).parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda path: int(re.sub(r"\D", "", path.parts[-3]) or 0)
    )
    return versions[-1].parent if versions else None


BIN = _postgres_bin()
try:
    import psycopg
except ImportError as error:  # pragma: no cover - the server extra has it
    if REQUIRED:
        raise
    pytest.skip(f"PostgreSQL tests need psycopg: {error}", allow_module_level=True)
if GIVEN_URL is None and BIN is None and not REQUIRED:
    pytest.skip(
        "no PostgreSQL (initdb/pg_ctl) found: apt-get install postgresql, or set THIRTYONE_TEST_POSTGRES_URL",
        allow_module_level=True,
    )

LEASE = 2.0
"""The processes' lease (seconds): short, so that a killed process's tables are taken over soon."""
RENEW = 0.3


def _as_postgres(command: list[str]) -> list[str]:
    """``command`` as run by the ``postgres`` user when we are root (PostgreSQL refuses to run as root)."""
    if os.geteuid() != 0:
        return command
    runuser = shutil.which("runuser")
    if runuser is None:
        pytest.fail("running as root needs runuser (util-linux) to start PostgreSQL as the postgres user")
    return [runuser, "-u", "postgres", "--", *command]


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """The URL of a PostgreSQL server's ``postgres`` database, as a superuser: the given one, or a
    throwaway cluster (deleted afterwards)."""
    if GIVEN_URL is not None:
        yield GIVEN_URL
        return
    if BIN is None:
        pytest.fail("THIRTYONE_REQUIRE_POSTGRES=1 but no PostgreSQL found: apt-get install -y postgresql")
    folder = Path(tempfile.mkdtemp(prefix="thirtyone-pg-"))
    if os.geteuid() == 0:
        import pwd

        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(folder)
            pytest.fail("running as root needs the postgres system user (apt-get install -y postgresql makes it)")
        os.chown(folder, user.pw_uid, user.pw_gid)
    data, port = folder / "data", free_port()
    subprocess.run(
        _as_postgres(
            [str(BIN / "initdb"), "-D", str(data), "-U", "thirtyone", "-A", "trust", "-E", "UTF8", "--no-sync"]
        ),
        check=True,
        capture_output=True,
    )
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off -c max_connections=200"
    pg_ctl = [str(BIN / "pg_ctl"), "-D", str(data)]
    started = subprocess.run(
        _as_postgres([*pg_ctl, "-l", str(folder / "log"), "-w", "-t", "60", "-o", options, "start"]),
        capture_output=True,
        text=True,
    )
    try:
        if started.returncode != 0:
            log = (folder / "log").read_text() if (folder / "log").exists() else ""
            pytest.fail(f"PostgreSQL did not start: {started.stderr}{log}")
        yield f"postgresql://thirtyone@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_postgres([*pg_ctl, "-m", "immediate", "stop"]), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def new_database(postgres: str) -> Callable[[], str]:
    """Makes a new empty database on the server and gives its URL."""

    def make() -> str:
        name = f"thirtyone_{secrets.token_hex(6)}"
        with psycopg.connect(postgres, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return normalize_url(postgres).set(database=name).render_as_string(hide_password=False)

    return make


def rows(url: str, query: str, **params: Any) -> list[tuple[Any, ...]]:
    """Rows of ``query`` on the PostgreSQL database ``url``."""
    plain = normalize_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain) as connection:
        return list(connection.execute(query, params))
