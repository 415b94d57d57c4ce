"""Finding a die's top face inside its crop: the square of the die's own colour around its centre.

The blob from segmentation may include side faces, a shadow or a neighbour; the
top face is the region connected to the blob's centre whose colour stays close
to the colour sampled there (pips left out), with the pip holes filled. Its
minimum-area rectangle gives the face's centre, side and turn, against which the
pip layout is checked; pips are looked for only inside it, away from its rim
(where bevel highlights and edge shadows make pip-like spots).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.params import VisionParams


@dataclass(frozen=True)
class TopFace:
    """The top face in crop pixels."""

    centre: np.ndarray  # (x, y)
    side: float
    angle_deg: float
    region: np.ndarray  # uint8 0/255: the whole face (for its colour)
    search_area: np.ndarray  # uint8 0/255: where pips may lie


def find_top_face(
    colours: np.ndarray, spot_strength: np.ndarray, centre: np.ndarray, die_px: int, params: VisionParams
) -> TopFace | None:
    """The top face around `centre`, or None when no clean square face is there.

    `colours` is the crop in YCrCb; `spot_strength` is how much each pixel stands out
    from its surroundings (pips high).
    """
    height, width = colours.shape[:2]
    seed = np.zeros((height, width), np.uint8)
    cx, cy = int(round(centre[0])), int(round(centre[1]))
    cv2.circle(seed, (cx, cy), max(2, int(params.face_seed_radius * die_px)), (255,), -1)
    samples = colours[(seed > 0) & (spot_strength < params.pip_contrast)]
    if len(samples) < params.face_min_samples:
        return None
    body = np.median(samples, axis=0)
    chroma = params.face_colour_tolerance / params.foreground_chroma_weight
    tolerance = np.array([params.face_colour_tolerance, chroma, chroma])
    similar = cv2.inRange(colours, np.clip(body - tolerance, 0, 255), np.clip(body + tolerance, 0, 255))
    pip_px = max(3, int(params.pip_max_diameter_frac * die_px) | 1)
    similar = cv2.morphologyEx(similar, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (pip_px, pip_px)))
    count, labels = cv2.connectedComponents(similar, connectivity=4)
    inside = labels[seed > 0]
    inside = inside[inside > 0]
    if count <= 1 or len(inside) == 0:
        return None
    connected = (labels == np.bincount(inside).argmax()).astype(np.uint8)
    contours, _ = cv2.findContours(connected, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    (fx, fy), (fw, fh), angle = cv2.minAreaRect(hull)
    side = float(np.sqrt(fw * fh))
    if min(fw, fh) <= 0 or max(fw, fh) / min(fw, fh) > params.face_max_aspect:
        return None
    if not params.face_min_side_frac * die_px <= side <= params.face_max_side_frac * die_px:
        return None
    region = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(region, hull, (255,))
    margin = max(1, int(round(params.face_edge_margin * side)))
    area = cv2.erode(region, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * margin + 1, 2 * margin + 1)))
    # Corner pips sit about 0.4 of a side from the centre; the face's own corners (bevel
    # highlights) about 0.7: a disc between the two keeps the one and drops the other.
    disc = np.zeros_like(area)
    cv2.circle(disc, (int(round(fx)), int(round(fy))), max(1, int(round(params.face_pip_radius * side))), (255,), -1)
    area = cv2.bitwise_and(area, disc)
    return TopFace(centre=np.array([fx, fy]), side=side, angle_deg=float(angle), region=region, search_area=area)
