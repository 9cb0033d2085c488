"""Every migration upgrades and downgrades: head -> base -> head on a scratch database."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import psycopg
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, inspect
from sqlalchemy.engine import make_url

from loopline.db.models import Base

ROOT = Path(__file__).resolve().parents[3]


def test_upgrade_downgrade_upgrade_on_a_scratch_database(migrated_database: str) -> None:
    url = make_url(os.environ["LOOPLINE_DATABASE_URL"])
    name = f"loopline_migrate_{uuid.uuid4().hex[:8]}"
    admin = f"postgresql://{url.username}@{url.host}:{url.port}/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    scratch = url.set(database=name).render_as_string(hide_password=False)
    config = Config(str(ROOT / "alembic.ini"))
    config.cmd_opts = type("Opts", (), {"x": [f"url={scratch}"]})()  # type: ignore[assignment]
    engine = create_engine(scratch)
    try:
        command.upgrade(config, "head")
        assert set(inspect(engine).get_table_names()) >= set(Base.metadata.tables)
        command.downgrade(config, "base")
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
        command.upgrade(config, "head")
        assert set(inspect(engine).get_table_names()) >= set(Base.metadata.tables)
    finally:
        engine.dispose()
        # As the cluster's superuser: FORCE must also end an autovacuum worker that may have started
        # on the fresh database, which the application's role may not signal.
        superuser = f"postgresql://postgres@{url.host}:{url.port}/postgres"
        with psycopg.connect(superuser, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_models_match_the_migrations(migrated_database: str) -> None:
    """`alembic revision --autogenerate` would produce nothing: the models and the schema agree."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = create_engine(migrated_database)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    finally:
        engine.dispose()
    assert diff == []
