"""The NetBox export, checked against NetBox 4.x's own import rules (netbox-community/netbox, read at
release 4.6.8): the file order its imports need, each form's field names and required fields, its
choice slugs, model length limits and decimal places, and that every reference resolves to an
object of an earlier file, so an empty NetBox takes the plan unchanged."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from loopline.domain.exports import NETBOX_COLUMNS

# netbox/dcim/forms/bulk_import.py: each import form's Meta.fields (the CSV columns it reads).
FORM_FIELDS = {
    "01-sites.csv": {"name", "slug", "status", "region", "group", "tenant", "facility", "time_zone", "description",
                     "physical_address", "shipping_address", "latitude", "longitude", "owner", "comments", "tags"},
    "02-racks.csv": {"site", "location", "group", "name", "facility_id", "tenant", "status", "role", "rack_type",
                     "form_factor", "serial", "asset_tag", "width", "u_height", "desc_units", "outer_width",
                     "outer_height", "outer_depth", "outer_unit", "mounting_depth", "airflow", "weight",
                     "max_weight", "weight_unit", "description", "owner", "comments", "tags"},
    "03-manufacturers.csv": {"name", "slug", "description", "owner", "comments", "tags"},
    "04-device-types.csv": {"manufacturer", "default_platform", "model", "slug", "part_number", "u_height",
                            "exclude_from_utilization", "is_full_depth", "subdevice_role", "airflow", "description",
                            "weight", "weight_unit", "owner", "comments", "tags"},
    "05-device-roles.csv": {"name", "slug", "parent", "color", "vm_role", "config_template", "description", "owner",
                            "comments", "tags"},
    "06-devices.csv": {"name", "role", "tenant", "manufacturer", "device_type", "platform", "serial", "asset_tag",
                       "status", "site", "location", "rack", "position", "face", "latitude", "longitude", "parent",
                       "device_bay", "airflow", "virtual_chassis", "vc_position", "vc_priority", "cluster",
                       "description", "config_template", "owner", "comments", "tags"},
    "07-interfaces.csv": {"device", "name", "label", "parent", "bridge", "lag", "type", "speed", "duplex", "enabled",
                          "mark_connected", "wwn", "vdcs", "mtu", "mgmt_only", "description", "poe_mode", "poe_type",
                          "mode", "vlan_group", "untagged_vlan", "tagged_vlans", "qinq_svlan", "vrf", "rf_role",
                          "rf_channel", "rf_channel_frequency", "rf_channel_width", "tx_power", "owner", "tags"},
    "08-cables.csv": {"side_a_site", "side_a_device", "side_a_power_panel", "side_a_type", "side_a_name",
                      "side_b_site", "side_b_device", "side_b_power_panel", "side_b_type", "side_b_name", "type",
                      "status", "profile", "tenant", "bundle", "label", "color", "length", "length_unit",
                      "description", "owner", "comments", "tags"},
}  # fmt: skip
# Fields each form requires (a model field without blank=True, or a form field without required=False);
# a rack without a rack_type needs width and u_height (RackImportForm.clean).
REQUIRED = {
    "01-sites.csv": {"name", "slug", "status"},
    "02-racks.csv": {"site", "name", "status", "width", "u_height"},
    "03-manufacturers.csv": {"name", "slug"},
    "04-device-types.csv": {"manufacturer", "model", "slug"},
    "05-device-roles.csv": {"name", "slug"},
    "06-devices.csv": {"role", "manufacturer", "device_type", "status", "site"},
    "07-interfaces.csv": {"device", "name", "type"},
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
MAX_LEN = {("06-devices.csv", "name"): 64, ("07-interfaces.csv", "name"): 64, ("08-cables.csv", "label"): 100,
           ("02-racks.csv", "name"): 100, ("01-sites.csv", "name"): 100, ("04-device-types.csv", "model"): 100,
           ("06-devices.csv", "description"): 200, ("02-racks.csv", "description"): 200}  # fmt: skip
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


def read_zip(content: bytes) -> tuple[list[str], dict[str, list[dict[str, str]]], dict[str, list[str]]]:
    with zipfile.ZipFile(io.BytesIO(content)) as z:
        names = z.namelist()
        tables: dict[str, list[dict[str, str]]] = {}
        headers: dict[str, list[str]] = {}
        for n in names:
            if n.endswith(".csv"):
                text = z.read(n).decode()
                headers[n] = next(csv.reader(io.StringIO(text)))
                tables[n] = list(csv.DictReader(io.StringIO(text)))
        return names, tables, headers


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
    racks = {x["name"]: x for x in t["02-racks.csv"]}
    assert set(racks) == {"H1.R01.R01-01", "H1.R01.R01-02", "H1.R02.R02-01", "H1.R02.R02-02", "H1.R01.N01"}
    for rack in racks.values():
        assert rack["site"] == site["name"] and rack["status"] in RACK_STATUS
        assert rack["form_factor"] in RACK_FORM_FACTOR and rack["width"] in RACK_WIDTH
        assert 1 <= int(rack["u_height"]) <= RACK_U_MAX and rack["outer_unit"] == "mm"
    makers = {x["name"] for x in t["03-manufacturers.csv"]}
    assert all(SLUG.match(x["slug"]) for x in t["03-manufacturers.csv"])
    types = {x["model"]: x for x in t["04-device-types.csv"]}
    assert len({x["slug"] for x in types.values()}) == len(types), "device type slugs are unique"
    for dt in types.values():
        assert dt["manufacturer"] in makers and SLUG.match(dt["slug"]) and len(dt["slug"]) <= 100
        assert Decimal(dt["u_height"]) >= 1
    roles = {x["name"]: x for x in t["05-device-roles.csv"]}
    assert all(SLUG.match(x["slug"]) and COLOUR.match(x["color"]) for x in roles.values())
    assert set(roles) == {"Server", "ToR", "Spine"}

    devices = {x["name"]: x for x in t["06-devices.csv"]}
    occupied: dict[str, set[int]] = {}
    for d in devices.values():
        assert d["site"] == site["name"] and d["rack"] in racks and d["role"] in roles
        assert d["device_type"] in types and d["manufacturer"] == types[d["device_type"]]["manufacturer"]
        assert d["status"] in DEVICE_STATUS
        if d["position"]:  # Device.position: DecimalField(4, 1), 1..RACK_U_HEIGHT_MAX + 0.5; needs a face
            assert d["face"] in DEVICE_FACE
            low, height = int(d["position"]), int(Decimal(types[d["device_type"]]["u_height"]))
            units = set(range(low, low + height))
            assert max(units) <= int(racks[d["rack"]]["u_height"])
            assert not units & occupied.setdefault(d["rack"], set()), f"{d['name']} overlaps another device"
            occupied[d["rack"]] |= units
        else:
            assert d["face"] == "" and "shares U" in d["description"]
    # Each logical rack's second (parallel) ToR is at its twin's U: in its rack, without a position.
    assert sum(not d["position"] for d in devices.values()) == 8

    interfaces = {(x["device"], x["name"]): x for x in t["07-interfaces.csv"]}
    assert len(interfaces) == len(t["07-interfaces.csv"]), "each port once"
    assert all(x["device"] in devices and x["type"] in INTERFACE_TYPE for x in interfaces.values())
    assert {x["type"] for x in interfaces.values()} == {"25gbase-x-sfp28", "100gbase-x-qsfp28"}
    assert {x["speed"] for x in interfaces.values()} == {"25000000", "100000000"}  # kbit/s

    cables = t["08-cables.csv"]
    expected = all_cables(owner, plan["id"])
    assert headers["08-cables.csv"] == list(NETBOX_COLUMNS)
    assert len(cables) == len(expected) == plan["summary"]["cables"]
    assert 2 * len(cables) == len(interfaces)
    by_label = {c["label"]: c for c in expected}
    for row in cables:
        for side in ("a", "b"):
            assert row[f"side_{side}_site"] == site["name"] and row[f"side_{side}_type"] == "dcim.interface"
            assert (row[f"side_{side}_device"], row[f"side_{side}_name"]) in interfaces
        assert row["type"] in CABLE_TYPE and row["status"] in LINK_STATUS and row["length_unit"] in LENGTH_UNIT
        assert row["length_unit"] == "m" and LENGTH.match(row["length"]), row["length"]
        ordered = Decimal(str(by_label[row["label"]]["ordered_length_m"]))
        assert ordered <= Decimal(row["length"]) < ordered + Decimal("0.01")

    with zipfile.ZipFile(io.BytesIO(r.content)) as z:
        readme = z.read("README.txt").decode()
    assert all(readme.index(a) < readme.index(b) for a, b in zip(FORM_FIELDS, list(FORM_FIELDS)[1:], strict=False))


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
