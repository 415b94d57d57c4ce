"""The reader on a few labelled development images (skipped when shared/datasets is absent).

These check real files through OpenCV: no die is stated wrongly with confidence,
and most dice of these clear scenes are read (counts as measured when written).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from vision.evaluate import load_labels, match
from vision.params import REPO_ROOT, load_vision_params
from vision.reader import read_dice

DATASETS = REPO_ROOT.parent / "shared" / "datasets"
PARAMS = load_vision_params()

CASES = [
    # (dataset, image, mode, dice that must be read right)
    ("dice-rendered-dev", "dev_0034.jpg", "macao", 6),
    ("dice-rendered-dev", "dev_0005.jpg", "macao", 5),
    ("dice-rendered-dev", "dev_0013.jpg", "macao", 5),
    ("dice-real-dev", "IMG_20191208_112522.jpg", "any", 4),
]


@pytest.mark.parametrize(("dataset", "image", "mode", "at_least"), CASES)
def test_labelled_image(dataset: str, image: str, mode: str, at_least: int) -> None:
    folder = DATASETS / dataset
    if not (folder / "images" / image).is_file():
        pytest.skip(f"{folder} not available")
    frame = cv2.imread(str(folder / "images" / image), cv2.IMREAD_COLOR)
    label = next((folder / "labels").glob(Path(image).stem + ".*"))
    dice = load_labels(label, frame.shape[1], frame.shape[0])
    reading = read_dice(frame, PARAMS, expect=mode)  # type: ignore[arg-type]
    matches = match(dice, reading.dice)
    right = 0
    for i, die in enumerate(dice):
        if i not in matches or reading.dice[matches[i]].unsure:
            continue
        got = reading.dice[matches[i]]
        assert got.value == die.value, f"{image}: a {die.value} read as {got.value}"
        if mode == "macao":
            assert got.colour == die.colour, f"{image}: the {die.colour} die named {got.colour}"
        else:
            assert got.colour is None
        right += 1
    assert right >= at_least
