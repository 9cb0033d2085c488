"""The device catalog: seeded defaults (read-only), user entries (CRUD), references protected."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient


def test_seeded_defaults(owner: TestClient) -> None:
    servers = {m["name"]: m for m in owner.get("/api/v1/catalog/server-models").json()["items"]}
    assert servers["2x25G server"]["nic_ports"] == 2 and servers["2x25G server"]["builtin"]
    switches = {m["name"]: m for m in owner.get("/api/v1/catalog/switch-models").json()["items"]}
    tor = switches["48x25G+8x100G ToR"]
    assert (tor["server_ports"], tor["server_port_gbps"], tor["uplink_ports"], tor["uplink_gbps"]) == (48, 25, 8, 100)
    assert switches["32x100G switch"]["server_ports"] == 32
    types = {t["name"]: t for t in owner.get("/api/v1/catalog/rack-types").json()["items"]}
    assert (types["42U 600x1200"]["width_m"], types["42U 600x1200"]["depth_m"]) == (0.6, 1.2)


def test_crud_of_own_entries(owner: TestClient, h: SimpleNamespace) -> None:
    url = "/api/v1/catalog/switch-models"
    body = {"name": "96x25G ToR", "server_ports": 96, "server_port_gbps": 25, "uplink_ports": 8, "uplink_gbps": 400}
    r = owner.post(url, json=body)
    assert r.status_code == 201 and r.json()["builtin"] is False
    sid = r.json()["id"]
    assert owner.post(url, json=body).status_code == 409
    assert owner.post(url, json={**body, "name": "x", "server_ports": -1}).status_code == 422
    assert owner.post(url, json={**body, "name": "x", "uplink_gbps": 0}).status_code == 422
    r = owner.patch(f"{url}/{sid}", json={"uplink_ports": 16}, headers={"If-Match": '"1"'})
    assert r.status_code == 200 and r.json()["uplink_ports"] == 16 and r.headers["etag"] == '"2"'
    other = h.client("other@example.com")
    # Another user's entry does not exist for them (scoping is tested in test_catalog_scope.py).
    assert other.patch(f"{url}/{sid}", json={"uplink_ports": 1}, headers={"If-Match": '"2"'}).status_code == 404
    builtin = owner.get(url).json()["items"][0]
    r = owner.patch(f"{url}/{builtin['id']}", json={"name": "mine"}, headers={"If-Match": '"1"'})
    assert r.status_code == 403 and "builtin" in r.text
    r = owner.post(
        "/api/v1/catalog/rack-types", json={"name": "52U 800x1200", "width_m": 0.8, "depth_m": 1.2, "height_u": 52}
    )
    assert r.status_code == 201 and r.json()["height_u"] == 52
    assert owner.post("/api/v1/catalog/rack-types", json={"name": "huge", "width_m": 40}).status_code == 422
    assert owner.delete(f"{url}/{sid}", headers={"If-Match": '"2"'}).status_code == 204
    assert owner.get(f"{url}/{sid}").status_code == 404


def test_models_in_use_keep_their_specs(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> None:
    r = owner.post("/api/v1/catalog/server-models", json={"name": "my server", "nic_ports": 2, "port_gbps": 25})
    sid = r.json()["id"]
    h.row(owner, hall["id"], n=1, rack_template={"logical_racks": [{**h.lr(), "server_model_id": sid}]})
    url = f"/api/v1/catalog/server-models/{sid}"
    r = owner.patch(url, json={"nic_ports": 1}, headers={"If-Match": '"1"'})
    assert r.status_code == 409 and "used in a layout" in r.text
    assert owner.patch(url, json={"name": "my server v1"}, headers={"If-Match": '"1"'}).status_code == 200
    assert owner.delete(url, headers={"If-Match": '"2"'}).status_code == 409
