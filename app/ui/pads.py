"""Number pads for the phase forms: one tap for a number instead of repeated "+1" taps."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from kivy.uix.gridlayout import GridLayout

from app.ui import theme
from app.ui.widgets import BigButton

PAD_WIDTH = 9  # buttons in one row: 9 keep every button over 48 px wide in an 800 px form


def number_pad(value: int, on_pick: Callable[[int], None], low: int, high: int, key: str,
               width: int = PAD_WIDTH, rows: int = 1, roomy: bool = False) -> GridLayout:
    """Numbers from `low` in `rows` rows of `width`, the current one lit. When `high` does not
    fit, the last button shows "N+" and each tap on it counts one further, up to `high`.
    With `roomy` (portrait) the keys grow into spare height."""
    gaps = (rows - 1) * 3
    grid = GridLayout(cols=width, spacing=3,
                      **theme.touch_row(roomy, rows * theme.TOUCH_MIN + gaps, rows * theme.TOUCH_ROOMY + gaps))
    shown = list(range(low, min(high, low + width * rows - 1) + 1))
    overflow = high > shown[-1]
    if overflow:
        shown = shown[:-1]
    for number in shown:
        grid.add_widget(BigButton(str(number), role="selected" if number == value else "normal",
                                  size_hint_y=1, tag=(key, number),
                                  on_tap=partial(on_pick, number)))
    if overflow:
        first_beyond = shown[-1] + 1
        beyond = value >= first_beyond
        grid.add_widget(BigButton(f"{max(value, first_beyond)}+", role="selected" if beyond else "normal",
                                  size_hint_y=1, tag=(key, "more"),
                                  on_tap=lambda: on_pick(min(high, value + 1) if beyond else first_beyond)))
    return grid
