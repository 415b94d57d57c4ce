"""The classical reader's second opinion on dice the classifier doubts (vision.second_opinion).

Drawn scenes (tools.synth, seeds the models were not trained on) give dice with known
values; the classifier's doubt is made by hand (a sure face marked "low confidence"), so
each test knows what the second opinion must do with it.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.debug import DebugSink
from vision.die import DieFace
from vision.learned import MAYBE_NOT_A_DIE, find_faces, read_with_model
from vision.learned_models import LearnedModels
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import load_vision_params
from vision.reader import read_dice
from vision.second_opinion import DOUBTFUL_VALUE, classical_reading_at, review_doubtful, side_scales
from tools.synth import SceneOptions, render_scene

PARAMS = load_vision_params()
LEARNED = load_learned_params()
# Scene seeds far from those of the training scenes (7001 * 100003 + index).
SEEDS = (21, 22, 24, 25)
DOUBTFUL_PROBABILITY = 0.6  # above second_opinion_min_probability, below value_min_probability


@pytest.fixture(scope="module")
def models() -> LearnedModels:
    return LearnedModels.load(LEARNED)


@pytest.fixture(scope="module")
def scenes(models: LearnedModels) -> dict[int, tuple[np.ndarray, list[DieFace], list[int]]]:
    """Per seed: the frame, the dice the learned reader finds, and each one's true value."""
    found = {}
    for seed in SEEDS:
        frame, labels = render_scene(seed, SceneOptions(cocked=False))
        faces = find_faces(frame, PARAMS, "any", models, LEARNED)
        truth = []
        for face in faces:
            x, y, w, h = face.box
            label = min(labels.dice, key=lambda d: np.hypot(d.center[0] - x - w / 2, d.center[1] - y - h / 2))
            truth.append(label.value)
        found[seed] = (frame, faces, truth)
    return found


def _doubted(faces: list[DieFace]) -> list[DieFace]:
    return [dataclasses.replace(f, reason=DOUBTFUL_VALUE, confidence=DOUBTFUL_PROBABILITY) for f in faces]


@pytest.mark.parametrize("seed", SEEDS)
def test_doubted_dice_with_clear_pips_are_read(scenes: dict, seed: int) -> None:
    frame, faces, truth = scenes[seed]
    assert len(faces) == 6 and truth == [f.value for f in faces]  # the scene's dice, read right
    reviewed, opinions = review_doubtful(frame, _doubted(faces), PARAMS, LEARNED)
    assert len(opinions) == len(faces)  # every doubted die was asked about
    read = [f for f in reviewed if not f.reason]
    # Read 4-6 of the six at the boxes of the detector shipped until 2026-12-05; 3-6 at today's,
    # whose sides are further off the faces (the classical reader crops around the box).
    assert len(read) >= 3
    for face, value in zip(reviewed, truth):
        assert face.value == value  # never another value
        if not face.reason:
            assert DOUBTFUL_PROBABILITY < face.confidence <= 1.0 and len(face.pips) == value


# A known fault since 2026-12-05: seed 24's 1, its box from the retrained detector a fifth too small
# and off its centre, shows a side face's pip in the widest classical reading, which counts 2 and
# agrees with the 2 it is misread as here; the other readings name 1 without confidence. Taking
# them as dissent stopped no wrong die and lost 7 of 30 right dice on six sets.
SIDE_PIP_ADMITTED = pytest.mark.xfail(strict=True, reason="a side face's pip agrees with the misread value")


@pytest.mark.parametrize("seed", [pytest.param(24, marks=SIDE_PIP_ADMITTED) if seed == 24 else seed
                                  for seed in SEEDS])
def test_a_classifier_value_the_pips_contradict_stays_unsure(scenes: dict, seed: int) -> None:
    frame, faces, _ = scenes[seed]
    misread = [dataclasses.replace(f, value=f.value % 6 + 1) for f in _doubted(faces)]
    reviewed, opinions = review_doubtful(frame, misread, PARAMS, LEARNED)
    assert not any(o.accepted for o in opinions)
    assert reviewed == misread


def test_sure_dice_and_doubtful_non_dice_are_not_asked(scenes: dict) -> None:
    frame, faces, _ = scenes[SEEDS[0]]
    sure = [dataclasses.replace(f, reason="") for f in faces]
    not_dice = [dataclasses.replace(f, reason=MAYBE_NOT_A_DIE) for f in faces]
    weak = [dataclasses.replace(f, confidence=LEARNED.second_opinion_min_probability / 2) for f in _doubted(faces)]
    for given in (sure, not_dice, weak):
        assert review_doubtful(frame, given, PARAMS, LEARNED) == (given, [])
    switched_off = dataclasses.replace(LEARNED, second_opinion=False)
    assert review_doubtful(frame, _doubted(faces), PARAMS, switched_off) == (_doubted(faces), [])


def test_side_scales_span_the_configured_range() -> None:
    scales = side_scales(dataclasses.replace(LEARNED, second_opinion_side_scale_min=0.5,
                                             second_opinion_side_scale_max=0.9, second_opinion_side_tries=3))
    assert np.allclose(scales, [0.5, 0.7, 0.9])
    one = side_scales(dataclasses.replace(LEARNED, second_opinion_side_tries=1))
    assert np.allclose(one, [(LEARNED.second_opinion_side_scale_min + LEARNED.second_opinion_side_scale_max) / 2])


def test_classical_reading_at_a_box_off_the_frame_edge_does_not_fail(scenes: dict) -> None:
    frame, _, _ = scenes[SEEDS[0]]
    height, width = frame.shape[:2]
    for box in ((-30, -30, 60, 60), (width - 20, height - 20, 60, 60), (0, 0, 1, 1)):
        face = classical_reading_at(frame, box, PARAMS, 0.8)
        assert face.value is None or face.reason or 1 <= face.value <= 6


def test_reader_with_every_die_doubted_reads_by_the_second_opinion(scenes: dict, models: LearnedModels) -> None:
    frame, _, _ = scenes[SEEDS[0]]
    labels = render_scene(SEEDS[0], SceneOptions(cocked=False))[1]
    all_doubted = dataclasses.replace(LEARNED, value_min_probability=1.0, macao_value_min_probability=1.0)
    without = read_with_model(frame, PARAMS, "macao", None, models, dataclasses.replace(all_doubted, second_opinion=False))
    sink = DebugSink()
    helped = read_with_model(frame, PARAMS, "macao", None, models, all_doubted, sink)
    assert all(d.unsure for d in without.dice)
    truth = {d.colour: d.value for d in labels.dice}
    read = [d for d in helped.dice if not d.unsure]
    assert len(read) >= 4 and all(d.value == truth[d.colour] for d in read)
    picture = sink.stages["second opinion (classical pips on doubtful dice)"]
    assert picture.shape == frame.shape and not np.array_equal(picture, frame)


def test_read_dice_debug_shows_no_second_opinion_stage_when_none_was_asked(scenes: dict) -> None:
    frame, _, _ = scenes[SEEDS[0]]
    sink = DebugSink()
    read_dice(frame, PARAMS, "any", learned=dataclasses.replace(LEARNED, second_opinion=False), debug=sink)
    assert not any(name.startswith("second opinion") for name in sink.stages)
    assert "read (learned)" in sink.stages


def _table(**changes: object) -> dict[str, object]:
    return {**{f.name: getattr(LEARNED, f.name) for f in dataclasses.fields(LearnedParams)}, **changes}


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"second_opinion": "yes"}, "second_opinion' must be bool"),
        ({"second_opinion_min_probability": 1.5}, "is a probability"),
        ({"second_opinion_side_scale_min": 1.2, "second_opinion_side_scale_max": 0.8}, "min <= max"),
        ({"second_opinion_side_scale_min": 0.0}, "0 < min"),
        ({"second_opinion_side_scale_max": 3.0}, "max <= 2"),
        ({"second_opinion_side_tries": 0}, "at least 1"),
    ],
)
def test_bad_second_opinion_settings_are_named(changes: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        LearnedParams.from_table(_table(**changes))
