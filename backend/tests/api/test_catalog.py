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


def test_gpu_servers_and_breakouts(owner: TestClient) -> None:
    """Issue 31: the builtin DGX H100 class server and 400G/800G switches carry their GPUs, GPU
    interconnect, front-end NICs and breakout links; a user's own GPU server takes them too, a bad
    one is a 422 naming the field, and an update sent null clears the interconnect (not known)."""
    servers = {m["name"]: m for m in owner.get("/api/v1/catalog/server-models", params={"limit": 100}).json()["items"]}
    dgx = servers["8x400G GPU server"]
    assert (dgx["nic_ports"], dgx["port_gbps"], dgx["height_u"], dgx["gpus"]) == (8, 400, 8, 8)
    assert (dgx["gpu_interconnect_gbps"], dgx["frontend_nic_ports"], dgx["frontend_port_gbps"]) == (3600, 4, 400)
    assert (dgx["max_w"], dgx["weight_kg"]) == (10200, None) and "DGX H100" in dgx["source"]
    plain = servers["2x25G server"]
    assert (plain["gpus"], plain["gpu_interconnect_gbps"], plain["frontend_nic_ports"]) == (0, None, 0)
    switches = {m["name"]: m for m in owner.get("/api/v1/catalog/switch-models", params={"limit": 100}).json()["items"]}
    names = ("32x400G+32x400G leaf", "64x400G 1U spine", "64x800G switch")
    assert {n: switches[n]["breakout_links"] for n in names} == {
        "32x400G+32x400G leaf": 2,
        "64x400G 1U spine": 2,
        "64x800G switch": 4,
    }
    assert switches["48x25G+8x100G ToR"]["breakout_links"] is None

    url = "/api/v1/catalog/server-models"
    body = {"name": "4-GPU", "nic_ports": 4, "port_gbps": 200, "height_u": 4, "gpus": 4,
            "gpu_interconnect_gbps": 2400, "frontend_nic_ports": 2, "frontend_port_gbps": 100}  # fmt: skip
    r = owner.post(url, json=body)
    assert r.status_code == 201, r.text
    assert (r.json()["gpus"], r.json()["gpu_interconnect_gbps"]) == (4, 2400)
    for field, bad in (("gpus", -1), ("gpu_interconnect_gbps", 0), ("frontend_nic_ports", -2)):
        r = owner.post(url, json={**body, "name": f"bad {field}", field: bad})
        assert r.status_code == 422 and r.json()["detail"][0]["loc"][-1] == field, r.text
    sid = owner.post(url, json={**body, "name": "4-GPU b"}).json()["id"]
    r = owner.patch(f"{url}/{sid}", json={"gpu_interconnect_gbps": None}, headers={"If-Match": '"1"'})
    assert r.status_code == 200 and r.json()["gpu_interconnect_gbps"] is None and r.json()["gpus"] == 4
    switch = {"name": "b", "server_ports": 8, "server_port_gbps": 400, "uplink_ports": 0, "uplink_gbps": 400}
    r = owner.post("/api/v1/catalog/switch-models", json={**switch, "breakout_links": 0})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"][-1] == "breakout_links", r.text
