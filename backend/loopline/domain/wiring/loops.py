"""Physical patterns (DESIGN §3.2): map Subways loops onto the logical racks of real rows.

Every function returns loops as lists of logical-rack indices in loop order: position 0 .. l-1,
increasing clockwise, so position ``i``'s counter-clockwise neighbour is ``i-1``.

A row is looked at from its cold aisle (the side its rack fronts face). `RowRacks.racks` lists
the compute racks of one row left to right as seen from there, each as its logical racks bottom
to top (slot 0 = lowest).
"""

from __future__ import annotations

from dataclasses import dataclass

from loopline.domain.errors import DomainError


@dataclass(frozen=True, slots=True)
class RowRacks:
    name: str
    racks: list[list[int]]
    """Left to right seen from the cold aisle; each rack's logical racks bottom to top."""
    physical_order: list[int]
    """For each entry of `racks`, its rank along the row's physical axis (for pairing rows)."""


def side_to_side_chain(racks: list[list[int]]) -> list[int]:
    """Side-to-side order: left to right, each rack top to bottom.

    The counter-clockwise neighbour of a logical rack is the one directly above it, or the bottom
    logical rack of the rack to its left; the loop closes with the back edge from the left-most
    top-most to the right-most bottom-most logical rack.
    """
    return [g for rack in racks for g in reversed(rack)]


def _count(row: RowRacks) -> int:
    return sum(len(r) for r in row.racks)


def _chunks(chain: list[int], n_loop: int, field: str, where: str) -> list[list[int]]:
    if n_loop < 1:
        raise DomainError(field, f"loop length must be >= 1, got {n_loop}")
    if len(chain) % n_loop:
        raise DomainError(
            field,
            f"{where} holds {len(chain)} logical racks, which loops of l={n_loop} do not fill "
            f"({len(chain)} is not a multiple of {n_loop}); choose l dividing {len(chain)}",
        )
    return [chain[i : i + n_loop] for i in range(0, len(chain), n_loop)]


def side_to_side_loops(rows: list[RowRacks], n_loop: int | None) -> list[list[int]]:
    loops: list[list[int]] = []
    for row in rows:
        if not row.racks:
            continue
        chain = side_to_side_chain(row.racks)
        b = len(row.racks[0])
        where = f"row {row.name} ({len(row.racks)} racks x b={b})"
        loops.extend(_chunks(chain, n_loop or len(chain), "loop", where))
    return loops


def paired_row_loops(pairs: list[tuple[RowRacks, RowRacks]], n_loop: int | None) -> list[list[int]]:
    """Each loop takes l/2 consecutive logical racks of row A's side-to-side chain, then the same
    positions of the facing row B in reverse, so it crosses the cold aisle at its two ends."""
    loops: list[list[int]] = []
    for a, b in pairs:
        if len(a.racks) != len(b.racks):
            raise DomainError(
                "pattern",
                f"paired rows {a.name} and {b.name} hold {len(a.racks)} and {len(b.racks)} compute "
                "racks; facing rows must hold the same number",
            )
        if not a.racks:
            continue
        # Align B's racks with A's left-to-right order by their physical position along the row.
        b_by_phys = {p: rk for p, rk in zip(b.physical_order, b.racks, strict=True)}
        b_aligned = [b_by_phys[p] for p in a.physical_order]
        if any(len(x) != len(y) for x, y in zip(a.racks, b_aligned, strict=True)):
            raise DomainError("pattern", f"facing racks of rows {a.name} and {b.name} differ in b")
        chain_a = side_to_side_chain(a.racks)
        chain_b = side_to_side_chain(b_aligned)
        n = len(chain_a) + len(chain_b)
        ll = n_loop or n
        if ll % 2:
            raise DomainError("loop", f"a paired-row loop takes half its l from each row; l={ll} is odd")
        half = ll // 2
        where = f"rows {a.name}+{b.name} ({len(a.racks)} racks each x b={len(a.racks[0])})"
        if len(chain_a) % half:
            raise DomainError(
                "loop",
                f"{where} hold {n} logical racks, which loops of l={ll} ({half} per row) do not "
                f"fill ({len(chain_a)} per row is not a multiple of {half})",
            )
        for s in range(0, len(chain_a), half):
            loops.append(chain_a[s : s + half] + chain_b[s : s + half][::-1])
    return loops


def meander(racks: list[list[int]]) -> list[int]:
    """Inter-chassis order of one segment of racks (left to right, logical racks bottom to top).

    b = 1: racks 0, 2, 4, ... then back through ..., 5, 3, 1 (no link skips more than one rack).
    b >= 2: the bottom logical racks left to right, then a zig-zag back: up the right-most rack,
    across, down the next, bridging racks alternately through the top and the second-from-bottom
    logical racks, closing with a vertical link in the left-most rack.
    """
    m = len(racks)
    b = len(racks[0])
    if b == 1:
        return [racks[t][0] for t in range(0, m, 2)] + [racks[t][0] for t in reversed(range(1, m, 2))]
    order = [racks[t][0] for t in range(m)]
    up = True
    for t in reversed(range(m)):
        slots = range(1, b) if up else reversed(range(1, b))
        order.extend(racks[t][j] for j in slots)
        up = not up
    return order


def inter_chassis_loops(rows: list[RowRacks], n_loop: int | None) -> list[list[int]]:
    loops: list[list[int]] = []
    for row in rows:
        if not row.racks:
            continue
        b = len(row.racks[0])
        if any(len(rk) != b for rk in row.racks):
            raise DomainError("pattern", f"inter-chassis needs the same b in every rack of row {row.name}")
        n = len(row.racks) * b
        ll = n_loop or n
        if ll % b:
            raise DomainError(
                "loop",
                f"an inter-chassis loop covers whole racks: l={ll} is not a multiple of b={b} (row {row.name})",
            )
        m = ll // b
        if len(row.racks) % m:
            raise DomainError(
                "loop",
                f"row {row.name} holds {len(row.racks)} racks ({n} logical racks), which "
                f"inter-chassis loops of l={ll} ({m} racks each) do not fill",
            )
        for s in range(0, len(row.racks), m):
            loops.append(meander(row.racks[s : s + m]))
    return loops


def mc_lag_groups(rows: list[RowRacks], p: int) -> list[list[int]]:
    """Groups of p logical racks of one physical rack (top down): MC-LAG is Type 1 with l = p."""
    groups: list[list[int]] = []
    for row in rows:
        for k, rack in enumerate(row.racks):
            b = len(rack)
            if b < p or b % p:
                raise DomainError(
                    "ports",
                    f"mc-lag wires each server to p={p} ToRs of its own physical rack, but rack "
                    f"{k + 1} of row {row.name} holds b={b} logical racks "
                    f"({'fewer than p' if b < p else 'not a multiple of p'})",
                )
            top_down = list(reversed(rack))
            groups.extend(top_down[i : i + p] for i in range(0, b, p))
    return groups
