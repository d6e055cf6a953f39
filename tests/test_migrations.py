"""Alembic owns the schema: migrations on an empty database match the models."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from app.db import make_engine, upgrade_database
import app.models  # noqa: F401


def test_migrations_match_models(database_url):
    engine = make_engine(database_url)
    upgrade_database(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    assert diff == []
    upgrade_database(engine)  # idempotent
    engine.dispose()
