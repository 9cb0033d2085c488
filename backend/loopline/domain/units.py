"""Units at the edge: the API speaks metres, everything behind it integer millimetres.

The one place lengths change unit. Request schemas convert with `mm`, read schemas with `m`
(`api/schemas/common.py` declares which fields), so services and the domain see millimetres only.
"""

from __future__ import annotations


def mm(metres: float) -> int:
    """Metres to whole millimetres, rounded half to even (`round`)."""
    return round(metres * 1000)


def m(millimetres: int) -> float:
    """Millimetres to metres."""
    return millimetres / 1000
