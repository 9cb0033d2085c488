"""The FastAPI application: the JSON API under /api and the built editor at /."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.routing import compile_path

from loopline.api import (
    auth,
    catalog,
    device_names,
    exports,
    facility,
    halls,
    health,
    openapi,
    pricing,
    projects,
    racks,
    rows,
    sim_estimates,
    simulations,
    sweeps,
    tokens,
    wiring,
)
from loopline.api.admission import AdmissionControl
from loopline.api.body_guard import BodyGuard
from loopline.api.browser_security import BrowserSecurity
from loopline.api.compression import GZipUnlessCompressed
from loopline.api.errors import install_error_handlers
from loopline.api.forwarded import TrustedProxies
from loopline.api.relay import LaneRelay
from loopline.domain.sim_accuracy import accuracy_markdown
from loopline.services import sim_preflight
from loopline.settings import get_settings

API_DESCRIPTION = """Loopline plans datacenter networks: halls, rows and racks; the wiring between
servers, ToRs and the fabric; routed cable lengths, media and bills of materials; and
simulations of how a design performs. Lengths are metres, speeds Gb/s."""


CATCH_ALL = "/{path:path}"
ALL_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
MAX_QUEUED_REQUESTS = 2048
"""Requests waiting for a turn beyond which new ones are answered 503 at once."""


def create_app() -> FastAPI:
    description = f"{API_DESCRIPTION}\n\n{accuracy_markdown(sim_preflight.calibration())}"
    app = FastAPI(title="Loopline API", version="0.1.0", description=description)
    install_error_handlers(app)
    settings = get_settings()
    app.add_middleware(
        AdmissionControl,
        slots=settings.api_concurrency,
        max_queue=MAX_QUEUED_REQUESTS,
        max_wait_s=settings.api_queue_timeout_s,
        cheap_slots=settings.api_cheap_slots,
        export_slots=settings.api_export_slots,
        send_timeout_s=settings.api_send_timeout_s,
    )
    # Outside admission control: a slow or oversized upload never holds a request slot.
    app.add_middleware(BodyGuard, max_bytes=settings.max_body_mb * 1024**2)
    # Layouts and cable buffers are large, repetitive JSON: compressing them pays for itself (ZIPs,
    # compressed already, pass as they are).
    app.add_middleware(GZipUnlessCompressed, minimum_size=4096, compresslevel=5)
    # Around every other layer: every response, errors included, carries the security headers.
    app.add_middleware(BrowserSecurity, hsts=not settings.local)
    if settings.api_lanes_socket:
        # The front: everything but health and the cheap lane is answered by the lanes process,
        # whose own middleware above applies (so it sits outside them all but the next).
        app.add_middleware(
            LaneRelay,
            socket_path=settings.api_lanes_socket,
            hsts=not settings.local,
            send_timeout_s=settings.api_send_timeout_s,
        )
    # Before all of them: the client's address and scheme, as a configured proxy reports them.
    app.add_middleware(TrustedProxies, networks=settings.trusted_proxy_networks, from_socket=settings.api_relayed)
    app.include_router(health.router)
    for router in (
        auth.router,
        tokens.router,
        catalog.router,
        projects.router,
        halls.router,
        device_names.router,
        rows.router,
        racks.router,
        facility.router,
        wiring.router,
        pricing.router,
        exports.router,
        simulations.router,
        sim_estimates.router,
        sweeps.router,
    ):
        app.include_router(router)
    _integer_ids(app)
    # Last: its catch-all route serves the editor.
    _mount_ui(app, settings.frontend_dist)
    openapi.install(app)
    return app


def _as_integer(integers: set[str], match: re.Match[str]) -> str:
    return f"{{{match[1]}:int}}" if match[1] in integers else match[0]


def _integer_ids(app: FastAPI) -> None:
    """An integer path parameter (every id) matches digits only, so `/projects/import` is never
    taken for project `import`: a method that path lacks is a 405 naming the ones it has (not a
    422 about `project_id`), and a path with text where an id goes is a 404. The document's paths
    are unchanged (`path_format`); the range of an id is still checked by its `Path(...)`."""
    for route in app.routes:
        if not isinstance(route, APIRoute):
            continue
        integers = {field.name for field in route.dependant.path_params if field.field_info.annotation is int}
        if not integers:
            continue
        path = re.sub(r"\{(\w+)\}", partial(_as_integer, integers), route.path)
        route.path_regex, route.path_format, route.param_convertors = compile_path(path)


def _mount_ui(app: FastAPI, dist: Path) -> None:
    """Serve the built editor; unknown non-API paths fall back to index.html (client routing).
    Under /api, a path that exists with other methods is a 405 naming them, any other a 404."""
    index = dist / "index.html"
    if (dist / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=dist / "assets"), name="assets")

    @app.api_route(CATCH_ALL, methods=sorted(ALL_METHODS), include_in_schema=False)
    def _spa(path: str, request: Request) -> FileResponse:
        if path.startswith("api/"):
            routes = [r for r in app.routes if isinstance(r, APIRoute) and r.path != CATCH_ALL]
            allowed = {m for r in routes if r.path_regex.match(f"/{path}") for m in r.methods}
            if allowed:
                raise HTTPException(status_code=405, headers={"Allow": ", ".join(sorted(allowed))})
            raise HTTPException(status_code=404, detail="Not Found")
        if request.method not in ("GET", "HEAD"):
            raise HTTPException(status_code=405, headers={"Allow": "GET, HEAD"})
        if not index.is_file():
            raise HTTPException(status_code=404, detail="Not Found")
        candidate = (dist / path).resolve()
        if path and candidate.is_file() and dist.resolve() in candidate.parents:
            return FileResponse(candidate)
        return FileResponse(index)


app = create_app()
