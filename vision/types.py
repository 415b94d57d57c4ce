"""Data types the dice reader hands to the rest of the project.

`hardware` and `app` may import this module (and only this one) from `vision`
to pass readings around without depending on how they are made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

DIE_COLOURS: tuple[str, ...] = ("red", "blue", "green", "black", "gray", "violet")

ExpectMode = Literal["macao", "any"]
# The reader's modes by the dice they read, for code that must not name a game: the six dice of
# six colours, each once (named jointly), and dice whose colours repeat (each named alone).
SIX_COLOURS_MODE: ExpectMode = "macao"
ANY_DICE_MODE: ExpectMode = "any"


class UnsureReason(str, Enum):
    """Why a die is reported unsure: a fixed set the app words in each language (the reader's
    own finer notes, e.g. which pip layout did not fit, stay in its debug pictures)."""

    LEANING = "leaning"  # cocked against the tray or another die: no face lies flat
    CUT_BY_EDGE = "cut_by_edge"  # may run over the edge of the picture or tray region
    GLARE = "glare"  # the lamp's reflection covers part of the face
    BLURRED = "blurred"  # too blurred to count the pips
    COLOUR_DOUBTFUL = "colour_doubtful"  # its colour could as well be another die's
    MAYBE_NOT_A_DIE = "maybe_not_a_die"  # the reader doubts it is a die at all
    VALUE_DOUBTFUL = "value_doubtful"  # a die, but its pips do not read clearly


@dataclass(frozen=True)
class DiceSpec:
    """The dice a game rolls into the tray: how many, their colours (several of a colour when
    `repeats`), so the app asks for and checks exactly those. The default is the six
    differently coloured dice the reader's `macao` mode assigns jointly."""

    count: int = len(DIE_COLOURS)
    colours: tuple[str, ...] = DIE_COLOURS
    repeats: bool = False

    @property
    def reader_mode(self) -> ExpectMode:
        """`macao` (each colour exactly once, assigned jointly) for the six colours, else `any`."""
        if self.count == len(DIE_COLOURS) and set(self.colours) == set(DIE_COLOURS) and not self.repeats:
            return "macao"
        return "any"


    @property
    def names_jointly(self) -> bool:
        """Each colour once, named jointly (the six dice); otherwise each die by its nearest colour."""
        return self.reader_mode == "macao"


@dataclass(frozen=True)
class DieReading:
    """One die found in a frame.

    `value` is None when the reader is unsure, and `reason` then says why; `colour` is None in
    `any` mode or when the colour could not be told. `colour_doubtful`: the colour given was a
    near thing, whatever `reason` shows (a die that leans says so first), so no value confirmed
    for that colour can be taken for this die's.
    """

    x: int
    y: int
    w: int
    h: int
    colour: str | None
    value: int | None
    confidence: float
    unsure: bool
    reason: UnsureReason | None = None
    colour_doubtful: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "x": self.x,
            "y": self.y,
            "w": self.w,
            "h": self.h,
            "colour": self.colour,
            "value": self.value,
            "confidence": round(self.confidence, 3),
            "unsure": self.unsure,
            "reason": None if self.reason is None else self.reason.value,
            "colour_doubtful": self.colour_doubtful,
        }


@dataclass(frozen=True)
class DiceReading:
    """Everything read from one frame (or from the mean of a roll's still frames)."""

    dice: tuple[DieReading, ...] = ()
    ms: float = 0.0
    message: str = ""  # why the reading is empty or partial, in plain words
    # Learned reader: the scale (frame to detector) of the look the dice were read at; given back
    # for the next roll at the same table (`read_dice(look_scale=...)`).
    look_scale: float | None = None

    @property
    def complete(self) -> bool:
        """True when all six Macao dice were found and none is unsure."""
        colours = {d.colour for d in self.dice if not d.unsure and d.value is not None}
        return len(self.dice) == 6 and colours == set(DIE_COLOURS)

    def complete_for(self, spec: DiceSpec) -> bool:
        """True when every die `spec` rolls was found and none is unsure: the six Macao dice
        (`complete`), or as many dice as the game rolls, each read sure."""
        if spec.names_jointly:
            return self.complete
        return len(self.dice) == spec.count and all(not d.unsure and d.value is not None for d in self.dice)

    def by_colour(self, spec: DiceSpec) -> dict[str, tuple[DieReading, ...]]:
        """Colour -> the dice read in it, for each colour of `spec` (several where its colours
        repeat, none where none was found), top to bottom and left to right; sure and unsure
        alike. Dice of no colour of `spec` are in `unnamed`."""
        groups: dict[str, list[DieReading]] = {colour: [] for colour in spec.colours}
        for die in sorted(self.dice, key=lambda d: (d.y, d.x)):
            if die.colour in groups:
                groups[die.colour].append(die)
        return {colour: tuple(dice) for colour, dice in groups.items()}

    def unnamed(self, spec: DiceSpec) -> tuple[DieReading, ...]:
        """The dice read in no colour of `spec` (their colour not told, or not the game's)."""
        return tuple(d for d in self.dice if d.colour not in spec.colours)

    def values_by_colour(self, spec: DiceSpec = DiceSpec()) -> dict[str, int | None]:
        """Colour -> pips for each colour of `spec`, by default the six Macao dice (None where
        unsure or missing)."""
        found: dict[str, int | None] = {c: None for c in spec.colours}
        for die in self.dice:
            if die.colour in found and not die.unsure:
                found[die.colour] = die.value
        return found


@dataclass(frozen=True)
class MotionState:
    """What the settling detector says about the latest frame."""

    still: bool
    still_for_s: float
    motion: float  # fraction of changed pixels in the motion stream
    notes: tuple[str, ...] = field(default_factory=tuple)
