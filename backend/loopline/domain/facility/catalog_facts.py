"""Facts of the builtin catalog, each from a named datasheet or standard (`source`).

The builtin catalog's entries are generic ("48x25G+8x100G ToR"); each is given the figures of one
named product of that kind, and says which. A figure no source gives stays None: the check that
needs it then says which fact is missing instead of guessing.
"""

from __future__ import annotations

from loopline.domain.facility.model import CableFacts, DeviceFacts, OpticFacts, PduModel, TraySpec

SERVER_FACTS: dict[str, DeviceFacts] = {}
"""Builtin server model name -> facts."""
SWITCH_FACTS: dict[str, DeviceFacts] = {}
"""Builtin switch model name -> facts."""
RACK_TYPE_FACTS: dict[str, DeviceFacts] = {}
"""Builtin rack type name -> its own weight (`weight_kg`) and source."""
RACK_TYPE_STATIC_LOAD_KG: dict[str, float] = {}
PDU_MODELS: tuple[PduModel, ...] = ()
CABLE_FACTS: dict[str, CableFacts] = {}
"""Media part number (`loopline.domain.media`) -> facts."""
OPTIC_FACTS: dict[str, OpticFacts] = {}
"""Transceiver, AOC or active copper part number -> watts per end."""
DEFAULT_TRAY: TraySpec | None = None
DEFAULT_TRAY_SOURCE = ""
DEFAULT_FLOOR_LOAD_KG_M2: float | None = None
DEFAULT_FLOOR_LOAD_SOURCE = ""
