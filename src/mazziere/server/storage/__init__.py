"""Storage: SQLAlchemy models, the database connection, repositories, migrations."""

from mazziere.server.storage.database import Database
from mazziere.server.storage.models import Base

__all__ = ["Base", "Database"]
