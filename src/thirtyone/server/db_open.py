"""Opening the database: the engine for a URL, SQLite's settings for durability, and the Alembic
migrations (run on start).

``sqlite:///PATH`` (the default, ``sqlite:///thirtyone.db``) is an embedded file; its journal is
write-ahead (WAL) with full synchronisation, so an action once committed survives a killed server.
The write-ahead log is copied back into the file by the server's own checkpoints, every second on
a reader thread (:meth:`Store.checkpoint <thirtyone.server.db_store.Store.checkpoint>`), rather than
by the commit that happens to fill it (which then waited for the copy and its disk sync: a stall
of every table's writes); SQLite's own is kept for :data:`AUTOCHECKPOINT_PAGES` as a safety net.
``postgresql://…`` URLs are served by psycopg 3 (``postgresql+psycopg://``); a server that does not
answer is given up after :data:`CONNECT_TIMEOUT` seconds (``?connect_timeout=N`` in the URL says
otherwise), and a role that may not create tables in the database is told what to grant. Every
PostgreSQL connection sends TCP keepalives (:data:`KEEPALIVES`, :func:`keepalives`), so that one
to a database lost without a word (a host that went down, a cut network) fails within seconds
instead of hours later.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine
from sqlalchemy import create_engine
from sqlalchemy import event
from sqlalchemy import inspect
from sqlalchemy.engine import URL
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.exc import NoSuchModuleError
from sqlalchemy.exc import SQLAlchemyError

from thirtyone.server.errors import DatabaseError

__all__ = [
    "open_database",
    "migrate",
    "describe_url",
    "normalize_url",
    "keepalives",
    "HEAD",
    "CONNECT_TIMEOUT",
    "KEEPALIVES",
]

HEAD = "0005"
"""The newest migration."""
AUTOCHECKPOINT_PAGES = 20_000
"""Pages (80 MB) of write-ahead log after which a commit checkpoints it itself, should the
server's own checkpoints not keep up."""
CONNECT_TIMEOUT = 10
"""Seconds a new PostgreSQL connection may take before it fails (libpq's ``connect_timeout``): a
server that does not answer (a dropped packet, a host that is down) is an error, not a wait without end."""
KEEPALIVES = {
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 1,
    "keepalives_count": 5,
    "tcp_user_timeout": 10_000,
}
"""libpq's TCP keepalives and user timeout on every PostgreSQL connection (the pool's and the
cluster's listener): a connection silent for ``keepalives_idle`` seconds is probed every
``keepalives_interval`` seconds, and after ``keepalives_count`` probes unanswered it is closed as
broken, 10 s in all (the default ``lease_seconds``); data sent and not acknowledged for
``tcp_user_timeout`` milliseconds (10 s) closes it too, where keepalives are not sent. Without
them a connection whose database vanished without closing it (half-open) waits for the system's
default, over two hours idle, about 15 minutes with a statement in flight: the listener hears no
notification, and a statement waits for its answer, holding its thread. A database that is merely
busy still answers the probes and acknowledges the data (its kernel does), and a connection in use
sends no probes (docs/server-cluster.md, "Connections to the database")."""
_MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_INSUFFICIENT_PRIVILEGE = "42501"
"""PostgreSQL's SQLSTATE for a role lacking a right (to create a table, say)."""
_MIGRATION_LOCK = 0x31_0000_0001
"""The PostgreSQL advisory lock held while migrating (any number that other software is unlikely to use)."""


def normalize_url(url: str) -> URL:
    """The SQLAlchemy URL for ``url``; ``postgresql://`` and ``postgres://`` get the psycopg 3 driver.

    Raises:
        DatabaseError: for text that is not a database URL.
    """
    try:
        parsed = make_url(url.strip())
    except (ArgumentError, ValueError) as error:
        raise DatabaseError(
            f"cannot read the database URL {url!r}: {error} (give sqlite:///PATH or postgresql://USER@HOST/DB)"
        ) from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def describe_url(url: str | URL) -> str:
    """The URL as it may be shown: without its password."""
    parsed = url if isinstance(url, URL) else normalize_url(url)
    return parsed.render_as_string(hide_password=True)


def keepalives(url: URL) -> dict[str, int]:
    """The options of :data:`KEEPALIVES` that ``url`` (a PostgreSQL URL) does not set in its query:
    ``?keepalives_idle=N``, ``?tcp_user_timeout=MS`` and the like there say otherwise."""
    return {name: value for name, value in KEEPALIVES.items() if name not in url.query}


def open_database(url: str) -> Engine:
    """An engine for ``url``, its schema migrated to the newest version (:func:`migrate`).

    Raises:
        DatabaseError: when the URL cannot be read, its driver is not installed, or the database
            cannot be opened or migrated (the message says which, without the password).
    """
    parsed = normalize_url(url)
    shown = describe_url(parsed)
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise DatabaseError(
            f"cannot use {shown}: thirtyone keeps its tables in SQLite (sqlite:///PATH) or PostgreSQL "
            f"(postgresql://USER@HOST/DB), not {parsed.get_backend_name()}"
        )
    sqlite = parsed.get_backend_name() == "sqlite"
    if sqlite:
        database = parsed.database or ""
        if database in ("", ":memory:") or database.startswith("file::memory:"):
            raise DatabaseError(
                f"cannot use {shown}: an in-memory SQLite database is lost when the server stops; "
                "give a file (sqlite:///thirtyone.db)"
            )
        folder = Path(database).expanduser().resolve().parent
        if not folder.is_dir():
            raise DatabaseError(f"cannot open the database {shown}: the folder {folder} does not exist")
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    else:
        kwargs["pool_pre_ping"] = True
        kwargs["connect_args"] = keepalives(parsed)
        if "connect_timeout" not in parsed.query:
            kwargs["connect_args"]["connect_timeout"] = CONNECT_TIMEOUT
    try:
        engine = create_engine(parsed, **kwargs)
    except (NoSuchModuleError, ImportError) as error:
        raise DatabaseError(
            f"cannot open the database {shown}: its driver is not installed ({error}); pip install 'thirtyone[server]'"
        ) from None
    except (ArgumentError, SQLAlchemyError) as error:
        raise DatabaseError(f"cannot open the database {shown}: {_first_line(error)}") from None
    if sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
    try:
        migrate(engine)
    except SQLAlchemyError as error:
        engine.dispose()
        advice = ""
        if getattr(getattr(error, "orig", None), "sqlstate", None) == _INSUFFICIENT_PRIVILEGE:
            role = parsed.username or "the connecting role"
            advice = (
                f" ({role} makes and migrates thirtyone's tables: make it the database's owner, "
                f"or GRANT CREATE ON SCHEMA public TO {role})"
            )
        raise DatabaseError(f"cannot open the database {shown}: {_first_line(error)}{advice}") from None
    except Exception as error:  # an Alembic or driver error that is not SQLAlchemy's
        engine.dispose()
        raise DatabaseError(f"cannot open the database {shown}: {_first_line(error)}") from None
    return engine


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration (Alembic ``upgrade head``), in one transaction
    (on PostgreSQL under an advisory lock, so that server processes starting together take turns).

    Raises:
        DatabaseError: when the database has tables of something else, or a newer schema than this
            server knows.
        SQLAlchemyError: when the database cannot be reached or written.
    """
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # processes starting together migrate one after another
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
        tables = set(inspect(connection).get_table_names())
        if tables and "alembic_version" not in tables:
            raise DatabaseError(
                "the database holds tables of something else (no alembic_version); give a new or a thirtyone database"
            )
        if "alembic_version" in tables:
            current = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
            if current is not None and current > HEAD:
                raise DatabaseError(
                    f"the database's schema {current} is newer than this thirtyone's ({HEAD}); upgrade thirtyone"
                )
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _sqlite_pragmas(dbapi_connection: Any, record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _first_line(error: BaseException) -> str:
    text = str(getattr(error, "orig", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__
