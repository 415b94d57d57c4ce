"""Data types the dice reader hands to the rest of the project.

`hardware` and `app` may import this module (and only this one) from `vision`
to pass readings around without depending on how they are made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

DIE_COLOURS: tuple[str, ...] = ("red", "blue", "green", "black", "gray", "violet")

ExpectMode = Literal["macao", "any"]


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


@dataclass(frozen=True)
class DieReading:
    """One die found in a frame.

    `value` is None when the reader is unsure; `colour` is None in `any` mode or
    when the colour could not be told.
    """

    x: int
    y: int
    w: int
    h: int
    colour: str | None
    value: int | None
    confidence: float
    unsure: bool

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
        }


@dataclass(frozen=True)
class DiceReading:
    """Everything read from one frame (or voted over several)."""

    dice: tuple[DieReading, ...] = ()
    ms: float = 0.0
    message: str = ""  # why the reading is empty or partial, in plain words

    @property
    def complete(self) -> bool:
        """True when all six Macao dice were found and none is unsure."""
        colours = {d.colour for d in self.dice if not d.unsure and d.value is not None}
        return len(self.dice) == 6 and colours == set(DIE_COLOURS)

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
