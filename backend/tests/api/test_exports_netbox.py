"""The NetBox export, checked against NetBox 4.x's own import rules (netbox-community/netbox, read at
release 4.6.8): the file order its imports need, each form's field names and required fields, its
choice slugs, model length limits and decimal places, and that every reference resolves to an
object of an earlier file, so an empty NetBox takes the plan unchanged. Rows are locations and
every rack has one (NetBox's (location, name) rack rule then refuses a second import); device
types carry an interface template per port of their model; cables are coloured by type. The
upgrade export holds exactly the diff of two plans. (scripts/netbox_check.py imports the same
files into a real NetBox.)"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from loopline.domain.exports import NETBOX_COLUMNS

# netbox/dcim/forms/bulk_import.py: each import form's Meta.fields (the CSV columns it reads).
FORM_FIELDS = {
    "01-sites.csv": {"name", "slug", "status", "region", "group", "tenant", "facility", "time_zone", "description",
                     "physical_address", "shipping_address", "latitude", "longitude", "owner", "comments", "tags"},
    "02-locations.csv": {"site", "parent", "name", "slug", "status", "tenant", "facility", "description", "owner",
                         "comments", "tags"},
    "03-racks.csv": {"site", "location", "group", "name", "facility_id", "tenant", "status", "role", "rack_type",
                     "form_factor", "serial", "asset_tag", "width", "u_height", "desc_units", "outer_width",
                     "outer_height", "outer_depth", "outer_unit", "mounting_depth", "airflow", "weight",
                     "max_weight", "weight_unit", "description", "owner", "comments", "tags"},
    "04-manufacturers.csv": {"name", "slug", "description", "owner", "comments", "tags"},
    "05-device-types.yaml": {"manufacturer", "default_platform", "model", "slug", "part_number", "u_height",
                             "exclude_from_utilization", "is_full_depth", "subdevice_role", "airflow", "description",
                             "weight", "weight_unit", "owner", "comments", "tags", "interfaces"},
    "06-device-roles.csv": {"name", "slug", "parent", "color", "vm_role", "config_template", "description", "owner",
                            "comments", "tags"},
    "07-devices.csv": {"name", "role", "tenant", "manufacturer", "device_type", "platform", "serial", "asset_tag",
                       "status", "site", "location", "rack", "position", "face", "latitude", "longitude", "parent",
                       "device_bay", "airflow", "virtual_chassis", "vc_position", "vc_priority", "cluster",
                       "description", "config_template", "owner", "comments", "tags"},
    "08-cables.csv": {"side_a_site", "side_a_device", "side_a_power_panel", "side_a_type", "side_a_name",
                      "side_b_site", "side_b_device", "side_b_power_panel", "side_b_type", "side_b_name", "type",
                      "status", "profile", "tenant", "bundle", "label", "color", "length", "length_unit",
                      "description", "owner", "comments", "tags"},
}  # fmt: skip
INTERFACE_FORM = {"device", "name", "label", "parent", "bridge", "lag", "type", "speed", "duplex", "enabled",
                  "mark_connected", "wwn", "vdcs", "mtu", "mgmt_only", "description", "poe_mode", "poe_type",
                  "mode", "vlan_group", "untagged_vlan", "tagged_vlans", "qinq_svlan", "vrf", "rf_role",
                  "rf_channel", "rf_channel_frequency", "rf_channel_width", "tx_power", "owner", "tags"}  # fmt: skip
# dcim/forms/object_import.py InterfaceTemplateImportForm
INTERFACE_TEMPLATE_FORM = {"name", "label", "type", "enabled", "mgmt_only", "description", "poe_mode", "poe_type",
                           "rf_role"}  # fmt: skip
# Fields each form requires (a model field without blank=True, or a form field without required=False);
# a rack without a rack_type needs width and u_height (RackImportForm.clean).
REQUIRED = {
    "01-sites.csv": {"name", "slug", "status"},
    "02-locations.csv": {"site", "name", "slug", "status"},
    "03-racks.csv": {"site", "name", "status", "width", "u_height"},
    "04-manufacturers.csv": {"name", "slug"},
    "05-device-types.yaml": {"manufacturer", "model", "slug"},
    "06-device-roles.csv": {"name", "slug"},
    "07-devices.csv": {"role", "manufacturer", "device_type", "status", "site"},
    "08-cables.csv": {"side_a_type", "side_a_name", "side_b_type", "side_b_name"},
}
# netbox/dcim/choices.py
SITE_STATUS = {"planned", "staging", "active", "decommissioning", "retired"}
RACK_STATUS = {"reserved", "available", "planned", "active", "deprecated"}
RACK_FORM_FACTOR = {"2-post-frame", "4-post-frame", "4-post-cabinet", "wall-frame", "wall-frame-vertical",
                    "wall-cabinet", "wall-cabinet-vertical"}  # fmt: skip
RACK_WIDTH = {"10", "19", "21", "23"}
DEVICE_STATUS = {"offline", "active", "planned", "staged", "failed", "inventory", "decommissioning"}
DEVICE_FACE = {"front", "rear"}
LINK_STATUS = {"connected", "planned", "decommissioning"}
LENGTH_UNIT = {"km", "m", "cm", "mi", "ft", "in"}
CABLE_TYPE = {"cat3", "cat5", "cat5e", "cat6", "cat6a", "cat7", "cat7a", "cat8", "mrj21-trunk", "dac-active",
              "dac-passive", "coaxial", "rg-6", "rg-8", "rg-11", "rg-59", "rg-62", "rg-213", "lmr-100", "lmr-200",
              "lmr-400", "mmf", "mmf-om1", "mmf-om2", "mmf-om3", "mmf-om4", "mmf-om5", "smf", "smf-os1", "smf-os2",
              "aoc", "power", "usb"}  # fmt: skip
# InterfaceTypeChoices: the pluggable Ethernet types (and `other`), each present in dcim/choices.py.
INTERFACE_TYPE = {"1000base-x-sfp", "10gbase-x-sfpp", "25gbase-x-sfp28", "40gbase-x-qsfpp", "50gbase-x-sfp56",
                  "100gbase-x-qsfp28", "200gbase-x-qsfp56", "400gbase-x-qsfpdd", "800gbase-x-qsfpdd",
                  "other"}  # fmt: skip
SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")  # django.core.validators.validate_slug (SlugField)
COLOUR = re.compile(r"^[0-9a-f]{6}$")  # utilities/fields.py ColorField
LENGTH = re.compile(r"^\d{1,6}\.\d{2}$")  # dcim/models/cables.py Cable.length: max_digits=8, decimal_places=2
# Model max_length: dcim/models/devices.py Device.name 64, device_components.py ComponentModel.name 64,
# cables.py Cable.label 100, racks.py Rack.name 100, sites.py Site.name 100, devices.py DeviceType.model 100.
MAX_LEN = {("07-devices.csv", "name"): 64, ("08-cables.csv", "label"): 100, ("02-locations.csv", "name"): 100,
           ("03-racks.csv", "name"): 100, ("01-sites.csv", "name"): 100, ("05-device-types.yaml", "model"): 100,
           ("07-devices.csv", "description"): 200, ("03-racks.csv", "description"): 200}  # fmt: skip
LOCATION_STATUS = {"planned", "staging", "active", "decommissioning", "retired"}
RACK_U_MAX = 100  # dcim/constants.py RACK_U_HEIGHT_MAX


@pytest.fixture
def plan(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> dict[str, Any]:
    """A facing pair of 2 racks (b=2, r=15), two spines; parallel 25G ports make a second ToR per
    logical rack at its twin's U (a position NetBox cannot give twice)."""
    four_port = {"rack_type_id": h.cat.rack, "logical_racks": [h.lr(server_model_id=h.cat.server4) for _ in "ab"]}
    r = owner.post(
        f"/api/v1/halls/{hall['id']}/row-pairs",
        json={"name_a": "R01", "name_b": "R02", "x_m": 2, "y_m": 2, "rack_count": 2, "rack_template": four_port},
    )
    assert r.status_code == 201, r.text
    spines = [{"name": f"SP{i}", "role": "spine", "switch_model_id": h.cat.spine, "u": 10 + 2 * i} for i in (1, 2)]
    r01 = r.json()["rows"][0]["id"]
    owner.post(f"/api/v1/rows/{r01}/racks", json={"name": "N01", "role": "network", "fabric_switches": spines})
    body = {"name": "sh", "pattern": "single-homed", "parallel": {"ports": 1, "gbps": 25, "tor_server_ports": 48}}
    r = owner.post(f"/api/v1/halls/{hall['id']}/wiring-plans", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def all_cables(owner: TestClient, plan_id: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    page = 1
    while True:
        body = owner.get(f"/api/v1/wiring-plans/{plan_id}/cables", params={"limit": 500, "page": page}).json()
        items += body["items"]
        if len(items) >= body["total"]:
            return items
        page += 1


def read_zip(content: bytes) -> tuple[list[str], dict[str, list[dict[str, Any]]], dict[str, list[str]]]:
    """Member names, each file's records (a YAML file's documents) and each file's columns."""
    with zipfile.ZipFile(io.BytesIO(content)) as z:
        names = z.namelist()
        tables: dict[str, list[dict[str, Any]]] = {}
        headers: dict[str, list[str]] = {}
        for n in names:
            text = z.read(n).decode()
            if n.endswith(".csv"):
                headers[n] = next(csv.reader(io.StringIO(text)))
                tables[n] = list(csv.DictReader(io.StringIO(text)))
            elif n.endswith(".yaml"):
                assert text.startswith("---"), "NetBox tells YAML by its leading ---"
                tables[n] = list(yaml.safe_load_all(text))
                headers[n] = sorted({k for doc in tables[n] for k in doc})
        return names, tables, headers


def ports(prefix: str, first: int, last: int, kind: str) -> list[dict[str, str]]:
    return [{"name": f"{prefix}{n}", "type": kind} for n in range(first, last + 1)]


def test_netbox_zip_is_every_object_in_import_order_by_netbox_rules(owner: TestClient, plan: dict[str, Any]) -> None:
    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/netbox.zip")
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    names, t, headers = read_zip(r.content)
    assert names == ["README.txt", *FORM_FIELDS], "README first, then NetBox's import order"

    for name, columns in headers.items():
        assert set(columns) <= FORM_FIELDS[name], f"{name}: columns NetBox's import form does not read"
        assert REQUIRED[name] <= set(columns), f"{name}: a required column is missing"
        for row in t[name]:
            assert all(row[c] for c in REQUIRED[name]), (name, row)
    for (name, column), limit in MAX_LEN.items():
        assert all(len(row[column]) <= limit for row in t[name]), (name, column)

    (site,) = t["01-sites.csv"]
    assert site["status"] in SITE_STATUS and SLUG.match(site["slug"]) and site["name"] == "S1"
    # A location per row, under the site; every rack in its row's location.
    locations = {x["name"]: x for x in t["02-locations.csv"]}
    assert set(locations) == {"H1.R01", "H1.R02"}
    for x in t["02-locations.csv"]:
        assert x["site"] == "S1" and x["status"] in LOCATION_STATUS and SLUG.match(x["slug"])
    assert [x["slug"] for x in t["02-locations.csv"]] == ["h1-r01", "h1-r02"]
    racks = {x["name"]: x for x in t["03-racks.csv"]}
    assert {k: x["location"] for k, x in racks.items()} == {
        "H1.R01.R01-01": "H1.R01", "H1.R01.R01-02": "H1.R01", "H1.R02.R02-01": "H1.R02", "H1.R02.R02-02": "H1.R02",
        "H1.R01.N01": "H1.R01",
    }  # fmt: skip
    for rack in racks.values():
        assert rack["site"] == site["name"] and rack["status"] in RACK_STATUS
        assert rack["form_factor"] in RACK_FORM_FACTOR and rack["width"] in RACK_WIDTH
        assert 1 <= int(rack["u_height"]) <= RACK_U_MAX and rack["outer_unit"] == "mm"
    makers = {x["name"] for x in t["04-manufacturers.csv"]}
    assert all(SLUG.match(x["slug"]) for x in t["04-manufacturers.csv"])

    # Device types with an interface template per port of the catalog model (conftest's builtin
    # entries): the 4x25G server p1-p4; the 48x25G+8x100G ToR e1-e48 at 25G, e49-e56 at 100G; the
    # 64x100G spine (64 downlinks, 0 uplinks). The parallel set's 48x25G ToR is made up by the
    # wiring: its cabled ports (servers' 25G on e1.., uplinks at 100G) are its templates.
    types = {x["model"]: x for x in t["05-device-types.yaml"]}
    assert len({x["slug"] for x in types.values()}) == len(types), "device type slugs are unique"
    for dt in types.values():
        assert dt["manufacturer"] in makers and SLUG.match(dt["slug"]) and len(dt["slug"]) <= 100
        assert dt["u_height"] >= 1
        for x in dt["interfaces"]:
            assert set(x) <= INTERFACE_TEMPLATE_FORM and x["type"] in INTERFACE_TYPE
    sfp28, qsfp28 = "25gbase-x-sfp28", "100gbase-x-qsfp28"
    assert types["4x25G server"]["interfaces"] == ports("p", 1, 4, sfp28)
    assert types["48x25G+8x100G ToR"]["interfaces"] == ports("e", 1, 48, sfp28) + ports("e", 49, 56, qsfp28)
    assert types["64x100G spine"]["interfaces"] == ports("e", 1, 64, qsfp28)
    assert set(types) == {"4x25G server", "48x25G+8x100G ToR", "64x100G spine", "48x25G ToR"}

    roles = {x["name"]: x for x in t["06-device-roles.csv"]}
    assert all(SLUG.match(x["slug"]) and COLOUR.match(x["color"]) for x in roles.values())
    assert set(roles) == {"Server", "ToR", "Spine"}

    devices = {x["name"]: x for x in t["07-devices.csv"]}
    occupied: dict[str, set[int]] = {}
    for d in devices.values():
        assert d["site"] == site["name"] and d["rack"] in racks and d["role"] in roles
        assert d["location"] == racks[d["rack"]]["location"], "a device's location is its rack's"
        assert d["device_type"] in types and d["manufacturer"] == types[d["device_type"]]["manufacturer"]
        assert d["status"] in DEVICE_STATUS
        if d["position"]:  # Device.position: DecimalField(4, 1), 1..RACK_U_HEIGHT_MAX + 0.5; needs a face
            assert d["face"] in DEVICE_FACE
            low, height = int(d["position"]), int(types[d["device_type"]]["u_height"])
            units = set(range(low, low + height))
            assert max(units) <= int(racks[d["rack"]]["u_height"])
            assert not units & occupied.setdefault(d["rack"], set()), f"{d['name']} overlaps another device"
            occupied[d["rack"]] |= units
        else:
            assert d["face"] == "" and "shares U" in d["description"]
    # Each logical rack's second (parallel) ToR is at its twin's U: in its rack, without a position.
    assert sum(not d["position"] for d in devices.values()) == 8

    # No interfaces file: every cable end is a template port of its device's type.
    template_ports = {(name, x["name"]) for name, d in devices.items() for x in types[d["device_type"]]["interfaces"]}
    cables = t["08-cables.csv"]
    expected = all_cables(owner, plan["id"])
    assert headers["08-cables.csv"] == list(NETBOX_COLUMNS)
    assert len(cables) == len(expected) == plan["summary"]["cables"]
    by_label = {c["label"]: c for c in expected}
    ends = set()
    for row in cables:
        for side in ("a", "b"):
            assert row[f"side_{side}_site"] == site["name"] and row[f"side_{side}_type"] == "dcim.interface"
            assert (row[f"side_{side}_device"], row[f"side_{side}_name"]) in template_ports
            ends.add((row[f"side_{side}_device"], row[f"side_{side}_name"]))
        assert row["type"] in CABLE_TYPE and row["status"] in LINK_STATUS and row["length_unit"] in LENGTH_UNIT
        assert row["length_unit"] == "m" and LENGTH.match(row["length"]), row["length"]
        ordered = Decimal(str(by_label[row["label"]]["ordered_length_m"]))
        assert ordered <= Decimal(row["length"]) < ordered + Decimal("0.01")
        assert row["color"] == DEFAULT_COLOURS[row["type"]], row
    assert len(ends) == 2 * len(cables), "no port carries two cables"

    with zipfile.ZipFile(io.BytesIO(r.content)) as z:
        readme = z.read("README.txt").decode()
    assert all(readme.index(a) < readme.index(b) for a, b in zip(FORM_FIELDS, list(FORM_FIELDS)[1:], strict=False))


# The default colours, by cable type: black passive copper, grey active copper, orange AOC, aqua
# multimode (TIA-598), yellow single-mode (TIA-598).
DEFAULT_COLOURS = {"dac-passive": "000000", "dac-active": "607d8b", "aoc": "ff9800", "mmf-om4": "00ffff",
                   "smf-os2": "ffeb3b"}  # fmt: skip


def test_cable_colours_by_type_and_their_override(owner: TestClient, plan: dict[str, Any]) -> None:
    url = f"/api/v1/wiring-plans/{plan['id']}/exports/netbox-cables.csv"
    rows = list(csv.DictReader(io.StringIO(owner.get(url).text)))
    kinds = {x["type"] for x in rows}
    assert kinds == {"dac-passive", "aoc", "mmf-om4"}, "the fixture's plan: DAC in racks, AOC and SR optics beyond"
    assert {(x["type"], x["color"]) for x in rows} == {
        ("dac-passive", "000000"), ("aoc", "ff9800"), ("mmf-om4", "00ffff")
    }  # fmt: skip
    # An override changes the named type only; upper case and a leading # are accepted.
    r = owner.get(url, params={"cable_colours": "dac-passive:#1E88E5, mmf-om4:00bcd4"})
    assert r.status_code == 200, r.text
    assert {(x["type"], x["color"]) for x in csv.DictReader(io.StringIO(r.text))} == {
        ("dac-passive", "1e88e5"), ("aoc", "ff9800"), ("mmf-om4", "00bcd4")
    }  # fmt: skip
    z = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/netbox.zip", params={"cable_colours": "aoc:123456"})
    _, t, _ = read_zip(z.content)
    assert {(x["type"], x["color"]) for x in t["08-cables.csv"]} == {
        ("dac-passive", "000000"), ("aoc", "123456"), ("mmf-om4", "00ffff")
    }  # fmt: skip
    for bad, reason in (("cat6:000000", "a type among"), ("aoc:12345g", "six hex digits"), ("aoc", "type:rrggbb")):
        r = owner.get(url, params={"cable_colours": bad})
        assert r.status_code == 422, bad
        (problem,) = r.json()["detail"]
        assert problem["field"] == "cable_colours" and reason in problem["msg"], problem


def test_netbox_cable_csv_lengths_have_two_decimals(owner: TestClient, plan: dict[str, Any]) -> None:
    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/netbox-cables.csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    ordered = {c["label"]: c["ordered_length_m"] for c in all_cables(owner, plan["id"])}
    assert len(rows) == len(ordered)
    for x in rows:  # NetBox refused the demo plan's `1.500`: the same length is now `1.50`
        assert LENGTH.match(x["length"]) and x["length"] == f"{ordered[x['label']]:.2f}", x


def test_names_netbox_would_refuse_are_a_422_naming_the_field(
    owner: TestClient, project: int, h: SimpleNamespace
) -> None:
    long_hall = "H" * 40  # devices `HHHH....R01.K01.U05`: more than NetBox's 64 characters
    r = owner.post(f"/api/v1/projects/{project}/halls", json={"name": long_hall, "width_m": 30, "depth_m": 20})
    hall = r.json()["id"]
    r = owner.post(
        f"/api/v1/halls/{hall}/row-pairs",
        json={"name_a": "R01", "name_b": "R02", "x_m": 2, "y_m": 2, "rack_count": 1, "rack_template": h.template()},
    )
    spines = [{"name": f"SP{i}", "role": "spine", "switch_model_id": h.cat.spine, "u": 10 + 2 * i} for i in (1, 2)]
    owner.post(f"/api/v1/rows/{r.json()['rows'][0]['id']}/racks", json={"name": "N01", "role": "network",
                                                                        "fabric_switches": spines})  # fmt: skip
    plan = owner.post(f"/api/v1/halls/{hall}/wiring-plans", json={"name": "sh", "pattern": "single-homed"}).json()
    for export in ("netbox.zip", "netbox-cables.csv"):
        r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/{export}")
        assert r.status_code == 422, export
        (problem,) = r.json()["detail"]
        assert problem["field"] == "label" and "at most 100 characters" in problem["msg"]
    # The wiring sheet has no such limit.
    assert owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/wiring-sheet.csv").status_code == 200


# --- the upgrade export -------------------------------------------------------------------------


def _cable_key(row: dict[str, Any]) -> CableKey:
    return tuple(row[c] for c in NETBOX_COLUMNS)


def _netbox_cables(owner: TestClient, plan_id: int) -> dict[str, CableKey]:
    """The cables NetBox holds after importing the plan's netbox.zip, by label."""
    _, t, _ = read_zip(owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/netbox.zip").content)
    return {x["label"]: _cable_key(x) for x in t["08-cables.csv"]}


def _upgrade_zip(owner: TestClient, new: int, old: int) -> tuple[list[str], dict[str, list[dict[str, Any]]]]:
    r = owner.get(f"/api/v1/wiring-plans/{new}/exports/netbox-upgrade.zip", params={"against": old})
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip", r.text
    assert f"plan-{new}-from-{old}-netbox-upgrade.zip" in r.headers["content-disposition"]
    names, t, headers = read_zip(r.content)
    for name in names[1:]:
        if name.endswith(".csv") and name[2:] in FORM_FIELDS:  # the import files, by NetBox's forms
            assert set(headers[name]) <= FORM_FIELDS[name[2:]]
    return names, t


def _applied(before: dict[str, CableKey], t: dict[str, list[dict[str, Any]]]) -> dict[str, CableKey]:
    """NetBox's cables once the upgrade is applied: deletes (by label, both ends checked), then adds."""
    after = dict(before)
    for x in t.get("1-delete-cables.csv", []):
        held = after.pop(x["label"])
        assert (held[1], held[3], held[5], held[7]) == (
            x["side_a_device"], x["side_a_name"], x["side_b_device"], x["side_b_name"]
        )  # fmt: skip
    for x in t.get("8-cables.csv", []):
        assert x["label"] not in after, f"{x['label']} would be imported twice"
        after[x["label"]] = _cable_key(x)
    return after


CableKey = tuple[str, ...]


def test_upgrade_export_p_to_p_plus_1_is_the_added_cables_alone(
    h: SimpleNamespace, owner: TestClient, row_hall: dict[str, Any]
) -> None:
    old = h.plan(owner, row_hall["id"], pattern="side-to-side", ports=1)
    new = h.upgrade(owner, old["id"], ports=2)
    names, t = _upgrade_zip(owner, new["id"], old["id"])
    # Nothing moves, nothing is removed, no hardware: only the cables file.
    assert names == ["README.txt", "8-cables.csv"]
    # Hand-derived: each of the 8 servers' port 2 goes to its counter-clockwise neighbour's ToR, on
    # that ToR's e3 and e4 (its own 2 servers hold e1 and e2).
    _, first, _ = read_zip(owner.get(f"/api/v1/wiring-plans/{old['id']}/exports/netbox.zip").content)
    servers = {d["name"] for d in first["07-devices.csv"] if d["role"] == "Server"}
    tors = {d["name"] for d in first["07-devices.csv"] if d["role"] == "ToR"}
    assert (len(servers), len(tors)) == (8, 4)
    cables = t["8-cables.csv"]
    assert {(x["side_a_device"], x["side_a_name"]) for x in cables} == {(s, "p2") for s in servers}
    assert {(x["side_b_device"], x["side_b_name"]) for x in cables} == {(k, e) for k in tors for e in ("e3", "e4")}
    # Copper in one row (active copper for the loop's long back edge), coloured by type.
    assert {x["type"] for x in cables} <= {"dac-passive", "dac-active"}
    assert all(x["color"] == DEFAULT_COLOURS[x["type"]] and x["status"] == "planned" for x in cables)
    # NetBox holding the first plan, with the upgrade applied, holds the upgrade's cables exactly.
    assert _applied(_netbox_cables(owner, old["id"]), t) == _netbox_cables(owner, new["id"])
    with zipfile.ZipFile(io.BytesIO(owner.get(f"/api/v1/wiring-plans/{new['id']}/exports/netbox-upgrade.zip",
                                              params={"against": old["id"]}).content)) as z:  # fmt: skip
        readme = z.read("README.txt").decode()
    assert "8-cables.csv" in readme and "       8  DCIM > Cables > Import" in readme


def test_upgrade_export_of_moved_cables_deletes_the_old_runs(
    h: SimpleNamespace, owner: TestClient, row_hall: dict[str, Any]
) -> None:
    old = h.plan(owner, row_hall["id"], pattern="side-to-side", ports=2)
    new = h.upgrade(owner, old["id"], loop=2)
    counts = new["diff"]
    assert counts["moved"] > 0 and counts["hardware_added"] == counts["hardware_removed"] == {}
    names, t = _upgrade_zip(owner, new["id"], old["id"])
    assert names == ["README.txt", "1-delete-cables.csv", "8-cables.csv"]
    diff = owner.get(f"/api/v1/wiring-plans/{new['id']}/diff", params={"against": old["id"]}).json()
    assert len(t["1-delete-cables.csv"]) == counts["moved"] + counts["removed"] + counts["changed"]
    assert len(t["8-cables.csv"]) == counts["moved"] + counts["added"] + counts["changed"]
    before, after = _netbox_cables(owner, old["id"]), _netbox_cables(owner, new["id"])
    # Exactly the cables only one plan has (a changed cable's label stays, so it is in both files).
    assert {x["label"] for x in t["1-delete-cables.csv"]} == set(before) - set(after) | {
        label for label in set(before) & set(after) if before[label] != after[label]
    }
    assert {x["label"] for x in t["8-cables.csv"]} == set(after) - set(before) | {
        label for label in set(before) & set(after) if before[label] != after[label]
    }
    assert len(diff["moved"]) == counts["moved"]
    assert _applied(before, t) == after


def test_upgrade_export_with_new_tors_adds_their_type_and_devices(
    h: SimpleNamespace, owner: TestClient, row_hall: dict[str, Any]
) -> None:
    old = h.plan(owner, row_hall["id"], pattern="side-to-side", ports=1)
    new = h.upgrade(owner, old["id"], parallel={"ports": 1, "gbps": 100, "tor_server_ports": 8})
    assert new["diff"]["hardware_added"] == {"tor": 4}
    names, t = _upgrade_zip(owner, new["id"], old["id"])
    # The ToR role exists already: no roles file; no deletes.
    assert names == ["README.txt", "4-device-types.yaml", "6-devices.csv", "8-cables.csv"]
    (kind,) = t["4-device-types.yaml"]
    # The made-up 8x100G ToR: its cabled ports, each new ToR's 2 servers on e1-e2 and its 4 uplinks
    # after its 8 server ports (e9-e12), all 100G.
    assert kind["model"] == "8x100G ToR" and kind["u_height"] == 1
    assert kind["interfaces"] == ports("e", 1, 2, "100gbase-x-qsfp28") + ports("e", 9, 12, "100gbase-x-qsfp28")
    _, first, _ = read_zip(owner.get(f"/api/v1/wiring-plans/{old['id']}/exports/netbox.zip").content)
    twins = {d["name"]: d for d in first["07-devices.csv"] if d["role"] == "ToR"}
    devices = t["6-devices.csv"]
    assert {d["name"] for d in devices} == {f"{name}B" for name in twins}
    for d in devices:
        twin = twins[d["name"][:-1]]
        assert (d["role"], d["device_type"], d["rack"], d["location"]) == ("ToR", "8x100G ToR", twin["rack"],
                                                                          twin["location"])  # fmt: skip
        # At its twin's U, which NetBox already holds: in the rack without a position.
        assert d["position"] == d["face"] == "" and "shares U" in d["description"]
    assert len(t["8-cables.csv"]) == 8 + 4 * 4
    assert _applied(_netbox_cables(owner, old["id"]), t) == _netbox_cables(owner, new["id"])


def test_upgrade_export_refusals(owner: TestClient, row_hall: dict[str, Any], h: SimpleNamespace) -> None:
    old = h.plan(owner, row_hall["id"], pattern="side-to-side", ports=1)
    url = f"/api/v1/wiring-plans/{old['id']}/exports/netbox-upgrade.zip"
    assert owner.get(url).status_code == 422, "against is required"
    r = owner.get(url, params={"against": 999999})
    assert r.status_code == 404 and r.json()["detail"][0]["field"] == "against"
    stranger = h.client("stranger@example.com")
    assert stranger.get(url, params={"against": old["id"]}).status_code == 404
