"""The worker's engine runner against the real compiled engine."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from loopline.settings import get_settings
from loopline_worker.engine import Cancelled, EngineFailed, EngineLimits, Progress, parse_progress, run_engine

GENEROUS = EngineLimits(wall_s=120, memory_mb=2048)


def engine() -> Path:
    return get_settings().engine_binary


def generated(*args: str) -> dict[str, Any]:
    out = subprocess.run([str(engine()), "gen", *args], check=True, capture_output=True, text=True)
    return dict(json.loads(out.stdout))


def test_parse_progress_reads_the_engine_progress_line() -> None:
    line = "progress: sim_time_s=0.125000 flows_done=30/240 events=60 events_per_s=1000"
    assert parse_progress(line) == Progress(0.125, 30, 240)
    assert parse_progress("done: sim_time_s=0.1") is None


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
