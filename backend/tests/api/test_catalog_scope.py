"""User-created catalog entries belong to their owner: seen by them, usable in their projects, 404 to others."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

SERVERS = "/api/v1/catalog/server-models"


def my_server(client: TestClient, name: str = "my GPU server", nic_ports: int = 2) -> int:
    r = client.post(SERVERS, json={"name": name, "nic_ports": nic_ports, "port_gbps": 25})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def test_listing_shows_the_global_entries_and_your_own(owner: TestClient, h: SimpleNamespace) -> None:
    other = h.client("other@example.com")
    builtin = {m["name"] for m in owner.get(SERVERS).json()["items"]}
    mine, theirs = my_server(owner, "mine"), my_server(other, "theirs")
    listed = {m["name"]: m for m in owner.get(SERVERS).json()["items"]}
    assert set(listed) == builtin | {"mine"}
    assert listed["mine"]["owner_id"] is not None and listed["mine"]["id"] == mine
    assert all(m["owner_id"] is None and m["builtin"] for n, m in listed.items() if n != "mine")
    assert {m["name"] for m in other.get(SERVERS).json()["items"]} == builtin | {"theirs"}
    assert owner.get(SERVERS).json()["total"] == len(builtin) + 1
    # Another user's entry does not exist for you: read, change and delete are all 404.
    assert owner.get(f"{SERVERS}/{theirs}").status_code == 404
    assert owner.patch(f"{SERVERS}/{theirs}", json={"name": "x"}, headers={"If-Match": '"1"'}).status_code == 404
    assert owner.delete(f"{SERVERS}/{theirs}", headers={"If-Match": '"1"'}).status_code == 404
    assert other.get(f"{SERVERS}/{theirs}").json()["name"] == "theirs"


def test_names_are_unique_per_owner_and_among_the_global_entries(owner: TestClient, h: SimpleNamespace) -> None:
    other = h.client("other@example.com")
    my_server(owner, "GPU box")
    my_server(other, "GPU box")  # another owner may use the same name
    r = owner.post(SERVERS, json={"name": "GPU box", "nic_ports": 1, "port_gbps": 10})
    assert r.status_code == 409 and r.json()["detail"][0]["field"] == "name"
    r = owner.post(SERVERS, json={"name": "2x25G server", "nic_ports": 1, "port_gbps": 10})
    assert r.status_code == 409, "a global name is taken for everyone"
    renamed = my_server(owner, "GPU box 2")
    r = owner.patch(f"{SERVERS}/{renamed}", json={"name": "GPU box"}, headers={"If-Match": '"1"'})
    assert r.status_code == 409


def test_layouts_use_entries_of_the_projects_members_only(
    owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    other = h.client("other@example.com")
    theirs = my_server(other, "their server")
    template = {"logical_racks": [{**h.lr(servers=4), "server_model_id": theirs}]}
    body = {"name": "R01", "x_m": 1, "y_m": 1, "rack_count": 1, "rack_template": template}
    r = owner.post(f"/api/v1/halls/{hall['id']}/rows", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["field"].endswith("server_model_id") and str(theirs) in r.json()["detail"][0]["msg"]

    # Once its owner is a member of the project, the team can use it there.
    h.join(owner, other, project, "other@example.com", "editor")
    r = owner.post(f"/api/v1/halls/{hall['id']}/rows", json=body)
    assert r.status_code == 201, r.text
    layout = owner.get(f"/api/v1/halls/{hall['id']}/layout").json()
    assert "their server" in {m["name"] for m in layout["server_models"]}
    # ... but it stays theirs: not in the owner's catalog.
    assert owner.get(f"{SERVERS}/{theirs}").status_code == 404

    # A project the other user is not in cannot use it, by id on a rack either.
    elsewhere = owner.post("/api/v1/projects", json={"name": "P2"}).json()["id"]
    hall2 = owner.post(f"/api/v1/projects/{elsewhere}/halls", json={"name": "H", "width_m": 20, "depth_m": 20}).json()
    row = h.row(owner, hall2["id"], n=1)
    r = owner.post(f"/api/v1/rows/{row['id']}/racks", json={"logical_racks": template["logical_racks"]})
    assert r.status_code == 422, r.text
    rack = owner.get(f"/api/v1/rows/{row['id']}/racks").json()["items"][0]
    r = owner.patch(
        f"/api/v1/racks/{rack['id']}", json={"logical_racks": template["logical_racks"]},
        headers={"If-Match": f'"{rack["version"]}"'},
    )  # fmt: skip
    assert r.status_code == 422, r.text


def test_import_resolves_names_among_the_global_entries_and_the_importers_own(
    owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    mine = my_server(owner, "lab server", nic_ports=2)
    template = {"logical_racks": [{**h.lr(servers=4), "server_model_id": mine}]}
    body = {"name": "R01", "x_m": 1, "y_m": 1, "rack_count": 1, "rack_template": template}
    assert owner.post(f"/api/v1/halls/{hall['id']}/rows", json=body).status_code == 201
    doc = owner.get(f"/api/v1/projects/{project}/export").json()
    assert doc["catalog"]["server_models"] == [
        {"name": "lab server", "nic_ports": 2, "port_gbps": 25.0, "height_u": 1,
         "typical_w": None, "max_w": None, "weight_kg": None, "airflow": None, "source": "",
         "gpus": 0, "gpu_interconnect_gbps": None, "frontend_nic_ports": 0, "frontend_port_gbps": None}
    ]  # fmt: skip

    # The owner's import reuses their own entry.
    r = owner.post("/api/v1/projects/import", json=doc)
    assert r.status_code == 201, r.text
    assert [m["id"] for m in owner.get(SERVERS).json()["items"] if m["name"] == "lab server"] == [mine]

    # Another user with a different "lab server" of their own: it clashes with theirs, not with the owner's.
    other = h.client("other@example.com")
    my_server(other, "lab server", nic_ports=4)
    r = other.post("/api/v1/projects/import", json=doc)
    assert r.status_code == 409 and r.json()["detail"][0]["field"] == "catalog.server_models[0]"

    # A third user has none: the import creates it as theirs, apart from the owner's.
    third = h.client("third@example.com")
    r = third.post("/api/v1/projects/import", json=doc)
    assert r.status_code == 201, r.text
    created = [m for m in third.get(SERVERS).json()["items"] if m["name"] == "lab server"]
    third_id = third.get("/api/v1/auth/me").json()["user"]["id"]
    assert len(created) == 1 and created[0]["id"] != mine and created[0]["owner_id"] == third_id
    assert third.get(f"/api/v1/projects/{r.json()['project_id']}/export").json()["halls"] == doc["halls"]
    assert owner.get(f"{SERVERS}/{created[0]['id']}").status_code == 404


def test_an_entry_a_layout_uses_stays_usable_after_its_owner_leaves(
    owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace
) -> None:
    other = h.client("other@example.com")
    theirs = my_server(other, "their server")
    h.join(owner, other, project, "other@example.com", "editor")
    members = owner.get(f"/api/v1/projects/{project}/members").json()["items"]
    member = next(m for m in members if m["email"] == "other@example.com")
    lrs = [{**h.lr(servers=4), "server_model_id": theirs}]
    row = h.row(owner, hall["id"], n=1, rack_template={"logical_racks": lrs})
    r = owner.delete(
        f"/api/v1/projects/{project}/members/{member['user_id']}", headers={"If-Match": f'"{member["version"]}"'}
    )
    assert r.status_code == 204, r.text
    # The row's racks still load and change, and the entry may be placed again in this project.
    r = owner.post(f"/api/v1/rows/{row['id']}/racks", json={"logical_racks": lrs})
    assert r.status_code == 201, r.text
    assert [lr["server_model_id"] for lr in r.json()["logical_racks"]] == [theirs]
