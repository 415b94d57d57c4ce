"""The reader's notes on why a die is unsure, and the fixed reason each is reported as.

Every stage that doubts a die leaves a short note on it (shown in the debug pictures; some,
such as a pip layout that does not fit, say more than the table needs). The reading the rest
of the project sees carries one `UnsureReason` instead, which the app words in each language.
"""

from __future__ import annotations

from typing import Protocol

from vision.types import DieReading, UnsureReason

# A macao-mode filler: a candidate the classifier doubts is a die at all.
MAYBE_NOT_A_DIE = "maybe not a die"
# The leaning check takes the die for cocked: no face lies flat, so none counts.
LEANING = "leaning (cocked)"
# The die's face may run over the edge of the picture read (frame or tray region).
PARTLY_OUTSIDE = "partly outside the picture"
# A 2-5 with the lamp mirrored at its centre, where a middle pip would be.
GLARE_AT_CENTRE = "glare where a middle pip would be"
# The classical reader: too much of the face is blown out by the lamp.
GLARE = "glare"
# The classical reader: the face is too soft to count its pips.
BLURRED = "blurred"
# The joint colour assignment could give the die another's colour at little extra cost.
COLOUR_UNCLEAR = "colour unclear"
# The value alone is in doubt (not its being a die): the classifier's probability is low.
DOUBTFUL_VALUE = "low confidence"

_REASONS: dict[str, UnsureReason] = {
    MAYBE_NOT_A_DIE: UnsureReason.MAYBE_NOT_A_DIE,
    LEANING: UnsureReason.LEANING,
    PARTLY_OUTSIDE: UnsureReason.CUT_BY_EDGE,
    GLARE_AT_CENTRE: UnsureReason.GLARE,
    GLARE: UnsureReason.GLARE,
    BLURRED: UnsureReason.BLURRED,
    COLOUR_UNCLEAR: UnsureReason.COLOUR_DOUBTFUL,
}


class ReadFace(Protocol):
    """What `die_reading` needs of a reader's face (vision.die.DieFace)."""

    @property
    def box(self) -> tuple[int, int, int, int]: ...

    @property
    def value(self) -> int | None: ...

    @property
    def confidence(self) -> float: ...


def unsure_reason(note: str) -> UnsureReason:
    """The reason reported for a reader's note; any other note (a pip layout that does not fit,
    two readings of one place that differ, a low probability) leaves the value in doubt."""
    return _REASONS.get(note, UnsureReason.VALUE_DOUBTFUL)


def with_colour_doubt(note: str, colour_unclear: bool) -> str:
    """A die's note once its colour is judged. A doubtful colour outranks a doubtful value: the
    value the players put right goes to the colour shown, so that is what they must check, and
    a kept roll would label another die with it. It does not outrank a die that leans, is cut
    off, shines or may be no die: those say what to do with it."""
    if colour_unclear and unsure_reason(note) is UnsureReason.VALUE_DOUBTFUL:
        return COLOUR_UNCLEAR
    return note


def die_reading(face: ReadFace, colour: str | None, note: str, colour_doubtful: bool = False) -> DieReading:
    """The reading of one face: unsure, with its reason, when a stage left a note or no value,
    or when its colour is in doubt (`with_colour_doubt` chooses the reason shown)."""
    note = with_colour_doubt(note, colour_doubtful)
    unsure = bool(note) or face.value is None
    x, y, w, h = face.box
    return DieReading(x=x, y=y, w=w, h=h, colour=colour, value=None if unsure else face.value,
                      confidence=float(face.confidence), unsure=unsure,
                      reason=unsure_reason(note) if unsure else None, colour_doubtful=colour_doubtful)
