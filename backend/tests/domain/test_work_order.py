"""The re-cabling work order of an upgrade: its order on a small hand-made plan, and (property) that
no server with a second link is ever left without one."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.domain.wiring import diff_cables
from loopline.domain.wiring.work_order import (
    WORK_ORDER_COLUMNS,
    Action,
    End,
    Phase,
    work_order,
    work_order_rows,
)


@dataclass(frozen=True, slots=True)
class C:
    cable_id: str
    a_device: str
    a_port: str
    b_device: str
    b_port: str
    a_rack: str = "K01"
    b_rack: str = "K01"
    part_number: str = "DAC-25G"
    ordered_mm: int = 1000
    medium: str = "dac"
    transceiver: str | None = None
    gbps: float = 25.0
    a_row: str = "R01"
    b_row: str = "R01"

    @property
    def label(self) -> str:
        return f"L-{self.cable_id}"


# Servers S1, S2 in rack K01, S3 in K02; ToRs T1 (K01), T2 (K02), T3 (K01, new in the upgrade).
OLD = [
    C("c1", "S1", "p1", "T1", "e1"),  # kept
    C("c2", "S1", "p2", "T2", "e1", b_rack="K02"),  # S1:p2 moves to T3
    C("c3", "S2", "p1", "T1", "e2"),  # S2's only link: moves to T3
    C("c4", "S3", "p1", "T2", "e2", a_rack="K02", b_rack="K02"),  # removed
    C("c9", "S3", "p3", "T2", "e9", a_rack="K02", b_rack="K02", ordered_mm=1000),  # kept, longer now
]
NEW = [
    C("c1", "S1", "p1", "T1", "e1"),
    C("c5", "S1", "p2", "T3", "e1"),
    C("c6", "S2", "p1", "T3", "e2"),
    C("c7", "S3", "p2", "T2", "e3", a_rack="K02", b_rack="K02"),  # added
    C("c8", "T3", "u1", "T2", "u1", b_rack="K02"),  # added: the new ToR's uplink (no server end)
    C("c9", "S3", "p3", "T2", "e9", a_rack="K02", b_rack="K02", ordered_mm=2000),
]
ROLES_OLD = {"S1": "server", "S2": "server", "S3": "server", "T1": "tor", "T2": "tor"}
ROLES_NEW = {**ROLES_OLD, "T3": "tor"}


def _links(cables: list[C], roles: dict[str, str]) -> dict[str, int]:
    out = {d: 0 for d, r in roles.items() if r == "server"}
    for c in cables:
        for d in (c.a_device, c.b_device):
            if d in out:
                out[d] += 1
    return out


def _order(old: list[C], new: list[C], roles_old: dict[str, str], roles_new: dict[str, str]) -> list:  # type: ignore[type-arg]
    d = diff_cables(old, new, roles_old, roles_new)
    return work_order(d, {c.cable_id: c for c in old}, {c.cable_id: c for c in new}, _links(old, roles_old))


def test_the_order_of_a_small_upgrade() -> None:
    steps = _order(OLD, NEW, ROLES_OLD, ROLES_NEW)
    # Phase 1 plugs c7 (S3's server end in R01/K02) and c8 (no server end: its A end, T3 in K01):
    # K01 before K02. Phase 2 re-cables c2 -> c5 and c3 -> c6 (both at their server, K01; by label)
    # and replaces c9 (1 m -> 2 m, K02). Phase 3 unplugs c4 (K02), once S3 already has c7.
    assert [(s.step, s.phase, s.action, s.rack, s.label) for s in steps] == [
        (1, Phase.PLUG, Action.PLUG, "K01", "L-c8"),
        (2, Phase.PLUG, Action.PLUG, "K02", "L-c7"),
        (3, Phase.RECABLE, Action.RECABLE, "K01", "L-c5"),
        (4, Phase.RECABLE, Action.RECABLE, "K01", "L-c6"),
        (5, Phase.RECABLE, Action.REPLACE, "K02", "L-c9"),
        (6, Phase.UNPLUG, Action.UNPLUG, "K02", "L-c4"),
    ]
    s3 = steps[2]
    assert s3.unplug == (End("S1", "p2", "R01", "K01"), End("T2", "e1", "R01", "K02"))
    assert s3.plug == (End("S1", "p2", "R01", "K01"), End("T3", "e1", "R01", "K01"))
    assert s3.old_label == "L-c2"
    # S1 keeps c1 while c2 is re-cabled; S2's only cable moves: it is off while step 4 is done,
    # whatever the order. S3 has c7 (step 2) and c9 while c9 is replaced and when c4 goes.
    assert [s.offline for s in steps] == [(), (), (), ("S2",), (), ()]
    assert steps[4].unplug is not None and steps[4].plug is not None and steps[4].ordered_mm == 2000
    assert steps[5].plug is None and steps[5].part_number == "DAC-25G"
    # Without c9, S3's only old link is c4: it stays on because c7 is plugged (step 2) before c4 goes.
    no_c9 = _order(OLD[:4], NEW[:5], ROLES_OLD, ROLES_NEW)
    assert [(s.label, s.offline) for s in no_c9] == [
        ("L-c8", ()), ("L-c7", ()), ("L-c5", ()), ("L-c6", ("S2",)), ("L-c4", ()),
    ]  # fmt: skip


def test_rows_of_the_work_order() -> None:
    rows = work_order_rows(_order(OLD, NEW, ROLES_OLD, ROLES_NEW))
    assert len(rows[0]) == len(WORK_ORDER_COLUMNS)
    assert dict(zip(WORK_ORDER_COLUMNS, rows[3], strict=True)) == {
        "step": 4, "phase": "2. Re-cable moved cables, replace changed ones", "action": "re-cable", "row": "R01",
        "rack": "K01", "label": "L-c6", "cable_id": "c6", "unplug_a": "S2:p1", "unplug_b": "T1:e2",
        "plug_a": "S2:p1", "plug_b": "T3:e2", "old_label": "L-c3", "part_number": "DAC-25G",
        "ordered_length_m": 1.0, "servers_offline": "S2", "done": "",
    }  # fmt: skip


@st.composite
def _plans(draw: st.DrawFn) -> tuple[list[C], list[C]]:
    """Servers with two to three ports each, each port on one of four ToRs in the old plan and in the
    new one (or not cabled), so cables are kept, moved, added and removed at random."""
    servers = draw(st.integers(1, 6))
    old: list[C] = []
    new: list[C] = []
    for s in range(servers):
        for p in range(draw(st.integers(2, 3))):
            before = draw(st.sampled_from([0, 1, 2, 3]))
            after = draw(st.sampled_from([None, 0, 1, 2, 3]))
            cable = (f"S{s}", f"p{p}", f"T{before}", f"e{s}.{p}")
            old.append(C(f"S{s}p{p}T{before}", *cable))
            if after is not None:
                new.append(C(f"S{s}p{p}T{after}", f"S{s}", f"p{p}", f"T{after}", f"e{s}.{p}"))
    return old, new


@settings(max_examples=200, deadline=None)
@given(_plans())
def test_no_server_with_a_second_link_goes_off(plans: tuple[list[C], list[C]]) -> None:
    old, new = plans
    roles = {c.a_device: "server" for c in old} | {f"T{i}": "tor" for i in range(4)}
    steps = _order(old, new, roles, roles)
    links = _links(old, roles)
    final = _links(new, roles)
    for s in steps:
        during = dict(links)
        if s.unplug is not None:
            for e in s.unplug:
                if e.device in during:
                    during[e.device] -= 1
        off = {d for d, n in during.items() if n <= 0 and n < links[d]}
        # a server goes off only when the cable taken out was its only link, or for good (the new plan)
        assert set(s.offline) == off
        for d in off:
            assert links[d] == 1 or final[d] == 0
        links = during
        if s.plug is not None:
            for e in s.plug:
                if e.device in links:
                    links[e.device] += 1
    assert links == final
