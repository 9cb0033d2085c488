"""Decomposed mode's measured accuracy in the planner's words, for the API's documentation.

The engine owns the numbers (its calibration table, `loopline-sim calibration`); this only writes
them out as the table the API documentation shows.
"""

from __future__ import annotations

from typing import Any


def accuracy_markdown(calibration: dict[str, Any] | None) -> str:
    """A Markdown section: per flow-size bucket, the largest error of decomposed mode's mean and
    p99 slowdown measured against full packet mode, and the cases measured; or where to read it
    when no calibration is at hand."""
    title = "### Decomposed mode: error measured against packet mode"
    accuracy = (calibration or {}).get("accuracy")
    if not accuracy:
        return f"{title}\n\nNot measured in this build (see sim-engine/README.md, Decomposed mode calibration)."
    rows = [
        f"| {b['bucket']} | ±{b['mean_slowdown_error']:.0%} | ±{b['p99_slowdown_error']:.0%} |"
        for b in accuracy["by_size"]
    ]
    cases = ", ".join(accuracy["measured_on"])
    return "\n".join(
        [
            title,
            "",
            "The largest error over the cases measured (every decomposed result carries the same in "
            "`decomposition.accuracy`; per case in sim-engine/README.md).",
            "",
            "| Flow size | Mean slowdown | p99 slowdown |",
            "|---|---|---|",
            *rows,
            "",
            f"Measured on: {cases}.",
        ]
    )
