#!/usr/bin/env python3
"""Generate the frontend's engine-result types from the engine's result JSON Schema (never written by
hand), as gen_api_types.py does for the API's from OpenAPI.

gen_result_types.py           write frontend/src/api/engineResult.d.ts from sim-engine/schema/result.schema.json
gen_result_types.py --check   fail if the committed file is not what the schema describes

The generator is json-schema-to-typescript, pinned in frontend/package.json.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from generated_file import write_or_check

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "sim-engine" / "schema" / "result.schema.json"
TARGET = ROOT / "frontend" / "src" / "api" / "engineResult.d.ts"


def generate(out: Path) -> None:
    subprocess.run(
        ["npx", "json2ts", "--input", str(SCHEMA), "--output", str(out), "--unknownAny", "--no-additionalProperties"],
        cwd=ROOT / "frontend",
        check=True,
        capture_output=True,
    )


if __name__ == "__main__":
    sys.exit(write_or_check(generate, TARGET, "result-types"))
