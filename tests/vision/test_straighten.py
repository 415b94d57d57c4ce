"""A tilted camera's view straightened onto the table (vision/straighten.py): the tray comes out
a true rectangle, boxes go back to the frame where they came from, the empty tray is
straightened the same way, and a drawn tilted scene is read with its dice where they lie."""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest

from tools.synth import SceneOptions, render_scene
from vision.evaluate import LabelledDie, match
from vision.learned_params import load_learned_params
from vision.params import WHOLE_FRAME, load_vision_params
from vision.perspective import focal_length_px
from vision.reader import read_dice
from vision.reference import EmptyTray, ReferenceUnusable, tray_difference
from vision.straighten import straightened, straightened_empty_tray
from vision.types import DieReading

PARAMS = load_vision_params().with_tray(WHOLE_FRAME)
LEARNED = load_learned_params()
WIDTH, HEIGHT = 1600, 900


def _tray_seen_from(tilt_deg: float, towards_deg: float, fov: float) -> np.ndarray:
    """The four corners (frame px) of a 300 x 200 mm tray 600 mm below a camera whose principal
    point is the frame's centre, leaning `tilt_deg` towards `towards_deg`."""
    focal = focal_length_px(WIDTH, fov)
    axis = np.array([math.cos(math.radians(towards_deg)), math.sin(math.radians(towards_deg)), 0.0])
    turn, _ = cv2.Rodrigues(axis * math.radians(tilt_deg))
    eye = np.array([0.0, 0.0, 600.0])
    ray = np.array([0.0, 0.0, -1.0]) @ turn
    middle = eye + ray * (600.0 / -ray[2])
    corners = middle + np.array([[-150, -100, 0], [150, -100, 0], [150, 100, 0], [-150, 100, 0]], float)
    seen = (corners - eye) @ turn.T
    return np.stack((WIDTH / 2 + focal * seen[:, 0] / -seen[:, 2], HEIGHT / 2 + focal * seen[:, 1] / -seen[:, 2]), -1)


def test_the_straightened_tray_is_a_rectangle_of_its_own_proportions() -> None:
    corners = _tray_seen_from(30, 120, 66)
    sides = np.hypot(*(corners - np.roll(corners, -1, axis=0)).T)
    assert max(abs(sides[0] / sides[2] - 1), abs(sides[1] / sides[3] - 1)) > 0.05  # at a slant: far and near differ
    straight = straightened(np.zeros((HEIGHT, WIDTH, 3), np.uint8), corners, 66, 10, 0, 30)
    assert straight is not None and straight.tilt_deg == pytest.approx(30, abs=0.5)
    seen = straight.place.corners
    edges = np.roll(seen, -1, axis=0) - seen
    lengths = np.hypot(*edges.T)
    assert lengths[0] / lengths[1] == pytest.approx(1.5, rel=0.02)
    for i in range(4):  # right angles
        assert abs(edges[i] @ edges[(i + 1) % 4]) / (lengths[i] * lengths[(i + 1) % 4]) < 0.02
    assert np.all(seen >= 29) and np.all(seen <= np.array(straight.place.frame_size) - 29)  # the margin round it


def test_a_camera_that_hardly_leans_or_that_the_corners_do_not_place_is_read_as_it_is() -> None:
    frame = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    assert straightened(frame, _tray_seen_from(6, 40, 66), 66, 10, 0, 30) is None
    assert straightened(frame, _tray_seen_from(30, 40, 66), 66, 35, 0, 30) is None
    narrow = _tray_seen_from(30, 40, 22)  # a long lens, 66 degrees configured: the corners disagree
    assert straightened(frame, narrow, 66, 10, 0, 30) is None
    assert straightened(frame, narrow, 22, 10, 0, 30) is not None
    leaning_less = straightened(frame, _tray_seen_from(30, 40, 66), 66, 10, 20, 30)
    assert leaning_less is not None and leaning_less.tilt_deg == pytest.approx(30, abs=0.5)


def test_a_box_read_straightened_goes_back_where_it_came_from() -> None:
    corners = _tray_seen_from(30, 200, 66)
    straight = straightened(np.zeros((HEIGHT, WIDTH, 3), np.uint8), corners, 66, 10, 0, 30)
    assert straight is not None
    middle = corners.mean(axis=0)
    there = cv2.perspectiveTransform(np.array([[middle]], np.float64), straight.homography)[0, 0]
    die = DieReading(round(there[0]) - 20, round(there[1]) - 20, 40, 40, None, 4, 0.9, False)
    back = straight.to_frame(die)
    assert (back.x + back.w / 2, back.y + back.h / 2) == pytest.approx(tuple(middle), abs=1.5)
    assert dataclasses.replace(back, x=0, y=0, w=0, h=0) == dataclasses.replace(die, x=0, y=0, w=0, h=0)


def test_the_empty_tray_is_straightened_as_the_view_is() -> None:
    rng = np.random.default_rng(5)
    empty = cv2.resize(rng.integers(0, 255, (90, 160, 3), dtype=np.uint8), (WIDTH, HEIGHT))
    corners = _tray_seen_from(30, 120, 66)
    straight = straightened(empty, corners, 66, 10, 0, 30)
    assert straight is not None
    for reference in (empty, EmptyTray.of(empty, PARAMS)):
        same = straightened_empty_tray(straight, reference, (WIDTH, HEIGHT), PARAMS)
        assert same.frame_size == straight.place.frame_size
        assert tray_difference(straight.picture, same, (0, 0), PARAMS).changed.mean() < 0.01
    with pytest.raises(ReferenceUnusable, match="empty-tray picture is 800x450"):
        straightened_empty_tray(straight, empty[::2, ::2], (WIDTH, HEIGHT), PARAMS)


def test_a_tilted_scene_is_read_straightened_with_its_dice_where_they_lie() -> None:
    """A drawn scene under a camera leaning 34 degrees, the tray's corners tapped: read
    straightened (the debug picture shows it), every die reported lies on a die of the labels,
    in frame pixels."""
    from vision.debug import DebugSink

    frame, labels = render_scene(7, SceneOptions(width=WIDTH, height=HEIGHT, die_px=44, tilt_deg=34.0, cubes=0,
                                                 cocked=False, glare=False, touching=False))
    checked = dataclasses.replace(PARAMS.with_tray_corners(labels.conditions["tray_corners_px"], WIDTH, HEIGHT),  # type: ignore[arg-type]
                                  camera_fov_deg=float(labels.conditions["camera_fov_deg"]))  # type: ignore[arg-type]
    debug = DebugSink()
    reading = read_dice(frame, checked, expect="any", learned=LEARNED, debug=debug)
    assert any(name.startswith("the tray straightened") for name in debug.stages)
    dice = [LabelledDie(d.box, d.value, None) for d in labels.dice]
    assert reading.dice and len(match(dice, reading.dice)) == len(reading.dice)
    assert len(match(dice, reading.dice)) >= 5
    kept_square = dataclasses.replace(LEARNED, straighten_min_tilt_deg=90.0)
    plain = DebugSink()
    read_dice(frame, checked, expect="any", learned=kept_square, debug=plain)
    assert not any(name.startswith("the tray straightened") for name in plain.stages)


@pytest.mark.parametrize(("key", "value"), [("straighten_min_tilt_deg", 91.0), ("straighten_leaves_deg", 120.0),
                                            ("straighten_leaves_deg", -5.0)])
def test_bad_straightening_angles_are_refused_by_name(key: str, value: float) -> None:
    from vision.learned_params import LearnedParams

    table = {f.name: getattr(LEARNED, f.name) for f in dataclasses.fields(LEARNED)}
    with pytest.raises(ValueError, match=key):
        LearnedParams.from_table({**table, key: value})
