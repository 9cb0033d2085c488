"""An upgrade's change to the passive plant, segment by segment, counted by hand."""

from __future__ import annotations

from dataclasses import replace

from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.plant import PlantItem, PlantPanel, PlantRole, StructuredPlant, StructuredSettings
from loopline.domain.wiring.diff import diff_plants


def cord(n: int) -> PlantItem:
    return PlantItem(f"C{n}", SegmentKind.CORD, f"tor:e{n} / P:F{n:02d}", "CORD-LC-LC-AB-OS2",
                     "tor", f"e{n}", "P", f"F{n:02d}", 2_000, 2_000, False, 2)  # fmt: skip


TRUNK = PlantItem("T1", SegmentKind.TRUNK, "T-R1-N1-1", "TRUNK-MPO-12-24F-B-UU-OS2", "P", "R01", "Q", "R01",
                  27_400, 30_000, False, 24, "R1 > tray > N1")  # fmt: skip
PANEL = PlantPanel("P", "R1", 42, "FS FHD-1UFCE", "FS FHD-1MTP12LCDOS2A", 1, 12, 4, PlantRole.RACK)


def plant(*items: PlantItem, panels: tuple[PlantPanel, ...] = (PANEL,)) -> StructuredPlant:
    return StructuredPlant(StructuredSettings(), list(panels), list(items))


def test_added_cords_and_no_trunk_move() -> None:
    old = plant(TRUNK, *(cord(n) for n in range(1, 5)))
    new = plant(TRUNK, *(cord(n) for n in range(1, 101)))
    d = diff_plants(old, new)
    assert (d.trunks.kept, d.trunks.moved, d.cords.kept, d.cords.added) == (1, 0, 4, 96)
    assert d.words() == "no trunk moves; 96 cords added"


def test_moved_resized_removed_trunks_and_panels() -> None:
    moved = replace(TRUNK, b_end="Q2", route="R1 > tray > N2")
    resized = replace(TRUNK, item_id="T2", ordered_mm=40_000)
    old = plant(TRUNK, replace(TRUNK, item_id="T2"), replace(TRUNK, item_id="T3"), cord(1), cord(2))
    new = plant(moved, resized, cord(1), panels=(PANEL, replace(PANEL, panel_id="P2", u=41)))
    d = diff_plants(old, new)
    assert d.trunks.to_json() == {"kept": 0, "added": 0, "removed": 1, "moved": 1, "changed": 1}
    assert d.panels.to_json() == {"kept": 1, "added": 1, "removed": 0, "moved": 0, "changed": 0}
    assert d.words() == "1 trunk moves; 1 trunk removed; 1 trunk re-sized; 1 cord removed; 1 panel added"


def test_from_direct_everything_is_added() -> None:
    d = diff_plants(None, plant(TRUNK, cord(1), cord(2)))
    assert d.words() == "no trunk moves; 1 trunk added; 2 cords added; 1 panel added"
    assert (
        diff_plants(plant(TRUNK, cord(1)), None).words()
        == "no trunk moves; 1 trunk removed; 1 cord removed; 1 panel removed"
    )
    assert diff_plants(plant(TRUNK, cord(1)), plant(TRUNK, cord(1))).words() == "no trunk moves; no cord changes"
