"""The roster on a set-up screen: the names the table has played with, one tap each to seat one."""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import partial
from typing import TYPE_CHECKING

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView

from app.ui import theme
from app.ui.i18n import _
from app.ui.roster import RosterEntry, roster
from app.ui.widgets import BigButton, TextLabel

if TYPE_CHECKING:
    from app.session import Session

NAME_WIDTH = 130  # px a name's button: a row of five or six across half an 800 px screen scrolls


def roster_row(session: Session, seated: Collection[str], on_pick: Callable[[RosterEntry], None],
               full: bool = False) -> BoxLayout | None:
    """A titled row of the roster's names not seated yet (None when there are none); `full`: no
    seat is free, the names are shown but cannot be tapped."""
    free = [entry for entry in roster(session) if entry.name not in seated]
    if not free:
        return None
    box = BoxLayout(orientation="vertical", size_hint_y=None, height=theme.TOUCH_MIN + 26)
    box.add_widget(TextLabel(_("Played here before: tap a name"), size=theme.FONT_SMALL, color=theme.TEXT_DIM,
                             size_hint_y=None, height=26))
    names = BoxLayout(spacing=theme.GAP, size_hint_x=None)
    names.width = (NAME_WIDTH + theme.GAP) * len(free)
    for entry in free:
        names.add_widget(BigButton(entry.name, size=theme.FONT_NORMAL, tag=("roster", entry.name), disabled=full,
                                   size_hint=(None, 1), width=NAME_WIDTH, on_tap=partial(on_pick, entry)))
    scroll = ScrollView(do_scroll_y=False, size_hint_y=None, height=theme.TOUCH_MIN)
    scroll.add_widget(names)
    box.add_widget(scroll)
    return box
