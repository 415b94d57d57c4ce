"""Macao's final score as the table reads it: track, punish, cards and city per player, a bar per
player split the same way, and what the bar colours stand for. Every number is the ScoreTable's."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from app.games.base import ScoreTable
from app.ui import theme
from app.ui.charts import SERIES_COLOURS, Bar, BarChart
from app.ui.i18n import _
from app.ui.widgets import PlayerBadge, TextLabel

TRACK_COLOUR, CARDS_COLOUR, CITY_COLOUR = SERIES_COLOURS


def breakdown_table(table: ScoreTable, roomy: bool = False) -> GridLayout:
    """The score per player and part; `roomy` (a tall window): taller rows, larger numbers."""
    columns = (_("Player"), _("Track"), _("Punish"), _("Cards"), _("City"), _("Total"))
    row_height = 52 if roomy else 34
    grid = GridLayout(cols=len(columns), spacing=2, size_hint_y=None, height=row_height * (len(table.lines) + 1))
    for title in columns:
        grid.add_widget(TextLabel(title, size=theme.FONT_SMALL, bold=True, halign="center", color=theme.TEXT_DIM))
    for line in table.lines:
        grid.add_widget(PlayerBadge(line.colour or "", f"{line.rank}. {line.name}",
                                    size=theme.FONT_NORMAL if roomy else theme.FONT_SMALL))
        values = (table.part(line, "prestige"), -table.part(line, "punish_points"), table.part(line, "card_points"),
                  table.part(line, "city_points"), line.total)
        for value in values:
            grid.add_widget(TextLabel(str(value), size=theme.FONT_LARGE if roomy else theme.FONT_NORMAL,
                                      halign="center"))
    return grid


def score_bars(table: ScoreTable) -> list[Bar]:
    """Each total split into what the track kept, the cards and the city."""
    bars = []
    for line in table.lines:
        cards, city = table.part(line, "card_points"), table.part(line, "city_points")
        bars.append(Bar(line.name, theme.player_colour(line.colour or ""),
                        ((line.total - cards - city, TRACK_COLOUR), (cards, CARDS_COLOUR), (city, CITY_COLOUR))))
    return bars


def score_legend(narrow: bool) -> BoxLayout:
    """What the colours of the score bars stand for; two lines a title on a narrow panel."""
    legend = BoxLayout(size_hint_y=None, height=44 if narrow else 26)
    for title, colour in ((_("Track less punish"), TRACK_COLOUR), (_("Cards"), CARDS_COLOUR), (_("City"), CITY_COLOUR)):
        legend.add_widget(TextLabel(title, size=theme.FONT_SMALL, color=colour, halign="center"))
    return legend


def score_widgets(table: ScoreTable, roomy: bool, narrow: bool) -> list[Widget]:
    """Breakdown, chart and legend, for the score screen and a past game."""
    chart = BarChart(score_bars(table))
    if roomy:  # rows about a bar and a half high, not the whole of a tall window
        chart.size_hint_max_y = 120 * len(table.lines)
    return [breakdown_table(table, roomy), chart, score_legend(narrow)]
