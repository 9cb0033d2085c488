"""The README's decomposed-mode calibration table is the rendering of the engine's data file
(`scripts/calibrate_decomposed.py` writes both): a table edited by hand, or data left unshown,
fails here."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import calibrate_decomposed as cal


def test_readme_shows_the_calibration_data() -> None:
    table = json.loads(cal.TABLE.read_text())
    assert cal.readme_section(cal.README.read_text()) == cal.render(table)


def test_render_lists_every_bucket_with_its_signed_errors() -> None:
    table = {
        "cases": [
            {
                "about": "case A",
                "seeds": 3,
                "by_size": [
                    {
                        "bucket": "<10KB",
                        "packet_mean_slowdown": 2.0,
                        "decomposed_mean_slowdown": 2.2,
                        "mean_slowdown_error": 0.1,
                        "packet_p99_slowdown": 10.0,
                        "decomposed_p99_slowdown": 8.5,
                        "p99_slowdown_error": -0.15,
                    }
                ],
            }
        ]
    }
    assert cal.render(table).splitlines()[3] == (
        "| case A (3 seeds) | <10KB | 2.00 / 2.20 (+10%) | 10.00 / 8.50 (-15%) |"
    )
