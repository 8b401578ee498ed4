"""Failed log-ins in the database, so the rate limit holds across restarts and processes

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


def downgrade() -> None:
    op.drop_index(op.f("ix_login_failures_at"), table_name="login_failures")
    op.drop_index(op.f("ix_login_failures_key"), table_name="login_failures")
    op.drop_table("login_failures")
