"""The game screen: top bar (menu, where the game is, history, undo), the last step's line under
Undo (what the last tap did, or what Undo took back; not over the full-width card and end forms),
the prompt, the phase panel, and the
players beside it. The current game's UI package (app.ui.games) supplies the
panel, the top bar's middle and the players' view."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.games import GameUi, PlayersView, game_ui
from app.ui.i18n import _, translator
from app.ui.panel import PhasePanel
from app.ui.screens.base import BaseScreen
from app.ui.widgets import BigButton, Panel, TextLabel

# The players' part of the body's height in portrait, beside the phase panel's 1.
PORTRAIT_PLAYERS_SHARE = 0.62
LANDSCAPE_PLAYERS_SHARE = 0.5  # the players' part of the body's width, beside the phase panel's 1
NOTICE_HEIGHT = 44  # the prompt's strip: one line, or more when its text needs them ...
NOTICE_AIR = 6  # ... with this much space around them
LAST_LINE_HEIGHT = 26  # the last step's line under the top bar


def fit_notice(strip: Widget, label: TextLabel) -> None:
    """The prompt strip as high as its text needs, at least one line's strip."""
    strip.height = max(NOTICE_HEIGHT, label.wrapped_height() + NOTICE_AIR)


class GameScreen(BaseScreen):
    screen_name = "game"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._panel: PhasePanel | None = None
        self._panel_key: tuple[Any, ...] = ()
        self._players: tuple[str, PlayersView] | None = None  # (game id, its players' view)
        self._position: tuple[int | None, int] | None = None  # the session's position last drawn
        self.summary: Any = None  # what the game showed over the screen after the last action

    def release(self) -> None:
        """Also forget what is kept for quick redraws: the players' view's cells, the parts of the
        left tree, and a phase panel whose step is already played (its remembered widgets hold
        their old parents, so the whole left tree). The panel of the step still open keeps its input."""
        super().release()
        self._close_summary()
        if self._players is not None:
            self._players[1].release()
        for part in ("panel_holder", "notice_strip", "notice_label"):
            if hasattr(self, part):
                delattr(self, part)
        if self._panel_key != self._step_key():
            self._panel = None

    @property
    def game_ui(self) -> GameUi:
        return game_ui(self.app.session.game.id)

    @property
    def players_view(self) -> PlayersView:
        """The current game's view of the players, kept across redraws."""
        game = self.app.session.game.id
        if self._players is None or self._players[0] != game:
            self._players = (game, self.game_ui.players_view())
        return self._players[1]

    def _step_key(self) -> tuple[Any, ...]:
        session = self.app.session
        if session.game_id is None:
            return ()
        return (session.game_id, self.game_ui.step_key(session.state, len(session.actions)))

    def current_panel(self) -> PhasePanel:
        """The panel for what the game waits for now; a new one when the step changed."""
        key = self._step_key()
        if self._panel is None or key != self._panel_key:
            self._panel = self.game_ui.panel(self, self.app.session.state)
            self._panel_key = key
        return self._panel

    def build(self, root: BoxLayout) -> None:
        session = self.app.session
        if session.game_id is None:
            root.add_widget(self.title_bar(_("No game"), back_to="start"))
            return
        if session.is_over:
            self.app.go("score", just_ended=True)
            return
        state = session.state
        if self.app.context.dice is not None and session.game.dice_in_play(state) is not None:
            self.app.context.dice.use_dice(session.game.dice_in_play(state))
        expect = session.waiting_for()
        self._offer_summary()
        root.add_widget(self._top_bar(state))
        panel = self.current_panel()
        # A full-width form (the cards) and a 480x800 panel need the height for themselves. The
        # players' strip (a wall, say) shares the last step's line, over the players' column.
        portrait = self.portrait()
        if panel.shows_players and (not portrait or self.tall_portrait()):
            root.add_widget(self._last_line(self.players_view.header(state, expect.player), portrait))
        root.add_widget(self._notice(expect))
        self.panel_holder = BoxLayout()
        self.panel_holder.add_widget(panel.build(expect))
        body_widget: Widget = self.panel_holder
        if not panel.shows_players:
            root.add_widget(body_widget)
            return
        body = BoxLayout(orientation="vertical" if portrait else "horizontal", spacing=theme.GAP,
                         padding=(theme.GAP, theme.GAP))
        body.add_widget(body_widget)
        players = self.players_view.build(state, expect.player, portrait)
        if portrait:
            # About three eighths of the height: with two players each rose gets a full half-width
            # column (counters above it); with three or four, a 2x2 grid of rose-beside-counters.
            players.size_hint_y = PORTRAIT_PLAYERS_SHARE
        else:
            players.size_hint_x = LANDSCAPE_PLAYERS_SHARE
        body.add_widget(players)
        root.add_widget(body)

    def _offer_summary(self) -> None:
        """Once after an action tapped on this screen, what the game shows over it (the round it
        ended); not after an undo, nor when a game is loaded or the table comes back."""
        session = self.app.session
        seen, self._position = self._position, session.position
        if seen is None or seen[0] != session.position[0] or session.position[1] != seen[1] + 1:
            return
        if session.history()[-1].kind != "action":
            return
        summary = self.game_ui.summary_after(self, session)
        if summary is not None:
            self.show_over(summary)

    def show_over(self, summary: Any) -> None:
        """Open a ModalView over the game screen in place of any open one; left with the screen."""
        self._close_summary()
        self.summary = summary
        summary.bind(on_dismiss=lambda *_a: setattr(self, "summary", None))
        summary.open(animation=False)

    def _close_summary(self) -> None:
        if self.summary is not None:
            self.summary.dismiss(animation=False)
            self.summary = None

    def _top_bar(self, state: Any) -> BoxLayout:
        """Menu, where the game is, History, Undo; in portrait the game's title gets a row of its own."""
        phase = self.game_ui.phase_title(state)
        bar = Panel(size_hint_y=None, height=theme.TOP_BAR_HEIGHT, spacing=theme.GAP)
        bar.add_widget(BigButton(_("Menu"), on_tap=lambda: self.app.go("start"), size_hint=(None, 1), width=96))
        portrait = self.portrait()
        bar.add_widget(Widget() if portrait else phase)
        bar.add_widget(BigButton(_("History"), on_tap=lambda: self.app.go("history"),
                                 size_hint=(None, 1), width=124))
        # Undo sits in the same corner on every game screen, greyed when there is nothing to undo.
        bar.add_widget(BigButton(_("Undo"), role="danger", on_tap=self.app.undo,
                                 disabled=not self.app.session.can_undo, size_hint=(None, 1), width=124))
        if not portrait:
            return bar
        both = BoxLayout(orientation="vertical", size_hint_y=None, height=2 * theme.TOP_BAR_HEIGHT)
        both.add_widget(bar)
        phase_row = Panel(size_hint_y=None, height=theme.TOP_BAR_HEIGHT)
        phase_row.add_widget(phase)
        both.add_widget(phase_row)
        return both

    def _last_line(self, header: Widget | None, portrait: bool) -> Widget:
        """What the last step did ("Ann bought 6 prestige for 4 gold", "Undo: ..."), right under
        Undo, so the table sees each tap land and what Undo would take back; `header` (the
        players' strip) on the right, as wide as the players' column under it (half the row in
        portrait). A long line ends in an ellipsis rather than shrink under the small font."""
        steps = self.app.session.history()
        text = translator.message(steps[-1].message) if steps else ""
        strip = Panel(size_hint_y=None, height=LAST_LINE_HEIGHT, padding=(theme.GAP, 0), spacing=theme.GAP)
        line = Label(text=text, font_size=theme.font(theme.FONT_SMALL), color=theme.TEXT_DIM, halign="right",
                     valign="middle", shorten=True, shorten_from="right")
        line.bind(size=lambda label, size: setattr(label, "text_size", size))
        strip.add_widget(line)
        if header is not None:
            header.size_hint_x = 1 if portrait else LANDSCAPE_PLAYERS_SHARE
            strip.add_widget(header)
        return strip

    def _notice(self, expect: Any) -> Widget:
        strip = Panel(size_hint_y=None, height=NOTICE_HEIGHT, padding=(10, 0))
        label = TextLabel("", size=theme.FONT_NORMAL, bold=True)
        strip.add_widget(label)
        # A reason why an action is refused names both cubes it needs and the supply: it takes a
        # second line (a third on a narrow panel) rather than lose its end. The strip and label
        # are bound themselves, not through the screen: a released screen's old strip can still
        # be laid out once after the screen forgot it.
        def fit(*_args: Any) -> None:
            fit_notice(strip, label)

        label.bind(width=fit, text=fit)
        self.notice_strip, self.notice_label = strip, label
        self._show_notice(expect)
        return strip

    def _show_notice(self, expect: Any) -> None:
        """The app's notice (an error in red) or else, in the acting player's colour, the panel's
        own question (which card goes?) or the game's prompt."""
        notice = self.app.notice
        error = notice.level == "error" and bool(notice.text)
        acting = expect.player
        self.notice_strip.bg = list(theme.DANGER if error else theme.player_colour(acting) if acting else theme.PANEL)
        self.notice_label.color = theme.TEXT if error or not acting else theme.on_player_text(acting)
        self.notice_label.text = notice.text or self.current_panel().question() or translator.message(expect.prompt)

    def redraw_panel(self) -> None:
        """Rebuild only the phase panel and the notice: what a tap inside a form can change."""
        expect = self.app.session.waiting_for()
        self._show_notice(expect)
        self.panel_holder.clear_widgets()
        self.app.dropped_widgets()
        self.panel_holder.add_widget(self.current_panel().build(expect))

    def on_roll_button(self) -> None:
        handler = getattr(self._panel, "on_roll_button", None)
        if handler is not None:
            handler()

