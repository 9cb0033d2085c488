"""The queued-work quota: a user's and a project's queued and running simulations may hold so many
estimated engine seconds; beyond, a submission is refused 429 naming `quota`, with the figures and
a Retry-After, and nothing is written. Each run here is a 12-flow shuffle: 0.05 s of start-up plus
12 flows at 90,000 flows/s = 0.0501333 s in flow mode."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from loopline.domain import sim_estimate as se
from loopline.services.sim_preflight import validate
from loopline.settings import get_settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _scenarios import shuffle

RUN_S = 0.05 + 12 / 90_000


def submit(client: TestClient, project: int, name: str) -> Any:
    return client.post(f"/api/v1/projects/{project}/simulations", json={"name": name, "scenario": shuffle("flow")})


def test_the_run_is_estimated_as_derived_by_hand() -> None:
    assert se.estimate(validate(shuffle("flow"))).flow.wall_s == pytest.approx(RUN_S, rel=1e-12)


def test_a_user_over_the_quota_is_refused_until_work_ends(
    owner: TestClient, project: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "queued_work_per_user_s", 2.4 * RUN_S)  # two runs fit, not three
    first = submit(owner, project, "one")
    assert first.status_code == 202, first.text
    assert submit(owner, project, "two").status_code == 202
    refused = submit(owner, project, "three")
    assert refused.status_code == 429, refused.text
    [item] = refused.json()["detail"]
    assert item["field"] == "quota"
    assert item["msg"].startswith(
        "your queued and running simulations hold about 0.1 s of estimated engine work; this one adds 0.1 s, "
        "over the limit of 0.1 s"
    )
    assert refused.headers["Retry-After"] == "1"
    assert owner.get(f"/api/v1/projects/{project}/simulations").json()["total"] == 2  # nothing written
    assert owner.post(f"/api/v1/simulations/{first.json()['id']}/cancel").status_code == 200
    assert submit(owner, project, "three").status_code == 202


def test_a_project_over_the_quota_refuses_every_member(
    owner: TestClient, project: int, h: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "queued_work_per_project_s", 3.4 * RUN_S)  # three runs fit, not four
    editor = h.client("quota-editor@example.com")
    h.join(owner, editor, project, "quota-editor@example.com", "editor")
    assert [submit(owner, project, n).status_code for n in ("a", "b")] == [202, 202]
    assert submit(editor, project, "c").status_code == 202
    refused = submit(editor, project, "d")  # the editor's own queue holds one run: the project's is full
    assert refused.status_code == 429, refused.text
    assert refused.json()["detail"][0]["msg"].startswith("this project's queued and running simulations")


def test_one_run_is_always_accepted_when_nothing_waits(
    owner: TestClient, project: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "queued_work_per_user_s", RUN_S / 10)
    assert submit(owner, project, "big").status_code == 202
    assert submit(owner, project, "next").status_code == 429
