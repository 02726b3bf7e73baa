"""Leases: which server process serves a table, and until when (several processes on one
PostgreSQL database, :mod:`thirtyone.server.cluster`).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the leases table."""
    op.create_table(
        "leases",
        sa.Column("table_code", sa.String(12), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("leases")
