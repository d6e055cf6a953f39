"""Alembic environment: uses the connection handed over by app.db.upgrade_database,
or builds one from the app settings when run through the alembic CLI."""

from alembic import context
from sqlmodel import SQLModel

import app.models  # noqa: F401  (registers the tables)

target_metadata = SQLModel.metadata


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    from app.config import Settings
    from app.db import make_engine

    with make_engine(Settings().database_url).begin() as conn:
        _run(conn)
