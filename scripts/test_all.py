#!/usr/bin/env python3
"""Run every suite against real services and print one line: `N passed, N failed`.

Suites: static checks (ruff lint and format, mypy, import-linter, clippy, rustfmt, tsc, ESLint,
generated API types up to date, no rule's constant outside its owner), cargo test (engine), pytest
(backend + worker), a bounded schema fuzz of the API (Schemathesis), Vitest (frontend) and
Playwright in Debian's Chromium (e2e, against a freshly migrated and seeded stack).
Exits non-zero when anything failed or when a suite ran no test.

    test_all.py                 everything
    test_all.py --only pytest   one suite (names: checks, cargo, pytest, schema-fuzz, vitest, e2e)
    test_all.py --serial        one suite after the other, output as it comes

By default the suites run in two lanes at once (LANES): most of a suite's time is spent waiting
on a database, a worker or a browser, so two lanes keep both cores of a small machine busy. Each
suite has its own database, Redis databases and ports, so the lanes share nothing but the
PostgreSQL and Redis servers. A lane's output goes to `.run/test-lane-N.log` and is printed
whole when the lane ends.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import stack

ROOT = stack.ROOT
VENV = ROOT / ".venv" / "bin"
SUITES = ("checks", "cargo", "pytest", "schema-fuzz", "vitest", "e2e")
# Split so the lanes take about as long on a 2-core machine (fresh-clone runs before the API tests
# shared one app: pytest 740-930 s; checks 100, cargo 60, vitest 16, e2e 380, schema fuzz 265).
# With pytest's per-test app and password hashes gone (about 450-550 s), pytest follows the
# checks and cargo (one lane: clippy and cargo test take the same build directory's lock) and
# the browser and the schema fuzz, each with a stack of its own, share the other lane.
LANES = (("checks", "cargo", "pytest"), ("vitest", "e2e", "schema-fuzz"))
PYTHON_TREES = ("backend", "worker", "scripts", "migrations", "sim-engine/compare", "conftest.py")


@dataclass
class Outcome:
    name: str
    passed: int = 0
    failed: int = 0
    note: str = ""

    @property
    def ok(self) -> bool:
        return self.failed == 0 and self.passed > 0


def run(cmd: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None) -> int:
    print(f"\n$ {' '.join(cmd)}", flush=True)
    return subprocess.run(cmd, cwd=cwd, env=env).returncode


def junit_counts(path: Path) -> tuple[int, int]:
    """(passed, failed) from a JUnit XML report; skipped tests count as neither."""
    if not path.exists():
        return 0, 0
    root = ET.parse(path).getroot()
    passed = failed = 0
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is None:
            passed += 1
    return passed, failed


# ---------------------------------------------------------------- suites


def suite_checks() -> Outcome:
    """Each static check counts as one test."""
    checks: dict[str, tuple[list[str], Path]] = {
        "ruff": ([str(VENV / "ruff"), "check", *PYTHON_TREES], ROOT),
        "ruff-format": ([str(VENV / "ruff"), "format", "--check", *PYTHON_TREES], ROOT),
        "mypy": ([str(VENV / "mypy")], ROOT),
        "import-linter": ([str(VENV / "lint-imports")], ROOT),
        "clippy": (["cargo", "clippy", "--release", "--all-targets", "--", "-D", "warnings"], ROOT / "sim-engine"),
        "rustfmt": (["cargo", "fmt", "--check"], ROOT / "sim-engine"),
        # the engine builds without its test and benchmark builders (testkit: no floors in it)
        "engine-without-testkit": (
            ["cargo", "check", "--release", "--lib", "--no-default-features"],
            ROOT / "sim-engine",
        ),
        "engine-module-cycles": ([str(VENV / "python"), "scripts/check_engine_modules.py"], ROOT),
        "rule-owners": ([str(VENV / "python"), "scripts/check_rule_owners.py"], ROOT),
        "tsc": (["npx", "tsc", "-b"], ROOT / "frontend"),
        "eslint": (["npx", "eslint", "."], ROOT / "frontend"),
        "prettier": (["npx", "prettier", "--check", "."], ROOT / "frontend"),
        "tsc-e2e": (["npx", "tsc", "-p", "."], ROOT / "e2e"),
        "api-types-current": ([str(VENV / "python"), "scripts/gen_api_types.py", "--check"], ROOT),
        "result-types-current": ([str(VENV / "python"), "scripts/gen_result_types.py", "--check"], ROOT),
    }
    outcome = Outcome("checks")
    failures = []
    for name, (cmd, cwd) in checks.items():
        if run(cmd, cwd) == 0:
            outcome.passed += 1
        else:
            outcome.failed += 1
            failures.append(name)
    outcome.note = f"failed: {', '.join(failures)}" if failures else ""
    return outcome


def suite_cargo() -> Outcome:
    log = Path(tempfile.mkstemp(suffix=".log")[1])
    print("\n$ cargo test --release", flush=True)
    with log.open("w") as out:
        proc = subprocess.Popen(
            ["cargo", "test", "--release"],
            cwd=ROOT / "sim-engine",
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            sys.stdout.write(line)
            out.write(line)
        code = proc.wait()
    text = log.read_text()
    outcome = Outcome("cargo")
    for m in re.finditer(r"test result: \w+\. (\d+) passed; (\d+) failed", text):
        outcome.passed += int(m.group(1))
        outcome.failed += int(m.group(2))
    if code != 0 and outcome.failed == 0:
        outcome.failed, outcome.note = 1, f"cargo test exited {code}"
    return outcome


def suite_pytest() -> Outcome:
    report = ROOT / ".run" / "pytest-junit.xml"
    report.unlink(missing_ok=True)
    code = run([str(VENV / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}"])
    passed, failed = junit_counts(report)
    outcome = Outcome("pytest", passed, failed)
    if code not in (0, 5) and failed == 0:
        outcome.failed, outcome.note = 1, f"pytest exited {code}"
    return outcome


def suite_schema_fuzz() -> Outcome:
    """Schemathesis over every operation, bounded (`make fuzz` runs the long one)."""
    code = run([str(VENV / "python"), "scripts/fuzz_api.py", "--examples", "3"])
    outcome = Outcome("schema-fuzz")
    for name in ("session", "token"):
        passed, failed = junit_counts(ROOT / ".run" / f"schemathesis-{name}.xml")
        outcome.passed += passed
        outcome.failed += failed
    if code != 0 and outcome.failed == 0:
        outcome.failed, outcome.note = 1, f"fuzz_api.py exited {code}"
    return outcome


def suite_vitest() -> Outcome:
    report = ROOT / ".run" / "vitest-junit.xml"
    report.unlink(missing_ok=True)
    code = run(
        ["npx", "vitest", "run", "--reporter=default", "--reporter=junit", f"--outputFile.junit={report}"],
        ROOT / "frontend",
    )
    passed, failed = junit_counts(report)
    outcome = Outcome("vitest", passed, failed)
    if code != 0 and failed == 0:
        outcome.failed, outcome.note = 1, f"vitest exited {code}"
    return outcome


def suite_e2e() -> Outcome:
    """A stack of its own: fresh database, migrated and seeded, API + worker on free ports."""
    report = ROOT / "e2e" / "artifacts" / "junit.xml"
    report.unlink(missing_ok=True)
    try:
        name, env = f"loopline_e2e_{os.getpid()}", {"LOOPLINE_ENV": "test"}
        with stack.app_stack(name, redis_db=4, env_extra=env) as (url, _pid):
            code = run(["npx", "playwright", "test"], ROOT / "e2e", env=dict(os.environ, LOOPLINE_E2E_URL=url))
    except RuntimeError as err:
        return Outcome("e2e", 0, 1, str(err))
    passed, failed = junit_counts(report)
    outcome = Outcome("e2e", passed, failed)
    if code != 0 and failed == 0:
        outcome.failed, outcome.note = 1, f"playwright exited {code}"
    return outcome


RUNNERS = {
    "checks": suite_checks,
    "cargo": suite_cargo,
    "pytest": suite_pytest,
    "schema-fuzz": suite_schema_fuzz,
    "vitest": suite_vitest,
    "e2e": suite_e2e,
}


def run_suites(names: list[str]) -> list[Outcome]:
    outcomes: list[Outcome] = []
    for name in names:
        t0 = time.monotonic()
        outcome = RUNNERS[name]()
        if outcome.passed + outcome.failed == 0:
            outcome.failed, outcome.note = 1, "ran no test"
        outcomes.append(outcome)
        print(
            f"\n== {name}: {outcome.passed} passed, {outcome.failed} failed "
            f"({time.monotonic() - t0:.0f}s) {outcome.note}",
            flush=True,
        )
    return outcomes


def run_lanes(names: list[str]) -> list[Outcome]:
    """The suites in LANES order, each lane a child `test_all.py --serial` of its own."""
    lanes = [[n for n in lane if n in names] for lane in LANES]
    children = []
    for i, lane in enumerate(filter(None, lanes), 1):
        log, report = ROOT / ".run" / f"test-lane-{i}.log", ROOT / ".run" / f"test-lane-{i}.json"
        report.unlink(missing_ok=True)
        cmd = [sys.executable, __file__, "--serial", "--outcomes", str(report), *(f"--only={n}" for n in lane)]
        print(f"lane {i}: {', '.join(lane)} (output in {log.relative_to(ROOT)})", flush=True)
        children.append((i, lane, log, report, subprocess.Popen(cmd, stdout=log.open("w"), stderr=subprocess.STDOUT)))
    outcomes: list[Outcome] = []
    for i, lane, log, report, proc in children:
        code = proc.wait()
        print(f"\n{'=' * 30} lane {i}: {', '.join(lane)} {'=' * 30}\n{log.read_text()}", flush=True)
        done = [Outcome(**o) for o in json.loads(report.read_text())] if report.exists() else []
        outcomes += done
        if len(done) < len(lane):
            outcomes.append(Outcome(f"lane {i}", 0, 1, f"exited {code} before it reported every suite"))
    return outcomes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=SUITES, action="append")
    parser.add_argument("--serial", action="store_true", help="no lanes: one suite after the other")
    parser.add_argument("--outcomes", type=Path, help=argparse.SUPPRESS)  # a lane's report to its parent
    args = parser.parse_args()
    names = args.only or list(SUITES)
    (ROOT / ".run").mkdir(exist_ok=True)
    started_services = stack.pg_running(stack.pg_datadir()) is None
    stack.services()
    try:
        outcomes = run_suites(names) if args.serial or len(names) == 1 else run_lanes(names)
    finally:
        if started_services:
            stack.stop_redis()
            stack.stop_postgres()
    ok = all(o.ok for o in outcomes)
    if args.outcomes:  # a lane: its parent prints the summary
        args.outcomes.write_text(json.dumps([o.__dict__ for o in outcomes]))
        return 0 if ok else 1
    print("\nSummary:")
    for o in outcomes:
        print(f"  {o.name:8s} {o.passed:5d} passed {o.failed:4d} failed  {o.note}")
    passed = sum(o.passed for o in outcomes)
    failed = sum(o.failed for o in outcomes)
    print(f"{passed} passed, {failed} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
