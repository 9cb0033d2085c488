"""Leaf-spine uplinks: every pair of leaves shares a spine, so a single-homed plan has a path
between any two servers (the demo hall's 96 ToRs x 4 uplinks over 8 spines used to split into two
disjoint planes, and a shuffle across them stalled 450 of its 870 flows)."""

from __future__ import annotations

import itertools
import json
import subprocess
from collections import Counter
from pathlib import Path

from _wiring_helpers import plan
from hypothesis import given
from hypothesis import strategies as st

from loopline.domain.scenario import build_scenario
from loopline.domain.wiring import FabricKind, FabricSpec, Pattern, Role
from loopline.domain.wiring.generate import uplink_targets
from loopline.settings import get_settings

LS = FabricKind.LEAF_SPINE


def test_demo_hall_uplinks_four_of_eight_spines_always_meet() -> None:
    # offsets {0, 1, 3, 4}: their differences cover Z_8, so any two shifts share a spine
    sets = [set(uplink_targets(LS, k, 4, 8)) for k in range(96)]
    assert sets[0] == {0, 1, 3, 4} and sets[1] == {1, 2, 4, 5}
    assert all(a & b for a, b in itertools.combinations(sets, 2))
    assert Counter(i for s in sets for i in s) == {i: 48 for i in range(8)}  # 96 x 4 / 8, as before


@given(spines=st.integers(2, 40), data=st.data())
def test_leaf_uplinks_fill_spines_evenly_and_meet_when_a_cover_exists(spines: int, data: st.DataObject) -> None:
    uplinks = data.draw(st.integers(1, spines - 1))
    sets = [uplink_targets(LS, k, uplinks, spines) for k in range(spines)]
    assert all(len(set(s)) == uplinks for s in sets)  # distinct spines per ToR
    # every S consecutive ToRs load each spine exactly U times
    assert Counter(i for s in sets for i in s) == {i: uplinks for i in range(spines)}
    offsets = sets[0]
    if len({(a - b) % spines for a in offsets for b in offsets}) == spines:
        assert all(set(a) & set(b) for a, b in itertools.combinations(sets, 2))
    if uplinks * (uplinks - 1) < spines - 1:  # too few differences: some pair cannot meet
        assert any(not set(a) & set(b) for a, b in itertools.combinations(sets, 2))


@given(spines=st.integers(1, 40), ordinal=st.integers(0, 10_000))
def test_no_uplinks_means_no_fabric_links(spines: int, ordinal: int) -> None:
    # tor_uplinks = 0 (a hall wired for its server cables only): the difference cover's first offset
    # used to give every ToR one uplink anyway, overfilling the spines of the 2,000-rack benchmark hall
    assert uplink_targets(LS, ordinal, 0, spines) == []


def test_single_homed_leaf_spine_shuffle_finishes_every_flow(tmp_path: Path) -> None:
    # 2 rows x 6 racks x 2 logical racks = 24 ToRs, 4 uplinks over 8 spines
    p = plan(
        Pattern.SINGLE_HOMED, ports=1, rows=2, racks_per_row=6, spine_switches=8,
        spec_kw={"fabric": FabricSpec(kind=LS, uplinks_per_tor=4)},
    )  # fmt: skip
    spines_of: dict[str, set[str]] = {}
    roles = {d.name: d.role for d in p.devices}
    for c in p.cables:
        if roles[c.a_device] is Role.TOR and roles[c.b_device] is Role.SPINE:
            spines_of.setdefault(c.a_device, set()).add(c.b_device)
    assert len(spines_of) == 24 and len(set().union(*spines_of.values())) == 8
    assert all(a & b for a, b in itertools.combinations(spines_of.values(), 2))
    # the engine agrees: a shuffle across the ToRs that used to sit in different planes ends
    servers = [d.node_id for d in p.devices if d.role is Role.SERVER and d.logical_rack in _racks(p, 0, 1)]
    sc = build_scenario(p, workload={"type": "shuffle", "servers": servers, "bytes_per_pair": 1_000_000})
    (tmp_path / "sc.json").write_text(json.dumps(sc))
    subprocess.run(
        [str(get_settings().engine_binary), "run", str(tmp_path / "sc.json"), "-o", str(tmp_path / "r.json")],
        check=True, capture_output=True,
    )  # fmt: skip
    flows = json.loads((tmp_path / "r.json").read_text())["flows"]
    n = len(servers)
    assert (flows["total"], flows["finished"], flows["stalled"]) == (n * (n - 1), n * (n - 1), 0)


def _racks(p: object, *indices: int) -> set[str]:
    from loopline.domain.scenario import logical_racks

    racks = logical_racks(p)  # type: ignore[arg-type]
    return {racks[i][0] for i in indices}
