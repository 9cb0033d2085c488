"""A structured plan's plant in storage: what is stored is what is loaded, exactly; the pieces the
API serves (overview, a link's chain, a panel's port map) read it back as stored."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import Hall, Project
from loopline.db.models.wiring import PlanChainStepRow, PlanItemRow, PlanPanelRow, WiringPlanRow
from loopline.domain.errors import NotFound
from loopline.domain.structured.chain import SegmentKind
from loopline.domain.structured.plant import (
    ChainStep,
    FindingKind,
    PanelPlacement,
    PlantFinding,
    PlantItem,
    PlantOptic,
    PlantPanel,
    PlantRole,
    StructuredPlant,
    StructuredSettings,
)
from loopline.domain.wiring.summary import FINDINGS_PER_KIND, structured_summary
from loopline.seed import DEMO_PROJECT, seed
from loopline.services.wiring_plant import link_chain, load_plant, panel_map, plant_overview, store_plant

TOR = "H1.R01.R01-01.U20"
SPINE = "H1.R01.N01.U10"
A_PANEL = "H1.R01.R01-01.U42"
B_PANEL = "H1.R01.N01.U40"
TRUNK = "T-R01-01-N01-1"


def sample_plant(findings: int = 2) -> StructuredPlant:
    """Two 100G links from one ToR through one 24-fibre trunk: 2 panels, 1 trunk, 4 cords, 4 panel ports."""
    trunk = PlantItem(
        TRUNK, SegmentKind.TRUNK, TRUNK, "TRUNK-MPO-12-24F-B-UU-OS2",
        A_PANEL, "R01", B_PANEL, "R01", 27_400, 30_000, False, 24, "R01-01 > T1-3 > N01",
    )  # fmt: skip
    items = [trunk]
    steps: list[ChainStep] = []
    optics: list[PlantOptic] = []
    for n, cable in ((1, "C00000000000000a1"), (2, "C00000000000000a2")):
        tor_port, spine_port, front = f"e{48 + n}", f"e{n}", f"F{n:02d}"
        chain = [
            PlantItem(f"{cable}-cord-a", SegmentKind.CORD, f"{TOR}:{tor_port} / {A_PANEL}:{front}",
                      "CORD-LC-LC-AB-OS2", TOR, tor_port, A_PANEL, front, 2_000, 2_000, False, 2),
            PlantItem(f"{A_PANEL}:{front}", SegmentKind.PANEL_PORT, f"{A_PANEL}:{front}", "FS FHD-1MTP12LCDOS2A",
                      A_PANEL, front, A_PANEL, "R01"),
            trunk,
            PlantItem(f"{B_PANEL}:{front}", SegmentKind.PANEL_PORT, f"{B_PANEL}:{front}", "FS FHD-1MTP12LCDOS2A",
                      B_PANEL, "R01", B_PANEL, front),
            PlantItem(f"{cable}-cord-b", SegmentKind.CORD, f"{B_PANEL}:{front} / {SPINE}:{spine_port}",
                      "CORD-LC-LC-AB-OS2", B_PANEL, front, SPINE, spine_port, 3_000, 3_000, False, 2),
        ]  # fmt: skip
        details = ["", f"front {front} -> rear R01", f"fibres {2 * n - 1}-{2 * n}", f"rear R01 -> front {front}", ""]
        for position, (item, detail) in enumerate(zip(chain, details, strict=True)):
            steps.append(ChainStep(cable, position, item.item_id, detail))
            if item is not trunk:
                items.append(item)
        optics += [PlantOptic(TOR, tor_port, "100G-DR"), PlantOptic(SPINE, spine_port, "100G-DR")]
    return StructuredPlant(
        settings=StructuredSettings(PanelPlacement.RACK, lc_pair_loss_db=0.3, mpo_pair_loss_db=None),
        panels=[
            PlantPanel(A_PANEL, "H1.R01.R01-01", 42, "FS FHD-1UFCE", "FS FHD-1MTP12LCDOS2A", 1, 12, 2, PlantRole.RACK),
            PlantPanel(B_PANEL, "H1.R01.N01", 40, "FS FHD-1UFCE", "FS FHD-1MTP12LCDOS2A", 1, 12, 2, PlantRole.NETWORK),
        ],
        items=items,
        steps=steps,
        findings=[
            PlantFinding(FindingKind.LOSS, "warning", "C00000000000000a1", TRUNK, f"loss note {i}")
            for i in range(findings)
        ],
        optics=optics,
    )


def stored_plan(session: Session, plant: StructuredPlant) -> WiringPlanRow:
    """A plan row of the demo hall holding `plant` (its cables do not matter to the plant's storage)."""
    seed(session)
    hall = session.execute(select(Hall).join(Project).where(Project.name == DEMO_PROJECT)).scalar_one()
    row = WiringPlanRow(
        project_id=hall.project_id, hall_id=hall.id, name="structured", spec={"pattern": "single-homed"},
        summary={"structured": structured_summary(plant)}, diff=None, loops=[], tray_z_mm=0, via="tray",
    )  # fmt: skip
    session.add(row)
    session.flush()
    store_plant(session, row.id, plant)
    return row


def test_the_stored_plant_loads_back_equal(db_session: Session) -> None:
    plant = sample_plant()
    row = stored_plan(db_session, plant)
    db_session.expire_all()
    # Steps come back by link and position; the sample lists them that way already.
    assert load_plant(db_session, row) == plant
    panels = select(PlanPanelRow.panel_id).where(PlanPanelRow.plan_id == row.id).order_by(PlanPanelRow.seq)
    assert db_session.execute(panels).scalars().all() == [A_PANEL, B_PANEL]
    # The trunk is one row, however many links run through it: 1 + 2 x 4 items, 2 x 5 steps.
    assert len(db_session.execute(select(PlanItemRow).where(PlanItemRow.plan_id == row.id)).all()) == 9
    assert len(db_session.execute(select(PlanChainStepRow).where(PlanChainStepRow.plan_id == row.id)).all()) == 10


def test_a_direct_plan_has_no_plant_and_says_so(db_session: Session) -> None:
    row = stored_plan(db_session, sample_plant())
    row.summary = {}
    assert load_plant(db_session, row) is None
    with pytest.raises(NotFound, match=rf"plan {row.id} is wired direct: it has no panels"):
        plant_overview(db_session, row)


def test_findings_are_kept_bounded_and_counted(db_session: Session) -> None:
    plant = sample_plant(findings=FINDINGS_PER_KIND + 7)
    row = stored_plan(db_session, plant)
    overview = plant_overview(db_session, row)
    assert overview.findings == plant.findings[:FINDINGS_PER_KIND]
    assert overview.findings_total == FINDINGS_PER_KIND + 7
    assert overview.counts == {
        "links": 2, "panels": 2, "cassettes": 2, "panel_ports": 4, "trunks": 1, "cords": 4,
        "breakout_cables": 0, "fibres": 24, "optics": 4,
    }  # fmt: skip
    assert [t.item_id for t in overview.trunks] == [TRUNK]


def test_a_links_chain_and_a_panels_port_map(db_session: Session) -> None:
    row = stored_plan(db_session, sample_plant())
    chain = link_chain(db_session, row, "C00000000000000a2")
    assert [(s.position, s.item.kind, s.detail) for s in chain.steps] == [
        (0, SegmentKind.CORD, ""),
        (1, SegmentKind.PANEL_PORT, "front F02 -> rear R01"),
        (2, SegmentKind.TRUNK, "fibres 3-4"),
        (3, SegmentKind.PANEL_PORT, "rear R01 -> front F02"),
        (4, SegmentKind.CORD, ""),
    ]
    assert (chain.steps[0].item.a_end, chain.steps[0].item.a_port) == (TOR, "e50")
    assert (chain.steps[-1].item.b_end, chain.steps[-1].item.b_port) == (SPINE, "e2")
    assert (chain.optic_a, chain.optic_b) == ("100G-DR", "100G-DR")
    with pytest.raises(NotFound, match="has no structured link 'Cnope'"):
        link_chain(db_session, row, "Cnope")

    ports = panel_map(db_session, row, B_PANEL).ports
    assert len(ports) == 12
    assert [(p.front_port, p.rear_port, p.cord_far_end, p.cable_ids) for p in ports[:3]] == [
        ("F01", "R01", f"{SPINE} e1", ["C00000000000000a1"]),
        ("F02", "R01", f"{SPINE} e2", ["C00000000000000a2"]),
        ("F03", "R01", None, []),
    ]
    assert ports[0].cord is not None and ports[0].cord.label == f"{B_PANEL}:F01 / {SPINE}:e1"
    with pytest.raises(NotFound, match="has no panel 'H1.R01.N01.U01'"):
        panel_map(db_session, row, "H1.R01.N01.U01")


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Cf")), min_size=1, max_size=12)
_MM = st.integers(0, 2**31 - 1)
_ROUTE = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=30)


@st.composite
def plants(draw: st.DrawFn) -> StructuredPlant:
    """Any plant storage must keep: unique ids, any text, links in cable id order (as they load when
    the plan has no such cables), steps by position."""
    panels = draw(st.lists(
        st.builds(PlantPanel, _TEXT, _TEXT, st.integers(1, 60), _TEXT, st.none() | _TEXT, st.integers(0, 12),
                  st.integers(0, 300), st.integers(0, 300), st.sampled_from(PlantRole)),
        max_size=4, unique_by=lambda p: p.panel_id,
    ))  # fmt: skip
    items = draw(st.lists(
        st.builds(PlantItem, _TEXT, st.sampled_from(SegmentKind), _TEXT, _TEXT, _TEXT, _TEXT, _TEXT, _TEXT,
                  _MM, _MM, st.booleans(), st.integers(0, 144), _ROUTE),
        min_size=1, max_size=6, unique_by=lambda i: i.item_id,
    ))  # fmt: skip
    cables = sorted(draw(st.sets(st.integers(0, 2**64 - 1), max_size=4)))
    steps = [
        ChainStep(f"C{c:016x}", position, draw(st.sampled_from(items)).item_id, draw(_TEXT))
        for c in cables
        for position in range(draw(st.integers(1, 5)))
    ]
    optics = draw(st.lists(st.builds(PlantOptic, _TEXT, _TEXT, _TEXT), max_size=4,
                           unique_by=lambda o: (o.device, o.port)))  # fmt: skip
    severity = st.sampled_from(["error", "warning"])
    findings = draw(st.lists(st.builds(PlantFinding, st.sampled_from(FindingKind), severity,
                                       st.none() | _TEXT, st.none() | _TEXT, _TEXT), max_size=3))  # fmt: skip
    loss = st.none() | st.floats(0, 5, allow_nan=False)
    settings = StructuredSettings(draw(st.sampled_from(PanelPlacement)), draw(loss), draw(loss))
    return StructuredPlant(settings, panels, items, steps, findings, optics)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plant=plants())
def test_any_plant_loads_back_equal(db_session: Session, plant: StructuredPlant) -> None:
    row = stored_plan(db_session, plant)
    assert load_plant(db_session, row) == plant
