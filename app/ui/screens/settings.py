"""Settings: language (at once), text size (at once), camera source and roll button, the dice
reader's refit on the table's rolls (app.ui.reader_learning), and each game's own sections (e.g.
a learned card list), which the game UIs supply."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.games import SettingsSection, game_ui, playable_games
from app.ui.i18n import LANGUAGES, _
from app.ui.reader_learning import ReaderLearning
from app.ui.screens.base import BaseScreen
from app.ui.settings_store import BUTTON_CHOICES, CAMERA_CHOICES, TEXT_SCALES
from app.ui.widgets import TextLabel, segmented

TITLE_WIDTH = 150  # px of the setting names' column


class SettingsScreen(BaseScreen):
    screen_name = "settings"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.sections = [section for game in playable_games() for section in game_ui(game).settings_sections(self)]
        self.choosing: SettingsSection | None = None  # a section showing its own page (a file list)
        self.reader_learning: ReaderLearning = app.reader_learning  # the app's: a run outlives the screen

    def prepare(self, **_params: Any) -> None:
        """Coming to the screen shows the settings, without an earlier section's message."""
        self.choosing = None
        self.reader_learning.reset()
        for section in self.sections:
            section.reset()

    def build(self, root: BoxLayout) -> None:
        if self.choosing is not None:
            self.choosing.build_chooser(root)
            return
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
            (_("Learn from rolls"), self.reader_learning.with_buttons(
                segmented((True, False), settings.learn_from_rolls, lambda v: self._change(learn_from_rolls=v),
                          labels={True: _("keep confirmed rolls here"), False: _("off")}), self.refresh)),
        )
        # Large text or a tall screen: each name above its choice; else name and choice side by
        # side. Either scrolls when it is taller than the screen (800x480 with a game's section).
        stacked = self.portrait() or theme.text_scale.factor > 1.0
        for title, chooser in rows:
            for button in chooser.children:
                button.font_size = theme.font(theme.FONT_SMALL)
            body.add_widget(self._titled(title, chooser, stacked))
        body.add_widget(self.reader_learning.status_label())  # under "Learn from rolls", the last row
        results = []
        for section in self.sections:
            body.add_widget(self._titled(section.title(), section.row(), stacked))
            result = section.result()
            if result is not None:
                results.append(result)
        for result in results:
            body.add_widget(result)
        if not results and self.app.notice.text:
            body.add_widget(TextLabel(self.app.notice.text, size=theme.FONT_SMALL, size_hint_y=None, height=44,
                                      color=theme.DANGER_TEXT if self.app.notice.level == "error" else theme.TEXT_DIM))
        body.size_hint_y = None
        body.bind(minimum_height=body.setter("height"))
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(body)
        root.add_widget(scroll)

    def _change(self, **changes: Any) -> None:
        before = self.app.context.settings
        after = replace(before, **changes)
        self.app.apply_settings(after)
        if (after.camera, after.button, after.learn_from_rolls) != (before.camera, before.button,
                                                                    before.learn_from_rolls):
            self.app.restart_dice()

    @staticmethod
    def _titled(title: str, chooser: Widget, stacked: bool) -> BoxLayout:
        """One setting: its name above its choice (stacked), or on the left beside it."""
        if stacked:
            name_height = theme.font(theme.FONT_NORMAL) * 1.5
            box = BoxLayout(orientation="vertical", size_hint_y=None, height=name_height + theme.BUTTON_HEIGHT)
            box.add_widget(TextLabel(title, size=theme.FONT_NORMAL, bold=True, size_hint_y=None, height=name_height))
        else:
            box = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
            box.add_widget(TextLabel(title, size=theme.FONT_NORMAL, bold=True, size_hint_x=None, width=TITLE_WIDTH))
        chooser.size_hint_y = None
        chooser.height = theme.BUTTON_HEIGHT
        box.add_widget(chooser)
        return box
