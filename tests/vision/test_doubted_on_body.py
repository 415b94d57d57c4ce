"""A die whose value the classifier doubts, read again centred on its body (issue 3).

The detector can put a die's centre a fifth of a side off; the crop there cuts a pip at its edge
and the classifier names the right value without being sure of it. `read_doubted_on_body` reads
such a die again on its body and keeps that reading only when it names the same value, surer.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tests.vision.scene_checks import as_stored, at_label, mistakes_in
from vision.candidates import body_centre, crop_candidates, typical_side
from vision.learned import read_with_model
from vision.learned_models import DieCandidate, LearnedModels
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import load_vision_params
from vision.rereads import read_doubted_on_body
from tools.synth import SceneLabels, render_scene

PARAMS = load_vision_params()
LEARNED = load_learned_params()
NOT_ON_BODY = dataclasses.replace(LEARNED, doubted_on_body=False)

# Fresh random drawn scenes (`vision synth --seed S`, scene N) where one die, found off its centre,
# was read right but doubted (P 0.49-0.70), and so asked for, by one of the classifiers shipped or
# tried since 2026-12-02 (each chosen with `tools.training.ablate --set doubted_on_body=false`;
# the second row for the ensemble shipped 2026-12-05, in macao mode).
# Which of them show the fault depends on the classifier, and a die read on its body can stay
# doubted: the test needs at least two mended, and no die of these scenes read wrongly.
OFF_CENTRE = ((9904, 17, "green"), (9909, 49, "red"), (9909, 52, "blue"), (9902, 56, "green"), (9904, 87, "black"),
              (9909, 119, "blue"), (9904, 50, "red"), (9904, 43, "gray"), (9903, 10, "gray"), (9908, 83, "black"),
              (9902, 15, "gray"), (9902, 32, "black"), (9902, 72, "red"), (9903, 61, "violet"), (9903, 66, "gray"),
              (9903, 118, "violet"), (9908, 4, "black"), (9908, 62, "black"), (9908, 111, "black"))
FEWEST_MENDED = 2


@pytest.fixture(scope="module")
def models() -> LearnedModels:
    return LearnedModels.load(LEARNED)


def scene(seed: int, number: int) -> tuple[np.ndarray, SceneLabels]:
    frame, labels = render_scene(seed * 100_003 + number)
    return as_stored(frame), labels


@pytest.mark.parametrize("expect", ["macao", "any"])
def test_doubted_dice_found_off_their_centres_are_read_on_their_bodies(models: LearnedModels, expect: str) -> None:
    mended = []
    for seed, number, colour in OFF_CENTRE:
        frame, labels = scene(seed, number)
        label = next(d for d in labels.dice if d.colour == colour)
        before = next((d for d in read_with_model(frame, PARAMS, expect, None, models, NOT_ON_BODY).dice
                       if at_label(d, label)), None)
        if before is None or not before.unsure:
            continue  # this classifier finds the die on its body, or reads it surely off it
        reading = read_with_model(frame, PARAMS, expect, None, models, LEARNED)
        after = next(d for d in reading.dice if at_label(d, label))
        assert after.unsure or (after.value, after.colour) == (label.value, colour if expect == "macao" else None), (
            seed, number, colour)
        if expect == "macao":
            assert mistakes_in(reading, labels) == [], (seed, number, colour)
        if not after.unsure:
            mended.append(f"{seed}/{number}")
    assert len(mended) >= FEWEST_MENDED, f"only {mended} mended: choose more scenes with ablate"


@dataclasses.dataclass
class Doubted:
    """One die as `read_doubted_on_body` is given it: a candidate a fifth of a side off the die's
    body, and what the reader knows of it (crop, probabilities), the frame's typical die side,
    the die's value and its body's centre."""

    models: LearnedModels
    frame: np.ndarray
    found: list[DieCandidate]
    sides: np.ndarray
    crops: np.ndarray
    probabilities: np.ndarray
    typical: float
    value: int
    body: tuple[float, float]

    def read_again(self, probability: float, value: int) -> None:
        """The die read (`probability`) as `value`, then every die given read again on its body."""
        self.probabilities[0] = 0.0
        self.probabilities[0][value] = probability
        read_doubted_on_body(self.frame, self.models.classifier, self.found, self.sides, self.crops, self.probabilities,
                             list(range(len(self.found))), [], self.typical, LEARNED.value_min_probability, LEARNED)


def _doubted_die(models: LearnedModels) -> Doubted:
    seed, number, colour = OFF_CENTRE[0]
    frame, labels = scene(seed, number)
    label = next(d for d in labels.dice if d.colour == colour)
    found = models.detector.detect(frame, LEARNED)
    typical = typical_side(found)
    die = min(found, key=lambda c: np.hypot(c.cx - label.center[0], c.cy - label.center[1]))
    moved = body_centre(frame, die.cx, die.cy, typical, LEARNED)
    # Put the candidate where the body move has something to do: a fifth of a side off the body's centre.
    off = DieCandidate(moved[0] + 0.2 * typical, moved[1], typical, die.score)
    _, sides, crops = crop_candidates(frame, [off], typical, models.classifier, LEARNED)
    probabilities = models.classifier.classify(crops, LEARNED.classifier_turns)
    return Doubted(models, frame, [off], sides, crops, probabilities, typical, label.value, moved)


def test_a_reading_on_the_body_that_names_another_value_is_not_taken(models: LearnedModels) -> None:
    die = _doubted_die(models)
    unmoved = die.found[0]
    die.read_again(0.5, die.value % 6 + 1)  # doubted, and not the value the die shows
    assert die.found[0] == unmoved
    assert int(np.argmax(die.probabilities[0][1:])) + 1 == die.value % 6 + 1 and die.probabilities[0].max() == 0.5


def test_a_doubted_die_read_on_its_body_takes_that_reading(models: LearnedModels) -> None:
    die = _doubted_die(models)
    die.read_again(0.5, die.value)  # the right value, doubted
    assert int(np.argmax(die.probabilities[0][1:])) + 1 == die.value
    assert die.probabilities[0][die.value] >= LEARNED.value_min_probability
    assert np.hypot(die.found[0].cx - die.body[0], die.found[0].cy - die.body[1]) < 0.05 * die.typical
    assert die.sides[0] == die.typical


def test_a_plainly_sure_die_is_not_read_again(models: LearnedModels) -> None:
    die = _doubted_die(models)
    unmoved = die.found[0]
    die.read_again(LEARNED.body_check_below, die.value)
    assert die.found[0] == unmoved and die.probabilities[0].max() == pytest.approx(LEARNED.body_check_below)


def test_a_die_read_short_of_plainly_sure_takes_a_surer_reading_of_its_value_on_its_body(
        models: LearnedModels) -> None:
    die = _doubted_die(models)
    die.read_again(0.8, die.value)
    assert np.hypot(die.found[0].cx - die.body[0], die.found[0].cy - die.body[1]) < 0.05 * die.typical
    assert int(np.argmax(die.probabilities[0][1:])) + 1 == die.value and die.probabilities[0][die.value] > 0.8


def test_a_sure_die_whose_body_shows_another_value_is_left_in_doubt(models: LearnedModels) -> None:
    """Read surely but short of plainly sure as a value its body does not show (a crop a third
    of a side off, showing part of the face): the two readings are averaged, and neither value
    is sure any more. The die stays where it was found."""
    die = _doubted_die(models)
    unmoved = die.found[0]
    wrong = die.value % 6 + 1
    die.read_again(0.8, wrong)
    assert die.found[0] == unmoved
    assert die.probabilities[0][wrong] == pytest.approx(0.4, abs=0.01)
    assert die.probabilities[0][1:].max() < LEARNED.value_min_probability


def test_a_die_whose_body_lies_on_another_die_is_not_read_again(models: LearnedModels) -> None:
    """A die taken beside the body's centre: moved there, the crop would be that die's."""
    die = _doubted_die(models)
    unmoved = die.found[0]
    die.found.append(dataclasses.replace(unmoved, cx=die.body[0] - 0.3 * die.typical, cy=die.body[1]))
    die.sides = np.append(die.sides, die.typical)
    die.crops = np.concatenate([die.crops, die.crops])
    die.probabilities = np.concatenate([die.probabilities, die.probabilities])
    die.probabilities[1] = 0.0
    die.probabilities[1][1] = 0.99  # a sure die
    die.read_again(0.5, die.value)
    assert die.found[0] == unmoved and die.probabilities[0].max() == 0.5


def test_a_body_check_threshold_above_one_is_refused_by_name() -> None:
    table = {f.name: getattr(LEARNED, f.name) for f in dataclasses.fields(LearnedParams)} | {"body_check_below": 1.5}
    with pytest.raises(ValueError, match="'body_check_below' is a probability"):
        LearnedParams.from_table(table)
