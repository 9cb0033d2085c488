"""The local stack starts from any checkout: a private folder as root, a broken cluster says why."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "stack.py"
spec = importlib.util.spec_from_file_location("stack_under_test", SCRIPT)
assert spec and spec.loader
stack = importlib.util.module_from_spec(spec)
spec.loader.exec_module(stack)

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="the postgres user's reach matters only as root")


@pytest.fixture
def private_checkout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A checkout only its owner may enter, as `mktemp -d` or a home directory makes it."""
    outer = tmp_path_factory.mktemp("private")
    outer.chmod(0o700)
    checkout = outer / "loopline"
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy(SCRIPT, checkout / "scripts" / "stack.py")
    yield checkout
    subprocess.run([sys.executable, "scripts/stack.py", "clean"], cwd=checkout, check=False, capture_output=True)


@as_root
def test_a_checkout_the_server_cannot_enter_keeps_its_cluster_with_the_server_user(private_checkout: Path) -> None:
    home = stack.pg_home(private_checkout)
    postgres_home = Path(stack.pwd.getpwnam("postgres").pw_dir)
    assert home.parent == postgres_home / "loopline"
    assert stack.pg_home(private_checkout) == home, "one folder per checkout, found again on the next start"
    assert stack.pg_home(private_checkout.parent / "other") != home


@as_root
def test_a_checkout_the_server_can_enter_keeps_its_cluster_under_run() -> None:
    outer = Path(tempfile.mkdtemp(dir="/var/tmp"))  # world-traversable parents, unlike pytest's tmp_path
    try:
        outer.chmod(0o755)
        assert stack.pg_home(outer) == outer / ".run"
    finally:
        outer.rmdir()


@as_root
def test_services_start_and_clean_up_from_a_private_checkout(private_checkout: Path) -> None:
    run = [sys.executable, "scripts/stack.py"]
    started = subprocess.run([*run, "services"], cwd=private_checkout, capture_output=True, text=True, check=False)
    assert started.returncode == 0, started.stdout + started.stderr
    home = stack.pg_home(private_checkout)
    assert (home / "pg" / "PG_VERSION").exists()
    port = stack.pg_running(home / "pg")
    assert port is not None
    assert stack.psql(port, "SELECT 1 FROM pg_database WHERE datname = 'loopline'") == "1"

    cleaned = subprocess.run([*run, "clean"], cwd=private_checkout, capture_output=True, text=True, check=False)
    assert cleaned.returncode == 0, cleaned.stderr
    assert not home.exists()
    assert stack.pg_running(home / "pg") is None


def test_a_cluster_that_cannot_start_says_why_in_one_line(tmp_path: Path) -> None:
    checkout = tmp_path / "loopline"
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy(SCRIPT, checkout / "scripts" / "stack.py")
    run = [sys.executable, "scripts/stack.py"]
    try:
        first = subprocess.run([*run, "services"], cwd=checkout, capture_output=True, text=True, check=False)
        assert first.returncode == 0, first.stderr
        subprocess.run([*run, "stop"], cwd=checkout, check=True, capture_output=True)
        home = stack.pg_home(checkout)
        (home / "pg" / "postgresql.conf").write_text("this is not a setting\n")

        broken = subprocess.run([*run, "services"], cwd=checkout, capture_output=True, text=True, check=False)
        assert broken.returncode == 1
        assert "Traceback" not in broken.stderr
        lines = broken.stderr.strip().splitlines()
        assert len(lines) == 1
        assert lines[0].startswith("error: PostgreSQL did not start")
        assert "postgresql.conf" in lines[0] and "server.log" in lines[0]
    finally:
        subprocess.run([*run, "clean"], cwd=checkout, check=False, capture_output=True)


def _server(statuses: list[int]) -> tuple[str, list[int]]:
    """A local HTTP server answering `statuses` in order (the last one from then on); the answers given."""
    import http.server
    import threading

    given: list[int] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status = statuses[min(len(given), len(statuses) - 1)]
            given.append(status)
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/ready", given


def test_waiting_for_readiness_goes_on_through_503_and_stops_at_an_answer() -> None:
    # 503: a part still starting (the worker, the API's lanes process); ask again.
    url, given = _server([503, 503, 200])
    assert stack.wait_http(url, timeout_s=10) is True
    assert given == [503, 503, 200]
    # Any other answer ends the wait at once: below 500 up, 500 and others down.
    url, given = _server([500])
    assert stack.wait_http(url, timeout_s=10) is False
    assert given == [500]
    url, given = _server([404])
    assert stack.wait_http(url, timeout_s=10) is True
    assert given == [404]
