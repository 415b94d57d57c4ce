"""The leaning-die check: is a die the reader found cocked (resting on an edge, no flat top)?

A camera straight above sees a flat die's top face and, off the middle of the picture, a
sliver of the side faces that turn towards the camera, on the die's inner side (towards the
picture's centre). A die leaning against the tray wall or against another die shows
something a flat die never does: a second face with pips, steeply tipped (outwards at a wall,
towards the die it rests on elsewhere). So each die is cut out turned so that the picture's
centre lies to its left ("outward crops"): the net can tell a flat die's inner sliver from a
leaning die's face. A small net trained on such crops (tools/training/train_lean.py) gives
P(cocked). The reader marks such a die unsure.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.onnx_net import CropNet, image_blob


def outward_crops(frame: np.ndarray, centres: np.ndarray, sides: np.ndarray, crop_px: int,
                  window_sides: float, view_centre: tuple[float, float] | None = None,
                  extra_turns_deg: np.ndarray | None = None) -> np.ndarray:
    """N x crop_px x crop_px x 3 crops, `window_sides` die sides wide, each turned so that the
    direction from `view_centre` (the point straight below the camera, in frame px; default
    the frame's centre) to the die points right, plus `extra_turns_deg` (training varies the
    turn a little). Area-resampled, like the classifier's crops."""
    height, width = frame.shape[:2]
    mid_x, mid_y = (width / 2.0, height / 2.0) if view_centre is None else view_centre
    crops = np.zeros((len(centres), crop_px, crop_px, 3), np.uint8)
    for i, ((cx, cy), side) in enumerate(zip(centres, sides)):
        size = max(4, int(math.ceil(float(side) * window_sides)))
        angle = math.degrees(math.atan2(cy - mid_y, cx - mid_x))
        if extra_turns_deg is not None:
            angle += float(extra_turns_deg[i])
        # getRotationMatrix2D turns the picture anticlockwise by `angle` on screen (y points
        # down), which brings a direction at `angle` (clockwise from +x on screen) onto +x.
        matrix = np.asarray(cv2.getRotationMatrix2D((float(cx), float(cy)), angle, 1.0), np.float64)
        matrix[:, 2] += (size / 2.0 - cx, size / 2.0 - cy)
        patch = cv2.warpAffine(frame, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        interpolation = cv2.INTER_AREA if size > crop_px else cv2.INTER_LINEAR
        crops[i] = cv2.resize(patch, (crop_px, crop_px), interpolation=interpolation)
    return crops


class LeanNet(CropNet):
    """Outward crop in, P(cocked) out; the ONNX net gives two logits (flat, cocked)."""

    def cocked_probabilities(self, frame: np.ndarray, centres: np.ndarray, sides: np.ndarray,
                             view_centre: tuple[float, float] | None = None,
                             both_ways: np.ndarray | None = None) -> np.ndarray:
        """P(cocked) of the dice at `centres` (N x 2, frame px) whose top faces are `sides` px
        wide; `view_centre` as for `outward_crops`. The dice marked in `both_ways` are also read
        turned round (outward taken the other way) and keep the lower P: near the point below
        the camera a tilted camera shows a flat die's side face on either side."""
        if len(centres) == 0:
            return np.zeros(0, np.float32)
        centres, sides = np.asarray(centres, float), np.asarray(sides, float)
        crops = outward_crops(frame, centres, sides, self.crop_px, self.window_sides, view_centre)
        again = np.flatnonzero(both_ways) if both_ways is not None else np.zeros(0, int)
        if len(again):
            turned = outward_crops(frame, centres[again], sides[again], self.crop_px, self.window_sides, view_centre,
                                   np.full(len(again), 180.0))
            crops = np.concatenate([crops, turned])
        logits = self._net.run(image_blob(crops)).reshape(len(crops), 2).astype(np.float64)
        cocked = 1.0 / (1.0 + np.exp(logits[:, 0] - logits[:, 1]))
        probabilities = cocked[: len(centres)].copy()
        probabilities[again] = np.minimum(probabilities[again], cocked[len(centres):])
        return probabilities.astype(np.float32)
