"""Failed log-ins in the database (the rate limit holds across restarts and processes);
when a free seat was kept for a player of a waiting list

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_failures")),
    )
    op.create_index(op.f("ix_login_failures_key"), "login_failures", ["key"], unique=False)
    op.create_index(op.f("ix_login_failures_at"), "login_failures", ["at"], unique=False)
    op.add_column(
        "waiting_list", sa.Column("offered_at", sa.DateTime(timezone=True), nullable=True)
    )


def downgrade() -> None:
    with op.batch_alter_table("waiting_list") as batch:
        batch.drop_column("offered_at")
    op.drop_index(op.f("ix_login_failures_at"), table_name="login_failures")
    op.drop_index(op.f("ix_login_failures_key"), table_name="login_failures")
    op.drop_table("login_failures")
