"""A die's body colour and pip polarity, measured in the classifier's crop of it (the learned
reader's colour measure; the joint assignment of colours is vision.colour's)."""

from __future__ import annotations

import dataclasses
import functools
from typing import Sequence

import cv2
import numpy as np

from vision.die import BodyColour
from vision.learned_models import DiceNet, crops_at_typical_side
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.pips import Spot, find_all_spots, find_pips, local_contrast


@functools.lru_cache(maxsize=16)
def polar_grid(size: int, window_sides: float, sectors: int) -> tuple[np.ndarray, np.ndarray]:
    """Each crop pixel's distance from the crop centre in die sides, and its angular sector (flat)."""
    yy, xx = np.mgrid[:size, :size]
    centre = (size - 1) / 2.0
    radius = np.hypot(xx - centre, yy - centre) * window_sides / size
    turn = (np.arctan2(yy - centre, xx - centre) + np.pi) / (2.0 * np.pi)
    sector = np.minimum((turn * sectors).astype(int), sectors - 1)
    return radius.reshape(-1), sector.reshape(-1)


def _row_percentiles(values: np.ndarray, percentile: float) -> np.ndarray:
    """Each row's percentile (linear interpolation) over its values that are not NaN; NaN for
    a row without any (np.nanpercentile does the same, many times slower on small rows)."""
    ordered = np.sort(values, axis=1)  # NaN sorts last
    valid = np.sum(~np.isnan(values), axis=1)
    position = percentile / 100.0 * np.maximum(valid - 1, 0)
    low = np.floor(position).astype(int)
    high = np.minimum(low + 1, np.maximum(valid - 1, 0))
    rows = np.arange(len(values))
    fraction = position - low
    result = ordered[rows, low] * (1.0 - fraction) + ordered[rows, high] * fraction
    return np.where(valid > 0, result, np.nan)


def _group_percentiles(values: np.ndarray, groups: Sequence[np.ndarray], percentile: float) -> np.ndarray:
    """N x G: for each row of `values` (N x P), `_row_percentiles` over each group of columns
    (index arrays). The groups go through one sort, padded with NaN to the largest: a call per
    group and crop stack costs more in numpy's overhead than the sorting itself."""
    longest = max(len(group) for group in groups)
    padded = np.full((len(values), len(groups), longest), np.nan, np.float32)
    for k, group in enumerate(groups):
        padded[:, k, : len(group)] = values[:, group]
    return _row_percentiles(padded.reshape(-1, longest), percentile).reshape(len(values), len(groups))


@functools.lru_cache(maxsize=16)
def _sector_columns(size: int, window_sides: float, sectors: int, inner: float, outer: float) -> tuple[np.ndarray, ...]:
    """Per angular sector that has any, the flat crop pixels between `inner` and `outer` die sides."""
    radius, sector = polar_grid(size, window_sides, sectors)
    ring = (radius >= inner) & (radius <= outer)
    columns = (np.flatnonzero(ring & (sector == k)) for k in range(sectors))
    return tuple(c for c in columns if len(c))


def pip_polarities(crops: np.ndarray, values: Sequence[int], window_sides: float, params: VisionParams,
                   learned: LearnedParams) -> list[str]:
    """Each die's pip polarity ("light", "dark", or "" when the face does not tell).

    Pips are found on both polarities as the classical reader finds them (small round spots of
    local contrast, alike in size) with their centres on the face; the polarity is the side
    whose pips number closest to the die's value (the classifier's). Counting beats comparing
    the face's lighter and darker parts: a glossy face washed pale by the lamp keeps a dark
    rim, a shaded one a dark corner, and either outweighs small white pips. When both sides
    come equally close, pips a little further out count too, but only a side with exactly the
    value's pips decides there (a die larger than its crop's side, or off its centre, shows its
    corner pips further out, where a rim or a neighbour can also pass for one). Otherwise the
    polarity is left undecided, so that no colour is priced on a guess.
    """
    count, size = crops.shape[0], crops.shape[1]
    if count == 0:
        return []
    die_px = max(1, round(size / window_sides))
    radius = polar_grid(size, window_sides, 1)[0].reshape(size, size)
    # One stack, one pass: OpenCV and the spot search are far slower on many tiny images.
    lighter, darker = local_contrast(np.ascontiguousarray(crops.reshape(count * size, size, 3)), die_px)
    # Contrast far off the face (the table, other dice) only costs time.
    outside = np.tile(radius > learned.colour_pip_search_radius, (count, 1))
    lighter[outside] = 0.0
    darker[outside] = 0.0
    spots = find_all_spots((lighter, darker), die_px, params)
    face = ((radius <= learned.colour_face_radius) * 255).astype(np.uint8)
    wide = ((radius <= learned.colour_pip_wide_radius) * 255).astype(np.uint8)
    polarities = []
    for index, value in enumerate(values):
        top = index * size
        own = {polarity: [dataclasses.replace(spot, centre=spot.centre - (0.0, top)) for spot in found
                          if top <= spot.centre[1] < top + size]
               for polarity, found in spots.items()}
        polarity = _nearer_count(own, face, die_px, value, params)
        if not polarity:
            polarity = _nearer_count(own, wide, die_px, value, params, exact=True)
        polarities.append(polarity)
    return polarities


def _nearer_count(spots: dict[str, list[Spot]], disc: np.ndarray, die_px: int, value: int, params: VisionParams,
                  exact: bool = False) -> str:
    """The polarity whose pips centred in `disc` number closer to `value` ("" on a tie; with
    `exact`, also when neither side has exactly `value` pips)."""
    miss = {pips.polarity: abs(len(pips.centres) - value) for pips in find_pips(spots, disc, die_px, params)}
    if miss["light"] == miss["dark"] or (exact and min(miss.values()) > 0):
        return ""
    return "light" if miss["light"] < miss["dark"] else "dark"


def body_colours(crops: np.ndarray, window_sides: float, params: VisionParams,
                 learned: LearnedParams) -> list[BodyColour]:
    """Each die's body colour from its crop.

    A glossy top face can mirror the lamp and wash out (a black die turns light gray, a
    violet one white), but the band along the face's edges (the bevel, seen from above)
    keeps the body's shade. So the lightness is a low percentile of that band, taken per
    angular sector and the median of the sectors kept (a touching die or a shadow darkens a
    sector or two, not the whole band); the hue comes from the darker part of the die
    (glare and light pips are the lighter part).
    Pips, for the band and the white reference: the central face pixels far from its median
    lightness, light when they lie above it on average (cruder than `pip_polarities`, and as
    good here).
    """
    if len(crops) == 0:
        return []
    count, size = crops.shape[0], crops.shape[1]
    # One conversion for the whole stack: OpenCV is far slower on many tiny images.
    lab = cv2.cvtColor(np.ascontiguousarray(crops.reshape(count * size, size, 3)), cv2.COLOR_BGR2Lab)
    face = polar_grid(size, window_sides, 1)[0] <= learned.colour_face_radius
    pixels = lab.reshape(count, size * size, 3).astype(np.float32)
    lightness = pixels[:, :, 0]
    face_lightness = lightness[:, face]
    median = np.median(face_lightness, axis=1)
    far = np.zeros_like(lightness, dtype=bool)
    far[:, face] = np.abs(face_lightness - median[:, None]) > params.pip_contrast
    far_count = far.sum(axis=1)
    far_mean = (lightness * far).sum(axis=1) / np.maximum(far_count, 1)
    light_pips = (far_count > 0) & (far_mean > median)
    # Dark pips would pass for a dark body: they are left out of the band (NaN).
    body_lightness = np.where(far & ~light_pips[:, None], np.nan, lightness)
    band = _sector_columns(size, window_sides, learned.colour_band_sectors, learned.colour_band_inner,
                           learned.colour_band_outer)
    shade = _row_percentiles(_group_percentiles(body_lightness, band, learned.colour_band_lightness_percentile), 50.0)
    shade = np.where(np.isnan(shade), median, shade)
    a, b = _darker_hues(pixels, size, window_sides, far & ~light_pips[:, None], learned)
    # White pips are a white reference in the frame: lightness is scaled so that they read as
    # they do under ordinary light (a dim scene's gray die is not a black one).
    whites = [float(np.percentile(lightness[i, far[i]], learned.colour_white_percentile))
              for i in np.flatnonzero(light_pips)]
    exposure = learned.colour_white_lightness / float(np.median(whites)) if whites else 1.0
    return [BodyColour(min(255.0, float(shade[i]) * exposure), float(a[i]), float(b[i])) for i in range(count)]


def _darker_hues(pixels: np.ndarray, size: int, window_sides: float, dark_pips: np.ndarray,
                 learned: LearnedParams) -> tuple[np.ndarray, np.ndarray]:
    """Each crop's hue (Lab a and b, around 0) from the darker part of its die.

    The darker part (below a percentile of the whole die's lightness) leaves glare and light
    pips out, and a lighter die touching this one. Its hue is taken per angular sector and the
    sectors' median kept: the detector can put a die's centre a quarter side towards its
    shadow, whose dark gray is then much of the darker part, but only in a few sectors. Only
    pixels near the centre count: further out a dark table or shadow can be the darker part
    of a pale (washed-out) die; dark pips are left out as in the band."""
    radius = polar_grid(size, window_sides, 1)[0]
    cut = np.percentile(pixels[:, radius <= learned.colour_band_outer, 0], learned.colour_darker_percentile, axis=1)
    near = _sector_columns(size, window_sides, learned.colour_hue_sectors, 0.0,
                           min(learned.colour_hue_radius, learned.colour_band_outer))
    darker = (pixels[:, :, 0] <= cut[:, None]) & ~dark_pips
    a, b = (_group_percentiles(np.where(darker, pixels[:, :, channel], np.nan), near, 50.0) for channel in (1, 2))
    return _row_percentiles(a, 50.0) - 128.0, _row_percentiles(b, 50.0) - 128.0


def chosen_colours(frame: np.ndarray, net: DiceNet, crops: np.ndarray, centres: np.ndarray, sides: np.ndarray,
                   typical: float, params: VisionParams,
                   learned: LearnedParams) -> tuple[np.ndarray, list[BodyColour]]:
    """The crops colours are measured in, and each die's body colour, for the chosen dice.

    Dice on one table are one size, and a crop whose side is off the typical one misplaces the
    measuring rings. Cut wider (side guessed too large), it shows the table near the centre where
    the hue is named: such a die is measured wholly in a crop of the typical side. Cut narrower,
    its shade band falls inside the top face, all of it on the lamp's mirror image when a glossy
    black face is washed out (it then passes for the gray die): its shade is taken from a crop
    of the typical side, its hue still from its own crop (where the typical side is too large
    for the dice, the wider crop would name the table's hue)."""
    colour_crops = crops.copy()
    wide = np.flatnonzero(sides > typical)
    if len(wide):
        colour_crops[wide] = crops_at_typical_side(frame, centres[wide], typical, net)
    colours = body_colours(colour_crops, net.window_sides, params, learned)
    narrow = np.flatnonzero(sides < typical)
    if len(narrow):
        shades = body_colours(crops_at_typical_side(frame, centres[narrow], typical, net), net.window_sides, params,
                              learned)
        for k, shade in zip(narrow, shades):
            colours[k] = dataclasses.replace(colours[k], lightness=shade.lightness)
    return colour_crops, colours

