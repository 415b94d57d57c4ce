"""Prints what the look at the tray as a roll starts gives a table that never marked its tray
(not a test):

    .venv/bin/python -m tests.vision.measure_roll_start SET [SET ...] [--scenes N]

Each SET is a drawn set with its empty trays (`python -m vision synth DIR --empty-trays`; a set
named `*macao*` is read in `macao` mode, else `any`). Each scene is a table of its own: the app's
reader (`app.dice_station.TableReader`), with no empty tray kept and the configured tray region,
looks at the scene's empty tray as the roll starts (`look_at_empty_tray`), then reads the scene:
beside that empty tray where the look kept it, else alone. Printed: how many empty trays were
kept, and the readings' figures (as `python -m vision evaluate`) against the same reader that
reads every scene alone, as the app did before it looked at the tray as a roll starts. Then, for
the risk: of lone dice drawn in the tray (the scenes of `tests/vision/measure_refresh.py`), how
many the look would keep as part of an empty tray.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2

from app.dice_station import TableReader
from tests.vision.measure_refresh import lone_dice
from vision.evaluate import Score, empty_tray_of, iter_dataset, load_labels, score_image
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import VisionParams, load_vision_params
from vision.types import DIE_COLOURS, DiceSpec

FIGURES = ("value_accuracy", "colour_and_value_right", "wrong_but_confident", "phantom_per_image", "extra_per_image")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sets", nargs="+", type=Path)
    parser.add_argument("--scenes", type=int, default=0, help="the first N scenes of each set (0: all)")
    parser.add_argument("--lone-seeds", default="1-20", help="first-last seed of the lone-dice scenes")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    params, learned = load_vision_params(), load_learned_params()
    for folder in args.sets:
        _measure_set(folder, args.scenes, params, learned)
    first, last = (int(v) for v in args.lone_seeds.split("-"))
    _measure_lone_dice(range(first, last + 1), params, learned)


def _measure_set(folder: Path, scenes: int, params: VisionParams, learned: LearnedParams) -> None:
    macao = "macao" in folder.name
    dice = DiceSpec() if macao else DiceSpec(count=6, colours=DIE_COLOURS, repeats=True)
    alone, looked = Score(colour_labelled=macao), Score(colour_labelled=macao)
    kept = 0
    pairs = list(iter_dataset(folder))
    for image_path, label_path in pairs[:scenes] if scenes else pairs:
        frame = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        labels = load_labels(label_path, frame.shape[1], frame.shape[0])
        for score, look_first in ((alone, False), (looked, True)):
            reader = TableReader(params, learned, None)
            reader.dice = dice
            if look_first:
                kept += reader.look_at_empty_tray(empty_tray_of(folder, image_path))
            score_image(score, labels, reader(frame), macao, image_path.name, True)
    before, after = alone.report(), looked.report()
    figures = ", ".join(f"{name} {before[name]:.4f} -> {after[name]:.4f}" for name in FIGURES if name in before)
    print(f"{folder.name}: empty trays kept as a roll starts {kept} of {looked.images}; {figures}", flush=True)


def _measure_lone_dice(seeds: range, params: VisionParams, learned: LearnedParams) -> None:
    """Each die of the scenes alone in the tray, before a roll, at a table with no empty tray kept:
    how many such frames the look keeps as the empty tray (the die would then hide the dice that
    later land on its spot, until the camera check takes the empty tray)."""
    lone = kept = 0
    for board_art in (False, True):
        for seed in seeds:
            for frame in lone_dice(seed, board_art)[1]:
                reader = TableReader(params, learned, None)
                reader.dice = DiceSpec(count=6, colours=DIE_COLOURS, repeats=True)
                lone += 1
                kept += reader.look_at_empty_tray(frame)
    print(f"lone dice in the tray before a roll: {kept} of {lone} kept as the empty tray", flush=True)


if __name__ == "__main__":
    main()
