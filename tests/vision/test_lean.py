"""The leaning-die check: outward crops, the shipped model on drawn and rendered dice, its keys."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.dataset_images import labelled_image
from tests.vision.test_reader_synthetic import CALM
from vision.debug import DebugSink, draw_leaning
from vision.evaluate import match
from vision.lean import outward_crops
from vision.learned import LEANING, MAYBE_NOT_A_DIE, find_faces
from vision.learned_models import LearnedModels, ModelError, load_lean
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import load_vision_params
from vision.reader import CLASSICAL_PATH, LEARNED_PATH, learned_models, read_dice
from tools.synth import SceneOptions, render_scene
from vision.types import UnsureReason

PARAMS = load_vision_params()
LEARNED = load_learned_params()
# Drawn scenes each with one die leaning against the tray wall; calm otherwise.
COCKED = SceneOptions(cocked=True, cubes=0, touching=False, glare=False, cards=0)
# The same with the leaning die resting on another die: anywhere in the tray, facing any way.
COCKED_ON_A_DIE = dataclasses.replace(COCKED, cocked_on_a_die=True)
# Or on an action cube lying in the tray: a lower support, so the die tips less (20-32 degrees).
COCKED_ON_A_CUBE = dataclasses.replace(COCKED, cocked_on_a_cube=True)


@pytest.fixture(scope="module")
def shipped() -> LearnedModels:
    """The shipped models; the test fails here, saying why, if they do not load."""
    chosen = learned_models(LEARNED)
    assert not isinstance(chosen, str), chosen
    return chosen[0]


@pytest.mark.parametrize("angle_deg", [0, 50, 90, 135, 180, 230, 270, 315])
def test_an_outward_crop_puts_what_lies_beyond_the_die_on_its_right(angle_deg: float) -> None:
    frame = np.full((400, 600, 3), 128, np.uint8)
    direction = np.array([np.cos(np.radians(angle_deg)), np.sin(np.radians(angle_deg))])
    die = np.array([300.0, 200.0]) + 120 * direction
    mark = die + 25 * direction  # beyond the die, seen from the frame's centre
    cv2.circle(frame, (round(mark[0]), round(mark[1])), 6, (255, 255, 255), -1)
    crop = outward_crops(frame, die[None], np.array([40.0]), 32, 2.0)[0].astype(float).mean(axis=2)
    row, col = np.unravel_index(np.argmax(crop), crop.shape)
    assert col > 24 and abs(row - 15.5) <= 2, f"the mark is at row {row}, column {col}"


def test_the_view_centre_sets_which_way_is_outward() -> None:
    frame = np.full((400, 600, 3), 128, np.uint8)
    cv2.circle(frame, (345, 200), 6, (255, 255, 255), -1)  # right of a die at (320, 200)
    as_seen_from_the_left = outward_crops(frame, np.array([[320.0, 200.0]]), np.array([40.0]), 32, 2.0,
                                          view_centre=(0.0, 200.0))[0].mean(axis=2)
    as_seen_from_the_right = outward_crops(frame, np.array([[320.0, 200.0]]), np.array([40.0]), 32, 2.0,
                                           view_centre=(600.0, 200.0))[0].mean(axis=2)
    assert np.unravel_index(np.argmax(as_seen_from_the_left), (32, 32))[1] > 24
    assert np.unravel_index(np.argmax(as_seen_from_the_right), (32, 32))[1] < 8


def _leaning_marks(models: LearnedModels, seeds: range, options: SceneOptions = COCKED,
                   learned: LearnedParams = LEARNED,
                   cocked_reasons: frozenset[str] = frozenset({LEANING})) -> tuple[list[bool], list[bool]]:
    """Whether the reader marks each drawn cocked die as leaning (or for another of
    `cocked_reasons`), and each flat die as leaning."""
    cocked, flat = [], []
    for seed in seeds:
        frame, labels = render_scene(seed, options)
        faces = find_faces(frame, PARAMS, "macao", models, learned)
        centres = np.array([(f.box[0] + f.box[2] / 2, f.box[1] + f.box[3] / 2) for f in faces])
        for die in labels.dice:
            nearest = faces[int(np.argmin(np.hypot(*(centres - np.array(die.center)).T)))]
            if die.cocked:
                cocked.append(nearest.reason in cocked_reasons)
            else:
                flat.append(nearest.reason == LEANING)
    return cocked, flat


def test_the_reader_marks_drawn_leaning_dice_and_no_flat_one(shipped: LearnedModels) -> None:
    cocked, flat = _leaning_marks(shipped, range(1, 13))
    assert sum(cocked) >= 11, f"{sum(cocked)} of {len(cocked)} leaning dice marked"
    assert sum(flat) == 0, f"{sum(flat)} of {len(flat)} flat dice marked leaning"


def test_the_reader_marks_dice_leaning_on_other_dice(shipped: LearnedModels) -> None:
    """Before the check learnt these (2026-12-01), 3 of the 12 were marked. A die tipped onto
    another can look so little like a flat one that the classifier doubts it is a die at all:
    it is then reported unsure as "maybe not a die", the reason that comes first, and counts
    here too (3 of the 12 with the classifier shipped 2026-12-03; the leaning check marks two
    of those three as well)."""
    cocked, flat = _leaning_marks(shipped, range(1, 13), COCKED_ON_A_DIE,
                                  cocked_reasons=frozenset({LEANING, MAYBE_NOT_A_DIE}))
    assert sum(cocked) >= 10, f"{sum(cocked)} of {len(cocked)} dice leaning on a die marked"
    assert sum(flat) <= 1, f"{sum(flat)} of {len(flat)} flat dice marked leaning"


def test_the_reader_marks_dice_leaning_on_cubes(shipped: LearnedModels) -> None:
    """Before the check learnt these (2026-12-02), 10 of the 12 were marked."""
    cocked, flat = _leaning_marks(shipped, range(1, 13), COCKED_ON_A_CUBE)
    assert sum(cocked) >= 11, f"{sum(cocked)} of {len(cocked)} dice leaning on a cube marked"
    assert sum(flat) <= 1, f"{sum(flat)} of {len(flat)} flat dice marked leaning"


def test_a_leaning_die_is_reported_unsure_and_the_others_read() -> None:
    frame, labels = render_scene(5, COCKED)
    reading = read_dice(frame, PARAMS, expect="macao")
    by_colour = {d.colour: d for d in reading.dice}
    cocked = next(d for d in labels.dice if d.cocked)
    assert by_colour[cocked.colour].unsure and by_colour[cocked.colour].value is None
    assert by_colour[cocked.colour].reason is UnsureReason.LEANING
    assert {d.colour: d.value for d in labels.dice if not d.cocked} == {
        c: d.value for c, d in by_colour.items() if c != cocked.colour}


def test_a_tray_region_keeps_outward_pointing_away_from_the_camera() -> None:
    """Read in a region whose own centre lies beyond the leaning die (it leans on the tray's left
    wall; the region is the frame's left strip), the die still reads unsure: outward is taken
    from the whole frame's centre, not the region's."""
    frame, labels = render_scene(5, COCKED)
    cocked = next(d for d in labels.dice if d.cocked)
    height, width = frame.shape[:2]
    side = cocked.box[2] - cocked.box[0]
    assert cocked.center[0] < width / 3, "this scene's cocked die should lean on the left wall"
    region = (0, 0, round(2 * (cocked.center[0] - 1.4 * side)), height)
    reading = read_dice(frame, PARAMS, expect="any", region=region)
    found = [d for d in reading.dice if abs(d.x + d.w / 2 - cocked.center[0]) < side / 2
             and abs(d.y + d.h / 2 - cocked.center[1]) < side / 2]
    assert len(found) == 1 and found[0].unsure


@pytest.mark.parametrize("image", ["dev_0044.jpg", "dev_0063.jpg"])
def test_the_rendered_leaning_dice_are_unsure(image: str) -> None:
    """The two cocked dice of rendered-dev: green, leaning at 39-41 degrees against the right wall.
    Before the check both were read as a confident 1."""
    frame, dice = labelled_image("dice-rendered-dev", image)
    reading = read_dice(frame, PARAMS, expect="macao")
    matches = match(dice, reading.dice)
    for i, die in enumerate(dice):
        got = reading.dice[matches[i]]
        assert got.colour == die.colour
        assert got.value == die.value, f"{image}: the {die.colour} die ({die.value}) read {got.value}"


def test_without_the_check_no_lean_model_is_loaded() -> None:
    assert LearnedModels.load(dataclasses.replace(LEARNED, lean_check=False)).lean is None
    assert LearnedModels.load(LEARNED).lean is not None


def test_a_missing_lean_model_turns_only_the_check_off_and_says_which_file(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no such model file"):
        load_lean(tmp_path / "absent.onnx")
    without = dataclasses.replace(LEARNED, lean_path=str(tmp_path / "absent.onnx"))
    chosen = learned_models(without)
    assert not isinstance(chosen, str) and chosen[0].lean is None
    frame, _ = render_scene(5, COCKED)
    reading = read_dice(frame, PARAMS, expect="macao", learned=without)
    assert reading.message.startswith(f"{LEARNED_PATH} (no leaning check: ")
    assert "absent.onnx" in reading.message and "no such model file" in reading.message
    assert len(reading.dice) == 6


def test_the_lean_threshold_is_a_probability() -> None:
    table = {f.name: getattr(LEARNED, f.name) for f in dataclasses.fields(LEARNED)}
    with pytest.raises(ValueError, match="lean_min_probability"):
        LearnedParams.from_table(table | {"lean_min_probability": 1.5})
    with pytest.raises(ValueError, match="lean_check"):
        LearnedParams.from_table(table | {"lean_check": "yes"})



def test_the_debug_pictures_show_the_leaning_check() -> None:
    frame, _ = render_scene(5, COCKED)
    sink = DebugSink()
    read_dice(frame, PARAMS, expect="macao", debug=sink)
    pictures = [image for name, image in sink.stages.items() if name.startswith("leaning check")]
    assert len(pictures) == 1 and pictures[0].shape == frame.shape and not np.array_equal(pictures[0], frame)


@pytest.mark.parametrize("tilt_deg", [6.0, 10.0])
def test_flat_dice_seen_by_a_tilted_camera_are_not_taken_for_leaning(shipped: LearnedModels, tilt_deg: float) -> None:
    """Drawn scenes with the camera tilted by 6 degrees: a flat die's side face shows, even beside
    the frame's centre, where outward is a guess (the model shipped before 2026-12-01 21:00 took
    seed 12's flat red 2 there for leaning, so dice within 3 die sides of the centre went
    unchecked; the one trained on dice leaning on cubes too does, read one way only, so such dice
    are read both ways: lean_both_ways_within). Tilted by 10 degrees (rendered-dev's camera tilts up
    to that), read one way, both models took 2 of these 72 flat dice for leaning (seeds 8 and 12).
    The check trained on tilted views as well (2026-12-05), read both ways near the centre, takes
    none at 6 degrees and 3 of the 72 at 10 (seeds 4, 6 and 9; the one before it none): the price
    of a check that takes far fewer flat dice for leaning under steeper cameras. With the point
    below the camera that the tray's corners give, it takes none (`bench_tilt_lean`). The check
    trained on every factor (2026-12-06, reporting from 0.9) takes 4 of these 72 (seeds 4, 6, 8
    and 9), 9 of 240 over seeds 1-40 (the one before: 3), and the same 1 of 240 at 6 degrees; on
    the nine drawn Macao sets of cameras 0-10 degrees off straight down it reads about as many
    dice right, 97.62 -> 97.57 % (tools/training/README.md, "The leaning check trained on every
    factor, straight-down views weighted twice")."""
    marked = []
    for seed in range(1, 13):
        frame, _ = render_scene(seed, SceneOptions(**(CALM | {"tilt_deg": tilt_deg})))
        marked += [seed for face in find_faces(frame, PARAMS, "macao", shipped, LEARNED) if face.reason == LEANING]
    assert len(marked) <= (0 if tilt_deg < 8.0 else 4), marked


def test_a_die_read_both_ways_keeps_the_lower_probability(shipped: LearnedModels) -> None:
    """Read both ways, a die's P(cocked) is the lower of its reading with outward as it is and
    turned round (the view centre mirrored through the die)."""
    frame, labels = render_scene(5, COCKED)
    centres = np.array([die.center for die in labels.dice])
    sides = np.full(len(centres), 46.0)
    height, width = frame.shape[:2]
    view_centre = np.array([width / 2.0, height / 2.0])
    assert shipped.lean is not None
    once = shipped.lean.cocked_probabilities(frame, centres, sides)
    turned = np.array([shipped.lean.cocked_probabilities(frame, centre[None], side[None], tuple(2 * centre - view_centre))[0]
                       for centre, side in zip(centres, sides)])
    both_ways = np.arange(len(centres)) % 2 == 0
    mixed = shipped.lean.cocked_probabilities(frame, centres, sides, both_ways=both_ways)
    assert np.allclose(mixed[both_ways], np.minimum(once, turned)[both_ways], atol=1e-5)
    assert np.allclose(mixed[~both_ways], once[~both_ways], atol=1e-5)
    assert not np.allclose(once, turned, atol=0.05), "the turned reading should differ for some die"


def test_the_debug_picture_rings_the_dice_read_both_ways() -> None:
    frame = np.zeros((300, 400, 3), np.uint8)
    ringed = draw_leaning(frame, [], 0.7, (200.0, 150.0), both_ways_radius=100.0)
    plain = draw_leaning(frame, [], 0.7, (200.0, 150.0))
    assert ringed[150, 300].any() and ringed[50, 200].any() and not ringed[150, 250].any()
    assert not plain[150, 300].any()


def test_dice_within_lean_min_offset_of_the_centre_are_not_checked(shipped: LearnedModels) -> None:
    cocked, _flat = _leaning_marks(shipped, range(5, 6))
    unchecked, _flat = _leaning_marks(shipped, range(5, 6), learned=dataclasses.replace(LEARNED, lean_min_offset=50.0))
    assert cocked == [True] and unchecked == [False]


def _classical_unsure_at_cocked(learned: LearnedParams, seeds: range) -> tuple[list[bool], int, str]:
    """Whether the classical reader reports each drawn leaning die unsure, how many flat dice it
    reports unsure, and its last message."""
    cocked_unsure, flat_unsure, message = [], 0, ""
    for seed in seeds:
        frame, labels = render_scene(seed, COCKED)
        reading = read_dice(frame, PARAMS, expect="any", learned=learned)
        message = reading.message
        for die in labels.dice:
            side = die.box[2] - die.box[0]
            near = [d for d in reading.dice if abs(d.x + d.w / 2 - die.center[0]) < side / 2
                    and abs(d.y + d.h / 2 - die.center[1]) < side / 2]
            if die.cocked:
                cocked_unsure.append(not near or near[0].unsure)
            elif near and near[0].unsure:
                flat_unsure += 1
    return cocked_unsure, flat_unsure, message


def test_the_classical_reader_borrows_the_leaning_check() -> None:
    """With the learned models switched off the classical reader reads, and the leaning check
    (its own key) still marks the leaning dice; switched off too, some leaning die reads as flat."""
    classical = dataclasses.replace(LEARNED, enabled=False)
    checked, flat_unsure, message = _classical_unsure_at_cocked(classical, range(1, 7))
    assert message.startswith(CLASSICAL_PATH) and "leaning" not in message
    assert all(checked), f"{checked.count(False)} of {len(checked)} leaning dice read as flat"
    unchecked, flat_unsure_unchecked, _ = _classical_unsure_at_cocked(
        dataclasses.replace(classical, lean_check=False), range(1, 7))
    assert not all(unchecked), "this test's scenes should hold a leaning die the classical reader reads as flat"
    assert flat_unsure == flat_unsure_unchecked, "no flat die is taken for leaning"


def test_the_classical_reader_says_when_its_leaning_check_is_missing(tmp_path: Path) -> None:
    gone = dataclasses.replace(LEARNED, enabled=False, lean_path=str(tmp_path / "absent.onnx"))
    frame, _ = render_scene(5, COCKED)
    reading = read_dice(frame, PARAMS, expect="macao", learned=gone)
    assert reading.message.startswith(CLASSICAL_PATH) and reading.dice
    assert "no leaning check" in reading.message and "absent.onnx" in reading.message
