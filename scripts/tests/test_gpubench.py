"""scripts/gpu_bench/gpubench.py: the recording answers the k-th request of a method and path with the k-th
recorded answer (past the last, the last), survives a save and load with repeated bodies stored once, is
served with the editor's build by the replay server, and the probe reads a real Chromium's WebGL renderer
over the DevTools protocol."""

from __future__ import annotations

import json
import lzma
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gpu_bench"))
import gpubench


def _entry(method: str, path: str, body: bytes, status: int = 200) -> dict[str, Any]:
    return {
        "method": method,
        "path": path,
        "status": status,
        "headers": [["Content-Type", "application/json"]],
        "body": body,
    }


def _recording() -> gpubench.Recording:
    rec = gpubench.Recording({"halls": {"big": {"hallId": 2}}})
    rec.entries = [
        _entry("GET", "/api/v1/halls/2/layout", b'{"v":1}'),
        _entry("PATCH", "/api/v1/racks/7", b'{"version":2}'),
        _entry("GET", "/api/v1/halls/2/layout", b'{"v":2}'),
        _entry("PATCH", "/api/v1/racks/7", b'{"version":3}'),
        _entry("GET", "/api/v1/wiring-plans/1/render", b"x" * 5000),
        _entry("GET", "/api/v1/wiring-plans/1/render", b"x" * 5000),
        _entry("GET", "/api/v1/halls/2/facility?plan_id=1", b'{"f":1}'),
    ]
    return rec


def test_answers_in_recorded_order_per_method_and_path_then_the_last_again() -> None:
    rec = _recording()
    bodies = [rec.answer("GET", "/api/v1/halls/2/layout") for _ in range(3)]
    assert [b["body"] if b else None for b in bodies] == [b'{"v":1}', b'{"v":2}', b'{"v":2}']
    patches = [rec.answer("PATCH", "/api/v1/racks/7") for _ in range(2)]
    assert [p["body"] if p else None for p in patches] == [b'{"version":2}', b'{"version":3}']
    # Another query on a recorded path: that path's answers; an unrecorded path or method: none, noted.
    other = rec.answer("GET", "/api/v1/halls/2/facility?plan_id=2")
    assert other is not None and other["body"] == b'{"f":1}'
    assert rec.answer("DELETE", "/api/v1/racks/7") is None
    assert rec.answer("GET", "/api/v1/halls/3/layout") is None
    assert rec.misses == ["DELETE /api/v1/racks/7", "GET /api/v1/halls/3/layout"]
    assert rec.served == 8


def test_save_and_load_keep_every_entry_and_store_a_repeated_body_once(tmp_path: Path) -> None:
    rec = _recording()
    path = tmp_path / "rec.xz"
    rec.save(path)
    with lzma.open(path, "rb") as f:
        head = json.loads(f.readline())
    assert (head["format"], head["count"], head["bodies"]) == (2, 7, 6)
    back = gpubench.Recording.load(path)
    assert back.meta == {"halls": {"big": {"hallId": 2}}}
    assert [(e["method"], e["path"], e["status"], e["body"]) for e in back.entries] == [
        (e["method"], e["path"], e["status"], e["body"]) for e in rec.entries
    ]


def test_the_replay_server_serves_the_build_and_the_recorded_answers(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<html>editor</html>")
    (dist / "assets" / "index-abc.js").write_text("export {};")
    server = gpubench.make_server(dist, _recording(), None)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:

        def get(path: str, method: str = "GET") -> tuple[int, str, bytes]:
            req = urllib.request.Request(base + path, method=method, data=b"{}" if method != "GET" else None)
            try:
                with urllib.request.urlopen(req, timeout=10) as r:
                    return r.status, r.headers["Content-Type"], r.read()
            except urllib.error.HTTPError as e:
                return e.code, e.headers["Content-Type"], e.read()

        assert get("/assets/index-abc.js") == (200, "text/javascript", b"export {};")
        # The editor's own routes (and anything that is not a file of the build) get index.html.
        assert get("/projects/2/halls/2?plan=1") == (200, "text/html", b"<html>editor</html>")
        assert get("/../../etc/passwd")[2] == b"<html>editor</html>"
        assert get("/api/v1/racks/7", "PATCH") == (200, "application/json", b'{"version":2}')
        status, _, body = get("/api/v1/projects")
        assert status == 404
        assert json.loads(body) == {"detail": [{"loc": ["path"], "msg": "not in the recording"}]}
    finally:
        server.shutdown()


def test_the_probe_reads_the_webgl_renderer_of_debians_chromium() -> None:
    if not Path("/usr/bin/chromium").exists():
        pytest.fail("Debian's chromium is not installed (make install installs it)")
    (found,) = gpubench.probe("/usr/bin/chromium", ["swiftshader"])
    assert "error" not in found, found.get("error")
    assert found["webgl"] == 2
    assert "SwiftShader" in found["renderer"]
    assert found["software"] is True
    assert found["gpu_process"]["gl_implementation_parts"] == "(gl=egl-angle,angle=swiftshader)"
