"""Every text colour of the theme on every fill it is drawn on reads at 4.5:1 or more (WCAG AA)."""

from __future__ import annotations

import pytest

from app.ui import theme
from app.ui.charts import SERIES_COLOURS
from app.ui.macao.card_tile import GOLD_HEX, PRESTIGE_HEX

AA = 4.5


def _luminance(colour: tuple[float, ...]) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(v) for v in colour[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(text: tuple[float, ...], fill: tuple[float, ...]) -> float:
    light, dark = sorted((_luminance(text), _luminance(fill)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


DARK_TEXT = (0.07, 0.07, 0.07, 1.0)  # a button's text on a light fill (app.ui.widgets.BigButton)
SURFACES = {"background": theme.BACKGROUND, "panel": theme.PANEL, "panel light": theme.PANEL_LIGHT}
PAIRS = [
    *[(f"text on {name}", theme.TEXT, fill) for name, fill in SURFACES.items()],
    *[(f"dim text on {name}", theme.TEXT_DIM, fill) for name, fill in SURFACES.items()],
    *[(f"warning on {name}", theme.WARN, fill) for name, fill in SURFACES.items()],
    *[(f"red words on {name}", theme.DANGER_TEXT, fill) for name, fill in SURFACES.items()],
    *[(f"green words on {name}", theme.OK_TEXT, fill) for name, fill in SURFACES.items()],
    *[(f"gold on {name}", theme._hex(GOLD_HEX), fill) for name, fill in (*SURFACES.items(), ("lit", theme.LIT))],
    *[(f"prestige on {name}", theme._hex(PRESTIGE_HEX), fill)
      for name, fill in (*SURFACES.items(), ("lit", theme.LIT))],
    ("text on a lit tile", theme.TEXT, theme.LIT),
    ("dim text on a lit tile", theme.TEXT_DIM, theme.LIT),
    ("text on a selected or accent button", theme.TEXT, theme.ACCENT),
    ("text on an OK button", theme.TEXT, theme.OK),
    ("text on a danger button or the error strip", theme.TEXT, theme.DANGER),
    ("a disabled button's text", theme.DISABLED_TEXT, theme.DISABLED),
    ("dark text on the warning colour", DARK_TEXT, theme.WARN),
    *[(f"text on the {colour} player", theme.PLAYER_TEXT[colour], fill) for colour, fill in theme.PLAYER_COLOURS.items()],
    *[(f"text on a {colour} cube", theme.CUBE_TEXT[colour], fill) for colour, fill in theme.CUBE_COLOURS.items()],
    # A chart's legend writes each part's name in that part's colour (the score screen).
    *[(f"chart colour {index} on {name}", colour, fill) for index, colour in enumerate(SERIES_COLOURS)
      for name, fill in (("background", theme.BACKGROUND), ("panel", theme.PANEL))],
]


@pytest.mark.parametrize(("what", "text", "fill"), PAIRS, ids=[pair[0] for pair in PAIRS])
def test_text_reads_at_4_5_to_1(what: str, text: tuple[float, ...], fill: tuple[float, ...]) -> None:
    assert contrast(text, fill) >= AA, f"{what}: {contrast(text, fill):.2f}:1"


def test_the_measure_is_wcag_s() -> None:
    assert contrast((1, 1, 1, 1), (0, 0, 0, 1)) == pytest.approx(21.0)
    assert contrast((1, 1, 1, 1), theme._hex("777777")) == pytest.approx(4.48, abs=0.01)
