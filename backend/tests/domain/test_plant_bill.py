"""A structured plant's bill, counted by hand: items once however many links share them, optics per
port (a broken-out port's once), optics billed as the media catalog's part where there is one."""

from __future__ import annotations

from loopline.domain.bom import Category, Material, MediaClass, plant_materials, price
from loopline.domain.structured.catalog import builtin_catalog
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.plant import (
    ChainStep,
    PlantItem,
    PlantOptic,
    PlantPanel,
    PlantRole,
    StructuredPlant,
    StructuredSettings,
)

MODULE = "Corning ECM-UM08-04-E8GF-ULL"


def breakout_plant() -> StructuredPlant:
    """One 400G-DR4 spine port e5 broken out to four ToRs' 100G-DR uplinks through a breakout module:
    an MPO cord from the port to the module, four LC cords ToR side, one 24-fibre trunk shared."""
    mpo = PlantItem("M", SegmentKind.CORD, "spine:e5 / N.U38:R01", "CORD-MPO12-MPO12-B-UU-OS2",
                    "N.U38", "R01", "spine", "e5", 1_500, 2_000, False, 12)  # fmt: skip
    trunk = PlantItem("T", SegmentKind.TRUNK, "T-R-N-1", "TRUNK-MPO-12-24F-B-UU-OS2", "R.U42", "R01", "N.U40",
                      "R01", 41_000, 41_000, True, 24, "R > tray > N")  # fmt: skip
    items = [mpo, trunk]
    steps = []
    for lane in range(1, 5):
        cord = PlantItem(f"C{lane}", SegmentKind.CORD, f"tor{lane}:e49 / R.U42:F{lane:02d}", "CORD-LC-LC-AB-OS2",
                         f"tor{lane}", "e49", "R.U42", f"F{lane:02d}", 2_000, 2_000, False, 2)  # fmt: skip
        items.append(cord)
        steps += [ChainStep(f"L{lane}", 0, cord.item_id, ""), ChainStep(f"L{lane}", 1, "T", ""),
                  ChainStep(f"L{lane}", 2, "M", f"lane {lane}")]  # fmt: skip
    return StructuredPlant(
        StructuredSettings(),
        panels=[
            PlantPanel("R.U42", "R", 42, "FS FHD-1UFCE", "FS FHD-1MTP6LCDOS2A", 1, 6, 4, PlantRole.RACK),
            PlantPanel("N.U40", "N", 40, "FS FHD-1UFCE", "FS FHD-1MTP6LCDOS2A", 1, 6, 4, PlantRole.NETWORK),
            PlantPanel(
                "N.U38", "N", 38, "Corning EDGE-01U", "Corning ECM-UM08-04-E8GF-ULL", 1, 4, 4, PlantRole.NETWORK
            ),
        ],
        items=items,
        steps=steps,
        optics=[PlantOptic("spine", "e5", "400G-DR4"), *(PlantOptic(f"tor{n}", "e49", "100G-DR") for n in range(1, 5))],
    )


def test_a_breakout_bills_the_fast_ports_optic_once_and_each_lanes_far_end() -> None:
    got = plant_materials(breakout_plant(), builtin_catalog())
    assert got.lines == (
        Material(Category.CABLE, "CORD-LC-LC-AB-OS2", 2_000, MediaClass.OPTICAL, 4),
        Material(Category.CABLE, "CORD-MPO12-MPO12-B-UU-OS2", 2_000, MediaClass.OPTICAL, 1),
        Material(Category.CABLE, "TRUNK-MPO-12-24F-B-UU-OS2", 41_000, MediaClass.OPTICAL, 1),
        Material(Category.TRANSCEIVER, "XCVR-100G-DR", None, MediaClass.OPTICAL, 4),
        Material(Category.TRANSCEIVER, "XCVR-400G-DR", None, MediaClass.OPTICAL, 1),
        Material(Category.PANEL, "Corning EDGE-01U", None, None, 1),
        Material(Category.PANEL, "FS FHD-1UFCE", None, None, 2),
        Material(Category.CASSETTE, MODULE, None, MediaClass.OPTICAL, 1),
        Material(Category.CASSETTE, "FS FHD-1MTP6LCDOS2A", None, MediaClass.OPTICAL, 2),
    )


def test_an_optic_the_media_catalog_lacks_is_billed_by_its_own_name_and_left_unpriced() -> None:
    plant = StructuredPlant(StructuredSettings(), optics=[PlantOptic("spine", "e1", "400G-FR4")])
    bill = price(plant_materials(plant, builtin_catalog()))
    assert [(x.category, x.part_number, x.quantity, x.unit_price) for x in bill.lines] == [
        (Category.TRANSCEIVER, "400G-FR4", 1, None)
    ]
    assert bill.warnings == ["no price for transceiver '400G-FR4': add it to the price book"]
    assert not bill.complete
