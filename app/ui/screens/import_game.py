"""Import a game: a finger picks a record file (a backup copy or an exported game) and it is stored
as a new game, each action checked by the rules as if played at the table.

The files listed are the .json records in the backups folder beside the games file, in the
exports folder and on each USB stick mounted now (its top folder and the folder an export
writes there), newest first: no keyboard and no file dialog on a touchscreen.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from app.paths import json_files
from app.ui import theme
from app.ui.i18n import _
from app.ui.screens.base import BaseScreen
from app.ui.widgets import TextLabel, Tile

NOT_RECORDS = (".bgstats.json",)  # exports of ours that are no game record


def record_files(folders: list[tuple[Path, str]]) -> list[tuple[Path, str]]:
    """Each folder's record files (newest first), with the folder's label."""
    return [(path, label) for folder, label in folders for path in json_files(folder)
            if not path.name.endswith(NOT_RECORDS)]


class ImportGameScreen(BaseScreen):
    screen_name = "import_game"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.problem = ""

    def prepare(self, **_params: Any) -> None:
        self.problem = ""

    def build(self, root: BoxLayout) -> None:
        root.add_widget(self.title_bar(_("Import a game"), back_to="past_games"))
        body = BoxLayout(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        body.add_widget(TextLabel(_("Tap a backup copy or an exported game: it is stored as a new game."),
                                  size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_y=None, height=32))
        if self.problem:
            body.add_widget(TextLabel(self.problem, size=theme.FONT_SMALL, color=theme.DANGER, size_hint_y=None,
                                      height=44))
        folders = [(self.app.context.exports_dir, _("exports"))]
        if self.app.session.backup_dir is not None:
            folders.insert(0, (self.app.session.backup_dir, _("backups")))
        for stick in self.app.sticks():
            where = _("stick {label}").format(label=stick.label)
            folders += [(stick.path, where), (stick.export_dir, f"{where}/{stick.export_dir.name}")]
        grid = GridLayout(cols=1, spacing=3, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        files = record_files(folders)
        for path, label in files:
            tile = Tile(on_tap=partial(self._import, path), orientation="vertical", padding=(8, 2),
                        size_hint_y=None, height=60, bg=list(theme.PANEL_LIGHT), tag=("record_file", path.name))
            tile.add_widget(TextLabel(path.name, size=theme.FONT_NORMAL))
            tile.add_widget(TextLabel(label, size=theme.FONT_SMALL, color=theme.TEXT_DIM))
            grid.add_widget(tile)
        if not files:
            grid.add_widget(TextLabel(_("No game files in the backups or exports folder."), size=theme.FONT_NORMAL,
                                      size_hint_y=None, height=40))
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(grid)
        body.add_widget(scroll)
        root.add_widget(body)

    def _import(self, path: Path) -> None:
        problem = self.app.import_game(path)
        if problem is not None:
            self.problem = problem
            self.refresh()
