"""Shared fixtures: a fresh database per test (in-memory SQLite, and PostgreSQL when
COACH_TEST_POSTGRES_URL is set), an app built by the factory, and an HTTP client."""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from app.bank.loader import load_bank
from app.config import ROOT, Settings
from app.grading.offline import OfflineGrader
from app.main import create_app

PG_URL = os.environ.get("COACH_TEST_POSTGRES_URL")
CONTENT = ROOT / "content"


def _fresh_postgres_url() -> Iterator[str]:
    """Create a throw-away database next to the configured one; drop it afterwards."""
    base = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    name = f"coach_test_{uuid.uuid4().hex[:12]}"
    with base.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = PG_URL.rsplit("/", 1)[0] + "/" + name
    try:
        yield url
    finally:
        with base.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        base.dispose()


DB_PARAMS = ["sqlite"] + (["postgres"] if PG_URL else [])


@pytest.fixture(params=DB_PARAMS)
def database_url(request, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'coach.db'}"  # a real file, as the app runs: WAL, a connection per thread
    else:
        yield from _fresh_postgres_url()


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return Settings(database_url=database_url, content_dir=CONTENT, grading_wait_seconds=10, _env_file=None)


@pytest.fixture
def app(settings: Settings):
    return create_app(settings)


@pytest.fixture
def client(app) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


@pytest.fixture(scope="session")
def bank():
    b = load_bank(CONTENT)
    assert not b.issues, [str(i) for i in b.issues]
    return b


@pytest.fixture(scope="session")
def grader(bank) -> OfflineGrader:
    return OfflineGrader(bank.glossary)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """The real app under uvicorn on a free port, with its own SQLite file."""
    import uvicorn

    settings = Settings(database_url=f"sqlite:///{tmp_path / 'live.db'}", content_dir=CONTENT, _env_file=None)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not server.started:
        if time.time() > deadline:
            raise RuntimeError("server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
