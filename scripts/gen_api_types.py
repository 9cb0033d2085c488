#!/usr/bin/env python3
"""Generate the frontend's API types from the OpenAPI schema (never written by hand).

gen_api_types.py           write frontend/src/api/schema.d.ts
gen_api_types.py --check   fail if the committed file is not what the API describes
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from generated_file import write_or_check

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


if __name__ == "__main__":
    sys.exit(write_or_check(generate, TARGET, "api-types"))
