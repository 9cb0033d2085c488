"""Docker cannot run here, so the compose file is checked for structure and for the settings it sets."""

from __future__ import annotations

from pathlib import Path

import yaml

from loopline.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict[str, dict[str, dict[str, object]]]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_every_part_of_the_stack_is_a_service_with_a_healthcheck() -> None:
    services = compose()["services"]
    assert set(services) == {"postgres", "redis", "api", "worker"}
    for name, service in services.items():
        assert "healthcheck" in service, name
        assert "image" in service or "build" in service, name


def test_app_services_set_exactly_the_variables_the_settings_read() -> None:
    read = {f"LOOPLINE_{name.upper()}" for name in Settings.model_fields}
    services = compose()["services"]
    for name in ("api", "worker"):
        env = services[name]["environment"]
        assert isinstance(env, dict)
        assert set(env) <= read, f"{name} sets variables the app does not read: {set(env) - read}"
        assert {"LOOPLINE_DATABASE_URL", "LOOPLINE_BROKER_URL", "LOOPLINE_SECRET_KEY"} <= set(env)


def test_env_example_lists_every_setting() -> None:
    listed = {
        line.split("=", 1)[0]
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    }
    assert listed == {f"LOOPLINE_{name.upper()}" for name in Settings.model_fields}


def test_the_image_builds_the_engine_and_the_frontend_it_is_told_to_use() -> None:
    dockerfile = (ROOT / "docker" / "api.Dockerfile").read_text()
    env = compose()["services"]["api"]["environment"]
    assert isinstance(env, dict)
    assert (
        f"COPY --from=engine /src/sim-engine/target/release/loopline-sim {env['LOOPLINE_ENGINE_BINARY']}" in dockerfile
    )
    assert "npm run build" in dockerfile
    assert (ROOT / "docker" / "api.Dockerfile").exists()


def test_queued_jobs_survive_a_redis_restart_and_crashed_app_processes_come_back() -> None:
    services = compose()["services"]
    redis = services["redis"]
    command = redis["command"]
    assert isinstance(command, list)
    assert command[command.index("--appendonly") + 1] == "yes"
    volumes = redis["volumes"]
    assert isinstance(volumes, list) and volumes[0].endswith(":/data")  # the file outlives the container
    assert {services[name].get("restart") for name in ("api", "worker")} == {"unless-stopped"}
