"""Runs the compiled engine as a subprocess with wall-time and memory limits.

The engine reads a scenario file and writes a result file; its stderr progress lines
(``progress: sim_time_s=... flows_done=a/b ...``) are parsed and handed to a callback so the
job row can show progress. Cancellation is a kill of the process group.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_LIBC = ctypes.CDLL(None, use_errno=True)
_PR_SET_PDEATHSIG = 1

FOLDER_PREFIX = "loopline-sim-"
"""Each run's scenario and result live in ``<tmp>/loopline-sim-<worker pid>-<random>/``."""

PROGRESS = re.compile(
    r"^progress: sim_time_s=(?P<t>[\d.]+) flows_done=(?P<done>\d+)/(?P<total>\d+)(?: events=(?P<events>\d+))?"
)
LINK_PROGRESS = re.compile(r"^progress: links_done=(?P<done>\d+)/(?P<total>\d+)(?: events=(?P<events>\d+))?")
"""A decomposed run's line (`run` of a decomposed scenario, `decompose links`): links simulated."""


@dataclass(frozen=True, slots=True)
class EngineLimits:
    wall_s: float
    memory_mb: int


@dataclass(frozen=True, slots=True)
class Progress:
    sim_time_s: float
    flows_done: int
    flows_total: int
    events: int | None = None
    line: str = ""
    """The engine's progress line as it printed it (shown to people as the run's events)."""

    @property
    def fraction(self) -> float:
        return self.flows_done / self.flows_total if self.flows_total else 0.0


@dataclass(frozen=True, slots=True)
class LinkProgress:
    """A decomposed run's progress: links simulated of those it has (a batch: of its own)."""

    links_done: int
    links_total: int
    events: int | None = None
    line: str = ""

    @property
    def fraction(self) -> float:
        return self.links_done / self.links_total if self.links_total else 0.0


class EngineFailed(Exception):
    """The engine refused the scenario, failed, or hit a limit; the message says which."""


class Cancelled(Exception):
    """The job was cancelled and the engine killed."""


def parse_progress(line: str) -> Progress | LinkProgress | None:
    if links := LINK_PROGRESS.match(line):
        events = int(links["events"]) if links["events"] is not None else None
        return LinkProgress(int(links["done"]), int(links["total"]), events, line.strip())
    match = PROGRESS.match(line)
    if not match:
        return None
    events = int(match["events"]) if match["events"] is not None else None
    return Progress(float(match["t"]), int(match["done"]), int(match["total"]), events, line.strip())


OnProgress = Callable[[Progress | LinkProgress], None]
Command = Callable[[Path, Path, Path], list[str]]
"""The engine's arguments after the binary, given the run's folder, its scenario file and the
result file to write (a command may put more inputs in the folder first)."""


def run_command(scenario: Path, result: Path, jobs: int | None = None) -> list[str]:
    """`loopline-sim run`, with `--jobs` (threads of a decomposed run) when given."""
    return ["run", str(scenario), "-o", str(result), "--progress", *(["--jobs", str(jobs)] if jobs else [])]


def run_engine(
    binary: Path,
    scenario: dict[str, Any],
    limits: EngineLimits,
    on_progress: OnProgress | None = None,
    should_cancel: Callable[[], bool] | None = None,
    poll_s: float = 0.5,
) -> dict[str, Any]:
    """Simulate `scenario`; return the engine's result JSON or raise EngineFailed / Cancelled.

    `should_cancel` is polled every `poll_s` from a watchdog thread (it may query the database):
    when it answers True the engine's process group is killed.
    """
    return dict(json.loads(run_engine_raw(binary, scenario, limits, on_progress, should_cancel, poll_s)))


def run_engine_raw(
    binary: Path,
    scenario: dict[str, Any],
    limits: EngineLimits,
    on_progress: OnProgress | None = None,
    should_cancel: Callable[[], bool] | None = None,
    poll_s: float = 0.5,
) -> bytes:
    """`run_engine`, returning the result file's bytes unparsed (a result with per-flow records
    is read in chunks: flow_records.py)."""
    return run_engine_command(
        binary, lambda _, scenario_path, result_path: run_command(scenario_path, result_path), scenario, limits,
        on_progress, should_cancel, poll_s,
    )  # fmt: skip


def run_engine_command(
    binary: Path,
    command: Command,
    scenario: dict[str, Any],
    limits: EngineLimits,
    on_progress: OnProgress | None = None,
    should_cancel: Callable[[], bool] | None = None,
    poll_s: float = 0.5,
) -> bytes:
    """Run the engine command `command` builds on `scenario` under the limits (progress, cancel as
    `run_engine`); the result file's bytes."""
    sweep_orphaned_folders()
    with tempfile.TemporaryDirectory(prefix=f"{FOLDER_PREFIX}{os.getpid()}-") as tmp:
        scenario_path = Path(tmp) / "scenario.json"
        result_path = Path(tmp) / "result.json"
        scenario_path.write_text(json.dumps(scenario))
        argv = command(Path(tmp), scenario_path, result_path)
        memory_bytes = limits.memory_mb * 1024 * 1024

        def _limit_child() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
            # If the worker process dies, the engine dies with it (the job is redelivered anyway).
            _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)

        proc = subprocess.Popen(
            [str(binary), *argv],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=_limit_child,
            start_new_session=True,
        )
        timed_out = threading.Event()
        cancelled = threading.Event()
        finished = threading.Event()

        def _on_timeout() -> None:
            timed_out.set()
            _kill_group(proc)

        def _watch() -> None:
            while should_cancel and not finished.wait(poll_s):
                if should_cancel():
                    cancelled.set()
                    _kill_group(proc)
                    return

        timer = threading.Timer(limits.wall_s, _on_timeout)
        timer.start()
        watchdog = threading.Thread(target=_watch, daemon=True)
        watchdog.start()
        messages: list[str] = []
        try:
            assert proc.stderr is not None
            for line in proc.stderr:
                progress = parse_progress(line)
                if progress is None:
                    messages.append(line.strip())
                elif on_progress:
                    on_progress(progress)
            code = proc.wait()
        finally:
            timer.cancel()
            finished.set()
            watchdog.join()
        if cancelled.is_set():
            raise Cancelled("cancelled while the engine was running")
        if code == 0:
            return result_path.read_bytes()
        raise EngineFailed(_failure_reason(code, messages, limits, timed_out.is_set()))


def sweep_orphaned_folders(root: Path | None = None) -> list[Path]:
    """Remove the run folders of worker processes that died mid-run (a killed pool process cannot
    clean up after itself); folders of live processes are left alone. Returns what was removed."""
    removed = []
    for folder in Path(root or tempfile.gettempdir()).glob(f"{FOLDER_PREFIX}*-*"):
        pid = folder.name.removeprefix(FOLDER_PREFIX).split("-", 1)[0]
        if not pid.isdigit() or _process_alive(int(pid)) or folder.stat().st_uid != os.getuid():
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _failure_reason(code: int, messages: list[str], limits: EngineLimits, timed_out: bool) -> str:
    if timed_out:
        return f"engine exceeded its time limit of {limits.wall_s:g} s"
    if any("memory allocation" in m for m in messages):
        return f"engine exceeded its memory limit of {limits.memory_mb} MB"
    errors = [m for m in messages if m.startswith("error:")]
    if errors:
        return errors[-1].removeprefix("error:").strip()
    if code < 0:
        return f"engine killed by signal {-code}"
    return f"engine exited with status {code}"


def _kill_group(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
