"""Prints how the empty-tray reference changes a reader's figures on drawn scenes (not a test):

    .venv/bin/python -m tests.vision.measure_reference [--classical] [--seeds 1-20]

Per kind of scene (board art around the tray, plain), without and with the reference: flat
dice read right (colour and value), stated wrongly, unsure, missed, and readings on no flat die
(phantoms, and a cocked die read) per image; the scenes are those of tests/vision/test_reference.py (seeded, drawn at 1600x900).
"""

from __future__ import annotations

import argparse
import dataclasses

import cv2

from tests.vision.test_reference import scene_and_empty_tray
from vision.evaluate import LabelledDie, judge, match
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.reader import read_dice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--classical", action="store_true", help="the classical reader (learned models off)")
    parser.add_argument("--seeds", default="1-20", help="first-last seed")
    args = parser.parse_args()
    first, last = (int(v) for v in args.seeds.split("-"))
    cv2.setNumThreads(1)
    params = load_vision_params()
    learned = load_learned_params()
    if args.classical:
        learned = dataclasses.replace(learned, enabled=False)
    for board_art in (True, False):
        for with_reference in (False, True):
            counts: dict[str, int] = {}
            phantoms = dice = 0
            for seed in range(first, last + 1):
                frame, empty, labels = scene_and_empty_tray(seed, board_art)
                reading = read_dice(frame, params, expect="macao", learned=learned,
                                    reference=empty if with_reference else None)
                flat = [LabelledDie(d.box, d.value, d.colour) for d in labels.dice if d.value is not None]
                matched = match(flat, reading.dice)
                dice += len(flat)
                for i, die in enumerate(flat):
                    outcome = judge(die, reading.dice[matched[i]] if i in matched else None, True)
                    counts[outcome] = counts.get(outcome, 0) + 1
                phantoms += len(reading.dice) - len(matched)  # as tests/vision/test_reference.py counts them
            images = last - first + 1
            print(f"{'board art' if board_art else 'plain':9s} {'with' if with_reference else 'without':7s} "
                  f"reference: {dice} flat dice, " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
                  + f", right {counts.get('right', 0) / dice:.1%}; extra readings {phantoms / images:.2f} an image",
                  flush=True)


if __name__ == "__main__":
    main()
