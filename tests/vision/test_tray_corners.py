"""A tray region of four corners (a camera at a slant sees the tray as a quadrilateral): the
config key, which dice count, the point below a tilted camera, and the leaning check with it."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest

from tools import synth
from vision.frame import RegionPlace, cut_with_margin, inside_corners
from vision.learned_params import load_learned_params
from vision.params import load_vision_params, parse_tray_corners
from vision.perspective import camera_slant, focal_length_px, point_below_camera
from vision.reader import read_classical, read_dice
from tools.synth import SceneOptions, render_scene
from vision.types import UnsureReason

PARAMS = load_vision_params()
LEARNED = load_learned_params()
CALM = dict(cubes=0, touching=False, glare=False, cards=0, hard_light=False, blur_sigma=0.5, cocked=False)


def test_corners_in_any_order_come_out_clockwise_from_the_top_left() -> None:
    assert parse_tray_corners("0.9 0.9, 0.1 0.1, 0.8 0.15, 0.2 0.85") == (
        (0.1, 0.1), (0.8, 0.15), (0.9, 0.9), (0.2, 0.85))


@pytest.mark.parametrize(("text", "words"), [
    ("0.1 0.1 0.9 0.1 0.9", "eight fractions"), ("a b c d e f g h", "eight fractions"),
    ("0.1 0.1 1.5 0.1 0.9 0.9 0.1 0.9", "in the frame"), ("0.1 0.1 nan 0.1 0.9 0.9 0.1 0.9", "in the frame"),
    ("0.1 0.1 0.5 0.5 0.9 0.9 0.1 0.9", "no convex"), ("0.1 0.1 0.9 0.1 0.5 0.3 0.5 0.9", "no convex"),
])
def test_bad_corners_are_named(text: str, words: str, tmp_path: Path) -> None:
    mine = tmp_path / "config.toml"
    mine.write_text(f'[vision]\ntray_corners = "{text}"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=f"{mine.name}.*'tray_corners'.*{words}"):
        load_vision_params(mine)


def test_corners_override_the_rectangle_and_the_settling_check_watches_around_them(tmp_path: Path) -> None:
    mine = tmp_path / "config.toml"
    mine.write_text('[vision]\ntray_left = 0.3\ntray_width = 0.2\ntray_corners = "0.2 0.1 0.8 0.15 0.9 0.9 0.1 0.85"\n',
                    encoding="utf-8")
    params = load_vision_params(mine)
    assert params.tray == pytest.approx((0.1, 0.1, 0.8, 0.8))
    assert params.tray_outline == params.tray_quad == ((0.2, 0.1), (0.8, 0.15), (0.9, 0.9), (0.1, 0.85))
    assert params.with_tray((0.0, 0.0, 1.0, 1.0)).tray_quad is None  # evaluate's whole pictures
    assert PARAMS.tray_quad is None and PARAMS.tray_outline == ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


def test_only_dice_centred_inside_the_corners_count() -> None:
    corners = np.array([(100.0, 0.0), (200.0, 100.0), (100.0, 200.0), (0.0, 100.0)])  # a diamond
    assert inside_corners(corners, 100, 100) and inside_corners(corners, 150, 60)
    assert not inside_corners(corners, 20, 20) and not inside_corners(corners, 190, 190)
    place = RegionPlace((0, 0), (200, 200), None, corners)
    assert place.counts(100, 150) and not place.counts(10, 190)


def test_the_view_is_the_rectangle_round_the_corners_and_the_corners_move_with_it() -> None:
    frame = np.zeros((900, 1600, 3), np.uint8)
    params = dataclasses.replace(PARAMS, tray_corners="0.25 0.2 0.75 0.2 0.8 0.8 0.2 0.8")
    view, place = cut_with_margin(frame, params, None)
    margin = round(PARAMS.tray_margin * 1600)
    assert place is not None and place.offset == (320 - margin, 180 - margin)
    assert view.shape[:2] == (540 + 2 * margin, 960 + 2 * margin)
    assert place.corners is not None and place.corners[0] == pytest.approx((400 - 320 + margin, margin))
    # Wider at the bottom: the camera leans back from the tray, the point below it lies lower.
    below = place.below_camera
    assert below is not None and below[0] == pytest.approx(800) and below[1] > 600
    assert place.view_centre == pytest.approx((place.below_camera[0] - place.offset[0],
                                               place.below_camera[1] - place.offset[1]))
    upright = dataclasses.replace(PARAMS, tray_corners="0.25 0.2 0.75 0.2 0.75 0.8 0.25 0.8")
    assert cut_with_margin(frame, upright, None)[1].below_camera == pytest.approx((800, 450))


def _diamond_round(scene_dice: list, keep: int, leave: int) -> str:
    """Corners of a diamond centred on die `keep` that leaves die `leave` out, though the
    rectangle round the diamond holds it (fractions of a 1600 x 900 frame)."""
    (ax, ay), (bx, by) = scene_dice[keep].center, scene_dice[leave].center
    dx, dy = abs(bx - ax), abs(by - ay)
    reach = (dx + dy + max(dx, dy)) / 2  # beyond |dx| and |dy|, short of |dx| + |dy|
    points = [(ax, ay - reach), (ax + reach, ay), (ax, ay + reach), (ax - reach, ay)]
    return " ".join(f"{min(1.0, max(0.0, x / 1600)):.5f} {min(1.0, max(0.0, y / 900)):.5f}" for x, y in points)


def _found_at(reading, centre: tuple[float, float], side: float) -> bool:  # noqa: ANN001 - a DiceReading
    return any(math.hypot(d.x + d.w / 2 - centre[0], d.y + d.h / 2 - centre[1]) < side / 2 for d in reading.dice)


@pytest.mark.parametrize("path", ["learned", "classical"])
def test_a_die_inside_the_rectangle_round_the_corners_but_outside_them_is_left_out(path: str) -> None:
    frame, labels = render_scene(3, SceneOptions(**CALM, tilt_deg=0.0))
    dice = list(labels.dice)
    def slant(a: int, b: int) -> float:
        (ax, ay), (bx, by) = dice[a].center, dice[b].center
        return abs(bx - ax) / max(1.0, abs(by - ay))

    pairs = [(a, b) for a in range(6) for b in range(6) if a != b and 1.3 < slant(a, b) < 3]
    assert pairs, "this scene should hold two dice apart on a slant"
    keep, leave = pairs[0]
    side = float(dice[keep].box[2] - dice[keep].box[0])
    params = dataclasses.replace(PARAMS, tray_corners=_diamond_round(dice, keep, leave))
    quad = parse_tray_corners(params.tray_corners)
    assert not inside_corners(np.array(quad) * (1600, 900), *dice[leave].center)
    read = (lambda p: read_dice(frame, p, expect="any")) if path == "learned" else (
        lambda p: read_classical(frame, p, expect="any"))
    with_corners, around = read(params), read(params.with_tray(params.tray))
    assert _found_at(with_corners, dice[keep].center, side) and not _found_at(with_corners, dice[leave].center, side)
    assert _found_at(around, dice[leave].center, side)


def _pinhole(tilt_deg: float, towards_deg: float, focal: float, width: int, height: int):  # noqa: ANN202
    """The projection of table points (mm, z up) seen by a camera 600 mm up, tilted by
    `tilt_deg`, and its turn (world -> camera)."""
    axis = np.array([math.cos(math.radians(towards_deg)), math.sin(math.radians(towards_deg)), 0.0])
    cross = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    turn = math.radians(tilt_deg)
    rotation = np.eye(3) + math.sin(turn) * cross + (1 - math.cos(turn)) * cross @ cross

    def project(points: np.ndarray) -> np.ndarray:
        rel = (np.asarray(points, float) - (0.0, 0.0, 600.0)) @ rotation.T
        depth = -rel[..., 2]
        return np.stack((width / 2 + focal * rel[..., 0] / depth, height / 2 + focal * rel[..., 1] / depth), -1)
    return project, rotation


@pytest.mark.parametrize(("tilt", "towards", "fov"), [(0, 0, 66), (10, 30, 66), (25, 120, 66), (35, 200, 66),
                                                      (25, 120, 45), (20, 0, 66)])
def test_the_point_below_the_camera_is_found_from_a_rectangle_s_corners(tilt: float, towards: float,
                                                                       fov: float) -> None:
    """Where the tray's sides show the focal length (two finite vanishing points) the assumed
    field of view does not matter; seen square along one side (towards 0), it is used."""
    width, height = 1600, 900
    project, rotation = _pinhole(tilt, towards, focal_length_px(width, 66), width, height)
    below = project(np.array([0.0, 0.0, 0.0]))
    # A 300 x 200 mm tray in the middle of the camera's view.
    ray = np.array([0.0, 0.0, -1.0]) @ rotation
    middle = np.array([0.0, 0.0, 600.0]) + ray * (600.0 / -ray[2])
    corners = project(middle + np.array([[-150, -100, 0], [150, -100, 0], [150, 100, 0], [-150, 100, 0]], float))
    assert point_below_camera(corners, width, height, fov) == pytest.approx(tuple(below), abs=1.0)


def test_corners_that_a_field_of_view_contradicts_do_not_place_the_camera() -> None:
    """A narrow lens (three times the focal length of the configured 66 degrees) over a tilted
    tray: its corners measure its own focal length, which the configured field of view does not
    allow. The point from the configured one lay hundreds of pixels off (flat dice were then
    taken for leaning four times as often on a drawn webcam set): no point is given, and the
    reader guesses it as without corners. Told the camera's own field of view, it is found."""
    width, height = 1600, 900
    focal = 3 * focal_length_px(width, 66)
    project, rotation = _pinhole(25, 120, focal, width, height)
    ray = np.array([0.0, 0.0, -1.0]) @ rotation
    middle = np.array([0.0, 0.0, 600.0]) + ray * (600.0 / -ray[2])
    corners = project(middle + np.array([[-50, -35, 0], [50, -35, 0], [50, 35, 0], [-50, 35, 0]], float))
    assert np.all((corners > 0) & (corners < (width, height)))  # a 100 x 70 mm tray, wholly in view
    assert point_below_camera(corners, width, height, 66) is None
    own = float(np.degrees(2 * np.arctan(width / 2 / focal)))
    below = project(np.array([0.0, 0.0, 0.0]))
    assert point_below_camera(corners, width, height, own) == pytest.approx(tuple(below), abs=1.0)
    quad = PARAMS.with_tray_corners(corners, width, height)
    _view, place = cut_with_margin(np.zeros((height, width, 3), np.uint8), quad, None)
    assert place is not None and place.corners is not None and place.view_centre is None


def test_the_leaning_check_of_a_camera_tilted_by_20_degrees_knows_where_below_it_is() -> None:
    """Drawn scenes, camera tilted 20 degrees: outward taken from the picture's centre, the check
    took 38 of 120 flat dice for leaning (seeds 1-20); from the point below the camera, found
    from the four corners of a rectangle on the table, 1. Here: seeds 1-4 with and without."""
    options = SceneOptions(**CALM, tilt_deg=20.0)
    marked = {"centre": 0, "corners": 0}
    for seed in range(1, 5):
        frame, _labels = render_scene(seed, options)
        world = synth._build_world(seed, options)
        spots = np.array([box.centre[:2] for box in world.dice])
        (x0, y0), (x1, y1) = spots.min(0) - 30, spots.max(0) + 30
        corners = world.cam.project(np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], float))
        fractions = np.clip(corners / (frame.shape[1], frame.shape[0]), 0, 1)
        quad = dataclasses.replace(PARAMS, tray_corners=" ".join(f"{v:.5f}" for v in fractions.ravel()))
        plain = quad.with_tray(quad.tray)  # the same rectangle round the dice, no corners
        for name, params in (("centre", plain), ("corners", quad)):
            reading = read_dice(frame, params, expect="any", learned=LEARNED)
            marked[name] += sum(d.reason is UnsureReason.LEANING for d in reading.dice)
    assert marked["corners"] == 0 and marked["centre"] >= 2, marked


def _tray_seen(tilt: float, towards: float, focal: float, width: int, height: int,
               half_sides: tuple[float, float] = (150.0, 100.0)) -> np.ndarray:
    """The four corners of a tray (half sides in mm) in the middle of the view of a `_pinhole` camera."""
    project, rotation = _pinhole(tilt, towards, focal, width, height)
    ray = np.array([0.0, 0.0, -1.0]) @ rotation
    middle = np.array([0.0, 0.0, 600.0]) + ray * (600.0 / -ray[2])
    a, b = half_sides
    return project(middle + np.array([[-a, -b, 0], [a, -b, 0], [a, b, 0], [-a, b, 0]], float))


@pytest.mark.parametrize(("tilt", "towards", "fov"), [(0, 0, 66), (12, 30, 66), (25, 120, 66), (35, 200, 80),
                                                      (20, 0, 66), (30, 90, 50)])
def test_the_camera_check_is_told_how_far_the_camera_leans(tilt: float, towards: float, fov: float) -> None:
    """Its tilt from the corners (and the configured field of view where they cannot show it: seen
    square along a side, towards 0 or 90), and the field of view they measure where they can."""
    width, height = 1600, 900
    corners = _tray_seen(tilt, towards, focal_length_px(width, fov), width, height)
    slant = camera_slant(corners, width, height, fov)
    assert slant.tilt_deg == pytest.approx(tilt, abs=0.5)
    if tilt == 0 or towards % 90 == 0:
        assert slant.measured_fov_deg is None
    else:
        assert slant.measured_fov_deg == pytest.approx(fov, abs=0.5)


def test_corners_that_contradict_the_field_of_view_tell_the_one_they_measure() -> None:
    """A narrow lens (three times the focal length of the configured 66 degrees): no tilt is given,
    as the reader does not place the camera from them, and the lens's own field of view is told."""
    width, height = 1600, 900
    focal = 3 * focal_length_px(width, 66)
    slant = camera_slant(_tray_seen(25, 120, focal, width, height, (50.0, 35.0)), width, height, 66)
    own = float(np.degrees(2 * np.arctan(width / 2 / focal)))
    assert slant.tilt_deg is None and slant.measured_fov_deg == pytest.approx(own, abs=0.5)
    told = camera_slant(_tray_seen(25, 120, focal, width, height, (50.0, 35.0)), width, height, round(own))
    assert told.tilt_deg == pytest.approx(25, abs=0.5)
