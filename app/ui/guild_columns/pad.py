"""The guild-columns score pad (each player's column heights, left to right as they see them) and
the result: the ring of columns round the table with the ones that score."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from app.games.base import ScoreTable
from app.games.guild_columns import ring_flags
from app.games.guild_columns.sheet import MAX_COLUMNS
from app.ui import theme
from app.ui.guild_columns.ring import RingView
from app.ui.i18n import N_
from app.ui.sheet_pad import FieldsSheet, PadField, Value, breakdown_grid

FIELDS = (PadField("columns", N_("Columns, left to right"), 1, 18, many=6),)


class ColumnsPad(FieldsSheet):
    """The sheet of a guild-columns game: each player's column heights."""

    FIELDS = FIELDS

    def _save(self, player: str, key: str, value: Value) -> bool:
        return self.act({"type": "columns", "player": player, "columns": value})



def ring_result(table: ScoreTable, roomy: bool = False) -> BoxLayout:
    """The ring of columns round the table (seating order and heights from the score table, the
    scoring columns from the rules) beside each player's place, scoring columns and total."""
    seated = sorted(table.lines, key=lambda line: table.part(line, "seat"))
    heights = [[h for n in range(1, MAX_COLUMNS + 1) if (h := table.part(line, f"column_{n}"))] for line in seated]
    rows = [(line.name, h, flags) for line, h, flags in zip(seated, heights, ring_flags(heights), strict=True)]
    box = BoxLayout(orientation="horizontal", spacing=theme.GAP, size_hint_y=None, height=300 if roomy else 240)
    box.add_widget(RingView(rows, size_hint_x=0.45))
    column = BoxLayout(orientation="vertical")
    column.add_widget(breakdown_grid(table, keys=("scoring_columns",), roomy=roomy))
    column.add_widget(Widget())
    box.add_widget(column)
    return box
