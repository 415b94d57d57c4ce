"""The randomised drawn scenes: named factors, held out or kept only, deterministic per seed."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools import synth
from tools.scene_factors import FACTORS, allowed_values, draw_factors, parse_choices, scene_keywords
from tools.synth import SceneOptions, render_randomised, render_scene
from tools.synth_tables import MORE_TABLES, more_table


def test_choices_are_parsed_and_bad_ones_named() -> None:
    assert parse_choices(["background=board,paper", "tilt=30-35"], "--only") == {
        "background": ("board", "paper"), "tilt": ("30-35",)}
    with pytest.raises(ValueError, match="no factor 'table'"):
        parse_choices(["table=board"], "--only")
    with pytest.raises(ValueError, match="background has no value 'marble'"):
        parse_choices(["background=marble"], "--hold-out")
    with pytest.raises(ValueError, match="FACTOR=VALUE"):
        parse_choices(["board"], "--hold-out")
    with pytest.raises(ValueError, match="every value of camera is held out"):
        allowed_values(hold_out={"camera": FACTORS["camera"]})


def test_a_held_out_value_never_comes_and_the_other_factors_stay() -> None:
    everything = allowed_values()
    without_boards = allowed_values(hold_out={"background": ("board",)})
    seen = set()
    for seed in range(300):
        free, held = draw_factors(seed, everything), draw_factors(seed, without_boards)
        seen.add(free["background"])
        assert held["background"] != "board"
        assert {k: v for k, v in free.items() if k != "background"} == {
            k: v for k, v in held.items() if k != "background"}
    assert "board" in seen  # the free draws do take it


def test_only_keeps_every_scene_to_those_values() -> None:
    allowed = allowed_values(only={"style": ("white",), "tilt": ("30-35",)})
    for seed in range(50):
        factors = draw_factors(seed, allowed)
        keywords = scene_keywords(factors, seed)
        assert factors["style"] == "white" and 30 <= keywords["tilt_deg"] <= 35


@pytest.mark.parametrize("camera, size", [("pi", (1600, 900)), ("webcam", (640, 480))])
def test_die_size_stays_in_its_range_and_fits_the_frame(camera: str, size: tuple[int, int]) -> None:
    for seed in range(40):
        factors = {**draw_factors(seed, allowed_values()), "camera": camera, "size": "60-120"}
        keywords = scene_keywords(factors, seed)
        assert (keywords["width"], keywords["height"]) == size
        assert 60 <= keywords["die_px"] <= max(60, min(size) / 6)


def test_a_randomised_scene_is_the_same_for_the_same_seed_and_labelled_whole() -> None:
    allowed = allowed_values(only={"camera": ("webcam",), "tilt": ("30-35",)})
    frame_a, labels_a = render_randomised(5, allowed)
    frame_b, labels_b = render_randomised(5, allowed)
    assert np.array_equal(frame_a, frame_b) and labels_a == labels_b
    assert frame_a.shape == (480, 640, 3)
    assert labels_a.conditions["factors"]["tilt"] == "30-35"  # type: ignore[index]
    for die in labels_a.dice:
        assert 0 <= die.center[0] < 640 and 0 <= die.center[1] < 480


def test_a_tilted_camera_aimed_at_the_tray_shows_side_faces_and_keeps_the_size() -> None:
    """35 degrees off straight down, aimed at the tray: the dice stay near the asked size in the
    picture's middle, and a die's box (whole die) is wider than its top face."""
    options = SceneOptions(width=640, height=480, die_px=40, tilt_deg=35.0, aim_at_tray=True, cubes=0,
                           cocked=False, touching=False)
    _frame, labels = render_scene(3, options)
    straight = render_scene(3, SceneOptions(width=640, height=480, die_px=40, tilt_deg=0.0, cubes=0,
                                            cocked=False, touching=False))[1]
    tilted_area = np.median([(d.box[2] - d.box[0]) * (d.box[3] - d.box[1]) for d in labels.dice])
    flat_area = np.median([(d.box[2] - d.box[0]) * (d.box[3] - d.box[1]) for d in straight.dice])
    assert 0.6 * 40 ** 2 < tilted_area < 4 * 40 ** 2
    assert tilted_area > 1.1 * flat_area * (np.cos(np.radians(35)))  # side faces add to the box
    assert all(die.value == flat.value for die, flat in zip(labels.dice, straight.dice))


@pytest.mark.parametrize("kind", MORE_TABLES)
def test_each_new_table_is_drawn_and_differs_per_seed(kind: str) -> None:
    first = more_table(kind, 160, 120, 20.0, np.random.default_rng(1))
    second = more_table(kind, 160, 120, 20.0, np.random.default_rng(2))
    assert first.shape == (120, 160, 3) and first.dtype == np.float32
    assert np.isfinite(first).all() and first.min() >= 0 and first.std() > 0.001
    assert not np.array_equal(first, second)


def test_an_unknown_table_or_style_is_named() -> None:
    with pytest.raises(ValueError, match="unknown table 'marble'"):
        more_table("marble", 100, 100, 20.0, np.random.default_rng(1))
    with pytest.raises(ValueError, match="unknown dice style 'glass'"):
        render_scene(1, SceneOptions(width=320, height=240, die_px=20, dice_style="glass"))


def test_white_dice_are_light_with_dark_pips() -> None:
    options = SceneOptions(width=640, height=480, die_px=48, dice_style="white", table="dark", cubes=0, dim=False,
                           cocked=False, glare=False, tint="neutral", blur_sigma=0.0, tilt_deg=0.0)
    frame, labels = render_scene(4, options)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for die in labels.dice:
        x, y = (round(c) for c in die.center)
        face = grey[y - 18:y + 18, x - 18:x + 18]
        assert np.percentile(face, 80) > 150  # a white body
        assert face.min() < 90  # black pips on it


def test_webcam_and_motion_blur_change_the_frame() -> None:
    plain = SceneOptions(width=320, height=240, die_px=24, blur_sigma=0.0)
    frame = render_scene(9, plain)[0]
    smeared = render_scene(9, SceneOptions(width=320, height=240, die_px=24, blur_sigma=0.0, motion_blur_px=8.0))[0]
    webcam = render_scene(9, SceneOptions(width=320, height=240, die_px=24, blur_sigma=0.0, webcam=True))[0]
    sharpness = [cv2.Laplacian(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var() for f in (frame, smeared)]
    assert sharpness[1] < 0.7 * sharpness[0]
    assert np.abs(webcam.astype(int) - frame.astype(int)).mean() > 2.0


def test_synth_command_writes_factors_and_refuses_a_bad_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "set"
    assert synth.main([str(out), "--count", "2", "--seed", "3", "--only", "camera=webcam",
                       "--hold-out", "background=board"]) == 0
    label = json.loads(next((out / "labels").iterdir()).read_text())
    assert label["scene"]["factors"]["camera"] == "webcam" and label["width"] == 640
    assert "factors" in (out / "manifest.csv").read_text().splitlines()[0]
    assert synth.main([str(tmp_path / "bad"), "--hold-out", "tilt=90"]) == 2
    assert "tilt has no value '90'" in capsys.readouterr().err


def test_each_die_is_labelled_with_its_own_face_side_and_training_reads_it(tmp_path: Path) -> None:
    """Straight down every face measures the asked size; a tilted camera sees far dice smaller,
    and the training data takes each die's own side rather than one size for the picture."""
    from tools.training.data import load_folder

    straight = render_scene(3, SceneOptions(width=640, height=480, die_px=40, tilt_deg=0.0))[1]
    assert all(abs(d.face_side - 40) < 1.5 for d in straight.dice)
    out = tmp_path / "tilted"
    synth.write_dataset(out, 1, 4, SceneOptions(width=640, height=480, die_px=40, tilt_deg=35.0, aim_at_tray=True))
    label = json.loads(next((out / "labels").iterdir()).read_text())
    sides = [d["face_side_px"] for d in label["dice"]]
    assert max(sides) - min(sides) > 3
    assert [die.side for die in load_folder(out)[0].dice] == pytest.approx(sides)
