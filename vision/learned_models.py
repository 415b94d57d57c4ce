"""The learned networks and how they are loaded: the die detector (a heatmap over a shrunken
frame), the face classifier and the leaning check (over square crops centred on a die).

Each ONNX file has a JSON file beside it (same name, .json) with the geometry it was trained
for; the networks run in onnxruntime or OpenCV's DNN module (vision.onnx_net), never in torch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.heads import Head, HeadedNet, features_path
from vision.lean import LeanNet
from vision.learned_params import LearnedParams
from vision.onnx_net import CropNet, CropNetType, NetError, OnnxNet, image_blob, load_net
from vision.params import REPO_ROOT

CLASS_NAMES: tuple[str, ...] = ("not a die", "1", "2", "3", "4", "5", "6")


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


def crops_at_typical_side(frame: np.ndarray, centres: np.ndarray, typical: float, net: DiceNet) -> np.ndarray:
    """The classifier's crops at these centres, each cut at the frame's typical die side."""
    return crop_dice(frame, centres, np.full(len(centres), typical), net.crop_px, net.window_sides)


class DiceNet(CropNet):
    """Die-face classifier: crops in, probabilities over (not a die, 1..6) out."""

    @classmethod
    def load(cls, path: str | Path, runtime: str = "auto", head: Head | None = None) -> DiceNet:
        """The classifier at `path`; with `head`, its features net (`vision.heads`) followed by
        that last layer instead of its own. ModelError on any problem."""
        if head is None:
            return _load_crop_net(cls, path, runtime)
        net, meta = _load_onnx(features_path(model_path(path)), runtime)
        try:
            return cls.from_onnx(HeadedNet(net, head), meta)
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"{features_path(model_path(path))}: metadata lacks crop_px/window_sides") from exc

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
                    params: LearnedParams, typical: float | None = None,
                    min_score: float | None = None) -> list[DieCandidate]:
        """Weaker candidates, at least `min_score` (default `macao_look_beside_min_score`), once
        the heat of the dice already `found` is taken away.

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
        least = params.macao_look_beside_min_score if min_score is None else min_score
        return self.peaks(rest, sides, scale, least, params.detector_peak_window)


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
    probabilities are averaged with its own for the dice kept (an ensemble: `[vision.learned]
    second_classifier_path`, and more for tools.training.evaluate_learned; see
    tools/training/README.md), and the leaning-die check."""

    detector: DiceDetector
    classifier: DiceNet
    extra_classifiers: tuple[DiceNet, ...] = ()
    lean: LeanNet | None = None  # None: no leaning-die check
    lean_trouble: str = ""  # why the check is off although asked for (its model did not load)

    @classmethod
    def load(cls, params: LearnedParams, extra_classifier_paths: tuple[str, ...] = ()) -> LearnedModels:
        """The configured models (the second classifier too, when configured), and any further
        classifiers named."""
        runtime = params.runtime
        extras = ((params.second_classifier_path,) if params.second_classifier_path else ()) + extra_classifier_paths
        return cls(DiceDetector.load(params.detector_path, runtime), DiceNet.load(params.classifier_path, runtime),
                   tuple(DiceNet.load(path, runtime) for path in extras),
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

