"""Test fixtures shared by the backend and worker suites: real PostgreSQL, Redis and Celery.

The services come from `scripts/stack.py services` (started by `make test`); each pytest session
gets a database of its own, built by `alembic upgrade head`, and each test runs inside an outer
transaction that is rolled back, so tests never see each other's rows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parent
PORTS = ROOT / ".run" / "ports.json"


def _ports() -> dict[str, int]:
    if not PORTS.exists():
        pytest.exit("services are not running: start them with `python3 scripts/stack.py services`")
    return dict(json.loads(PORTS.read_text()))


sys.path.insert(0, str(ROOT / "scripts"))
import stack  # noqa: E402  (scripts/ is no package)


def _configure_environment() -> tuple[str, int]:
    """Point every LOOPLINE_* setting at a fresh test database and a pair of Redis databases no
    other running session holds (`stack.claim_redis_pair`: 2 and 3 unless taken)."""
    ports = _ports()
    redis_db = stack.claim_redis_pair(ports["redis"], 2)
    name = f"loopline_test_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(f"postgresql://loopline@127.0.0.1:{ports['postgres']}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["LOOPLINE_ENV"] = "test"
    os.environ["LOOPLINE_DATABASE_URL"] = f"postgresql+psycopg://loopline@127.0.0.1:{ports['postgres']}/{name}"
    os.environ["LOOPLINE_BROKER_URL"] = f"redis://127.0.0.1:{ports['redis']}/{redis_db}"
    os.environ["LOOPLINE_RESULT_BACKEND"] = f"redis://127.0.0.1:{ports['redis']}/{redis_db + 1}"
    return name, redis_db


TEST_DB_NAME, TEST_REDIS_DB = _configure_environment()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    from loopline.db.session import get_engine

    get_engine().dispose()
    ports = _ports()
    # As the superuser: FORCE may have to end an autovacuum worker, which the test role may not signal.
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:{ports['postgres']}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{TEST_DB_NAME}" WITH (FORCE)')
    stack.release_redis_pair(ports["redis"], TEST_REDIS_DB)


# argon2 at the product's cost (64 MiB, 3 passes: ~0.16 s of CPU a hash) made each account a test
# signs up for cost two such checks, about a third of the API suite's time. The tests are of the
# rules around the hash, not of its cost: in this process they hash with the least cost argon2id
# allows. What the tests start as processes of their own (the stack, the fault suite's API) hashes
# at the product's cost, as do tests marked `production_password_cost` (races as long as a check).
_CHEAP_HASHING = {"time_cost": 1, "memory_cost": 8, "parallelism": 1}
_PRODUCT_HASHING: dict[str, object] = {}  # the product's hasher and dummy hash, while cheap ones stand in


@pytest.fixture(scope="session", autouse=True)
def _cheap_password_hashes() -> Iterator[None]:
    from argon2 import PasswordHasher

    from loopline.services import security

    _PRODUCT_HASHING.update(_hasher=security._hasher, _DUMMY_HASH=security._DUMMY_HASH)
    cheap = PasswordHasher(**_CHEAP_HASHING)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(security, "_hasher", cheap)
        patch.setattr(security, "_DUMMY_HASH", cheap.hash("loopline-dummy-password"))
        yield


@pytest.fixture(autouse=True)
def _production_password_cost(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test marked `production_password_cost` hashes with the product's own hasher."""
    if request.node.get_closest_marker("production_password_cost") is None:
        yield
        return
    from loopline.services import security

    with pytest.MonkeyPatch.context() as patch:
        for name, value in _PRODUCT_HASHING.items():
            patch.setattr(security, name, value)
        yield


@pytest.fixture(scope="session")
def migrated_database() -> str:
    from alembic import command
    from alembic.config import Config

    command.upgrade(Config(str(ROOT / "alembic.ini")), "head")
    return os.environ["LOOPLINE_DATABASE_URL"]


@pytest.fixture
def db_session(migrated_database: str) -> Iterator[object]:
    """A session inside an outer transaction that is rolled back after the test."""
    from sqlalchemy.orm import Session

    from loopline.db.session import get_engine

    connection = get_engine().connect()
    outer = connection.begin()
    session = Session(bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False)
    try:
        yield session
    finally:
        session.close()
        outer.rollback()
        connection.close()


@pytest.fixture(scope="session")
def celery_worker_process(migrated_database: str) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker process consuming the test broker."""
    from loopline.queue import PING_TASK, get_celery

    log = ROOT / ".run" / "logs" / f"test-worker-{os.getpid()}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "loopline_worker.app",
            "worker",
            "--concurrency",
            "1",
            "--without-gossip",
            "--without-mingle",
            "--loglevel",
            "INFO",
            "--logfile",
            str(log),
        ],
        cwd=ROOT / "worker",
        env=dict(os.environ),
        start_new_session=True,
    )
    try:
        deadline = time.time() + 60
        while True:
            try:
                if get_celery().send_task(PING_TASK).get(timeout=5) == "pong":
                    break
            except Exception:
                if time.time() > deadline or proc.poll() is not None:
                    raise
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
