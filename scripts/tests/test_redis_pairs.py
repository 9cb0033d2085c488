"""Test sessions and stacks of their own each take a Redis database pair no running process holds
(`stack.claim_redis_pair`): two on one broker database would run each other's jobs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import stack

PORT = int(json.loads((stack.ROOT / ".run" / "ports.json").read_text())["redis"])


def test_a_held_pair_is_not_given_twice_and_comes_back_when_released() -> None:
    first = stack.claim_redis_pair(PORT, 12)
    try:
        assert first in stack.REDIS_PAIRS
        second = stack.claim_redis_pair(PORT, first)
        try:
            assert second != first and second in stack.REDIS_PAIRS
        finally:
            stack.release_redis_pair(PORT, second)
    finally:
        stack.release_redis_pair(PORT, first)
    again = stack.claim_redis_pair(PORT, first)
    stack.release_redis_pair(PORT, again)
    assert again == first


def test_a_dead_holders_pair_is_taken_over_and_anothers_is_never_released() -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    key = "loopline:redis-pair:14"
    held = stack._redis(PORT, "GET", key)
    if held.isdigit() and stack.pid_alive(int(held)):
        return  # a running session holds 14 now: nothing to try here
    stack._redis(PORT, "SET", key, str(gone.pid))
    assert stack.claim_redis_pair(PORT, 14) == 14
    assert stack._redis(PORT, "GET", key) == str(stack.os.getpid())
    stack._redis(PORT, "SET", key, "1")  # pid 1 is alive and not us: its claim stands
    stack.release_redis_pair(PORT, 14)
    assert stack._redis(PORT, "GET", key) == "1"
    stack._redis(PORT, "DEL", key)
