"""A player's sheet, opened by tapping their panel: everything the table may ask about one player
(counters, windrose, supply, ship, wall place, cards waiting with their costs, cards activated)
and the total were the game to end now, which the rules core computes. Any tap closes it."""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from app.games.macao import score_if_ended_now
from app.ui import theme
from app.ui.i18n import _, ngettext, translator
from app.ui.macao.windrose import WindroseWidget
from app.ui.widgets import CubeRow, Panel, PlayerBadge, TextLabel

ROW_HEIGHT = 28  # px of one line of the sheet
CUBE_SIDE = 22  # px of a cost or ship cube on the sheet
MOST_CARDS_LISTED = 6  # cards waiting listed one a line; more are counted on the last line


class OneTapModal(ModalView):
    """A modal that any tap closes, inside or outside it: looking costs no more than one tap."""

    def __init__(self, content: Widget, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint", (0.96, 0.94))
        super().__init__(auto_dismiss=False, background="", background_color=list(theme.BACKGROUND),
                         overlay_color=[0, 0, 0, 0.6], **kwargs)
        self.add_widget(content)

    def on_touch_down(self, touch: Any) -> bool:
        return True

    def on_touch_up(self, touch: Any) -> bool:
        self.dismiss(animation=False)
        return True


def live_total_text(total: int) -> str:
    return ngettext("{n} point if it ended now", "{n} points if it ended now", total).format(n=total)


def player_sheet(state: Any, colour: str) -> OneTapModal:
    """The sheet of player `colour` in `state`, ready to open."""
    player = state.player(colour)
    portrait = Window.height > Window.width
    body = Panel(orientation="vertical" if portrait else "horizontal", padding=theme.GAP, spacing=theme.GAP,
                 bg=list(theme.BACKGROUND))
    left = BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=0.7)
    title = PlayerBadge(colour, player.name, size=theme.FONT_LARGE, size_hint_y=None, height=40)
    left.add_widget(title)
    left.add_widget(TextLabel(live_total_text(score_if_ended_now(state)[colour]), size=theme.FONT_NORMAL, bold=True,
                              size_hint_y=None, height=2 * ROW_HEIGHT))  # two lines in German
    left.add_widget(WindroseWidget(colour, player.windrose))
    body.add_widget(left)
    body.add_widget(_counters(state, player))
    body.add_widget(_cards(player))
    body.sheet_of = colour
    return OneTapModal(body)


def _line(caption: str, value: Widget | str) -> BoxLayout:
    line = BoxLayout(size_hint_y=None, height=ROW_HEIGHT, spacing=theme.GAP)
    line.add_widget(TextLabel(caption, size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_x=0.62))
    if isinstance(value, str):
        value = TextLabel(value, size=theme.FONT_NORMAL, bold=True, size_hint_x=0.38)
    else:
        value.size_hint_x = 0.38
    line.add_widget(value)
    return line


def _counters(state: Any, player: Any) -> BoxLayout:
    """The player's numbers, one a line, and what stands in their supply and on their ship."""
    column = BoxLayout(orientation="vertical", spacing=2, size_hint_x=1.2)
    order = state.turn_order()
    lines = (
        (_("Gold"), str(player.gold)),
        (_("Prestige"), str(player.prestige)),
        (_("Punish markers"), str(player.punish)),
        (_("Place on the wall"), _("{place} of {count}").format(place=order.index(player.colour) + 1,
                                                                 count=len(order))),
        (_("Jokers"), str(player.jokers)),
        (_("City quarters"), str(player.quarters)),
        (_("Supply"), CubeRow(player.supply, cube_size=CUBE_SIDE)),
        (_("Goods on the ship"), CubeRow(player.ship, cube_size=CUBE_SIDE)),
    )
    for caption, value in lines:
        column.add_widget(_line(caption, value))
    column.add_widget(Widget())
    return column


def _cards(player: Any) -> BoxLayout:
    """Cards waiting on the tableau with their cost as cubes (or that it is not known yet), then
    how many are activated and their names."""
    column = BoxLayout(orientation="vertical", spacing=2, size_hint_x=1.1)
    waiting = player.tableau
    column.add_widget(TextLabel(ngettext("{n} card waiting", "{n} cards waiting", len(waiting)).format(n=len(waiting)),
                                size=theme.FONT_NORMAL, bold=True, size_hint_y=None, height=ROW_HEIGHT))
    listed = waiting if len(waiting) <= MOST_CARDS_LISTED else waiting[:MOST_CARDS_LISTED - 1]
    for card in listed:
        line = BoxLayout(size_hint_y=None, height=ROW_HEIGHT, spacing=theme.GAP)
        line.add_widget(TextLabel(card.name or translator.gettext(card.kind), size=theme.FONT_SMALL, size_hint_x=0.5))
        if card.cost is None:
            line.add_widget(TextLabel(_("cost not known yet"), size=theme.FONT_SMALL, color=theme.TEXT_DIM,
                                      size_hint_x=0.5))
        else:
            line.add_widget(CubeRow(list(card.cost), cube_size=CUBE_SIDE, size_hint_x=0.5))
        column.add_widget(line)
    if len(listed) < len(waiting):
        more = len(waiting) - len(listed)
        column.add_widget(TextLabel(ngettext("and {n} more", "and {n} more", more).format(n=more),
                                    size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_y=None, height=ROW_HEIGHT))
    done = player.activated
    column.add_widget(TextLabel(ngettext("{n} card activated", "{n} cards activated", len(done)).format(n=len(done)),
                                size=theme.FONT_NORMAL, bold=True, size_hint_y=None, height=ROW_HEIGHT))
    if done:
        names = ", ".join(card.name or translator.gettext(card.kind) for card in done)
        column.add_widget(TextLabel(names, size=theme.FONT_SMALL, color=theme.TEXT_DIM))
    else:
        column.add_widget(Widget())
    return column
