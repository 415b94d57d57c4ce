"""The table's roster and rematches, read from the stored games (no table of their own to keep in
step): who has played (name, usual colour, games, wins), and a new game set up as an old one.

Every registered game counts, through the registry's seats and the session's winners; the
shell names no game.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from functools import cache
from typing import Any

from app.games import UnknownGame, game
from app.session import Session
from app.ui.i18n import DOMAIN, LANGUAGES, LOCALE_DIR


@dataclass(frozen=True)
class RosterEntry:
    name: str
    colour: str | None  # the colour of the name's latest game (None: a game without colours)
    games: int  # every stored game with this name, finished or not
    wins: int


def roster(session: Session) -> list[RosterEntry]:
    """Every name of the stored games, the most recently seated first (not a colour's name that
    stood for a player nobody named). Names that differ only in case are one player ("ann"
    typed once, "Ann" the next time), shown as last spelt."""
    winners = {summary.id: summary.winner for summary in session.games()}
    seen: dict[str, tuple[str, str | None, int, int]] = {}  # by the casefolded name: spelling, colour, games, wins
    for row in reversed(session.journal.games()):  # newest first: a name's first sighting is its latest
        try:
            seats = game(row.game_type).seats(row.header)
        except (UnknownGame, KeyError, TypeError, AttributeError):  # a header this Windrose cannot read
            continue
        for seat in seats:
            if seat.colour is not None and seat.name.casefold() in colour_names(seat.colour):
                continue  # a seat nobody named: the set-up called it by its colour
            key = seat.name.casefold()
            name, colour, games, wins = seen.get(key, (seat.name, seat.colour, 0, 0))
            seen[key] = (name, colour, games + 1, wins + (winners.get(row.id) == seat.id))
    return [RosterEntry(name, colour, games, wins) for name, colour, games, wins in seen.values()]


@cache
def colour_names(colour: str) -> frozenset[str]:
    """A colour's name in every language of the app, casefolded (a seat left unnamed has one)."""
    return frozenset({colour.casefold()} | {
        gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[language], fallback=True)
        .gettext(colour).casefold() for language in LANGUAGES})


def rematch_header(header: dict[str, Any], started: str) -> dict[str, Any]:
    """A stored game's set-up (players, colours, seats, anything the game's header holds) for a new
    game starting now; the actions stay with the old game."""
    return {**{key: value for key, value in header.items() if key != "actions"}, "started": started}
