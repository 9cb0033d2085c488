"""Names, TIA-606 style labels and stable cable IDs, all derived from layout names (never DB ids).

- device: ``<hall>.<row>.<rack>.U<nn>`` (lowest U of the device), e.g. ``H1.R03.K07.U22``;
- port: ``p<n>`` on a server NIC, ``e<n>`` on a switch (named by the wiring: `wiring.generate`);
- label: ``<A device>:<A port> / <B device>:<B port>``, printed the same at both ends;
- cable ID: ``C`` + 16 hex digits of BLAKE2b over the two port names in sorted order, so the same
  two ports give the same ID whichever end is called A, in every regeneration and upgrade.
"""

from __future__ import annotations

from hashlib import blake2b


def rack_name(hall: str, row: str, rack: str) -> str:
    return f"{hall}.{row}.{rack}"


def device_name(rack_full_name: str, u: int) -> str:
    return f"{rack_full_name}.U{u:02d}"


def cable_label(a_device: str, a_port: str, b_device: str, b_port: str) -> str:
    return f"{a_device}:{a_port} / {b_device}:{b_port}"


def cable_id(a_device: str, a_port: str, b_device: str, b_port: str) -> str:
    a = f"{a_device}:{a_port}"
    b = f"{b_device}:{b_port}"
    key = f"{a}|{b}" if a <= b else f"{b}|{a}"
    return "C" + blake2b(key.encode(), digest_size=8).hexdigest()


def label_halves(label: str) -> tuple[str, str]:
    """The two ends of a label (`A:port / B:port`), as printed on two lines of a label sheet."""
    a, sep, b = label.partition(" / ")
    return (a, b) if sep else (label, "")
