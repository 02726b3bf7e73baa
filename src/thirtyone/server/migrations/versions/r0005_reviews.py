"""The expert's review of a finished game, kept with it.

``game_tables`` gets ``review``: the review's JSON (:mod:`thirtyone.server.kept_reviews`), made once,
the first time someone asks for it; ``null`` until then (and for every table stored before this
migration, whose review is made when it is first asked for, as any other's).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the column."""
    op.add_column("game_tables", sa.Column("review", sa.Text(), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("game_tables") as tables:
        tables.drop_column("review")
