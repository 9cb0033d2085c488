"""Property-based tests through the API: the server accepts a rack placement exactly when it fits."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loopline.domain.layout import Point, Rack, Row

HALL_W, HALL_D = 12_000, 8_000
FIXTURES = [HealthCheck.function_scoped_fixture]


@settings(max_examples=25, deadline=None, suppress_health_check=FIXTURES)
@given(
    x=st.integers(0, 70).map(lambda v: v * 200),
    y=st.integers(0, 45).map(lambda v: v * 200),
    direction=st.sampled_from([0, 90, 180, 270]),
    n=st.integers(1, 5),
)
def test_a_new_row_is_accepted_iff_it_fits_beside_the_existing_one(
    owner: TestClient, project: int, h: SimpleNamespace, x: int, y: int, direction: int, n: int
) -> None:
    hall = owner.post(
        f"/api/v1/projects/{project}/halls", json={"name": f"H{x}-{y}-{direction}-{n}", "width_m": 12, "depth_m": 8}
    ).json()
    h.row(owner, hall["id"], "A", x=3, y=3, n=4)  # x 3..5.4, y 3..4.2
    existing = Row("A", Point(3_000, 3_000), 0, racks=tuple(Rack(f"A{i}", position_mm=600 * i) for i in range(4)))
    new = Row("B", Point(x, y), direction, racks=tuple(Rack(f"B{i}", position_mm=600 * i) for i in range(n)))
    boxes = [new.footprint(k) for k in new.racks]
    old = [existing.footprint(k) for k in existing.racks]
    inside = all(b[0] >= 0 and b[1] >= 0 and b[2] <= HALL_W and b[3] <= HALL_D for b in boxes)
    free = not any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3] for a in boxes for b in old)
    r = owner.post(
        f"/api/v1/halls/{hall['id']}/rows",
        json={
            "name": "B",
            "x_m": x / 1000,
            "y_m": y / 1000,
            "direction": direction,
            "rack_count": n,
            "rack_template": h.template(1),
        },
    )
    assert (r.status_code == 201) == (inside and free), r.text
    if r.status_code == 422:
        codes = {e["type"] for e in r.json()["detail"]}
        assert codes <= {"rack_outside_hall", "rack_overlap"}
        assert ("rack_outside_hall" in codes) == (not inside)


@settings(max_examples=25, deadline=None, suppress_health_check=FIXTURES)
@given(
    st.lists(
        st.tuples(st.integers(1, 44), st.integers(0, 22), st.sampled_from(["top", "middle", "bottom"])),
        min_size=1,
        max_size=4,
    )
)
def test_logical_racks_are_accepted_iff_their_units_do_not_collide(
    owner: TestClient, hall: dict[str, Any], h: SimpleNamespace, spec: list[tuple[int, int, str]]
) -> None:
    row = owner.get(f"/api/v1/halls/{hall['id']}/rows").json()["items"]
    if not row:
        h.row(owner, hall["id"], n=1)
        row = owner.get(f"/api/v1/halls/{hall['id']}/rows").json()["items"]
    rack = owner.get(f"/api/v1/rows/{row[0]['id']}/racks").json()["items"][0]
    used: dict[int, int] = {}
    for base, servers, _ in spec:
        for u in range(base, base + servers + 1):  # servers of 1U plus a 1U ToR
            used[u] = used.get(u, 0) + 1
    valid = all(c == 1 for c in used.values()) and max(used) <= 42
    r = owner.patch(
        f"/api/v1/racks/{rack['id']}",
        json={"logical_racks": [h.lr(servers=s, ports=1, base_u=b, tor_position=t) for b, s, t in spec]},
        headers={"If-Match": f'"{rack["version"]}"'},
    )
    assert (r.status_code == 200) == valid, r.text
    if not valid:
        assert r.status_code == 422
        assert {e["type"] for e in r.json()["detail"]} <= {"u_collision", "u_out_of_rack"}
    else:
        placed = r.json()["logical_racks"]
        assert [(p["base_u"], p["top_u"]) for p in placed] == [(b, b + s) for b, s, _ in spec]
