"""What every game's rules share: the one rule for names and other typed text.

Game packages may import this module (and nothing else of the project), so a
name typed on the touchscreen, stored in the journal, written to a backup and
read back by any game's record reader is judged by the same rule everywhere.
"""

from __future__ import annotations

import unicodedata

MAX_NAME_LENGTH = 40

# Characters that reorder the text around them on screen: a name holding them can
# show as another name, so they are refused in anything a player types.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def text_problem(text: str, max_length: int, allow_empty: bool = False) -> str | None:
    """Why `text` cannot be kept as typed text, or None when it can.

    Refused: empty or blank text (unless allowed), more than `max_length`
    characters, control characters (tab, line breaks, escape...), a lone half
    of a surrogate pair (valid JSON, but no character) and bidirectional controls.
    """
    if not allow_empty and not text.strip():
        return "must not be empty"
    if len(text) > max_length:
        return f"is {len(text)} characters long; at most {max_length} are allowed"
    for ch in text:
        category = unicodedata.category(ch)
        if category == "Cc":
            return "contains control characters"
        if category == "Cs":
            return "contains a broken character (a lone surrogate)"
        if ch in BIDI_CONTROLS:
            return "contains a character that reverses the writing direction"
    return None


def player_name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name, or None when it can (every game, every screen)."""
    problem = text_problem(name, MAX_NAME_LENGTH)
    if problem is None and name != name.strip():
        return "must not start or end with a space"
    return problem
