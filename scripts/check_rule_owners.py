#!/usr/bin/env python3
"""Fail when a rule's constant appears outside the one place that owns it (issue 27).

Each rule in ``RULES`` names its owner, the trees where a copy must not appear, and what a copy
looks like: a line of code (comments and strings of prose are not code; comments are stripped,
string literals are kept, since ``"1.2"`` as a form default is a copy too) that mentions the rule's
subject and holds one of its values. Tests and test fixtures are left out: their numbers are
hand-derived expectations, not rules. Rules: the aisle minimums (TypeScript), and the workload
defaults the engine owns (fan_in 8, 100 queries, query and memcache rates and sizes) in Rust outside
the engine's scenario module, Python and TypeScript (Python's docstrings are prose, like comments).

    check_rule_owners.py              # self-test of the detection, then check the repository
    check_rule_owners.py --root DIR   # check another checkout
    check_rule_owners.py --self-test  # only the self-test

Exit status 1 lists every copy as ``path:line: rule: code``.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tempfile
import tokenize
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

# The engine owns the workload defaults (sim-engine/src/scenario/mod.rs `DEFAULT_*`); its scenario
# schema carries each as its field's "default", which the backend's preset table reads and serves.
_WORKLOAD_OWNER = (
    "sim-engine/src/scenario/mod.rs (DEFAULT_FAN_IN, DEFAULT_QUERY_QUERIES, DEFAULT_QUERY_RATE_PER_S, "
    "DEFAULT_MEMCACHE_*): read the field's \"default\" in the engine's scenario schema "
    "(services/sim_presets.py, GET /api/v1/simulation-presets) or the engine's `validate --json`"
)
_WORKLOAD_TREES = ("sim-engine/src", "backend/loopline", "worker/loopline_worker", "frontend/src")
_WORKLOAD_SUFFIXES = (".rs", ".py", ".ts", ".tsx")
_WORKLOAD_EXCLUDED = re.compile(r"^sim-engine/src/scenario/mod\.rs$|" + _TS_TESTS.pattern)
# (one subject and its values per rule: a line about requests with 100 in it is no copy of the
# 100-byte request size; flows_per_pair 1 and incast's one query are left out, 1 is everywhere)
_WORKLOAD_DEFAULTS = (
    ("fan_in 8", r"fan_?in", _number(r"8")),
    ("query count 100", r"\bqueries\b", _number(r"100")),
    ("query and memcache rates", r"rate_?per_?s", _number(r"1_?000(?:\.0)?", r"10_?000(?:\.0)?")),
    ("memcache request size", r"request_?bytes", _number(r"100")),
    ("memcache response size", r"response_?bytes", _number(r"100_?000")),
    ("memcache response size", r"response_?kb", _number(r"100")),
    ("memcache requests", r"\brequests\b", _number(r"1_?000")),
    ("memcache latency bound", r"latency_?bound", _number(r"1_?000(?:\.0)?")),
)

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
    *(
        Rule(
            name=f"workload defaults ({what})",
            owner=_WORKLOAD_OWNER,
            trees=_WORKLOAD_TREES,
            suffixes=_WORKLOAD_SUFFIXES,
            excluded=_WORKLOAD_EXCLUDED,
            subject=re.compile(subject, re.IGNORECASE),
            values=values,
        )
        for what, subject, values in _WORKLOAD_DEFAULTS
    ),
)

_TS_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def _code_lines(text: str, suffix: str = ".ts") -> Iterator[tuple[int, str]]:
    """(line number, code) with comments blanked; line numbers kept. TypeScript and Rust: `//` and
    `/* */` (doc comments too); Python: `#` comments and docstrings (a string standing alone as a
    statement), by its own tokenizer."""
    if suffix == ".py":
        yield from _python_code_lines(text)
        return
    code = _TS_COMMENTS.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    yield from enumerate(code.splitlines(), start=1)


def _python_code_lines(text: str) -> Iterator[tuple[int, str]]:
    lines = text.splitlines()
    blank: list[tuple[tuple[int, int], tuple[int, int]]] = []
    statement_start = True
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and statement_start):
            blank.append((tok.start, tok.end))
        if tok.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            statement_start = True
        elif tok.type not in (tokenize.NL, tokenize.COMMENT):
            statement_start = False
    for (r0, c0), (r1, c1) in reversed(blank):
        for r in range(r0, r1 + 1):
            line = lines[r - 1]
            start = c0 if r == r0 else 0
            end = c1 if r == r1 else len(line)
            lines[r - 1] = line[:start] + " " * (end - start) + line[end:]
    yield from enumerate(lines, start=1)


def copies(root: Path, rules: tuple[Rule, ...] = RULES) -> list[str]:
    found: list[str] = []
    for rule in rules:
        for tree in rule.trees:
            for path in sorted((root / tree).rglob("*")):
                rel = path.relative_to(root).as_posix()
                if not path.is_file() or path.suffix not in rule.suffixes or rule.excluded.search(rel):
                    continue
                for n, line in _code_lines(path.read_text(encoding="utf-8"), path.suffix):
                    if rule.subject.search(line) and rule.values.search(line):
                        found.append(f"{rel}:{n}: {rule.name}: {line.strip()}")
    return found


def _finds(root: Path, files: dict[str, str], want: list[str]) -> None:
    """Write `files` (paths under `root`) and check that exactly `want` is reported."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    got = copies(root)
    assert got == want, got


def self_test() -> None:
    """A planted copy of the aisle minimums is found; lengths that only look alike are not."""
    src = "frontend/src/"
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        clean = {
            "api/schema.d.ts": "/** @example 1.2 */ min_cold_aisle_m: number; // cold aisle 1.2",
            "model/records.ts": 'export const RACK = { name: "42U 600x1200", depthMm: 1200 };\n'
            "// a cold aisle of 1.2 m by default\nconst opacity = 0.9;\n",
            "model/geometry.test.ts": "expect(aisle.widthMm).toBe(1200);",
            "model/testing.ts": "export const HALL = { minColdAisleMm: 1200, minHotAisleMm: 900 };",
            "model/aisle.ts": "const coldAisleMm = 12000; const hot = 0.95; const cold = 10.9;",
        }
        _finds(root, {src + k: v for k, v in clean.items()}, [])
        planted = {
            "model/geometry.ts": "export const MIN_AISLE_MM = {\n  cold: 1200,\n  hot: 900,\n};",
            "model/layout.ts": "export const DEFAULT_COLD_AISLE_MM = 1_200;",
            "model/form.tsx": 'const v = { min_hot_aisle_m: "0.9" };',
        }
        _finds(
            root,
            {src + k: v for k, v in planted.items()},
            [
                'frontend/src/model/form.tsx:1: aisle minimums: const v = { min_hot_aisle_m: "0.9" };',
                "frontend/src/model/geometry.ts:2: aisle minimums: cold: 1200,",
                "frontend/src/model/geometry.ts:3: aisle minimums: hot: 900,",
                "frontend/src/model/layout.ts:1: aisle minimums: export const DEFAULT_COLD_AISLE_MM = 1_200;",
            ],
        )


def self_test_workload_defaults() -> None:
    """Planted copies of the workload defaults are found in Rust, Python and TypeScript; the owner,
    comments, docstrings, tests and numbers that only look alike are not."""
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        files = {
            "sim-engine/src/scenario/mod.rs": "pub const DEFAULT_FAN_IN: u32 = 8;",
            "sim-engine/src/workload/mod.rs": "/// fan_in (default 8)\nlet fan_in = q.fan_in(); // not 8\nlet x = 18;",
            "backend/loopline/domain/scenario.py": '"""fan_in defaults to 8."""\n\n'
            'def f(p):\n    """The queries (100 by default)."""\n    return p["fan_in"]  # 8\n',
            "backend/loopline/domain/other.py": 'FAN_IN_LABEL = "fan-in"\nrequests = 10_000\nrate_per_s = 100.5\n',
            "frontend/src/simulations/presets.test.ts": "expect(defaults).toEqual({ fan_in: 8 });",
            "frontend/src/simulations/form.ts": "const opts = { fanIn: p.fanIn ?? 28 };",
        }
        _finds(root, files, [])
        planted = {
            "sim-engine/src/workload/gen.rs": "let n = q.fan_in.unwrap_or(8);",
            "backend/loopline/domain/sim.py": 'per = w.get("fan_in", 8)\nrate = w.get("rate_per_s", 1000.0)\n',
            "frontend/src/simulations/form.tsx": "export const D = {\n  queries: 100,\n  responseKb: 100,\n};",
        }
        _finds(
            root,
            planted,
            [
                "sim-engine/src/workload/gen.rs:1: workload defaults (fan_in 8): let n = q.fan_in.unwrap_or(8);",
                'backend/loopline/domain/sim.py:1: workload defaults (fan_in 8): per = w.get("fan_in", 8)',
                "frontend/src/simulations/form.tsx:2: workload defaults (query count 100): queries: 100,",
                "backend/loopline/domain/sim.py:2: workload defaults (query and memcache rates): "
                'rate = w.get("rate_per_s", 1000.0)',
                "frontend/src/simulations/form.tsx:3: workload defaults (memcache response size): responseKb: 100,",
            ],
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to check")
    ap.add_argument("--self-test", action="store_true", help="only test the detection")
    args = ap.parse_args()
    self_test()
    self_test_workload_defaults()
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
