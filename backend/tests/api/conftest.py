"""API test fixtures: the real app on the test database, each test inside one rolled-back transaction.

Every request gets the test's session (commit = release a savepoint), and the identity map is
cleared after each request, as with a fresh session per request in production.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from loopline.api.app import create_app
from loopline.api.deps import get_db_session
from loopline.db.models import RackType, ServerModel, SwitchModel
from loopline.services.catalog import ensure_builtin_catalog

PASSWORD = "correct horse battery"


def forget_login_failures() -> None:
    """Failed logins and registrations are counted in Redis, outside the rolled-back transaction:
    each test starts clean."""
    from loopline.services.login_throttle import LoginThrottle
    from loopline.settings import get_settings

    client = LoginThrottle.of(get_settings().broker_url).client
    for pattern in ("loopline:login-failures:*", "loopline:registrations:*"):
        for key in client.scan_iter(pattern):
            client.delete(key)


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    forget_login_failures()


@pytest.fixture(scope="session")
def _built_app() -> Any:
    """The app's routes, built once: `create_app()` builds ~150 of them with their request models
    (about 0.4 s of CPU), which every API test used to pay."""
    return create_app()


@pytest.fixture
def app(db_session: Session, _built_app: Any) -> Iterator[Any]:
    """The app as a fresh one: its middleware (admission slots and queues) built anew on the first
    request, and on the way out the routes a test added removed and the overrides dropped."""
    forget_login_failures()
    application = _built_app
    application.middleware_stack = None
    routes = list(application.router.routes)

    def session_for_request() -> Iterator[Session]:
        try:
            yield db_session
            db_session.commit()
        except BaseException:
            db_session.rollback()
            raise
        finally:
            db_session.expunge_all()

    application.dependency_overrides[get_db_session] = session_for_request
    ensure_builtin_catalog(db_session)
    db_session.commit()
    yield application
    application.dependency_overrides.clear()
    if application.router.routes != routes:
        application.router.routes[:] = routes
        application.openapi_schema = None


@dataclass
class Catalog:
    server: int
    server4: int
    tor: int
    spine: int
    rack: int
    rack48: int


@pytest.fixture
def cat(db_session: Session, app: Any) -> Catalog:
    def one(model: Any, name: str) -> int:
        return int(db_session.execute(select(model.id).where(model.name == name)).scalar_one())

    return Catalog(
        server=one(ServerModel, "2x25G server"),
        server4=one(ServerModel, "4x25G server"),
        tor=one(SwitchModel, "48x25G+8x100G ToR"),
        spine=one(SwitchModel, "64x100G spine"),
        rack=one(RackType, "42U 600x1200"),
        rack48=one(RackType, "48U 600x1200"),
    )


@pytest.fixture
def gpu(db_session: Session, app: Any) -> SimpleNamespace:
    """The builtin GPU cluster entries: the DGX H100 class server, the QM9700 leaf and spine."""

    def one(model: Any, name: str) -> int:
        return int(db_session.execute(select(model.id).where(model.name == name)).scalar_one())

    return SimpleNamespace(
        server=one(ServerModel, "8x400G GPU server"),
        plain_server=one(ServerModel, "2x25G server"),
        leaf=one(SwitchModel, "32x400G+32x400G leaf"),
        spine=one(SwitchModel, "64x400G 1U spine"),
    )


def sign_up(client: TestClient, email: str, password: str = PASSWORD) -> None:
    """As the browser does: register (which answers alike for new and taken addresses), then log in."""
    r = client.post("/api/v1/auth/register", json={"email": email, "password": password, "display_name": email})
    assert r.status_code == 202, r.text
    r = client.post("/api/v1/auth/login", json={"email": email, "password": password})
    assert r.status_code == 200, r.text


def new_client(app: Any, email: str) -> TestClient:
    """A browser: signs up (register, then log in) and keeps the session cookie."""
    client = TestClient(app)
    sign_up(client, email)
    return client


@pytest.fixture
def owner(app: Any) -> TestClient:
    return new_client(app, "owner@example.com")


@pytest.fixture
def project(owner: TestClient) -> int:
    r = owner.post("/api/v1/projects", json={"name": "P1"})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


@pytest.fixture
def hall(owner: TestClient, project: int) -> dict[str, Any]:
    r = owner.post(f"/api/v1/projects/{project}/halls", json={"name": "H1", "width_m": 30, "depth_m": 20})
    assert r.status_code == 201, r.text
    return dict(r.json())


def lr(cat: Catalog, servers: int = 15, ports: int = 2, **extra: Any) -> dict[str, Any]:
    return {"servers": servers, "server_model_id": cat.server, "ports_used": ports, "tor_model_id": cat.tor, **extra}


def template(cat: Catalog, b: int = 2) -> dict[str, Any]:
    return {"rack_type_id": cat.rack, "logical_racks": [lr(cat) for _ in range(b)]}


def make_row(
    client: TestClient,
    hall_id: int,
    cat: Catalog,
    name: str = "R01",
    *,
    x: float = 1,
    y: float = 1,
    n: int = 4,
    **extra: Any,
) -> dict[str, Any]:
    body = {"name": name, "x_m": x, "y_m": y, "rack_count": n, "rack_template": template(cat), **extra}
    r = client.post(f"/api/v1/halls/{hall_id}/rows", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def join(owner: Any, member: Any, project: int, email: str, role: str) -> None:
    """`member` (a logged-in client of `email`) joins `project` with `role` as a person does: the
    owner invites the address, the member accepts the link."""
    r = owner.post(f"/api/v1/projects/{project}/invitations", json={"email": email, "role": role})
    assert r.status_code == 201, r.text
    r = member.post("/api/v1/auth/invitations/accept", json={"token": r.json()["token"]})
    assert r.status_code == 200, r.text


def etag(response: Any) -> str:
    return str(response.headers["etag"])


def new_plan(client: Any, hall_id: int, **body: Any) -> dict[str, Any]:
    """A wiring plan of the hall (201 asserted), named `base` unless `body` names it."""
    r = client.post(f"/api/v1/halls/{hall_id}/wiring-plans", json={"name": "base", **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def new_upgrade(client: Any, plan_id: int, **body: Any) -> dict[str, Any]:
    """An upgrade of the plan (201 asserted), named `upgrade` unless `body` names it."""
    r = client.post(f"/api/v1/wiring-plans/{plan_id}/upgrades", json={"name": "upgrade", **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


@pytest.fixture
def h(app: Any, cat: Catalog) -> SimpleNamespace:
    """Helpers for tests: `h.client(email)`, `h.lr(...)`, `h.template(...)`, `h.row(client, hall_id, ...)`,
    `h.join(owner, member, project, email, role)`, `h.plan(client, hall_id, ...)`,
    `h.upgrade(client, plan_id, ...)`."""
    return SimpleNamespace(
        app=app,
        cat=cat,
        client=lambda email: new_client(app, email),
        lr=lambda **kw: lr(cat, **kw),
        template=lambda b=2: template(cat, b),
        row=lambda client, hall_id, name="R01", **kw: make_row(client, hall_id, cat, name, **kw),
        etag=etag,
        join=join,
        plan=new_plan,
        upgrade=new_upgrade,
    )


@pytest.fixture
def row_hall(owner: TestClient, hall: dict[str, Any], h: SimpleNamespace) -> dict[str, Any]:
    """One row R01 of 2 racks, each with 2 logical racks of 2 servers (2x25G, 1 port cabled), and
    a network rack N01 with one 64x100G spine: 8 servers, 4 ToRs."""
    lr = h.lr(servers=2, ports=1)
    body = {"name": "R01", "x_m": 1, "y_m": 1, "rack_count": 2,
            "rack_template": {"rack_type_id": h.cat.rack, "logical_racks": [lr, lr]}}  # fmt: skip
    row = owner.post(f"/api/v1/halls/{hall['id']}/rows", json=body).json()
    spine = {"name": "SP1", "role": "spine", "switch_model_id": h.cat.spine, "u": 20}
    r = owner.post(
        f"/api/v1/rows/{row['id']}/racks", json={"name": "N01", "role": "network", "fabric_switches": [spine]}
    )
    assert r.status_code == 201, r.text
    return hall
