"""In `any` mode no count of dice says one is missing, so every candidate left out that may yet be
a die is read again, as macao mode reads its others (issue 39): under a steep camera the detector
often finds a die off its face, and its first crop reads as no die."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from vision.learned import read_with_model
from vision.learned_models import LearnedModels
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import load_vision_params
from tests.vision.test_camera_foot import TILTED
from tools.synth import render_scene

PARAMS = load_vision_params()
LEARNED = load_learned_params()
NOT_AGAIN = dataclasses.replace(LEARNED, any_reread_min_probability=0.0)
# Six flat dice on light wood, the camera tilted 32 degrees towards the tray.
STEEP = dataclasses.replace(TILTED, table="light_wood", tilt_deg=32.0)


@pytest.fixture(scope="module")
def models() -> LearnedModels:
    return LearnedModels.load(LEARNED)


def _read(frame: object, models: LearnedModels, learned: LearnedParams) -> tuple[int, Counter[int]]:
    """How many dice are reported, and the values stated surely."""
    reading = read_with_model(frame, PARAMS, "any", None, models, learned)  # type: ignore[arg-type]
    return len(reading.dice), Counter(d.value for d in reading.dice if not d.unsure and d.value is not None)


@pytest.mark.parametrize("seed", [1, 6, 10])
def test_a_die_whose_first_crop_reads_as_no_die_is_found_when_read_again(models: LearnedModels, seed: int) -> None:
    """(Seed 11 showed it until the leaning check trained on every factor, 2026-12-06: its die
    found again is still taken for leaning, and the 4 that the check before took for leaning
    until the re-read moved its search for the point below the camera is now read surely
    either way, so the sure count no longer rises there.)"""
    frame, labels = render_scene(seed, STEEP)
    truth = Counter(d.value for d in labels.dice)
    found_once, sure_once = _read(frame, models, NOT_AGAIN)
    found, sure = _read(frame, models, LEARNED)
    assert found_once == len(labels.dice) - 1 and found == len(labels.dice)
    assert not sure - truth  # nothing stated wrongly, before or after
    assert not sure_once - truth
    assert sum(sure.values()) > sum(sure_once.values())


def test_the_reread_floor_is_a_probability() -> None:
    table = dataclasses.asdict(LEARNED)
    with pytest.raises(ValueError, match="'any_reread_min_probability' is a probability"):
        LearnedParams.from_table(table | {"any_reread_min_probability": 1.5})
