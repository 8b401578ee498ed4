"""Private sit & gos: a host, an invite code and a rematch on a tournament

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # In a batch: SQLite adds a foreign key or a unique constraint only by copying the table.
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(
            sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("host_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("invite_code", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("rematch_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            op.f("fk_tournaments_host_id_accounts"), "accounts", ["host_id"], ["id"]
        )
        batch.create_foreign_key(
            op.f("fk_tournaments_rematch_id_tournaments"), "tournaments", ["rematch_id"], ["id"]
        )
        batch.create_unique_constraint(op.f("uq_tournaments_invite_code"), ["invite_code"])


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_constraint(op.f("uq_tournaments_invite_code"), type_="unique")
        batch.drop_constraint(op.f("fk_tournaments_host_id_accounts"), type_="foreignkey")
        batch.drop_constraint(op.f("fk_tournaments_rematch_id_tournaments"), type_="foreignkey")
        batch.drop_column("rematch_id")
        batch.drop_column("invite_code")
        batch.drop_column("host_id")
        batch.drop_column("private")
