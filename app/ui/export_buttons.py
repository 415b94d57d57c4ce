"""The Export buttons of a game: to the exports folder, and to each USB stick mounted now."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from app.ui.i18n import _
from app.ui.widgets import BigButton

if TYPE_CHECKING:
    from app.ui.app import WindroseApp


def export_buttons(app: WindroseApp, game_id: int) -> list[BigButton]:
    """Export (to the exports folder on the memory card), and "To the stick <label>" per stick."""
    buttons = [BigButton(_("Export"), tag=("export", ""), on_tap=lambda: app.export_game(game_id))]
    for stick in app.sticks():
        buttons.append(BigButton(_("To the stick {label}").format(label=stick.label), tag=("export", stick.label),
                                 on_tap=partial(app.export_game, game_id, stick)))
    return buttons
