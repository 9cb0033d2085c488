"""The preset table as served: the domain's presets (`domain.scenario.PRESETS`) with every
engine-owned default read from the engine itself (`loopline-sim schema scenario`, once per engine
binary), so no default of the engine is written again here or in the editor."""

from __future__ import annotations

import json
import subprocess
from functools import cache
from typing import Any

from loopline.domain.errors import DomainError
from loopline.domain.scenario import Preset, preset_table
from loopline.settings import get_settings


@cache
def _engine_schema(binary: str) -> dict[str, Any]:
    out = subprocess.run([binary, "schema", "scenario"], capture_output=True, text=True, timeout=60, check=False)
    if out.returncode != 0:
        raise DomainError("engine", f"the engine did not give its scenario schema: {out.stderr.strip()[-300:]}")
    schema: dict[str, Any] = json.loads(out.stdout)
    return schema


def engine_scenario_schema() -> dict[str, Any]:
    """The engine's scenario schema (the JSON Schema it validates scenarios with)."""
    return _engine_schema(str(get_settings().engine_binary))


def table() -> tuple[Preset, ...]:
    return preset_table(engine_scenario_schema())
