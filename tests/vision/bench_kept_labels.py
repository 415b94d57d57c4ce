"""Figures for the labels a table's kept rolls get (not a test): each drawn scene read as the app
reads it (beside its empty tray, in its tray corners), the players' confirmation taken from the
scene's truth, the dice labelled by `vision.table_rolls.labelled_dice`, and each label judged
against the truth (value and colour), by what the reader had said of the die. A cocked die is
confirmed with the value the players settle it to (drawn at random, seeded by the picture's name),
as the app asks for one; any label on it is wrong.

    .venv/bin/python -m tests.vision.bench_kept_labels DATASET... [--expect macao|any]

A dataset is one `python -m vision synth DIR --empty-trays` draws. A wrong label teaches
`vision adapt` a wrong lesson; a die left out only teaches it nothing.
"""

from __future__ import annotations

import argparse
import zlib
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.adapt import reader_beside_empty_tray
from vision.evaluate import camera_check_of, empty_tray_of, load_labels, match
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.table_rolls import Confirmed, labelled_dice
from vision.types import DieReading, ExpectMode


def _kind(die: DieReading, label: int) -> str:
    if die.value is None:
        return f"unsure: {die.reason.value if die.reason else 'no reason'}"
    return "as read" if die.value == label else "corrected"


def label_kinds(folder: Path, expect: ExpectMode) -> Counter[tuple[str, bool]]:
    """(kind, right) -> labels, over the dataset's images."""
    read = reader_beside_empty_tray(load_vision_params(), expect, None, load_learned_params())
    kinds: Counter[tuple[str, bool]] = Counter()
    for image in sorted((folder / "images").iterdir()):
        frame = cv2.imread(str(image), cv2.IMREAD_COLOR)
        label_path = next((folder / "labels").glob(f"{image.stem}.*"))
        truth = load_labels(label_path, frame.shape[1], frame.shape[0])
        reading = read(frame, empty_tray_of(folder, image), camera_check_of(label_path, frame.shape[1], frame.shape[0]))
        settled = np.random.default_rng(zlib.crc32(image.name.encode()))
        confirmed: dict[str, list[int]] = {}
        for true_die in truth:
            if true_die.colour is not None:
                value = true_die.value if true_die.value is not None else int(settled.integers(1, 7))
                confirmed.setdefault(true_die.colour, []).append(value)
        players: Confirmed = {colour: values[0] if expect == "macao" else values for colour, values in confirmed.items()}
        truth_of = {j: truth[i] for i, j in match(truth, reading.dice).items()}
        index = {id(die): j for j, die in enumerate(reading.dice)}
        for die, label in labelled_dice(reading, players):
            true = truth_of.get(index[id(die)])
            right = true is not None and true.value == label and (expect != "macao" or true.colour == die.colour)
            kinds[(_kind(die, label), right)] += 1
    return kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="+", type=Path)
    parser.add_argument("--expect", choices=("macao", "any"), default="macao")
    args = parser.parse_args()
    for folder in args.datasets:
        kinds = label_kinds(folder, args.expect)
        wrong = sum(n for (_, right), n in kinds.items() if not right)
        print(f"{folder.name}: {sum(kinds.values())} dice labelled, {wrong} of them wrongly")
        for kind in sorted({kind for kind, _ in kinds}):
            print(f"  {kind:28s} right {kinds[(kind, True)]:5d}   wrong {kinds[(kind, False)]:3d}")


if __name__ == "__main__":
    main()
