"""A result's per-flow values as the browser reads them."""

from __future__ import annotations

import struct

from loopline.domain.sim_results import sorted_float64


def test_sorted_values_are_little_endian_float64() -> None:
    packed = sorted_float64([0.005, 1e-9, 2.5, 0.005])
    assert struct.unpack("<4d", packed) == (1e-9, 0.005, 0.005, 2.5)
    assert sorted_float64([]) == b""
