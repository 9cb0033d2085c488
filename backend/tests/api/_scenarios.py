"""Small engine scenarios the API tests submit, with figures derived by hand."""

from __future__ import annotations

from typing import Any


def two_racks() -> dict[str, Any]:
    """Two ToRs under one spine, two servers each: 2 links within a rack, 4 across."""
    nodes: list[dict[str, Any]] = [{"id": "SP", "role": "spine", "layer": 2}]
    links: list[dict[str, Any]] = []
    for r in "AB":
        nodes.append({"id": f"T{r}", "role": "tor", "layer": 1})
        links.append({"id": f"U{r}", "a": f"T{r}", "b": "SP", "gbps": 100})
        for i in (0, 1):
            nodes.append({"id": f"{r}{i}", "role": "server", "layer": 0, "logical_rack": r})
            links.append({"id": f"L{r}{i}", "a": f"{r}{i}", "b": f"T{r}", "gbps": 25})
    return {"nodes": nodes, "links": links}


def shuffle(mode: str = "packet", bytes_per_pair: int = 15_000) -> dict[str, Any]:
    """A shuffle of the 4 servers of `two_racks`: 4 x 3 = 12 flows."""
    return {
        "schema_version": 1,
        "network": two_racks(),
        "workload": {"type": "shuffle", "bytes_per_pair": bytes_per_pair},
        "engine": {"mode": mode, "seed": 1, "failures": []},
    }
