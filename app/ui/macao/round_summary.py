"""One round on one screen: what each player gained in it (gold, prestige, punish markers, cards
activated), their total were the game to end now, and the wall order it leaves.

Shown once when a round ends (not the last: the final scoring's breakdown follows), and whenever
the table taps the round's bar at the top; any tap closes it. With the next round's cards entered
by their tribute it carries the first card's tribute pad: the table's next tap both closes it and
enters that card. The differences are read off the session's states before and after the round;
the total is the rules core's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from app.games.macao import score_if_ended_now
from app.ui import theme
from app.ui.i18n import _
from app.ui.macao.player_sheet import OneTapModal
from app.ui.macao.wall_strip import WallStrip
from app.ui.widgets import Panel, PlayerBadge, TextLabel

ROW_HEIGHT = 36  # px of a player's row
HEADER_HEIGHT = 48  # px of the column titles: two lines where a German title needs them


@dataclass(frozen=True)
class RoundLine:
    """One player's gains over a round (differences of the counters) and the live total after it."""

    colour: str
    name: str
    gold: int
    prestige: int
    punish: int
    activated: int
    total: int


@dataclass(frozen=True)
class RoundSummary:
    round: int
    finished: bool  # False: the round is still being played (the summary so far)
    lines: list[RoundLine]  # in seat order
    after: Any  # the state the round left (or the state now)


def summarise_round(session: Any, round_number: int) -> RoundSummary:
    """Round `round_number` from the state that began it to the one that began the next (or now)."""
    actions = len(session.actions)
    start = next(i for i in range(actions + 1) if session.state_after(i).round >= round_number)
    end = next((i for i in range(start, actions + 1) if session.state_after(i).round > round_number), actions)
    before, after = session.state_after(start), session.state_after(end)
    totals = score_if_ended_now(after)
    lines = []
    for player in after.players:
        was = before.player(player.colour)
        lines.append(RoundLine(player.colour, player.name, player.gold - was.gold, player.prestige - was.prestige,
                               player.punish - was.punish, len(player.activated) - len(was.activated),
                               totals[player.colour]))
    return RoundSummary(round_number, after.round > round_number, lines, after)


def round_just_ended(session: Any) -> int | None:
    """The round the last action ended (the table is to see its summary once), else None."""
    actions = len(session.actions)
    if actions == 0:
        return None
    before, now = session.state_after(actions - 1).round, session.state.round
    return before if 1 <= before < now else None


def round_to_show(session: Any) -> int:
    """The round the round bar's tap shows: this one so far, or the last one while this one has
    not seen an action yet."""
    state, actions = session.state, len(session.actions)
    started = actions > 0 and session.state_after(actions - 1).round == state.round
    return state.round if started or state.round <= 1 else state.round - 1


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


class SummaryWithNextMove(OneTapModal):
    """A summary any tap closes; a tap on the next move's buttons also makes that move."""

    def __init__(self, content: Widget, next_move: Widget) -> None:
        super().__init__(content)
        self.next_move = next_move

    def _on_next_move(self, touch: Any) -> bool:
        return bool(self.next_move.collide_point(*self.next_move.to_widget(*touch.pos)))

    def on_touch_down(self, touch: Any) -> bool:
        if self._on_next_move(touch):
            ModalView.on_touch_down(self, touch)  # the button under the finger takes the press
        return True


def round_summary_view(summary: RoundSummary, next_move: Widget | None = None) -> OneTapModal:
    """The summary's screen; `next_move`, where given, a row of buttons for the table's next tap."""
    title = (_("Round {n}: what each player gained") if summary.finished
             else _("Round {n} so far: what each player gained")).format(n=summary.round)
    body = Panel(orientation="vertical", padding=theme.GAP * 2, spacing=theme.GAP, bg=list(theme.BACKGROUND))
    body.add_widget(TextLabel(title, size=theme.FONT_LARGE, bold=True, size_hint_y=None, height=40))
    columns = (_("Player"), _("Gold"), _("Prestige"), _("Punish markers"), _("Cards activated"),
               _("If it ended now"))
    grid = GridLayout(cols=len(columns), spacing=2, size_hint_y=None, rows_minimum={0: HEADER_HEIGHT},
                      row_default_height=ROW_HEIGHT, row_force_default=False,
                      height=HEADER_HEIGHT + (ROW_HEIGHT + 2) * len(summary.lines))
    for caption in columns:
        grid.add_widget(TextLabel(caption, size=theme.FONT_SMALL, bold=True, color=theme.TEXT_DIM, halign="center"))
    for line in summary.lines:
        grid.add_widget(PlayerBadge(line.colour, line.name, size=theme.FONT_NORMAL))
        for value in (signed(line.gold), signed(line.prestige), signed(line.punish), signed(line.activated),
                      str(line.total)):
            grid.add_widget(TextLabel(value, size=theme.FONT_NORMAL, bold=True, halign="center"))
    body.add_widget(grid)
    body.add_widget(WallStrip(summary.after, None))
    body.add_widget(BoxLayout())
    if next_move is not None:
        body.add_widget(TextLabel(_("Next round: the first card's tribute, or tap anywhere to go on."),
                                  size=theme.FONT_SMALL, color=theme.TEXT_DIM, halign="center",
                                  size_hint_y=None, height=26))
        body.add_widget(next_move)
        body.summary_of = summary.round
        return SummaryWithNextMove(body, next_move)
    body.add_widget(TextLabel(_("Tap anywhere to go on."), size=theme.FONT_SMALL, color=theme.TEXT_DIM,
                              halign="center", size_hint_y=None, height=26))
    body.summary_of = summary.round
    return OneTapModal(body)
