#!/usr/bin/env python3
"""Schema fuzzing of the whole API with Schemathesis, against a running stack of its own.

Starts a fresh stack (migrated, seeded), logs in as the demo user and creates an API token with
every scope, then runs Schemathesis over every operation of the OpenAPI document twice: once with
the browser session cookie, once with the token. Checks: no server error, responses match the
documented status codes, content types, headers and schemas. Writes JUnit reports under `.run/`
and prints `N passed, N failed` (one test per operation and credential).

    .venv/bin/python scripts/fuzz_api.py                 # bounded: a few examples per operation (make test)
    .venv/bin/python scripts/fuzz_api.py --examples 200  # long (make fuzz)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import httpx
import stack
from test_all import junit_counts

from loopline.services.access import Scope

ROOT = stack.ROOT
ST = ROOT / ".venv" / "bin" / "st"
CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_headers_conformance,response_schema_conformance"
)
# Every scope the API has, so the fuzzed token can reach every operation.
ALL_SCOPES = sorted(scope.value for scope in Scope)


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=int(os.environ.get("LOOPLINE_FUZZ_EXAMPLES", "5")))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    passed = failed = 0
    with stack.app_stack(f"loopline_fuzz_{os.getpid()}", redis_db=8, env_extra={"LOOPLINE_ENV": "test"}) as (base, _):
        # Both made before any fuzzing (fuzzed logins may throttle new ones); the token run first,
        # as the session run may revoke tokens.
        headers = {name: credential(base, name) for name in ("session", "token")}
        for name in ("token", "session"):
            header = headers[name]
            # Logging out would end the session the rest of the run uses; the token run covers it.
            skip = ["--exclude-path", "/api/v1/auth/logout"] if name == "session" else []
            report = ROOT / ".run" / f"schemathesis-{name}.xml"
            report.unlink(missing_ok=True)
            cmd = [
                str(ST), "run", f"{base}/openapi.json",
                "--checks", CHECKS,
                "--header", header,
                "--max-examples", str(args.examples),
                "--seed", str(args.seed),
                "--phases", "examples,coverage,fuzzing",
                "--workers", "1",
                "--request-timeout", "60",
                "--suppress-health-check", "all",
                "--generation-database", "none",
                "--generation-with-security-parameters", "false",
                "--report", "junit", "--report-junit-path", str(report),
                "--no-color",
                *skip,
            ]  # fmt: skip
            print(f"\n$ st run ... ({name}, {args.examples} examples per operation)", flush=True)
            code = subprocess.run(cmd, cwd=ROOT, check=False).returncode
            p, f = junit_counts(report)
            if code != 0 and f == 0:
                f = 1
            passed, failed = passed + p, failed + f
    print(f"schema fuzz: {passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
