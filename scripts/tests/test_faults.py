"""Faults lose nothing: a stack of its own (PostgreSQL, Redis, the API and a worker, kept alive by
the same supervisor as `make run`) is hit with the faults a real deployment sees, while a probe
reads the API every 0.1 s:

- the API killed outright: restarted by the supervisor, answering again;
- a worker killed outright mid-job: restarted, and its job finished exactly once (a second attempt);
- a worker killed outright mid-import: the import runs again and creates its project once;
- Redis restarted with jobs queued, with its append-only file and without it: every job finishes once;
- Redis down during a submit: 503 with Retry-After and nothing written; submits work once it is back;
- PostgreSQL restarted under a running job: the API answers 503 (never 500) while it is away and
  recovers without a restart; the job finishes.

Every fault asserts that no request was answered 500. `make test` runs each fault once;
`make test-faults` runs each LOOPLINE_FAULT_ROUNDS times (5).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "stack.py"
spec = importlib.util.spec_from_file_location("stack_for_faults", SCRIPT)
assert spec and spec.loader
stack = importlib.util.module_from_spec(spec)
spec.loader.exec_module(stack)

ROUNDS = int(os.environ.get("LOOPLINE_FAULT_ROUNDS", "1"))
LIVENESS = {
    # a worker silent for 3 s is dead; a queued job without a message is sent again after 2 s
    "LOOPLINE_JOB_HEARTBEAT_S": "0.5",
    "LOOPLINE_JOB_STALE_AFTER_S": "3",
    "LOOPLINE_JOB_QUEUED_GRACE_S": "2",
    "LOOPLINE_RECONCILE_EVERY_S": "1",
    "LOOPLINE_BROKER_VISIBILITY_TIMEOUT_S": "20",
}
DEMO = {"email": "demo@loopline.local", "password": "loopline-demo"}


class Services:
    """PostgreSQL and Redis of the suite's own, so that restarting them disturbs nobody else."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.pg_data, self.pg_sock = home / "pg", home / "pgsock"
        self.redis_dir = stack.RUN / f"faults-redis-{os.getpid()}"
        self.pg_port, self.redis_port = stack.free_port(), stack.free_port()

    def _pg_ctl(self, *args: str) -> None:
        subprocess.run(
            stack.as_pg_owner([stack.pg_bin("pg_ctl"), "-D", str(self.pg_data), *args]),
            check=True, cwd="/", stdout=subprocess.DEVNULL,
        )  # fmt: skip

    def start_postgres(self) -> None:
        if not (self.pg_data / "PG_VERSION").exists():
            stack._owned_by_postgres(self.pg_data)
            subprocess.run(
                stack.as_pg_owner([stack.pg_bin("initdb"), "-D", str(self.pg_data), "-U", "postgres", "--auth=trust"]),
                check=True, cwd="/", stdout=subprocess.DEVNULL,
            )  # fmt: skip
            stack._owned_by_postgres(self.pg_sock)
        opts = f"-p {self.pg_port} -k {self.pg_sock} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._pg_ctl("-o", opts, "-l", str(self.pg_data / "server.log"), "-w", "start")

    def restart_postgres(self) -> None:
        self._pg_ctl("-m", "fast", "-w", "stop")
        time.sleep(1)  # away for a moment, as a restarting server is
        self.start_postgres()

    def stop_postgres(self) -> None:
        self._pg_ctl("-m", "immediate", "-w", "stop")

    def start_redis(self) -> None:
        self.redis_dir.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--dir", str(self.redis_dir),
             "--daemonize", "yes", "--pidfile", str(self.redis_dir / "redis.pid"), "--logfile",
             str(self.redis_dir / "redis.log"), "--save", "", "--appendonly", "yes", "--appendfsync", "everysec"],
            check=True,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while stack.port_is_free(self.redis_port):
            assert time.monotonic() < deadline, "Redis did not start"
            time.sleep(0.05)

    def stop_redis(self, *, lose_data: bool = False) -> None:
        """Stopped (SIGTERM: the append-only file is flushed); `lose_data`: killed and its files gone."""
        pid = int((self.redis_dir / "redis.pid").read_text())
        os.kill(pid, signal.SIGKILL if lose_data else signal.SIGTERM)
        while stack.pid_alive(pid):
            time.sleep(0.05)
        if lose_data:
            shutil.rmtree(self.redis_dir)

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "LOOPLINE_DATABASE_URL": f"postgresql+psycopg://{stack.DB_USER}@127.0.0.1:{self.pg_port}/loopline",
            "LOOPLINE_BROKER_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "LOOPLINE_RESULT_BACKEND": f"redis://127.0.0.1:{self.redis_port}/1",
            **LIVENESS,
        }

    def sql(self, query: str) -> list[tuple[Any, ...]]:
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.pg_port}/loopline") as conn:
            return list(conn.execute(query).fetchall())


class Probe:
    """Reads the API every 0.1 s (a database read and a cheap one) and counts the answers."""

    def __init__(self, base: str, cookies: httpx.Cookies) -> None:
        self.base, self.cookies = base, cookies
        self.answers: Counter[int] = Counter()
        self.server_errors: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with httpx.Client(base_url=self.base, cookies=self.cookies, timeout=15) as client:
            while not self._stop.wait(0.1):
                for path in ("/api/v1/projects", "/api/v1/auth/me"):
                    try:
                        r = client.get(path)
                    except httpx.TransportError:
                        self.answers[0] += 1  # the API is down (being restarted): no answer at all
                        continue
                    self.answers[r.status_code] += 1
                    if r.status_code >= 500 and r.status_code != 503:
                        self.server_errors.append(f"{path}: {r.status_code} {r.text[:200]}")

    def __enter__(self) -> Probe:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


@pytest.fixture(scope="module")
def faults(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    home = stack.pg_home() / f"faults-{os.getpid()}"
    services = Services(home)
    services.start_postgres()
    stack.psql(services.pg_port, f"CREATE ROLE {stack.DB_USER} LOGIN CREATEDB")
    stack.psql(services.pg_port, f"CREATE DATABASE loopline OWNER {stack.DB_USER}")
    services.start_redis()
    env = services.env()
    subprocess.run([str(stack.VENV_BIN / "alembic"), "upgrade", "head"], env=env, cwd=stack.ROOT, check=True)
    subprocess.run([str(stack.VENV_BIN / "python"), "-m", "loopline.seed"], env=env, cwd=stack.ROOT, check=True)
    port = stack.free_port()
    api = stack.Supervised("the API", lambda: stack.start_api(env, port))
    worker = stack.Supervised("the worker", lambda: stack.start_worker(env))
    supervising = threading.Event()
    supervising.set()
    done = threading.Event()

    def supervise() -> None:  # what `make run` does between its processes' crashes
        while not done.wait(0.2):
            if supervising.is_set():
                api.check()
                worker.check()

    supervisor = threading.Thread(target=supervise, daemon=True)
    supervisor.start()
    base = f"http://127.0.0.1:{port}"
    try:
        assert stack.wait_http(f"{base}/api/health/ready", timeout_s=90), "the stack did not come up"
        client = httpx.Client(base_url=base, timeout=30)
        assert client.post("/api/v1/auth/login", json=DEMO).status_code == 200
        project = client.get("/api/v1/projects").json()["items"][0]["id"]
        hall = client.get(f"/api/v1/projects/{project}/halls").json()["items"][0]["id"]
        plan = client.post(f"/api/v1/halls/{hall}/wiring-plans", json={"name": "faults", "pattern": "single-homed"})
        assert plan.status_code == 201, plan.text
        yield {
            "services": services, "client": client, "base": base, "project": project, "plan": plan.json()["id"],
            "api": api, "worker": worker, "supervising": supervising,
        }  # fmt: skip
    finally:
        done.set()
        supervisor.join()
        stack.stop_processes([api.proc, worker.proc])
        for stop in (services.stop_redis, services.stop_postgres):
            with contextlib.suppress(Exception):  # whichever state a failed test left it in
                stop()
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(services.redis_dir, ignore_errors=True)


def long_scenario() -> dict[str, Any]:
    """A run of a few seconds: long enough to be killed mid-way."""
    out = subprocess.run(
        [str(stack.ROOT / "sim-engine" / "target" / "release" / "loopline-sim"), "gen", "fattree", "--k", "8",
         "--flows", "600000"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return dict(json.loads(out.stdout))


def submit(f: dict[str, Any], scenario: dict[str, Any] | None = None) -> httpx.Response:
    client: httpx.Client = f["client"]
    if scenario is None:
        return client.post(f"/api/v1/wiring-plans/{f['plan']}/simulations", json={"name": "shuffle"})
    return client.post(f"/api/v1/projects/{f['project']}/simulations", json={"name": "long", "scenario": scenario})


def wait_job(f: dict[str, Any], job_id: int, until: set[str], timeout_s: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            r = f["client"].get(f"/api/v1/simulations/{job_id}")
            if r.status_code == 200 and r.json()["status"] in until:
                return dict(r.json())
        except httpx.TransportError:
            pass  # the API is being restarted
        assert time.monotonic() < deadline, f"simulation {job_id} not {until} after {timeout_s} s"
        time.sleep(0.2)


def start_long_job(f: dict[str, Any]) -> int:
    """Submit a run of a few seconds and wait until a worker runs it; its id."""
    r = submit(f, long_scenario())
    assert r.status_code == 202, r.text
    wait_job(f, r.json()["id"], {"running"})
    return int(r.json()["id"])


def jobs_in_database(f: dict[str, Any]) -> int:
    return int(f["services"].sql("SELECT count(*) FROM simulation_jobs")[0][0])


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_killed_api_is_restarted_and_answers_again(faults: dict[str, Any], round_: int) -> None:
    f = faults
    with Probe(f["base"], f["client"].cookies) as probe:
        old = f["api"].proc.pid
        kill_group(f["api"].proc)
        assert stack.wait_http(f"{f['base']}/api/health/live", timeout_s=60)
        assert f["api"].proc.pid != old
        time.sleep(0.5)
    assert probe.server_errors == []
    assert probe.answers[200] > 0


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_worker_killed_mid_job_hands_it_back_and_it_finishes_once(faults: dict[str, Any], round_: int) -> None:
    f = faults
    with Probe(f["base"], f["client"].cookies) as probe:
        job_id = start_long_job(f)
        kill_group(f["worker"].proc)  # the engine dies with it (its parent-death signal)
        job = wait_job(f, job_id, {"succeeded", "failed", "cancelled"}, timeout_s=180)
    assert (job["status"], job["attempts"]) == ("succeeded", 2), job["error"]
    assert job["result"]["flows"]["finished"] == job["result"]["flows"]["total"]
    assert probe.server_errors == []


@pytest.mark.parametrize("round_", range(ROUNDS))
@pytest.mark.parametrize("keep_file", [True, False], ids=["append-only file kept", "messages lost"])
def test_jobs_queued_across_a_redis_restart_finish_once(faults: dict[str, Any], keep_file: bool, round_: int) -> None:
    f = faults
    f["supervising"].clear()  # no worker while the jobs wait: they stay queued in the broker
    kill_group(f["worker"].proc)
    try:
        with Probe(f["base"], f["client"].cookies) as probe:
            ids = []
            for _ in range(3):
                r = submit(f)
                assert r.status_code == 202, r.text
                ids.append(r.json()["id"])
            time.sleep(1.2)  # the append-only file is written every second
            f["services"].stop_redis(lose_data=not keep_file)
            f["services"].start_redis()
            f["worker"].proc = stack.start_worker(f["services"].env())
            f["worker"].started = time.monotonic()
            f["supervising"].set()
            jobs = [wait_job(f, job_id, {"succeeded", "failed"}, timeout_s=120) for job_id in ids]
    finally:
        f["supervising"].set()
    assert [(j["status"], j["attempts"]) for j in jobs] == [("succeeded", 1)] * 3
    assert probe.server_errors == []


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_submit_while_redis_is_down_is_refused_with_503_and_writes_nothing(
    faults: dict[str, Any], round_: int
) -> None:
    f = faults
    with Probe(f["base"], f["client"].cookies) as probe:
        before = jobs_in_database(f)
        f["services"].stop_redis()
        try:
            refused = submit(f)
            login = httpx.post(f"{f['base']}/api/v1/auth/login", json=DEMO, timeout=30)
        finally:
            f["services"].start_redis()
        assert refused.status_code == 503, refused.text
        assert int(refused.headers["Retry-After"]) > 0
        assert jobs_in_database(f) == before
        assert login.status_code in (200, 503), login.text  # never 500, whichever the throttle chose
        accepted = submit(f)
        assert accepted.status_code == 202, accepted.text
        job = wait_job(f, accepted.json()["id"], {"succeeded", "failed"})
    assert (job["status"], job["attempts"]) == ("succeeded", 1)
    assert probe.server_errors == []


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_postgres_restart_answers_503_never_500_and_the_api_recovers(faults: dict[str, Any], round_: int) -> None:
    f = faults
    with Probe(f["base"], f["client"].cookies) as probe:
        job_id = start_long_job(f)
        f["services"].restart_postgres()
        deadline = time.monotonic() + 30
        while f["client"].get("/api/v1/projects").status_code != 200:
            assert time.monotonic() < deadline, "the API did not recover after PostgreSQL came back"
            time.sleep(0.2)
        job = wait_job(f, job_id, {"succeeded", "failed", "cancelled"}, timeout_s=180)
    assert job["status"] == "succeeded", job["error"]
    assert probe.server_errors == []


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_an_import_cut_off_by_a_killed_worker_is_imported_once(faults: dict[str, Any], round_: int) -> None:
    f, client = faults, faults["client"]
    one = client.get(f"/api/v1/projects/{f['project']}/export").json()
    name = f"faults import {round_}"
    doc = {**one, "project": {**one["project"], "name": name},
           "halls": [{**one["halls"][0], "name": f"H{i:03d}"} for i in range(60)]}  # fmt: skip
    with Probe(f["base"], client.cookies) as probe:
        r = client.post("/api/v1/projects/import", json=doc, headers={"Prefer": "respond-async"})
        assert r.status_code == 202, r.text
        url = f"/api/v1/projects/imports/{r.json()['id']}"
        deadline = time.monotonic() + 120
        while (job := client.get(url).json())["halls_done"] < 1:  # mid-import: some halls in
            assert job["status"] in ("queued", "running") and time.monotonic() < deadline, job
            time.sleep(0.05)
        kill_group(f["worker"].proc)
        while (job := client.get(url).json())["status"] not in ("succeeded", "failed"):
            assert time.monotonic() < deadline + 120, job
            time.sleep(0.2)
    assert (job["status"], job["attempts"], job["halls_done"]) == ("succeeded", 2, 60), job
    names = [p["name"] for p in client.get("/api/v1/projects", params={"limit": 100}).json()["items"]]
    assert names.count(name) == 1  # the cut-off attempt left nothing behind
    assert probe.server_errors == []
