"""The reader on a few labelled development images (skipped when shared/datasets is absent).

These check real files through OpenCV: no die is stated wrongly with confidence,
and most dice of these clear scenes are read (counts as measured when written).
"""

from __future__ import annotations

import pytest

from tests.vision.dataset_images import labelled_image
from vision.candidates import typical_side
from vision.evaluate import match
from vision.learned_models import DiceDetector, DieCandidate, model_path
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.reader import read_dice

PARAMS = load_vision_params()

CASES = [
    # (dataset, image, mode, dice that must be read right)
    ("dice-rendered-dev", "dev_0034.jpg", "macao", 6),
    ("dice-rendered-dev", "dev_0005.jpg", "macao", 5),
    ("dice-rendered-dev", "dev_0013.jpg", "macao", 5),
    # A glossy black die whose face reads pale, beside a gray die with dark pips.
    ("dice-rendered-dev", "dev_0018.jpg", "macao", 6),
    # A gray die in its long shadow on a busy board, its candidate the 16th likeliest of 27: the
    # classifier shipped 2026-12-03 takes it for the board (P(die) 0.03, around it too), so it is
    # missed and five are read.
    ("dice-rendered-dev", "dev_0008.jpg", "macao", 5),
    ("dice-real-dev", "IMG_20191208_112522.jpg", "any", 4),
]


@pytest.mark.parametrize(("dataset", "image", "mode", "at_least"), CASES)
def test_labelled_image(dataset: str, image: str, mode: str, at_least: int) -> None:
    frame, dice = labelled_image(dataset, image)
    reading = read_dice(frame, PARAMS, expect=mode)  # type: ignore[arg-type]
    matches = match(dice, reading.dice)
    right = 0
    for i, die in enumerate(dice):
        if i not in matches or reading.dice[matches[i]].unsure:
            continue
        got = reading.dice[matches[i]]
        assert got.value == die.value, f"{image}: a {die.value} read as {got.value}"
        if mode == "macao":
            assert got.colour == die.colour, f"{image}: the {die.colour} die named {got.colour}"
        else:
            assert got.colour is None
        right += 1
    assert right >= at_least



@pytest.mark.parametrize("image", ["IMG_20191208_111446.jpg", "IMG_20191208_111628.jpg"])
def test_a_die_found_twice_is_reported_once(image: str) -> None:
    """Photos where the detector finds a die again a fifth to a third of a side off its centre:
    both candidates were read as sure dice, one die too many in the photo (three such in the two).
    A candidate that near a likelier one is that die again."""
    frame, dice = labelled_image("dice-real-dev", image)
    reading = read_dice(frame, PARAMS, expect="any")
    assert len(match(dice, reading.dice)) == len(reading.dice) == len(dice)


# A dark speck on the photos' grey card, at the same spot in many of them (about 14 px across
# where the dice are 36-43 px): the detector takes it for a small die, and a classifier trained
# without crumbs read it as a confident one.
SPECK = (186.0, 437.0)


@pytest.mark.parametrize("image", ["IMG_20191208_112905.jpg", "IMG_20191208_112826.jpg", "IMG_20191208_112920.jpg"])
def test_a_speck_on_the_card_is_not_read_as_a_die(image: str) -> None:
    """The detector takes the speck for a small die; the classifier, shown drawn crumbs as "not a
    die", turns it down. (A size check dropped it before the classifier until 2026-12-03,
    `die_min_side_ratio`, now 0: the retrained detector guesses the speck and some true dice at
    much the same fraction of the typical side.)"""
    frame, dice = labelled_image("dice-real-dev", image)
    learned = load_learned_params()
    found = DiceDetector.load(model_path(learned.detector_path)).detect(frame, learned)

    def on_the_speck(candidates: list[DieCandidate]) -> list[DieCandidate]:
        return [c for c in candidates if abs(c.cx - SPECK[0]) < 20 and abs(c.cy - SPECK[1]) < 20]

    def on_a_die(candidates: list[DieCandidate]) -> set[int]:
        return {i for i, d in enumerate(dice) for c in candidates
                if d.box[0] <= c.cx <= d.box[2] and d.box[1] <= c.cy <= d.box[3]}

    assert on_the_speck(found), "the detector no longer finds the speck: this photo shows nothing"
    reading = read_dice(frame, PARAMS, expect="any")
    assert len(match(dice, reading.dice)) == len(reading.dice) == len(dice)  # nothing read at the speck
    assert len(on_a_die(found)) == len(dice)


# A 1 squeezed between two touching dice (or half hidden by one): the detector shipped until
# 2026-12-05 guessed its side at about 0.4 of the other dice's, and the size check above dropped
# it as a speck would be.
SQUEEZED = [("IMG_20191208_111650.jpg", (282.0, 351.0)), ("IMG_20191208_112332.jpg", (280.0, 258.0)),
            ("IMG_20191208_112404.jpg", (295.0, 243.0))]


@pytest.mark.parametrize(("image", "centre"), SQUEEZED)
def test_a_die_squeezed_between_others_is_read(image: str, centre: tuple[float, float]) -> None:
    frame, dice = labelled_image("dice-real-dev", image)
    squeezed = next(i for i, d in enumerate(dice)
                    if d.box[0] <= centre[0] <= d.box[2] and d.box[1] <= centre[1] <= d.box[3])
    reading = read_dice(frame, PARAMS, expect="any")
    matches = match(dice, reading.dice)
    assert len(matches) == len(reading.dice) == len(dice)
    got = reading.dice[matches[squeezed]]
    assert (got.value, got.unsure) == (dice[squeezed].value, False) == (1, False)


def test_a_die_whose_side_is_guessed_too_large_keeps_its_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """dev_0001's red die on a blue-gray mat, found as the held-out detector found it: a fifth
    too large and 10 px off its face's centre. Its crop showed the mat near the centre, where
    the hue is named, and the red and gray dice swapped names. Colours are measured in crops no
    wider than the typical die's."""
    frame, dice = labelled_image("dice-rendered-dev", "dev_0001.jpg")
    red = next(d for d in dice if d.colour == "red")
    red_x, red_y = (red.box[0] + red.box[2]) / 2, (red.box[1] + red.box[3]) / 2
    peaks = DiceDetector.peaks

    def red_too_large(self: DiceDetector, *args: object, **kwargs: object) -> list[DieCandidate]:
        found = peaks(self, *args, **kwargs)  # type: ignore[arg-type]
        typical = typical_side(found)
        return [DieCandidate(red_x + 4.5, red_y - 9.5, 1.2 * typical, c.score)
                if abs(c.cx - red_x) + abs(c.cy - red_y) < typical else c for c in found]

    monkeypatch.setattr(DiceDetector, "peaks", red_too_large)
    reading = read_dice(frame, PARAMS, expect="macao")
    named = {d.colour: d for d in reading.dice}
    assert abs(named["red"].x + named["red"].w / 2 - red_x) < 20 and abs(named["red"].y + named["red"].h / 2 - red_y) < 20
    assert not any(d.colour in ("red", "gray") and d.unsure for d in reading.dice)
