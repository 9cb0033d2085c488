#!/usr/bin/env python3
"""Generate the frontend's engine-result types from the engine's result JSON Schema (never written by
hand), as gen_api_types.py does for the API's from OpenAPI.

gen_result_types.py           write frontend/src/api/engineResult.d.ts from sim-engine/schema/result.schema.json
gen_result_types.py --check   fail if the committed file is not what the schema describes

The generator is json-schema-to-typescript, pinned in frontend/package.json.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if not args.check:
        generate(TARGET)
        return 0
    fresh = Path(tempfile.mkstemp(suffix=".d.ts")[1])
    generate(fresh)
    if not TARGET.exists() or fresh.read_text() != TARGET.read_text():
        print("frontend/src/api/engineResult.d.ts is out of date: run `make result-types`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
