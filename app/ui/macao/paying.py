"""The paying tray: cubes move from the supply into a tray of what is paid, one tap a cube.

What is chosen is what is shown: the tray holds one swatch per cube paid, in the order
tapped, and a tap on a swatch puts that cube back. The supply row keeps its six colours
in fixed places (a colour the supply has run out of stays, greyed), so a finger learns
where each colour is; its number is how many of that colour are still in the supply.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from app.games.macao import CUBE_COLOURS
from app.ui import theme
from app.ui.i18n import _
from app.ui.widgets import BigButton, TextLabel, cube_button

LABEL_WIDTH = 84


def left_in_supply(supply: Mapping[str, int], paying: list[str]) -> dict[str, int]:
    """The supply's cubes not yet moved into the tray."""
    left = {colour: supply.get(colour, 0) for colour in CUBE_COLOURS}
    for colour in paying:
        left[colour] -= 1
    return left


def paying_tray(supply: Mapping[str, int], paying: list[str], on_take: Callable[[str], None],
                on_put_back: Callable[[int], None], roomy: bool) -> list[Widget]:
    """Two rows: the supply to tap cubes from (tag ("cube", colour)) and the tray of cubes
    paid, each a swatch that goes back to the supply when tapped (tag ("paid", index))."""
    left = left_in_supply(supply, paying)
    source = BoxLayout(spacing=3, **theme.touch_row(roomy))
    source.add_widget(TextLabel(_("Supply"), size=theme.FONT_SMALL, size_hint_x=None, width=LABEL_WIDTH))
    for colour in CUBE_COLOURS:
        source.add_widget(cube_button(colour, partial(on_take, colour), text=str(left[colour]),
                                      disabled=left[colour] <= 0, size_hint_y=1))
    tray = BoxLayout(spacing=3, **theme.touch_row(roomy))
    tray.add_widget(TextLabel(_("Paying"), size=theme.FONT_SMALL, size_hint_x=None, width=LABEL_WIDTH))
    for index, colour in enumerate(paying):
        tray.add_widget(BigButton("", on_tap=partial(on_put_back, index), fill=theme.cube_colour(colour),
                                  tag=("paid", index), size_hint_y=1, size_hint_x=None, width=theme.TOUCH_MIN))
    if paying:
        tray.add_widget(Widget())
    else:
        tray.add_widget(TextLabel(_("Tap cubes in the supply to pay them"), size=theme.FONT_SMALL,
                                  color=theme.TEXT_DIM))
    return [source, tray]
