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
import math
import re
import zipfile
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.db.models import PduModel, Rack, RackFeed
from loopline.domain.exports import NETBOX_COLUMNS
from loopline.domain.facility.catalog_facts import SERVER_FACTS, SWITCH_FACTS

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
    "09-power-panels.csv": {"site", "location", "name", "description", "owner", "comments", "tags"},
    "10-power-feeds.csv": {"site", "power_panel", "location", "rack", "name", "status", "type", "mark_connected",
                           "supply", "phase", "voltage", "amperage", "max_utilization", "tenant", "description",
                           "owner", "comments", "tags"},
}  # fmt: skip
FORM_FIELDS["11-power-cables.csv"] = FORM_FIELDS["08-cables.csv"]
# dcim/views.py DeviceTypeImportView.related_object_forms: the component lists a device type's YAML may hold.
FORM_FIELDS["05-device-types.yaml"] |= {"console-ports", "console-server-ports", "power-ports", "power-outlets",
                                        "rear-ports", "front-ports", "port-mappings", "module-bays", "device-bays",
                                        "inventory-items"}  # fmt: skip
# dcim/forms/object_import.py PowerPortTemplateImportForm, PowerOutletTemplateImportForm (less the device
# type, which the YAML nests them under).
POWER_PORT_TEMPLATE_FORM = {"name", "label", "type", "maximum_draw", "allocated_draw", "description"}
POWER_OUTLET_TEMPLATE_FORM = {"name", "label", "type", "power_port", "feed_leg", "description"}
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
    "09-power-panels.csv": {"site", "name"},
    # PowerFeedImportForm declares status, type, supply and phase as required choice fields; voltage,
    # amperage and max_utilization are model fields with a default (written all the same).
    "10-power-feeds.csv": {"site", "power_panel", "name", "status", "type", "supply", "phase"},
    "11-power-cables.csv": {"side_a_type", "side_a_name", "side_b_type", "side_b_name"},
}
POWER_FEED_STATUS = {"offline", "active", "planned", "failed"}  # dcim/choices.py PowerFeedStatusChoices
POWER_FEED_TYPE = {"primary", "redundant"}
POWER_FEED_SUPPLY = {"ac", "dc"}
POWER_FEED_PHASE = {"single-phase", "three-phase"}
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
           ("07-devices.csv", "description"): 200, ("03-racks.csv", "description"): 200,
           ("09-power-panels.csv", "name"): 100, ("10-power-feeds.csv", "name"): 100}  # fmt: skip
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


def test_netbox_zip_holds_the_power_model_connected_by_netbox_rules(
    owner: TestClient, plan: dict[str, Any], db_session: Session
) -> None:
    """R01-01: feeds A and B with a 4-outlet PDU each; R01-02: one 230 V 16 A three-phase feed with a
    48-outlet PDU; the other racks the default feeds (A and B, 230 V 32 A single-phase, no PDU)."""
    small = PduModel(name="PDU-4", outlets=4, phases=1, weight_kg=3.0)
    big = PduModel(name="PDU-48", outlets=48, phases=3, weight_kg=9.0)
    db_session.add_all([small, big])
    db_session.flush()
    rack_id = {
        name: i for i, name in db_session.execute(select(Rack.id, Rack.name).where(Rack.hall_id == plan["hall_id"]))
    }
    feeds = [("R01-01", "A", 1, 32, small.id), ("R01-01", "B", 1, 32, small.id), ("R01-02", "A", 3, 16, big.id)]
    for rack, feed, phases, amps, pdu in feeds:
        db_session.add(RackFeed(hall_id=plan["hall_id"], rack_id=rack_id[rack], name=feed, voltage_v=230,
                                phases=phases, breaker_a=amps, pdu_model_id=pdu))  # fmt: skip
    db_session.commit()

    r = owner.get(f"/api/v1/wiring-plans/{plan['id']}/exports/netbox.zip")
    assert r.status_code == 200, r.text
    names, t, headers = read_zip(r.content)
    assert names == ["README.txt", *FORM_FIELDS]
    for name, columns in headers.items():
        assert set(columns) <= FORM_FIELDS[name], f"{name}: columns NetBox's import form does not read"
        assert REQUIRED[name] <= set(columns), f"{name}: a required column is missing"
        for row in t[name]:
            assert all(row[c] for c in REQUIRED[name]) or name == "11-power-cables.csv", (name, row)
    for (name, column), limit in MAX_LEN.items():
        assert all(len(row[column]) <= limit for row in t[name]), (name, column)

    # A panel per row, in the row's location.
    assert t["09-power-panels.csv"] == [
        {
            "site": "S1",
            "location": f"H1.{r}",
            "name": f"H1.{r}.PP",
            "description": f"Loopline: the feeds of row {r} of hall H1",
        }
        for r in ("R01", "R02")
    ]
    # A feed per rack feed, in its rack and the rack's location. Three-phase: 230 x sqrt(3) = 398 V line-to-line.
    power_feeds = {x["name"]: x for x in t["10-power-feeds.csv"]}
    racks = {x["name"]: x for x in t["03-racks.csv"]}
    assert set(power_feeds) == {f"{k}-{f}" for k in racks for f in "AB"} - {"H1.R01.R01-02-B"}
    for x in power_feeds.values():
        assert x["site"] == "S1" and x["rack"] in racks and x["location"] == racks[x["rack"]]["location"]
        assert x["power_panel"] == f"{x['location']}.PP"
        assert x["status"] in POWER_FEED_STATUS and x["type"] in POWER_FEED_TYPE
        assert x["supply"] in POWER_FEED_SUPPLY and x["phase"] in POWER_FEED_PHASE
        assert 1 <= int(x["max_utilization"]) <= 100 and int(x["amperage"]) >= 1 and int(x["voltage"]) > 0
    assert {k: (v["type"], v["phase"], v["voltage"], v["amperage"], v["max_utilization"])
            for k, v in power_feeds.items() if k.startswith(("H1.R01.R01-01", "H1.R01.R01-02"))} == {
        "H1.R01.R01-01-A": ("primary", "single-phase", "230", "32", "80"),
        "H1.R01.R01-01-B": ("redundant", "single-phase", "230", "32", "80"),
        "H1.R01.R01-02-A": ("primary", "three-phase", "398", "16", "80"),
    }  # fmt: skip

    # PDU types: zero-U, an input feeding every outlet; servers and switches with two supplies.
    types = {x["model"]: x for x in t["05-device-types.yaml"]}
    for dt in types.values():
        for x in dt.get("power-ports", []):
            assert set(x) <= POWER_PORT_TEMPLATE_FORM and x.get("allocated_draw", 0) <= x.get("maximum_draw", 1e9)
            assert all(isinstance(x[k], int) and x[k] >= 1 for k in ("maximum_draw", "allocated_draw") if k in x)
        for x in dt.get("power-outlets", []):
            assert set(x) <= POWER_OUTLET_TEMPLATE_FORM
            assert x["power_port"] in {p["name"] for p in dt["power-ports"]}, "an outlet's inlet is on its type"
    assert types["PDU-4"] == {
        "manufacturer": "Generic", "model": "PDU-4", "slug": "pdu-4", "u_height": 0, "is_full_depth": False,
        "power-ports": [{"name": "input"}],
        "power-outlets": [{"name": f"outlet{n}", "power_port": "input"} for n in range(1, 5)],
    }  # fmt: skip
    assert len(types["PDU-48"]["power-outlets"]) == 48
    # The builtin ToR's datasheet figures (e.g. 647 W max, 310 W typical: 647 and ceil(310 / 2) = 155 a
    # supply); the 4x25G server's datasheet gives no power: its supplies carry no draw.
    tor = SWITCH_FACTS["48x25G+8x100G ToR"]
    assert tor.max_w is not None and tor.typical_w is not None
    psu = {"maximum_draw": math.ceil(tor.max_w), "allocated_draw": math.ceil(tor.typical_w / 2)}
    assert types["48x25G+8x100G ToR"]["power-ports"] == [{"name": n, **psu} for n in ("PSU1", "PSU2")]
    assert SERVER_FACTS["4x25G server"].max_w is None
    assert types["4x25G server"]["power-ports"] == [{"name": "PSU1"}, {"name": "PSU2"}]
    assert [p["name"] for p in types["64x100G spine"]["power-ports"]] == ["PSU1", "PSU2"]

    # The PDUs: devices in their racks without a position, role PDU.
    roles = {x["name"] for x in t["06-device-roles.csv"]}
    assert roles == {"Server", "ToR", "Spine", "PDU"}
    devices = {x["name"]: x for x in t["07-devices.csv"]}
    pdus = {k: v for k, v in devices.items() if v["role"] == "PDU"}
    assert {k: (v["device_type"], v["rack"], v["location"], v["position"], v["face"]) for k, v in pdus.items()} == {
        "H1.R01.R01-01-PDU-A": ("PDU-4", "H1.R01.R01-01", "H1.R01", "", ""),
        "H1.R01.R01-01-PDU-B": ("PDU-4", "H1.R01.R01-01", "H1.R01", "", ""),
        "H1.R01.R01-02-PDU-A": ("PDU-48", "H1.R01.R01-02", "H1.R01", "", ""),
    }  # fmt: skip

    # Power cables: every end exists in an earlier file (a panel's feed, a device's port from its type).
    ports = {(name, p["name"]) for name, d in devices.items()
             for kind in ("power-ports", "power-outlets") for p in types[d["device_type"]].get(kind, [])}  # fmt: skip
    cables = t["11-power-cables.csv"]
    for c in cables:
        assert c["type"] == "power" and c["status"] in LINK_STATUS
        if c["side_a_type"] == "dcim.powerfeed":
            assert c["side_a_device"] == "" and c["side_a_name"] in power_feeds
            assert power_feeds[c["side_a_name"]]["power_panel"] == c["side_a_power_panel"]
        else:
            assert c["side_a_type"] == "dcim.poweroutlet" and (c["side_a_device"], c["side_a_name"]) in ports
        assert c["side_b_type"] == "dcim.powerport" and (c["side_b_device"], c["side_b_name"]) in ports
    ends = [(c[f"side_{s}_device"] or c["side_a_power_panel"], c[f"side_{s}_name"]) for c in cables for s in "ab"]
    assert len(ends) == len(set(ends)), "no port or feed carries two cables"
    feed_cables = [(c["side_a_name"], c["side_b_device"]) for c in cables if c["side_a_type"] == "dcim.powerfeed"]
    assert feed_cables == [
        ("H1.R01.R01-01-A", "H1.R01.R01-01-PDU-A"), ("H1.R01.R01-01-B", "H1.R01.R01-01-PDU-B"),
        ("H1.R01.R01-02-A", "H1.R01.R01-02-PDU-A"),
    ]  # fmt: skip
    # A rack of 2 logical racks x (15 servers + ToR + its parallel twin) = 34 devices. R01-01: the 4
    # lowest on the 4 outlets of PDU A (PSU1) and of PDU B (PSU2); R01-02, one feed: 48 outlets take
    # both supplies of its 24 lowest devices.
    in_rack = {k: [d for d in devices.values() if d["rack"] == k and d["role"] != "PDU"] for k in racks}
    assert len(in_rack["H1.R01.R01-01"]) == len(in_rack["H1.R01.R01-02"]) == 34
    plugged = [(c["side_a_device"], c["side_a_name"], c["side_b_name"]) for c in cables
               if c["side_a_device"].startswith("H1.R01.R01-01")]  # fmt: skip
    assert plugged == [
        *(("H1.R01.R01-01-PDU-A", f"outlet{k}", "PSU1") for k in range(1, 5)),
        *(("H1.R01.R01-01-PDU-B", f"outlet{k}", "PSU2") for k in range(1, 5)),
    ]
    assert sum(c["side_a_device"] == "H1.R01.R01-02-PDU-A" for c in cables) == 48
    # Unplugged supplies: R01-01 68 - 8 = 60, R01-02 68 - 48 = 20, R02-01 and R02-02 (no PDU) 68 each,
    # N01's two spines 4: 220.
    with zipfile.ZipFile(io.BytesIO(r.content)) as z:
        readme = z.read("README.txt").decode()
    assert "220 supplies are left unplugged" in readme and "power panel per row" in readme


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


def _power_plugs(owner: TestClient, plan_id: int) -> dict[str, tuple[str, ...]]:
    """The power cables NetBox holds after importing the plan's netbox.zip, by label."""
    _, t, _ = read_zip(owner.get(f"/api/v1/wiring-plans/{plan_id}/exports/netbox.zip").content)
    return {x["label"]: (x["side_a_device"], x["side_a_name"], x["side_b_device"], x["side_b_name"])
            for x in t["11-power-cables.csv"]}  # fmt: skip


def test_upgrade_export_plugs_the_new_devices_into_the_next_free_outlets(
    h: SimpleNamespace, owner: TestClient, row_hall: dict[str, Any], db_session: Session
) -> None:
    """R01's two racks on A and B feeds with a 24-outlet PDU each: the parallel upgrade's 2 new ToRs a
    rack take outlets 7 and 8 after the rack's 6 devices (2 x (2 servers + ToR)); nothing is re-plugged."""
    pdu = PduModel(name="PDU-24", outlets=24, phases=1, weight_kg=4.0)
    db_session.add(pdu)
    db_session.flush()
    for rack_id, name in db_session.execute(select(Rack.id, Rack.name).where(Rack.hall_id == row_hall["id"])):
        if name.startswith("R01-"):
            db_session.add_all(
                RackFeed(hall_id=row_hall["id"], rack_id=rack_id, name=f, pdu_model_id=pdu.id) for f in "AB"
            )
    db_session.commit()
    old = h.plan(owner, row_hall["id"], pattern="side-to-side", ports=1)
    new = h.upgrade(owner, old["id"], parallel={"ports": 1, "gbps": 100, "tor_server_ports": 8})
    names, t = _upgrade_zip(owner, new["id"], old["id"])
    assert names == ["README.txt", "4-device-types.yaml", "6-devices.csv", "8-cables.csv", "9-power-cables.csv"]
    plugs = t["9-power-cables.csv"]
    new_tors = {d["name"] for d in t["6-devices.csv"]}
    assert {(x["side_b_device"], x["side_b_name"]) for x in plugs} == {
        (d, p) for d in new_tors for p in ("PSU1", "PSU2")
    }
    assert {x["side_a_name"] for x in plugs} == {"outlet7", "outlet8"}
    assert all(x["side_a_type"] == "dcim.poweroutlet" and x["type"] == "power" for x in plugs)
    # NetBox holding the first plan's power, with the upgrade's plugs added, holds the upgrade's exactly.
    before, after = _power_plugs(owner, old["id"]), _power_plugs(owner, new["id"])
    assert len(before) == 2 * 2 + 2 * 6 * 2, "a feed cable per PDU, two supplies per device"
    applied = dict(before) | {x["label"]: (x["side_a_device"], x["side_a_name"], x["side_b_device"], x["side_b_name"])
                              for x in plugs}  # fmt: skip
    assert not set(before) & {x["label"] for x in plugs}, "no outlet is plugged twice"
    assert applied == after
    # Back from the upgrade: the new ToRs' plugs are deleted by label, nothing else.
    _, back = _upgrade_zip(owner, old["id"], new["id"])
    unplugged = {x["label"] for x in back["1-delete-cables.csv"] if "-PDU-" in x["label"]}
    assert unplugged == {x["label"] for x in plugs} and "9-power-cables.csv" not in back


def test_upgrade_export_refusals(owner: TestClient, row_hall: dict[str, Any], h: SimpleNamespace) -> None:
    old = h.plan(owner, row_hall["id"], pattern="side-to-side", ports=1)
    url = f"/api/v1/wiring-plans/{old['id']}/exports/netbox-upgrade.zip"
    assert owner.get(url).status_code == 422, "against is required"
    r = owner.get(url, params={"against": 999999})
    assert r.status_code == 404 and r.json()["detail"][0]["field"] == "against"
    stranger = h.client("stranger@example.com")
    assert stranger.get(url, params={"against": old["id"]}).status_code == 404


def test_netbox_zip_streams_uncompressed_to_a_client_taking_gzip(owner: TestClient, plan: dict[str, Any]) -> None:
    """A ZIP passes the gzip layer as it is (gzip would only hold its small first members in the
    compressor's window), while JSON to the same client is still gzipped."""
    url = f"/api/v1/wiring-plans/{plan['id']}/exports/netbox.zip"
    with owner.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as r:
        assert r.status_code == 200 and "content-encoding" not in r.headers
        first = next(r.iter_raw())
    assert first.startswith(b"PK\x03\x04"), "the archive's first local header, not a gzip stream"
    rendered = owner.get(f"/api/v1/wiring-plans/{plan['id']}/render", headers={"Accept-Encoding": "gzip"})
    assert rendered.headers["content-encoding"] == "gzip"
