"""Moved: wiring plans live in `wiring_plans`, `wiring_spec`, `wiring_feasibility`, `wiring_storage`,
`wiring_cables`, `wiring_scenario`, `wiring_bom`, `wiring_compare` and `wiring_diff_cables`.

Only `load_plan` and `scenario` stay importable from here, for work on simulations in progress the
day of the split; delete this module once nothing imports `loopline.services.wiring`."""

from loopline.services.wiring_scenario import scenario
from loopline.services.wiring_storage import load_plan

__all__ = ["load_plan", "scenario"]
