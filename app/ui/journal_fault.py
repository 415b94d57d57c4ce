"""The screen shown when the games file cannot be opened at all (a read-only or failing card).

Exiting would leave the kiosk black and systemd restarting it in a loop; instead the table
reads what is wrong and what to do, and systemd is told the app is up, so the message stays.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout

from app.ui import theme
from app.ui.i18n import _, translator
from app.ui.screens.base import Paragraph
from app.ui.widgets import TextLabel
from app.watchdog import announce_ready


class JournalFaultApp(App):
    title = "Windrose"

    def __init__(self, reason: str, language: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reason = reason
        self.language = language

    def build(self) -> BoxLayout:
        translator.set_language(self.language)
        Window.clearcolor = theme.BACKGROUND
        root = BoxLayout(orientation="vertical", padding=(32, 24), spacing=theme.GAP * 2)
        root.add_widget(TextLabel("Windrose", size=theme.FONT_HUGE, bold=True, halign="center",
                                  size_hint_y=None, height=64))
        root.add_widget(Paragraph(
            _("The saved games cannot be opened: {reason}. Nothing could be saved, so no game can start. "
              "Restart the Pi; if this comes back, the memory card may be full, read-only or failing: "
              "check it or replace it (the backup copies are in its backups folder).").format(reason=self.reason),
            size=theme.FONT_NORMAL, halign="center", color=theme.DANGER, grow=True))
        root.add_widget(BoxLayout())
        return root

    def on_start(self) -> None:
        self.notifier = announce_ready(Clock.schedule_interval)
