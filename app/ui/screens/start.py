"""Home: resume the unfinished game, start a new one, past games, settings, camera check."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from app.games.base import Message
from app.ui import theme
from app.ui.i18n import _, translator
from app.ui.screens.base import BaseScreen, Paragraph
from app.ui.widgets import BigButton, TextLabel


class StartScreen(BaseScreen):
    screen_name = "start"

    def build(self, root: BoxLayout) -> None:
        root.padding = (24, 12)
        root.spacing = theme.GAP * 2
        root.add_widget(TextLabel("Windrose", size=theme.FONT_HUGE, bold=True, halign="center",
                                  size_hint_y=None, height=64))
        root.add_widget(TextLabel(_("Table companion for board games"), size=theme.FONT_NORMAL, halign="center",
                                  color=theme.TEXT_DIM, size_hint_y=None, height=32))
        notice = self.app.notice
        if notice.text:  # e.g. the start-up notices: whole, however many lines they take
            root.add_widget(Paragraph(notice.text, size=theme.FONT_SMALL, halign="center", grow=True,
                                      color=theme.DANGER_TEXT if notice.level == "error" else theme.TEXT))
        for later in self._notices_since_start():
            root.add_widget(Paragraph(later, size=theme.FONT_SMALL, halign="center", color=theme.WARN, grow=True))
        link = self.app.context.dice
        if link is not None and link.has_camera and not link.tray_marked:
            root.add_widget(Paragraph(_("The dice tray is not marked at this table yet: after a camera check the "
                                        "dice are read more surely."), size=theme.FONT_SMALL, halign="center",
                                      color=theme.TEXT_DIM, grow=True))
        grid = GridLayout(cols=1 if self.portrait() else 2, spacing=theme.GAP * 2)
        tall = 104 if self.roomy() else 72  # a tall window has room for bigger buttons
        if self.app.session.backup_offers:
            grid.add_widget(BigButton(_("Restore from the backups"), role="ok", size=theme.FONT_LARGE, height=tall,
                                      on_tap=self.app.restore_backups))
        unfinished = self._unfinished_game()
        if unfinished is not None:
            game_id, label = unfinished
            grid.add_widget(BigButton(label, role="ok", size=theme.FONT_LARGE, height=tall,
                                      on_tap=lambda: self._resume(game_id)))
        grid.add_widget(BigButton(_("New game"), role="accent", size=theme.FONT_LARGE, height=tall,
                                  on_tap=lambda: self.app.go("new_game")))
        grid.add_widget(BigButton(_("Past games"), height=tall, on_tap=lambda: self.app.go("past_games")))
        grid.add_widget(BigButton(_("Settings"), height=tall, on_tap=lambda: self.app.go("settings")))
        grid.add_widget(BigButton(_("Camera check"), height=tall, on_tap=lambda: self.app.go("camera")))
        root.add_widget(grid)
        root.add_widget(BoxLayout())

    def _notices_since_start(self) -> list[str]:
        """The session's notices that came after start-up (a backup copy that could not be
        written), in the table's language; those of the start are in the notice above."""
        shown = self.app.context.warnings
        return [translator.message(n.message) for n in self.app.session.notices if n not in shown]

    def _unfinished_game(self) -> tuple[int, str] | None:
        """The game on the table (loaded or last unfinished), as a Resume button label that
        says how far it is in its game's own words (a round, or a sheet's entries)."""
        session = self.app.session
        if session.game_id is not None and not session.is_over:
            names = ", ".join(seat.name for seat in session.game.seats(session.document().header))
            return session.game_id, self._resume_label(names, session.progress().label)
        for game in reversed(session.games()):
            if not game.finished and game.problem is None and game.progress is not None:
                names = ", ".join(name for _colour, name in game.players)
                return game.id, self._resume_label(names, game.progress)
        return None

    @staticmethod
    def _resume_label(names: str, progress: Message) -> str:
        return _("Resume: {names} ({progress})").format(names=names, progress=translator.message(progress))

    def _resume(self, game_id: int) -> None:
        if self.app.session.game_id != game_id:
            self.app.session.load(game_id)
        self.app.say("")
        self.app.go("game")
