"""Lengths change unit in one place: metres at the API, whole millimetres behind it."""

from __future__ import annotations

from loopline.domain.units import m, mm


def test_metres_become_whole_millimetres() -> None:
    assert mm(0.6) == 600
    assert mm(1.2) == 1200
    assert mm(14) == 14000
    assert mm(0.0004) == 0
    assert mm(0.0015) == 2


def test_millimetres_become_metres_and_back() -> None:
    assert m(600) == 0.6
    assert m(0) == 0.0
    assert all(mm(m(x)) == x for x in range(0, 1_000_001, 7))
