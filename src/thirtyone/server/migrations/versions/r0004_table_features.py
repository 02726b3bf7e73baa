"""Table features: public (listed) tables, hints on or off, rematches, and the table chat.

``game_tables`` gets ``public`` (tables stored before this migration stay listed, as they were),
``hints``, ``rematch`` and ``rematch_of``; ``seats`` gets ``reserved_hash`` (a rematch's seat
waiting for the person who held it at the old table); ``chat_lines`` is new.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the columns and the chat table."""
    op.add_column("game_tables", sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.add_column("game_tables", sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.add_column("game_tables", sa.Column("rematch", sa.String(12), nullable=True))
    op.add_column("game_tables", sa.Column("rematch_of", sa.String(12), nullable=True))
    op.add_column("seats", sa.Column("reserved_hash", sa.String(64), nullable=True))
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_code", sa.String(12), sa.ForeignKey("game_tables.code", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("reaction", sa.String(16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_lines_table_code", "chat_lines", ["table_code"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_chat_lines_table_code", "chat_lines")
    op.drop_table("chat_lines")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("reserved_hash")
    with op.batch_alter_table("game_tables") as tables:
        for column in ("rematch_of", "rematch", "hints", "public"):
            tables.drop_column(column)
