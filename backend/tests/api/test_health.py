from __future__ import annotations

import subprocess

import pytest
from fastapi.testclient import TestClient

from loopline.api.app import create_app
from loopline.api.health import readiness
from loopline.settings import Settings, get_settings


@pytest.fixture
def client(migrated_database: str) -> TestClient:
    readiness.forget()  # each test sees its own settings, not a previous answer
    return TestClient(create_app())


def test_health_is_ok_when_every_part_answers(
    client: TestClient, celery_worker_process: subprocess.Popen[bytes]
) -> None:
    response = client.get("/api/health")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    assert body["down"] == []
    assert set(body["parts"]) == {"database", "broker", "worker", "engine"}
    assert body["parts"]["database"]["detail"].startswith("PostgreSQL 1")
    assert body["parts"]["worker"]["detail"] == "1 worker answered; idle"
    assert body["parts"]["engine"]["detail"].startswith("loopline-sim ")
    assert client.get("/api/health/ready").json() == body


def test_liveness_answers_without_touching_any_part(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOOPLINE_DATABASE_URL", "postgresql+psycopg://nobody@127.0.0.1:9/none")
    monkeypatch.setenv("LOOPLINE_BROKER_URL", "redis://127.0.0.1:9/0")
    get_settings.cache_clear()
    try:
        response = client.get("/api/health/live")
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    assert response.status_code == 200
    assert response.json() == {"status": "alive"}


def test_readiness_is_checked_once_however_many_ask(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from loopline.api import health

    checks: list[int] = []
    real = health.check_every_part

    def counted() -> health.Health:
        checks.append(1)
        return real()

    monkeypatch.setattr(health, "check_every_part", counted)
    answers = [client.get("/api/health/ready") for _ in range(20)]
    assert len(checks) == 1
    assert len({a.text for a in answers}) == 1


def test_health_names_the_broker_and_worker_when_redis_is_unreachable(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Port 9 (discard) has no Redis behind it on loopback.
    monkeypatch.setenv("LOOPLINE_BROKER_URL", "redis://127.0.0.1:9/0")
    get_settings.cache_clear()
    try:
        response = client.get("/api/health")
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    assert response.status_code == 503
    body = response.json()
    assert body["down"] == ["broker", "worker"]
    assert body["parts"]["database"]["ok"] is True


def test_health_names_the_engine_when_its_binary_is_missing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("LOOPLINE_ENGINE_BINARY", "/nonexistent/loopline-sim")
    monkeypatch.setenv("LOOPLINE_BROKER_URL", "redis://127.0.0.1:9/0")
    get_settings.cache_clear()
    try:
        body = client.get("/api/health").json()
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    assert "engine" in body["down"]
    assert body["parts"]["engine"]["detail"] == "engine binary not usable: FileNotFoundError"


def test_settings_refuse_the_development_secret_in_production() -> None:
    with pytest.raises(ValueError, match="LOOPLINE_SECRET_KEY must be set"):
        Settings(env="production")
    assert Settings(env="production", secret_key="x" * 40).env == "production"


def test_unknown_api_paths_are_404_not_the_editor(client: TestClient) -> None:
    assert client.get("/api/does-not-exist").status_code == 404
