#!/usr/bin/env python3
"""Fail when a rule's constant appears outside the one place that owns it (issue 27).

Each rule in ``RULES`` names its owner, the trees where a copy must not appear, and what a copy
looks like: a line of code (comments and strings of prose are not code; comments are stripped,
string literals are kept, since ``"1.2"`` as a form default is a copy too) that mentions the rule's
subject and holds one of its values. Tests and test fixtures are left out: their numbers are
hand-derived expectations, not rules.

    check_rule_owners.py              # self-test of the detection, then check the repository
    check_rule_owners.py --root DIR   # check another checkout
    check_rule_owners.py --self-test  # only the self-test

Exit status 1 lists every copy as ``path:line: rule: code``.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Rule:
    name: str
    owner: str
    """Where the rule lives; everyone else reads it from there (through the API for the editor)."""
    trees: tuple[str, ...]
    suffixes: tuple[str, ...]
    excluded: re.Pattern[str]
    """Paths (relative to the root, with /) that may hold the values: generated code, tests, fixtures."""
    subject: re.Pattern[str]
    values: re.Pattern[str]


# A number not part of a longer one (1200 is not 11200, 0.9 is not 0.95 or 10.9).
def _number(*literals: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w.])(?:" + "|".join(literals) + r")(?![\w.]|\.\d)")


_TS_TESTS = re.compile(r"(^|/)api/schema\.d\.ts$|\.test\.tsx?$|(^|/)testing\.ts$")

RULES = (
    Rule(
        name="aisle minimums",
        owner="backend/loopline/domain/layout_rules.py (DEFAULT_MIN_COLD_AISLE_MM, DEFAULT_MIN_HOT_AISLE_MM, "
        "aisle_minimum_mm); a hall's own minimums travel as min_cold_aisle_m / min_hot_aisle_m, each "
        "aisle's as AisleRead.min_width_m",
        trees=("frontend/src",),
        suffixes=(".ts", ".tsx"),
        excluded=_TS_TESTS,
        subject=re.compile(r"aisle|\bcold\b|\bhot\b", re.IGNORECASE),
        values=_number(r"1_?200", r"900", r"1\.20?", r"0\.90?"),
    ),
)

_TS_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def _code_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, code) with comments blanked; line numbers kept."""
    code = _TS_COMMENTS.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    yield from enumerate(code.splitlines(), start=1)


def copies(root: Path, rules: tuple[Rule, ...] = RULES) -> list[str]:
    found: list[str] = []
    for rule in rules:
        for tree in rule.trees:
            for path in sorted((root / tree).rglob("*")):
                rel = path.relative_to(root).as_posix()
                if not path.is_file() or path.suffix not in rule.suffixes or rule.excluded.search(rel):
                    continue
                for n, line in _code_lines(path.read_text(encoding="utf-8")):
                    if rule.subject.search(line) and rule.values.search(line):
                        found.append(f"{rel}:{n}: {rule.name}: {line.strip()}")
    return found


def self_test() -> None:
    """A planted copy of the aisle minimums is found; lengths that only look alike are not."""
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        src = root / "frontend" / "src"
        (src / "api").mkdir(parents=True)
        (src / "model").mkdir()
        clean = {
            "api/schema.d.ts": "/** @example 1.2 */ min_cold_aisle_m: number; // cold aisle 1.2",
            "model/records.ts": 'export const RACK = { name: "42U 600x1200", depthMm: 1200 };\n'
            "// a cold aisle of 1.2 m by default\nconst opacity = 0.9;\n",
            "model/geometry.test.ts": "expect(aisle.widthMm).toBe(1200);",
            "model/testing.ts": "export const HALL = { minColdAisleMm: 1200, minHotAisleMm: 900 };",
            "model/aisle.ts": "const coldAisleMm = 12000; const hot = 0.95; const cold = 10.9;",
        }
        for name, text in clean.items():
            (src / name).write_text(text)
        got = copies(root)
        assert got == [], got
        planted = {
            "model/geometry.ts": "export const MIN_AISLE_MM = {\n  cold: 1200,\n  hot: 900,\n};",
            "model/layout.ts": "export const DEFAULT_COLD_AISLE_MM = 1_200;",
            "model/form.tsx": 'const v = { min_hot_aisle_m: "0.9" };',
        }
        for name, text in planted.items():
            (src / name).write_text(text)
        got = copies(root)
        assert got == [
            'frontend/src/model/form.tsx:1: aisle minimums: const v = { min_hot_aisle_m: "0.9" };',
            "frontend/src/model/geometry.ts:2: aisle minimums: cold: 1200,",
            "frontend/src/model/geometry.ts:3: aisle minimums: hot: 900,",
            "frontend/src/model/layout.ts:1: aisle minimums: export const DEFAULT_COLD_AISLE_MM = 1_200;",
        ], got


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to check")
    ap.add_argument("--self-test", action="store_true", help="only test the detection")
    args = ap.parse_args()
    self_test()
    if args.self_test:
        print("self-test ok")
        return 0
    found = copies(args.root)
    for line in found:
        print(line)
    if found:
        owners = "; ".join(f"{r.name}: {r.owner}" for r in RULES)
        print(f"FAILED: {len(found)} copies of a rule outside its owner ({owners})")
        return 1
    print(f"ok: no rule copied outside its owner ({', '.join(r.name for r in RULES)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
