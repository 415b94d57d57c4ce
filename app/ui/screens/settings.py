"""Settings: language (at once), text size (at once), camera source and roll button."""

from __future__ import annotations

from dataclasses import replace

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.i18n import LANGUAGES, _
from app.ui.screens.base import BaseScreen
from app.ui.settings_store import BUTTON_CHOICES, CAMERA_CHOICES, TEXT_SCALES
from app.ui.widgets import TextLabel, segmented


class SettingsScreen(BaseScreen):
    screen_name = "settings"

    def build(self, root: BoxLayout) -> None:
        root.add_widget(self.title_bar(_("Settings")))
        settings = self.app.context.settings
        body = BoxLayout(orientation="vertical", padding=theme.GAP * 2, spacing=theme.GAP)
        camera_labels = {
            "config": _("as configured"), "auto": _("automatic"), "picamera2": _("Pi camera"),
            "opencv": _("USB/video"), "folder": _("image folder"), "none": _("none"),
        }
        button_labels = {"config": _("as configured"), "gpio": _("push button"), "screen": _("screen and space bar")}
        rows = (
            (_("Language"), segmented(LANGUAGES, settings.language, lambda v: self._change(language=v),
                                      labels=LANGUAGES)),
            (_("Text size"), segmented(TEXT_SCALES, settings.text_scale, lambda v: self._change(text_scale=v),
                                       labels={s: f"{round(s * 100)}%" for s in TEXT_SCALES})),
            (_("Camera"), segmented(CAMERA_CHOICES, settings.camera, lambda v: self._change(camera=v),
                                    labels=camera_labels)),
            (_("Roll button"), segmented(BUTTON_CHOICES, settings.button, lambda v: self._change(button=v),
                                         labels=button_labels)),
        )
        for title, chooser in rows:
            body.add_widget(TextLabel(title, size=theme.FONT_NORMAL, bold=True, size_hint_y=None, height=30))
            chooser.size_hint_y = None
            chooser.height = theme.BUTTON_HEIGHT
            for button in chooser.children:
                button.font_size = theme.font(theme.FONT_SMALL)
            body.add_widget(chooser)
        if self.app.notice.text:
            body.add_widget(TextLabel(self.app.notice.text, size=theme.FONT_SMALL, size_hint_y=None, height=44,
                                      color=theme.DANGER if self.app.notice.level == "error" else theme.TEXT_DIM))
        body.add_widget(Widget())
        root.add_widget(body)

    def _change(self, **changes: object) -> None:
        before = self.app.context.settings
        after = replace(before, **changes)
        self.app.apply_settings(after)
        if (after.camera, after.button) != (before.camera, before.button):
            self.app.restart_dice()
