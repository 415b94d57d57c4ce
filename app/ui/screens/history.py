"""Every action of the game, newest first, with "go back to here"; redo; and table corrections
(the counters the game's UI names)."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.games import GameUi, game_ui
from app.ui.i18n import _, translator
from app.ui.screens.base import BaseScreen
from app.ui.widgets import BigButton, Panel, TextField, TextLabel, player_button, stepper

ROW_HEIGHT = theme.TOUCH_MIN + 6  # an entry's row: its "go back" button and a little air
ROW_PADDING = 3


class HistoryScreen(BaseScreen):
    screen_name = "history"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.correcting = False
        self.reset_correction()

    def reset_correction(self) -> None:
        self.player: str | None = None
        self.amounts: dict[str, int] = {}
        self.note = ""

    @property
    def game_ui(self) -> GameUi:
        return game_ui(self.app.session.game.id)

    def build(self, root: BoxLayout) -> None:
        session = self.app.session
        bar = Panel(size_hint_y=None, height=theme.TOP_BAR_HEIGHT, spacing=theme.GAP)
        bar.add_widget(BigButton(_("Back to the game"), on_tap=lambda: self.app.go("game"), size_hint=(None, 1), width=200))
        bar.add_widget(Widget() if self.narrow() else TextLabel(_("History"), size=theme.FONT_LARGE, bold=True,
                                                                 halign="center"))
        bar.add_widget(BigButton(_("Redo"), on_tap=self.app.redo, disabled=not session.can_redo,
                                 size_hint=(None, 1), width=124))
        bar.add_widget(BigButton(_("Undo"), role="danger", on_tap=self.app.undo, disabled=not session.can_undo,
                                 size_hint=(None, 1), width=124))
        root.add_widget(bar)
        if self.app.notice.text:
            root.add_widget(TextLabel(self.app.notice.text, size=theme.FONT_SMALL, size_hint_y=None, height=28,
                                      color=theme.DANGER_TEXT if self.app.notice.level == "error" else theme.TEXT))
        body = BoxLayout(orientation="vertical" if self.portrait() else "horizontal", spacing=theme.GAP,
                         padding=theme.GAP)
        body.add_widget(self._entries())
        if self.game_ui.corrections:
            body.add_widget(self._correction() if self.correcting else BigButton(
                _(self.game_ui.correction_prompt), on_tap=self._open_correction,
                size_hint=(0.5, None) if not self.portrait() else (1, None)))
        root.add_widget(body)

    def _entries(self) -> ScrollView:
        session = self.app.session
        live_actions = len(session.actions)
        grid = GridLayout(cols=1, spacing=3, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for entry in reversed(session.history()):
            row = Panel(size_hint_y=None, height=ROW_HEIGHT, spacing=theme.GAP, padding=(6, ROW_PADDING),
                        bg=list(theme.PANEL if entry.live or entry.kind != "action" else theme.BACKGROUND))
            line = translator.message(entry.message)
            if entry.kind == "action":
                line = f"{entry.index + 1}. {line}"
            words = TextLabel(line, size=theme.FONT_SMALL,
                              color=theme.TEXT if entry.live or entry.kind != "action" else theme.TEXT_DIM)
            # A long entry (a round's six cards and tribute) grows its row rather than lose its end.
            words.bind(width=lambda label, _width, row=row: setattr(
                row, "height", max(ROW_HEIGHT, label.wrapped_height() + 2 * ROW_PADDING)))
            row.add_widget(words)
            if entry.kind == "action" and entry.live and entry.index + 1 < live_actions:
                row.add_widget(BigButton(_("Go back to here"), size=theme.FONT_SMALL, size_hint=(None, None),
                                         width=170, height=theme.TOUCH_MIN, pos_hint={"center_y": 0.5},
                                         on_tap=partial(self.app.go_back, entry.index + 1)))
            grid.add_widget(row)
        if not grid.children:
            grid.add_widget(TextLabel(_("Nothing has happened yet."), size=theme.FONT_NORMAL, size_hint_y=None, height=40))
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(grid)
        return scroll

    def _open_correction(self) -> None:
        self.correcting = True
        self.reset_correction()
        self.refresh()

    def _correction(self) -> Panel:
        session = self.app.session
        box = Panel(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        box.add_widget(TextLabel(_("A table ruling the rules cannot check; it is logged."), size=theme.FONT_SMALL,
                                 size_hint_y=None, height=24, color=theme.TEXT_DIM))
        players = BoxLayout(spacing=3, size_hint_y=None, height=theme.BUTTON_HEIGHT)
        for seat in session.game.seats(session.document().header):
            button = player_button(seat.colour or "", seat.name, on_tap=partial(self._set_player, seat.id))
            button.opacity = 1.0 if seat.id == self.player else 0.5
            players.add_widget(button)
        box.add_widget(players)
        for key, title in self.game_ui.corrections:
            row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
            row.add_widget(TextLabel(_(title), size=theme.FONT_SMALL, size_hint_x=0.6))
            row.add_widget(stepper(self.amounts.get(key, 0), partial(self._set_amount, key),
                                   low=-99, high=99, key=key))
            box.add_widget(row)
        note = TextField(text=self.note, hint_text=_("Why (required)"), multiline=False, size_hint_y=None,
                         height=theme.BUTTON_HEIGHT, font_size=theme.font(theme.FONT_NORMAL), padding=(8, 14))
        note.bind(text=lambda _w, text: setattr(self, "note", text))
        box.add_widget(note)
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
        row.add_widget(BigButton(_("Cancel"), on_tap=self._close_correction))
        ready = self.player is not None and any(self.amounts.values())
        row.add_widget(BigButton(_("Log the correction"), role="ok", disabled=not ready, on_tap=self._send))
        box.add_widget(row)
        return box

    def _set_player(self, colour: str) -> None:
        self.player = colour
        self.refresh()

    def _set_amount(self, key: str, value: int) -> None:
        self.amounts[key] = value
        self.refresh()

    def _close_correction(self) -> None:
        self.correcting = False
        self.refresh()

    def _send(self) -> None:
        if self.player is None:
            return
        changed = {key: value for key, value in self.amounts.items() if value}
        action = self.game_ui.correction(self.player, changed, self.note.strip())
        if self.app.act(action):
            self.correcting = False
            self.refresh()
