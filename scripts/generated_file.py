"""One command line for a generated file: write it, or with --check fail when the committed one is
not what its source describes (the frontend's API and engine-result types)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path


def write_or_check(generate: Callable[[Path], None], target: Path, make_target: str) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if not args.check:
        generate(target)
        return 0
    fresh = Path(tempfile.mkstemp(suffix=target.suffix)[1])
    generate(fresh)
    if not target.exists() or fresh.read_text() != target.read_text():
        root = Path(__file__).resolve().parents[1]
        print(f"{target.relative_to(root)} is out of date: run `make {make_target}`", file=sys.stderr)
        return 1
    return 0
