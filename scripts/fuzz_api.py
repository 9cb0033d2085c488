#!/usr/bin/env python3
"""Schema fuzzing of the whole API with Schemathesis, against a running stack of its own.

Starts a fresh stack (migrated, seeded), logs in as the demo user and creates an API token with
every scope, then runs Schemathesis over every operation of the OpenAPI document twice: once with
the browser session cookie, once with the token. Every check Schemathesis has (`--checks all`:
server errors, documented statuses, content types, headers and schemas, schema-valid requests
accepted and schema-invalid ones refused, missing required headers, undeclared methods, `Allow`,
ignored auth, use after delete, created resources reachable) and every phase: examples, coverage,
fuzzing and the stateful phase, which follows the document's links (project -> hall -> row ->
rack, plan -> simulation, ...). `schemathesis.toml` holds the few documented exceptions, each
with its reason. Writes JUnit reports and NDJSON event logs under `.run/`, prints the requests
sent per credential and `N passed, N failed` (one test per operation and credential).

    .venv/bin/python scripts/fuzz_api.py                 # bounded: a few examples per operation (make test)
    .venv/bin/python scripts/fuzz_api.py --examples 25   # long (make fuzz)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import stack
from test_all import junit_counts

from loopline.services.access import Scope

ROOT = stack.ROOT
PYTHON = ROOT / ".venv" / "bin" / "python"
CONFIG = ROOT / "schemathesis.toml"
PHASES = "examples,coverage,fuzzing,stateful"
# Every scope the API has, so the fuzzed token can reach every operation.
ALL_SCOPES = sorted(scope.value for scope in Scope)


def schemathesis_cli(argv: list[str]) -> int:
    """`st` itself, with one fix: hypothesis 6.131.28 (pinned) builds `repr(Rule)` with
    `dataclasses.asdict`, which deep-copies each rule's strategies and fails on a lock in
    Schemathesis' state machine ("cannot pickle '_thread.lock' object"), so the stateful phase
    never ran. Fixed upstream (HypothesisWorks/hypothesis#4440); this repr names the rule."""
    import hypothesis.stateful
    from schemathesis.cli import schemathesis

    def rule_repr(rule: hypothesis.stateful.Rule) -> str:
        return f"Rule({getattr(rule.function, '__name__', 'rule')})"

    hypothesis.stateful.Rule.__repr__ = rule_repr  # type: ignore[method-assign]
    schemathesis.main(argv, prog_name="st")  # exits with Schemathesis' status
    return 1


def credential(base: str, kind: str) -> str:
    """A header line for one way in: the demo user's session cookie, or an API token with every scope."""
    with httpx.Client(base_url=base, timeout=60) as client:
        r = client.post("/api/v1/auth/login", json={"email": "demo@loopline.local", "password": "loopline-demo"})
        r.raise_for_status()
        if kind == "session":
            return f"Cookie: loopline_session={client.cookies['loopline_session']}"
        r = client.post("/api/v1/tokens", json={"name": "schema fuzz", "scopes": ALL_SCOPES})
        r.raise_for_status()
        return f"Authorization: Bearer {r.json()['token']}"


def requests_sent(events: Path) -> int:
    """HTTP requests Schemathesis sent in one run, counted from its NDJSON event log (every
    interaction a scenario recorded, stateful steps and check-made requests included)."""
    count = 0
    if not events.is_file():
        return 0
    with events.open(encoding="utf-8") as lines:
        for line in lines:
            if '"interactions"' not in line:
                continue
            count += _interactions(json.loads(line))
    return count


def _interactions(node: object) -> int:
    if isinstance(node, dict):
        found = node.get("interactions")
        if isinstance(found, dict):
            return len(found)
        return sum(_interactions(value) for value in node.values())
    if isinstance(node, list):
        return sum(_interactions(value) for value in node)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=int(os.environ.get("LOOPLINE_FUZZ_EXAMPLES", "5")))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    passed = failed = sent = 0
    with stack.app_stack(f"loopline_fuzz_{os.getpid()}", redis_db=8, env_extra={"LOOPLINE_ENV": "test"}) as (base, _):
        # Both made before any fuzzing (fuzzed logins may throttle new ones); the token run first,
        # as the session run may revoke tokens.
        headers = {name: credential(base, name) for name in ("session", "token")}
        for name in ("token", "session"):
            header = headers[name]
            # Logging out would end the session the rest of the run uses; the token run covers it.
            skip = ["--exclude-path", "/api/v1/auth/logout"] if name == "session" else []
            report = ROOT / ".run" / f"schemathesis-{name}.xml"
            events = ROOT / ".run" / f"schemathesis-{name}.ndjson"
            report.unlink(missing_ok=True)
            events.unlink(missing_ok=True)
            cmd = [
                str(PYTHON), __file__, "st", "--config-file", str(CONFIG), "run", f"{base}/openapi.json",
                "--checks", "all",
                "--header", header,
                "--max-examples", str(args.examples),
                "--seed", str(args.seed),
                "--phases", PHASES,
                "--workers", "1",
                "--request-timeout", "60",
                "--suppress-health-check", "all",
                "--generation-database", "none",
                "--generation-with-security-parameters", "false",
                "--report", "junit,ndjson", "--report-junit-path", str(report), "--report-ndjson-path", str(events),
                "--no-color",
                *skip,
            ]  # fmt: skip
            print(f"\n$ st run ... ({name}, {args.examples} examples per operation)", flush=True)
            code = subprocess.run(cmd, cwd=ROOT, check=False).returncode
            p, f = junit_counts(report)
            requests = requests_sent(events)
            sent += requests
            print(f"schema fuzz ({name}): {requests} requests", flush=True)
            if code != 0 and f == 0:
                f = 1
            passed, failed = passed + p, failed + f
    print(f"schema fuzz: {sent} requests in all")
    print(f"schema fuzz: {passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(schemathesis_cli(sys.argv[2:]) if sys.argv[1:2] == ["st"] else main())
