"""Names with invisible or direction-changing characters are refused, naming the field (issue 25, item 8)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from loopline.domain.names import spoofing

SPOOFS = {
    "right-to-left override": "R01\u202e10-",
    "zero-width space": "R0\u200b1",
    "zero-width joiner": "R\u200d01",
    "byte order mark": "\ufeffR01",
    "C1 control (NEL)": "R01\u0085",
    "left-to-right isolate": "\u2066R01\u2069",
    "newline": "R01\nR02",
}


@pytest.mark.parametrize("name", SPOOFS.values(), ids=SPOOFS.keys())
def test_every_kind_of_name_refuses_spoofing_characters(
    owner: TestClient, project: int, hall: dict[str, Any], h: SimpleNamespace, name: str
) -> None:
    code = f"U+{ord(next(ch for ch in name if spoofing(ch))):04X}"
    attempts = [
        ("/api/v1/projects", {"name": name}, ["body", "name"]),
        (f"/api/v1/projects/{project}/halls", {"name": name, "width_m": 10, "depth_m": 10}, ["body", "name"]),
        ("/api/v1/tokens", {"name": name, "scopes": ["layout:read"]}, ["body", "name"]),
        (
            "/api/v1/auth/register",
            {"email": "x@example.com", "password": "correct horse battery", "display_name": name},
            ["body", "display_name"],
        ),
        (
            f"/api/v1/halls/{hall['id']}/rows",
            {"name": "R01", "x_m": 1, "y_m": 1, "racks": [{"name": name}]},
            ["body", "racks", 0, "name"],
        ),
    ]
    for url, body, loc in attempts:
        r = owner.post(url, json=body)
        assert r.status_code == 422, (url, r.text)
        detail = r.json()["detail"][0]
        assert detail["loc"] == loc, url
        assert code in detail["msg"] and "look like another" in detail["msg"]
    assert owner.get(f"/api/v1/halls/{hall['id']}/layout").json()["rows"] == []
    assert owner.get("/api/v1/tokens").json()["total"] == 0


def test_ordinary_names_in_any_script_pass(owner: TestClient, project: int) -> None:
    for name in ("Halle Süd", "مرکز داده", "データセンター 3", "R01-01 (A)", "Зал 1"):
        r = owner.post(f"/api/v1/projects/{project}/halls", json={"name": name, "width_m": 10, "depth_m": 10})
        assert r.status_code == 201, r.text


@given(st.text(st.characters(categories=["L", "N", "P", "S", "Zs", "M"]), min_size=1, max_size=20))
def test_visible_text_is_never_refused(name: str) -> None:
    assert spoofing(name) is None


@given(st.text(max_size=10), st.characters(categories=["Cc", "Cf", "Zl", "Zp"]), st.text(max_size=10))
def test_one_invisible_character_anywhere_is_named(before: str, bad: str, after: str) -> None:
    reason = spoofing(before + bad + after)
    assert reason is not None and "U+" in reason
