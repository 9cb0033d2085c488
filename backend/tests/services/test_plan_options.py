"""A plan's options as stored (`PlanOptions.to_json` / `from_json`): the cabling options round-trip,
specs stored before they existed still load, and the domain spec gets them (`wiring_spec`)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.domain import layout as dl
from loopline.domain.errors import DomainError
from loopline.domain.structured.plant import Cabling, PanelPlacement, StructuredSettings
from loopline.domain.wiring import GrinScope, Pattern
from loopline.services.wiring_spec import ParallelOptions, PlanOptions, RailLeaf, RailOptions, wiring_spec

_LOSS = st.none() | st.floats(0, 5, allow_nan=False)
_STRUCTURED = st.none() | st.builds(
    StructuredSettings, panel_at=st.sampled_from(PanelPlacement), lc_pair_loss_db=_LOSS, mpo_pair_loss_db=_LOSS
)
_OPTIONS = st.builds(
    PlanOptions,
    name=st.text(min_size=1, max_size=20),
    pattern=st.sampled_from(Pattern),
    ports=st.none() | st.integers(1, 16),
    grin_scope=st.sampled_from(GrinScope),
    parallel=st.none() | st.builds(ParallelOptions, pattern=st.none() | st.sampled_from(Pattern)),
    cabling=st.sampled_from(Cabling),
    structured=_STRUCTURED,
    breakouts=st.booleans(),
    rail=st.none()
    | st.builds(
        RailOptions,
        su_size=st.integers(1, 4096),
        leaf_model_id=st.integers(1, 2**31 - 1),
        oversubscription=st.none() | st.floats(0.01, 64, allow_nan=False),
        leaf=st.none()
        | st.builds(
            RailLeaf,
            name=st.text(min_size=1, max_size=20),
            server_ports=st.integers(0, 1024),
            server_port_gbps=st.floats(1, 3200),
            uplink_ports=st.integers(0, 1024),
            uplink_gbps=st.floats(1, 3200),
            height_u=st.integers(1, 20),
        ),
    ),
)


@settings(max_examples=200, deadline=None)
@given(options=_OPTIONS)
def test_options_round_trip_through_the_stored_spec(options: PlanOptions) -> None:
    stored = options.to_json()
    assert PlanOptions.from_json(stored) == options
    # Stored as JSON: plain strings for the enums, the settings as an object.
    assert stored["cabling"] in ("direct", "structured") and type(stored["cabling"]) is str
    assert stored["breakouts"] is options.breakouts
    if options.structured is None:
        assert stored["structured"] is None
    else:
        assert type(stored["structured"]["panel_at"]) is str
        assert set(stored["structured"]) == {"panel_at", "lc_pair_loss_db", "mpo_pair_loss_db"}


def test_a_spec_stored_before_the_cabling_options_loads_as_direct() -> None:
    old = {
        "name": "p=2", "pattern": "paired-row", "ports": 2, "subways_type": 1, "loop": None, "clusters": 1,
        "grin_degree": 0, "grin_scope": "rack", "geometry": "default", "route_via": "tray",
        "service_allowance_m": None, "slack_pct": None, "fabric_optical": True, "parallel": None,
        "upgrade_from_plan_id": None,
    }  # fmt: skip
    options = PlanOptions.from_json(old)
    assert (options.cabling, options.structured, options.breakouts) == (Cabling.DIRECT, None, False)
    assert options.to_json() == {
        **old, "cabling": "direct", "structured": None, "breakouts": False, "rail": None, "fabric": "compute",
    }  # fmt: skip


def test_wiring_spec_carries_the_options_to_the_domain() -> None:
    fabric = dl.FabricSettings(fabric_type=dl.FabricType.LEAF_SPINE, tor_uplinks=4)
    direct = wiring_spec(PlanOptions(name="d", pattern=Pattern.SINGLE_HOMED), fabric)
    assert (direct.cabling, direct.structured, direct.fabric.breakouts) == (Cabling.DIRECT, None, False)
    # Structured without settings: the defaults, so the plant builder always has them.
    plain = wiring_spec(PlanOptions(name="s", pattern=Pattern.SINGLE_HOMED, cabling=Cabling.STRUCTURED), fabric)
    assert (plain.cabling, plain.structured) == (Cabling.STRUCTURED, StructuredSettings())
    chosen = StructuredSettings(PanelPlacement.RACK, 0.3, 0.5)
    spec = wiring_spec(
        PlanOptions(
            name="s", pattern=Pattern.SINGLE_HOMED, cabling=Cabling.STRUCTURED, structured=chosen, breakouts=True
        ),
        fabric,
    )
    assert (spec.structured, spec.fabric.breakouts) == (chosen, True)


def test_wiring_spec_carries_the_rail_leaf_to_the_domain() -> None:
    """The leaf model stored with the plan becomes the domain's switch model; a rail spec whose leaf was
    not read from the catalog is refused naming rail.leaf_model_id (resolve_rail reads it)."""
    fabric = dl.FabricSettings()
    leaf = RailLeaf("32x400G+32x400G leaf", 32, 400.0, 32, 400.0, 1)
    options = PlanOptions(name="r", pattern=Pattern.RAIL_OPTIMIZED, rail=RailOptions(8, 5, 2.0, leaf=leaf))
    spec = wiring_spec(options, fabric)
    assert spec.rail is not None
    assert spec.rail.leaf_model == dl.SwitchModel("32x400G+32x400G leaf", 32, 400.0, 32, 400.0, 1)
    assert (spec.rail.su_size, spec.rail.oversubscription) == (8, 2.0)
    unresolved = PlanOptions(name="r", pattern=Pattern.RAIL_ONLY, rail=RailOptions(8, 5))
    try:
        wiring_spec(unresolved, fabric)
    except DomainError as e:
        assert e.field == "rail.leaf_model_id"
    else:
        raise AssertionError("an unresolved leaf was taken")
