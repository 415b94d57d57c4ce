"""The learned reader's body-colour and pip-polarity measures (vision.learned_colour.body_colours,
pip_polarities) on hand-drawn die crops: glare on the top face, dim light, shade and dark pips
must not turn a gray die black or the reverse, nor a shadow a blue die gray."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.colour import assign_colours, colour_cost, cost_matrix, default_models
from vision.die import DieFace
from vision.learned_colour import _group_percentiles, _row_percentiles, body_colours, pip_polarities
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import load_vision_params
from vision.types import DIE_COLOURS

PARAMS = load_vision_params()
LEARNED = load_learned_params()
CROP_PX = 48
WINDOW_SIDES = 1.6
SIDE = CROP_PX / WINDOW_SIDES
TABLE_BGR = (150, 160, 165)
PIP_OFFSETS = ((-0.27, -0.27), (0.27, 0.27), (0.0, 0.0))  # a 3, in die sides


def _die_crop(body: int, pips: int, washed_face: int | None = None, bgr: tuple[int, int, int] | None = None,
              scale: float = 1.0) -> np.ndarray:
    """A die seen from above: a square of `body` (or `bgr`) with pips; with `washed_face`, all
    but a thin rim of the top face is that lightness (a lamp mirrored in a glossy face)."""
    crop = np.full((CROP_PX, CROP_PX, 3), TABLE_BGR, np.uint8)
    centre = (CROP_PX - 1) / 2.0
    half = SIDE / 2.0
    colour = bgr if bgr is not None else (body, body, body)
    cv2.rectangle(crop, (round(centre - half), round(centre - half)), (round(centre + half), round(centre + half)),
                  colour, -1)
    if washed_face is not None:
        inner = half * 0.8
        cv2.rectangle(crop, (round(centre - inner), round(centre - inner)), (round(centre + inner), round(centre + inner)),
                      (washed_face,) * 3, -1)
    for dx, dy in PIP_OFFSETS:
        cv2.circle(crop, (round(centre + dx * SIDE), round(centre + dy * SIDE)), round(0.09 * SIDE), (pips,) * 3, -1)
    return np.clip(crop.astype(np.float32) * scale, 0, 255).astype(np.uint8)


def _six_dice(black: np.ndarray, gray: np.ndarray, scale: float = 1.0) -> np.ndarray:
    coloured = [_die_crop(0, 245, bgr=bgr, scale=scale)
                for bgr in ((40, 40, 190), (170, 70, 30), (60, 150, 50), (140, 50, 120))]
    return np.stack([coloured[0], coloured[1], coloured[2], black, gray, coloured[3]])


def _assigned(crops: np.ndarray) -> list[str | None]:
    colours = body_colours(crops, WINDOW_SIDES, PARAMS, LEARNED)
    polarities = pip_polarities(crops, [3] * len(crops), WINDOW_SIDES, PARAMS, LEARNED)
    faces = [DieFace((0, 0, 1, 1), 3, 1.0, "", polarity, np.zeros((0, 2)), colour, True)
             for colour, polarity in zip(colours, polarities)]
    costs = cost_matrix(faces, default_models(PARAMS), PARAMS, LEARNED.colour_lightness_floor)
    return [None if c is None else DIE_COLOURS[c] for c in assign_colours(costs, PARAMS.colour_max_cost)]


EXPECTED = ["red", "blue", "green", "black", "gray", "violet"]


@pytest.mark.parametrize("gray_pips", [245, 30], ids=["light pips", "dark pips"])
def test_plain_black_and_gray_dice(gray_pips: int) -> None:
    crops = _six_dice(_die_crop(25, 245), _die_crop(125, gray_pips))
    assert _assigned(crops) == EXPECTED


def test_black_die_washed_out_by_glare_is_still_black() -> None:
    """Its top face is lighter than the gray die's, but its rim stays black."""
    crops = _six_dice(_die_crop(20, 245, washed_face=205), _die_crop(125, 30))
    black, gray = body_colours(crops[3:5], WINDOW_SIDES, PARAMS, LEARNED)
    assert black.lightness < gray.lightness
    assert _assigned(crops) == EXPECTED


@pytest.mark.parametrize("scale", [0.45, 1.0])
def test_dim_gray_die_alone_is_gray(scale: float) -> None:
    """Only five dice found (the black one missed): a dim scene's gray die is still gray,
    because lightness is measured against the frame's white pips and compared as a ratio."""
    crops = _six_dice(_die_crop(25, 245, scale=scale), _die_crop(125, 30, scale=scale), scale=scale)
    five = np.delete(crops, 3, axis=0)
    assert _assigned(five) == ["red", "blue", "green", "gray", "violet"]


def _blue_die_off_centre_beside_its_shadow() -> np.ndarray:
    """The detector put this blue die's centre a third of a side towards the long dark shadow
    it casts on the table (as in rendered-dev's dev_0045, held out): the shadow's gray is then
    most of the crop's darker part near its centre."""
    shift = round(0.37 * SIDE)
    crop = cv2.warpAffine(_die_crop(0, 245, bgr=(150, 60, 25)), np.float32([[1, 0, shift], [0, 1, 0]]),
                          (CROP_PX, CROP_PX), flags=cv2.INTER_NEAREST, borderValue=TABLE_BGR)
    centre, half = (CROP_PX - 1) / 2.0, SIDE / 2.0
    shadow = np.zeros((CROP_PX, CROP_PX), np.uint8)
    cv2.rectangle(shadow, (0, round(centre - 1.3 * half)), (round(centre + shift), round(centre + 1.3 * half)), 255, -1)
    crop[(shadow > 0) & np.all(crop == TABLE_BGR, axis=2)] = (55, 50, 50)  # on the table, not on the die
    noise = np.random.default_rng(3).normal(0.0, 4.0, crop.shape)
    return np.clip(crop + noise, 0, 255).astype(np.uint8)


def test_a_die_read_off_centre_takes_its_hue_not_its_shadows() -> None:
    crops = _six_dice(_die_crop(25, 245), _die_crop(125, 245))
    crops[1] = _blue_die_off_centre_beside_its_shadow()
    blue = body_colours(crops[1:2], WINDOW_SIDES, PARAMS, LEARNED)[0]
    assert blue.b < -40  # plainly blue, not the shadow's gray (b -7 when the whole disc is taken at once)
    assert _assigned(crops) == EXPECTED


@pytest.mark.parametrize("key", ["colour_band_sectors", "colour_hue_sectors"])
def test_no_sectors_is_a_named_config_error(key: str) -> None:
    table = {**{f.name: getattr(LEARNED, f.name) for f in dataclasses.fields(LearnedParams)}, key: 0}
    with pytest.raises(ValueError, match=f"'{key}' must be at least 1, got 0"):
        LearnedParams.from_table(table)


def test_polarity_is_measured() -> None:
    crops = np.stack([_die_crop(25, 245), _die_crop(200, 30)])
    assert pip_polarities(crops, [3, 3], WINDOW_SIDES, PARAMS, LEARNED) == ["light", "dark"]


def test_a_shadow_across_the_face_does_not_turn_light_pips_dark() -> None:
    """A third of the face in deep shade (a pip with it) is more dark pixels than three white
    pips are light ones; the pips, counted, still say light."""
    crop = _die_crop(150, 245)
    centre = (CROP_PX - 1) / 2.0
    shade = np.zeros((CROP_PX, CROP_PX), np.uint8)
    cv2.fillConvexPoly(shade, np.array([(centre + 0.5 * SIDE, centre - 0.5 * SIDE), (centre + 0.5 * SIDE, centre + 0.5 * SIDE),
                                        (centre - 0.2 * SIDE, centre + 0.5 * SIDE)], np.int32), 255)
    crop[shade > 0] = (crop[shade > 0] * 0.45).astype(np.uint8)
    assert pip_polarities(crop[None], [3], WINDOW_SIDES, PARAMS, LEARNED) == ["light"]


def test_a_face_whose_pips_the_lamp_hides_has_no_polarity() -> None:
    """A black die's face washed out so far that its white pips hardly show: only its dark rim
    stands out, which is no pip; the polarity is left undecided and costs no colour anything."""
    washed = _die_crop(20, 245, washed_face=232)
    assert pip_polarities(washed[None], [3], WINDOW_SIDES, PARAMS, LEARNED) == [""]
    assert pip_polarities(np.zeros((0, CROP_PX, CROP_PX, 3), np.uint8), [], WINDOW_SIDES, PARAMS, LEARNED) == []
    black = default_models(PARAMS)["black"]
    colour = body_colours(washed[None], WINDOW_SIDES, PARAMS, LEARNED)[0]
    costs = {polarity: colour_cost(DieFace((0, 0, 1, 1), 3, 1.0, "", polarity, np.zeros((0, 2)), colour, True),
                                   black, PARAMS, LEARNED.colour_lightness_floor)
             for polarity in ("", "light", "dark")}
    assert costs[""] == costs["light"] == costs["dark"] - PARAMS.colour_polarity_cost


def test_no_crops_no_colours() -> None:
    assert body_colours(np.zeros((0, CROP_PX, CROP_PX, 3), np.uint8), WINDOW_SIDES, PARAMS, LEARNED) == []


@pytest.mark.parametrize("percentile", [0.0, 15.0, 50.0, 100.0])
def test_row_percentiles_match_numpy_and_skip_gaps(percentile: float) -> None:
    rng = np.random.default_rng(5)
    values = rng.normal(100, 30, (6, 40))
    values[rng.random(values.shape) < 0.3] = np.nan
    values[2] = np.nan
    got = _row_percentiles(values, percentile)
    rows = [0, 1, 3, 4, 5]
    assert np.allclose(got[rows], np.nanpercentile(values[rows], percentile, axis=1))
    assert np.isnan(got[2])


def test_group_percentiles_equal_one_call_per_group() -> None:
    """Groups of unequal size, gaps (NaN) and a group without any value, sorted together."""
    rng = np.random.default_rng(6)
    values = rng.normal(100, 30, (5, 50)).astype(np.float32)
    values[rng.random(values.shape) < 0.3] = np.nan
    groups = (np.arange(0, 7), np.arange(7, 30), np.array([30, 40, 49]), np.arange(31, 39))
    values[1, groups[2]] = np.nan
    got = _group_percentiles(values, groups, 15.0)
    expected = np.stack([_row_percentiles(values[:, group], 15.0) for group in groups], axis=1)
    assert got.shape == (5, 4)
    assert np.array_equal(got, expected, equal_nan=True)
    assert np.isnan(got[1, 2])
