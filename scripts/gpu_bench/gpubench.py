#!/usr/bin/env python3
"""The editor's benchmarks on a machine without the stack (the GPU machine), from a recording.

Standard library only (the GPU machine has Python 3.12 and no Node, PostgreSQL or network), so the same
file records here and replays there:

    gpubench.py record --api URL --halls halls.json --dist DIST --save REC --chromium BIN [--gl swiftshader]
    gpubench.py replay --recording REC --dist DIST --chromium BIN --gl FLAGSET|auto --out RESULT.json
    gpubench.py probe --chromium BIN --out PROBE.json

`record` serves the editor build in DIST and passes /api to the real stack at URL, keeping every API
response in the order asked; the benchmark runs meanwhile, so the recording holds exactly the traffic of
the steps below. `replay` answers the same steps from that recording (the k-th request for a method and
path gets the k-th recorded answer; past the last, the last again): the page's work is what is timed,
with an instant server (edits are answered as recorded). `probe` starts Chromium with each GL flag set
and prints the WebGL renderer it got (`UNMASKED_RENDERER_WEBGL`) and the GPU process's own view
(SystemInfo.getInfo); `--gl auto` benchmarks with the first set whose renderer is not software.

The steps are those of the Playwright benchmarks, their page-side code carried over unchanged in
meaning (e2e/bench/hall.bench.ts, orbit.ts, orbit.bench.ts, edits.bench.ts, campus.bench.ts):
- big (2,000 racks, 104,000 cables): open with the plan (first render from navigation start, draw calls,
  JS heap after a GC), a 50-rack row and a rack nudged with the keyboard 10 times each (edit to the second
  animation frame), orbit (programmatic, per animation frame) and left-drags, a row duplicated with Ctrl+D
  5 times (keydown to the first animation frame after the frame that drew the copy; undone each time) and
  5 switches each way between the p = 2 and p = 1 plans (click to the frame with the other plan's cables);
- campus (10,000 racks, 500,000 cables): open (first render, draw calls, heap), a far rack nudged 10
  times, orbit.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import lzma
import math
import mimetypes
import os
import re
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

# Chromium's switches of the e2e suite (e2e/playwright.config.ts) and Playwright's own that keep a
# hidden page's animation frames unthrottled; the viewport is the suite's 1280 x 800.
BASE_FLAGS = [
    "--headless",  # implied by the headless shell; Debian's full chromium needs it
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--mute-audio",
    "--enable-precise-memory-info",
    "--window-size=1280,800",
    "--lang=en-US",
]
VIEWPORT = (1280, 800)

# GL flag sets, tried in this order by the probe. `swiftshader` is what the e2e suite uses here.
GL_FLAGS: dict[str, list[str]] = {
    "angle-vulkan": [
        "--use-angle=vulkan",
        "--enable-features=Vulkan,VulkanFromANGLE,DefaultANGLEVulkan",
        "--enable-gpu",
        "--ignore-gpu-blocklist",
        "--enable-unsafe-webgpu",
    ],
    "angle-gl-egl": ["--use-gl=angle", "--use-angle=gl-egl", "--enable-gpu", "--ignore-gpu-blocklist"],
    "angle-vulkan-nosurface": [
        "--use-angle=vulkan",
        "--enable-features=Vulkan",
        "--disable-vulkan-surface",
        "--enable-gpu",
        "--ignore-gpu-blocklist",
    ],
    "egl": ["--use-gl=egl", "--enable-gpu", "--ignore-gpu-blocklist"],
    "swiftshader": ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
}
SOFTWARE = re.compile(r"swiftshader|llvmpipe|softpipe|software", re.IGNORECASE)

RUNS = int(os.environ.get("LOOPLINE_GPU_RUNS", "5"))


def log(msg: str) -> None:
    print(f"[gpubench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------
# The recording: API responses in the order they were asked for, per method and path.


class Recording:
    """Entries {method, path, status, headers, body}; saved as xz: a JSON head, the distinct bodies, the entries."""

    def __init__(self, meta: dict[str, Any] | None = None) -> None:
        self.meta: dict[str, Any] = meta or {}
        self.entries: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self._next: dict[str, int] = {}
        self.misses: list[str] = []
        self.served = 0

    def save(self, path: Path) -> None:
        # A body asked for again (a plan's render buffers at every switch) is stored once.
        bodies: dict[bytes, int] = {}
        for e in self.entries:
            bodies.setdefault(e["body"], len(bodies))
        with lzma.open(path, "wb", preset=6) as f:
            head = {"format": 2, "meta": self.meta, "count": len(self.entries), "bodies": len(bodies)}
            f.write((json.dumps(head) + "\n").encode())
            for body in bodies:
                f.write((json.dumps({"size": len(body)}) + "\n").encode())
                f.write(body)
            for e in self.entries:
                line = {k: v for k, v in e.items() if k != "body"}
                line["body_index"] = bodies[e["body"]]
                f.write((json.dumps(line) + "\n").encode())

    @classmethod
    def load(cls, path: Path) -> Recording:
        with lzma.open(path, "rb") as f:
            first = json.loads(f.readline())
            rec = cls(first["meta"])
            if first.get("format") != 2:  # each entry's body after it
                for _ in range(first["count"]):
                    head = json.loads(f.readline())
                    head["body"] = f.read(head.pop("size"))
                    rec.entries.append(head)
                return rec
            bodies = [f.read(json.loads(f.readline())["size"]) for _ in range(first["bodies"])]
            for _ in range(first["count"]):
                head = json.loads(f.readline())
                head["body"] = bodies[head.pop("body_index")]
                rec.entries.append(head)
        return rec

    def answer(self, method: str, path: str) -> dict[str, Any] | None:
        """The next recorded answer for (method, path); else the same path with any query; else None."""
        with self.lock:
            self.served += 1
            bare = path.split("?")[0]
            for key, same in ((f"{method} {path}", path), (f"{method} {bare}?*", None)):
                found = [
                    e
                    for e in self.entries
                    if e["method"] == method and (e["path"] == same if same else e["path"].split("?")[0] == bare)
                ]
                if found:
                    i = self._next.get(key, 0)
                    self._next[key] = i + 1
                    return found[min(i, len(found) - 1)]
            self.misses.append(f"{method} {path}")
            return None


# Response headers kept in the recording and sent back.
KEPT_HEADERS = ("content-type", "etag", "set-cookie", "location", "retry-after", "cache-control")
FORWARDED_HEADERS = ("cookie", "content-type", "if-match", "if-none-match", "accept", "authorization")
STATIC_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg+xml"}


def make_server(dist: Path, recording: Recording, upstream: str | None) -> ThreadingHTTPServer:
    """The editor's build from `dist`; /api passed to `upstream` and recorded, or answered from the recording."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _send(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD" and status not in (204, 304):
                self.wfile.write(body)

        def _static(self) -> None:
            rel = urllib.parse.urlsplit(self.path).path.lstrip("/")
            file = (dist / rel).resolve()
            if not rel or not file.is_file() or dist.resolve() not in file.parents:
                file = dist / "index.html"  # the editor's own routes
            ctype = STATIC_TYPES.get(file.suffix) or mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            self._send(200, [("Content-Type", ctype), ("Cache-Control", "no-cache")], file.read_bytes())

        def _api(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            if upstream is None:
                e = recording.answer(self.command, self.path)
                if e is None:
                    miss = json.dumps({"detail": [{"loc": ["path"], "msg": "not in the recording"}]}).encode()
                    self._send(404, [("Content-Type", "application/json")], miss)
                    return
                self._send(e["status"], [tuple(h) for h in e["headers"]], e["body"])
                return
            with recording.lock:  # its place in the sequence is its arrival
                entry: dict[str, Any] = {"method": self.command, "path": self.path}
                recording.entries.append(entry)
            u = urllib.parse.urlsplit(upstream)
            conn = http.client.HTTPConnection(u.hostname or "127.0.0.1", u.port or 80, timeout=1800)
            headers = {k: v for k, v in self.headers.items() if k.lower() in FORWARDED_HEADERS}
            conn.request(self.command, self.path, body=body or None, headers=headers)
            res = conn.getresponse()
            data = res.read()
            conn.close()
            kept = [(k, v) for k, v in res.getheaders() if k.lower() in KEPT_HEADERS]
            entry.update(
                status=res.status, headers=kept, body=data, request_body=body.decode("utf-8", "replace")[:2000]
            )
            self._send(res.status, kept, data)

        def _any(self) -> None:
            try:
                if self.path.startswith("/api/"):
                    self._api()
                else:
                    self._static()
            except (BrokenPipeError, ConnectionResetError):
                pass

        do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = _any

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request: Any, client_address: Any) -> None:
            if not isinstance(sys.exc_info()[1], ConnectionError):  # a keep-alive socket the browser closed
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# ---------------------------------------------------------------------------------------------------
# Chromium over the DevTools protocol (a minimal WebSocket client: the GPU machine has no Node).


class Cdp:
    """One WebSocket connection to a DevTools target; `call` sends a command and waits for its answer."""

    def __init__(self, ws_url: str) -> None:
        u = urllib.parse.urlsplit(ws_url)
        self.sock = socket.create_connection((u.hostname or "127.0.0.1", u.port or 80), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {u.path} HTTP/1.1\r\nHost: {u.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("DevTools closed the connection during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"DevTools refused the WebSocket: {head[:200]!r}")
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def _recv_exact(self, n: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(min(n - len(buf), 1 << 20))
            if not chunk:
                raise ConnectionError("DevTools connection closed")
            buf += chunk
        return bytes(buf)

    def _send_frame(self, payload: bytes, opcode: int = 1) -> None:
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def _recv_message(self) -> dict[str, Any]:
        parts: list[bytes] = []
        while True:
            b0, b1 = self._recv_exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._recv_exact(8))[0]
            payload = self._recv_exact(n)
            opcode = b0 & 0x0F
            if opcode == 9:
                self._send_frame(payload, 10)
                continue
            if opcode == 8:
                raise ConnectionError("DevTools closed the connection")
            if opcode in (0, 1, 2):
                parts.append(payload)
                if b0 & 0x80:
                    message: dict[str, Any] = json.loads(b"".join(parts))
                    return message

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float = 120) -> dict[str, Any]:
        self.next_id += 1
        mid = self.next_id
        self._send_frame(json.dumps({"id": mid, "method": method, "params": params or {}}).encode())
        self.sock.settimeout(timeout)
        while True:
            msg = self._recv_message()
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                result: dict[str, Any] = msg.get("result", {})
                return result
            if "method" in msg:
                self.events.append(msg)

    def close(self) -> None:
        self.sock.close()


class Page:
    """A page of a Chromium started for one case: evaluate, input events, waits."""

    def __init__(self, cdp: Cdp, pid: int) -> None:
        self.cdp = cdp
        self.pid = pid

    def eval(self, expression: str, arg: Any = None, timeout: float = 600) -> Any:
        """Runs `(expression)(arg)` in the page, awaits it and returns its value (JSON)."""
        source = f"({expression})({json.dumps(arg)})"
        r = self.cdp.call(
            "Runtime.evaluate",
            {"expression": source, "awaitPromise": True, "returnByValue": True, "userGesture": True},
            timeout=timeout,
        )
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise RuntimeError(f"in the page: {d.get('exception', {}).get('description') or d.get('text')}")
        return r.get("result", {}).get("value")

    def wait_for(self, expression: str, arg: Any = None, timeout_s: float = 300) -> None:
        """Polls `(expression)(arg)` until it is truthy (Playwright's waitForFunction, by polling)."""
        end = time.monotonic() + timeout_s
        while not self.eval(expression, arg):
            if time.monotonic() > end:
                raise TimeoutError(f"waited {timeout_s} s for {expression[:120]}")
            time.sleep(0.1)

    def goto(self, url: str) -> None:
        self.cdp.call("Page.navigate", {"url": url})
        self.wait_for("() => document.readyState === 'complete'", timeout_s=120)

    def click(self, x: float, y: float) -> None:
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.cdp.call(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left" if kind != "mouseMoved" else "none", "clickCount": 1},
            )

    def key(self, key: str, code: str, vk: int, modifiers: int = 0) -> None:
        """A key press as Playwright's keyboard.press sends it (with Control held when modifiers has 2)."""
        if modifiers & 2:
            self.cdp.call(
                "Input.dispatchKeyEvent",
                {
                    "type": "rawKeyDown",
                    "key": "Control",
                    "code": "ControlLeft",
                    "windowsVirtualKeyCode": 17,
                    "modifiers": 2,
                },
            )
        base = {"key": key, "code": code, "windowsVirtualKeyCode": vk, "modifiers": modifiers}
        self.cdp.call("Input.dispatchKeyEvent", {"type": "rawKeyDown", **base})
        self.cdp.call("Input.dispatchKeyEvent", {"type": "keyUp", **base})
        if modifiers & 2:
            self.cdp.call(
                "Input.dispatchKeyEvent",
                {"type": "keyUp", "key": "Control", "code": "ControlLeft", "windowsVirtualKeyCode": 17},
            )

    def heap_mb(self) -> float:
        """JS heap after a garbage collection (as hall.bench.ts reads it)."""
        self.cdp.call("HeapProfiler.collectGarbage")
        used = float(self.cdp.call("Runtime.getHeapUsage")["usedSize"])
        return round(used / 1e5) / 10


def browser_cpu_ms(root: int) -> float:
    """CPU time (user + system) of `root` and every process below it (orbit.ts browserCpuMs)."""
    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        f = stat[stat.rfind(")") + 2 :].split(" ")
        parent[int(name)] = int(f[1])
        cpu[int(name)] = (int(f[11]) + int(f[12])) * tick_ms

    def below(pid: int) -> bool:
        p: int | None = pid
        while p is not None and p > 1:
            if p == root:
                return True
            p = parent.get(p)
        return False

    return sum(ms for pid, ms in cpu.items() if below(pid))


def browser_env(gl: list[str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()}
    # ICU takes the locale from the environment; C/POSIX gives "en-US@posix", which Intl refuses.
    env.update(LANG="en_US.UTF-8", LC_ALL="en_US.UTF-8", LANGUAGE="en_US")
    if gl == GL_FLAGS["swiftshader"]:
        # A Vulkan driver list (the GPU's, set for the other flag sets) would hide SwiftShader's ICD from ANGLE.
        for k in ("VK_DRIVER_FILES", "VK_ICD_FILENAMES"):
            env.pop(k, None)
    return env


@contextmanager
def chromium(binary: str, gl: list[str], extra: list[str] | None = None) -> Iterator[tuple[Page, Cdp, Path]]:
    """A fresh Chromium (own profile) with the GL flags; yields its page, the browser target and its stderr log."""
    profile = Path(tempfile.mkdtemp(prefix="gpubench-profile-"))
    err = profile / "stderr.log"
    with err.open("wb") as errf:
        proc = subprocess.Popen(
            [
                binary,
                *BASE_FLAGS,
                *gl,
                *(extra or []),
                f"--user-data-dir={profile}",
                "--remote-debugging-port=0",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=errf,
            start_new_session=True,
            env=browser_env(gl),
        )
    try:
        port_file = profile / "DevToolsActivePort"
        end = time.monotonic() + 30
        while not (port_file.exists() and len(port_file.read_text().splitlines()) >= 2):
            if proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"Chromium did not start (exit {proc.poll()}): {err.read_text()[-2000:]}")
            time.sleep(0.05)
        port, browser_path = port_file.read_text().splitlines()[:2]
        targets: list[dict[str, Any]] = []
        while not targets:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
                targets = [t for t in json.load(r) if t.get("type") == "page"]
            time.sleep(0.05)
        cdp = Cdp(targets[0]["webSocketDebuggerUrl"])
        browser = Cdp(f"ws://127.0.0.1:{port}{browser_path}")
        page = Page(cdp, proc.pid)
        for domain in ("Page", "Runtime"):
            cdp.call(f"{domain}.enable")
        w, h = VIEWPORT
        cdp.call("Emulation.setLocaleOverride", {"locale": "en-US"})
        cdp.call(
            "Emulation.setDeviceMetricsOverride", {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": False}
        )
        yield page, browser, err
        cdp.close()
        browser.close()
    finally:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


# ---------------------------------------------------------------------------------------------------
# Page-side code, as in the Playwright benchmarks.

RENDERER_JS = """() => {
  const gl = window.__loopline.renderer.getContext();
  const ext = gl.getExtension("WEBGL_debug_renderer_info");
  return ext ? String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : String(gl.getParameter(gl.RENDERER));
}"""

# hall.bench.ts: what the first frames cost.
OPENED_JS = """() => {
  const h = window.__loopline;
  const nav = performance.getEntriesByType("navigation")[0];
  const navStart = nav ? nav.startTime : 0;
  const res = (part) => {
    const e = performance.getEntriesByType("resource").find((r) => r.name.includes(part));
    return e ? { start: Math.round(e.startTime), end: Math.round(e.responseEnd), bytes: e.encodedBodySize } : null;
  };
  const s = h.stats;
  return {
    time_to_first_render_ms: Math.round(s.firstRenderMs - navStart),
    time_to_first_hall_render_ms: Math.round((s.firstHallRenderMs ?? 0) - navStart),
    racks: s.racks,
    cables: s.cables,
    cable_segments: s.cableSegments,
    draw_calls: h.render()?.calls,
    triangles: h.render()?.triangles,
    lines: h.render()?.lines,
    fetches_ms: { layout: res("/layout"), cables: res("/render"), script: res("/assets/index") },
    lod: {
      device_racks: s.deviceRacks, devices: s.devices, cable_lod: s.cableLod, cable_lines_drawn: s.cableLinesDrawn,
    },
    canvas_px: (() => { const c = document.querySelector("canvas"); return c ? [c.width, c.height] : null; })(),
  };
}"""

# hall.bench.ts: a keyboard nudge of the selection, from the keydown to the second animation frame.
NUDGE_JS = """async ({ ids, key }) => {
  const h = window.__loopline;
  h.session.setState({ selection: ids });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const t = performance.now();
  window.dispatchEvent(new KeyboardEvent("keydown", { key }));
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now() - t;
}"""

RECORDS_JS = "() => Object.values(window.__loopline.store.records)"
IDLE_JS = "() => window.__loopline.sync.idle().then(() => true)"
REDRAW_JS = """async () => {
  const t = performance.now();
  window.__loopline.redraw();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now() - t;
}"""

# orbit.ts orbit(): one azimuth step per animation frame through the view's OrbitControls.
ORBIT_JS = """async (o) => {
  const h = window.__loopline;
  const c = h.controls;
  if (!c) throw new Error("the editor exposes no camera controls (window.__loopline.controls)");
  const r = h.renderer;
  const renderMs = [];
  const original = r.render;
  r.render = function (scene, camera) {
    const t = performance.now();
    original.call(this, scene, camera);
    renderMs.push(performance.now() - t);
  };
  const deltas = [];
  const step = (o.stepDeg * Math.PI) / 180;
  await new Promise((resolve) => {
    let start = -1;
    let last = -1;
    const tick = (t) => {
      if (start < 0) start = t;
      else deltas.push(t - last);
      last = t;
      const elapsed = (t - start) / 1000;
      if ((elapsed >= o.minSeconds && deltas.length >= o.minFrames + 2) || elapsed >= o.maxSeconds) return resolve();
      c.setAzimuthalAngle(c.getAzimuthalAngle() + step);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  r.render = original;
  return { deltas: deltas.slice(2), renderMs: renderMs.slice(2), drawn: renderMs.length };
}"""

# orbit.ts drag(): the frames drawn during a real left-drag; started before, stopped after.
DRAG_START_JS = """() => {
  const h = window.__loopline;
  const r = h.renderer;
  const rec = { on: true, deltas: [], renderMs: [], done: null };
  const original = r.render;
  r.render = function (scene, camera) {
    const t = performance.now();
    original.call(this, scene, camera);
    rec.renderMs.push(performance.now() - t);
  };
  rec.done = new Promise((resolve) => {
    let last = -1;
    let drewLast = false;
    let frame = r.info.render.frame;
    const tick = (t) => {
      if (drewLast) rec.deltas.push(t - last);
      drewLast = r.info.render.frame !== frame;
      frame = r.info.render.frame;
      last = t;
      if (!rec.on) {
        r.render = original;
        return resolve();
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  window.__orbitDrag = rec;
  return true;
}"""
DRAG_STOP_JS = """async () => {
  const rec = window.__orbitDrag;
  rec.on = false;
  await rec.done;
  return { deltas: rec.deltas.slice(1), renderMs: rec.renderMs.slice(1), drawn: rec.renderMs.length };
}"""

# edits.bench.ts arm(): the clock starts at the next input event of `kind`, stops one animation frame
# after the renderer drew a frame in which stats[stat] === want; the heap sampled every frame.
ARM_JS = """({ kind, stat, want }) => {
  const heap = () => performance.memory.usedJSHeapSize;
  const h = window.__loopline;
  const before = heap();
  let peak = before;
  window.__benchEdit = new Promise((resolve) => {
    let t0 = 0;
    let seenAt = -1;
    let drawnFrame = -1;
    const tick = () => {
      peak = Math.max(peak, heap());
      const frame = h.render()?.frame ?? 0;
      if (seenAt < 0 && h.stats[stat] === want) {
        seenAt = performance.now();
        drawnFrame = frame;
      } else if (seenAt >= 0 && frame > drawnFrame) {
        const mb = (b) => b / 2 ** 20;
        const render = performance.getEntriesByType("resource").find(
          (e) => e.startTime >= t0 && /\\/wiring-plans\\/\\d+\\/render/.test(e.name),
        );
        return resolve({
          ms: performance.now() - t0,
          commit_ms: seenAt - t0,
          heap_peak_mb: mb(peak),
          heap_before_mb: mb(before),
          render_fetch: render
            ? { start_ms: render.startTime - t0, end_ms: render.responseEnd - t0, mb: render.encodedBodySize / 2 ** 20 }
            : null,
        });
      }
      requestAnimationFrame(tick);
    };
    const start = (e) => {
      window.removeEventListener(kind, start, true);
      t0 = e.timeStamp;
      requestAnimationFrame(tick);
    };
    window.addEventListener(kind, start, true);
  });
  return true;
}"""
FINISH_JS = "() => window.__benchEdit"

# campus.bench.ts / edits.bench.ts: where the scene drew a rack (its instance in the rack InstancedMesh).
RACK_PX_JS = """(id) => {
  const h = window.__loopline;
  const racks = Object.values(h.store.records).filter((r) => r.typeName === "rack");
  let matrices = null;
  h.scene.traverse((o) => {
    if (o.isInstancedMesh && o.count === racks.length) matrices = o.instanceMatrix.array;
  });
  if (!matrices) throw new Error("no instanced mesh with one instance per rack");
  const e = matrices.subarray(racks.findIndex((r) => r.id === id) * 16);
  return h.project(e[12] * 1000, e[14] * 1000, e[5] * 1000);
}"""
SELECTION_JS = "() => window.__loopline.session.getState().selection"
ELEMENT_CENTRE_JS = """(sel) => {
  const el = typeof sel === "string" ? document.querySelector(sel)
    : [...document.querySelectorAll('[role="tab"]')].find((t) => t.textContent.trim() === sel.tab);
  if (!el) return null;
  el.scrollIntoView({ block: "center" });
  const b = el.getBoundingClientRect();
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}"""


def median(xs: list[float]) -> float:
    return float(statistics.median(xs))


def r1(x: float) -> float:
    return round(x * 10) / 10


def frame_stats(deltas: list[float], render_ms: list[float], cpu_ms: float, drawn: int) -> dict[str, Any]:
    s = sorted(deltas)
    # Nearest rank (orbit.ts percentile): the smallest value with at least 90 % at or below it.
    p90 = s[max(0, math.ceil(0.9 * len(s)) - 1)] if s else float("nan")
    return {
        "frames": len(deltas),
        "seconds": r1(sum(deltas) / 1000),
        "median_ms": r1(median(deltas)) if deltas else None,
        "p90_ms": r1(p90),
        "max_ms": r1(max(deltas)) if deltas else None,
        "render_call_median_ms": r1(median(render_ms)) if render_ms else None,
        "cpu_ms_per_frame": r1(cpu_ms / max(1, drawn)),
    }


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    def of(k: str) -> float:
        return r1(median([r[k] for r in runs]))

    return {
        "median_ms": of("median_ms"),
        "p90_ms": of("p90_ms"),
        "cpu_ms_per_frame": of("cpu_ms_per_frame"),
        "runs": runs,
    }


def orbit(page: Page, min_frames: int) -> dict[str, Any]:
    cpu0 = browser_cpu_ms(page.pid)
    o = page.eval(ORBIT_JS, {"minSeconds": 4, "minFrames": min_frames, "maxSeconds": 60, "stepDeg": 1.5}, timeout=120)
    return frame_stats(o["deltas"], o["renderMs"], browser_cpu_ms(page.pid) - cpu0, o["drawn"])


def drag(page: Page, x0: float, y: float, x1: float, steps: int) -> dict[str, Any]:
    page.cdp.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0, "y": y})
    page.eval(DRAG_START_JS)
    cpu0 = browser_cpu_ms(page.pid)
    page.cdp.call(
        "Input.dispatchMouseEvent", {"type": "mousePressed", "x": x0, "y": y, "button": "left", "clickCount": 1}
    )
    for i in range(1, steps + 1):
        x = x0 + (x1 - x0) * i / steps
        page.cdp.call(
            "Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y, "button": "left", "buttons": 1}
        )
    page.cdp.call(
        "Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x1, "y": y, "button": "left", "clickCount": 1}
    )
    d = page.eval(DRAG_STOP_JS, timeout=120)
    return frame_stats(d["deltas"], d["renderMs"], browser_cpu_ms(page.pid) - cpu0, d["drawn"])


def timed_summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """edits.bench.ts summary()."""
    ms = [r["ms"] for r in runs]
    fetched = [r["render_fetch"]["end_ms"] for r in runs if r.get("render_fetch")]
    out: dict[str, Any] = {
        "runs": len(runs),
        "median_ms": r1(median(ms)),
        "min_ms": r1(min(ms)),
        "max_ms": r1(max(ms)),
        "commit_median_ms": r1(median([r["commit_ms"] for r in runs])),
        "js_heap_peak_mb": r1(max(r["heap_peak_mb"] for r in runs)),
        "js_heap_before_mb": r1(median([r["heap_before_mb"] for r in runs])),
        "all_ms": [r1(x) for x in ms],
    }
    if fetched:
        out["render_fetch_end_median_ms"] = r1(median(fetched))
    return out


def login_and_open(page: Page, base: str, login: dict[str, str], hall: dict[str, Any], cables: int) -> None:
    page.goto(f"{base}/")
    status = page.eval(
        """async (body) => (await fetch("/api/v1/auth/login", {
          method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
        })).status""",
        login,
    )
    if status != 200:
        raise RuntimeError(f"login answered {status}")
    page.goto(f"{base}/?project={hall['projectId']}&hall={hall['hallId']}&plan={hall['planId']}")
    page.wait_for(
        "(n) => window.__loopline?.stats.cables === n && window.__loopline.stats.firstRenderMs != null",
        cables,
        timeout_s=900,
    )
    page.wait_for("() => Boolean(window.__loopline.controls)")
    time.sleep(1.0)  # the first frames and the labels settle (orbit.bench.ts, edits.bench.ts)


def nudges(page: Page, row_name: str, rack_only: bool = False) -> dict[str, Any]:
    """hall.bench.ts: a row nudged right/left 10 times, then its last rack 10 times; positions checked."""
    recs: list[dict[str, Any]] = page.eval(RECORDS_JS)
    row = next(r for r in recs if r["typeName"] == "row" and r["name"] == row_name)
    rack = max(
        (r for r in recs if r["typeName"] == "rack" and r.get("rowId") == row["id"]), key=lambda r: r["positionMm"]
    )
    out: dict[str, Any] = {}
    if not rack_only:
        row_ms = [
            page.eval(NUDGE_JS, {"ids": [row["id"]], "key": "ArrowLeft" if i % 2 else "ArrowRight"}) for i in range(10)
        ]
        out["row_nudge_to_frame_ms"] = round(median(row_ms))
        out["row_nudge_all_ms"] = [r1(x) for x in row_ms]
    rack_ms: list[float] = []
    at: list[int] = []
    for i in range(10):
        rack_ms.append(page.eval(NUDGE_JS, {"ids": [rack["id"]], "key": "ArrowLeft" if i % 2 else "ArrowRight"}))
        at.append(page.eval("(id) => window.__loopline.store.records[id].positionMm", rack["id"]))
    want = [rack["positionMm"] + (0 if i % 2 else 600) for i in range(10)]
    if at != want:
        raise AssertionError(f"the rack's positions {at}, expected {want}")
    page.eval(IDLE_JS)
    out.update(rack_move_to_frame_ms=round(median(rack_ms)), rack_move_all_ms=[r1(x) for x in rack_ms])
    out["rack_instances_written_by_the_last_move"] = page.eval("() => window.__loopline.stats.rackInstancesWritten")
    return out


def orbits(page: Page, min_frames: int, drag_steps: int, runs: int) -> dict[str, Any]:
    """orbit.bench.ts measure(): `runs` programmatic orbits, then `runs` drags from the sky above the hall."""
    o = [orbit(page, min_frames) for _ in range(runs)]
    box = page.eval(
        "() => { const b = document.querySelector('canvas').getBoundingClientRect(); "
        "return [b.x, b.y, b.width, b.height]; }"
    )
    x, y, w, h = box
    d = [drag(page, x + w * 0.3, y + h * 0.08, x + w * 0.7, drag_steps) for _ in range(runs)]
    return {"orbit": summarise(o), "drag": summarise(d), "canvas_css_px": [round(w), round(h)]}


def row_duplicates(page: Page, row_name: str, runs: int) -> dict[str, Any]:
    """edits.bench.ts rowDuplicates(): select the row with a click, Ctrl+D `runs` times, each undone."""
    recs: list[dict[str, Any]] = page.eval(RECORDS_JS)
    row = next(r for r in recs if r["typeName"] == "row" and r["name"] == row_name)
    mine = [r for r in recs if r["typeName"] == "rack" and r.get("rowId") == row["id"]]
    copied = sum(1 for r in mine if r.get("role") == "compute")
    first = min(mine, key=lambda r: r["positionMm"])
    racks_before: int = page.eval("() => window.__loopline.stats.racks")
    px = page.eval(RACK_PX_JS, first["id"])
    page.click(px["x"], px["y"])
    wait_selection(page, [row["id"]])
    timed: list[dict[str, Any]] = []
    written: list[int] = []
    for _ in range(runs):
        page.eval(ARM_JS, {"kind": "keydown", "stat": "racks", "want": racks_before + copied})
        page.key("d", "KeyD", 68, modifiers=2)
        timed.append(page.eval(FINISH_JS, timeout=300))
        written.append(page.eval("() => window.__loopline.stats.rackInstancesWritten"))
        page.eval(IDLE_JS)
        page.key("z", "KeyZ", 90, modifiers=2)
        page.wait_for("(n) => window.__loopline.stats.racks === n", racks_before)
        page.eval(IDLE_JS)
        wait_selection(page, [row["id"]])
    return {"row": row_name, "racks_copied": copied, "rack_instances_written": written, **timed_summary(timed)}


def wait_selection(page: Page, want: list[str]) -> None:
    end = time.monotonic() + 30
    while page.eval(SELECTION_JS) != want:
        if time.monotonic() > end:
            raise AssertionError(f"selection {page.eval(SELECTION_JS)}, expected {want}")
        time.sleep(0.05)


def plan_switches(page: Page, plans: list[tuple[int, int]], runs: int) -> dict[str, Any]:
    """edits.bench.ts planSwitches(): 2 x runs clicks in the Plans tab between (id, cables) plans[0] and [1]."""
    (from_id, from_cables), (to_id, to_cables) = plans
    tab = page.eval(ELEMENT_CENTRE_JS, {"tab": "Plans"})
    page.click(tab["x"], tab["y"])
    page.wait_for("(sel) => Boolean(document.querySelector(sel))", f'[data-testid="plan-view-{to_id}"]', timeout_s=60)
    there: list[dict[str, Any]] = []
    back: list[dict[str, Any]] = []
    for i in range(2 * runs):
        target_id, target_cables = (to_id, to_cables) if i % 2 == 0 else (from_id, from_cables)
        page.eval(ARM_JS, {"kind": "click", "stat": "cables", "want": target_cables})
        at = page.eval(ELEMENT_CENTRE_JS, f'[data-testid="plan-view-{target_id}"]')
        page.click(at["x"], at["y"])
        (there if i % 2 == 0 else back).append(page.eval(FINISH_JS, timeout=600))
        time.sleep(0.3)
    lod = page.eval(
        "() => { const s = window.__loopline.stats; "
        "return { cable_lod: s.cableLod, cable_lines_drawn: s.cableLinesDrawn }; }"
    )
    return {
        f"to_{to_cables}_cables": timed_summary(there),
        f"to_{from_cables}_cables": timed_summary(back),
        "both": timed_summary(there + back),
        "lod_after_last": lod,
    }


def case_big(page: Page, base: str, halls: dict[str, Any], runs: int) -> dict[str, Any]:
    big = halls["big"]
    login_and_open(page, base, halls["login"], big, big["planCables"])
    out: dict[str, Any] = {"case": "2000-racks", "renderer": page.eval(RENDERER_JS), **page.eval(OPENED_JS)}
    out["js_heap_mb"] = page.heap_mb()
    out["redraw_frame_ms"] = round(page.eval(REDRAW_JS))
    out.update(nudges(page, "R01"))
    log(f"big: opened {out['time_to_first_render_ms']} ms, rack move {out['rack_move_to_frame_ms']} ms")
    out.update(orbits(page, 20, 30, runs))
    log(f"big: orbit {out['orbit']['median_ms']} / {out['orbit']['p90_ms']} ms")
    out["row_duplicate"] = row_duplicates(page, "R40", runs)
    log(f"big: row duplicate {out['row_duplicate']['median_ms']} ms")
    out["plan_switch"] = plan_switches(
        page, [(big["planId"], big["planCables"]), (big["p1PlanId"], big["p1Cables"])], runs
    )
    log(f"big: plan switch {out['plan_switch']['both']['median_ms']} ms")
    return out


def case_campus(page: Page, base: str, halls: dict[str, Any], runs: int) -> dict[str, Any]:
    campus = halls["campus"]
    login_and_open(page, base, halls["login"], campus, campus["planCables"])
    out: dict[str, Any] = {"case": "campus-10000-racks", "renderer": page.eval(RENDERER_JS), **page.eval(OPENED_JS)}
    if out["racks"] != campus["racks"]:
        raise AssertionError(f"{out['racks']} racks drawn, expected {campus['racks']}")
    out["js_heap_mb"] = page.heap_mb()
    log(f"campus: opened {out['time_to_first_render_ms']} ms, heap {out['js_heap_mb']} MB")
    out.update(nudges(page, "R50", rack_only=True))
    o = [orbit(page, 20) for _ in range(runs)]
    out["orbit"] = summarise(o)
    log(f"campus: orbit {out['orbit']['median_ms']} / {out['orbit']['p90_ms']} ms")
    return out


# ---------------------------------------------------------------------------------------------------

PROBE_JS = """async () => {
  const c = document.createElement("canvas");
  const gl = c.getContext("webgl2") || c.getContext("webgl");
  if (!gl) return { webgl: null };
  const ext = gl.getExtension("WEBGL_debug_renderer_info");
  const out = {
    webgl: gl instanceof WebGL2RenderingContext ? 2 : 1,
    renderer: ext ? String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : String(gl.getParameter(gl.RENDERER)),
    vendor: ext ? String(gl.getParameter(ext.UNMASKED_VENDOR_WEBGL)) : String(gl.getParameter(gl.VENDOR)),
    max_texture: gl.getParameter(gl.MAX_TEXTURE_SIZE),
  };
  try {
    const timeout = new Promise((r) => setTimeout(() => r(null), 3000));
    const a = navigator.gpu ? await Promise.race([navigator.gpu.requestAdapter(), timeout]) : null;
    const i = a && a.info;
    out.webgpu = a
      ? (i ? { vendor: i.vendor, architecture: i.architecture, description: i.description } : "adapter")
      : null;
  } catch (e) { out.webgpu = String(e); }
  return out;
}"""


def probe(binary: str, sets: list[str]) -> list[dict[str, Any]]:
    """Each GL flag set: the WebGL renderer a page gets and the GPU process's own view."""
    found: list[dict[str, Any]] = []
    for name in sets:
        entry: dict[str, Any] = {"flags": name, "args": GL_FLAGS[name]}
        try:
            with chromium(binary, GL_FLAGS[name]) as (page, browser, err):
                entry.update(page.eval(PROBE_JS, timeout=20))
                info = browser.call("SystemInfo.getInfo", timeout=20)["gpu"]
                aux = info.get("auxAttributes", {})
                entry["gpu_process"] = {
                    "devices": [
                        {
                            k: d.get(k)
                            for k in (
                                "vendorString",
                                "deviceString",
                                "driverVendor",
                                "driverVersion",
                                "vendorId",
                                "deviceId",
                            )
                        }
                        for d in info.get("devices", [])
                    ],
                    "gl_renderer": aux.get("glRenderer"),
                    "gl_implementation_parts": aux.get("glImplementationParts"),
                    "feature_status": info.get("featureStatus"),
                }
                time.sleep(0.2)
                entry["stderr_tail"] = err.read_text(errors="replace")[-1500:]
        except Exception as e:  # a flag set that does not start is a finding, not the end of the probe
            entry["error"] = f"{type(e).__name__}: {e}"[:1500]
        entry["software"] = bool(SOFTWARE.search(str(entry.get("renderer", "")))) if entry.get("renderer") else None
        log(f"probe {name}: {entry.get('renderer') or entry.get('error')}")
        found.append(entry)
    return found


def bench(
    binary: str,
    gl: str,
    base: str,
    halls: dict[str, Any],
    cases: list[str],
    runs: int,
    out: Path | None,
    result: dict[str, Any],
) -> None:
    """Each case in a fresh Chromium; `result` (with the probe, if any) written to `out` after each."""
    result.update(gl_flags=gl, args=GL_FLAGS[gl], cases={})
    for case in cases:
        t = time.monotonic()
        try:
            with chromium(binary, GL_FLAGS[gl]) as (page, _browser, _err):
                fn = case_big if case == "big" else case_campus
                result["cases"][case] = fn(page, base, halls, runs)
        except Exception as e:  # the other case still runs; the failure is in the result
            result["cases"][case] = {"error": f"{type(e).__name__}: {e}"[:3000]}
            log(f"{case}: {result['cases'][case]['error']}")
        result["cases"][case]["wall_s"] = round(time.monotonic() - t, 1)
        if out:
            out.write_text(json.dumps(result, indent=1))


def main(argv: list[str]) -> int:
    # A timeout's SIGTERM unwinds through `chromium`'s finally, which kills the browser's process group.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("record", "replay", "probe"):
        s = sub.add_parser(name)
        s.add_argument("--chromium", required=True, help="the Chromium (headless shell) binary")
        s.add_argument("--out", type=Path, help="the result as JSON")
        if name != "probe":
            s.add_argument("--dist", type=Path, required=True, help="the editor's build (vite build output)")
            s.add_argument("--gl", default="swiftshader", help=f"one of {', '.join(GL_FLAGS)}, or auto (probe first)")
            s.add_argument("--cases", default="big,campus")
            s.add_argument("--runs", type=int, default=RUNS)
        if name == "record":
            s.add_argument("--api", required=True, help="the running stack, e.g. http://127.0.0.1:8765")
            s.add_argument("--halls", type=Path, required=True, help="halls.setup.ts's output")
            s.add_argument("--save", type=Path, required=True, help="where the recording goes")
        if name == "replay":
            s.add_argument("--recording", type=Path, required=True)
        if name == "probe":
            s.add_argument("--sets", default=",".join(GL_FLAGS))
    a = p.parse_args(argv)
    if a.cmd == "probe":
        found = probe(a.chromium, a.sets.split(","))
        text = json.dumps({"probe": found}, indent=1)
        if a.out:
            a.out.write_text(text)
        print(text)
        return 0
    cases = a.cases.split(",")
    if a.cmd == "record":
        halls = json.loads(a.halls.read_text())
        rec = Recording(
            {"halls": halls, "recorded": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "cases": cases}
        )
        upstream: str | None = a.api
    else:
        rec = Recording.load(a.recording)
        halls = rec.meta["halls"]
        upstream = None
        log(f"recording: {len(rec.entries)} responses, {sum(len(e['body']) for e in rec.entries) / 2**20:.1f} MiB")
    result: dict[str, Any] = {"mode": a.cmd}
    gl = a.gl
    if gl == "auto":
        result["probe"] = probe(a.chromium, [s for s in GL_FLAGS if s != "swiftshader"])
        if a.out:
            a.out.write_text(json.dumps(result, indent=1))
        hardware = [e for e in result["probe"] if e.get("software") is False]
        if not hardware:
            result["error"] = "no GL flag set gave a hardware WebGL renderer: nothing benchmarked"
            if a.out:
                a.out.write_text(json.dumps(result, indent=1))
            print(json.dumps(result, indent=1))
            return 3
        gl = hardware[0]["flags"]
    server = make_server(a.dist, rec, upstream)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        bench(a.chromium, gl, base, halls, cases, a.runs, a.out, result)
    finally:
        server.shutdown()
    result["api_answers"] = rec.served if upstream is None else len(rec.entries)
    result["api_misses"] = rec.misses[:50]
    result["api_miss_count"] = len(rec.misses)
    if a.cmd == "record":
        rec.save(a.save)
        log(f"saved {len(rec.entries)} responses to {a.save} ({a.save.stat().st_size / 2**20:.1f} MiB)")
    text = json.dumps(result, indent=1)
    if a.out:
        a.out.write_text(text)
    print(text)
    failed = [c for c, r in result["cases"].items() if "error" in r]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
