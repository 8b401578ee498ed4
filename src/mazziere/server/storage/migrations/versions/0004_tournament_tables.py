"""The tables of a multi-table tournament name it

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("tournament_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_tables_tournament_id_tournaments", "tournaments", ["tournament_id"], ["id"]
        )
        batch.create_index("ix_tables_tournament_id", ["tournament_id"])


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_tournament_id")
        batch.drop_constraint("fk_tables_tournament_id_tournaments", type_="foreignkey")
        batch.drop_column("tournament_id")
