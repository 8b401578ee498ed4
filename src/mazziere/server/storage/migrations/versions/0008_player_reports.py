"""Players' reports of other players, for the operator to read

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("reported_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["reporter_id"],
            ["accounts.id"],
            name=op.f("fk_player_reports_reporter_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["reported_id"],
            ["accounts.id"],
            name=op.f("fk_player_reports_reported_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_reports")),
    )
    op.create_index(
        op.f("ix_player_reports_reported_id"), "player_reports", ["reported_id"], unique=False
    )
    op.create_index(
        op.f("ix_player_reports_created_at"), "player_reports", ["created_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_player_reports_created_at"), table_name="player_reports")
    op.drop_index(op.f("ix_player_reports_reported_id"), table_name="player_reports")
    op.drop_table("player_reports")
