"""An ensemble of face classifiers (LearnedModels.extra_classifiers, measured with
tools.training.evaluate_learned): the first classifier picks the dice, every classifier's
probabilities for them are averaged."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from vision.learned import find_faces
from vision.learned_models import DiceNet, LearnedModels
from vision.learned_params import load_learned_params
from vision.params import REPO_ROOT, load_vision_params
from tools.synth import SceneOptions, render_scene

PARAMS = load_vision_params()
LEARNED = load_learned_params()
SCENE_SEED = 12


@pytest.fixture(scope="module")
def models() -> LearnedModels:
    """The first classifier alone (without the configured second one)."""
    return dataclasses.replace(LearnedModels.load(LEARNED), extra_classifiers=())


def _twin_at(tmp_path: Path, window_sides: float) -> Path:
    """A copy of the shipped classifier whose metadata asks for crops of a wider window."""
    source = REPO_ROOT / LEARNED.classifier_path
    twin = tmp_path / "twin.onnx"
    shutil.copyfile(source, twin)
    meta = json.loads(source.with_suffix(".json").read_text(encoding="utf-8")) | {"window_sides": window_sides}
    twin.with_suffix(".json").write_text(json.dumps(meta), encoding="utf-8")
    return twin


def test_a_classifier_averaged_with_itself_reads_as_it_alone(models: LearnedModels) -> None:
    frame, _ = render_scene(SCENE_SEED, SceneOptions(cocked=False))
    alone = find_faces(frame, PARAMS, "any", models, LEARNED)
    doubled = find_faces(frame, PARAMS, "any", dataclasses.replace(models, extra_classifiers=(models.classifier,)),
                         LEARNED)
    assert len(alone) == len(doubled) > 0
    for one, two in zip(alone, doubled):
        assert (one.box, one.value) == (two.box, two.value)
        assert one.confidence == pytest.approx(two.confidence, abs=1e-5)


def test_a_second_geometry_changes_the_confidences_not_the_dice(models: LearnedModels, tmp_path: Path) -> None:
    """The extra classifier cuts its own crops (here a wider window): the first classifier
    still picks the dice, the extra one's reading moves their probabilities. (Dice not read
    plainly sure are read again on their bodies, and which those are hangs on the averaged
    reading: not here.)"""
    frame, _ = render_scene(SCENE_SEED, SceneOptions(cocked=False))
    twin = DiceNet.load(_twin_at(tmp_path, 2.0))
    assert twin.window_sides == 2.0
    in_place = dataclasses.replace(LEARNED, doubted_on_body=False, second_classifier_below=1.01)
    alone = find_faces(frame, PARAMS, "any", models, in_place)
    both = find_faces(frame, PARAMS, "any", dataclasses.replace(models, extra_classifiers=(twin,)), in_place)
    assert [f.box for f in alone] == [f.box for f in both]
    assert any(abs(a.confidence - b.confidence) > 1e-4 for a, b in zip(alone, both))


def test_only_dice_the_first_classifier_doubts_are_read_again(models: LearnedModels, tmp_path: Path) -> None:
    """With second_classifier_below between the dice's first readings, those read at least that
    sure keep the first classifier's confidence exactly; the others take the averaged one."""
    frame, _ = render_scene(SCENE_SEED, SceneOptions(cocked=False))
    twin = DiceNet.load(_twin_at(tmp_path, 2.0))
    in_place = dataclasses.replace(LEARNED, doubted_on_body=False)
    alone = find_faces(frame, PARAMS, "any", models, in_place)
    confidences = sorted(f.confidence for f in alone)
    assert confidences[0] < confidences[-1]
    below = (confidences[0] + confidences[-1]) / 2
    gated = dataclasses.replace(in_place, second_classifier_below=below)
    both = find_faces(frame, PARAMS, "any", dataclasses.replace(models, extra_classifiers=(twin,)), gated)
    assert [f.box for f in alone] == [f.box for f in both]
    sure = [(a, b) for a, b in zip(alone, both) if a.confidence >= below]
    doubted = [(a, b) for a, b in zip(alone, both) if a.confidence < below]
    assert sure and doubted
    assert all(a.confidence == b.confidence for a, b in sure)
    assert any(abs(a.confidence - b.confidence) > 1e-4 for a, b in doubted)


def test_load_reads_each_extra_classifier_with_its_own_geometry(tmp_path: Path) -> None:
    loaded = LearnedModels.load(LEARNED, (str(_twin_at(tmp_path, 2.0)),))
    configured = 1 if LEARNED.second_classifier_path else 0
    assert len(loaded.extra_classifiers) == configured + 1 and loaded.extra_classifiers[-1].window_sides == 2.0
    assert loaded.classifier.window_sides != 2.0
