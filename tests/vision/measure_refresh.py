"""Prints how often the empty-tray refresh would take a tray with a die in it for empty (not a
test):

    .venv/bin/python -m tests.vision.measure_refresh [--seeds 1-20]

For each drawn scene (tests/vision/test_reference.py, plain and with board art) each die is
drawn alone in the tray: the reader reads it (with the scene's empty tray as reference), and
the refresh's check (`vision.reference.shows_empty_tray`) is asked whether the frame may become
the new reference: once with what the reader found, and once as if the reader had found nothing
(a die it has never seen the like of). Then the empty tray itself, drawn again with its own
noise, 8 % brighter, and nudged by 2 px: these the check must take for empty.
"""

from __future__ import annotations

import argparse

import cv2
import numpy as np

from tests.vision.test_reference import scene_and_empty_tray
from tools import synth
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.reader import read_dice
from vision.reference import EmptyTray, shows_empty_tray
from tools.synth import SceneOptions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", default="1-20", help="first-last seed")
    args = parser.parse_args()
    first, last = (int(v) for v in args.seeds.split("-"))
    cv2.setNumThreads(1)
    params, learned = load_vision_params(), load_learned_params()
    lone = missed = taken_when_missed = taken_if_missed = empties = empties_taken = 0
    old_when_missed = old_if_missed = old_empties = 0  # the check without the reference (as before)
    for board_art in (False, True):
        for seed in range(first, last + 1):
            _frame, empty_frame, _labels = scene_and_empty_tray(seed, board_art)
            reference = EmptyTray.of(empty_frame, params)
            world, frames = lone_dice(seed, board_art)
            for frame in frames:
                found = len(read_dice(frame, params, "any", learned=learned, reference=reference).dice)
                lone += 1
                if found == 0:
                    missed += 1
                    taken_when_missed += shows_empty_tray(frame, 0, params, reference)
                    old_when_missed += shows_empty_tray(frame, 0, params)
                taken_if_missed += shows_empty_tray(frame, 0, params, reference)
                old_if_missed += shows_empty_tray(frame, 0, params)
            again = synth._compose(world, (), np.random.default_rng([seed, 3]))
            brighter = np.clip(again.astype(np.float32) * 1.08, 0, 255).astype(np.uint8)
            nudged = np.roll(again, (2, -2), axis=(0, 1))
            for picture in (again, brighter, nudged):
                empties += 1
                empties_taken += shows_empty_tray(picture, 0, params, reference)
                old_empties += shows_empty_tray(picture, 0, params)
    print(f"lone dice {lone}: the reader found none in {missed}; taken for an empty tray (without -> with the "
          f"reference) {old_when_missed} -> {taken_when_missed}; had the reader found none: {old_if_missed} -> "
          f"{taken_if_missed} of {lone}; empty trays taken for empty: {old_empties} -> {empties_taken} of {empties}",
          flush=True)


def lone_dice(seed: int, board_art: bool) -> tuple[synth._World, list[np.ndarray]]:
    """The drawn scene of `seed` (as `scene_and_empty_tray` draws it) and each of its dice drawn
    alone in its tray."""
    world = synth._build_world(seed, SceneOptions())
    if board_art:  # the same art as scene_and_empty_tray draws
        from tests.vision.test_reference import _print_board_art

        labels = synth._labels(world, world.dice)
        _print_board_art(world.background, [d.box for d in labels.dice], np.random.default_rng([seed, 77]))
    return world, [synth._compose(world, (die,), np.random.default_rng([seed, 2, index]))
                   for index, die in enumerate(world.dice)]


if __name__ == "__main__":
    main()
