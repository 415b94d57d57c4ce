"""The table's own rolls as a labelled dataset: every roll the players confirm is a frame with
its dice's true values (the camera's proposal, corrected where it was wrong).

Kept in the layout `python -m vision evaluate` reads (images/ and labels/ with JSON labels), on
the table's own machine only, the newest `limit` rolls; `python -m vision adapt` refits the
reader on them. A die the players corrected is labelled with the players' value: where the
reader found the die at all, its place is known; a die it did not find is left out of the
labels (so a frame with one is kept only for the dice found).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

import cv2
import numpy as np

from vision.types import DiceReading

_NAME = re.compile(r"roll-(\d{6})")
# JPEG quality of the kept frames: the reader is never tuned on artefacts it does not see live.
JPEG_QUALITY = 95


def default_rolls_folder(calibration_path: Path) -> Path:
    """Where the table's rolls are kept: beside the colour calibration."""
    return calibration_path.with_name("table-rolls")


def keep_roll(folder: Path, frame: np.ndarray, reading: DiceReading, confirmed: Mapping[str, int],
              limit: int) -> Path | None:
    """Store `frame` with the confirmed values of the dice `reading` found there (by colour), then
    drop the oldest rolls beyond `limit`; the image written, or None when no die could be
    labelled (or `limit` is 0). OSError when the folder cannot be written."""
    dice = [{"bbox_px": [die.x, die.y, die.x + die.w, die.y + die.h], "value": int(confirmed[die.colour]),
             "colour": die.colour}
            for die in reading.dice if die.colour is not None and die.colour in confirmed]
    if limit <= 0 or not dice:
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
    _write_atomically(image, data.tobytes())
    _write_atomically(labels / f"{name}.json", (json.dumps({"dice": dice}, indent=1) + "\n").encode("utf-8"))
    for number in _numbers(images)[:-limit]:
        for old in (images / f"roll-{number:06d}.jpg", labels / f"roll-{number:06d}.json"):
            old.unlink(missing_ok=True)
    return image


def _numbers(images: Path) -> list[int]:
    """The kept rolls' numbers, oldest first."""
    return sorted(int(match.group(1)) for path in images.glob("roll-*.jpg") if (match := _NAME.fullmatch(path.stem)))


def _write_atomically(path: Path, data: bytes) -> None:
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_bytes(data)
    temporary.replace(path)
