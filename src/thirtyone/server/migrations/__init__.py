"""Alembic migrations of the server's database (run by :func:`thirtyone.server.db_open.migrate`)."""
