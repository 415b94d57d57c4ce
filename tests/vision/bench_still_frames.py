"""Figures for how the app turns a roll's still frames into one proposal (not a test). The app
reads the mean of `[vision.settle] still_frames` still frames once (`vision.settle.still_picture`);
`vision evaluate` reads one frame. Here every drawn scene is shot as that many still frames, each
with its own camera noise and JPEG (`tools.synth.render_still_frames`), read as the app reads after
its camera check (in the tray's corners, beside the empty tray), and judged per flat die three
ways: the first frame alone, the frames' mean (as the app), and each frame read with a die's value
kept where more than half the frames read it sure and none read it otherwise (a majority vote).
Until 2026-12-07 the app voted instead, keeping a value only where all three frames read it sure:
docs/dice-reader.md, "Settling", has that rule's figures on these scenes.

    .venv/bin/python -m tests.vision.bench_still_frames --seed 3904 --scenes 40 \\
        --only style=white --only background=light_wood --only camera=webcam --only tilt=20-30,30-35
    .venv/bin/python -m tests.vision.bench_still_frames --seed 3907 --expect macao \\
        --only background=board --only style=macao --only pips=usual
"""

from __future__ import annotations

import argparse
import dataclasses
from collections import Counter

import cv2
import numpy as np

from tools.scene_factors import allowed_values, parse_choices
from tools.synth import SceneLabels, render_randomised_still_frames
from vision.evaluate import LabelledDie, match
from vision.params import VisionParams, load_vision_params
from vision.reader import read_dice
from vision.reference import EmptyTray
from vision.settle import SettleParams, one_die_per_colour, still_picture
from vision.types import DiceReading, ExpectMode

WAYS = ("first frame", "mean frame (as the app)", "majority, no conflict")
OUTCOMES = ("right", "wrong", "unsure", "missed")


def per_die(reading: DiceReading, labels: SceneLabels, expect: ExpectMode) -> list[int | str | None]:
    """For each flat die of the scene: its value as read (sure), "unsure", or None (not found);
    a Macao die found by its colour, others by where they lie."""
    flat = [d for d in labels.dice if d.value is not None]
    if expect == "macao":
        by_colour = {d.colour: d for d in reading.dice}
        found = [by_colour.get(d.colour) for d in flat]
    else:
        matched = match([LabelledDie(d.box, d.value, None) for d in flat], reading.dice)
        found = [reading.dice[matched[i]] if i in matched else None for i in range(len(flat))]
    return [None if got is None else "unsure" if got.unsure or got.value is None else got.value for got in found]


def majority(frames: list[int | str | None]) -> int | str | None:
    """A value read sure in more than half the frames and never read otherwise, else unsure
    (None where more than half the frames did not find the die)."""
    if sum(got is None for got in frames) * 2 >= len(frames):
        return None
    sure = Counter(got for got in frames if isinstance(got, int))
    if len(sure) == 1:
        value, count = sure.most_common(1)[0]
        if count * 2 > len(frames):
            return value
    return "unsure"


def outcome(got: int | str | None, truth: int) -> str:
    return "missed" if got is None else "unsure" if got == "unsure" else "right" if got == truth else "wrong"


def app_params(params: VisionParams, labels: SceneLabels, width: int, height: int) -> VisionParams:
    """The settings after the camera check: the tray's corners and the camera's field of view."""
    checked = params.with_tray_corners(labels.conditions["tray_corners_px"], width, height)  # type: ignore[arg-type]
    return dataclasses.replace(checked, camera_fov_deg=float(labels.conditions["camera_fov_deg"]))  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=3904)
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--expect", choices=("any", "macao"), default="any")
    parser.add_argument("--only", action="append", default=[], metavar="FACTOR=VALUE[,VALUE]")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    allowed = allowed_values({}, parse_choices(args.only, "--only"))
    params, settle = load_vision_params(), SettleParams.from_config_file()
    frames_each = settle.still_frames
    tally = {way: Counter[str]() for way in WAYS}
    for index in range(args.scenes):
        frames, labels, empty = render_randomised_still_frames(args.seed * 100_003 + index, allowed, frames_each)
        checked = app_params(params, labels, frames[0].shape[1], frames[0].shape[0])
        tray = EmptyTray.of(empty, checked)
        count = len(labels.dice)

        def read(frame: np.ndarray) -> DiceReading:
            return read_dice(frame, checked, args.expect, reference=tray, dice_count=count)

        readings = [read(frame) for frame in frames]
        mean = one_die_per_colour(read(still_picture(frames)), repeats=args.expect == "any")
        each_frame = [per_die(reading, labels, args.expect) for reading in readings]
        ways = {WAYS[0]: each_frame[0], WAYS[1]: per_die(mean, labels, args.expect),
                WAYS[2]: [majority([frame[i] for frame in each_frame]) for i in range(len(each_frame[0]))]}
        truths = [d.value for d in labels.dice if d.value is not None]
        for way, got in ways.items():
            tally[way].update(outcome(value, truth) for value, truth in zip(got, truths))  # type: ignore[arg-type]
    dice = sum(tally[WAYS[0]].values())
    print(f"{args.scenes} scenes, {dice} flat dice, {frames_each} still frames each, read in {args.expect} mode")
    for way in WAYS:
        counts = tally[way]
        print(f"{way:24s} " + ", ".join(f"{name} {counts[name]}" for name in OUTCOMES)
              + f"  ({100 * counts['right'] / dice:.1f} % right, {100 * counts['wrong'] / dice:.2f} % wrong)")


if __name__ == "__main__":
    main()
