"""The table's own rolls as a labelled dataset: every roll the players confirm is a frame with
its dice's true values (the camera's proposal, corrected where it was wrong).

Kept in the layout `python -m vision evaluate` reads (images/ and labels/ with JSON labels), on
the table's own machine only, the newest `limit` rolls; `python -m vision adapt` refits the
reader on them. A die the players corrected is labelled with the players' value: where the
reader found the die at all, its place is known; a die it did not find is left out of the
labels (so a frame with one is kept only for the dice found). Where a colour repeats (Marco
Polo II: a player's dice, kept in a folder of their own), the confirmed values of that colour
are a list: a die read with one of them keeps it, and a corrected die takes the value left
over only where that pairing is the only one possible; otherwise it is left out rather than
labelled by a guess. Every confirmed value is kept too (`confirmed`), and a roll with no die
labelled is kept for them: a refit that states a value the players did not confirm states a
die wrongly, and such rolls, the ones the reader read worst, are where it would
(`vision.evaluate.stated_against`).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.atomic_file import write_atomically
from vision.types import DiceReading, DieReading, ExpectMode, UnsureReason

_NAME = re.compile(r"roll-(\d{6})")
# JPEG quality of the kept frames: the reader is never tuned on artefacts it does not see live.
JPEG_QUALITY = 95


def default_rolls_folder(calibration_path: Path, mode: ExpectMode = "macao") -> Path:
    """Where the table's rolls are kept: beside the colour calibration, the six Macao dice's
    (read in `macao` mode, the ones `vision adapt` refits on) apart from other games' dice."""
    return calibration_path.with_name("table-rolls" if mode == "macao" else f"table-rolls-{mode}")


# The values the players confirmed, by colour: one die's value, or the values of a colour's dice.
Confirmed = Mapping[str, int | Sequence[int]]
# Why a die was unsure where its colour, which ties it to a confirmed value, is not known either.
COLOUR_UNTIED = (UnsureReason.MAYBE_NOT_A_DIE, UnsureReason.COLOUR_DOUBTFUL)


def labelled_dice(reading: DiceReading, confirmed: Confirmed) -> list[tuple[DieReading, int]]:
    """The dice of `reading` paired with their confirmed values, colour by colour, where the
    reader found as many dice of the colour as the players confirmed (else a die read 3 may be
    another one's misreading). A value read on no more dice than were confirmed with it is
    theirs; the dice left (read otherwise, or unsure) take the values left only where those are
    all one value (a single corrected die, say). A die taken for leaning counts as a die of the
    roll but is never labelled: no face of it lies flat to learn from, and the players' value
    for it is the one they settled it to, not one the picture shows. Any other die is left out: two dice read 3
    where the players confirmed a 3 and a 5 could be either way round. So are the dice whose
    colour, which ties a die to a confirmed value, is in doubt (`_colour_in_doubt`)."""
    pairs: list[tuple[DieReading, int]] = []
    for colour, given in confirmed.items():
        values = _values(given)
        dice = [d for d in reading.dice if d.colour == colour]
        if len(dice) != values.total():
            continue
        read = Counter(d.value for d in dice if d.value is not None)
        kept = {value for value, count in read.items() if count <= values[value]}
        pairs.extend((die, int(die.value)) for die in dice if die.value in kept)
        left = [die for die in dice if die.value not in kept and die.reason is not UnsureReason.LEANING]
        remaining = list((values - Counter({value: read[value] for value in kept})).elements())
        if left and len(set(remaining)) == 1:
            pairs.extend((die, remaining[0]) for die in left)
    return [pair for pair in pairs if not _colour_in_doubt(*pair, pairs, reading, confirmed)]


def _colour_in_doubt(die: DieReading, label: int, pairs: list[tuple[DieReading, int]], reading: DiceReading,
                     confirmed: Confirmed) -> bool:
    """Whether `die` may be a die of another colour, so that `label` would name the value of
    another die. On drawn Macao tables about half such labels were wrong. Unsure because the
    reader doubted it is a die, or doubted its colour. Read sure and corrected by the players
    to `label`, where the value read is one the players gave a colour whose die the reader
    missed or left unsure, or where a die of that colour was corrected to this one's value
    (two colours swapped, values read right). A die whose colour was a near thing is in doubt
    whatever reason it shows (it may lean too)."""
    if die.reason in COLOUR_UNTIED or die.colour_doubtful:
        return True
    if die.value is None or die.value == label:
        return False
    if any(other.colour != die.colour and other.value == label and other_label == die.value
           for other, other_label in pairs):
        return True
    return any(die.value in _values_not_read(reading, colour, given)
               for colour, given in confirmed.items() if colour != die.colour)


def _values_not_read(reading: DiceReading, colour: str, given: int | Sequence[int]) -> Counter[int]:
    """The values confirmed for `colour` that no die of it was read with, where the reader
    missed a die of that colour or left one unsure (else there are none)."""
    read = Counter(d.value for d in reading.dice if d.colour == colour and d.value is not None)
    values = _values(given)
    return values - read if read.total() < values.total() else Counter()


def _values(given: int | Sequence[int]) -> Counter[int]:
    """The values the players confirmed for a colour, as a multiset."""
    return Counter([int(given)] if isinstance(given, (int, np.integer)) else [int(v) for v in given])


def keep_roll(folder: Path, frame: np.ndarray, reading: DiceReading, confirmed: Confirmed,
              limit: int, empty_tray: np.ndarray | None = None) -> Path | None:
    """Store `frame` with the confirmed values of the dice `reading` found there (`labelled_dice`),
    every value confirmed by colour (`confirmed`, though no die be labelled), and the picture of
    the empty tray it was read beside (references/, under the image's name, as `evaluate
    --references` reads it; a hard link to the roll before's where it is the same), then drop the
    oldest rolls beyond `limit`; the image written, or None when no value was confirmed (or
    `limit` is 0). OSError when the folder cannot be written."""
    dice = [{"bbox_px": [die.x, die.y, die.x + die.w, die.y + die.h], "value": value, "colour": die.colour}
            for die, value in labelled_dice(reading, confirmed)]
    values = {colour: sorted(_values(given).elements()) for colour, given in confirmed.items()}
    # How many dice the roll holds: where fewer are labelled, a die lies somewhere unlabelled, and
    # a reading off the labelled ones is no phantom, nor a candidate there a lesson in "no die".
    in_roll = sum(len(given) for given in values.values())
    if limit <= 0 or in_roll == 0:
        return None
    images, labels = folder / "images", folder / "labels"
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    kept = _numbers(images)
    name = f"roll-{(kept[-1] + 1 if kept else 1):06d}"
    encoded, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not encoded:
        raise OSError(f"{images / name}.jpg: the frame could not be encoded")
    image = images / f"{name}.jpg"
    if empty_tray is not None:
        _keep_empty_tray(folder / "references", image.name, empty_tray, kept[-1] if kept else None)
    write_atomically(image, data.tobytes())
    write_atomically(labels / f"{name}.json", json.dumps({"dice": dice, "dice_in_roll": in_roll, "confirmed": values}, indent=1) + "\n")
    for number in _numbers(images)[:-limit]:
        for old in (images / f"roll-{number:06d}.jpg", labels / f"roll-{number:06d}.json",
                    folder / "references" / f"roll-{number:06d}.jpg"):
            old.unlink(missing_ok=True)
    return image


def _keep_empty_tray(references: Path, name: str, empty_tray: np.ndarray, before: int | None) -> None:
    """The empty tray beside a roll, linked to the roll before's picture where they are the
    same (the tray is seen empty between some rolls only)."""
    references.mkdir(exist_ok=True)
    encoded, data = cv2.imencode(".jpg", empty_tray, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not encoded:
        raise OSError(f"{references / name}: the empty-tray picture could not be encoded")
    previous = references / f"roll-{before:06d}.jpg" if before is not None else None
    target = references / name
    target.unlink(missing_ok=True)
    if previous is not None and previous.is_file() and previous.read_bytes() == data.tobytes():
        os.link(previous, target)
    else:
        write_atomically(target, data.tobytes())


def roll_numbers(folder: Path) -> list[int]:
    """The numbers of the rolls kept in `folder`, oldest first: they only grow, so the newest
    tells how many were kept since another time, even once the oldest are dropped."""
    return _numbers(folder / "images")


def _numbers(images: Path) -> list[int]:
    """The kept rolls' numbers, oldest first."""
    return sorted(int(match.group(1)) for path in images.glob("roll-*.jpg") if (match := _NAME.fullmatch(path.stem)))

