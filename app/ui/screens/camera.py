"""Camera check: what the camera sees, a test reading, and re-locking exposure after the light changed."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from app.dice_service import DiceStatus, RollState
from app.games.macao import CUBE_COLOURS
from app.ui import theme
from app.ui.camera_view import CameraView
from app.ui.i18n import _, translator
from app.ui.screens.base import BaseScreen
from app.ui.widgets import BigButton, DieWidget, TextLabel


class CameraScreen(BaseScreen):
    screen_name = "camera"

    def build(self, root: BoxLayout) -> None:
        root.add_widget(self.title_bar(_("Camera check")))
        link = self.app.context.dice
        body = BoxLayout(orientation="vertical", padding=theme.GAP * 2, spacing=theme.GAP)
        status = link.status if link is not None else None
        if link is None or link.station is None:
            body.add_widget(TextLabel(_("No dice station is running: dice are entered by hand."),
                                      size=theme.FONT_NORMAL))
        else:
            for problem in link.problems:
                body.add_widget(TextLabel(problem, size=theme.FONT_SMALL, color=theme.WARN, size_hint_y=None, height=26))
            if status is not None:
                body.add_widget(TextLabel(translator.gettext(status.note).format(**status.params),
                                          size=theme.FONT_NORMAL, size_hint_y=None, height=32))
            if link.has_camera:
                body.add_widget(CameraView(link))
            body.add_widget(self._reading(status))
            row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
            row.add_widget(BigButton(_("Test roll"), role="accent", on_tap=self.on_roll_button))
            row.add_widget(BigButton(_("Adapt to the light again"),
                                     on_tap=lambda: link.station.service.relock_exposure()))
            body.add_widget(row)
        if link is None or not link.has_camera:
            body.add_widget(Widget())
        root.add_widget(body)

    def _reading(self, status: DiceStatus | None) -> Widget:
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=80)
        proposed = status.proposed_dice if status is not None and status.state is RollState.PROPOSED else {}
        for colour in CUBE_COLOURS:
            value = proposed.get(colour)
            die = DieWidget(colour, value or 0)
            die.unsure = bool(proposed) and value is None
            row.add_widget(die)
        return row

    def on_roll_button(self) -> None:
        link = self.app.context.dice
        if link is not None:
            link.roll()
            self.refresh()
