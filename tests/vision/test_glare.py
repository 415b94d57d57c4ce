"""The lamp mirrored at a die face's centre, where a 3 or a 5 has its middle pip (issue 3): such a
2-5 is reported unsure, since the classifier reads it as surely when wrong as when right; and the
debug picture's tile that says why each die is unsure."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tests.vision.scene_checks import as_stored, mistakes_in
import vision.learned
from vision.debug import DebugSink
from vision.learned import GLARE_AT_CENTRE, NO_COLOUR_LEFT, WHY_UNSURE, glare_at_centre, read_with_model
from vision.learned_models import LearnedModels
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import load_vision_params
from tools.synth import SceneOptions, render_scene

PARAMS = load_vision_params()
LEARNED = load_learned_params()
NO_CHECK = dataclasses.replace(LEARNED, glare_min_area=0.0)
CROP_PX, WINDOW_SIDES = 64, 1.6  # the classifier's crop: 1.6 die sides across
DIE_PX = CROP_PX / WINDOW_SIDES


def face_crop(pips: list[tuple[float, float]], glare_sigma: float = 0.0) -> np.ndarray:
    """A violet die face with white pips (at offsets in die sides from the centre), and a
    lamp's mirror image at the centre `glare_sigma` die sides wide (0: none)."""
    crop = np.full((CROP_PX, CROP_PX, 3), (60, 120, 70), np.uint8)  # a green table
    centre = CROP_PX / 2.0
    half = DIE_PX / 2.0
    cv2.rectangle(crop, (round(centre - half), round(centre - half)), (round(centre + half), round(centre + half)),
                  (150, 40, 110), -1)
    for dx, dy in pips:
        cv2.circle(crop, (round(centre + dx * DIE_PX), round(centre + dy * DIE_PX)), round(0.1 * DIE_PX),
                   (250, 250, 250), -1, cv2.LINE_AA)
    if glare_sigma > 0:
        yy, xx = np.mgrid[:CROP_PX, :CROP_PX]
        spot = np.exp(-((xx - centre) ** 2 + (yy - centre) ** 2) / (2.0 * (glare_sigma * DIE_PX) ** 2))
        crop = np.clip(crop + spot[..., None] * 255.0, 0, 255).astype(np.uint8)
    return crop


CORNERS = [(-0.27, -0.27), (0.27, 0.27)]
FOUR = CORNERS + [(-0.27, 0.27), (0.27, -0.27)]


@pytest.mark.parametrize(("pips", "value"), [(CORNERS, 2), (CORNERS + [(0.0, 0.0)], 3), (FOUR, 4),
                                              (FOUR + [(0.0, 0.0)], 5)])
def test_a_bright_patch_at_the_centre_of_a_2_to_5_is_glare(pips: list[tuple[float, float]], value: int) -> None:
    assert glare_at_centre(face_crop(pips, glare_sigma=0.2)[None], [value], WINDOW_SIDES, LEARNED) == [True]
    assert glare_at_centre(face_crop(pips)[None], [value], WINDOW_SIDES, LEARNED) == [False]  # a pip alone


def test_glare_leaves_a_1_and_a_6_alone_and_can_be_switched_off() -> None:
    glared = face_crop([(0.0, 0.0)], glare_sigma=0.2)
    six = face_crop([(x, y) for x in (-0.27, 0.27) for y in (-0.27, 0.0, 0.27)], glare_sigma=0.2)
    assert glare_at_centre(np.stack([glared, six]), [1, 6], WINDOW_SIDES, LEARNED) == [False, False]
    assert glare_at_centre(glared[None], [3], WINDOW_SIDES, NO_CHECK) == [False]
    assert glare_at_centre(np.zeros((0, CROP_PX, CROP_PX, 3), np.uint8), [], WINDOW_SIDES, LEARNED) == []


def test_glare_off_the_centre_is_not_flagged() -> None:
    crop = face_crop(FOUR)
    yy, xx = np.mgrid[:CROP_PX, :CROP_PX]
    corner = CROP_PX / 2.0 + 0.3 * DIE_PX
    spot = np.exp(-((xx - corner) ** 2 + (yy - corner) ** 2) / (2.0 * (0.1 * DIE_PX) ** 2))
    crop = np.clip(crop + spot[..., None] * 255.0, 0, 255).astype(np.uint8)
    assert glare_at_centre(crop[None], [4], WINDOW_SIDES, LEARNED) == [False]


def test_a_washed_out_face_whose_middle_pip_shows_through_is_not_glare() -> None:
    """Like rendered-dev's dev_0004 violet 5: the face washed pale around its centre, its pips a
    little darker (washed all over, it would pass for a white face)."""
    crop = face_crop(FOUR)
    centre = CROP_PX / 2.0
    cv2.circle(crop, (round(centre), round(centre)), round(0.25 * DIE_PX), (245, 245, 245), -1, cv2.LINE_AA)
    cv2.circle(crop, (round(centre), round(centre)), round(0.1 * DIE_PX), (190, 190, 190), -1, cv2.LINE_AA)
    assert glare_at_centre(crop[None], [5], WINDOW_SIDES, LEARNED) == [False]
    uncovered = dataclasses.replace(LEARNED, glare_centre_cover=0.0, glare_clipped_share=0.0)  # the cover alone
    assert glare_at_centre(crop[None], [5], WINDOW_SIDES, uncovered) == [True]


@pytest.mark.parametrize(("pips", "value"), [(CORNERS, 2), (FOUR, 4)])
def test_a_white_face_is_not_glare(pips: list[tuple[float, float]], value: int) -> None:
    """A white die is as light at its centre as the lamp's mirror image on a coloured one (the
    drawn webcam set: 26 white 2s and 4s were asked for as glare); its face around the centre
    is that light too, a coloured face is not."""
    crop = face_crop([])
    centre, half = CROP_PX / 2.0, DIE_PX / 2.0
    cv2.rectangle(crop, (round(centre - half), round(centre - half)), (round(centre + half), round(centre + half)),
                  (240, 242, 244), -1)
    for dx, dy in pips:
        cv2.circle(crop, (round(centre + dx * DIE_PX), round(centre + dy * DIE_PX)), round(0.1 * DIE_PX),
                   (20, 20, 20), -1, cv2.LINE_AA)
    assert glare_at_centre(crop[None], [value], WINDOW_SIDES, LEARNED) == [False]
    dimmer = (crop.astype(np.int16) - 30).clip(0, 255).astype(np.uint8)  # the same face, not lamp-light
    assert glare_at_centre(dimmer[None], [value], WINDOW_SIDES, LEARNED) == [False]
    lit = face_crop(pips, glare_sigma=0.2)  # a coloured face lit at the centre alone still is
    assert glare_at_centre(lit[None], [value], WINDOW_SIDES, LEARNED) == [True]


def lit_at_centre(face_bgr: tuple[int, int, int], centre_grey: int, pips: list[tuple[float, float]]) -> np.ndarray:
    """A face of `face_bgr` with dark pips, lit to `centre_grey` in a disc 0.2 die sides around its
    centre (a patch of 0.13 squared sides)."""
    crop = face_crop([])
    centre, half = CROP_PX / 2.0, DIE_PX / 2.0
    cv2.rectangle(crop, (round(centre - half), round(centre - half)), (round(centre + half), round(centre + half)),
                  face_bgr, -1)
    for dx, dy in pips:
        cv2.circle(crop, (round(centre + dx * DIE_PX), round(centre + dy * DIE_PX)), round(0.1 * DIE_PX),
                   (20, 20, 20), -1, cv2.LINE_AA)
    cv2.circle(crop, (round(centre), round(centre)), round(0.2 * DIE_PX), (centre_grey,) * 3, -1, cv2.LINE_AA)
    return crop


@pytest.mark.parametrize(("pips", "value"), [(CORNERS, 2), (FOUR, 4)])
def test_a_light_face_lighter_at_its_centre_is_glare_only_where_the_camera_clips(
        pips: list[tuple[float, float]], value: int) -> None:
    """A white die in the shade (the drawn webcam sets: faces of median 200-230, centres 230-245,
    never clipped) is lighter at its centre than around it; the lamp's mirror image clips."""
    shaded = lit_at_centre((214, 216, 218), 238, pips)
    assert glare_at_centre(shaded[None], [value], WINDOW_SIDES, LEARNED) == [False]
    clipped = lit_at_centre((214, 216, 218), 255, pips)
    assert glare_at_centre(clipped[None], [value], WINDOW_SIDES, LEARNED) == [True]
    anything_light = dataclasses.replace(LEARNED, glare_clipped_share=0.0)
    assert glare_at_centre(shaded[None], [value], WINDOW_SIDES, anything_light) == [True]


def test_glare_that_does_not_clip_counts_where_it_outshines_a_dark_face() -> None:
    """A glossy die in dim light mirrors the lamp without clipping the camera, far lighter than its face."""
    dim = lit_at_centre((150, 40, 110), 238, FOUR)
    assert glare_at_centre(dim[None], [4], WINDOW_SIDES, LEARNED) == [True]
    clipped_only = dataclasses.replace(LEARNED, glare_above_face=255.0)
    assert glare_at_centre(dim[None], [4], WINDOW_SIDES, clipped_only) == [False]


@pytest.mark.parametrize(("key", "value", "words"), [("glare_centre_cover", 1.5, "share of the centre"),
                                                     ("glare_lightness", 300.0, "grey level"),
                                                     ("glare_clipped_lightness", 300.0, "grey level"),
                                                     ("glare_clipped_share", 1.5, "share of the centre"),
                                                     ("glare_above_face", -1.0, "must not be negative"),
                                                     ("glare_min_area", -0.1, "must not be negative")])
def test_glare_settings_out_of_range_are_named(key: str, value: float, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        LearnedParams.from_table({**dataclasses.asdict(LEARNED), key: value})


@pytest.fixture(scope="module")
def models() -> LearnedModels:
    return LearnedModels.load(LEARNED)


@pytest.fixture
def drawn_faces(monkeypatch: pytest.MonkeyPatch) -> list[list[tuple[object, str | None, bool]]]:
    """The faces each call of the reader's `draw_faces` is given (the tile of why dice are unsure)."""
    drawn: list[list[tuple[object, str | None, bool]]] = []
    real_draw = vision.learned.draw_faces
    monkeypatch.setattr(vision.learned, "draw_faces",
                        lambda image, faces: drawn.append(faces) or real_draw(image, faces))
    return drawn


# Fresh random drawn scenes (`vision synth --seed S`, scene N) whose glare sits on a die's centre,
# where one of the classifiers shipped or tried since 2026-12-02 reads the die wrongly and surely
# (chosen with `tools.training.ablate --set glare_min_area=0`): a violet 3 as a 2, a green 4 as a
# 5, a violet 2 as a 3, and so on. Which of them a classifier misreads depends on it, and the
# check does not catch every such die (the shipped classifier reads 9905/37's black 5 as a 4
# either way): the test needs at least two caught, and no mistake the check adds. With the
# ensemble shipped 2026-12-05 the check caught one in five fresh drawn sets (9908/32, and 11 right
# dice asked for) and two in 200 scenes with glare on a die in each (`vision synth --glare --seed
# 9921`: 9921/5 and 9921/54, and 12 right dice asked for).
GLARED_SCENES = ((9902, 46, "violet"), (9903, 60, "green"), (9908, 117, "violet"), (9901, 148, "violet"),
                 (9909, 55, "blue"), (9905, 37, "black"), (9904, 72, "blue"), (9903, 74, "gray"), (9908, 32, "green"),
                 (9921, 5, "gray"), (9921, 54, "black"))
GLARE_IN_EVERY_SCENE = {9921}  # sets drawn with --glare
FEWEST_CAUGHT = 2


def test_dice_with_glare_where_their_middle_pip_would_be_are_asked_for(models: LearnedModels) -> None:
    caught = []
    for seed, scene, colour in GLARED_SCENES:
        frame, labels = render_scene(seed * 100_003 + scene, SceneOptions(glare=seed in GLARE_IN_EVERY_SCENE))
        stored = as_stored(frame)
        before = mistakes_in(read_with_model(stored, PARAMS, "macao", None, models, NO_CHECK), labels)
        reading = read_with_model(stored, PARAMS, "macao", None, models, LEARNED)
        after = mistakes_in(reading, labels)
        assert set(after) <= set(before), (seed, scene, colour)
        glared = next(d for d in reading.dice if d.colour == colour)
        if colour in [m.split()[0] for m in before] and glared.unsure and glared.value is None:
            caught.append(f"{seed}/{scene}")
    assert len(caught) >= FEWEST_CAUGHT, f"only {caught} caught: choose more scenes with ablate"


@pytest.mark.parametrize("expect", ["macao", "any"])
def test_the_debug_picture_names_why_a_die_is_unsure(models: LearnedModels, drawn_faces: list, expect: str) -> None:
    seed, scene, colour = GLARED_SCENES[0]
    frame, _ = render_scene(seed * 100_003 + scene)
    sink = DebugSink()
    read_with_model(as_stored(frame), PARAMS, expect, None, models, LEARNED, sink)
    assert sink.stages[WHY_UNSURE].shape == frame.shape
    [faces] = drawn_faces
    assert [face.reason for face, _, _ in faces].count(GLARE_AT_CENTRE) == 1  # type: ignore[attr-defined]
    if expect == "macao":
        assert [c for face, c, _ in faces if face.reason == GLARE_AT_CENTRE] == [colour]  # type: ignore[attr-defined]


def test_the_debug_picture_marks_a_candidate_left_without_a_colour(
        models: LearnedModels, drawn_faces: list, monkeypatch: pytest.MonkeyPatch) -> None:
    frame, _ = render_scene(GLARED_SCENES[0][0] * 100_003 + GLARED_SCENES[0][1])
    real_assign = vision.learned.assign_colours
    monkeypatch.setattr(vision.learned, "assign_colours",
                        lambda costs, leave_out: real_assign(costs, leave_out)[:-1] + [None])
    reading = read_with_model(as_stored(frame), PARAMS, "macao", None, models, LEARNED, DebugSink())
    [faces] = drawn_faces
    assert len(faces) == 6 and len(reading.dice) == 5
    last, colour, kept = faces[-1]
    assert (last.reason, colour, kept) == (NO_COLOUR_LEFT, None, False)  # type: ignore[attr-defined]
    assert all(kept for _, _, kept in faces[:-1])
