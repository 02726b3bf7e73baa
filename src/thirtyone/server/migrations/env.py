"""Alembic's environment: migrates the connection that :func:`thirtyone.server.db_open.migrate` passes
in ``config.attributes["connection"]`` (online mode only)."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from thirtyone.server.models import Base

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):  # pragma: no cover - only thirtyone.server.db_open runs this
    raise RuntimeError("run the migrations through thirtyone.server.db_open.migrate(engine)")
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
