"""A new game of Macao: who plays (2-4 colours, names) and the starting wall stack."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from app.games.base import MAX_NAME_LENGTH, RecordError, RulesError, player_name_problem
from app.games.macao import PLAYER_COLOURS
from app.ui import theme
from app.ui.i18n import _, translator
from app.ui.roster import RosterEntry
from app.ui.roster_row import roster_row
from app.ui.screens.base import BaseScreen
from app.ui.widgets import BigButton, Panel, TextField, TextLabel, player_button


class NewGameScreen(BaseScreen):
    screen_name = "macao_setup"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.prepare()

    def prepare(self, **_params: Any) -> None:
        """Start from an empty table: nobody seated, default names."""
        self.seated: list[str] = []  # colours in wall order, top of the stack first
        self.names: dict[str, str] = {}
        self.problem = ""

    def name_of(self, colour: str) -> str:
        return self.names.get(colour) or translator.gettext(colour).capitalize()

    def build(self, root: BoxLayout) -> None:
        root.add_widget(self.title_bar(_("New game"), back_to="new_game"))
        body = BoxLayout(orientation="vertical" if self.portrait() else "horizontal",
                         padding=theme.GAP * 2, spacing=theme.GAP * 2)
        roomy = self.roomy()  # a tall window: taller seat rows and buttons
        seats = BoxLayout(orientation="vertical", spacing=theme.GAP)
        seats.add_widget(TextLabel(_("Tap a colour to seat a player; type a name if you like."),
                                   size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_y=None, height=44))
        for colour in PLAYER_COLOURS:
            row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=72 if roomy else theme.BUTTON_HEIGHT)
            seated = colour in self.seated
            label = (_("Seated") if seated else _("Add")) + ": " + translator.gettext(colour)
            toggle = player_button(colour, label, on_tap=partial(self._toggle, colour), size_hint_x=0.45,
                                   size_hint_y=1, tag=("seat", colour))
            toggle.opacity = 1.0 if seated else 0.55
            row.add_widget(toggle)
            entry = TextField(text=self.names.get(colour, ""), hint_text=self.name_of(colour), multiline=False,
                              font_size=theme.font(theme.FONT_NORMAL), disabled=not seated,
                              write_tab=False, padding=(10, 24 if roomy else 14))
            entry.input_filter = lambda typed, _undo, e=entry: typed[:max(0, MAX_NAME_LENGTH - len(e.text))]
            entry.bind(text=lambda _w, text, c=colour: self.names.__setitem__(c, text.strip()))
            row.add_widget(entry)
            seats.add_widget(row)
        seats.add_widget(BoxLayout())
        names = roster_row(self.app.session, [self.name_of(c) for c in self.seated], self._seat_known,
                           full=len(self.seated) == len(PLAYER_COLOURS))
        if names is not None:
            seats.add_widget(names)
        body.add_widget(seats)

        wall = Panel(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        # Three lines of room: two at 140 % text.
        wall.add_widget(TextLabel(_("Starting wall stack, top first (tap to move to the top)"),
                                  size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_y=None, height=60))
        for colour in self.seated:
            wall.add_widget(player_button(colour, self.name_of(colour), height=64 if roomy else 44,
                                          on_tap=partial(self._to_top, colour)))
        wall.add_widget(BoxLayout())
        wall.add_widget(BigButton(_("Shuffle the stack"), on_tap=self._shuffle, disabled=len(self.seated) < 2,
                                  height=72 if roomy else theme.BUTTON_HEIGHT))
        if self.problem:
            wall.add_widget(TextLabel(self.problem, size=theme.FONT_SMALL, color=theme.DANGER_TEXT,
                                      size_hint_y=None, height=48))
        ready = 2 <= len(self.seated) <= 4
        wall.add_widget(BigButton(_("Start the game") if ready else _("Seat 2 to 4 players"),
                                  role="ok", disabled=not ready, on_tap=self._start,
                                  height=80 if roomy else theme.BUTTON_HEIGHT))
        body.add_widget(wall)
        root.add_widget(body)

    def _toggle(self, colour: str) -> None:
        if colour in self.seated:
            self.seated.remove(colour)
        else:
            self.seated.append(colour)
        self.refresh()

    def _seat_known(self, player: RosterEntry) -> None:
        """A name from the roster takes its usual colour, or the first free one."""
        free = [colour for colour in PLAYER_COLOURS if colour not in self.seated]
        if not free:
            return
        colour = player.colour if player.colour in free else free[0]
        self.seated.append(colour)
        self.names[colour] = player.name
        self.refresh()

    def _to_top(self, colour: str) -> None:
        self.seated.remove(colour)
        self.seated.insert(0, colour)
        self.refresh()

    def _shuffle(self) -> None:
        random.shuffle(self.seated)
        self.refresh()

    def _start(self) -> None:
        players = [{"colour": colour, "name": self.name_of(colour)} for colour in PLAYER_COLOURS
                   if colour in self.seated]
        for player in players:  # the one name rule (app.games.base), as the session applies it
            problem = player_name_problem(player["name"])
            if problem is not None:
                self.problem = _("The name for {colour} cannot be used: it {problem}.").format(
                    colour=translator.gettext(player["colour"]), problem=translator.gettext(problem))
                self.refresh()
                return
        header = {"started": self.app.context.clock(), "players": players, "wall": list(self.seated)}
        try:
            self.app.session.new_game("macao", header)
        except RulesError as err:
            self.problem = translator.message(err.message)
            self.refresh()
            return
        except RecordError as err:
            self.problem = str(err)
            self.refresh()
            return
        self.app.say("")
        self.app.go("game")
