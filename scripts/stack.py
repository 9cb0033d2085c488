#!/usr/bin/env python3
"""Local stack supervisor: PostgreSQL and Redis under .run/, then the API and a Celery worker.

    stack.py services      start (or reuse) PostgreSQL + Redis; print their URLs as JSON
    stack.py run           services + migrate + seed + API + worker; a crashed API or worker is
                           restarted (with backoff); Ctrl-C stops what it started
    stack.py stop          stop every process recorded under .run/
    stack.py clean         stop, and remove a cluster kept outside .run/ (see `pg_home`)

Standard library only, so it runs before anything else is installed. Ports: the preferred ones
unless taken by a process that is not ours, in which case a free one is picked and announced.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / ".run"
VENV_BIN = ROOT / ".venv" / "bin"
PREFERRED = {"postgres": 54329, "redis": 63799, "api": 8765}
DB_USER = "loopline"
RUN_API_WORKERS = 1
"""Processes of the API's lanes process `make run` starts (`LOOPLINE_API_WORKERS` overrides; the
front, which answers health and the cheap reads, is one more: `loopline.api.serve`). One by
default: with two, heavy reads' p99 at 64 clients rose by half (the kernel splits connections
unevenly between the processes) and one download in ~5,000 ended in a client read error that is
not explained yet (scripts/bench_load.py, README)."""
DB_NAME = "loopline"
SUPERVISOR_PID = RUN / "supervisor.pid"


def say(msg: str) -> None:
    print(f"[loopline] {msg}", flush=True)


# ---------------------------------------------------------------- ports and pids


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def choose_port(name: str) -> int:
    preferred = int(os.environ.get(f"LOOPLINE_{name.upper()}_PORT", PREFERRED[name]))
    if port_is_free(preferred):
        return preferred
    port = free_port()
    say(f"port {preferred} for {name} is taken by another program; using {port} instead")
    return port


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def read_state() -> dict[str, int]:
    path = RUN / "ports.json"
    return json.loads(path.read_text()) if path.exists() else {}


def write_state(state: dict[str, int]) -> None:
    # Atomic: the lanes of make test read it while another lane writes it.
    RUN.mkdir(exist_ok=True)
    tmp = RUN / f"ports.json.{os.getpid()}"
    tmp.write_text(json.dumps(state, indent=2))
    tmp.replace(RUN / "ports.json")


# ---------------------------------------------------------------- PostgreSQL


def pg_bin(tool: str) -> str:
    for candidate in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{tool}"), reverse=True):
        return str(candidate)
    found = shutil.which(tool)
    if not found:
        sys.exit(f"error: PostgreSQL's {tool} not found; run `make install`")
    return found


def as_pg_owner(cmd: list[str]) -> list[str]:
    """initdb and postgres refuse to run as root: run them as the `postgres` system user.
    Run the result with `cwd="/"`: that user may not be able to enter the current folder."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


def pg_home(root: Path = ROOT) -> Path:
    """The folder holding the cluster (`pg/`) and its socket (`pgsock/`).

    `.run/` when the server's user can reach it. As root, the server runs as `postgres`, which
    cannot enter a checkout in a private folder (a home directory, `mktemp -d`): the cluster then
    lives in a folder of that user's own, one per checkout, named by the checkout's path.
    """
    if os.geteuid() != 0 or _postgres_can_enter(root):
        return root / ".run"
    digest = hashlib.sha256(str(root).encode()).hexdigest()[:12]
    return Path(pwd.getpwnam("postgres").pw_dir) / "loopline" / digest


def _postgres_can_enter(folder: Path) -> bool:
    probe = ["runuser", "-u", "postgres", "--", "test", "-x", str(folder)]
    return subprocess.run(probe, check=False, capture_output=True).returncode == 0


def pg_datadir() -> Path:
    return pg_home() / "pg"


def pg_running(datadir: Path) -> int | None:
    pidfile = datadir / "postmaster.pid"
    if not pidfile.exists():
        return None
    try:
        lines = pidfile.read_text().splitlines()
        pid, port = int(lines[0]), int(lines[3])
    except (OSError, ValueError, IndexError):
        return None
    return port if pid_alive(pid) else None


def _owned_by_postgres(folder: Path) -> None:
    """Create `folder` (and parents) for the server's user when running as root."""
    if os.geteuid() != 0:
        folder.mkdir(parents=True, exist_ok=True)
        return
    owner = pwd.getpwnam("postgres")
    missing = [p for p in [folder, *folder.parents] if not p.exists()]
    folder.mkdir(parents=True, exist_ok=True)
    for created in [folder, *missing]:
        os.chown(created, owner.pw_uid, owner.pw_gid)


def _service_failed(what: str, log: Path, err: subprocess.CalledProcessError) -> NoReturn:
    """One line that says what failed and where to look, instead of a traceback."""
    tail = ""
    with contextlib.suppress(OSError):
        lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
        tail = f": {lines[-1].strip()}" if lines else ""
    detail = (err.stderr or b"").decode(errors="replace").strip().splitlines()
    reason = tail or (f": {detail[-1]}" if detail else f" (exit {err.returncode})")
    sys.exit(f"error: {what} did not start{reason}. See {log}; fix that, then `make stop` and try again.")


def start_postgres() -> int:
    home = pg_home()
    datadir = home / "pg"
    sockdir = home / "pgsock"
    port = pg_running(datadir)
    if port:
        say(f"PostgreSQL already running on 127.0.0.1:{port} (reusing)")
        return port
    RUN.mkdir(exist_ok=True)
    log = datadir / "server.log"
    if not (datadir / "PG_VERSION").exists():
        _owned_by_postgres(datadir)
        say(f"initialising a PostgreSQL cluster under {datadir}")
        try:
            subprocess.run(
                as_pg_owner([pg_bin("initdb"), "-D", str(datadir), "-U", "postgres", "--auth=trust", "-E", "UTF8"]),
                check=True,
                cwd="/",
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        except subprocess.CalledProcessError as err:
            _service_failed("PostgreSQL's initdb", log, err)
    _owned_by_postgres(sockdir)
    port = choose_port("postgres")
    opts = f"-p {port} -k {sockdir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    try:
        subprocess.run(
            as_pg_owner([pg_bin("pg_ctl"), "-D", str(datadir), "-o", opts, "-l", str(log), "-w", "start"]),
            check=True,
            cwd="/",
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    except subprocess.CalledProcessError as err:
        _service_failed("PostgreSQL", log, err)
    say(f"PostgreSQL started on 127.0.0.1:{port}")
    ensure_database(port, DB_NAME)
    return port


def psql(port: int, sql: str, db: str = "postgres") -> str:
    out = subprocess.run(
        [pg_bin("psql"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-d", db, "-tAc", sql],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def ensure_database(port: int, name: str) -> None:
    if not psql(port, f"SELECT 1 FROM pg_roles WHERE rolname = '{DB_USER}'"):
        psql(port, f"CREATE ROLE {DB_USER} LOGIN CREATEDB")
    if not psql(port, f"SELECT 1 FROM pg_database WHERE datname = '{name}'"):
        psql(port, f"CREATE DATABASE {name} OWNER {DB_USER}")


def stop_postgres() -> None:
    datadir = pg_datadir()
    if pg_running(datadir):
        subprocess.run(
            as_pg_owner([pg_bin("pg_ctl"), "-D", str(datadir), "-m", "fast", "-w", "stop"]),
            check=False,
            cwd="/",
            stdout=subprocess.DEVNULL,
        )
        say("PostgreSQL stopped")


# ---------------------------------------------------------------- Redis


def start_redis() -> int:
    pidfile = RUN / "redis.pid"
    state = read_state()
    if pidfile.exists() and pid_alive(int(pidfile.read_text().strip() or 0)) and "redis" in state:
        say(f"Redis already running on 127.0.0.1:{state['redis']} (reusing)")
        return state["redis"]
    redis_dir = RUN / "redis"
    redis_dir.mkdir(parents=True, exist_ok=True)
    port = choose_port("redis")
    server = shutil.which("redis-server") or sys.exit("error: redis-server not found; run `make install`")
    subprocess.run(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(redis_dir),
            "--daemonize",
            "yes",
            "--pidfile",
            str(pidfile),
            "--logfile",
            str(redis_dir / "redis.log"),
            # Queued jobs' messages survive a Redis restart (append-only file, fsync every second:
            # at most a second of sends lost, and those the reconciler sends again).
            "--save",
            "",
            "--appendonly",
            "yes",
            "--appendfsync",
            "everysec",
        ],
        check=True,
    )
    for _ in range(100):
        if not port_is_free(port) and pidfile.exists():
            break
        time.sleep(0.05)
    say(f"Redis started on 127.0.0.1:{port}")
    return port


def stop_redis() -> None:
    pidfile = RUN / "redis.pid"
    if pidfile.exists():
        pid = int(pidfile.read_text().strip() or 0)
        if pid and pid_alive(pid):
            os.kill(pid, signal.SIGTERM)
            for _ in range(100):
                if not pid_alive(pid):
                    break
                time.sleep(0.05)
            say("Redis stopped")
        pidfile.unlink(missing_ok=True)


# ---------------------------------------------------------------- services


def services() -> dict[str, int]:
    state = read_state()
    state["postgres"] = start_postgres()
    write_state(state)
    state["redis"] = start_redis()
    write_state(state)
    return state


def service_env(state: dict[str, int], db: str = DB_NAME, redis_db: int = 0) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        LOOPLINE_DATABASE_URL=f"postgresql+psycopg://{DB_USER}@127.0.0.1:{state['postgres']}/{db}",
        LOOPLINE_BROKER_URL=f"redis://127.0.0.1:{state['redis']}/{redis_db}",
        LOOPLINE_RESULT_BACKEND=f"redis://127.0.0.1:{state['redis']}/{redis_db + 1}",
    )
    return env


def start_api(env: dict[str, str], api_port: int) -> subprocess.Popen[bytes]:
    """The API in its own process group: `loopline.api.serve` runs its two processes, the front on
    `api_port` and the lanes process behind it (`LOOPLINE_API_WORKERS` processes of it)."""
    return subprocess.Popen(
        [str(VENV_BIN / "python"), "-m", "loopline.api.serve", "--host", "127.0.0.1", "--port", str(api_port)],
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )


def start_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    """One Celery worker in its own process group, logging to .run/logs/worker.log."""
    logs = RUN / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(
        [
            str(VENV_BIN / "celery"),
            "-A",
            "loopline_worker.app",
            "worker",
            "--loglevel",
            "INFO",
            "--concurrency",
            "1",
            "--without-gossip",
            "--without-mingle",
            "--logfile",
            str(logs / "worker.log"),
        ],
        env=env,
        cwd=ROOT / "worker",
        start_new_session=True,
    )


def start_app_processes(env: dict[str, str], api_port: int) -> list[subprocess.Popen[bytes]]:
    """API (uvicorn) and one Celery worker, each in its own process group."""
    return [start_api(env, api_port), start_worker(env)]


RESTART_BACKOFF_S = (1, 2, 4, 8, 16, 30)
"""Waits before restarting a crashed process, one step further each crash in a row."""
STEADY_S = 60.0
"""A process that ran this long before it crashed starts the backoff over."""


class Supervised:
    """A process `run` keeps alive: restarted after a crash, with backoff, and said so."""

    def __init__(self, name: str, start: Callable[[], subprocess.Popen[bytes]]) -> None:
        self.name, self.start = name, start
        self.proc = start()
        self.started = time.monotonic()
        self.crashes = 0
        self.restart_at: float | None = None

    def check(self) -> None:
        """Restart the process if it is due; note a crash and schedule its restart."""
        now = time.monotonic()
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.proc, self.started, self.restart_at = self.start(), now, None
                say(f"{self.name} restarted (pid {self.proc.pid})")
            return
        code = self.proc.poll()
        if code is None:
            return
        self.crashes = 1 if now - self.started >= STEADY_S else self.crashes + 1
        wait = RESTART_BACKOFF_S[min(self.crashes, len(RESTART_BACKOFF_S)) - 1]
        say(f"{self.name} exited unexpectedly (code {code}); restarting in {wait} s (crash {self.crashes} in a row)")
        self.restart_at = now + wait


REDIS_PAIRS = range(2, 16, 2)
"""First databases of the pairs (broker, results) that test sessions and stacks of their own take:
`make run` keeps 0 and 1."""


def _redis(port: int, *args: str) -> str:
    out = subprocess.run(["redis-cli", "-p", str(port), "-n", "0", *args], check=True, capture_output=True, text=True)
    return out.stdout.strip()


def claim_redis_pair(port: int, preferred: int) -> int:
    """The first database of a Redis pair no running process holds, `preferred` when free. Two test
    sessions or stacks on one broker database take each other's tasks (a job of one run by the
    other's worker, on the other's database). A claim is a key naming its holder's pid; a holder
    that died leaves a claim the next one takes over. Give it back with `release_redis_pair`."""
    me = str(os.getpid())
    for first in (preferred, *(n for n in REDIS_PAIRS if n != preferred)):
        key = f"loopline:redis-pair:{first}"
        if _redis(port, "SET", key, me, "NX", "EX", str(24 * 3600)) == "OK":
            return first
        holder = _redis(port, "GET", key)
        if holder.isdigit() and not pid_alive(int(holder)) and _redis(port, "SET", key, me, "XX") == "OK":
            return first
    raise RuntimeError(f"every Redis database pair {list(REDIS_PAIRS)} is held by a running test session or stack")


def release_redis_pair(port: int, first: int) -> None:
    """Give back a pair this process claimed (another's claim is left alone)."""
    key = f"loopline:redis-pair:{first}"
    if _redis(port, "GET", key) == str(os.getpid()):
        _redis(port, "DEL", key)


@contextlib.contextmanager
def app_stack(name: str, redis_db: int, env_extra: dict[str, str] | None = None) -> Iterator[tuple[str, int]]:
    """A stack of its own for a suite or a benchmark: a fresh database `name`, migrated and seeded,
    the API and a worker on a free port, with the Redis pair `redis_db` (or another free one: see
    `claim_redis_pair`). Yields (base URL, API pid); removes it all afterwards."""
    state = services()
    redis_db = claim_redis_pair(state["redis"], redis_db)
    try:
        with _app_stack(state, name, redis_db, env_extra) as stack:
            yield stack
    finally:
        release_redis_pair(state["redis"], redis_db)


@contextlib.contextmanager
def _app_stack(
    state: dict[str, int], name: str, redis_db: int, env_extra: dict[str, str] | None
) -> Iterator[tuple[str, int]]:
    psql(state["postgres"], f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    ensure_database(state["postgres"], name)
    env = service_env(state, db=name, redis_db=redis_db)
    env.update(env_extra or {})
    for db in (redis_db, redis_db + 1):  # its broker and results, and login counts left by an earlier run
        subprocess.run(
            ["redis-cli", "-p", str(state["redis"]), "-n", str(db), "flushdb"], check=True, capture_output=True
        )
    subprocess.run([str(VENV_BIN / "alembic"), "upgrade", "head"], env=env, cwd=ROOT, check=True)
    subprocess.run([str(VENV_BIN / "python"), "-m", "loopline.seed"], env=env, cwd=ROOT, check=True)
    port = free_port()
    procs = start_app_processes(env, port)
    try:
        url = f"http://127.0.0.1:{port}"
        if not wait_http(f"{url}/api/health/ready", timeout_s=90):
            raise RuntimeError(f"the stack for {name} did not come up (logs under .run/logs)")
        yield url, procs[0].pid
    finally:
        stop_processes(procs)
        psql(state["postgres"], f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def stop_processes(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    deadline = time.time() + 10
    for proc in procs:
        try:
            proc.wait(timeout=max(0.1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def wait_http(url: str, timeout_s: float = 30.0) -> bool:
    import urllib.error
    import urllib.request

    deadline = time.time() + timeout_s
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=10) as resp:
                return bool(resp.status < 500)
        except urllib.error.HTTPError as err:
            if err.code != 503:
                return err.code < 500
            # Not ready yet (a part still starting: the worker, or the API's lanes process).
            time.sleep(0.2)
        except OSError:
            time.sleep(0.2)
    return False


def run() -> int:
    state = services()
    env = service_env(state)
    env.setdefault("LOOPLINE_API_WORKERS", str(RUN_API_WORKERS))
    say("applying migrations")
    subprocess.run([str(VENV_BIN / "alembic"), "upgrade", "head"], env=env, cwd=ROOT, check=True)
    say("seeding the demo project")
    subprocess.run([str(VENV_BIN / "python"), "-m", "loopline.seed"], env=env, cwd=ROOT, check=True)
    api_port = choose_port("api")
    state["api"] = api_port
    write_state(state)
    supervised = [
        Supervised("the API", lambda: start_api(env, api_port)),
        Supervised("the worker", lambda: start_worker(env)),
    ]

    def record_pids() -> None:
        (RUN / "app.pids").write_text("\n".join(str(p.proc.pid) for p in supervised))

    record_pids()
    SUPERVISOR_PID.write_text(str(os.getpid()))
    stopping = False

    def _stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    try:
        url = f"http://127.0.0.1:{api_port}"
        if wait_http(f"{url}/api/health", timeout_s=60):
            say(f"Loopline is running at {url}/")
            say("log in as demo@loopline.local with password 'loopline-demo' (see README)")
            say(f"health: {url}/api/health   API docs: {url}/docs   stop: Ctrl-C or `make stop`")
        else:
            say("the API did not come up; see the output above")
            stopping = True
        # A crashed API or worker is restarted (PostgreSQL and Redis keep running): jobs it was
        # running are sent again by the reconciler, and nothing else stops with it.
        while not stopping:
            pids = [p.proc.pid for p in supervised]
            for process in supervised:
                process.check()
            if [p.proc.pid for p in supervised] != pids:
                record_pids()
            time.sleep(0.3)
    finally:
        say("stopping")
        stop_processes([p.proc for p in supervised])
        (RUN / "app.pids").unlink(missing_ok=True)
        SUPERVISOR_PID.unlink(missing_ok=True)
        stop_redis()
        stop_postgres()
    return 0


def clean() -> int:
    """Stop everything, then remove the cluster when it lives outside `.run/` (see `pg_home`)."""
    stop()
    home = pg_home()
    if home != RUN and home.exists():
        shutil.rmtree(home)
        say(f"removed {home}")
    return 0


def stop() -> int:
    # The supervisor first, so that it stops its processes instead of restarting them.
    if SUPERVISOR_PID.exists():
        pid = int(SUPERVISOR_PID.read_text().strip() or 0)
        if pid and pid_alive(pid):
            os.kill(pid, signal.SIGTERM)
            for _ in range(400):
                if not pid_alive(pid):
                    break
                time.sleep(0.05)
        SUPERVISOR_PID.unlink(missing_ok=True)
    pids_file = RUN / "app.pids"
    if pids_file.exists():
        for line in pids_file.read_text().split():
            pid = int(line)
            if pid_alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGTERM)
        pids_file.unlink(missing_ok=True)
    stop_redis()
    stop_postgres()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["services", "run", "stop", "clean"])
    args = parser.parse_args()
    if args.command == "services":
        print(json.dumps(services()))
        return 0
    if args.command == "run":
        return run()
    if args.command == "clean":
        return clean()
    return stop()


if __name__ == "__main__":
    sys.exit(main())
