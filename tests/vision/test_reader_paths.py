"""read_dice picks its path: the learned models when enabled and loadable, else the classical reader,
and the reading's message says which one ran."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from tests.vision.scene_checks import at_label
from vision.debug import TRAY_OUTLINE_BGR, DebugSink
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import REPO_ROOT, load_vision_params
from vision.reader import CLASSICAL_PATH, LEARNED_PATH, learned_models, read_dice, release_learned_models
from tools.synth import SceneOptions, render_scene

PARAMS = load_vision_params()
LEARNED = load_learned_params()
SCENE = SceneOptions(width=1280, height=720, die_px=44.0, cubes=0, glare=False, cocked=False, touching=False,
                     hard_light=False, dim=False, cards=0, tint="neutral", table="grey_card", blur_sigma=0.5,
                     tilt_deg=0.0, cubes_near_dice=False)


@pytest.fixture(scope="module")
def scene() -> np.ndarray:
    frame, _ = render_scene(21, SCENE)
    return frame


def test_repository_config_enables_the_learned_path(scene: np.ndarray) -> None:
    assert LEARNED.enabled
    reading = read_dice(scene, PARAMS, expect="macao")
    assert reading.message.startswith(LEARNED_PATH)
    assert len(reading.dice) == 6


def test_disabled_models_give_the_classical_path(scene: np.ndarray) -> None:
    off = dataclasses.replace(LEARNED, enabled=False)
    reading = read_dice(scene, PARAMS, expect="macao", learned=off)
    assert reading.message.startswith(CLASSICAL_PATH) and "disabled" in reading.message
    assert reading.dice


def test_missing_model_file_falls_back_to_the_classical_path(scene: np.ndarray, tmp_path: Path) -> None:
    missing = dataclasses.replace(LEARNED, classifier_path=str(tmp_path / "gone.onnx"))
    reading = read_dice(scene, PARAMS, expect="any", learned=missing)
    assert reading.message.startswith(CLASSICAL_PATH)
    assert "gone.onnx" in reading.message and "no such model file" in reading.message
    assert reading.dice


def test_a_missing_second_classifier_falls_back_to_the_classical_path_in_words(scene: np.ndarray,
                                                                              tmp_path: Path) -> None:
    missing = dataclasses.replace(LEARNED, second_classifier_path=str(tmp_path / "second.onnx"))
    reading = read_dice(scene, PARAMS, expect="any", learned=missing)
    assert reading.message.startswith(CLASSICAL_PATH)
    assert "second.onnx" in reading.message and "no such model file" in reading.message


def test_the_second_classifier_is_loaded_only_when_named() -> None:
    named = learned_models(dataclasses.replace(LEARNED, second_classifier_path=LEARNED.classifier_path))
    none = learned_models(dataclasses.replace(LEARNED, second_classifier_path=""))
    assert not isinstance(named, str) and not isinstance(none, str)
    assert len(named[0].extra_classifiers) == 1 and none[0].extra_classifiers == ()


def test_models_are_loaded_once_per_file_pair() -> None:
    first, second = learned_models(LEARNED), learned_models(dataclasses.replace(LEARNED, value_min_probability=0.5))
    assert not isinstance(first, str) and not isinstance(second, str)
    assert first[0] is second[0]  # the same loaded networks
    assert second[1].value_min_probability == 0.5  # each call keeps its own thresholds


def test_released_models_are_loaded_again_and_read_the_same(scene: np.ndarray) -> None:
    before = read_dice(scene, PARAMS, expect="macao")
    held = learned_models(LEARNED)
    release_learned_models()
    again = learned_models(LEARNED)
    assert not isinstance(held, str) and not isinstance(again, str)
    assert again[0] is not held[0]  # loaded anew, not kept
    assert read_dice(scene, PARAMS, expect="macao").dice == before.dice


def test_region_boxes_are_in_frame_pixels(scene: np.ndarray) -> None:
    whole = read_dice(scene, PARAMS, expect="any")
    x0, y0 = 40, 30
    part = read_dice(scene, PARAMS, expect="any", region=(x0, y0, scene.shape[1] - x0, scene.shape[0] - y0))
    assert part.message.startswith(LEARNED_PATH)
    centres = sorted((d.x + d.w // 2, d.y + d.h // 2) for d in whole.dice)
    shifted = sorted((d.x + d.w // 2, d.y + d.h // 2) for d in part.dice)
    assert len(centres) == len(shifted) == 6
    assert max(abs(a - c) + abs(b - d) for (a, b), (c, d) in zip(centres, shifted)) <= 8


def test_region_outside_the_frame_gives_a_message(scene: np.ndarray) -> None:
    reading = read_dice(scene, PARAMS, expect="any", region=(5000, 5000, 100, 100))
    assert reading.dice == () and "region" in reading.message


def test_learned_path_draws_its_debug_picture(scene: np.ndarray) -> None:
    sink = DebugSink()
    read_dice(scene, PARAMS, expect="macao", debug=sink)
    stages = [name.split(" (")[0] for name in sink.stages]
    assert stages == ["detector heat", "candidates", "leaning check", "dice", "read"]
    assert sink.stages["read (learned)"].shape == scene.shape
    assert not np.array_equal(sink.stages["read (learned)"], scene)


def test_enabled_must_be_true_or_false() -> None:
    table = {f.name: getattr(LEARNED, f.name) for f in dataclasses.fields(LearnedParams)}
    with pytest.raises(ValueError, match="enabled"):
        LearnedParams.from_table({**table, "enabled": 1})
    with pytest.raises(ValueError, match="detector_long_side"):
        LearnedParams.from_table({**table, "detector_long_side": True})


@pytest.mark.parametrize("seed", range(1, 13))
def test_a_small_tray_region_is_read_at_the_whole_frame_s_scale(seed: int) -> None:
    """A 480x300 region of a 1600x900 frame: left at its own size, its dice would be far larger
    than any the detector was trained on (it then found none). Every die wholly inside reads
    right; a die the region cuts may read unsure, never wrong."""
    frame, labels = render_scene(seed, dataclasses.replace(SCENE, width=1600, height=900, die_px=60.0))
    height, width = frame.shape[:2]
    region_w, region_h = 480, 300
    x0 = int(np.clip(labels.dice[0].center[0] - region_w / 2, 0, width - region_w))
    y0 = int(np.clip(labels.dice[0].center[1] - region_h / 2, 0, height - region_h))
    inside = [d for d in labels.dice
              if x0 <= d.box[0] and d.box[2] <= x0 + region_w and y0 <= d.box[1] and d.box[3] <= y0 + region_h]
    reading = read_dice(frame, PARAMS, expect="any", region=(x0, y0, region_w, region_h))
    assert reading.message.startswith(LEARNED_PATH)
    sure = [d for d in reading.dice if not d.unsure]
    assert inside, "the region should hold a die wholly"
    assert all(any(at_label(d, label) and d.value == label.value for d in sure) for label in inside)
    assert all(any(at_label(d, label) and d.value == label.value for label in labels.dice) for d in sure)


@pytest.mark.parametrize("enabled", [True, False], ids=["learned", "classical"])
def test_the_configured_tray_region_leaves_out_the_dice_beyond_it(scene: np.ndarray, enabled: bool) -> None:
    """Both paths look only inside the configured region (here the frame's left half) and find
    there what they find in the whole frame; boxes stay in frame pixels."""
    learned = dataclasses.replace(LEARNED, enabled=enabled)
    whole = read_dice(scene, PARAMS, expect="any", learned=learned)
    left_half = dataclasses.replace(PARAMS, tray_width=0.5)
    part = read_dice(scene, left_half, expect="any", learned=learned)
    middle = scene.shape[1] / 2
    left = sorted((d for d in whole.dice if d.x + d.w < middle), key=lambda d: d.x)
    part = dataclasses.replace(part, dice=tuple(sorted(part.dice, key=lambda d: d.x)))
    assert 0 < len(left) < len(whole.dice) == 6, "the scene should have dice on both sides"
    assert [d.value for d in part.dice] == [d.value for d in left]
    assert max(abs(a.x + a.w / 2 - b.x - b.w / 2) + abs(a.y + a.h / 2 - b.y - b.h / 2)
               for a, b in zip(part.dice, left)) <= 8


def test_the_debug_picture_outlines_the_tray_region(scene: np.ndarray) -> None:
    sink = DebugSink()
    read_dice(scene, dataclasses.replace(PARAMS, tray_left=0.25, tray_width=0.5), expect="any", debug=sink)
    picture = sink.stages["read (learned)"]
    amber = np.all(picture == TRAY_OUTLINE_BGR, axis=2)
    columns = np.nonzero(amber.sum(axis=0) > scene.shape[0] // 2)[0]  # the region's two upright sides
    assert columns.min() == pytest.approx(0.25 * scene.shape[1], abs=4)
    assert columns.max() == pytest.approx(0.75 * scene.shape[1], abs=4)


def test_the_command_line_reads_in_the_tray_region_but_scores_whole_pictures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`read` is the table's reader (its tray region); `evaluate` scores a dataset, whose pictures
    come from other cameras, on the whole picture."""
    from vision.cli import main as vision_main

    dataset = tmp_path / "set"
    assert vision_main(["synth", str(dataset), "--count", "1", "--width", "640", "--height", "360",
                        "--die-px", "30"]) == 0
    config = tmp_path / "config.toml"
    text = (REPO_ROOT / "config.toml").read_text(encoding="utf-8")
    config.write_text(text.replace("tray_width = 1.0", "tray_width = 0.1"), encoding="utf-8")
    image = str(next((dataset / "images").iterdir()))
    capsys.readouterr()
    assert vision_main(["--config", str(config), "read", "--json", image]) == 0
    assert json.loads(capsys.readouterr().out)["dice"] == []  # no die in the frame's left tenth
    assert vision_main(["--config", str(config), "evaluate", "--json", str(dataset)]) == 0
    assert json.loads(capsys.readouterr().out)["recall"] == 1.0
