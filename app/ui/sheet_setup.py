"""A new score-sheet game: who plays, in seating order (and, where the game has them, each
player's colour). The names are checked by the game's own rules when the game starts."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from app.games import game
from app.games.base import RecordError, RulesError
from app.ui import theme
from app.ui.i18n import _, translator
from app.ui.roster import RosterEntry
from app.ui.roster_row import roster_row
from app.ui.screens.base import BaseScreen
from app.ui.widgets import BigButton, TextField, TextLabel


class SheetSetupScreen(BaseScreen):
    """Name fields for up to the game's most players; a game with player colours (`colours`)
    shows a colour button per seat that steps through them."""

    game_id = ""
    colours: tuple[str, ...] = ()
    fills: dict[str, tuple[float, float, float, float]] = {}  # how each colour is drawn

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.prepare()

    @property
    def rules(self) -> Any:
        return game(self.game_id)

    def prepare(self, **_params: Any) -> None:
        """Start from an empty table: no names, each seat its own colour."""
        self.names = [""] * self.rules.max_players
        self.seat_colours = [self.colours[i % len(self.colours)] for i in range(len(self.names))] if self.colours \
            else []
        self.problem = ""

    def seated(self) -> list[int]:
        return [i for i, name in enumerate(self.names) if name.strip()]

    def build(self, root: BoxLayout) -> None:
        rules = self.rules
        root.add_widget(self.title_bar(translator.message(rules.title), back_to="new_game"))
        body = BoxLayout(orientation="vertical", padding=theme.GAP * 2, spacing=theme.GAP)
        body.add_widget(TextLabel(_("Type each player's name in seating order, going round the table."),
                                  size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_y=None, height=30))
        row_height = theme.TOUCH_MIN if len(self.names) > 5 else theme.BUTTON_HEIGHT
        for index, name in enumerate(self.names):
            row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=row_height)
            row.add_widget(TextLabel(str(index + 1), size=theme.FONT_NORMAL, halign="center", size_hint_x=None,
                                     width=40))
            entry = TextField(text=name, hint_text=_("Player {n}").format(n=index + 1), multiline=False,
                              font_size=theme.font(theme.FONT_NORMAL), write_tab=False, padding=(10, 12))
            entry.bind(text=lambda _w, text, i=index: self.names.__setitem__(i, text.strip()))
            row.add_widget(entry)
            if self.colours:
                colour = self.seat_colours[index]
                row.add_widget(BigButton(translator.gettext(colour), fill=self.fills.get(colour), size_hint=(None, 1),
                                         size_hint_y=1, width=150, tag=("colour", index),
                                         on_tap=partial(self._next_colour, index)))
            body.add_widget(row)
        names = roster_row(self.app.session, self.names, self._seat_known, full=all(self.names))
        if names is not None:
            body.add_widget(names)
        if self.problem:
            body.add_widget(TextLabel(self.problem, size=theme.FONT_SMALL, color=theme.DANGER, size_hint_y=None,
                                      height=40))
        body.add_widget(BoxLayout())
        body.add_widget(BigButton(_("Start the game"), role="ok", tag=("start", ""), on_tap=self.start))
        root.add_widget(body)

    def _seat_known(self, player: RosterEntry) -> None:
        """A name from the roster fills the first empty seat, in its usual colour if the game has it."""
        if "" not in self.names:
            return
        index = self.names.index("")
        self.names[index] = player.name
        if player.colour in self.colours:
            self.seat_colours[index] = str(player.colour)
        self.refresh()

    def _next_colour(self, index: int) -> None:
        current = self.colours.index(self.seat_colours[index])
        self.seat_colours[index] = self.colours[(current + 1) % len(self.colours)]
        self.refresh()

    def header(self) -> dict[str, Any]:
        players: list[dict[str, Any]] = []
        for index in self.seated():
            player: dict[str, Any] = {"name": self.names[index]}
            if self.colours:
                player["colour"] = self.seat_colours[index]
            players.append(player)
        return {"started": self.app.context.clock(), "players": players}

    def start(self) -> None:
        rules = self.rules
        if not rules.min_players <= len(self.seated()) <= rules.max_players:
            self.problem = _("Name {low} to {high} players.").format(low=rules.min_players, high=rules.max_players)
            self.refresh()
            return
        try:
            self.app.session.new_game(self.game_id, self.header())
        except (RecordError, RulesError) as err:
            message = getattr(err, "message", None)
            where = getattr(err, "where", "")
            self.problem = translator.message(message) if message is not None else str(err)
            if where.startswith("players["):  # name the seat: players[1].name is the second named seat
                seat = self.seated()[int(where[len("players["):where.index("]")])] + 1
                self.problem = _("Player {n}: {problem}").format(n=seat, problem=self.problem)
            self.refresh()
            return
        self.app.say("")
        self.app.go("game")
