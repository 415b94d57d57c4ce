"""Counting action cubes: piles are colour -> count mappings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from .model import CUBE_COLOURS


def count(colours: Iterable[str]) -> dict[str, int]:
    """A pile in the fixed colour order, without empty colours."""
    tally = Counter(colours)
    return {c: tally[c] for c in CUBE_COLOURS if tally[c]}


def total(pile: Mapping[str, int]) -> int:
    return sum(pile.values())


def missing(have: Mapping[str, int], need: Mapping[str, int]) -> dict[str, int]:
    """What `need` asks for beyond what `have` holds (empty when affordable)."""
    return {c: n - have.get(c, 0) for c, n in need.items() if n > have.get(c, 0)}


def add(pile: dict[str, int], colour: str, n: int) -> None:
    if n:
        pile[colour] = pile.get(colour, 0) + n


def remove(pile: dict[str, int], take: Mapping[str, int]) -> None:
    for colour, n in take.items():
        left = pile.get(colour, 0) - n
        if left:
            pile[colour] = left
        else:
            pile.pop(colour, None)


def ordered(pile: Mapping[str, int]) -> dict[str, int]:
    """The same pile with colours in the fixed order (for display and JSON)."""
    return {c: pile[c] for c in CUBE_COLOURS if pile.get(c)}
