"""Frames of any size from 1280x720 to 12 MP give the same dice; a tray region limits the search."""

from __future__ import annotations

import cv2
import numpy as np

from vision.params import load_vision_params
from vision.reader import read_dice
from tools.synth import SceneOptions, render_scene

PARAMS = load_vision_params()
CALM_SCENE = SceneOptions(width=1600, height=900, die_px=46.0, table="grey_card", tint="neutral", dim=False, cubes=0,
                          cubes_near_dice=False, touching=False, cocked=False, glare=False, hard_light=False,
                          blur_sigma=0.5)


def _confident(frame: np.ndarray, **kwargs: object) -> dict[str, int | None]:
    reading = read_dice(frame, PARAMS, **kwargs)  # type: ignore[arg-type]
    return {d.colour: d.value for d in reading.dice if not d.unsure}  # type: ignore[misc]


def test_twelve_megapixel_frame_reads_like_the_original() -> None:
    frame, labels = render_scene(0, CALM_SCENE)
    truth = {d.colour: d.value for d in labels.dice}
    native = _confident(frame)
    big = _confident(cv2.resize(frame, (4056, 2282), interpolation=cv2.INTER_CUBIC))
    assert native and big
    assert all(truth[colour] == value for colour, value in big.items())
    assert len(big) >= len(native) - 1


def test_region_outside_the_dice_finds_none_and_region_around_them_finds_them() -> None:
    frame, labels = render_scene(0, CALM_SCENE)
    xs = [d.center[0] for d in labels.dice]
    ys = [d.center[1] for d in labels.dice]
    margin = 80
    around = (int(min(xs)) - margin, int(min(ys)) - margin, int(max(xs) - min(xs)) + 2 * margin,
              int(max(ys) - min(ys)) + 2 * margin)
    truth = {d.colour: d.value for d in labels.dice}
    whole = _confident(frame)
    inside = read_dice(frame, PARAMS, region=around)
    confident = {d.colour: d.value for d in inside.dice if not d.unsure}
    assert all(truth[colour] == value for colour, value in confident.items())  # type: ignore[index]
    assert len(confident) >= len(whole) - 1
    for die in inside.dice:  # boxes are in frame pixels, not region pixels
        assert any(abs(die.x + die.w / 2 - x) < 40 and abs(die.y + die.h / 2 - y) < 40 for x, y in zip(xs, ys))
    empty_corner = (0, 0, 120, 120)
    assert read_dice(frame, PARAMS, region=empty_corner).dice == ()
