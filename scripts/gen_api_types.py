#!/usr/bin/env python3
"""Generate the frontend's API types from the OpenAPI schema (never written by hand).

gen_api_types.py           write frontend/src/api/schema.d.ts
gen_api_types.py --check   fail if the committed file is not what the API describes
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "frontend" / "src" / "api" / "schema.d.ts"


def generate(out: Path) -> None:
    from loopline.api.app import create_app

    spec = Path(tempfile.mkstemp(suffix=".json")[1])
    spec.write_text(json.dumps(create_app().openapi(), indent=2, sort_keys=True))
    subprocess.run(
        ["npx", "openapi-typescript", str(spec), "-o", str(out)],
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
        print("frontend/src/api/schema.d.ts is out of date: run `make api-types`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
