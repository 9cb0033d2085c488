"""The engine's reading of a scenario before it runs: `loopline-sim validate --json`.

The engine is the only interpreter of a scenario: whether it is valid (a refusal names the field),
how many flows its workload makes, their bytes and the links they cross, the defaults it applied,
its names for the links and the inputs of the run-time estimate all come from this one call
(sim-engine/schema/validation.schema.json); the backend counts nothing itself.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import orjson

from loopline.domain.errors import DomainError
from loopline.settings import get_settings

_ENGINE_ERROR = re.compile(r"^error: invalid scenario: (?P<path>[^:]*): (?P<reason>.*)$")

TIMEOUT_S = 60
"""The engine validates a 5 MB scenario in about 0.2 s; a minute is for a machine under load."""


def engine_error(message: str) -> tuple[str, str] | None:
    """The field and reason of the engine's `error: invalid scenario: <path>: <reason>` line."""
    match = _ENGINE_ERROR.match(message if message.startswith("error: ") else f"error: {message}")
    if match is None:
        return None
    path = match["path"].strip()
    return (f"scenario.{path}" if path else "scenario"), match["reason"]


def encode(scenario: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(scenario)
    except orjson.JSONEncodeError:  # integers beyond 64 bits: the engine names them, so pass them on
        return json.dumps(scenario).encode()


def validate(scenario: dict[str, Any], encoded: bytes | None = None, binary: Path | None = None) -> dict[str, Any]:
    """The engine's validation document of `scenario`; a scenario it refuses is a `DomainError`
    naming the field (`scenario.<path>`)."""
    engine = binary if binary is not None else get_settings().engine_binary
    try:
        out = subprocess.run(
            [str(engine), "validate", "--json", "-"],
            input=encoded if encoded is not None else encode(scenario), capture_output=True, timeout=TIMEOUT_S,
            check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired as e:
        raise DomainError("scenario", f"the engine took more than {TIMEOUT_S} s to read it") from e
    return _document(out)


def decompose_plan(
    scenario: dict[str, Any], encoded: bytes | None = None, binary: Path | None = None, timeout_s: float = TIMEOUT_S
) -> dict[str, Any]:
    """What a decomposed run of `scenario` will do, without simulating (`loopline-sim decompose
    plan`): its flows, the links with flows, those simulated, clustered and idle, and the packet-hops
    of the link simulations. It routes every flow (seconds on a million). A scenario the engine
    refuses in decomposed mode is a `DomainError` naming the field."""
    engine = binary if binary is not None else get_settings().engine_binary
    with tempfile.NamedTemporaryFile(prefix="loopline-plan-", suffix=".json") as file:
        file.write(encoded if encoded is not None else encode(scenario))
        file.flush()
        try:
            out = subprocess.run(
                [str(engine), "decompose", "plan", file.name], capture_output=True, timeout=timeout_s, check=False
            )
        except subprocess.TimeoutExpired as e:
            raise DomainError("scenario", f"the engine took more than {timeout_s:g} s to plan its decomposition") from e
    return _document(out)


@cache
def calibration(binary: Path | None = None) -> dict[str, Any] | None:
    """Decomposed mode's error measured against packet mode, as the engine was built with it
    (`loopline-sim calibration`: the largest error per flow-size bucket every decomposed result
    carries, and the cases measured); None when the engine cannot say (not built yet)."""
    engine = binary if binary is not None else get_settings().engine_binary
    try:
        out = subprocess.run([str(engine), "calibration"], capture_output=True, timeout=TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    document: dict[str, Any] = orjson.loads(out.stdout)
    return document


def _document(out: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    """The engine's JSON document, or its refusal as a `DomainError` naming the field."""
    if out.returncode == 0:
        document: dict[str, Any] = orjson.loads(out.stdout)
        return document
    stderr = out.stderr.decode(errors="replace").strip()
    message = stderr.splitlines()[-1] if stderr else f"engine exited {out.returncode}"
    found = engine_error(message)
    if found:
        raise DomainError(*found)
    raise DomainError("scenario", message.removeprefix("error: "))
