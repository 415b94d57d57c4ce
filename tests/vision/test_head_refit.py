"""`vision adapt` refitting the classifiers' last layers on a table's own rolls (vision.head_refit):
which candidates teach what, the fit itself, a drawn table it has never seen read better on its
held-out rolls, and the refit written, applied through the app's record and refused when its file
of layers is damaged."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.bench_table_adapt import CONDITIONS, write_table
from tools.scene_factors import allowed_values, parse_choices
from tools.synth import SceneOptions, render_randomised, render_scene
from vision.adapt import (
    HEADS_NAME,
    NO_CALIBRATION,
    RECORD_NAME,
    AdaptError,
    adapt,
    calibration_fingerprint,
    forget_adaptation,
    load_adaptation,
    models_fingerprint,
)
from vision.cli import main
from vision.evaluate import LabelledDie
from vision.head_refit import NOT_A_DIE, candidate_classes, fit_head, teaching_crops
from vision.heads import Head, load_heads, save_heads
from vision.learned_models import model_path
from vision.learned_params import load_learned_params
from vision.params import VisionParams, load_vision_params
from vision.reader import learned_models, read_dice
from vision.reader_view import reader_view

PARAMS = load_vision_params()
LEARNED = load_learned_params()
# A white-dice table under an oblique 640x480 webcam that no training scene had, 16 throws (12
# teach, 4 held out): the shipped classifiers read 19 of its 24 held-out dice and report 4
# readings off the dice; through the refitted layers 20 and none.
TABLE_SEED, THROWS = 4852, 16


@pytest.fixture(scope="module")
def webcam_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("webcam") / "table-rolls-any"
    write_table(folder, TABLE_SEED, THROWS, list(CONDITIONS["webcam"]))
    return folder


def test_a_candidate_teaches_the_die_at_its_centre_nothing_at_its_edge_and_no_die_far_from_all() -> None:
    dice = [LabelledDie((100.0, 100.0, 140.0, 140.0), 5, None), LabelledDie((300.0, 100.0, 340.0, 140.0), None, None)]
    centres = np.array([(121.0, 118.0),  # 2.2 px from the 5's centre: its value
                        (136.0, 120.0),  # 16 px off, within its box: its edge, or a side face
                        (150.0, 120.0),  # just outside its box, within 0.3 sides of it
                        (200.0, 300.0),  # clear of both: the table
                        (320.0, 120.0)])  # on the cocked die: no value to teach
    assert candidate_classes(centres, dice).tolist() == [5, -1, -1, NOT_A_DIE, -1]


def test_the_fit_learns_what_the_rolls_show_and_stays_near_the_shipped_layer_where_they_say_little() -> None:
    rng = np.random.default_rng(5)
    classes = rng.integers(0, 7, 700)
    features = rng.random((700, 16)) * 0.2
    features[np.arange(700), classes] += 1.0  # feature k speaks for class k
    shipped = Head(np.zeros((7, 16), np.float32), np.zeros(7, np.float32))
    fitted = fit_head(features, classes, shipped)
    assert np.mean((features @ fitted.weight.T + fitted.bias).argmax(axis=1) == classes) > 0.95
    again = fit_head(features, classes, shipped)
    assert np.array_equal(again.weight, fitted.weight) and np.array_equal(again.bias, fitted.bias)  # no seed
    held = fit_head(features, classes, shipped, penalty=1e6)
    assert np.abs(held.weight).max() < 1e-3 and np.abs(held.bias).max() < 1e-3
    unused = fit_head(features, classes, shipped)  # features 7-15 never speak: they keep the shipped weights
    assert np.abs(unused.weight[:, 7:]).max() < np.abs(unused.weight[:, :7]).max() / 5


def test_a_table_never_seen_reads_its_held_out_rolls_better_through_its_own_layers(webcam_table: Path) -> None:
    chosen = learned_models(LEARNED)
    assert not isinstance(chosen, str)
    result = adapt(webcam_table, PARAMS, chosen[0], chosen[1], None, 0.003, 20, "any")
    heads = result.refit.heads
    assert heads is not None and len(heads.heads) == 2 and heads.left_out == ()
    assert heads.crops_by_class[NOT_A_DIE] > 0 and min(heads.crops_by_class[1:]) > 0  # every value taught
    before, after = result.before, result.after
    assert (before.dice, before.right, before.phantom) == (24, 19, 4)
    assert after.right > before.right and after.wrong_confident <= before.wrong_confident and after.phantom == 0
    assert result.better and result.refit.value_min_probability <= LEARNED.value_min_probability  # only down


def test_the_layers_are_written_applied_through_the_record_and_refused_when_damaged(
        webcam_table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "adapted"
    assert main(["adapt", str(webcam_table), "--expect", "any", "--out", str(out), "--min-dice", "20"]) == 0
    printed = capsys.readouterr().out
    assert "last layers refitted: dicenet_wide.int8.onnx, dicenet.int8.onnx (" in printed
    assert f"{out / HEADS_NAME} (the last layers)" in printed
    settings = (out / "adapted.toml").read_text(encoding="utf-8")
    assert f'classifier_heads_path = "{out / HEADS_NAME}"' in settings
    assert set(load_heads(out / HEADS_NAME)) == {"dicenet_wide.int8.onnx", "dicenet.int8.onnx"}
    assert main(["--config", str(out / "adapted.toml"), "evaluate", str(webcam_table), "--expect", "any"]) == 0
    assert "value_accuracy" in capsys.readouterr().out  # the layers read through a config, as the CLI reads
    models = models_fingerprint(LEARNED)
    refit = load_adaptation(out, models, NO_CALIBRATION, "any")
    assert refit is not None and refit.heads == out / HEADS_NAME
    through = refit.learned(LEARNED)
    assert through.classifier_heads_path == str((out / HEADS_NAME).absolute())
    frame = cv2.imread(str(sorted((webcam_table / "images").iterdir())[3]))
    assert read_dice(frame, PARAMS, "any", learned=through).message.startswith(
        "learned reader, last layers refitted to this table")
    assert "refitted" not in read_dice(frame, PARAMS, "any", learned=LEARNED).message
    # Another valid file of layers in its place is not the one the record names; a damaged one neither.
    original = load_heads(out / HEADS_NAME)
    save_heads(out / HEADS_NAME, {name: Head(h.weight, h.bias + 1.0) for name, h in original.items()})
    with pytest.raises(AdaptError, match="heads.json: missing or not the one the record names"):
        load_adaptation(out, models, NO_CALIBRATION, "any")
    (out / HEADS_NAME).write_text("{", encoding="utf-8")
    record = json.loads((out / RECORD_NAME).read_text(encoding="utf-8"))
    record["heads"] = calibration_fingerprint(out / HEADS_NAME)
    (out / RECORD_NAME).write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(AdaptError, match="heads.json: unreadable"):
        load_adaptation(out, models, NO_CALIBRATION, "any")
    # A record of version 2 had no layers: a file beside it is not read.
    (out / RECORD_NAME).write_text(json.dumps({**record, "version": 2}), encoding="utf-8")
    older = load_adaptation(out, models, NO_CALIBRATION, "any")
    assert older is not None and older.heads is None
    forget_adaptation(out)
    assert not (out / HEADS_NAME).exists() and not (out / RECORD_NAME).exists()


def test_without_features_nets_the_threshold_is_refitted_alone_and_the_reason_is_given(
        webcam_table: Path, tmp_path: Path) -> None:
    copies = []
    for configured in (LEARNED.classifier_path, LEARNED.second_classifier_path):
        source = model_path(configured)
        copy = tmp_path / source.name
        copy.write_bytes(source.read_bytes())
        copy.with_suffix(".json").write_bytes(source.with_suffix(".json").read_bytes())
        copies.append(str(copy))
    learned = dataclasses.replace(LEARNED, classifier_path=copies[0], second_classifier_path=copies[1])
    chosen = learned_models(learned)
    assert not isinstance(chosen, str)
    result = adapt(webcam_table, PARAMS, chosen[0], chosen[1], None, 0.003, 20, "any")
    heads = result.refit.heads
    assert heads is not None and heads.heads == {}
    assert [reason.split(":")[0] for reason in heads.left_out] == ["dicenet_wide.int8.onnx", "dicenet.int8.onnx"]
    assert all("no usable features net beside it" in reason for reason in heads.left_out)
    assert result.before.dice == result.after.dice == 24  # judged as ever, with the threshold refitted alone


def test_rolls_kept_with_their_empty_tray_are_judged_beside_it_as_the_app_read_them(tmp_path: Path) -> None:
    folder = tmp_path / "table-rolls-any"
    write_table(folder, TABLE_SEED, 8, list(CONDITIONS["webcam"]), beside=True)
    chosen = learned_models(LEARNED)
    assert not isinstance(chosen, str)
    judged = adapt(folder, PARAMS, chosen[0], chosen[1], None, 0.003, 10, "any")
    assert judged.before.dice == 12 and judged.before.right > 0
    # Held-out rolls whose "empty tray" is the roll itself: beside it nothing differs, so no die
    # is read there, before or after.
    for image in sorted((folder / "images").iterdir())[3::4]:
        (folder / "references" / image.name).write_bytes(image.read_bytes())
    blind = adapt(folder, PARAMS, chosen[0], chosen[1], None, 0.003, 10, "any")
    assert blind.before.right == blind.after.right == 0 and not blind.better


def _teaching(frame: np.ndarray, labels: list[LabelledDie], params: VisionParams) -> np.ndarray:
    chosen = learned_models(LEARNED)
    assert not isinstance(chosen, str)
    crops, classes = teaching_crops(frame, labels, params, "any", chosen[0], chosen[1])
    assert all(len(stack) == len(classes) for stack in crops)
    return classes


def test_a_tilted_roll_teaches_from_the_straightened_view_the_reader_reads() -> None:
    """Under a camera leaning 34 degrees with the tray's corners tapped the reader reads the tray
    straightened; its candidates are labelled where they lie in the frame, so each of the six
    dice teaches its own value there."""
    frame, scene = render_scene(7, SceneOptions(width=1600, height=900, die_px=44, tilt_deg=34.0, cubes=0,
                                                cocked=False, glare=False, touching=False))
    tapped = dataclasses.replace(PARAMS.with_tray_corners(scene.conditions["tray_corners_px"], 1600, 900),  # type: ignore[arg-type]
                                 camera_fov_deg=float(scene.conditions["camera_fov_deg"]))  # type: ignore[arg-type]
    assert reader_view(frame, tapped, None, None, LEARNED).straight is not None
    labels = [LabelledDie(d.box, d.value, None) for d in scene.dice]
    taught = _teaching(frame, labels, tapped)
    values = [d.value for d in scene.dice if d.value is not None]
    assert len(values) == 6 and sorted(c for c in taught.tolist() if c != NOT_A_DIE) == sorted(values)


def test_a_roll_teaches_only_inside_the_tray_corners_the_reader_reads_in() -> None:
    """A board around the tray: read in the whole frame, the detector's candidates on the art
    around the tray teach "no die"; in the tray's tapped corners, as the reader reads, fewer do,
    and the dice teach all the same."""
    frame, scene = render_randomised(4841, allowed_values(None, parse_choices(list(CONDITIONS["board"]), "--only")),
                                     SceneOptions(layout_seed=3))
    labels = [LabelledDie((d.center[0] - d.face_side / 2, d.center[1] - d.face_side / 2, d.center[0] + d.face_side / 2,
                           d.center[1] + d.face_side / 2), d.value, None) for d in scene.dice]
    tapped = PARAMS.with_tray_corners(scene.conditions["tray_corners_px"], frame.shape[1], frame.shape[0])  # type: ignore[arg-type]
    whole, in_tray = _teaching(frame, labels, PARAMS), _teaching(frame, labels, tapped)
    assert np.sum(in_tray == NOT_A_DIE) < np.sum(whole == NOT_A_DIE)
    assert np.sum(in_tray > 0) >= np.sum(whole > 0) - 1


def test_a_kept_roll_whose_tray_corners_are_not_four_points_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "table-rolls-any"
    write_table(folder, TABLE_SEED, 8, list(CONDITIONS["webcam"]), beside=True)
    label = sorted((folder / "labels").iterdir())[0]
    record = json.loads(label.read_text(encoding="utf-8"))
    record["scene"]["tray_corners_px"] = [[0, 0], [10, 0]]
    label.write_text(json.dumps(record), encoding="utf-8")
    chosen = learned_models(LEARNED)
    assert not isinstance(chosen, str)
    with pytest.raises(AdaptError, match=label.name):
        adapt(folder, PARAMS, chosen[0], chosen[1], None, 0.003, 10, "any")
