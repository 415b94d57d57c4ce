"""Small learned dice models, run through OpenCV's DNN module (no torch at run time).

Two ONNX networks trained by vision/training (see its README):

- `DiceDetector`: a fully convolutional net over a shrunken frame that marks die
  top-face centres (a heatmap) and their size; `detect(frame)` gives candidates.
- `DiceNet`: a classifier over square crops centred on a die; `classify(crops)`
  gives probabilities over (not a die, 1, 2, 3, 4, 5, 6).

A third, `vision.lean.LeanNet`, checks each die found for leaning (cocked).

`read_with_model` chains them into a DiceReading like `vision.reader.read_dice`,
reusing the reader's frame checks and joint colour assignment. In macao mode, with fewer
than six sure dice, the detector's heatmap is searched again beside the dice found
(`DiceDetector.look_beside`: a die touching another is often only a shoulder of its heat). Each ONNX file has
a JSON file beside it (same name, .json) with the geometry it was trained for.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import cv2
import numpy as np

from vision.colour import LEARNED_MEASURE, assign_colours, assignment_margins, colour_models, cost_matrix
from vision.debug import (CandidateMark, DebugSink, draw_candidates, draw_faces, draw_heat, draw_leaning,
                          draw_second_look, draw_second_opinions)
from vision.die import BodyColour, DieFace
from vision.frame import FrameError, RegionPlace, check_frame, is_blank
from vision.lean import LeanNet
from vision.onnx_net import CropNet, CropNetType, NetError, OnnxNet, image_blob, load_net
from vision.learned_params import LearnedParams
from vision.params import REPO_ROOT, VisionParams
from vision.pips import Spot, find_all_spots, find_pips, local_contrast
from vision.second_opinion import DOUBTFUL_VALUE, review_doubtful
from vision.types import DIE_COLOURS, DiceReading, DieReading, ExpectMode

if TYPE_CHECKING:
    from vision.calibrate import Calibration

MODELS_DIR = Path(__file__).resolve().parent / "models"
CLASS_NAMES: tuple[str, ...] = ("not a die", "1", "2", "3", "4", "5", "6")
# The reason of a macao-mode filler: a candidate the classifier doubts is a die at all.
MAYBE_NOT_A_DIE = "maybe not a die"
# Steps to the eight points around a candidate (x, y), read when it may be a die seen off its centre.
_EIGHT_WAYS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1))
# Unit steps along four axes through a die (across, down, the two diagonals): where a die found at
# the seam of two touching dice is read either way.
_FOUR_AXES = ((1.0, 0.0), (0.0, 1.0), (0.5**0.5, 0.5**0.5), (0.5**0.5, -(0.5**0.5)))
# The reason of a die the leaning check takes for cocked: no face lies flat, so none counts.
LEANING = "leaning (cocked)"
# The reason of a 2-5 with the lamp mirrored at its centre, where a middle pip would be.
GLARE_AT_CENTRE = "glare where a middle pip would be"
# The debug picture of the dice with their values' probabilities and why any is unsure.
WHY_UNSURE = "dice (value, P(value), why unsure)"
# Why a candidate drawn there is not among the dice: the joint assignment left it no colour.
NO_COLOUR_LEFT = "no colour left"
# Read values a middle pip tells apart: 2 from 3, 4 from 5 (a 1 and a 6 have no neighbour there).
_MIDDLE_PIP_PAIRS = (2, 3, 4, 5)


class ModelError(ValueError):
    """A model file is missing, unreadable or not what this module expects."""


def model_path(path: str | Path) -> Path:
    """A model file's path: absolute as given, else relative to the repository root."""
    path = Path(path)
    return path if path.is_absolute() else REPO_ROOT / path


def _load_onnx(path: str | Path, runtime: str = "auto") -> tuple[OnnxNet, dict[str, Any]]:
    """The network (in `runtime`, see vision.onnx_net) and the JSON metadata beside it;
    ModelError on any problem."""
    onnx_path = model_path(path)
    meta_path = onnx_path.with_suffix(".json")
    if not onnx_path.is_file():
        raise ModelError(f"{onnx_path}: no such model file")
    if not meta_path.is_file():
        raise ModelError(f"{meta_path}: the model's metadata file is missing")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ModelError(f"{meta_path}: not readable JSON ({exc})") from exc
    try:
        return load_net(onnx_path, runtime), meta
    except NetError as exc:
        raise ModelError(str(exc)) from exc


def crop_dice(frame: np.ndarray, centres: np.ndarray, sides: np.ndarray, crop_px: int, window_sides: float) -> np.ndarray:
    """Square crops (N x crop_px x crop_px x 3) centred on each die, `window_sides` die sides wide.

    Resampled with area averaging when shrinking (a plain affine warp would alias pips).
    """
    crops = np.zeros((len(centres), crop_px, crop_px, 3), np.uint8)
    height, width = frame.shape[:2]
    for i, ((cx, cy), side) in enumerate(zip(centres, sides)):
        window = max(float(side) * window_sides, 2.0)
        half = window / 2.0
        x0, y0 = int(np.floor(cx - half)), int(np.floor(cy - half))
        x1, y1 = int(np.ceil(cx + half)), int(np.ceil(cy + half))
        patch = cv2.copyMakeBorder(
            frame[max(0, y0) : min(height, y1), max(0, x0) : min(width, x1)],
            max(0, -y0), max(0, y1 - height), max(0, -x0), max(0, x1 - width), cv2.BORDER_REPLICATE,
        ) if x1 > 0 and y1 > 0 and x0 < width and y0 < height else None
        if patch is None or patch.size == 0:
            continue
        interpolation = cv2.INTER_AREA if patch.shape[0] > crop_px else cv2.INTER_LINEAR
        crops[i] = cv2.resize(patch, (crop_px, crop_px), interpolation=interpolation)
    return crops


class DiceNet(CropNet):
    """Die-face classifier: crops in, probabilities over (not a die, 1..6) out."""

    @classmethod
    def load(cls, path: str | Path, runtime: str = "auto") -> DiceNet:
        return _load_crop_net(cls, path, runtime)

    def classify(self, crops: np.ndarray | list[np.ndarray], turns: int = 1, batch: int = 0) -> np.ndarray:
        """N x 7 probabilities; crops of another size are resized, bad input raises ValueError.

        With `turns` 2 or 4 the crops are also read turned by 180 (or every 90) degrees and
        the probabilities averaged: a die reads the same at any turn, a guess does not.
        `batch` > 0: at most that many crops go through the net at once (0: all), which
        bounds the buffers the net keeps for its largest input.
        """
        if turns not in (1, 2, 4):
            raise ValueError(f"turns must be 1, 2 or 4, got {turns!r}")
        stack = self._ready(crops)
        return self._batched(stack, range(0, 4, 4 // turns), batch)

    def refine(self, crops: np.ndarray, upright: np.ndarray, turns: int, batch: int = 0) -> np.ndarray:
        """`classify(crops, turns, batch)` when `upright` is already `classify(crops, 1)`: only the
        other turns are run (the reader reads every candidate once, the kept ones again)."""
        if turns not in (1, 2, 4):
            raise ValueError(f"turns must be 1, 2 or 4, got {turns!r}")
        if turns == 1 or len(crops) == 0:
            return upright
        others = self._batched(self._ready(crops), range(4 // turns, 4, 4 // turns), batch)
        return ((upright + others * (turns - 1)) / turns).astype(np.float32)

    def _batched(self, stack: np.ndarray, quarter_turns: range, batch: int) -> np.ndarray:
        """`_turned` over the stack, `batch` crops (each with all its turns) at a time (0: all)."""
        if batch <= 0 or len(stack) <= batch:
            return self._turned(stack, quarter_turns)
        return np.concatenate([self._turned(stack[start : start + batch], quarter_turns)
                               for start in range(0, len(stack), batch)])

    def _ready(self, crops: np.ndarray | list[np.ndarray]) -> np.ndarray:
        """The crops as one N x S x S x 3 uint8 stack at the net's size; ValueError on bad input."""
        if isinstance(crops, np.ndarray) and crops.ndim == 3:
            crops = crops[None]
        ready = []
        for crop in crops:
            if not isinstance(crop, np.ndarray) or crop.ndim != 3 or crop.shape[2] != 3 or min(crop.shape[:2]) < 4:
                shape = getattr(crop, "shape", type(crop).__name__)
                raise ValueError(f"a crop must be a BGR image of at least 4x4 pixels, got {shape}")
            crop = crop.astype(np.uint8) if crop.dtype != np.uint8 else crop
            if crop.shape[:2] != (self.crop_px, self.crop_px):
                crop = cv2.resize(crop, (self.crop_px, self.crop_px), interpolation=cv2.INTER_AREA)
            ready.append(crop)
        return np.stack(ready) if ready else np.zeros((0, self.crop_px, self.crop_px, 3), np.uint8)

    def _turned(self, stack: np.ndarray, quarter_turns: range | list[int]) -> np.ndarray:
        """Probabilities averaged over the stack read at each of `quarter_turns` (x 90 degrees)."""
        if len(stack) == 0 or len(quarter_turns) == 0:
            return np.zeros((len(stack), len(CLASS_NAMES)), np.float32)
        turned = np.concatenate([np.rot90(stack, k, axes=(1, 2)) for k in quarter_turns])
        logits = self._net.run(image_blob(turned)).reshape(len(quarter_turns), len(stack), len(CLASS_NAMES))
        logits = logits.astype(np.float64)
        logits -= logits.max(axis=2, keepdims=True)
        exp = np.exp(logits)
        return (exp / exp.sum(axis=2, keepdims=True)).mean(axis=0).astype(np.float32)


@dataclass(frozen=True)
class DieCandidate:
    """A die the detector found: top-face centre and side in frame pixels, and its score."""

    cx: float
    cy: float
    side: float
    score: float


class DiceDetector:
    """Heatmap detector of die top faces on a shrunken frame."""

    def __init__(self, net: OnnxNet, stride: int, multiple: int) -> None:
        self._net = net
        self.stride = stride  # frame cells per heatmap cell, at detector scale
        self.multiple = multiple  # input sides are padded to a multiple of this

    @classmethod
    def load(cls, path: str | Path, runtime: str = "auto") -> DiceDetector:
        net, meta = _load_onnx(path, runtime)
        try:
            return cls(net, int(meta["stride"]), int(meta["multiple"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"{path}: metadata lacks stride/multiple") from exc

    def maps(self, frame: np.ndarray, long_side: int,
             frame_long_side: int | None = None) -> tuple[np.ndarray, np.ndarray, float]:
        """Heatmap (0-1), side map (px at detector scale) and the frame-to-detector scale.

        The frame is shrunk so its long side is at most `long_side`. A tray region cut from a
        larger frame passes that frame's long side: it is shrunk as the frame would be, so its
        dice keep the size the detector knows (left whole, a small region's dice are too big).
        """
        height, width = frame.shape[:2]
        scale = min(1.0, long_side / (frame_long_side or max(height, width)))
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA) if scale < 1.0 else frame
        pad_w = (-size[0]) % self.multiple
        pad_h = (-size[1]) % self.multiple
        small = cv2.copyMakeBorder(small, 0, pad_h, 0, pad_w, cv2.BORDER_REPLICATE)
        out = self._net.run(image_blob(small[None]))[0]
        return out[0], np.exp(out[1]), scale

    def detect(self, frame: np.ndarray, params: LearnedParams) -> list[DieCandidate]:
        """Die candidates in frame pixels, best first."""
        heat, sides, scale = self.maps(frame, params.detector_long_side)
        return self.peaks(heat, sides, scale, params.detector_min_score, params.detector_peak_window)

    def peaks(self, heat: np.ndarray, sides: np.ndarray, scale: float, min_score: float,
              window_cells: int) -> list[DieCandidate]:
        """The heatmap's local maxima of at least `min_score` as candidates in frame pixels, best first."""
        window = np.ones((window_cells, window_cells), np.uint8)
        peaks = (heat >= cv2.dilate(heat, window)) & (heat >= min_score)
        found = []
        rows, cols = np.nonzero(peaks)
        for row, col in zip(rows, cols):
            r0, r1, c0, c1 = max(0, row - 1), row + 2, max(0, col - 1), col + 2
            weights = heat[r0:r1, c0:c1]
            yy, xx = np.mgrid[r0 : r0 + weights.shape[0], c0 : c0 + weights.shape[1]]
            total = float(weights.sum())
            cy = float((weights * yy).sum() / total + 0.5) * self.stride / scale
            cx = float((weights * xx).sum() / total + 0.5) * self.stride / scale
            found.append(DieCandidate(cx, cy, float(sides[row, col]) / scale, float(heat[row, col])))
        return sorted(found, key=lambda c: -c.score)

    def look_beside(self, heat: np.ndarray, sides: np.ndarray, scale: float, found: list[DieCandidate],
                    params: LearnedParams, typical: float | None = None) -> list[DieCandidate]:
        """Weaker candidates once the heat of the dice already `found` is taken away.

        Two touching dice often make one ridge of heat whose top is one die: the other is
        only a shoulder of it, not a peak of its own. A found die's own heat falls off alike
        in every direction, so at each distance from it the least heat around it is its own;
        with that taken away what is left is another die's (a shoulder becomes a peak), or a
        die the detector sees only faintly. Nearer than `macao_look_beside_core_radius` die
        sides, where no other die's centre can lie, all heat is the found die's. Those die sides
        are at most the frame's `typical` one (when given): a found die whose side was guessed
        large is often two touching dice taken for one, its peak between them, and a core that
        large would swallow the other die's centre.
        """
        rest = heat.copy()
        cell = self.stride / scale  # frame pixels per heatmap cell
        for c in found:
            side = c.side if typical is None else min(c.side, typical)
            rest = _without_own_heat(rest, c.cy / cell - 0.5, c.cx / cell - 0.5,
                                     params.macao_look_beside_own_radius * side / cell,
                                     params.macao_look_beside_core_radius * side / cell)
        return self.peaks(rest, sides, scale, params.macao_look_beside_min_score, params.detector_peak_window)


def _without_own_heat(heat: np.ndarray, row: float, col: float, radius: float, core: float) -> np.ndarray:
    """`heat` less the part around (row, col) that is the same in every direction: within
    `radius` cells, each cell loses the least heat found at its distance (in whole cells);
    within `core` cells, where no other die's centre can lie, it loses all."""
    reach = int(np.ceil(radius))
    r0, r1 = max(0, int(row) - reach), min(heat.shape[0], int(row) + reach + 2)
    c0, c1 = max(0, int(col) - reach), min(heat.shape[1], int(col) + reach + 2)
    if r0 >= r1 or c0 >= c1:
        return heat
    rows, cols = np.mgrid[r0:r1, c0:c1]
    rings = np.rint(np.hypot(rows - row, cols - col)).astype(int)
    window = heat[r0:r1, c0:c1]
    inside = rings <= radius
    least = np.full(rings.max() + 1, np.inf, np.float32)
    np.minimum.at(least, rings[inside], window[inside])
    result = heat.copy()
    rest = np.where(inside, np.maximum(window - least[rings], 0.0), window)
    result[r0:r1, c0:c1] = np.where(np.hypot(rows - row, cols - col) <= core, 0.0, rest)
    return result


@dataclass(frozen=True)
class LearnedModels:
    """The detector, the classifier that picks the dice, and any further classifiers whose
    probabilities are averaged with its own for the dice kept (an ensemble; measured held out
    by vision.training.evaluate_learned, not shipped: see vision/training/README.md), and the
    leaning-die check."""

    detector: DiceDetector
    classifier: DiceNet
    extra_classifiers: tuple[DiceNet, ...] = ()
    lean: LeanNet | None = None  # None: no leaning-die check
    lean_trouble: str = ""  # why the check is off although asked for (its model did not load)

    @classmethod
    def load(cls, params: LearnedParams, extra_classifier_paths: tuple[str, ...] = ()) -> LearnedModels:
        runtime = params.runtime
        return cls(DiceDetector.load(params.detector_path, runtime), DiceNet.load(params.classifier_path, runtime),
                   tuple(DiceNet.load(path, runtime) for path in extra_classifier_paths),
                   load_lean(params.lean_path, runtime) if params.lean_check else None)


def load_lean(path: str | Path, runtime: str = "auto") -> LeanNet:
    """The leaning-die check's model; ModelError on any problem."""
    return _load_crop_net(LeanNet, path, runtime)


def _load_crop_net(kind: type[CropNetType], path: str | Path, runtime: str) -> CropNetType:
    """A crop network of `kind` from its ONNX file and metadata; ModelError on any problem."""
    net, meta = _load_onnx(path, runtime)
    try:
        return kind.from_onnx(net, meta)
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"{path}: metadata lacks crop_px/window_sides") from exc


def _suppress_duplicates(candidates: list[DieCandidate], distance: float) -> list[DieCandidate]:
    kept: list[DieCandidate] = []
    for c in candidates:
        if all(np.hypot(c.cx - k.cx, c.cy - k.cy) >= distance * min(c.side, k.side) for k in kept):
            kept.append(c)
    return kept


@functools.lru_cache(maxsize=16)
def _polar_grid(size: int, window_sides: float, sectors: int) -> tuple[np.ndarray, np.ndarray]:
    """Each crop pixel's distance from the crop centre in die sides, and its angular sector (flat)."""
    yy, xx = np.mgrid[:size, :size]
    centre = (size - 1) / 2.0
    radius = np.hypot(xx - centre, yy - centre) * window_sides / size
    turn = (np.arctan2(yy - centre, xx - centre) + np.pi) / (2.0 * np.pi)
    sector = np.minimum((turn * sectors).astype(int), sectors - 1)
    return radius.reshape(-1), sector.reshape(-1)


def typical_side(found: list[DieCandidate]) -> float:
    """The frame's typical die side: the median side of the stronger half of the candidates.

    Dice on one table are about one size, and one side guessed too large or small would cut
    a misleading crop, so each crop's side is held near this one."""
    sides = np.array([c.side for c in found])
    scores = np.array([c.score for c in found])
    return float(np.median(sides[scores >= np.median(scores)]))


def sized_like_the_dice(found: list[DieCandidate], typical: float, min_ratio: float) -> list[DieCandidate]:
    """The candidates at least `min_ratio` of the typical die side: dice on one table are about
    one size, and a candidate far smaller is a speck on the table, a lone pip or a cube."""
    return [c for c in found if c.side >= min_ratio * typical]


def body_centre(frame: np.ndarray, cx: float, cy: float, side: float, learned: LearnedParams) -> tuple[float, float]:
    """The centre of the die body around (cx, cy): the centroid of the region of the colour
    found at that point (pips closed over), connected to it, within a die side of it.

    A weak detector peak (a die touching another, a faint one) can sit off the face's
    centre, on or beside one pip, and a crop centred there shows one pip. The point is kept
    when no die-sized region of one colour surrounds it (a pale die on a pale table).
    """
    height, width = frame.shape[:2]
    half = int(np.ceil(side))
    x0, y0 = max(0, int(cx) - half), max(0, int(cy) - half)
    x1, y1 = min(width, int(cx) + half + 1), min(height, int(cy) + half + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return cx, cy
    lab = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_BGR2Lab).astype(np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    distance = np.hypot(xx - cx, yy - cy) / side
    seed = lab[distance <= learned.body_seed_radius]
    if len(seed) == 0:
        return cx, cy
    # The seed's own colour: its pixels nearest the median (a pip in the seed is left out).
    gap = np.linalg.norm(seed - np.median(seed, axis=0), axis=1)
    colour = np.median(seed[gap <= np.median(gap)], axis=0)
    similar = (np.linalg.norm(lab - colour, axis=2) <= learned.body_colour_tolerance) & (distance <= 1.0)
    pip = max(3, int(side * learned.body_pip_close) | 1)
    closed = cv2.morphologyEx(similar.astype(np.uint8), cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (pip, pip)))
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(closed, connectivity=4)
    at = labels[min(int(cy) - y0, y1 - y0 - 1), min(int(cx) - x0, x1 - x0 - 1)]
    if at == 0:
        return cx, cy
    area = stats[at, cv2.CC_STAT_AREA] / side ** 2
    nx, ny = centroids[at][0] + x0, centroids[at][1] + y0
    if not learned.body_min_area <= area <= learned.body_max_area or np.hypot(nx - cx, ny - cy) > learned.body_max_shift * side:
        return cx, cy
    return float(nx), float(ny)


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
    radius, sector = _polar_grid(size, window_sides, sectors)
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
    radius = _polar_grid(size, window_sides, 1)[0].reshape(size, size)
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
    face = _polar_grid(size, window_sides, 1)[0] <= learned.colour_face_radius
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
    radius = _polar_grid(size, window_sides, 1)[0]
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


def crop_candidates(frame: np.ndarray, candidates: list[DieCandidate], typical: float, net: DiceNet,
                    learned: LearnedParams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centres, crop sides (held within side_spread of the typical side) and the classifier's crops."""
    centres = np.array([(c.cx, c.cy) for c in candidates])
    sides = np.clip([c.side for c in candidates], typical / learned.side_spread, typical * learned.side_spread)
    return centres, sides, crop_dice(frame, centres, sides, net.crop_px, net.window_sides)


def _moved_onto_body(frame: np.ndarray, candidate: DieCandidate, typical: float,
                     learned: LearnedParams) -> DieCandidate:
    """The candidate at its die body's centre (`body_centre`; where it finds no body, unmoved)."""
    cx, cy = body_centre(frame, candidate.cx, candidate.cy, typical, learned)
    return dataclasses.replace(candidate, cx=cx, cy=cy)


def _second_look(frame: np.ndarray, detector: DiceDetector, maps: tuple[np.ndarray, np.ndarray, float],
                 found: list[DieCandidate], typical: float, learned: LearnedParams,
                 debug: DebugSink | None) -> list[DieCandidate]:
    """Macao mode, fewer than six dice: new candidates beside those found (a die touching one,
    a faint one), each moved onto its die's body. A new peak on a found die is that die again."""
    heat, side_map, scale = maps
    beside = _suppress_duplicates(found + detector.look_beside(heat, side_map, scale, found, learned, typical),
                                  learned.duplicate_distance)[len(found):]
    moved = [_moved_onto_body(frame, c, typical, learned) for c in beside]
    if debug is not None:
        debug.add("second look (gray: first candidates; orange: new ones, moved to the die body)",
                  draw_second_look(frame, [(c.cx, c.cy, c.side) for c in found],
                                   [(b.cx, b.cy, m.cx, m.cy, typical) for b, m in zip(beside, moved)]))
    return _suppress_duplicates(found + moved, learned.duplicate_distance)[len(found):]


def _turned_where(net: DiceNet, crops: np.ndarray, upright: np.ndarray, rows: list[int],
                  learned: LearnedParams) -> np.ndarray:
    """`upright` (the crops read once), with the given rows read turned as well."""
    probabilities = upright.copy()
    probabilities[rows] = net.refine(crops[rows], upright[rows], learned.classifier_turns, learned.classifier_batch)
    return probabilities


def crops_at_typical_side(frame: np.ndarray, centres: np.ndarray, typical: float, net: DiceNet) -> np.ndarray:
    """The classifier's crops at these centres, each cut at the frame's typical die side."""
    return crop_dice(frame, centres, np.full(len(centres), typical), net.crop_px, net.window_sides)


def at_typical_side(frame: np.ndarray, net: DiceNet, centres: np.ndarray, sides: np.ndarray, crops: np.ndarray,
                    probabilities: np.ndarray, rows: list[int], typical: float, learned: LearnedParams) -> None:
    """Each die still doubted after its turned reading, whose crop side is off the frame's
    typical die side, is read again in a crop of the typical side (dice on one table are one
    size; a side guessed too large shows the die small). The reading surer of its value
    replaces the first, crop included (in place); the new crop is read turned only where its
    upright reading is already the surer one."""
    rows = [i for i in rows if abs(sides[i] / typical - 1.0) >= learned.typical_side_min_gap
            and float(np.max(probabilities[i][1:])) < learned.classifier_sure_probability]
    if not rows:
        return
    again_crops = crops_at_typical_side(frame, centres[rows], typical, net)
    upright = net.classify(again_crops, 1, learned.classifier_batch)
    surer = [k for k, i in enumerate(rows) if np.max(upright[k][1:]) > np.max(probabilities[i][1:])]
    if not surer:
        return
    again = net.refine(again_crops[surer], upright[surer], learned.classifier_turns, learned.classifier_batch)
    for k, reading in zip(surer, again):
        i = rows[k]
        if np.max(reading[1:]) > np.max(probabilities[i][1:]):
            sides[i], crops[i], probabilities[i] = typical, again_crops[k], reading


def read_doubted_on_body(frame: np.ndarray, net: DiceNet, found: list[DieCandidate], sides: np.ndarray,
                         crops: np.ndarray, probabilities: np.ndarray, rows: list[int], others: list[int],
                         typical: float, least: float, learned: LearnedParams) -> None:
    """Each die of `rows` whose value is still doubted (its top value under `least`) is read again
    on its die's body (`body_centre`, a crop of the typical side) when that moves it at least
    `doubted_on_body_min_shift` die sides and stays `macao_clearance` die sides clear of the other
    dice of `rows` and `others` (the doubtful candidates also reported). The new reading replaces
    the first, in place, only when it names the same value and is surer of it.

    The detector can put a die's centre a fifth of a side off, towards its shadow or a corner,
    and the crop then shows a pip cut at its edge: the classifier names the right value but
    doubts it. Centred, the same die reads plainly. A reading that names another value is not
    taken: the body can run into a touching die or a shadow, and a die moved onto the wrong
    place must not be read as another die with confidence; it is left to the second opinion."""
    tries = []
    for i in rows:
        if float(np.max(probabilities[i][1:])) >= least:
            continue
        moved = _moved_onto_body(frame, found[i], typical, learned)
        if (np.hypot(moved.cx - found[i].cx, moved.cy - found[i].cy) >= learned.doubted_on_body_min_shift * typical
                and clear_of(moved, [found[k] for k in rows + others if k != i], learned.macao_clearance * typical)):
            tries.append((i, moved))
    if not tries:
        return
    again_crops = crops_at_typical_side(frame, np.array([(c.cx, c.cy) for _, c in tries]), typical, net)
    readings = net.classify(again_crops, learned.classifier_turns, learned.classifier_batch)
    for (i, moved), crop, reading in zip(tries, again_crops, readings):
        value = int(np.argmax(probabilities[i][1:]))
        if int(np.argmax(reading[1:])) == value and reading[1 + value] > probabilities[i][1 + value]:
            found[i], sides[i], crops[i], probabilities[i] = moved, typical, crop, reading


def reread_candidates(frame: np.ndarray, net: DiceNet, found: list[DieCandidate], sides: np.ndarray,
                      crops: np.ndarray, probabilities: np.ndarray, rows: list[int], typical: float,
                      learned: LearnedParams, taken: Sequence[DieCandidate] = ()) -> list[int]:
    """Macao mode: each candidate of `rows` (not yet a sure die) is read again in a crop of the
    frame's typical die side, where it is when its own side is off that by `typical_side_min_gap`,
    and on its die's body when that moves it at least `macao_recentre_min_shift` die sides; the
    first `macao_shift_most` of them also at the eight points `macao_shift_step` die sides around
    them. No point within `macao_clearance` die sides of a die `taken` (the sure ones) is read:
    it would be that die again.

    A die dark on a dark table (a black die in its own shadow) can be found off its face's
    centre, on one pip, and its crop shows half a die; a die whose side the detector guessed too
    large shows small in its crop. Either way the classifier doubts it. The crop that looks most
    like a die replaces the first if it looks more so (in place: `found`, `sides`, `crops`,
    `probabilities`); the body's centre is only a guess (a side face or a shadow can pull it
    off), so the unmoved crop is tried as well. Each crop is read upright first and turned only
    where it already looks more like a die. Returns those now sure dice."""
    tries: list[tuple[int, DieCandidate]] = []
    for i in rows:
        if abs(sides[i] / typical - 1.0) >= learned.typical_side_min_gap:
            tries.append((i, found[i]))
        moved = _moved_onto_body(frame, found[i], typical, learned)
        if np.hypot(moved.cx - found[i].cx, moved.cy - found[i].cy) >= learned.macao_recentre_min_shift * typical:
            tries.append((i, moved))
        if i in rows[: learned.macao_shift_most]:
            step = learned.macao_shift_step * typical
            tries += [(i, dataclasses.replace(found[i], cx=found[i].cx + dx * step, cy=found[i].cy + dy * step))
                      for dx, dy in _EIGHT_WAYS]
    tries = [(i, c) for i, c in tries if clear_of(c, taken, learned.macao_clearance * typical)]
    if not tries:
        return []
    again_crops = crops_at_typical_side(frame, np.array([(c.cx, c.cy) for _, c in tries]), typical, net)
    upright = net.classify(again_crops, 1, learned.classifier_batch)
    hopeful = [k for k, (i, _) in enumerate(tries) if upright[k][0] < probabilities[i][0]]
    again = net.refine(again_crops[hopeful], upright[hopeful], learned.classifier_turns, learned.classifier_batch)
    for k, reading in zip(hopeful, again):
        i, candidate = tries[k]
        if reading[0] < probabilities[i][0]:
            found[i], sides[i], crops[i], probabilities[i] = candidate, typical, again_crops[k], reading
    return [i for i in dict.fromkeys(i for i, _ in tries) if 1.0 - float(probabilities[i][0]) >= learned.die_min_probability]


def clear_of(candidate: DieCandidate, dice: Sequence[DieCandidate], distance: float) -> bool:
    """Whether the candidate's centre lies at least `distance` px from every die's centre."""
    return all(np.hypot(candidate.cx - d.cx, candidate.cy - d.cy) >= distance for d in dice)


def apart(indices: list[int], found: list[DieCandidate], distance: float) -> list[int]:
    """The candidates (by index, in the order given: likeliest first) each at least `distance` px
    from every one taken before it: two flat dice's centres lie a die side apart, so a nearer
    candidate is a die already taken, seen again off its centre."""
    taken: list[int] = []
    for i in indices:
        if clear_of(found[i], [found[k] for k in taken], distance):
            taken.append(i)
    return taken


@dataclass(frozen=True)
class SeamSplit:
    """A sure die that is two touching dice: its index among the candidates, the two dice, their
    crops (at the typical side) and the classifier's readings of them (turned)."""

    index: int
    dice: tuple[DieCandidate, DieCandidate]
    crops: np.ndarray
    probabilities: np.ndarray


def split_seams(frame: np.ndarray, net: DiceNet, found: list[DieCandidate], kept: list[int], doubted: list[int],
                typical: float, learned: LearnedParams) -> list[SeamSplit]:
    """Macao mode, a die still missing: the sure dice (`kept`) that are two touching dice found as
    one, the surest first.

    The detector can put a single peak on the seam between two touching dice, and the seam's crop
    (half of each) reads as a die, but not a plain one: only the dice of `kept` whose value the
    classifier doubted at first (`doubted`: those read turned) are tried. Each is read at the two
    points `macao_split_step` die sides either side of its centre along four axes, where both lie
    `macao_clearance` die sides clear of the other sure dice. A die's centre is where its crop
    looks most like a die: half a side off a lone die, the crop shows half of it and the table.
    So an axis splits the die when each of its ends is a sure die with a sure value and looks
    more like a die than the centre between them (all read turned, at the typical side); of a
    die's axes, the one whose less likely end is the likelier counts."""
    tried = [k for k in kept if k in doubted]
    if learned.macao_split_step <= 0.0 or not tried:
        return []
    step, clearance = learned.macao_split_step * typical, learned.macao_clearance * typical
    points: list[DieCandidate] = []
    axes: list[tuple[int, int, int]] = []  # (die, row of its centre, row of its first end; the second follows)
    for k in tried:
        die = dataclasses.replace(found[k], side=typical)
        others = [found[i] for i in kept if i != k]
        centre_row = len(points)
        points.append(die)
        for ux, uy in _FOUR_AXES:
            ends = [dataclasses.replace(die, cx=die.cx + sign * ux * step, cy=die.cy + sign * uy * step)
                    for sign in (-1.0, 1.0)]
            if all(clear_of(end, others, clearance) for end in ends):
                axes.append((k, centre_row, len(points)))
                points += ends
    if not axes:
        return []
    crops = crops_at_typical_side(frame, np.array([(c.cx, c.cy) for c in points]), typical, net)
    upright = net.classify(crops, 1, learned.classifier_batch)
    die_probability = 1.0 - upright[:, 0]

    def weaker_end(axis: tuple[int, int, int]) -> float:
        return float(min(die_probability[axis[2]], die_probability[axis[2] + 1]))

    best: dict[int, tuple[int, int, int]] = {}
    for axis in axes:
        k, centre_row, _ = axis
        if (die_probability[centre_row] < weaker_end(axis) and weaker_end(axis) >= learned.die_min_probability
                and (k not in best or weaker_end(axis) > weaker_end(best[k]))):
            best[k] = axis
    splits = []
    for k, centre_row, end_row in sorted(best.values(), key=weaker_end, reverse=True):
        rows = [centre_row, end_row, end_row + 1]
        readings = net.refine(crops[rows], upright[rows], learned.classifier_turns, learned.classifier_batch)
        centre, ends = readings[0], readings[1:]
        if (np.all(1.0 - ends[:, 0] >= learned.die_min_probability) and np.all(ends[:, 0] < centre[0])
                and np.all(np.max(ends[:, 1:], axis=1) >= learned.macao_value_min_probability)):
            splits.append(SeamSplit(k, (points[end_row], points[end_row + 1]), crops[rows[1:]], ends))
    return splits


def maps_at_dice_scale(detector: DiceDetector, frame: np.ndarray, learned: LearnedParams,
                       frame_long_side: int | None = None) -> tuple[np.ndarray, np.ndarray, float]:
    """The detector's maps (`DiceDetector.maps`) at `detector_long_side`, or, where the dice
    measure under `detector_small_die` px there, at the scale that makes them
    `detector_die_target` px (at most the frame's own).

    Shrunk to one fixed size, a frame whose dice are small (a camera high over the tray, a
    wide view) shows them at the bottom of the sizes the detector learned: it misses dice that
    touch and guesses their sides large, and every crop cut at that side shows the table."""
    heat, sides, scale = detector.maps(frame, learned.detector_long_side, frame_long_side)
    if learned.detector_small_die <= 0.0 or scale >= 1.0:
        return heat, sides, scale
    found = detector.peaks(heat, sides, scale, learned.detector_min_score, learned.detector_peak_window)
    if not found:
        return heat, sides, scale
    measured = typical_side(found) * scale
    if measured >= learned.detector_small_die:
        return heat, sides, scale
    long_side = round(learned.detector_long_side * learned.detector_die_target / measured)
    return detector.maps(frame, long_side, frame_long_side)


def find_faces(checked: np.ndarray, params: VisionParams, expect: ExpectMode, models: LearnedModels,
               learned: LearnedParams, debug: DebugSink | None = None,
               place: RegionPlace | None = None) -> list[DieFace]:
    """The dice the detector and classifier find in a checked frame, each with its body colour
    (`body_colours`) and, in macao mode, its pip polarity (`pip_polarities`); shared by the
    reader and the colour calibration, so both measure alike.

    In macao mode at most six: the likeliest, with doubtful ones marked "maybe not a die";
    when fewer than six are sure dice, the detector looks again beside those found (pictured
    for `debug`, if given), the other candidates are read again, and a die found on the seam
    of two touching dice is split. A die whose value is still doubted after all that is read
    again on its body (`read_doubted_on_body`). Small dice are found at the scale they need
    (`maps_at_dice_scale`). Dice the leaning check takes for cocked are marked so. `place`:
    where `checked`, a tray region, lies in the whole frame (default: it is the whole frame).
    """
    detector, net = models.detector, models.classifier
    heat, side_map, scale = maps_at_dice_scale(detector, checked, learned,
                                               None if place is None else place.frame_long_side)
    if debug is not None:
        debug.add(f"detector heat (die top-face centres; frame read at {scale:.0%} of its size)",
                  draw_heat(checked, heat, detector.stride / scale))
    found = _suppress_duplicates(detector.peaks(heat, side_map, scale, learned.detector_min_score,
                                                learned.detector_peak_window), learned.duplicate_distance)
    if not found:
        return []
    typical = typical_side(found)
    found = sized_like_the_dice(found, typical, learned.die_min_side_ratio)
    centres, sides, crops = crop_candidates(checked, found, typical, net, learned)
    upright = net.classify(crops, 1, learned.classifier_batch)
    sure_count = int(np.sum(1.0 - upright[:, 0] >= learned.die_min_probability))
    if expect == "macao" and sure_count < len(DIE_COLOURS):
        beside = _second_look(checked, detector, (heat, side_map, scale), found, typical, learned, debug)
        if beside:
            more_centres, more_sides, more_crops = crop_candidates(checked, beside, typical, net, learned)
            found = found + beside
            centres, sides = np.concatenate([centres, more_centres]), np.concatenate([sides, more_sides])
            crops = np.concatenate([crops, more_crops])
            upright = np.concatenate([upright, net.classify(more_crops, 1, learned.classifier_batch)])
    detected_at = [(c.cx, c.cy) for c in found]  # before any is read again elsewhere (debug picture)
    likeliest = [int(i) for i in np.argsort(upright[:, 0], kind="stable")]  # by P(not a die)
    sure = [i for i in likeliest if 1.0 - float(upright[i][0]) >= learned.die_min_probability]
    kept = apart(sure, found, learned.one_die_within * typical)
    seen_twice = set(sure) - set(kept)
    if expect == "macao":  # exactly six dice on the table: the six likeliest
        kept = kept[: len(DIE_COLOURS)]
    # Only a die read upright with less than the sure probability is read turned as well: the
    # turned reading is there to catch a doubtful one, and a plain die need not pay for it.
    turned = [i for i in kept if float(np.max(upright[i][1:])) < learned.classifier_sure_probability]
    probabilities = _turned_where(net, crops, upright, turned, learned)
    at_typical_side(checked, net, centres, sides, crops, probabilities, turned, typical, learned)
    if models.extra_classifiers and kept:
        # Each further classifier reads the kept dice in its own crop geometry, turned where the
        # first one was; all vote equally.
        again = [k for k, i in enumerate(kept) if i in turned]
        readings = [probabilities[kept]]
        for extra in models.extra_classifiers:
            extra_crops = crop_dice(checked, centres[kept], sides[kept], extra.crop_px, extra.window_sides)
            readings.append(_turned_where(extra, extra_crops, extra.classify(extra_crops, 1, learned.classifier_batch),
                                          again, learned))
        probabilities[kept] = np.mean(readings, axis=0)
    kept = [i for i in kept if 1.0 - float(probabilities[i][0]) >= learned.die_min_probability]
    doubtful: list[int] = []
    if expect == "macao":
        # Fewer than six sure dice: the other candidates are read again (any of them may be a die
        # the classifier saw off its centre or at the wrong size: a gray die in its long shadow
        # scores like the table), the likeliest first; then the likeliest of the rest join the
        # colour assignment (unsure), so that a die the classifier doubts still takes its colour
        # from the others.
        missing = len(DIE_COLOURS) - len(kept)
        others = [i for i in likeliest if i not in kept]
        again = others[: learned.macao_reread_most] if missing else []
        promoted = reread_candidates(checked, net, found, sides, crops, probabilities, again, typical, learned,
                                     [found[i] for i in kept])
        for i in sorted(promoted, key=lambda i: float(probabilities[i][0])):
            if len(kept) < len(DIE_COLOURS) and clear_of(found[i], [found[k] for k in kept],
                                                         learned.macao_clearance * typical):
                kept.append(i)
        missing = len(DIE_COLOURS) - len(kept)
        splits = split_seams(checked, net, found, kept, turned, typical, learned) if missing > 0 else []
        for split in splits[:missing]:
            # The die found on the seam becomes the first of the two; the second is a new candidate.
            found[split.index] = split.dice[0]
            sides[split.index] = typical
            crops[split.index] = split.crops[0]
            probabilities[split.index] = split.probabilities[0]
            found.append(split.dice[1])
            detected_at.append(detected_at[split.index])
            sides = np.append(sides, typical)
            crops = np.concatenate([crops, split.crops[1:]])
            probabilities = np.concatenate([probabilities, split.probabilities[1:]])
            kept.append(len(found) - 1)
        doubtful = sorted((i for i in others if i not in kept
                           and 1.0 - float(probabilities[i][0]) >= learned.macao_doubtful_min_probability),
                          key=lambda i: float(probabilities[i][0]))
        doubtful = [i for i in apart(kept + doubtful, found, learned.one_die_within * typical)
                    if i not in kept][: len(DIE_COLOURS) - len(kept)]
    least_value_probability = (learned.macao_value_min_probability if expect == "macao"
                               else learned.value_min_probability)
    if learned.doubted_on_body:
        # Last: in macao mode a die on the seam of two touching dice must be split first, not
        # moved onto one of them.
        read_doubted_on_body(checked, net, found, sides, crops, probabilities, kept, doubtful, typical,
                             least_value_probability, learned)
    chosen = sorted(kept + doubtful)
    centres = np.array([(c.cx, c.cy) for c in found])  # a candidate read again may have moved
    if debug is not None:
        debug.add("candidates (classifier: P(die), then value and its probability for those taken)",
                  draw_candidates(checked, [
                      CandidateMark(c.cx, c.cy, float(sides[i]), 1.0 - float(p[0]), int(np.argmax(p[1:])) + 1,
                                    float(np.max(p[1:])), i in chosen, i in seen_twice and i not in chosen,
                                    first if (c.cx, c.cy) != first else None)
                      for i, (c, p, first) in enumerate(zip(found, probabilities, detected_at))]))
    colour_crops, colours = chosen_colours(checked, net, crops[chosen], centres[chosen], sides[chosen], typical,
                                           params, learned)
    values = [int(np.argmax(probabilities[i][1:])) + 1 for i in chosen]
    # The polarity only prices colours: `any` mode names none, and a photo there can hold
    # twenty dice.
    polarities = (pip_polarities(colour_crops, values, net.window_sides, params, learned) if expect == "macao"
                  else [""] * len(chosen))
    # The dice's own median side, not the typical candidate's: on a busy board many small
    # candidates pull that one down, and the check reads a die filling its crop as leaning.
    dice_side = float(np.median([found[i].side for i in chosen])) if chosen else typical
    leaning = leaning_dice(checked, models.lean, centres[chosen], dice_side, learned,
                           None if place is None else place.view_centre, debug)
    glared = glare_at_centre(crops[chosen], values, net.window_sides, learned)
    faces: list[DieFace] = []
    for i, value, colour, polarity, cocked, glare in zip(chosen, values, colours, polarities, leaning, glared):
        c = found[i]
        confidence = float(probabilities[i][value])
        reason = (MAYBE_NOT_A_DIE if i in doubtful else LEANING if cocked else GLARE_AT_CENTRE if glare
                  else "" if confidence >= least_value_probability else DOUBTFUL_VALUE)
        side = float(sides[i])
        box = (round(c.cx - side / 2), round(c.cy - side / 2), round(side), round(side))
        faces.append(DieFace(box, value, confidence, reason, polarity, np.zeros((0, 2)), colour, True))
    return faces


def glare_at_centre(crops: np.ndarray, values: Sequence[int], window_sides: float,
                    learned: LearnedParams) -> list[bool]:
    """Per crop (centred on a die `window_sides` die sides wide): whether its read value is one a
    middle pip tells apart (2-5) and the lamp's mirror image covers where that pip would be.

    The classifier reads such dice as surely when it is wrong as when it is right (drawn scenes
    with glare: P 0.74-0.95 for its mistakes, 0.71-0.96 for the rest), so its probability cannot
    flag them; the bright patch can. A white pip alone is far smaller than a patch worth
    flagging, and a pip seen through a washed-out face leaves a hole in it."""
    if learned.glare_min_area <= 0 or len(crops) == 0:
        return [False] * len(crops)
    size = crops.shape[1]
    die_px = size / window_sides
    radius = _polar_grid(size, window_sides, 1)[0].reshape(size, size)
    centre = radius <= learned.glare_centre_radius
    glared = []
    for crop, value in zip(crops, values):
        if value not in _MIDDLE_PIP_PAIRS:
            glared.append(False)
            continue
        bright = (cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) >= learned.glare_lightness).astype(np.uint8)
        if bright[centre].mean() < learned.glare_centre_cover:
            glared.append(False)  # a middle pip, or its absence, shows at the centre
            continue
        _, patches, stats, _ = cv2.connectedComponentsWithStats(bright, connectivity=8)
        reaching = np.unique(patches[centre & (patches > 0)])
        area = float(stats[reaching, cv2.CC_STAT_AREA].max()) / die_px**2 if len(reaching) else 0.0
        glared.append(area >= learned.glare_min_area)
    return glared


def leaning_dice(frame: np.ndarray, lean: LeanNet | None, centres: np.ndarray, side: float,
                 learned: LearnedParams, view_centre: tuple[float, float] | None,
                 debug: DebugSink | None) -> list[bool]:
    """For each die at `centres` (top faces `side` px wide), whether the leaning check `lean`
    takes it for cocked (all False without it, and for dice within lean_min_offset sides of the
    point below the camera, `view_centre`: default the frame's centre); pictured for `debug`."""
    if lean is None or len(centres) == 0:
        return [False] * len(centres)
    below_camera = (frame.shape[1] / 2.0, frame.shape[0] / 2.0) if view_centre is None else view_centre
    offset = np.hypot(*(np.asarray(centres, float) - below_camera).T)
    far = offset >= learned.lean_min_offset * side
    cocked = np.zeros(len(centres), np.float32)
    cocked[far] = lean.cocked_probabilities(frame, centres[far], np.full(int(far.sum()), side), below_camera,
                                            offset[far] < learned.lean_both_ways_within * side)
    if debug is not None:
        debug.add("leaning check (P(cocked); the line points outward)", draw_leaning(
            frame, [(float(x), float(y), side, float(p)) for (x, y), p, checked in zip(centres, cocked, far) if checked],
            learned.lean_min_probability, below_camera, learned.lean_both_ways_within * side))
    return [bool(p >= learned.lean_min_probability) for p in cocked]


def read_with_model(
    frame: object,
    params: VisionParams,
    expect: ExpectMode,
    calibration: Calibration | None,
    models: LearnedModels,
    learned: LearnedParams,
    debug: DebugSink | None = None,
    place: RegionPlace | None = None,
) -> DiceReading:
    """Read the dice with the learned detector and classifier; same contract as read_dice.

    `place`: where `frame`, a tray region, lies in the camera's whole frame (default: it is the
    whole frame); the region is read at that frame's scale and measured from its centre.

    A die whose value the classifier doubts gets a second opinion from the classical pip
    reader (vision/second_opinion.py); `debug` receives a picture of those asked, if any.
    Colours (macao mode) come from the reader's own colour models and joint assignment; a
    calibration is used only when it was made with this reader's colour measure.
    """
    started = time.perf_counter()
    if expect not in ("macao", "any"):
        return DiceReading(message=f"unknown expect mode {expect!r}; use 'macao' or 'any'")
    try:
        checked = check_frame(frame, params)
    except FrameError as exc:
        return DiceReading(message=str(exc), ms=_ms(started))
    if is_blank(checked, params):
        return DiceReading(message="frame has no contrast (blank, black or blown out)", ms=_ms(started))
    faces, opinions = review_doubtful(checked, find_faces(checked, params, expect, models, learned, debug, place),
                                      params, learned)
    if debug is not None and opinions:
        debug.add("second opinion (classical pips on doubtful dice)", draw_second_opinions(checked, opinions))
    if not faces:
        return DiceReading(message="no dice found", ms=_ms(started))
    if expect == "any":
        dice = [_to_reading(face, None, face.reason) for face in faces]
        if debug is not None:
            debug.add(WHY_UNSURE, draw_faces(checked, [(face, None, True) for face in faces]))
        return DiceReading(dice=tuple(dice), ms=_ms(started), message=_unsure_note(dice))
    models_by_colour, calibration_note = colour_models(calibration, LEARNED_MEASURE, params)
    costs = cost_matrix(faces, models_by_colour, params, learned.colour_lightness_floor)
    assignment = assign_colours(costs, params.colour_max_cost)
    margins = assignment_margins(costs, assignment)
    swayed = swayed_by_doubtful(faces, costs, assignment, params.colour_max_cost)
    dice, drawn = [], []
    for face, colour_index, margin, sway in zip(faces, assignment, margins, swayed):
        if colour_index is None:
            drawn.append((dataclasses.replace(face, reason=NO_COLOUR_LEFT), None, False))
            continue
        reason = face.reason or ("colour unclear" if margin < learned.colour_margin_min or sway else "")
        dice.append(_to_reading(face, DIE_COLOURS[colour_index], reason))
        drawn.append((dataclasses.replace(face, reason=reason), DIE_COLOURS[colour_index], True))
    if debug is not None:
        debug.add(WHY_UNSURE, draw_faces(checked, drawn))
    note = _unsure_note(dice)
    if len(dice) != len(DIE_COLOURS):
        note = "; ".join(filter(None, [f"found {len(dice)} of {len(DIE_COLOURS)} dice", note]))
    note = "; ".join(filter(None, [note, calibration_note]))
    return DiceReading(dice=tuple(dice), ms=_ms(started), message=note)


def swayed_by_doubtful(faces: list[DieFace], costs: np.ndarray, assignment: list[int | None],
                       leave_out_cost: float) -> list[bool]:
    """Per face: whether its colour hangs on the candidates that may not be dice at all.

    A candidate the classifier doubts is a die (a fill-up when fewer than six are sure) takes a
    colour in the joint assignment, so that no sure die is given a doubted die's colour. But
    when it is no die (a shadow beside one, a cube), the colour it takes can push a sure die
    into another: the sure dice's colours are trusted only where the assignment without the
    doubted candidates gives them the same."""
    doubted = [face.reason == MAYBE_NOT_A_DIE for face in faces]
    if not any(doubted):
        return [False] * len(faces)
    sure_rows = [i for i, d in enumerate(doubted) if not d]
    alone = assign_colours(costs[sure_rows], leave_out_cost) if sure_rows else []
    swayed = [False] * len(faces)
    for row, colour in zip(sure_rows, alone):
        swayed[row] = colour != assignment[row]
    return swayed


def _to_reading(face: DieFace, colour: str | None, reason: str) -> DieReading:
    x, y, w, h = face.box
    unsure = bool(reason)
    return DieReading(x=x, y=y, w=w, h=h, colour=colour, value=None if unsure else face.value,
                      confidence=face.confidence, unsure=unsure)


def _unsure_note(dice: list[DieReading]) -> str:
    unsure = sum(d.unsure for d in dice)
    return f"{unsure} die/dice unsure" if unsure else ""


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0
