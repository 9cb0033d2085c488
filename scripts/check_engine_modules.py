#!/usr/bin/env python3
"""Fail if the simulation engine crate has a module import circle.

Reads every ``.rs`` file of ``sim-engine/src`` (not ``src/bin``, a separate crate), finds the
module paths each one uses (``use`` trees, inline ``crate::``/``super::``/``self::`` paths, and
paths through a child module declared with ``mod x;``), and builds two kinds of graph:

* the top-level graph: one node per module declared in ``lib.rs`` (``lib.rs`` itself, the
  crate's facade, is not a node);
* for ``engine/`` and every directory module below it: one node per child module, plus the
  directory's own ``mod.rs`` (so a child that reaches back into the core's items, e.g.
  ``super::FlowEngine``, while the core uses that child, is a circle).

A reference counts for the node that holds the file (inline ``mod tests { .. }`` belong to their
file). Comments and string literals are ignored. Exit status 1 names each circle and, for every
step of it, one line that makes the step.

    check_engine_modules.py              # self-test of the detection, then check sim-engine/src
    check_engine_modules.py --src DIR    # check another tree's src/ (e.g. an old worktree)
    check_engine_modules.py --self-test  # only the self-test
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SRC = ROOT / "sim-engine" / "src"
# Scopes checked besides the crate root: this directory module and every one below it.
STRICT_UNDER = ("engine",)

Module = tuple[str, ...]
# (from module, to module, evidence "file:line: path")
Ref = tuple[Module, Module, str]

_NOISE = re.compile(
    r"//[^\n]*"  # line and doc comments
    r"|/\*.*?\*/"  # block comments
    r'|r(#*)".*?"\1'  # raw strings
    r'|b?"(?:\\.|[^"\\])*"'  # strings
    r"|b?'(?:\\.|[^\\'])'",  # char literals (lifetimes have no closing quote)
    re.DOTALL,
)
_USE = re.compile(r"\buse\s+([^;]+);")
_INLINE_PATH = re.compile(r"(?<![\w:])((?:crate|super|self)(?:\s*::\s*\w+)+)")
_MOD_DECL = re.compile(r"\bmod\s+(\w+)\s*;")
_MOD_INLINE = re.compile(r"\bmod\s+(\w+)\s*\{")


def _blank(m: re.Match[str]) -> str:
    # keep line numbers: replace with the same number of newlines
    return "\n" * m.group(0).count("\n") + " "


def strip_noise(text: str) -> str:
    return _NOISE.sub(_blank, text)


def module_of(path: Path, src: Path) -> Module:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return tuple(parts)


def expand_use(tree: str) -> list[str]:
    """`a::{b, c::{d, self}}` -> ["a::b", "a::c::d", "a::c"]."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)
    tree = re.sub(r"\s+", "", tree)
    out: list[str] = []

    def walk(prefix: str, t: str) -> None:
        i = t.find("{")
        if i < 0:
            path = prefix + t
            path = re.sub(r"::(self|\*)$", "", path)
            if path:
                out.append(path)
            return
        head, body = t[:i], t[i + 1 : t.rfind("}")]
        depth, start = 0, 0
        for k, ch in enumerate(body + ","):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                item = body[start:k]
                start = k + 1
                if item:
                    walk(prefix + head, item)

    walk("", tree)
    return out


def resolve(path: str, here: Module, children: set[str], modules: set[Module]) -> Module | None:
    segs = [s for s in re.split(r"\s*::\s*", path.strip()) if s]
    if not segs:
        return None
    if segs[0] == "crate":
        base: Module = ()
        segs = segs[1:]
    elif segs[0] in ("super", "self"):
        base = here
        while segs and segs[0] in ("super", "self"):
            if segs[0] == "super":
                if not base:
                    return None
                base = base[:-1]
            segs = segs[1:]
    elif segs[0] in children:
        base = here
    else:
        return None  # std, an external crate, or a name brought in by another `use`
    target = base
    for s in segs:
        if (*target, s) in modules:
            target = (*target, s)
        else:
            break
    return target


def _inline_modules(code: str) -> list[tuple[str, int, int]]:
    """(name, body start, body end) of every inline `mod x { .. }` at the top of `code`."""
    out = []
    for m in _MOD_INLINE.finditer(code):
        depth, k = 1, m.end()
        while k < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[k], 0)
            k += 1
        out.append((m.group(1), m.end(), k - 1))
    # keep only outermost ones
    return [x for x in out if not any(y[1] < x[1] < y[2] for y in out if y is not x)]


def collect(src: Path) -> tuple[set[Module], list[Ref]]:
    files = sorted(p for p in src.rglob("*.rs") if "bin" not in p.relative_to(src).parts[:1])
    texts = {p: strip_noise(p.read_text()) for p in files}
    modules: set[Module] = {module_of(p, src) for p in files}
    refs: list[Ref] = []
    for p, code in texts.items():
        file_mod = module_of(p, src)
        inline = _inline_modules(code)
        for mod_name, _a, _b in inline:
            modules.add((*file_mod, mod_name))
        # (module, text) pieces: inline modules apart from the rest of the file
        pieces: list[tuple[Module, str, int]] = []
        rest = list(code)
        for name, a, b in inline:
            pieces.append(((*file_mod, name), code[a:b], a))
            for k in range(a, b):
                if rest[k] != "\n":
                    rest[k] = " "
        pieces.append((file_mod, "".join(rest), 0))
        for here, text, offset in pieces:
            children = {m.group(1) for m in _MOD_DECL.finditer(text)}
            children |= {n for n, _a, _b in _inline_modules(text)}

            found: list[tuple[str, int]] = []
            for m in _USE.finditer(text):
                found += [(path, m.start()) for path in expand_use(m.group(1))]
            bare = _USE.sub(lambda m: " " * len(m.group(0)), text)
            found += [(m.group(1), m.start()) for m in _INLINE_PATH.finditer(bare)]
            if children:
                names = "|".join(sorted(children))
                pat = re.compile(rf"(?<![\w:])((?:{names})(?:\s*::\s*\w+)+)")
                found += [(m.group(1), m.start()) for m in pat.finditer(bare)]
            for path, pos in found:
                target = resolve(path, here, children, modules)
                if target is None:
                    continue
                line = code.count("\n", 0, offset + pos) + 1
                compact = re.sub(r"\s+", "", path)
                refs.append((file_mod, target, f"{p.relative_to(src.parent)}:{line}: {compact}"))
    return modules, refs


def graph(scope: Module, refs: list[Ref]) -> dict[str, dict[str, str]]:
    """Edges between the children of `scope` (and `scope`'s own file, except at the root)."""

    def node(m: Module) -> str | None:
        if m[: len(scope)] != scope:
            return None
        if len(m) == len(scope):
            return None if not scope else "/".join(scope) + " (own items)"
        return "/".join((*scope, m[len(scope)]))

    g: dict[str, dict[str, str]] = {}
    for a, b, ev in refs:
        na, nb = node(a), node(b)
        if na is None or nb is None or na == nb:
            continue
        g.setdefault(na, {}).setdefault(nb, ev)
        g.setdefault(nb, {})
    return g


def find_cycles(g: dict[str, dict[str, str]]) -> list[list[str]]:
    """One cycle per strongly connected component with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    sccs: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, {})):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            strong(v)
    cycles: list[list[str]] = []
    for comp in sorted(sccs):
        members = set(comp)
        # the shortest circle through each node of the component (breadth-first), each once
        for start in comp:
            cyc = _shortest_cycle(g, members, start)
            k = cyc.index(min(cyc[:-1]))
            cyc = cyc[k:-1] + cyc[:k] + [cyc[k]]
            if cyc not in cycles:
                cycles.append(cyc)
    return cycles


def _shortest_cycle(g: dict[str, dict[str, str]], members: set[str], start: str) -> list[str]:
    prev: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(g[v]):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    return path[::-1] + [start]
                if w in members and w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"{start} is on no circle")


def check(src: Path) -> list[str]:
    """Messages naming every circle (empty: none)."""
    modules, refs = collect(src)
    scopes: list[Module] = [()]
    scopes += sorted(
        m
        for m in modules
        if m[:1] in [(s,) for s in STRICT_UNDER] and any(len(x) > len(m) and x[: len(m)] == m for x in modules)
    )
    msgs = []
    for scope in scopes:
        g = graph(scope, refs)
        where = "top-level modules" if not scope else f"{'/'.join(scope)}/"
        for cyc in find_cycles(g):
            msgs.append(f"import circle among {where}: {' -> '.join(cyc)}")
            for a, b in itertools.pairwise(cyc):
                msgs.append(f"    {a} -> {b}: {g[a][b]}")
    return msgs


def self_test() -> None:
    """The detection finds a planted circle (top level and inside engine/) and passes without it."""
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "src"
        (src / "engine").mkdir(parents=True)
        files = {
            "lib.rs": "pub mod a; pub mod b; pub mod engine; pub const V: u8 = 1;",
            "a.rs": "use crate::b::{X, self}; // use crate::engine::Y;\npub struct A;",
            "b.rs": 'pub struct X; fn f() { let _ = "crate::a::A"; let _ = crate::V; }',
            "engine/mod.rs": "mod solver; use solver::S; pub struct Core;\n#[cfg(test)] mod tests { use super::*; }",
            "engine/solver.rs": "pub struct S; fn g() -> u32 { crate::b::X; 0 }\nmod tests { use super::S; }",
        }
        for name, text in files.items():
            (src / name).write_text(text)
        got = check(src)
        assert got == [], got
        # plant: b uses a (a -> b -> a); the solver reaches back into the core (engine <-> solver)
        (src / "b.rs").write_text("use crate::a::A; pub struct X;")
        (src / "engine/solver.rs").write_text("use super::Core; pub struct S;")
        got = check(src)
        heads = [m for m in got if not m.startswith(" ")]
        assert heads == [
            "import circle among top-level modules: a -> b -> a",
            "import circle among engine/: engine (own items) -> engine/solver -> engine (own items)",
        ], got
        assert "    b -> a: src/b.rs:1: crate::a::A" in got, got


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", type=Path, default=DEFAULT_SRC, help="the crate's src/ directory")
    ap.add_argument("--self-test", action="store_true", help="only test the detection itself")
    args = ap.parse_args()
    self_test()
    if args.self_test:
        print("self-test ok")
        return 0
    msgs = check(args.src)
    for m in msgs:
        print(m)
    if msgs:
        print(f"FAILED: {sum(1 for m in msgs if not m.startswith(' '))} import circle(s) in {args.src}")
        return 1
    modules, refs = collect(args.src)
    print(f"ok: no import circle in {args.src} ({len(modules)} modules, {len(refs)} references)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
