"""Port speeds a hall's devices can run, and the hall with its links at a chosen speed (sweeps).

Two kinds of link: server links (server NIC port <-> ToR downlink, and GRIN's server <-> server)
and fabric links (ToR uplink <-> aggregation/spine downlink, aggregation uplink <-> core). A
device's port runs at its nominal speed or a slower speed of the media catalog (an SFP28 port at
10G, a QSFP28 port at 40 or 50G), never faster. The wiring generator gives a link the slower of
its two ends, so a hall whose ports of one kind all run at G gives every link of that kind G Gb/s:
the media chosen at that speed, the bill of materials and the engine's link rates all follow.
The devices (and so the switch lines of the BOM) stay what they are: the same hardware, slower
ports. A faster speed than a device's ports is refused, naming the device.
"""

from __future__ import annotations

from dataclasses import replace

from loopline.domain.errors import DomainError
from loopline.domain.layout import FabricSwitch, Hall, LogicalRack, ServerModel, SwitchModel
from loopline.domain.media import MediaCatalog, default_catalog


def media_speeds(catalog: MediaCatalog | None = None) -> tuple[float, ...]:
    """Speeds the media catalog has cables or optics for, ascending."""
    return tuple(sorted({o.gbps for o in (catalog or default_catalog()).options}))


def _limits(hall: Hall, kind: str) -> list[tuple[float, str]]:
    """(port speed, which device) for every device port a link of `kind` ("server" or "fabric") ends on."""
    out: dict[tuple[float, str], None] = {}
    for row in hall.rows:
        for rk in row.racks:
            for lr in rk.logical_racks:
                if kind == "server":
                    out[
                        (
                            lr.server_model.port_gbps,
                            f"the NIC ports of server model {lr.server_model.name!r} (rack {rk.name})",
                        )
                    ] = None
                    out[
                        (
                            lr.tor_model.server_port_gbps,
                            f"the server ports of ToR model {lr.tor_model.name!r} (rack {rk.name})",
                        )
                    ] = None
                else:
                    out[
                        (
                            lr.tor_model.uplink_gbps,
                            f"the uplink ports of ToR model {lr.tor_model.name!r} (rack {rk.name})",
                        )
                    ] = None
            if kind == "fabric":
                for fs in rk.fabric_switches:
                    m = fs.model
                    out[(m.server_port_gbps, f"the downlink ports of {fs.role} {fs.name} ({m.name!r})")] = None
                    if fs.role == "agg":
                        out[(m.uplink_gbps, f"the uplink ports of {fs.role} {fs.name} ({m.name!r})")] = None
    return sorted(out)


def buildable(hall: Hall, kind: str, catalog: MediaCatalog | None = None) -> tuple[float, ...]:
    """The media catalog's speeds every device port of `kind` can run (none faster than the slowest port)."""
    limits = _limits(hall, kind)
    if not limits:
        return ()
    slowest = limits[0][0]
    return tuple(g for g in media_speeds(catalog) if g <= slowest)


def check(hall: Hall, kind: str, gbps: float, field: str, catalog: MediaCatalog | None = None) -> None:
    """DomainError naming `field` when the catalog has no medium at `gbps` or a device's port is slower."""
    speeds = media_speeds(catalog)
    if gbps not in speeds:
        raise DomainError(
            field, f"no cable or optic in the catalog runs {gbps:g} Gb/s (catalog speeds: {_gb(speeds)} Gb/s)"
        )
    limits = _limits(hall, kind)
    if not limits:
        raise DomainError(field, f"hall {hall.name} has no {'servers' if kind == 'server' else 'fabric'} to run it")
    slowest, device = limits[0]
    if gbps > slowest:
        ok = _gb(buildable(hall, kind, catalog)) or "none"
        raise DomainError(
            field,
            f"{gbps:g} Gb/s {kind} links cannot be built: {device} run at most {slowest:g} Gb/s "
            f"(this hall builds {kind} links at {ok} Gb/s)",
        )


def _gb(speeds: tuple[float, ...]) -> str:
    return ", ".join(f"{g:g}" for g in speeds)


def at_speeds(hall: Hall, server_gbps: float | None, fabric_gbps: float | None) -> Hall:
    """`hall` with its server ports running at `server_gbps` and its fabric ports at `fabric_gbps`
    (None: as they are). Check each with `check` first: this only sets the speeds."""
    if server_gbps is None and fabric_gbps is None:
        return hall
    servers: dict[ServerModel, ServerModel] = {}
    tors: dict[SwitchModel, SwitchModel] = {}
    uppers: dict[SwitchModel, SwitchModel] = {}

    def server(m: ServerModel) -> ServerModel:
        if server_gbps is None:
            return m
        return servers.setdefault(m, replace(m, port_gbps=server_gbps))

    def tor(m: SwitchModel) -> SwitchModel:
        found = tors.get(m)
        if found is None:
            found = tors[m] = replace(
                m,
                server_port_gbps=m.server_port_gbps if server_gbps is None else server_gbps,
                uplink_gbps=m.uplink_gbps if fabric_gbps is None else fabric_gbps,
            )
        return found

    def upper(fs: FabricSwitch) -> FabricSwitch:
        if fabric_gbps is None:
            return fs
        m = uppers.setdefault(fs.model, replace(fs.model, server_port_gbps=fabric_gbps, uplink_gbps=fabric_gbps))
        return replace(fs, model=m)

    def lr(x: LogicalRack) -> LogicalRack:
        return replace(x, server_model=server(x.server_model), tor_model=tor(x.tor_model))

    rows = tuple(
        replace(
            row,
            racks=tuple(
                replace(
                    rk,
                    logical_racks=tuple(lr(x) for x in rk.logical_racks),
                    fabric_switches=tuple(upper(fs) for fs in rk.fabric_switches),
                )
                for rk in row.racks
            ),
        )
        for row in hall.rows
    )
    return replace(hall, rows=rows)
