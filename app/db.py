"""Database engine, migrations and the per-request session."""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

from app.config import ROOT

MIGRATIONS_DIR = ROOT / "migrations"


IN_MEMORY_URLS = ("sqlite://", "sqlite:///:memory:")
_temp_files: weakref.WeakKeyDictionary[Engine, weakref.finalize] = weakref.WeakKeyDictionary()


def make_engine(url: str) -> Engine:
    """Build an engine; SQLite gets WAL, foreign keys and a thread-safe connection setup.

    An in-memory SQLite URL is backed by a private temporary file, deleted with the
    engine: one shared in-memory connection is not safe when the grading threads and
    the request threads use it at once (one session's rollback would undo another's
    uncommitted write), while a file gives every thread its own connection and WAL.
    """
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    temp_dir: str | None = None
    if url in IN_MEMORY_URLS:
        temp_dir = tempfile.mkdtemp(prefix="coach-db-")
        url = f"sqlite:///{Path(temp_dir) / 'coach.db'}"
    else:
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
    if temp_dir is not None:
        _temp_files[engine] = weakref.finalize(engine, shutil.rmtree, temp_dir, ignore_errors=True)

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_conn, _record) -> None:  # pragma: no cover - trivial
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    return engine


def dispose_engine(engine: Engine) -> None:
    """Close the engine's connections; a temporary (in-memory URL) database goes with it."""
    engine.dispose()
    cleanup = _temp_files.pop(engine, None)
    if cleanup is not None:
        cleanup()


def upgrade_database(engine: Engine, revision: str = "head") -> None:
    """Apply Alembic migrations on the given engine."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def current_revision(engine: Engine) -> str | None:
    """The migration the database is at (None: none applied)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def iter_session(engine: Engine) -> Iterator[Session]:
    with Session(engine, expire_on_commit=False) as session:
        yield session
