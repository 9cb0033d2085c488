"""What the in-process benchmarks share (layout, facility load, simulate, GPU wiring): the real
FastAPI app in the benchmark's own process, on a scratch database of its own."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def scratch_database(**env: str) -> Iterator[str]:
    """A fresh database (its name yielded) that `LOOPLINE_DATABASE_URL` names while it lives, with
    `LOOPLINE_ENV` test unless set and `env`'s LOOPLINE_* settings; dropped afterwards."""
    port = json.loads((ROOT / ".run" / "ports.json").read_text())["postgres"]
    db = f"loopline_bench_{uuid.uuid4().hex[:8]}"
    admin = f"postgresql://loopline@127.0.0.1:{port}/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{db}"')
    os.environ["LOOPLINE_DATABASE_URL"] = f"postgresql+psycopg://loopline@127.0.0.1:{port}/{db}"
    os.environ.setdefault("LOOPLINE_ENV", "test")
    os.environ.update(env)
    try:
        yield db
    finally:
        if "loopline.db.session" in sys.modules:
            sys.modules["loopline.db.session"].get_engine().dispose()
        # as the superuser: FORCE may have to end an autovacuum worker, which the test role may not signal
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{port}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


def migrated_app() -> Any:
    """The scratch database migrated with the builtin catalog in it, and a `TestClient` of the app."""
    from alembic import command
    from alembic.config import Config
    from fastapi.testclient import TestClient

    from loopline.api.app import create_app
    from loopline.db.session import session_scope
    from loopline.services.catalog import ensure_builtin_catalog

    command.upgrade(Config(str(ROOT / "alembic.ini")), "head")
    with session_scope() as session:
        ensure_builtin_catalog(session)
    return TestClient(create_app())


def signed_in(client: Any, password: str = "bench-password") -> int:
    """`client` signed up and logged in as the bench user, with a project of theirs (its id)."""
    account = {"email": "bench@loopline.local", "password": password}
    client.post("/api/v1/auth/register", json=account)
    client.post("/api/v1/auth/login", json=account)
    return int(client.post("/api/v1/projects", json={"name": "bench"}).json()["id"])
