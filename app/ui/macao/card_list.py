"""Macao's learned card list in Settings: export it into the exports folder, or import one
from there.

Importing picks a file from a list of the .json files in the exports folder
(no keyboard, no file dialog: a finger taps a name). A file with any bad card
is refused whole with a message naming the file, the card and what is wrong;
the table's own card list never loses a card.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from app.games.base import Message
from app.paths import json_files
from app.ui import theme
from app.ui.games import SettingsSection
from app.ui.i18n import N_, _, ngettext, translator
from app.ui.macao.catalogue import CatalogueError, read_card_file
from app.ui.screens.base import Paragraph
from app.ui.widgets import BigButton, TextLabel, Tile

NOTHING_IMPORTED = N_("Nothing was imported; your card list is unchanged.")


class CardListSettings(SettingsSection):
    """The settings row of the card list, the file chooser it opens, and what the last export
    or import did."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.words: list[Message] = []  # what the last export or import did
        self.failed = False

    def title(self) -> str:
        return _("Card list")

    def reset(self) -> None:
        self.words = []

    def result(self) -> Widget | None:
        return self._words_label() if self.words else None

    def tour(self, tour: Any) -> Iterator[None]:
        from app.ui.macao.tour import card_list_tour

        return card_list_tour(self, tour)

    def row(self) -> BoxLayout:
        row = BoxLayout(spacing=theme.GAP)
        count = len(self.screen.app.context.catalogue)
        row.add_widget(TextLabel(ngettext("{n} known card", "{n} known cards", count).format(n=count), size=theme.FONT_SMALL))
        row.add_widget(BigButton(_("Export card list"), on_tap=self.on_export, size=theme.FONT_SMALL))
        row.add_widget(BigButton(_("Import card list"), on_tap=self.on_choose_import, size=theme.FONT_SMALL))
        return row

    def _words_label(self) -> TextLabel:
        text = "\n".join(translator.message(words) for words in self.words)
        return Paragraph(text, size=theme.FONT_SMALL, size_hint_y=None, height=66,
                         color=theme.DANGER if self.failed else theme.TEXT)

    def on_export(self) -> None:
        context = self.screen.app.context
        self.failed = False
        if not len(context.catalogue):
            self.words = [Message(N_("No named cards yet: nothing to export."))]
        else:
            try:
                path = context.catalogue.export_to(context.exports_dir, context.clock())
            except OSError as err:
                self.words = [Message(N_("The card list could not be exported ({reason})."),
                                      {"reason": err.strerror or str(err)})]
                self.failed = True
            else:
                self.words = [Message(N_("Card list saved as {file} in {folder}."),
                                      {"file": path.name, "folder": str(path.parent)})]
        self.screen.refresh()

    def on_choose_import(self) -> None:
        self.screen.choosing = self
        self.words = []
        self.screen.refresh()

    def build_chooser(self, root: BoxLayout) -> None:
        """The .json files of the exports folder as tiles; each says how many cards it holds, or why not."""
        root.add_widget(self.screen.title_bar(_("Import card list"), back_to="settings"))
        folder = self.screen.app.context.exports_dir
        body = BoxLayout(orientation="vertical", padding=theme.GAP * 2, spacing=theme.GAP)
        if self.words:
            body.add_widget(self._words_label())
        files = json_files(folder)
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
            tile = Tile(on_tap=partial(self.on_import, path), tag=("card-file", path.name),
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
        catalogue = self.screen.app.context.catalogue
        try:
            added = catalogue.import_file(path)
        except CatalogueError as err:
            self.words, self.failed = [err.message, Message(NOTHING_IMPORTED)], True
        except OSError as err:
            self.words = [Message(N_("{file}: the card list could not be saved ({reason})."),
                                  {"file": catalogue.path.name, "reason": err.strerror or str(err)}),
                          Message(NOTHING_IMPORTED)]
            self.failed = True
        else:
            self.words = [Message(N_("{added} new cards from {file}; the card list now holds {total}."),
                                  {"added": added, "file": path.name, "total": len(catalogue)})]
            self.failed = False
            self.screen.choosing = None
        self.screen.refresh()
