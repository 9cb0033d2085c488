"""Facts a check needs and the catalog lacks: gathered while the checks run, reported once each.

A check that meets a None (a model's max_w, a cable's od_mm, ...) counts nothing for it and notes
it here; the report then carries one `fact_missing` warning per (model, fact) naming the model, the
fact and every check that could not count it, so a missing figure is never a silent zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from loopline.domain.layout_rules import Issue, Severity


class CatalogKind:
    """Kinds of catalog entry, as the field path (`catalog.<kind>[<name>].<fact>`) and a message name them."""

    SERVER = ("server_models", "server model")
    SWITCH = ("switch_models", "switch model")
    RACK_TYPE = ("rack_types", "rack type")
    PDU = ("pdus", "PDU model")
    CABLE = ("cables", "cable part")
    OPTIC = ("optics", "optic part")
    PANEL = ("panels", "panel model")
    CASSETTE = ("cassettes", "cassette model")


Kind = tuple[str, str]


@dataclass(slots=True)
class _Gap:
    counts: dict[str, tuple[int, str]] = field(default_factory=dict)
    """Check -> how many of what ("server", "cable", "cable end", "rack") it could not count."""


@dataclass(slots=True)
class MissingFacts:
    _gaps: dict[tuple[Kind, str, str], _Gap] = field(default_factory=dict)

    def note(self, kind: Kind, model: str, fact: str, check: str, count: int, noun: str) -> None:
        """`count` `noun`s of `model` went uncounted in `check`."""
        gap = self._gaps.get((kind, model, fact))
        if gap is None:
            gap = self._gaps[(kind, model, fact)] = _Gap()
        before = gap.counts.get(check, (0, noun))[0]
        gap.counts[check] = (before + count, noun)

    def lacking(self) -> frozenset[tuple[str, str]]:
        """(kind, fact) for the facts some model lacks, e.g. ("optics", "max_w")."""
        return frozenset((kind[0], fact) for kind, _model, fact in self._gaps)

    def issues(self) -> list[Issue]:
        """One warning per (model, fact), ordered by kind, model and fact."""
        out: list[Issue] = []
        for (kind, model, fact), gap in sorted(self._gaps.items(), key=lambda kv: kv[0]):
            path, words = kind
            uncounted = "; ".join(
                f"the {check} check counted nothing for {plural(n, noun)} of it"
                for check, (n, noun) in gap.counts.items()
            )
            out.append(
                Issue(
                    Severity.WARNING,
                    "fact_missing",
                    f"catalog.{path}[{model}].{fact}",
                    f"{words} {model!r} has no {fact}: {uncounted}",
                )
            )
        return out


def plural(n: int, noun: str) -> str:
    """``1 server``, ``40 servers``, ``2 switches``."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}{'es' if noun.endswith(('ch', 'sh', 's')) else 's'}"
