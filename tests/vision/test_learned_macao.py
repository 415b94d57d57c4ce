"""Macao mode of the learned reader: the six dice found and named when some touch, sit beside
cubes of their colour, or show as only a weak shoulder of the detector's heat (issue 3)."""

from __future__ import annotations

import dataclasses
import tomllib

import cv2
import numpy as np
import pytest

from tests.vision.scene_checks import as_stored, at_label, colours_right, mistakes_in
from vision.candidates import apart, body_centre, crop_candidates, typical_side
from vision.debug import DebugSink
from vision.die import BodyColour, DieFace
from vision.learned import MAYBE_NOT_A_DIE, maps_at_dice_scale, read_with_model, swayed_by_doubtful
from vision.learned_colour import body_colours
from vision.learned_models import DieCandidate, LearnedModels, crop_dice
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import DEFAULT_CONFIG_PATH, load_vision_params
from vision.rereads import reread_candidates, split_seams
from vision.types import UnsureReason
from tools.synth import SceneOptions, render_scene

PARAMS = load_vision_params()
LEARNED = load_learned_params()
# The detector at its usual scale only (small dice are not looked for again at a larger one,
# and the classifier judges no other look): the scenes of the tests of the second look, chosen
# before those, show their faults there.
ONE_SCALE = dataclasses.replace(LEARNED, detector_small_die=0.0, look_other_long_sides="", macao_look_other_long_sides="")
# The look the detector's own sizes pick, without the classifier judging others
# (vision.looks): where a test's scenes show their faults only there.
FIRST_LOOK = dataclasses.replace(LEARNED, look_other_long_sides="", macao_look_other_long_sides="")
NO_SECOND_LOOK = dataclasses.replace(ONE_SCALE, macao_look_beside_min_score=1.0)
# Candidates read again only on their die body and at the typical side (not at points around them).
BODY_ONLY = dataclasses.replace(LEARNED, macao_shift_most=0)
# Drawn scenes with a touching pair where the first look misses a die (found by reading seeds
# 100-199 with touching dice both ways: 8 changed, none for the worse). With the classifier of
# 2026-11-29 22:50 the first look of seed 164 fills the six with a wrong candidate instead.
TOUCHING_SEEDS = (164, 171)


@pytest.fixture(scope="module")
def models() -> LearnedModels:
    return LearnedModels.load(LEARNED)


def gaussian(shape: tuple[int, int], row: float, col: float, height: float, sigma: float) -> np.ndarray:
    rows, cols = np.mgrid[: shape[0], : shape[1]]
    return height * np.exp(-((rows - row) ** 2 + (cols - col) ** 2) / (2.0 * sigma**2))


def test_a_die_that_is_only_a_shoulder_of_its_neighbours_heat_is_found_on_the_second_look(
        models: LearnedModels) -> None:
    """Two touching dice (one side apart) as one ridge of heat: its top is a peak, the other
    die is not; once the found die's own heat is taken away, it is (and nothing else is,
    beyond the found die's own centre, which the reader drops as a duplicate)."""
    shape, die_cells = (40, 60), 4
    heat = (gaussian(shape, 20, 20, 0.8, 1.6) + gaussian(shape, 20, 20 + die_cells, 0.3, 1.6)).astype(np.float32)
    detector = models.detector
    cell = detector.stride
    sides = np.full_like(heat, die_cells * cell)
    first = detector.peaks(heat, sides, 1.0, LEARNED.detector_min_score, LEARNED.detector_peak_window)
    assert len(first) == 1
    second = [c for c in detector.look_beside(heat, sides, 1.0, first, LEARNED)
              if np.hypot(c.cx - first[0].cx, c.cy - first[0].cy) >= LEARNED.duplicate_distance * c.side]
    assert len(second) == 1
    assert abs(second[0].cx - (20.5 + die_cells) * cell) <= cell and abs(second[0].cy - 20.5 * cell) <= cell
    assert detector.look_beside(heat, sides, 1.0, first, NO_SECOND_LOOK) == []


@pytest.mark.parametrize("seed", TOUCHING_SEEDS)
def test_a_touching_die_missed_at_first_is_found_and_named(models: LearnedModels, seed: int) -> None:
    frame, labels = render_scene(seed, SceneOptions(touching=True, cocked=False))
    before = read_with_model(frame, PARAMS, "macao", None, models, NO_SECOND_LOOK)
    # One die missed, or stood in for by another candidate (seed 164: and, with five dice for six
    # colours, one more named wrongly since the band is measured to 0.5 sides, 2026-12-06).
    assert colours_right(before, labels) < 6
    for learned in (ONE_SCALE, LEARNED):
        after = read_with_model(frame, PARAMS, "macao", None, models, learned)
        assert len(after.dice) == 6 and colours_right(after, labels) == 6


def test_a_glossy_black_die_washed_out_by_the_lamp_is_not_taken_for_the_gray_one(models: LearnedModels) -> None:
    """A fresh random drawn scene (`vision synth --seed 9901`, scene 147): the lamp mirrored in
    the black die's face leaves its white pips faint against it and its thin rim dark. Judged by
    the face's lighter and darker share, the pips looked dark, which priced black higher for it
    than for the gray die, and the two swapped colours; counted, its pips look light."""
    frame, labels = render_scene(9901 * 100_003 + 147)
    assert colours_right(read_with_model(frame, PARAMS, "macao", None, models, LEARNED), labels) == 6


def test_a_washed_out_black_die_whose_side_is_guessed_small_keeps_its_dark_rim(models: LearnedModels) -> None:
    """A fresh random drawn scene (`vision synth --seed 9902`, scene 70): the lamp washes the black
    die's face out to its dark rim, and the detector guesses its side small, so a crop of its own
    side measured its shade on the washed face alone and it swapped colours with the gray die.
    Its shade is measured in a crop of the typical side."""
    frame, labels = render_scene(9902 * 100_003 + 70)
    assert colours_right(read_with_model(frame, PARAMS, "macao", None, models, LEARNED), labels) == 6


# Fresh random drawn scenes (`vision synth --seed S`, scene N) where the lamp washes the black
# die's face out to its very edge, lighter than the gray die's, whose pips are dark. Which of
# them show the swap depends on the models: all three with those shipped until 2026-12-05, only
# 9907/63 with today's (at every price up to 0.5; `ablate --set colour_polarity_cost=0.5` on
# five fresh drawn sets, 600 scenes, changes no die).
WASHED_BLACK_BESIDE_DARK_PIPPED_GRAY = ((9902, 136), (9905, 18), (9907, 63))


def test_a_die_with_dark_pips_is_not_named_black(models: LearnedModels) -> None:
    """By shade alone the two dice swap names. Black paint leaves no room for dark pips, so a die
    whose pips read dark pays colour_polarity_cost to be named black: at 0.5 the shade still
    outweighed it and both dice were named wrong and sure; at the configured price neither is.
    (Read as when the scenes were chosen: at the first look, every die read by both classifiers.
    With the reader as configured since the evening of 2026-12-05, none of the three scenes shows
    the swap even at 0.5, and none has a mistake; at the first look with only doubted dice read
    by the second classifier, 9907/63 swaps at either price.)"""
    as_chosen = dataclasses.replace(FIRST_LOOK, second_classifier_below=1.01)
    swapped = []
    for seed, scene in WASHED_BLACK_BESIDE_DARK_PIPPED_GRAY:
        frame, labels = render_scene(seed * 100_003 + scene)
        stored = as_stored(frame)
        cheap = dataclasses.replace(PARAMS, colour_polarity_cost=0.5)
        if sorted(m.split()[0] for m in mistakes_in(read_with_model(stored, cheap, "macao", None, models, as_chosen),
                                                     labels)) == ["black", "gray"]:
            swapped.append(f"{seed}/{scene}")
        assert mistakes_in(read_with_model(stored, PARAMS, "macao", None, models, as_chosen), labels) == [], \
            (seed, scene)
        assert mistakes_in(read_with_model(stored, PARAMS, "macao", None, models, LEARNED), labels) == [], (seed, scene)
    assert swapped, "no scene shows the swap: choose more scenes with ablate"


def test_small_dice_keep_their_hues_when_the_typical_side_is_guessed_large(models: LearnedModels) -> None:
    """A fresh random drawn scene (`vision synth --seed 9907`, scene 141): small dice on a dark table,
    the typical side guessed larger than they are. Crops of that side put the table where the hue
    is named (the violet die went gray); only the shade is measured in them. (A known fault from
    the morning of 2026-12-05, when the retrained detector's sizes kept these dice at a scale too
    small for them and the green die was named gray; the look the classifier judges mends it.)"""
    frame, labels = render_scene(9907 * 100_003 + 141)
    assert colours_right(read_with_model(frame, PARAMS, "macao", None, models, LEARNED), labels) == 6


def test_a_die_left_without_a_colour_leaves_the_die_that_took_it_in_doubt(models: LearnedModels) -> None:
    """The same scene as stored by the camera check (JPEG), read at the first look with the shade
    band measured out to 0.55 sides (as until 2026-12-06; the reader as configured reads all six
    right here, above, and at the first look as well): the green and violet dice measure as the
    table does, the violet one takes gray, and the gray die, left without a colour, is dropped.
    The violet die could as well have been left out in its place, so it is not named with
    confidence."""
    frame, labels = render_scene(9907 * 100_003 + 141)
    assert colours_right(read_with_model(as_stored(frame), PARAMS, "macao", None, models, LEARNED), labels) == 6
    assert colours_right(read_with_model(as_stored(frame), PARAMS, "macao", None, models, FIRST_LOOK), labels) == 6
    wide_band = dataclasses.replace(FIRST_LOOK, colour_band_outer=0.55)
    reading = read_with_model(as_stored(frame), PARAMS, "macao", None, models, wide_band)
    assert len(reading.dice) == 5 and mistakes_in(reading, labels) == []
    violet = next(d for d in labels.dice if d.colour == "violet")
    (named,) = [d for d in reading.dice if at_label(d, violet)]
    assert named.unsure and named.reason == UnsureReason.COLOUR_DOUBTFUL


def test_a_touching_die_inside_the_core_of_a_pair_taken_for_one_big_die_is_found(models: LearnedModels) -> None:
    """A fresh random drawn scene (`vision synth --seed 9903`, scene 56): the gray 4 and violet 5
    touch and the detector sees them as one die a quarter too large, its peak between them. Its
    core, where the second look takes all heat as its own, was measured by that side and held the
    violet die's centre: the violet die was missed and the gray one, its crop half violet, was
    named violet. Measured by the frame's typical side, the second look finds the violet die."""
    frame, labels = render_scene(9903 * 100_003 + 56)
    stored = as_stored(frame)
    reading = read_with_model(stored, PARAMS, "macao", None, models, LEARNED)
    assert len(reading.dice) == 6 and colours_right(reading, labels) == 6
    pair = {d.colour: d for d in labels.dice if d.colour in ("gray", "violet")}
    for colour, label in pair.items():
        read = next(d for d in reading.dice if d.colour == colour)
        assert (read.value, read.unsure) == (label.value, False)


def test_a_green_die_on_green_felt_found_off_its_centre_is_read(models: LearnedModels) -> None:
    """A fresh random drawn scene (`vision synth --seed 9903`, scene 57): the green 2 on green
    felt, its candidate a third of a side off its centre towards a corner, where the crop shows
    a pip at its edge: P(value) 0.43, unsure (0.95 at the centre; the body move finds no body of
    a colour apart from the felt's). Read again at the eight points around it, it is a sure 2.
    (The models shipped since 2026-12-05 read it surely where they find it; the points around a
    candidate are tested on a candidate put off its die, below.)"""
    frame, labels = render_scene(9903 * 100_003 + 57)
    reading = read_with_model(as_stored(frame), PARAMS, "macao", None, models, LEARNED)
    green = next(d for d in labels.dice if d.colour == "green")
    die = next(d for d in reading.dice if d.colour == "green")
    assert at_label(die, green) and (die.value, die.unsure) == (2, False)
    assert colours_right(reading, labels) == 6


# Fresh random drawn scenes (`vision synth --seed S`, scene N): a die touching another, and the
# detector's one peak for the pair on the seam between them. Chosen for the classifiers shipped
# or tried since 2026-12-03 with `tools.training.ablate --set macao_split_step=0 --set
# detector_small_die=0` (the second row for the ensemble shipped 2026-12-05); which of them show
# the fault depends on the models.
SEAM_SCENES = ((9901, 109, "red"), (9902, 55, "gray"), (9906, 87, "red"), (9902, 5, "violet"), (9907, 73, "green"),
               (9901, 13, "red"), (9902, 144, "blue"), (9905, 44, "violet"),
               (9902, 112, "violet"), (9903, 81, "violet"), (9908, 64, "green"), (9909, 71, "black"),
               (9909, 73, "blue"), (9909, 115, "blue"))
FEWEST_SPLIT = 2


def test_two_touching_dice_found_as_one_at_their_seam_are_split(models: LearnedModels) -> None:
    """The seam's crop, half of each die, can read as a die named after the other one, and the
    first die is missed. Read half a side either way along the pair, both can be sure dice, each
    with its own colour and value. (The dice are small: the fault is looked for at the detector's
    usual scale; looked for at the scale the dice need, fewer scenes show it.) In every scene that
    shows it no die is read wrongly, and the reader as configured reads the pair right; at least
    two are split into all six right at the usual scale."""
    split = []
    for seed, scene, colour in SEAM_SCENES:
        frame, labels = render_scene(seed * 100_003 + scene)
        stored = as_stored(frame)
        die = next(d for d in labels.dice if d.colour == colour)
        partner = next(d for d in labels.dice if d.colour in die.touching)
        before = read_with_model(stored, PARAMS, "macao", None, models,
                                 dataclasses.replace(ONE_SCALE, macao_split_step=0.0))
        if any(d.colour == colour and at_label(d, die) for d in before.dice):
            continue  # this classifier finds both dice without the split
        at_one_scale = read_with_model(stored, PARAMS, "macao", None, models, ONE_SCALE)
        assert mistakes_in(at_one_scale, labels) == [], (seed, scene, colour)
        if colours_right(at_one_scale, labels) == 6:
            split.append(f"{seed}/{scene}")
        configured = read_with_model(stored, PARAMS, "macao", None, models, LEARNED)
        for label in (die, partner):
            read = next(d for d in configured.dice if d.colour == label.colour)
            assert at_label(read, label) and (read.value, read.unsure) == (label.value, False), (seed, scene, colour)
    assert len(split) >= FEWEST_SPLIT, f"only {split} split: choose more scenes with ablate"


@pytest.mark.parametrize("seed", range(300, 306))
def test_a_die_lying_alone_is_not_split(models: LearnedModels, seed: int) -> None:
    """Half a side off a lone die's centre, either way, a crop shows half a die and the table,
    and looks less like a die than the centre: no axis of any of the six reads as two dice.
    (Seed 300's black 6 on a dark table halves into two sure 3s; without that comparison it
    was split.)"""
    frame, labels = render_scene(seed, SceneOptions(touching=False, cocked=False))
    typical = typical_side(models.detector.detect(frame, LEARNED))
    dice = [DieCandidate(label.center[0], label.center[1], typical, 1.0) for label in labels.dice]
    assert split_seams(frame, models.classifier, dice, list(range(6)), list(range(6)), typical, LEARNED) == []


@pytest.mark.parametrize(("die_px", "looked_again"), [(20.0, True), (50.0, False)])
def test_small_dice_are_looked_for_at_a_larger_scale(models: LearnedModels, die_px: float,
                                                     looked_again: bool) -> None:
    """Dice 20 px wide in a 1600x900 frame come out about 6 px at the detector's usual scale,
    below the sizes it learned, and it guesses their sides some 40 % too large; looked at
    again at a larger scale, it measures them right. Dice 50 px wide need no second look.
    (The detector shipped until 2026-12-05 guessed 26 px dice 40 % too large and was looked
    at again for them; today's guesses those at 39 px, 12.6 px at its usual scale, and is not:
    tools/training/README.md, "Shipped: the ensemble".)"""
    frame, _ = render_scene(6, SceneOptions(width=1600, height=900, die_px=die_px))
    usual = LEARNED.detector_long_side / 1600
    heat, sides, scale = maps_at_dice_scale(models.detector, frame, LEARNED)
    assert heat.shape == sides.shape
    if not looked_again:
        assert scale == pytest.approx(usual)
        return
    assert scale > 1.25 * usual
    once = models.detector.detect(frame, LEARNED)
    assert typical_side(once) > 1.3 * die_px
    found = models.detector.peaks(heat, sides, scale, LEARNED.detector_min_score, LEARNED.detector_peak_window)
    assert typical_side(found) == pytest.approx(die_px, rel=0.15)
    assert maps_at_dice_scale(models.detector, frame, ONE_SCALE)[2] == pytest.approx(usual)


def test_small_dice_under_cool_light_keep_their_colours(models: LearnedModels) -> None:
    """A fresh random drawn scene (`vision synth --seed 9904`, scene 72): dice 30 px wide under
    cool light. At the detector's usual scale their sides are guessed a fifth too large, the
    band where a die's shade is measured falls on the wooden table, and the violet die was
    named blue with confidence. Found at the scale they need, all six are named right. (The
    detector shipped since 2026-12-05 guesses these dice too large to be looked for again, and
    its classifiers name all six right at its usual scale.)"""
    frame, labels = render_scene(9904 * 100_003 + 72)
    after = read_with_model(as_stored(frame), PARAMS, "macao", None, models, LEARNED)
    assert colours_right(after, labels) == 6
    assert all(d.unsure or (d.colour, d.value) == (label.colour, label.value)
               for label in labels.dice for d in after.dice if at_label(d, label))


def face(reason: str = "") -> DieFace:
    return DieFace((0, 0, 10, 10), 3, 0.9, reason, "", np.zeros((0, 2)), BodyColour(30.0, 0.0, 0.0), True)


def test_a_sure_dies_colour_that_hangs_on_a_doubted_candidate_is_marked() -> None:
    """Two sure dice and a candidate that may be no die, over colours A, B, C. The doubted one
    is cheapest as A, which pushes the first die from A to B; left out, the first die is A."""
    costs = np.array([[0.2, 0.5, 2.0],
                      [2.0, 2.0, 0.1],
                      [0.0, 2.0, 2.0]])
    faces = [face(), face(), face(MAYBE_NOT_A_DIE)]
    assignment = [1, 2, 0]
    assert swayed_by_doubtful(faces, costs, assignment, 3.0) == [True, False, False]
    # The same candidate taken for a die has nothing to sway, and one that takes a free colour sways nothing.
    assert swayed_by_doubtful([face(), face(), face()], costs, assignment, 3.0) == [False, False, False]
    free = np.array([[0.2, 0.5, 2.0], [2.0, 2.0, 0.1], [2.0, 0.0, 2.0]])
    assert swayed_by_doubtful(faces, free, [0, 2, 1], 3.0) == [False, False, False]


def test_a_candidate_taken_in_to_make_six_does_not_give_a_sure_die_a_wrong_colour_confidently(
        models: LearnedModels) -> None:
    """A fresh random drawn scene (`vision synth --seed 9903`, scene 9): dim cool light on a dark
    table; the red 2 beside the black 6 is missed, and a doubted candidate on the black die's
    edge fills the six. It looks black, so the joint assignment gave it black and the black die
    red, stated as sure. The black die's colour hangs on that candidate, so it is now unsure,
    and no die is named wrongly with confidence. (Since candidates read again keep clear of the
    sure dice, that candidate no longer moves onto the black die's edge: it is put back there
    by letting them come as near as before, and near the dice taken, to test the check behind
    those guards. The models shipped since 2026-12-05 find the red 2, so no candidate fills the
    six here; the check itself is `swayed_by_doubtful`, tested above.)"""
    frame, labels = render_scene(9903 * 100_003 + 9)
    stored = as_stored(frame)
    unguarded = dataclasses.replace(ONE_SCALE, macao_shift_most=0, macao_clearance=0.0, one_die_within=0.0)
    reading = read_with_model(stored, PARAMS, "macao", None, models, unguarded)
    for label in labels.dice:
        at = [d for d in reading.dice if at_label(d, label)]
        assert all(d.unsure or (d.colour, d.value) == (label.colour, label.value) for d in at), (label, at)
    assert len(reading.dice) == 6


def test_the_debug_picture_shows_the_second_look_only_when_it_was_taken(models: LearnedModels) -> None:
    pictures = []
    for seed, options in ((TOUCHING_SEEDS[0], SceneOptions(touching=True, cocked=False)),
                          (12, SceneOptions(cubes=0, touching=False, cocked=False))):
        frame, _ = render_scene(seed, options)
        sink = DebugSink()
        read_with_model(frame, PARAMS, "macao", None, models, LEARNED, sink)
        pictures.append([name for name in sink.stages if name.startswith("second look")])
    assert len(pictures[0]) == 1 and pictures[1] == []


@pytest.mark.parametrize("seed", range(14, 24))
def test_cubes_beside_the_dice_are_not_taken(models: LearnedModels, seed: int) -> None:
    """Action cubes of the dice's own colours lie right beside them: six dice, each named
    right, and nothing read where only a cube lies (seeds 11-40 measured: no reading on a
    cube in any; all six colours right in 28 of 30, not in 11 and 37 with the models shipped
    until 2026-12-05, not in 11 and 13 with today's, where dice are left unsure, none wrong)."""
    frame, labels = render_scene(seed, SceneOptions(cubes=12, cubes_near_dice=True, cocked=False, touching=False))
    reading = read_with_model(frame, PARAMS, "macao", None, models, LEARNED)
    on_a_die = [any(at_label(d, label) for label in labels.dice) for d in reading.dice]
    assert len(reading.dice) == 6 and all(on_a_die)
    assert colours_right(reading, labels) == 6


def drawn_two(centre: tuple[int, int], side: int) -> np.ndarray:
    """A blue die showing 2 (white pips on one diagonal) on a gray table."""
    frame = np.full((240, 320, 3), 150, np.uint8)
    cx, cy = centre
    half = side // 2
    frame[cy - half : cy + half, cx - half : cx + half] = (160, 60, 30)
    for sign in (-1, 1):
        cv2.circle(frame, (cx + sign * side // 4, cy + sign * side // 4), side // 10, (245, 245, 245), -1)
    return frame


def test_of_two_candidates_nearer_than_a_die_side_only_the_likelier_is_taken() -> None:
    """Two flat dice cannot lie half a side apart: the second candidate is the first die seen
    off its centre (it would take a sixth place and a colour from a die that was missed)."""
    found = [DieCandidate(100.0, 100.0, 40.0, 0.9), DieCandidate(118.0, 112.0, 40.0, 0.8),
             DieCandidate(140.0, 100.0, 40.0, 0.7), DieCandidate(300.0, 300.0, 40.0, 0.6)]
    assert apart([1, 0, 2, 3], found, 0.8 * 40.0) == [1, 3]
    assert apart([0, 1, 2, 3], found, 0.8 * 40.0) == [0, 2, 3]


def test_a_die_seen_twice_among_the_six_is_taken_once(models: LearnedModels) -> None:
    """A fresh random drawn scene (`vision synth --seed 9904`, scene 143): glare on the blue 6, and
    the detector finds it at its centre and again a third of a side off it. Both were taken among
    the six; the one off the centre, read as a 3, kept the name blue. Taken once, it is read at its
    centre: a sure 6 with the models shipped until 2026-12-05, a doubted one (P 0.67) with today's."""
    frame, labels = render_scene(9904 * 100_003 + 143)
    reading = read_with_model(frame, PARAMS, "macao", None, models, LEARNED)
    blue = next(label for label in labels.dice if label.colour == "blue")
    (at_blue,) = [d for d in reading.dice if at_label(d, blue)]
    assert at_blue.colour == "blue" and (at_blue.value == 6 or at_blue.unsure)
    assert sum(d.colour == "blue" for d in reading.dice) == 1


def test_a_point_on_one_pip_moves_to_the_die_body_centre() -> None:
    frame = drawn_two((160, 120), 40)
    on_pip = (150.0, 110.0)  # the upper-left pip of the 2
    cx, cy = body_centre(frame, *on_pip, 40.0, LEARNED)
    assert abs(cx - 160) <= 2 and abs(cy - 120) <= 2


def test_a_point_on_the_plain_table_stays_where_it_is() -> None:
    """The table around the point is far larger than a die: no body to move to."""
    frame = drawn_two((160, 120), 40)
    assert body_centre(frame, 40.0, 40.0, 40.0, LEARNED) == (40.0, 40.0)


def _off_centre_candidate(models: LearnedModels, shift: float) -> tuple[np.ndarray, list[DieCandidate], float,
                                                                         tuple[float, float]]:
    """A calm drawn scene and a candidate `shift` of the die's face sides right of one die's face
    centre (the detector's typical side, 42 px, is a fifth larger than the face)."""
    frame, labels = render_scene(12, SceneOptions(cubes=0, touching=False, cocked=False))
    typical = typical_side(models.detector.detect(frame, LEARNED))
    die = labels.dice[0]
    assert die.face_side > 0.0
    centre = die.center
    return frame, [DieCandidate(centre[0] + shift * die.face_side, centre[1], typical, 0.3)], typical, centre


def _read(models: LearnedModels, frame: np.ndarray, found: list[DieCandidate],
          typical: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    net = models.classifier
    _, sides, crops = crop_candidates(frame, found, typical, net, LEARNED)
    return sides, crops, net.refine(crops, net.classify(crops, 1, LEARNED.classifier_batch), LEARNED.classifier_turns,
                                    LEARNED.classifier_batch)


def test_a_doubtful_candidate_off_its_face_is_read_again_on_the_die_body(models: LearnedModels) -> None:
    """Nearly half a side off (on a pip's edge) the crop shows half a die and P(die) was low with
    the classifier shipped until 2026-12-05 (today's reads it at 0.89, so that doubt is given
    here); moved onto the die's body, it is a sure die again."""
    frame, found, typical, centre = _off_centre_candidate(models, 0.45)
    sides, crops, probabilities = _read(models, frame, found, typical)
    probabilities[0] = 0.0
    probabilities[0][0], probabilities[0][5] = 0.62, 0.38
    sure = reread_candidates(frame, models.classifier, found, sides, crops, probabilities, [0], typical, BODY_ONLY)
    assert np.hypot(found[0].cx - centre[0], found[0].cy - centre[1]) <= 0.15 * typical
    assert sure == [0] and 1.0 - float(probabilities[0][0]) >= LEARNED.die_min_probability


def test_a_doubtful_candidate_cut_too_large_is_read_again_at_the_typical_side(models: LearnedModels) -> None:
    """On its face's centre but with a side guessed a quarter too large, this scene's gray 2
    shows small in its crop. The classifier shipped until 2026-12-03 doubted it there (P(die)
    0.28; today's reads it at 0.70, just sure), so that doubt is given here: cut at the frame's
    typical side it is a sure 2."""
    frame, labels = render_scene(75, SceneOptions(cubes=0, touching=False, cocked=False))
    typical = typical_side(models.detector.detect(frame, LEARNED))
    die = labels.by_colour()["gray"]
    found = [DieCandidate(die.center[0], die.center[1], 1.25 * typical, 0.3)]
    sides, crops, probabilities = _read(models, frame, found, typical)
    assert sides[0] == pytest.approx(1.25 * typical)
    probabilities[0] = 0.0
    probabilities[0][0], probabilities[0][die.value] = 0.72, 0.28
    sure = reread_candidates(frame, models.classifier, found, sides, crops, probabilities, [0], typical, BODY_ONLY)
    assert sure == [0] and sides[0] == pytest.approx(typical)
    assert int(np.argmax(probabilities[0][1:])) + 1 == die.value == 2


def test_a_doubtful_candidate_off_its_face_is_found_at_a_point_around_it(models: LearnedModels) -> None:
    """The same candidate with the body move left out (a body of the table's own colour is not
    found): one of the eight points three tenths of a side around it lies near the face's
    centre, and reads as a sure die."""
    frame, found, typical, centre = _off_centre_candidate(models, 0.45)
    sides, crops, probabilities = _read(models, frame, found, typical)
    no_body = dataclasses.replace(LEARNED, body_min_area=LEARNED.body_max_area + 1.0)
    sure = reread_candidates(frame, models.classifier, found, sides, crops, probabilities, [0], typical, no_body)
    assert sure == [0] and np.hypot(found[0].cx - centre[0], found[0].cy - centre[1]) <= 0.25 * typical


def test_no_candidate_is_read_again_where_it_would_be_a_sure_die_again(models: LearnedModels) -> None:
    """Two flat dice lie at least a side apart: a point within `macao_clearance` die sides of a
    sure die is that die, and would take the crop (and the colour) it shares with it."""
    frame, found, typical, centre = _off_centre_candidate(models, 0.45)
    sides, crops, probabilities = _read(models, frame, found, typical)
    first = (found[0], probabilities.copy())
    sure_die = DieCandidate(centre[0], centre[1], typical, 0.9)
    assert reread_candidates(frame, models.classifier, found, sides, crops, probabilities, [0], typical, LEARNED,
                             [sure_die]) == []
    assert found[0] == first[0] and np.array_equal(probabilities, first[1])


def test_a_doubtful_candidate_already_on_its_die_is_not_read_again(models: LearnedModels) -> None:
    """Centred, and cut at the typical side: there is nothing to read again."""
    frame, found, typical, _ = _off_centre_candidate(models, 0.0)
    sides, crops, probabilities = _read(models, frame, found, typical)
    first = (found[0], probabilities.copy())
    assert reread_candidates(frame, models.classifier, found, sides, crops, probabilities, [0], typical, BODY_ONLY) == []
    assert found[0] == first[0] and np.array_equal(probabilities, first[1])


def test_a_pale_die_on_a_dark_green_table_is_named_by_its_own_hue() -> None:
    """A glossy red die turned 45 degrees on green felt, washed out to pale pink where it
    mirrors the lamp and redder towards its rim: the table shows between the face's corners,
    and in a box 1.2 times the face (the detector's side runs large) it is darker than the
    die. The hue comes from near the centre, where only the die is."""
    side, centre = 40, (160, 120)
    frame = np.full((240, 320, 3), (40, 90, 35), np.uint8)
    face = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(face, cv2.boxPoints((centre, (side, side), 45.0)).astype(np.int32), 255)
    rows, cols = np.mgrid[: frame.shape[0], : frame.shape[1]]
    rim = np.clip(np.hypot(cols - centre[0], rows - centre[1]) / (0.7 * side), 0.0, 1.0)[..., None]
    shaded = np.array([240.0, 238.0, 250.0]) * (1.0 - rim) + np.array([120.0, 110.0, 190.0]) * rim
    frame[face > 0] = shaded.astype(np.uint8)[face > 0]
    for dy in (-10, 10):
        cv2.circle(frame, (centre[0], centre[1] + dy), 4, (250, 250, 250), -1)
    crops = crop_dice(frame, np.array([centre], float), np.array([1.2 * side]), 48, 1.6)
    colour = body_colours(crops, 1.6, PARAMS, LEARNED)[0]
    assert colour.a > 0 and (colour.hue_deg < 60 or colour.hue_deg > 330), colour
    wide = dataclasses.replace(LEARNED, colour_hue_radius=0.55, colour_band_outer=0.55)
    wide_colour = body_colours(crops, 1.6, PARAMS, wide)[0]
    assert wide_colour.a < 0, "the whole disc took the table's green: this scene no longer shows the fault"


@pytest.mark.parametrize(("key", "value", "words"), [
    ("macao_look_beside_min_score", 1.5, "heatmap score: 0 to 1"),
    ("macao_look_beside_own_radius", -0.1, "must not be negative"),
    ("body_min_area", 3.0, "must not exceed 'body_max_area'"),
    ("macao_look_beside_core_radius", 2.0, "must not exceed 'macao_look_beside_own_radius'"),
    ("macao_look_beside_min_score", "low", "must be float"),
    ("die_min_side_ratio", 1.0, "fraction under 1"),
    ("colour_pip_search_radius", 0.5, "must not shrink"),
])
def test_bad_settings_are_named(key: str, value: object, words: str) -> None:
    with DEFAULT_CONFIG_PATH.open("rb") as handle:
        table = tomllib.load(handle)["vision"]["learned"]
    with pytest.raises(ValueError, match=f"{key}.*{words}|{words}.*{key}"):
        LearnedParams.from_table({**table, key: value})


def test_the_second_look_is_not_taken_when_six_dice_are_sure(models: LearnedModels) -> None:
    """A plain scene: six sure dice, and the reading is the same with the second look off."""
    frame, labels = render_scene(12, SceneOptions(cubes=0, touching=False, cocked=False))
    on = read_with_model(frame, PARAMS, "macao", None, models, ONE_SCALE)
    off = read_with_model(frame, PARAMS, "macao", None, models, NO_SECOND_LOOK)
    assert colours_right(on, labels) == 6
    assert [(d.x, d.y, d.colour, d.value) for d in on.dice] == [(d.x, d.y, d.colour, d.value) for d in off.dice]


def test_the_debug_picture_shows_the_detectors_heat_and_every_candidate(models: LearnedModels) -> None:
    """Cubes lie beside the dice: the candidates stage draws more boxes than the six taken
    (the turned-down ones in gray), so a cube taken or a die missed can be traced."""
    frame, _ = render_scene(12, SceneOptions(cubes=12, cubes_near_dice=True, cocked=False, touching=False))
    sink = DebugSink()
    read_with_model(frame, PARAMS, "macao", None, models, LEARNED, sink)
    names = list(sink.stages)
    heat = next(name for name in names if name.startswith("detector heat"))
    candidates = next(name for name in names if name.startswith("candidates"))
    assert names.index(heat) < names.index(candidates)
    assert sink.stages[heat].shape == sink.stages[candidates].shape == frame.shape
    drawn = np.any(sink.stages[candidates] != frame, axis=2)
    gray = drawn & np.all(sink.stages[candidates] == (120, 120, 120), axis=2)  # turned-down candidates' boxes
    yellow = drawn & np.all(sink.stages[candidates] == (0, 220, 255), axis=2)  # the six taken
    assert gray.sum() > 100 and yellow.sum() > 100
    assert not np.array_equal(sink.stages[heat], frame)
