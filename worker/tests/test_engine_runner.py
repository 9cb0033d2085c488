"""The worker's engine runner against the real compiled engine."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from loopline.settings import get_settings
from loopline_worker.engine import (
    FOLDER_PREFIX,
    Cancelled,
    EngineFailed,
    EngineLimits,
    LinkProgress,
    Progress,
    parse_progress,
    run_command,
    run_engine,
    sweep_orphaned_folders,
)

GENEROUS = EngineLimits(wall_s=120, memory_mb=2048)


def engine() -> Path:
    return get_settings().engine_binary


def generated(*args: str) -> dict[str, Any]:
    out = subprocess.run([str(engine()), "gen", *args], check=True, capture_output=True, text=True)
    return dict(json.loads(out.stdout))


def test_parse_progress_reads_the_engine_progress_line() -> None:
    line = "progress: sim_time_s=0.125000 flows_done=30/240 events=60 events_per_s=1000"
    assert parse_progress(line) == Progress(0.125, 30, 240, 60, line)
    assert parse_progress("done: sim_time_s=0.1") is None


def test_parse_progress_reads_a_decomposed_runs_line_in_links() -> None:
    line = "progress: links_done=12/340 events=4410233 events_per_s=812345"
    assert parse_progress(line) == LinkProgress(12, 340, 4410233, line)
    assert LinkProgress(12, 340).fraction == 12 / 340 and LinkProgress(0, 0).fraction == 0.0
    assert parse_progress("progress: links_done=3/4\n") == LinkProgress(3, 4, None, "progress: links_done=3/4")


def test_the_run_command_asks_for_threads_only_when_given() -> None:
    s, r = Path("/t/s.json"), Path("/t/r.json")
    assert run_command(s, r) == ["run", "/t/s.json", "-o", "/t/r.json", "--progress"]
    assert run_command(s, r, 16) == ["run", "/t/s.json", "-o", "/t/r.json", "--progress", "--jobs", "16"]


def test_a_shuffle_on_a_subways_cluster_returns_the_engine_result() -> None:
    # 4 logical racks x 4 servers: 16 servers, all-to-all = 16 * 15 = 240 flows.
    seen: list[Progress] = []
    result = run_engine(
        engine(), generated("subways", "--racks", "4", "--servers-per-rack", "4"), GENEROUS, seen.append
    )
    assert result["flows"]["total"] == 240
    assert result["flows"]["finished"] == 240
    assert result["model"] == "fluid"
    assert result["job_completion_s"] > 0


def test_a_bad_scenario_fails_with_the_engine_message_naming_the_field() -> None:
    scenario = generated("subways", "--racks", "4", "--servers-per-rack", "4")
    scenario["network"]["links"][0]["b"] = "NO-SUCH-NODE"
    with pytest.raises(EngineFailed) as failure:
        run_engine(engine(), scenario, GENEROUS)
    assert "network.links[0].b" in str(failure.value)
    assert "NO-SUCH-NODE" in str(failure.value)


def test_the_wall_time_limit_kills_the_engine() -> None:
    big = generated("fattree", "--k", "16", "--flows", "2000000")
    with pytest.raises(EngineFailed, match="time limit of 0.2 s"):
        run_engine(engine(), big, EngineLimits(wall_s=0.2, memory_mb=4096))


def test_cancelling_kills_the_engine_promptly() -> None:
    big = generated("fattree", "--k", "16", "--flows", "2000000")
    polls: list[float] = []

    def should_cancel() -> bool:
        polls.append(time.monotonic())
        return len(polls) >= 2

    t0 = time.monotonic()
    with pytest.raises(Cancelled):
        run_engine(engine(), big, GENEROUS, should_cancel=should_cancel, poll_s=0.05)
    # Cancelled at the second poll (~0.1 s), long before the 120 s time limit.
    assert time.monotonic() - t0 < 10


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_sweeping_removes_only_the_folders_of_dead_processes(tmp_path: Path) -> None:
    dead = tmp_path / f"{FOLDER_PREFIX}{_dead_pid()}-abc123"
    live = tmp_path / f"{FOLDER_PREFIX}{os.getpid()}-def456"
    unrelated = tmp_path / f"{FOLDER_PREFIX}notapid-x"
    for folder in (dead, live, unrelated):
        folder.mkdir()
        (folder / "scenario.json").write_text("{}")
    assert sweep_orphaned_folders(tmp_path) == [dead]
    assert not dead.exists()
    assert live.exists() and unrelated.exists()


def test_a_worker_killed_mid_run_leaves_no_folder_behind_after_the_next_run() -> None:
    """A killed pool process cannot clean up; the next run of any worker does."""
    big = json.dumps(generated("fattree", "--k", "16", "--flows", "2000000"))
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from loopline_worker.engine import EngineLimits, run_engine\n"
        f"run_engine(Path({str(engine())!r}), json.loads(sys.stdin.read()), EngineLimits(120, 4096))\n"
    )
    victim = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, text=True)
    assert victim.stdin is not None
    victim.stdin.write(big)
    victim.stdin.close()
    pattern = f"{FOLDER_PREFIX}{victim.pid}-*"
    deadline = time.monotonic() + 60
    while not list(Path(tempfile.gettempdir()).glob(pattern)):
        assert time.monotonic() < deadline, "the run folder never appeared"
        time.sleep(0.05)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    left = list(Path(tempfile.gettempdir()).glob(pattern))
    assert len(left) == 1, "the killed process could not remove its own folder"

    run_engine(engine(), generated("subways", "--racks", "2", "--servers-per-rack", "2"), GENEROUS)
    assert not left[0].exists()
