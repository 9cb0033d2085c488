"""Failed logins slow down whoever makes them: per account and per address, with backoff.

Each wrong password costs an argon2 check (~0.4 s of CPU) and is a guess. After `FREE_FAILURES`
failures on one account (or `FREE_FAILURES_PER_ADDRESS` from one address) within `WINDOW_S`,
the next attempt must wait 2, 4, 8 ... seconds (at most `MAX_WAIT_S`) after the last failure;
a count is forgotten `WINDOW_S` after its last failure;
an attempt made sooner is answered 429 with `Retry-After`, before any password is checked. A
successful login clears its account's count. The counts live in Redis (the broker), outside the
request's transaction, which a failed login rolls back.

Registrations are counted the same way, per address (`RegistrationThrottle`): each one costs an
argon2 hash whether the address is new or not (so that the answer does not tell), and after
`FREE_REGISTRATIONS_PER_ADDRESS` within `WINDOW_S` the next must wait 2, 4, 8 ... seconds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import cast

import redis

from loopline.domain.errors import DomainError

FREE_FAILURES = 5
FREE_FAILURES_PER_ADDRESS = 20
FREE_REGISTRATIONS_PER_ADDRESS = 10
WINDOW_S = 15 * 60
MAX_WAIT_S = 15 * 60
_PREFIX = "loopline:login-failures"
REGISTRATION_PREFIX = "loopline:registrations"


class TooManyAttempts(DomainError):
    status = 429

    def __init__(self, field: str, reason: str, retry_after_s: int) -> None:
        super().__init__(field, reason)
        self.retry_after_s = retry_after_s


def backoff_s(failures: int, free: int) -> int:
    """Seconds to wait after the last of `failures` failures (0 while within the free ones)."""
    if failures < free:
        return 0
    return int(min(MAX_WAIT_S, 2 ** (failures - free + 1)))


def _wait_s(client: redis.Redis, key: str, free: int) -> int:
    """Whole seconds still to wait before the next attempt counted under `key` (0: go ahead)."""
    failures, last = cast(list[bytes | None], client.hmget(key, ["failures", "last"]))
    if failures is None or last is None:
        return 0
    wait = backoff_s(int(failures), free) - (time.time() - float(last))
    return int(wait) + 1 if wait > 0 else 0


def _count(client: redis.Redis, *keys: str) -> None:
    pipe = client.pipeline()
    for key in keys:
        pipe.hincrby(key, "failures", 1)
        pipe.hset(key, "last", repr(time.time()))
        pipe.expire(key, WINDOW_S)
    pipe.execute()  # type: ignore[no-untyped-call]


@dataclass(frozen=True, slots=True)
class LoginThrottle:
    client: redis.Redis

    @classmethod
    def of(cls, url: str) -> LoginThrottle:
        return cls(redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2))

    def _keys(self, email: str, address: str) -> tuple[str, str]:
        return f"{_PREFIX}:account:{email.strip().lower()}", f"{_PREFIX}:address:{address}"

    def check(self, email: str, address: str) -> None:
        """Raise `TooManyAttempts` if this account or address must still wait."""
        account, by_address = self._keys(email, address)
        limits = ((account, FREE_FAILURES, "this account"), (by_address, FREE_FAILURES_PER_ADDRESS, "your address"))
        for key, free, what in limits:
            seconds = _wait_s(self.client, key, free)
            if seconds:
                raise TooManyAttempts(
                    "password",
                    f"too many failed logins for {what}: try again in {seconds} s",
                    retry_after_s=seconds,
                )

    def failed(self, email: str, address: str) -> None:
        _count(self.client, *self._keys(email, address))

    def succeeded(self, email: str) -> None:
        self.client.delete(self._keys(email, "")[0])


@dataclass(frozen=True, slots=True)
class RegistrationThrottle:
    """Every registration counts (a new address and a taken one must look alike), per address."""

    client: redis.Redis

    @classmethod
    def of(cls, url: str) -> RegistrationThrottle:
        return cls(redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2))

    def attempt(self, address: str) -> None:
        """Count one registration from `address`, or raise `TooManyAttempts` if it must still wait."""
        key = f"{REGISTRATION_PREFIX}:address:{address}"
        seconds = _wait_s(self.client, key, FREE_REGISTRATIONS_PER_ADDRESS)
        if seconds:
            raise TooManyAttempts(
                "email", f"too many registrations from your address: try again in {seconds} s", retry_after_s=seconds
            )
        _count(self.client, key)
