"""Fair deals and limits: the salt chain each table commits to when it is created, each seat's
client seed, the people seated (the lobby lists the fullest tables first), when a person was last
seen connected (idle tables expire), and why a table was closed.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the columns; fill ``seated`` and ``seen_at`` for the tables there are."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("commitment", sa.String(64), nullable=True))
        batch.add_column(sa.Column("chain_key", sa.String(64), nullable=True))
        batch.add_column(sa.Column("chain_length", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("seated", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("close_reason", sa.String(12), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("seed", sa.String(128), nullable=True))
    op.execute(
        "UPDATE game_tables SET seen_at = updated_at, seated = (SELECT count(*) FROM seats "
        "WHERE seats.table_code = game_tables.code AND seats.kind = 'human' AND seats.token_hash IS NOT NULL)"
    )
    op.create_index("ix_game_tables_lobby", "game_tables", ["status", "seated", "created_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_game_tables_lobby", "game_tables")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("seed")
    with op.batch_alter_table("game_tables") as batch:
        for column in ("close_reason", "seen_at", "seated", "chain_length", "chain_key", "commitment"):
            batch.drop_column(column)
