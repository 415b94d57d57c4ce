"""The game screen: top bar (menu, round and phase, history, undo), the prompt, the phase
panel, and every player's windrose with gold, prestige and punish markers."""

from __future__ import annotations

import json
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.i18n import _, ngettext, translator
from app.ui.panels.base import PhasePanel
from app.ui.screens.base import BaseScreen
from app.ui.widgets import BigButton, Panel, PhaseBar, TextLabel
from app.ui.windrose import WindroseWidget

# Which part of the round each rules phase belongs to, for the phase bar.
ROUND_PART = {
    "reveal": "cards", "take_card": "cards",
    "roll": "dice", "choose_dice": "dice",
    "actions": "actions",
}
# The players' part of the body's height in portrait, beside the phase panel's 1.
PORTRAIT_PLAYERS_SHARE = 0.62
# A player cell's height above its rose when the counters stand over it (badge and counter rows).
STACKED_HEADER = 92
COUNTER_MIN_WIDTH = 96  # px a counter such as "12 prestige" needs at the small font ...
COUNTER_MIN_HEIGHT = 18  # ... and its line's height
CELL_CHROME = 40  # px of a player cell's height taken by its padding and name badge
CELL_PADDING = 20  # px of a player cell's width around its counters (cell and counters' padding, spacing)
NOTICE_HEIGHT = 44  # the prompt's strip: one line, or more when its text needs them ...
NOTICE_AIR = 6  # ... with this much space around them


def panel_class(phase: str) -> type[PhasePanel]:
    from app.ui.panels.actions import ActionsPanel
    from app.ui.panels.cards import CardEntryPanel
    from app.ui.panels.dice import ChooseDicePanel, RollPanel
    from app.ui.panels.draft import SetupPickPanel, TakeCardPanel
    from app.ui.panels.final import FinalPanel
    from app.ui.panels.setup_cubes import SetupCubesPanel

    return {
        "setup_draw": CardEntryPanel, "reveal": CardEntryPanel,
        "setup_pick": SetupPickPanel, "take_card": TakeCardPanel,
        "setup_cubes": SetupCubesPanel,
        "roll": RollPanel, "choose_dice": ChooseDicePanel,
        "actions": ActionsPanel, "final": FinalPanel,
    }[phase]


def fit_notice(strip: Widget, label: TextLabel) -> None:
    """The prompt strip as high as its text needs, at least one line's strip."""
    strip.height = max(NOTICE_HEIGHT, label.wrapped_height() + NOTICE_AIR)


class GameScreen(BaseScreen):
    screen_name = "game"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._panel: PhasePanel | None = None
        self._panel_key: tuple[Any, ...] = ()
        self.roses: dict[str, WindroseWidget] = {}
        self._last_phase = ""
        self._cells: dict[str, tuple[Any, Widget, WindroseWidget]] = {}

    def release(self) -> None:
        """Also forget what is kept for quick redraws: the players' cells, the parts of the left
        tree, and a phase panel whose step is already played (its remembered widgets hold their
        old parents, so the whole left tree). The panel of the step still open keeps its input."""
        super().release()
        self._cells = {}
        self.roses = {}
        for part in ("panel_holder", "notice_strip", "notice_label"):
            if hasattr(self, part):
                delattr(self, part)
        if self._panel_key != self._step_key():
            self._panel = None

    def _step_key(self) -> tuple[Any, ...]:
        state = self.app.session.state
        if state.phase != "over" and panel_class(state.phase).spans_phase:
            return (self.app.session.game_id, state.phase)
        return (self.app.session.game_id, state.phase, state.round, state.turn, len(self.app.session.actions))

    def current_panel(self) -> PhasePanel:
        """The panel for what the game waits for now; a new one when the step changed."""
        key = self._step_key()
        if self._panel is None or key != self._panel_key:
            self._panel = panel_class(self.app.session.state.phase)(self)
            self._panel_key = key
        return self._panel

    def build(self, root: BoxLayout) -> None:
        session = self.app.session
        if session.game_id is None:
            root.add_widget(self.title_bar(_("No game"), back_to="start"))
            return
        if session.is_over:
            self.app.go("score")
            return
        state = session.state
        expect = session.waiting_for()
        root.add_widget(self._top_bar(state))
        root.add_widget(self._notice(expect))
        panel = self.current_panel()
        self.panel_holder = BoxLayout()
        self.panel_holder.add_widget(panel.build(expect))
        body_widget: Widget = self.panel_holder
        if not panel.shows_players:
            root.add_widget(body_widget)
            return
        portrait = self.portrait()
        body = BoxLayout(orientation="vertical" if portrait else "horizontal", spacing=theme.GAP,
                         padding=(theme.GAP, theme.GAP))
        body.add_widget(body_widget)
        players = self._players(state, expect.player, portrait)
        if portrait:
            # About three eighths of the height: with two players each rose gets a full half-width
            # column (counters above it); with three or four, a 2x2 grid of rose-beside-counters.
            players.size_hint_y = PORTRAIT_PLAYERS_SHARE
        else:
            players.size_hint_x = 0.5
        body.add_widget(players)
        root.add_widget(body)

    def _top_bar(self, state: Any) -> BoxLayout:
        """Menu, round and phase, History, Undo; in portrait the phase bar gets a row of its own."""
        part = ROUND_PART.get(state.phase)
        if part is not None:
            phase: Widget = PhaseBar(state.round, part)
        else:
            title = _("Set-up") if state.phase.startswith("setup") else _("Game end")
            phase = TextLabel(title, size=theme.FONT_LARGE, bold=True, halign="center")
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

    def _players(self, state: Any, acting: str | None, portrait: bool) -> Widget:
        """Every player's rose and counters, in wall order, the acting player outlined."""
        order = state.turn_order()
        grid = GridLayout(cols=2 if portrait else 1, spacing=theme.GAP)
        # The roses turn when the dice have been chosen: animate that moment once.
        turning = self._last_phase == "choose_dice" and state.phase == "actions"
        self._last_phase = state.phase
        self.roses = {}
        for colour in order:
            player = state.player(colour)
            # Most actions change one player: the others' cells are reused as they are.
            key = (json.dumps(player.to_json(), sort_keys=True, default=str), colour == acting,
                   translator.language, theme.text_scale.factor)
            cached = self._cells.get(colour)
            if cached is not None and cached[0] == key and not turning:
                cell, rose = cached[1], cached[2]
                if cell.parent is not None:
                    cell.parent.remove_widget(cell)
            else:
                cell, rose = self._player_cell(player, colour == acting)
                if turning:
                    rose.turn(player.windrose)
                self._cells[colour] = (key, cell, rose)
            self.roses[colour] = rose
            grid.add_widget(cell)
        return grid

    @staticmethod
    def _player_cell(player: Any, acting: bool) -> tuple[Widget, WindroseWidget]:
        colour = player.colour
        cell = Panel(orientation="horizontal", padding=4, spacing=4,
                     bg=list(theme.player_colour(colour) if acting else theme.PANEL))
        info = Panel(orientation="vertical", padding=(4, 2), bg=list(theme.PANEL))
        badge = Panel(bg=list(theme.player_colour(colour)), size_hint_y=None, height=28, padding=(6, 0))
        badge.add_widget(TextLabel(player.name, size=theme.FONT_NORMAL, bold=True, color=theme.on_player_text(colour)))
        info.add_widget(badge)
        counters = GridLayout(cols=2)
        cards = ngettext("card", "cards", len(player.tableau))
        for value, caption, short, tint in (
            (player.gold, _("gold"), _("gold"), "f5d92e"),
            (player.prestige, _("prestige"), _("prest."), "f2f2f2"),
            (player.punish, _("punish"), _("punish"), "ff6b6b"),
            (len(player.tableau), cards, cards, "f2f2f2"),
        ):
            number = f"[b][color={tint}]{value}[/color][/b] "
            label = TextLabel(number + caption, size=theme.FONT_SMALL, markup=True, color=theme.TEXT_DIM)
            label.captions = (number + caption, number + short)  # the short one for a narrow column
            counters.add_widget(label)
        info.add_widget(counters)
        cell.add_widget(info)
        rose = WindroseWidget(colour, player.windrose, size_hint_x=None)
        cell.add_widget(rose)
        cell.bind(size=lambda _c, size: _arrange_cell(cell, info, counters, rose, size[0], size[1]))
        return cell, rose

    def on_roll_button(self) -> None:
        handler = getattr(self._panel, "on_roll_button", None)
        if handler is not None:
            handler()


def _arrange_cell(cell: Panel, info: Widget, counters: GridLayout, rose: WindroseWidget,
                  width: float, height: float) -> None:
    """Lay a player's cell out the way that gives the bigger rose: beside the counters (a wide
    cell, as in landscape) or under them (a tall one, as two players in portrait)."""
    beside = max(40.0, min(height - 8, width * 0.55))  # leaves the counters at least 45% of the width
    under = min(width - 8, height - STACKED_HEADER)
    if under > beside:
        cell.orientation = "vertical"
        info.size_hint_y, info.height = None, STACKED_HEADER - 8
        counters.cols = 4 if width > 420 else 2
        _counter_font(counters, theme.FONT_NORMAL)
        _counter_captions(counters, (width - CELL_PADDING) / counters.cols)
        rose.size_hint = (1, 1)
        return
    cell.orientation = "horizontal"
    info.size_hint_y = 1
    # Tall cells list the counters one per line, and so do narrow ones with room for four lines
    # (four players on a portrait panel), where two side by side would be cut short; others
    # pack them two by two.
    narrow = width - beside < 2 * COUNTER_MIN_WIDTH and height - CELL_CHROME >= 4 * COUNTER_MIN_HEIGHT
    counters.cols = 1 if height > 150 or narrow else 2
    _counter_font(counters, theme.FONT_SMALL)
    _counter_captions(counters, (width - beside - CELL_PADDING) / counters.cols)
    rose.size_hint = (None, 1)
    rose.width = beside


def _counter_captions(counters: GridLayout, column_width: float) -> None:
    """Full captions where a column holds '12 prestige', else the short ones ('12 prest.'):
    four players in an 800x480 window leave about 85 px a column."""
    for label in counters.children:
        needed = COUNTER_MIN_WIDTH * label.font_size / theme.font(theme.FONT_SMALL)
        label.text = label.captions[0] if column_width >= needed else label.captions[1]


def _counter_font(counters: GridLayout, base: int) -> None:
    """The counters' text size: larger where they stand over a big rose."""
    for label in counters.children:
        label.font_size = theme.font(base)
