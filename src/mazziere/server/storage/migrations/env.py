"""Alembic environment: migrations run on a connection the server hands over."""

from __future__ import annotations

from alembic import context

from mazziere.server.storage.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations through mazziere (`mazziere db upgrade`)")
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,  # SQLite alters tables by copying them
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
