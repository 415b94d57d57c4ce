"""Sizes of the game screen's main touch targets and roses at each window size, as laid out.

`python -m tests.ui.measure_layout` prints one line per window size (800x480, 1280x720,
720x1280) for the same seeded states: a tribute key and a cost-cube key, a number key 1-6 and
a die to type, an action button and End of turn, and the smaller of the two players' roses.
The figures of docs/ui.md "Screen sizes".
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from app.ui.widgets import DieWidget
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness, make_context

SIZES = ((800, 480), (1280, 720), (720, 1280))
SEED = 5


def measure(size: tuple[int, int], folder: Path) -> dict[str, float]:
    ui = UiHarness(make_context(folder), size=size)
    try:
        table = Table(ui, seed=SEED)
        table.advance(lambda s: s.phase == "reveal")
        tribute = ui.tagged("tribute", 1, 1)
        figures = {"tribute key w": tribute.width, "tribute key h": tribute.height,
                   "cube key h": ui.tagged("cube", "red").height}
        table.advance(lambda s: s.phase == "roll")
        figures["number key h"] = ui.tagged("pips", 3).height
        figures["die side"] = min(min(d.size) for d in ui.find(DieWidget))
        table.advance(lambda s: s.phase == "actions")
        figures["action button h"] = ui.tagged("action", "take_quarter").height
        figures["end of turn h"] = ui.tagged("action", "end_turn").height
        figures["rose side"] = min(min(r.size) for r in ui.app.manager.get_screen("game").players_view.roses.values())
        return figures
    finally:
        ui.close()


def main() -> None:
    for size in SIZES:
        with tempfile.TemporaryDirectory() as folder:
            figures = measure(size, Path(folder))
        print(f"{size[0]}x{size[1]}: " + ", ".join(f"{name} {value:.0f}" for name, value in figures.items()))


if __name__ == "__main__":
    main()
