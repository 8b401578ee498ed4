"""Suspended accounts: when the operator suspended an account, and why

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("accounts", sa.Column("suspended_why", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("suspended_why")
        batch.drop_column("suspended_at")
