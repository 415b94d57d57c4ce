"""Colours and sizes of the table UI, in one place so every screen agrees.

Sizes are in pixels at the 800x480 baseline (a 7" panel: 48 px is about 9 mm),
scaled by the user's text-size setting for fonts only; touch targets never
shrink below TOUCH_MIN.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

RGBA = tuple[float, float, float, float]


def _hex(code: str, alpha: float = 1.0) -> RGBA:
    code = code.lstrip("#")
    r, g, b = (int(code[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b, alpha)


BACKGROUND = _hex("1d2126")
PANEL = _hex("2a3038")
PANEL_LIGHT = _hex("39414b")
TEXT = _hex("f2f2f2")
TEXT_DIM = _hex("a9b1bb")
ACCENT = _hex("2b68a8")
OK = _hex("27753e")
WARN_HEX = "e0a526"  # also for markup: a note in a card tile
WARN = _hex(WARN_HEX)
DANGER = _hex("b53a36")
# Fills keep white text at 4.5:1 or more (WCAG AA); red and green words on the dark panels
# need lighter tones of their own, as does a disabled button's text on its grey.
DANGER_TEXT = _hex("ff8a80")
OK_TEXT = _hex("5cc77a")
DISABLED_TEXT = _hex("c4cad2")
CHART_BLUE = _hex("78b4f0")  # a chart's blue part: its legend's words in it read at 4.5:1 on the dark
LIT = _hex("1b3c63")  # a selected tile whose text is in several colours (gold, prestige)
DISABLED = _hex("4a525c")
UNSURE = _hex("ff3ea5")

PLAYER_COLOURS: dict[str, RGBA] = {
    "orange": _hex("f08a24"),
    "white": _hex("f4f4f4"),
    "yellow": _hex("f5d92e"),
    "brown": _hex("94633c"),
}
# Text drawn on a player-coloured fill: dark on light colours, light on brown.
PLAYER_TEXT: dict[str, RGBA] = {
    "orange": _hex("111111"),
    "white": _hex("111111"),
    "yellow": _hex("111111"),
    "brown": _hex("ffffff"),
}

CUBE_COLOURS: dict[str, RGBA] = {
    "red": _hex("c81e35"),
    "blue": _hex("1c66c2"),
    "green": _hex("1f7a36"),
    "black": _hex("0c0c0c"),
    "gray": _hex("9aa0a6"),
    "violet": _hex("8e44ad"),
    # Dice of the colours other sets come in (player colours and white).
    "yellow": _hex("efcf2a"),
    "orange": _hex("ee8123"),
    "purple": _hex("7d3fa6"),
    "white": _hex("f4f4f4"),
}
CUBE_TEXT: dict[str, RGBA] = {
    "red": TEXT,
    "blue": TEXT,
    "green": TEXT,
    "black": TEXT,
    "gray": _hex("111111"),
    "violet": TEXT,
    "yellow": _hex("111111"),
    "orange": _hex("111111"),
    "purple": TEXT,
    "white": _hex("111111"),
}
# Black cubes and dice vanish on a dark panel without a light rim.
CUBE_OUTLINE = _hex("d0d4d9")

TOUCH_MIN = 48
BUTTON_HEIGHT = 56
# The tallest a row of touch targets grows where the screen has height to spare.
TOUCH_ROOMY = 96
# A window at least this high has height to spare (portrait, 1280x720); 800x480 has none.
ROOMY_HEIGHT = 640
# A portrait window at least this high (720x1280, not a 480x800 panel) has room for keys laid
# out in more rows: two columns of actions, the number keys 1-6 in two rows.
TALL_PORTRAIT_HEIGHT = 1000
# A window narrower than this (a 480x800 portrait panel) has no room for a bar title between
# three buttons; the screen's own headline names it there.
NARROW_WIDTH = 560
TOP_BAR_HEIGHT = 56
GAP = 6

FONT_SMALL = 16
FONT_NORMAL = 20
FONT_LARGE = 26
FONT_HUGE = 36


@dataclass
class TextScale:
    """The user's text-size factor (settings), applied to every font size."""

    factor: float = 1.0

    def font(self, base: int) -> float:
        return round(base * self.factor)


text_scale = TextScale()


def font(base: int = FONT_NORMAL) -> float:
    """Font size in pixels for a base size, after the user's text scale."""
    return text_scale.font(base)


def touch_row(roomy: bool, height: int = TOUCH_MIN, tallest: int = TOUCH_ROOMY) -> dict[str, Any]:
    """Size hints of a row of touch targets: `height` high; with `roomy` (a tall window) it takes
    a share of the spare height instead, from `height` up to `tallest`."""
    if roomy:
        return {"size_hint_y": 1, "size_hint_min_y": height, "size_hint_max_y": tallest, "height": height}
    return {"size_hint_y": None, "height": height}


def player_colour(colour: str) -> RGBA:
    """A player's colour; a game whose players have none of these (named players) gets the accent."""
    return PLAYER_COLOURS.get(colour, ACCENT)


def on_player_text(colour: str) -> RGBA:
    return PLAYER_TEXT.get(colour, TEXT)


def dimmed(colour: RGBA, share: float = 0.4) -> RGBA:
    """A colour mixed into the disabled grey: still recognisable, clearly not tappable."""
    return (
        share * colour[0] + (1 - share) * DISABLED[0],
        share * colour[1] + (1 - share) * DISABLED[1],
        share * colour[2] + (1 - share) * DISABLED[2],
        1.0,
    )


def cube_colour(colour: str) -> RGBA:
    return CUBE_COLOURS.get(colour, TEXT_DIM)
