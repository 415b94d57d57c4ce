"""Settings: language (at once), text size (at once), camera source and roll button, and the
learned card list: export it into the exports folder, or import one from there.

Importing picks a file from a list of the .json files in the exports folder
(no keyboard, no file dialog: a finger taps a name). A file with any bad card
is refused whole with a message naming the file, the card and what is wrong;
the table's own card list never loses a card.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from app.games.base import Message
from app.ui import theme
from app.ui.macao.catalogue import CatalogueError, read_card_file
from app.ui.i18n import LANGUAGES, N_, _, ngettext, translator
from app.ui.screens.base import BaseScreen, Paragraph
from app.ui.settings_store import BUTTON_CHOICES, CAMERA_CHOICES, TEXT_SCALES
from app.ui.widgets import BigButton, TextLabel, Tile, segmented

TITLE_WIDTH = 150  # px of the setting names' column
NOTHING_IMPORTED = N_("Nothing was imported; your card list is unchanged.")


def card_files(folder: Path) -> list[Path]:
    """The .json files of a folder, newest first (none when the folder is missing or unreadable)."""
    dated: list[tuple[float, str, Path]] = []
    with suppress(OSError):  # no folder, or it (or a file in it) went away while being listed
        for path in folder.iterdir():
            if path.suffix.lower() == ".json" and path.is_file():
                dated.append((-path.stat().st_mtime, path.name, path))
    return [path for _age, _name, path in sorted(dated)]


class SettingsScreen(BaseScreen):
    screen_name = "settings"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.choosing_card_file = False
        self.card_words: list[Message] = []  # what the last export or import did
        self.card_failed = False

    def prepare(self, **_params: Any) -> None:
        """Coming to the screen shows the settings, without an earlier card list message."""
        self.choosing_card_file = False
        self.card_words = []

    def build(self, root: BoxLayout) -> None:
        if self.choosing_card_file:
            self._build_chooser(root)
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
            (_("Card costs"), segmented((False, True), settings.check_costs, lambda v: self._change(check_costs=v),
                                        labels={False: _("paid at activation"), True: _("typed at reveal")},
                                        group="check_costs")),
        )
        # Large text or a tall screen: each name above its choice, scrolling if need be;
        # else name and choice side by side, which fits 800x480 without scrolling.
        stacked = self.portrait() or theme.text_scale.factor > 1.0
        for title, chooser in rows:
            for button in chooser.children:
                button.font_size = theme.font(theme.FONT_SMALL)
            body.add_widget(self._titled(title, chooser, stacked))
        body.add_widget(self._titled(_("Card list"), self._card_list_row(), stacked))
        if self.card_words:
            body.add_widget(self._card_words_label())
        elif self.app.notice.text:
            body.add_widget(TextLabel(self.app.notice.text, size=theme.FONT_SMALL, size_hint_y=None, height=44,
                                      color=theme.DANGER_TEXT if self.app.notice.level == "error" else theme.TEXT_DIM))
        if not stacked:
            body.add_widget(Widget())
            root.add_widget(body)
            return
        body.size_hint_y = None
        body.bind(minimum_height=body.setter("height"))
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(body)
        root.add_widget(scroll)

    def _change(self, **changes: object) -> None:
        before = self.app.context.settings
        after = replace(before, **changes)
        self.app.apply_settings(after)
        if (after.camera, after.button) != (before.camera, before.button):
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

    # -- the learned card list ------------------------------------------------------
    def _card_list_row(self) -> BoxLayout:
        row = BoxLayout(spacing=theme.GAP)
        count = len(self.app.context.catalogue)
        row.add_widget(TextLabel(ngettext("{n} known card", "{n} known cards", count).format(n=count), size=theme.FONT_SMALL))
        row.add_widget(BigButton(_("Export card list"), on_tap=self.on_export, size=theme.FONT_SMALL))
        row.add_widget(BigButton(_("Import card list"), on_tap=self.on_choose_import, size=theme.FONT_SMALL))
        return row

    def _card_words_label(self) -> TextLabel:
        text = "\n".join(translator.message(words) for words in self.card_words)
        return Paragraph(text, size=theme.FONT_SMALL, size_hint_y=None, height=66,
                         color=theme.DANGER_TEXT if self.card_failed else theme.TEXT)

    def on_export(self) -> None:
        context = self.app.context
        self.card_failed = False
        if not len(context.catalogue):
            self.card_words = [Message(N_("No named cards yet: nothing to export."))]
        else:
            try:
                path = context.catalogue.export_to(context.exports_dir, context.clock())
            except OSError as err:
                self.card_words = [Message(N_("The card list could not be exported ({reason})."),
                                           {"reason": err.strerror or str(err)})]
                self.card_failed = True
            else:
                self.card_words = [Message(N_("Card list saved as {file} in {folder}."),
                                           {"file": path.name, "folder": str(path.parent)})]
        self.refresh()

    def on_choose_import(self) -> None:
        self.choosing_card_file = True
        self.card_words = []
        self.refresh()

    def _build_chooser(self, root: BoxLayout) -> None:
        """The .json files of the exports folder as tiles; each says how many cards it holds, or why not."""
        root.add_widget(self.title_bar(_("Import card list"), back_to="settings"))
        folder = self.app.context.exports_dir
        body = BoxLayout(orientation="vertical", padding=theme.GAP * 2, spacing=theme.GAP)
        if self.card_words:
            body.add_widget(self._card_words_label())
        files = card_files(folder)
        if not files:
            body.add_widget(Paragraph(
                _("No .json files in {folder}. Copy a card list there (e.g. from a USB stick), then look again.")
                .format(folder=folder), size=theme.FONT_NORMAL, size_hint_y=None, height=80))
            body.add_widget(Widget())
            root.add_widget(body)
            return
        body.add_widget(Paragraph(_("Files in {folder}, newest first. Tap one to add its cards to yours.")
                                  .format(folder=folder), size=theme.FONT_SMALL, color=theme.TEXT_DIM,
                                  size_hint_y=None, height=44))
        grid = GridLayout(cols=1, spacing=3, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for path in files:
            try:
                summary, colour = _("{n} cards").format(n=len(read_card_file(path))), theme.TEXT_DIM
            except CatalogueError as err:
                summary, colour = translator.message(err.problem), theme.WARN
            tile = Tile(on_tap=lambda chosen=path: self.on_import(chosen), tag=("card-file", path.name),
                        orientation="vertical", padding=(8, 2), size_hint_y=None, height=60,
                        bg=list(theme.PANEL_LIGHT))
            tile.add_widget(TextLabel(path.name, size=theme.FONT_NORMAL))
            tile.add_widget(TextLabel(summary, size=theme.FONT_SMALL, color=colour))
            grid.add_widget(tile)
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(grid)
        body.add_widget(scroll)
        root.add_widget(body)

    def on_import(self, path: Path) -> None:
        catalogue = self.app.context.catalogue
        try:
            added = catalogue.import_file(path)
        except CatalogueError as err:
            self.card_words, self.card_failed = [err.message, Message(NOTHING_IMPORTED)], True
        except OSError as err:
            self.card_words = [Message(N_("{file}: the card list could not be saved ({reason})."),
                                       {"file": catalogue.path.name, "reason": err.strerror or str(err)}),
                               Message(NOTHING_IMPORTED)]
            self.card_failed = True
        else:
            self.card_words = [Message(N_("{added} new cards from {file}; the card list now holds {total}."),
                                       {"added": added, "file": path.name, "total": len(catalogue)})]
            self.card_failed = False
            self.choosing_card_file = False
        self.refresh()
