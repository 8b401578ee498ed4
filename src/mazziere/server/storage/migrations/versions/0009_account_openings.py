"""New accounts by address, for the limit on new accounts per address

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_openings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=80), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_openings")),
    )
    op.create_index(
        op.f("ix_account_openings_address"), "account_openings", ["address"], unique=False
    )
    op.create_index(op.f("ix_account_openings_at"), "account_openings", ["at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_account_openings_at"), table_name="account_openings")
    op.drop_index(op.f("ix_account_openings_address"), table_name="account_openings")
    op.drop_table("account_openings")
