"""The end of the game: a breakdown per player (track, cards, city, punish), a bar chart,
the winner and why. Every number is the game's ScoreTable."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.charts import Bar, BarChart
from app.ui.i18n import _, translator
from app.ui.screens.base import BaseScreen
from app.ui.widgets import BigButton, Panel, PlayerBadge, TextLabel

TRACK_COLOUR = theme.ACCENT
CARDS_COLOUR = theme.WARN
CITY_COLOUR = theme.OK


def breakdown_table(table: Any, roomy: bool = False) -> GridLayout:
    """The score per player and part; `roomy` (a tall window): taller rows, larger numbers."""
    columns = (_("Player"), _("Track"), _("Punish"), _("Cards"), _("City"), _("Total"))
    row_height = 52 if roomy else 34
    grid = GridLayout(cols=len(columns), spacing=2, size_hint_y=None, height=row_height * (len(table.lines) + 1))
    for title in columns:
        grid.add_widget(TextLabel(title, size=theme.FONT_SMALL, bold=True, halign="center", color=theme.TEXT_DIM))
    for line in table.lines:
        grid.add_widget(PlayerBadge(line.colour, f"{line.rank}. {line.name}",
                                    size=theme.FONT_NORMAL if roomy else theme.FONT_SMALL))
        values = (table.part(line, "prestige"), -table.part(line, "punish_points"), table.part(line, "card_points"),
                  table.part(line, "city_points"), line.total)
        for value in values:
            grid.add_widget(TextLabel(str(value), size=theme.FONT_LARGE if roomy else theme.FONT_NORMAL,
                                      halign="center"))
    return grid


def score_bars(table: Any) -> list[Bar]:
    """Each total split into what the track kept, the cards and the city (all from the table)."""
    bars = []
    for line in table.lines:
        cards, city = table.part(line, "card_points"), table.part(line, "city_points")
        bars.append(Bar(line.name, theme.player_colour(line.colour),
                        ((line.total - cards - city, TRACK_COLOUR), (cards, CARDS_COLOUR), (city, CITY_COLOUR))))
    return bars


def winner_text(table: Any) -> str:
    name = next((line.name for line in table.lines if line.player == table.winner), None)
    text = _("{name} wins.").format(name=name) if name is not None else ""
    if table.tie_break is not None:
        text = (text + " " + translator.message(table.tie_break)).strip()
    return text


def score_legend(narrow: bool) -> BoxLayout:
    """What the colours of the score bars stand for; two lines a title on a narrow panel."""
    legend = BoxLayout(size_hint_y=None, height=44 if narrow else 26)
    for title, colour in ((_("Track less punish"), TRACK_COLOUR), (_("Cards"), CARDS_COLOUR), (_("City"), CITY_COLOUR)):
        legend.add_widget(TextLabel(title, size=theme.FONT_SMALL, color=colour, halign="center"))
    return legend


class ScoreScreen(BaseScreen):
    screen_name = "score"

    def build(self, root: BoxLayout) -> None:
        session = self.app.session
        bar = Panel(size_hint_y=None, height=theme.TOP_BAR_HEIGHT, spacing=theme.GAP)
        bar.add_widget(BigButton(_("Menu"), on_tap=lambda: self.app.go("start"), size_hint=(None, 1), width=96))
        # On a narrow panel the winner's line below says what this screen is.
        bar.add_widget(Widget() if self.narrow() else TextLabel(_("Final score"), size=theme.FONT_LARGE, bold=True,
                                                                 halign="center"))
        bar.add_widget(BigButton(_("History"), on_tap=lambda: self.app.go("history"), size_hint=(None, 1), width=124))
        bar.add_widget(BigButton(_("Undo"), role="danger", on_tap=self.app.undo, disabled=not session.can_undo,
                                 size_hint=(None, 1), width=124))
        root.add_widget(bar)
        table = session.score()
        body = BoxLayout(orientation="vertical", padding=theme.GAP * 2, spacing=theme.GAP)
        body.add_widget(TextLabel(winner_text(table), size=theme.FONT_LARGE, bold=True,
                                  size_hint_y=None, height=64, halign="center"))
        body.add_widget(breakdown_table(table, self.roomy()))
        chart = BarChart(score_bars(table))
        if self.roomy():  # rows about a bar and a half high, not the whole of a tall window
            chart.size_hint_max_y = 120 * len(table.lines)
        body.add_widget(chart)
        body.add_widget(score_legend(self.narrow()))
        if self.roomy():
            body.add_widget(Widget())  # Export and New game stay at the bottom
        if self.app.notice.text:
            body.add_widget(TextLabel(self.app.notice.text, size=theme.FONT_SMALL, size_hint_y=None, height=26))
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
        row.add_widget(BigButton(_("Export"), on_tap=lambda: self.app.export_current()))
        row.add_widget(BigButton(_("New game"), role="accent", on_tap=lambda: self.app.go("new_game")))
        body.add_widget(row)
        root.add_widget(body)
