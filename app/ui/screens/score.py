"""The end of the game: a breakdown per player (track, cards, city, punish), a bar chart,
the winner and why. Every number is the rules core's ScoreSheet."""

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


def breakdown_table(sheet: Any, roomy: bool = False) -> GridLayout:
    """The score per player and part; `roomy` (a tall window): taller rows, larger numbers."""
    columns = (_("Player"), _("Track"), _("Punish"), _("Cards"), _("City"), _("Total"))
    row_height = 52 if roomy else 34
    grid = GridLayout(cols=len(columns), spacing=2, size_hint_y=None, height=row_height * (len(sheet.rows) + 1))
    for title in columns:
        grid.add_widget(TextLabel(title, size=theme.FONT_SMALL, bold=True, halign="center", color=theme.TEXT_DIM))
    for row in sheet.rows:
        grid.add_widget(PlayerBadge(row.colour, f"{row.rank}. {row.name}",
                                    size=theme.FONT_NORMAL if roomy else theme.FONT_SMALL))
        for value in (row.prestige, -row.punish_points, row.card_points, row.city_points, row.total):
            grid.add_widget(TextLabel(str(value), size=theme.FONT_LARGE if roomy else theme.FONT_NORMAL,
                                      halign="center"))
    return grid


def score_bars(sheet: Any) -> list[Bar]:
    """Each total split into what the track kept, the cards and the city (all from the sheet)."""
    return [
        Bar(row.name, theme.player_colour(row.colour), (
            (row.total - row.card_points - row.city_points, TRACK_COLOUR),
            (row.card_points, CARDS_COLOUR),
            (row.city_points, CITY_COLOUR),
        ))
        for row in sheet.rows
    ]


def winner_text(sheet: Any) -> str:
    name = next(row.name for row in sheet.rows if row.colour == sheet.winner)
    text = _("{name} wins.").format(name=name)
    if sheet.tie_break is not None:
        text += " " + translator.message(sheet.tie_break)
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
        sheet = session.score()
        body = BoxLayout(orientation="vertical", padding=theme.GAP * 2, spacing=theme.GAP)
        body.add_widget(TextLabel(winner_text(sheet), size=theme.FONT_LARGE, bold=True,
                                  size_hint_y=None, height=64, halign="center"))
        body.add_widget(breakdown_table(sheet, self.roomy()))
        chart = BarChart(score_bars(sheet))
        if self.roomy():  # rows about a bar and a half high, not the whole of a tall window
            chart.size_hint_max_y = 120 * len(sheet.rows)
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
