"""One settings object, read from `LOOPLINE_*` environment variables (see .env.example)."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from pathlib import Path

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]

_DEV_SECRET = "dev-only-secret-change-me"  # noqa: S105 - refused outside local/test

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(value: str) -> tuple[Network, ...]:
    """`"10.0.0.1, 192.168.0.0/16, ::1"` -> networks; ValueError naming the bad entry."""
    networks = []
    for entry in (e.strip() for e in value.split(",")):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"{entry!r} is not an IP address or network (e.g. 10.0.0.1 or 10.0.0.0/8)") from None
    return tuple(networks)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LOOPLINE_", env_file=None, extra="ignore")

    env: str = "local"
    """`local`, `test` or `production`; outside local/test a real secret is required."""
    database_url: str = "postgresql+psycopg://loopline@127.0.0.1:54329/loopline"
    broker_url: str = "redis://127.0.0.1:63799/0"
    result_backend: str = "redis://127.0.0.1:63799/1"
    broker_visibility_timeout_s: int = Field(default=300, ge=1)
    """Seconds a task of a worker that died outright (not just its pool process) stays
    unacknowledged before the broker hands it out again. A live worker's long job handed out again
    is not run twice: its heartbeat says it is alive, and the second delivery does nothing."""
    job_heartbeat_s: float = Field(default=10.0, gt=0)
    """How often a worker running a job says so (the job row's `heartbeat_at`)."""
    job_stale_after_s: float = Field(default=60.0, gt=0)
    """A running job whose worker has not beaten for this long has lost its worker: the
    reconciler sends it again. Several heartbeats long, so a busy machine is not taken for dead."""
    job_queued_grace_s: float = Field(default=60.0, ge=0)
    """A queued job whose message is not in the broker for this long is sent again."""
    reconcile_every_s: float = Field(default=60.0, gt=0)
    """How often each worker looks for lost jobs (and once when it starts)."""
    queued_work_per_user_s: float = Field(default=1800.0, gt=0)
    """Estimated engine seconds one user may have queued or running at once (429 beyond)."""
    queued_work_per_project_s: float = Field(default=3600.0, gt=0)
    """Estimated engine seconds one project may have queued or running at once (429 beyond)."""
    secret_key: str = _DEV_SECRET
    engine_binary: Path = REPO_ROOT / "sim-engine" / "target" / "release" / "loopline-sim"
    frontend_dist: Path = REPO_ROOT / "frontend" / "dist"
    session_cookie_secure: bool = False
    session_ttl_hours: int = 24 * 7
    engine_time_limit_s: int = 600
    engine_memory_limit_mb: int = 4096
    health_worker_timeout_s: float = 5.0
    api_concurrency: int = Field(default=15, ge=1, le=24)
    """API requests run at once in the default lane (each holds a thread and a database
    connection); the rest queue. At most 24: with the other lanes' 16 at most, the thread pool's
    40 threads hold them all."""
    api_cheap_slots: int = Field(default=4, ge=1, le=8)
    """Slots of the lane for cheap reads (who am I, project and token lists): they never wait
    behind the default lane's queue."""
    api_export_slots: int = Field(default=4, ge=1, le=8)
    """Slots of the lane for file downloads, whose streamed bodies hold a database connection."""
    api_send_timeout_s: float = Field(default=30.0, gt=0)
    """A client that reads nothing of a response for this long is disconnected."""
    max_body_mb: int = Field(default=32, ge=1)
    """Largest request body accepted (413 beyond): a project import or a 24 MB scenario fits."""
    api_queue_timeout_s: float = Field(default=30.0, gt=0)
    """How long a queued request waits for its turn before it is answered 503 + Retry-After."""
    api_lanes_socket: str | None = None
    """Set in the public API process (the front): the Unix socket of the lanes process, to which it
    relays every request but health and the cheap lane (`api/relay.py`). Unset: one process does all."""
    api_relayed: bool = False
    """Set in the lanes process: what comes over its socket comes from the front, whose
    `X-Forwarded-For` / `-Proto` it believes (no other peer can reach the socket)."""
    trusted_proxies: str = ""
    """Reverse proxies whose `X-Forwarded-For` / `-Proto` are believed, comma-separated addresses or
    networks (`10.0.0.1, 192.168.0.0/16`); none by default, loopback included (`api/forwarded.py`)."""

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: str) -> str:
        parse_networks(value)
        return value

    @property
    def trusted_proxy_networks(self) -> tuple[Network, ...]:
        return parse_networks(self.trusted_proxies)

    @property
    def api_slots(self) -> int:
        """Requests that may hold a database connection at once, over every lane."""
        return self.api_concurrency + self.api_cheap_slots + self.api_export_slots

    @property
    def local(self) -> bool:
        """Local development or tests: plain HTTP on 127.0.0.1 (no HSTS, cookies without Secure)."""
        return self.env in ("local", "test")

    @model_validator(mode="after")
    def _refuse_default_secret(self) -> Settings:
        if not self.local and self.secret_key == _DEV_SECRET:
            raise ValueError("LOOPLINE_SECRET_KEY must be set outside local and test environments")
        return self


@lru_cache
def get_settings() -> Settings:
    return Settings()
