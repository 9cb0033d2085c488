"""Host names from a hall template with counters, overrides, collisions refused naming both devices,
and the CSV of overrides refused line by line, column by column."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loopline.domain import device_names as dn
from loopline.domain.errors import DomainError
from loopline.domain.layout import (
    FabricSwitch,
    Hall,
    LogicalRack,
    Point,
    Rack,
    RackRole,
    Row,
    ServerModel,
    SwitchModel,
    TorPosition,
)

SPINE = SwitchModel(name="spine", server_ports=0, uplink_ports=64)


def _hall(rows: int = 1, racks: int = 2, servers: int = 3, logical: int = 1) -> Hall:
    def rack(r: int, k: int) -> Rack:
        lrs = tuple(
            LogicalRack(servers=servers, tor_position=TorPosition.TOP, base_u=1 + j * (servers + 1))
            for j in range(logical)
        )
        # Racks listed out of position order: the counter follows the floor, not the list.
        return Rack(name=f"R{r:02d}-{k:02d}", position_mm=(racks - k) * 600, logical_racks=lrs)

    return Hall(
        name="H1",
        width_mm=30_000,
        depth_mm=30_000,
        site="FRA",
        rows=tuple(
            Row(name=f"R{r:02d}", origin=Point(0, r * 3000), racks=tuple(rack(r, k) for k in range(1, racks + 1)))
            for r in range(1, rows + 1)
        ),
    )


def test_slots_of_a_small_hall_by_hand() -> None:
    hall = Hall(
        name="H1",
        width_mm=20_000,
        depth_mm=20_000,
        rows=(
            Row(
                name="A",
                origin=Point(0, 0),
                racks=(
                    Rack(name="A-02", position_mm=600, logical_racks=(LogicalRack(servers=2, base_u=3),)),
                    Rack(
                        name="A-NET",
                        position_mm=1200,
                        role=RackRole.NETWORK,
                        fabric_switches=(FabricSwitch("SP1", "spine", SPINE, 20),),
                    ),
                    Rack(
                        name="A-01",
                        position_mm=0,
                        logical_racks=(LogicalRack(servers=1, server_model=ServerModel(height_u=2)),),
                    ),
                ),
            ),
        ),
    )
    got = [(s.key, s.rack, s.rack_name, s.u, s.n, s.role) for s in dn.hall_slots(hall)]
    # A-01 (position 0) is rack 1: a 2U server at U1, its ToR on top at U3.
    # A-02 is rack 2: servers at U3 and U4, ToR at U5. A-NET is rack 3: the spine at U20.
    assert got == [
        ("H1.A.A-01.U01", 1, "A-01", 1, 1, "server"),
        ("H1.A.A-01.U03", 1, "A-01", 3, 2, "tor"),
        ("H1.A.A-02.U03", 2, "A-02", 3, 1, "server"),
        ("H1.A.A-02.U04", 2, "A-02", 4, 2, "server"),
        ("H1.A.A-02.U05", 2, "A-02", 5, 3, "tor"),
        ("H1.A.A-NET.U20", 3, "A-NET", 20, 1, "spine"),
    ]


def test_the_issue_template_renders_by_hand() -> None:
    t = dn.parse_template("{hall}-{row}{rack:02}-s{u:02}")
    slots = dn.hall_slots(_hall(racks=2, servers=3))
    named = dn.assign_names(slots, t, {})
    by_key = {d.slot.key: d.host_name for d in named}
    # Rack R01-02 stands at position 0: it is rack 01 of its row; R01-01 is rack 02.
    assert by_key["H1.R01.R01-02.U01"] == "H1-R0101-s01"
    assert by_key["H1.R01.R01-02.U04"] == "H1-R0101-s04"  # the ToR, above 3 servers
    assert by_key["H1.R01.R01-01.U03"] == "H1-R0102-s03"
    assert {d.source for d in named} == {"template"}
    t2 = dn.parse_template("{site}.{rack_name}.{role}{n}")
    assert dn.assign_names(slots, t2, {})[3].host_name == "FRA.R01-02.tor4"


def test_overrides_win_and_without_a_template_names_are_locations() -> None:
    slots = dn.hall_slots(_hall())
    named = dn.assign_names(slots, None, {"H1.R01.R01-01.U02": dn.Override("db-7", "AT-0001")})
    names = dn.device_names(named)
    assert names.host("H1.R01.R01-01.U02") == "db-7"
    assert names.asset_tag("H1.R01.R01-01.U02") == "AT-0001"
    assert names.host("H1.R01.R01-01.U01") == "H1.R01.R01-01.U01"
    assert names.host("H1.R01.R01-01.U04B") == "H1.R01.R01-01.U04-b"  # a parallel ToR after its twin
    assert names.host("H9.X.Y.U01") == "H9.X.Y.U01"  # a device the layout no longer has
    assert names.label("H1.R01.R01-01.U02", "p1", "H1.R01.R01-01.U04", "e2") == "db-7:p1 / H1.R01.R01-01.U04:e2"


def test_a_collision_is_refused_naming_both_devices() -> None:
    slots = dn.hall_slots(_hall(racks=2))
    # Without {rack}, the two racks' devices at the same U share a name.
    with pytest.raises(DomainError) as err:
        dn.assign_names(slots, dn.parse_template("{row}-s{u:02}"), {})
    assert err.value.field == "template"
    assert err.value.reason == (
        "H1.R01.R01-02.U01 and H1.R01.R01-01.U01 would both be named 'R01-s01': host names must be unique in the hall"
    )
    with pytest.raises(DomainError) as err:
        dn.assign_names(slots, None, {"H1.R01.R01-01.U02": dn.Override("H1.R01.R01-02.U01")})
    assert err.value.field == "host_name"
    assert "H1.R01.R01-02.U01 and H1.R01.R01-01.U02 would both be named" in err.value.reason
    with pytest.raises(DomainError) as err:
        dn.assign_names(slots, None, {k: dn.Override(None, "T1") for k in ("H1.R01.R01-01.U01", "H1.R01.R01-01.U02")})
    assert err.value.reason == "H1.R01.R01-01.U01 and H1.R01.R01-01.U02 both have the asset tag 'T1'"


@pytest.mark.parametrize(
    ("template", "reason"),
    [
        ("server", "a naming template needs a counter such as {u} or {n}, or every device gets one name"),
        (
            "{rack_no}",
            "unknown field {rack_no}: the fields are {site}, {hall}, {row}, {rack_name}, {role}, {rack}, {u}, {n}",
        ),
        ("{u:x}", "{u:x}: a number takes a width such as :02 (zero-padded) or nothing"),
        ("{row:02}", "{row:02}: a text field takes no format"),
        ("{u!r}", "{u!r}: conversions are not supported"),
        ("s{u", "unbalanced braces: expected '}' before end of string (write {{ or }} for a brace itself)"),
    ],
)
def test_bad_templates_say_why(template: str, reason: str) -> None:
    with pytest.raises(DomainError) as err:
        dn.parse_template(template)
    assert (err.value.field, err.value.reason) == ("template", reason)


def test_a_template_giving_no_host_name_names_the_device() -> None:
    hall = _hall()
    with pytest.raises(DomainError) as err:
        dn.assign_names(dn.hall_slots(hall), dn.parse_template("{hall} {u}"), {})
    assert err.value.reason.startswith("H1.R01.R01-02.U01: 'H1 1' is not a host name")


def test_csv_errors_name_line_and_column_and_refuse_everything() -> None:
    known = [s.key for s in dn.hall_slots(_hall())]
    text = (
        "device,host_name,asset_tag\n"
        "H1.R01.R01-01.U01,web-1,A1\n"
        "H1.R01.R01-09.U01,web-2,\n"
        "H1.R01.R01-01.U02,=cmd(),\n"
        "H1.R01.R01-01.U01,web-3,\n"
        "H1.R01.R01-01.U03,ok-3,tag with space\n"
    )
    with pytest.raises(dn.CsvRefused) as err:
        dn.parse_overrides_csv(text, known)
    assert [(i.field, i.message.split(":")[0]) for i in err.value.issues] == [
        ("csv.line[3].device", "line 3, column device"),
        ("csv.line[4].host_name", "line 4, column host_name"),
        ("csv.line[5].device", "line 5, column device"),
        ("csv.line[6].asset_tag", "line 6, column asset_tag"),
    ]
    assert err.value.issues[0].message == (
        "line 3, column device: no device 'H1.R01.R01-09.U01' in this hall (use the location names the export lists)"
    )
    assert err.value.issues[2].message == "line 5, column device: H1.R01.R01-01.U01 is already on line 2"
    with pytest.raises(dn.CsvRefused) as err:
        dn.parse_overrides_csv("device,name_of_host\n", known)
    assert err.value.issues[0].message == (
        "line 1: the columns are device,host_name[,asset_tag] (missing host_name; unknown name_of_host)"
    )


def test_the_download_reads_back_as_no_change() -> None:
    slots = dn.hall_slots(_hall())
    named = dn.assign_names(slots, dn.parse_template("n{rack}-{u}"), {"H1.R01.R01-01.U02": dn.Override("db", "T9")})
    rows = list(dn.names_csv_rows(named))
    assert rows[:2] == [("H1.R01.R01-02.U01", "", "", "n1-1"), ("H1.R01.R01-02.U02", "", "", "n1-2")]
    text = "device,host_name,asset_tag,name\n" + "".join(",".join(r) + "\n" for r in rows)
    parsed = {o.device: o.override for o in dn.parse_overrides_csv(text, [s.key for s in slots])}
    assert parsed["H1.R01.R01-01.U02"] == dn.Override("db", "T9")
    assert parsed["H1.R01.R01-02.U01"] == dn.Override(None, None)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(1, 3),
    racks=st.integers(1, 4),
    servers=st.integers(1, 6),
    logical=st.integers(1, 2),
    sep=st.sampled_from(["-", ".", "_", ""]),
)
def test_a_template_with_row_rack_and_u_names_every_device_uniquely(
    rows: int, racks: int, servers: int, logical: int, sep: str
) -> None:
    slots = dn.hall_slots(_hall(rows, racks, servers, logical))
    assert len(slots) == rows * racks * logical * (servers + 1)
    template = dn.parse_template(f"{{row}}{sep}{{rack:02}}{sep}s{{u:02}}")
    named = dn.assign_names(slots, template, {})
    names = [d.host_name for d in named]
    assert len(set(names)) == len(names) == len(slots)
    assert all(dn.HOST_NAME.match(n) and len(n) <= dn.HOST_NAME_MAX for n in names)


@settings(max_examples=60, deadline=None)
@given(racks=st.integers(2, 5), servers=st.integers(1, 5), data=st.data())
def test_any_collision_is_refused_naming_two_distinct_devices(racks: int, servers: int, data: st.DataObject) -> None:
    slots = dn.hall_slots(_hall(1, racks, servers))
    a, b = data.draw(st.lists(st.sampled_from(slots), min_size=2, max_size=2, unique_by=lambda s: s.key))
    overrides = {a.key: dn.Override("same"), b.key: dn.Override("SAME")}  # names compare without case
    with pytest.raises(DomainError) as err:
        dn.assign_names(slots, None, overrides)
    first, second = sorted((a, b), key=slots.index)
    said = overrides[second.key].host_name
    assert err.value.reason == (
        f"{first.key} and {second.key} would both be named {said!r}: host names must be unique in the hall"
    )


def test_a_file_the_csv_reader_cannot_read_is_refused_not_crashed() -> None:
    with pytest.raises(dn.CsvRefused) as err:
        dn.parse_overrides_csv("device,host_name\n" + "x" * 200_000 + ",a\n", [])
    assert err.value.issues[0].field == "csv"
    assert err.value.issues[0].message.startswith(
        "the file is not CSV the upload can read: field larger than field limit"
    )
