"""Media catalog, default price book and per-link media selection (DESIGN §3.4).

A `MediaOption` is one way to build a link at one speed: a passive DAC, an active copper cable
(ACC/AEC), an AOC, or a transceiver pair + fibre patch cord/trunk. It is sold in fixed lengths and
reaches at most `reach_mm`. `MediaSelector.select(gbps, length_mm)` picks, for a length that already
includes service allowance and slack, the cheapest option that reaches, and the ordered length
(the next sold length, or the length itself when the geometry does not round). With the default
price book that is a passive DAC within its reach, else ACC/AEC up to 7 m, else an AOC or optics.

Prices: `PriceBook` maps part numbers to a base price + price per metre, each tagged "default" or
"project" (a project's overrides replace the defaults part by part), in one currency. The default
book is in `DEFAULT_CURRENCY`; a project book in another currency does not fall back on it (a total
never adds two currencies). Media selection ranks options with the default book, so a plan's parts
do not change when a project edits its prices; the bill of materials prices them with the project's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from loopline.domain.errors import DomainError


class Medium(StrEnum):
    DAC = "dac"
    ACC = "acc"
    AEC = "aec"
    AOC = "aoc"
    FIBRE = "fibre"
    """A transceiver at each end + a fibre patch cord or trunk."""


COPPER: frozenset[Medium] = frozenset({Medium.DAC, Medium.ACC, Medium.AEC})
OPTICAL: frozenset[Medium] = frozenset({Medium.AOC, Medium.FIBRE})

NETBOX_TYPE: dict[Medium, str] = {
    Medium.DAC: "dac-passive",
    Medium.ACC: "dac-active",
    Medium.AEC: "dac-active",
    Medium.AOC: "aoc",
    Medium.FIBRE: "mmf-om4",
}


@dataclass(frozen=True, slots=True)
class MediaOption:
    part_number: str
    medium: Medium
    gbps: float
    reach_mm: int
    lengths_mm: tuple[int, ...]
    """Sold lengths, ascending."""
    description: str = ""
    transceiver: str | None = None
    """Part number of the optic needed at each end (Medium.FIBRE)."""
    extra_latency_ns: int = 0
    """E.g. RS-FEC (~250 ns) forced by a long 25G DAC; carried to the simulator."""
    netbox_type: str = ""


DEFAULT_CURRENCY = "USD"


class PriceSource(StrEnum):
    DEFAULT = "default"
    PROJECT = "project"


@dataclass(frozen=True, slots=True)
class Price:
    base: float
    per_m: float = 0.0
    source: str = PriceSource.DEFAULT

    def at(self, length_mm: int) -> float:
        return self.base + self.per_m * length_mm / 1000


@dataclass(frozen=True, slots=True)
class PriceBook:
    prices: Mapping[str, Price] = field(default_factory=dict)
    currency: str = DEFAULT_CURRENCY
    version: int | None = None
    """The project book's version these prices come from; None: the default book alone."""

    def price(self, part_number: str) -> Price:
        try:
            return self.prices[part_number]
        except KeyError:
            raise DomainError("price_book", f"no price for part {part_number}") from None

    def with_overrides(self, overrides: Mapping[str, tuple[float, float]]) -> PriceBook:
        """Project prices replace the defaults: part number -> (base, per metre)."""
        merged = dict(self.prices)
        for pn, (base, per_m) in overrides.items():
            if base < 0 or per_m < 0:
                raise DomainError(f"price_book.{pn}", "prices must be >= 0")
            merged[pn] = Price(base, per_m, PriceSource.PROJECT)
        return PriceBook(merged, self.currency, self.version)

    def for_project(self, prices: Mapping[str, tuple[float, float]], currency: str, version: int) -> PriceBook:
        """The project's book over this (default) one: its prices replace the defaults part by
        part; in another currency the defaults are left out (a total never mixes currencies)."""
        base = self if currency == self.currency else PriceBook({}, currency)
        return PriceBook(base.with_overrides(prices).prices, currency, version)


@dataclass(frozen=True, slots=True)
class MediaCatalog:
    options: tuple[MediaOption, ...]

    def for_speed(self, gbps: float) -> tuple[MediaOption, ...]:
        return tuple(o for o in self.options if o.gbps == gbps)

    def with_options(self, extra: Iterable[MediaOption], replace: bool = False) -> MediaCatalog:
        """Project overrides: options with a known part number replace it, others are added."""
        by_pn = {} if replace else {o.part_number: o for o in self.options}
        for o in extra:
            if list(o.lengths_mm) != sorted(o.lengths_mm) or not o.lengths_mm:
                raise DomainError(f"media.{o.part_number}.lengths_mm", "must be non-empty, ascending")
            by_pn[o.part_number] = o
        return MediaCatalog(tuple(by_pn.values()))


def _m(*metres: float) -> tuple[int, ...]:
    return tuple(round(m * 1000) for m in metres)


# speed -> (form factor, passive DAC reach m, sold DAC lengths, price factor)
_SPEEDS: dict[float, tuple[str, float, tuple[float, ...], float]] = {
    10.0: ("SFP+", 7, (0.5, 1, 1.5, 2, 2.5, 3, 5, 7), 1.0),
    25.0: ("SFP28", 3, (0.5, 1, 1.5, 2, 2.5, 3), 1.5),
    40.0: ("QSFP+", 7, (0.5, 1, 1.5, 2, 2.5, 3, 5, 7), 2.0),
    50.0: ("SFP56", 3, (0.5, 1, 1.5, 2, 2.5, 3), 2.5),
    100.0: ("QSFP28", 5, (0.5, 1, 1.5, 2, 2.5, 3, 5), 4.0),
    200.0: ("QSFP56", 3, (0.5, 1, 1.5, 2, 2.5, 3), 8.0),
    400.0: ("QSFP-DD", 3, (0.5, 1, 1.5, 2, 2.5, 3), 12.0),
    800.0: ("OSFP", 2, (0.5, 1, 1.5, 2), 20.0),
}
_ACTIVE_LENGTHS = (1, 2, 3, 4, 5, 7)
_AOC_LENGTHS = (3, 5, 7, 10, 15, 20, 30, 50, 100)
_MMF_LENGTHS = (0.5, 1, 2, 3, 5, 7, 10, 15, 20, 25, 30, 40, 50, 75, 100)
_SMF_LENGTHS = (*_MMF_LENGTHS, 150, 200, 300, 500, 750, 1000, 2000, 5000, 10000)
RS_FEC_NS = 250


def _catalog_and_prices() -> tuple[MediaCatalog, PriceBook]:
    opts: list[MediaOption] = []
    prices: dict[str, Price] = {
        "FIB-OM4": Price(8.0, 0.8),
        "FIB-OS2": Price(10.0, 0.5),
    }
    for gbps, (ff, reach, lengths, f) in _SPEEDS.items():
        g = f"{gbps:g}G"
        dac = f"DAC-{g}"
        opts.append(
            MediaOption(
                dac,
                Medium.DAC,
                gbps,
                round(reach * 1000),
                _m(*lengths),
                f"{g} {ff} passive DAC",
                netbox_type="dac-passive",
            )
        )
        prices[dac] = Price(15 * f, 3 * f)
        if gbps == 25.0:
            fec = "DAC-25G-RSFEC"
            opts.append(
                MediaOption(
                    fec,
                    Medium.DAC,
                    gbps,
                    5000,
                    _m(5),
                    "25G SFP28 passive DAC (RS-FEC)",
                    extra_latency_ns=RS_FEC_NS,
                    netbox_type="dac-passive",
                )
            )
            prices[fec] = Price(15 * f, 3 * f)
        active_medium = Medium.ACC if gbps <= 100 else Medium.AEC
        act = f"{active_medium.value.upper()}-{g}"
        opts.append(
            MediaOption(
                act,
                active_medium,
                gbps,
                7000,
                _m(*_ACTIVE_LENGTHS),
                f"{g} {ff} active copper",
                netbox_type="dac-active",
            )
        )
        prices[act] = Price(40 * f, 4 * f)
        aoc = f"AOC-{g}"
        opts.append(MediaOption(aoc, Medium.AOC, gbps, 100_000, _m(*_AOC_LENGTHS), f"{g} {ff} AOC", netbox_type="aoc"))
        prices[aoc] = Price(60 * f, 2 * f)
        sr, lr = f"XCVR-{g}-SR", f"XCVR-{g}-LR"
        opts.append(
            MediaOption(
                "FIB-OM4",
                Medium.FIBRE,
                gbps,
                100_000,
                _m(*_MMF_LENGTHS),
                f"{g} SR optics + OM4 fibre",
                transceiver=sr,
                netbox_type="mmf-om4",
            )
        )
        prices[sr] = Price(35 * f)
        if gbps >= 100:
            dr = f"XCVR-{g}-DR"
            opts.append(
                MediaOption(
                    "FIB-OS2",
                    Medium.FIBRE,
                    gbps,
                    500_000,
                    _m(*_SMF_LENGTHS),
                    f"{g} DR optics + OS2 fibre",
                    transceiver=dr,
                    netbox_type="smf-os2",
                )
            )
            prices[dr] = Price(60 * f)
        opts.append(
            MediaOption(
                "FIB-OS2",
                Medium.FIBRE,
                gbps,
                10_000_000,
                _m(*_SMF_LENGTHS),
                f"{g} LR optics + OS2 fibre",
                transceiver=lr,
                netbox_type="smf-os2",
            )
        )
        prices[lr] = Price(120 * f)
        for k in (1, 2, 4):
            prices[nic_part(k, gbps)] = Price(50 * f + 50 * f * k)
    return MediaCatalog(tuple(opts)), PriceBook(prices)


def nic_part(ports: int, gbps: float) -> str:
    """The NIC a server needs for `ports` ports at `gbps` its model does not have, e.g. ``NIC-1x25G``."""
    return f"NIC-{ports}x{gbps:g}G"


def default_catalog() -> MediaCatalog:
    return _DEFAULT_CATALOG


def default_price_book() -> PriceBook:
    return _DEFAULT_PRICES


_DEFAULT_CATALOG, _DEFAULT_PRICES = _catalog_and_prices()


@dataclass(frozen=True, slots=True)
class MediaChoice:
    option: MediaOption
    ordered_mm: int
    unit_price: float
    """Price of the cable or fibre at its ordered length + both transceivers."""


class MediaSelector:
    """Cheapest option that reaches, per (speed, length); results are cached."""

    __slots__ = ("_by_speed", "_cache", "_prices", "_round")

    def __init__(
        self,
        catalog: MediaCatalog | None = None,
        prices: PriceBook | None = None,
        *,
        round_to_sold: bool = True,
    ) -> None:
        cat = catalog or default_catalog()
        self._prices = prices or default_price_book()
        self._round = round_to_sold
        self._by_speed: dict[float, list[MediaOption]] = {}
        for o in cat.options:
            self._by_speed.setdefault(o.gbps, []).append(o)
        self._cache: dict[tuple[float, int, bool], MediaChoice | None] = {}

    def select(self, gbps: float, length_mm: int, *, optical: bool = False) -> MediaChoice | None:
        """Cheapest option at `gbps` with a sold length >= `length_mm` within its reach, or None.
        `optical`: only AOC or optics + fibre (e.g. fabric links by default)."""
        key = (gbps, length_mm, optical)
        try:
            return self._cache[key]
        except KeyError:
            pass
        best: MediaChoice | None = None
        for o in self._by_speed.get(gbps, ()):
            if optical and o.medium not in OPTICAL:
                continue
            sold = next((n for n in o.lengths_mm if n >= length_mm and n <= o.reach_mm), None)
            if sold is None:
                continue
            cost = self._prices.price(o.part_number).at(sold)
            if o.transceiver is not None:
                cost += 2 * self._prices.price(o.transceiver).at(0)
            if best is None or cost < best.unit_price:
                best = MediaChoice(o, sold if self._round else length_mm, cost)
        self._cache[key] = best
        return best

    def require(self, gbps: float, length_mm: int, cable: str, *, optical: bool = False) -> MediaChoice:
        choice = self.select(gbps, length_mm, optical=optical)
        if choice is None:
            speeds = sorted(self._by_speed)
            kind = "optical medium" if optical else "medium"
            why = (
                f"no medium in the catalog for {gbps:g} Gb/s (catalog speeds: {speeds})"
                if gbps not in self._by_speed
                else f"no {kind} reaches {length_mm / 1000:.1f} m at {gbps:g} Gb/s"
            )
            raise DomainError(f"cables.{cable}", why)
        return choice
