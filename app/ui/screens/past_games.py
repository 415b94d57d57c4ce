"""Past games with statistics per player (wins, average, best, a chart), and one game's
score with its exports."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from app.games import game as registered_game
from app.ui import theme
from app.ui.charts import Bar, BarChart
from app.ui.i18n import _, ngettext, translator
from app.ui.export_buttons import export_buttons
from app.ui.games import game_ui
from app.ui.past import past_game
from app.ui.screens.base import BaseScreen
from app.ui.screens.score import winner_text
from app.ui.stats import player_stats
from app.ui.widgets import BigButton, Panel, TextLabel, Tile

ALL_GAMES = "*"


class PastGamesScreen(BaseScreen):
    screen_name = "past_games"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.stats_game = ""  # whose statistics show: a registered game or ALL_GAMES ("": the latest)

    def build(self, root: BoxLayout) -> None:
        root.add_widget(self.title_bar(_("Past games")))
        session = self.app.session
        games = list(reversed(session.games()))
        body = BoxLayout(orientation="vertical" if self.portrait() else "horizontal", spacing=theme.GAP,
                         padding=theme.GAP)
        grid = GridLayout(cols=1, spacing=3, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        finished = []
        for game in games:
            names = ", ".join(name for _colour, name in game.players)
            if game.problem:
                state = _("cannot be replayed")
            elif game.finished and game.winner:
                winner = next((n for c, n in game.players if c == game.winner), game.winner)
                state = _("won by {name}").format(name=winner)
            elif game.progress is not None:
                state = _("{progress}, not finished").format(progress=translator.message(game.progress))
            else:
                state = _("not finished")
            tile = Tile(on_tap=partial(self.app.go, "past_game", game_id=game.id), orientation="vertical",
                        padding=(8, 2), size_hint_y=None, height=60, bg=list(theme.PANEL_LIGHT))
            tile.add_widget(TextLabel(f"{game.started[:16].replace('T', ' ')}  {names}", size=theme.FONT_NORMAL))
            tile.add_widget(TextLabel(state, size=theme.FONT_SMALL, color=theme.TEXT_DIM))
            grid.add_widget(tile)
            if game.finished and game.winner and not game.problem:
                finished.append((game.id, game.game))
        if not games:
            grid.add_widget(TextLabel(_("No games yet."), size=theme.FONT_NORMAL, size_hint_y=None, height=40))
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(grid)
        if self.portrait():  # stacked: the list as high as its games (it scrolls beyond), statistics below
            grid.bind(height=lambda _grid, height: setattr(scroll, "size_hint_max_y", max(height, 60)))
        body.add_widget(scroll)
        body.add_widget(self._statistics(finished))
        root.add_widget(body)
        root.add_widget(BigButton(_("Import a game"), on_tap=lambda: self.app.go("import_game")))

    def _statistics(self, finished: list[tuple[int, str]]) -> BoxLayout:
        """Per name over the finished games of one registered game (wins, average, best), or over
        all of them together (games and wins only: scores of different games do not add up).
        `finished`: (game id, registered game) of every finished game, newest first."""
        kinds = [ALL_GAMES, *dict.fromkeys(kind for _id, kind in finished)]
        if self.stats_game not in kinds:
            self.stats_game = kinds[1] if len(kinds) > 1 else ALL_GAMES  # the latest game played
        chosen = self.stats_game
        game_ids = [game_id for game_id, kind in finished if chosen in (ALL_GAMES, kind)]
        box = Panel(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        box.add_widget(TextLabel(ngettext("Statistics over {n} finished game", "Statistics over {n} finished games",
                                          len(game_ids)).format(n=len(game_ids)),
                                 size=theme.FONT_NORMAL, bold=True, size_hint_y=None, height=30))
        title = _("All games") if chosen == ALL_GAMES else translator.message(registered_game(chosen).title)
        box.add_widget(BigButton(title, tag=("stats_game", chosen), disabled=len(kinds) < 3, height=theme.TOUCH_MIN,
                                 on_tap=lambda: self._next_stats_game(kinds)))
        tables = []
        for game_id in game_ids:
            table = past_game(self.app.session, game_id).table
            if table is not None:
                tables.append(table)
        stats = player_stats(tables)
        scored = chosen != ALL_GAMES
        table = GridLayout(cols=5, spacing=2, size_hint_y=None, height=28 * (len(stats) + 1))
        for title in (_("Player"), _("Games"), _("Wins"), _("Average"), _("Best")):
            table.add_widget(TextLabel(title, size=theme.FONT_SMALL, bold=True, color=theme.TEXT_DIM))
        for s in stats:
            values = (s.name, s.games, s.wins, f"{s.average:.1f}" if scored else "-", s.best if scored else "-")
            for value in values:
                table.add_widget(TextLabel(str(value), size=theme.FONT_SMALL))
        box.add_widget(table)
        if stats and scored:
            box.add_widget(TextLabel(_("Average score"), size=theme.FONT_SMALL, color=theme.TEXT_DIM,
                                     size_hint_y=None, height=22))
            chart = BarChart([Bar(s.name, theme.ACCENT, ((round(s.average, 1), theme.ACCENT),)) for s in stats])
            if self.roomy():  # rows about a bar and a half high, not the whole of a tall window
                chart.size_hint_max_y = 90 * len(stats)
            box.add_widget(chart)
        if self.roomy() or not scored:
            box.add_widget(Widget())  # the statistics stay together at the top of their panel
        return box

    def _next_stats_game(self, kinds: list[str]) -> None:
        self.stats_game = kinds[(kinds.index(self.stats_game) + 1) % len(kinds)]
        self.refresh()


class PastGameScreen(BaseScreen):
    """One stored game: its score (if over), exports, and a way to continue it."""

    screen_name = "past_game"

    def prepare(self, game_id: int = 0, **_params: Any) -> None:
        self.game_id = game_id

    def build(self, root: BoxLayout) -> None:
        root.add_widget(self.title_bar(_("Game {n}").format(n=self.game_id), back_to="past_games"))
        game = past_game(self.app.session, self.game_id)
        body = BoxLayout(orientation="vertical", padding=theme.GAP * 2, spacing=theme.GAP)
        names = ", ".join(seat.name for seat in game.seats)
        body.add_widget(TextLabel(f"{game.started[:16].replace('T', ' ')}  {names}", size=theme.FONT_NORMAL,
                                  size_hint_y=None, height=30))
        if game.problem:
            body.add_widget(TextLabel(_("This game cannot be replayed: {problem}").format(problem=game.problem),
                                      size=theme.FONT_SMALL, color=theme.DANGER_TEXT))
        elif game.table is not None:
            body.add_widget(TextLabel(winner_text(game.table), size=theme.FONT_LARGE, bold=True,
                                      size_hint_y=None, height=44))
            for part in game_ui(game.table.game).score_widgets(game.table, False, self.narrow()):
                body.add_widget(part)  # as on the final score
        else:
            body.add_widget(TextLabel(_("Not finished yet."), size=theme.FONT_NORMAL))
        if self.app.notice.text:
            body.add_widget(TextLabel(self.app.notice.text, size=theme.FONT_SMALL, size_hint_y=None, height=44))
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
        for button in export_buttons(self.app, self.game_id):
            row.add_widget(button)
        if game.game is not None:
            row.add_widget(BigButton(_("Rematch"), role="ok", tag=("rematch", ""),
                                     on_tap=lambda: self.app.rematch(self.game_id)))
        if game.table is None and not game.problem:
            row.add_widget(BigButton(_("Continue this game"), role="ok", on_tap=self._continue))
        body.add_widget(row)
        root.add_widget(body)

    def _continue(self) -> None:
        self.app.session.load(self.game_id)
        self.app.say("")
        self.app.go("game")
