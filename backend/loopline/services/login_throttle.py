"""Failed logins slow down whoever makes them: per account and per address, with backoff.

Each wrong password costs an argon2 check (~0.4 s of CPU) and is a guess. After `FREE_FAILURES`
failures on one account (or `FREE_FAILURES_PER_ADDRESS` from one address) within `WINDOW_S`,
the next attempt must wait 2, 4, 8 ... seconds after the last failure; a count is forgotten
`WINDOW_S` after its last failure; an attempt made sooner is answered 429 with `Retry-After`,
before any password is checked.

- **Atomic.** An attempt is counted as a failure *before* its password is checked, in one Redis
  transaction that first checks both waits (WATCH/MULTI: a concurrent attempt makes it start
  over). Sixty parallel wrong passwords for one account get `FREE_FAILURES` checks, not one per
  request that read the count before any was written. A success clears the account's count and
  takes its own attempt back from the address's.
- **No long lock-out of the real owner.** The per-account wait stops growing at
  `MAX_ACCOUNT_WAIT_S` (a minute): someone guessing at an account from many addresses keeps its
  owner out for at most a minute per attempt, and gets at most one guess a minute (1,440 a day
  against passwords zxcvbn scores 3 of 4, i.e. over 10^8 guesses). Per address the wait grows to
  `MAX_WAIT_S` (15 minutes): that one is the attacker's own.
- **Redis down: fail closed.** The counts live in Redis (the broker), outside the request's
  transaction, which a failed login rolls back. When Redis cannot be reached, login and
  registration answer 503 with `Retry-After` (`ThrottleUnavailable`) rather than check passwords
  unthrottled: an outage (or an attacker able to cause one) must not open unlimited guessing, and
  a second store of the same counts would have to be merged when Redis returns. Redis restarts in
  seconds (append-only file); everything else in the API keeps working meanwhile.

Registrations are counted the same way, per address (`RegistrationThrottle`): each one costs an
argon2 hash whether the address is new or not (so that the answer does not tell), and after
`FREE_REGISTRATIONS_PER_ADDRESS` within `WINDOW_S` the next must wait 2, 4, 8 ... seconds.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import redis
from redis.client import Pipeline

from loopline.domain.errors import DomainError

FREE_FAILURES = 5
FREE_FAILURES_PER_ADDRESS = 20
FREE_REGISTRATIONS_PER_ADDRESS = 10
WINDOW_S = 15 * 60
MAX_WAIT_S = 15 * 60
MAX_ACCOUNT_WAIT_S = 60
"""The longest an account's owner waits because of someone else's failures (see above)."""
UNAVAILABLE_RETRY_AFTER_S = 5
_PREFIX = "loopline:login-failures"
REGISTRATION_PREFIX = "loopline:registrations"


class TooManyAttempts(DomainError):
    status = 429

    def __init__(self, field: str, reason: str, retry_after_s: int) -> None:
        super().__init__(field, reason)
        self.retry_after_s = retry_after_s


class ThrottleUnavailable(DomainError):
    """The counts cannot be read: no password is checked (503 + Retry-After)."""

    status = 503

    def __init__(self, field: str) -> None:
        super().__init__(
            field,
            "attempts cannot be counted right now (the broker is unreachable): try again in a few seconds",
        )
        self.retry_after_s = UNAVAILABLE_RETRY_AFTER_S


def backoff_s(failures: int, free: int, cap: int = MAX_WAIT_S) -> int:
    """Seconds to wait after the last of `failures` failures (0 while within the free ones)."""
    if failures < free:
        return 0
    return int(min(cap, 2 ** min(failures - free + 1, 32)))


@dataclass(frozen=True, slots=True)
class Limit:
    key: str
    free: int
    cap: int
    field: str
    reason: str
    """`{seconds}` is filled in."""


def _attempt(client: redis.Redis, limits: Sequence[Limit]) -> None:
    """Count one attempt under every limit, or raise `TooManyAttempts` (counting nothing) if one of
    them must still wait. Atomic: the counts are watched from read to write."""

    def transaction(pipe: Pipeline) -> None:
        now = time.time()
        for limit in limits:
            failures, last = cast(list[bytes | None], pipe.hmget(limit.key, ["failures", "last"]))
            if failures is None or last is None:
                continue
            backoff = backoff_s(int(failures), limit.free, limit.cap)
            if backoff == 0:
                continue
            # A concurrent `failed()` may have stamped `last` after `now` was read: not a wait.
            wait = backoff - max(0.0, now - float(last))
            if wait > 0:
                seconds = int(wait) + 1
                raise TooManyAttempts(limit.field, limit.reason.format(seconds=seconds), retry_after_s=seconds)
        pipe.multi()
        for limit in limits:
            pipe.hincrby(limit.key, "failures", 1)
            pipe.hset(limit.key, "last", repr(now))
            pipe.expire(limit.key, WINDOW_S)

    try:
        client.transaction(transaction, *(limit.key for limit in limits))
    except redis.RedisError:
        raise ThrottleUnavailable(limits[0].field) from None


@dataclass(frozen=True, slots=True)
class LoginThrottle:
    client: redis.Redis

    @classmethod
    def of(cls, url: str) -> LoginThrottle:
        return cls(redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2))

    def _keys(self, email: str, address: str) -> tuple[str, str]:
        return f"{_PREFIX}:account:{email.strip().lower()}", f"{_PREFIX}:address:{address}"

    def attempt(self, email: str, address: str) -> None:
        """Before the password is checked: count this attempt as a failure of the account and of the
        address, or raise `TooManyAttempts` if either must still wait (`ThrottleUnavailable` if the
        counts cannot be reached)."""
        account, by_address = self._keys(email, address)
        _attempt(
            self.client,
            (
                Limit(account, FREE_FAILURES, MAX_ACCOUNT_WAIT_S, "password",
                      "too many failed logins for this account: try again in {seconds} s"),
                Limit(by_address, FREE_FAILURES_PER_ADDRESS, MAX_WAIT_S, "password",
                      "too many failed logins from your address: try again in {seconds} s"),
            ),
        )  # fmt: skip

    def failed(self, email: str, address: str) -> None:
        """The password was wrong (already counted): the wait runs from now, the end of the check."""
        now = repr(time.time())
        try:
            pipe = self.client.pipeline()
            for key in self._keys(email, address):
                pipe.hset(key, "last", now)
            pipe.execute()  # type: ignore[no-untyped-call]
        except redis.RedisError:
            pass  # counted already; the wait runs from the attempt instead

    def succeeded(self, email: str, address: str) -> None:
        """The password was right: the account's count is cleared, the address's attempt taken back."""
        account, by_address = self._keys(email, address)
        try:
            pipe = self.client.pipeline()
            pipe.delete(account)
            pipe.hincrby(by_address, "failures", -1)
            pipe.execute()  # type: ignore[no-untyped-call]
        except redis.RedisError:
            pass  # the login stands; the counts only stay as strict as they were


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
        reason = "too many registrations from your address: try again in {seconds} s"
        _attempt(self.client, (Limit(key, FREE_REGISTRATIONS_PER_ADDRESS, MAX_WAIT_S, "email", reason),))
