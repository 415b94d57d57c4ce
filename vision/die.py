"""Reading one die candidate: crop at reading scale, pips, layout check, confidence, body colour."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.face import TopFace, find_top_face
from vision.frame import WorkFrame
from vision.layout import LayoutFit, best_layout
from vision.params import VisionParams
from vision.pips import PipSet, Spot, count_faint_spots, find_all_spots, find_pips, local_contrast
from vision.segment import Candidate
from vision.unsure import BLURRED, GLARE


@dataclass(frozen=True)
class BodyColour:
    """A die's body colour in OpenCV 8-bit Lab, with pips and glare left out."""

    lightness: float  # low percentile of L: the die's own shade, not its highlights
    a: float  # median a - 128
    b: float  # median b - 128

    @property
    def chroma(self) -> float:
        return float(np.hypot(self.a, self.b))

    @property
    def hue_deg(self) -> float:
        return float(np.degrees(np.arctan2(self.b, self.a)) % 360.0)


@dataclass(frozen=True)
class DieFace:
    """What the reader made of one candidate, in frame pixels."""

    box: tuple[int, int, int, int]  # x, y, w, h in the frame
    value: int | None  # None: no valid pip layout
    confidence: float
    reason: str  # why it is unsure or not a die; empty when read cleanly
    polarity: str  # "light", "dark", or "" (undecided: the face does not tell)
    pips: np.ndarray  # N x 2 pip centres in frame pixels
    colour: BodyColour
    is_die: bool  # False for pipless blobs (action cubes, clutter)


def read_candidate(
    frame: np.ndarray, work: WorkFrame, candidate: Candidate, params: VisionParams, die_side: float | None = None
) -> DieFace:
    """Crop the candidate from the full frame at reading scale and read its pips.

    `die_side` (coarse pixels) is the frame's typical die size when known; the crop is
    scaled by it rather than by the blob, which may include a shadow or a neighbour.
    """
    crop, mask, origin, zoom = _crop(frame, work, candidate, params, die_side or candidate.side)
    die_px = params.read_die_px
    contrast = local_contrast(crop, die_px)
    spots = find_all_spots(contrast, die_px, params)
    centre = _face_seed(spots, mask, die_px, params)
    ycrcb = cv2.cvtColor(crop, cv2.COLOR_BGR2YCrCb)
    face = find_top_face(ycrcb, np.maximum(contrast[0], contrast[1]), centre, die_px, params)
    if face is not None:
        side, angle, centre, area = face.side, face.angle_deg, face.centre, face.search_area
    else:
        side, angle, area = float(die_px), candidate.angle, _search_area(mask, centre, die_px, params)
    pip_sets = find_pips(spots, area, die_px, params)
    fits = [(best_layout(p.centres, p.areas, side, angle, centre, params), p) for p in pip_sets]
    valid = [(f, p) for f, p in fits if not f.reason]
    box = _frame_box(work, candidate) if face is None else _face_box(face, origin, zoom)
    any_pips = any(len(p.centres) for p in pip_sets)

    body = _body_colour(crop, face.region if face is not None else mask, pip_sets, params)
    if not valid:
        chosen_fit, chosen = min(fits, key=lambda fp: (fp[0].error, -len(fp[1].centres)))
        reason = chosen_fit.reason if any_pips else "no pips"
        return DieFace(box, None, 0.0, reason, chosen.polarity, _to_frame(chosen.centres, origin, zoom), body,
                       is_die=any_pips)
    # More pips in a valid layout is stronger evidence than fewer (a lone spot may be glare).
    valid.sort(key=lambda fp: (-fp[0].value, fp[0].error))
    fit, pips = valid[0]
    confidence, reason = _confidence(fit, pips, valid, crop, mask, contrast, area, params)
    if fit.value == 1 and face is None and not reason:
        reason = "a lone spot without a clear face around it"
    if face is not None and not reason and _pip_in_empty_place(face, pips.centres[list(fit.kept)], pips, contrast,
                                                               params):
        reason = "a faint spot where the layout has no pip"
    kept = pips.centres[list(fit.kept)]
    return DieFace(box, fit.value, confidence, reason, pips.polarity, _to_frame(kept, origin, zoom), body,
                   is_die=True)


def _confidence(
    fit: LayoutFit,
    pips: PipSet,
    valid: list[tuple[LayoutFit, PipSet]],
    crop: np.ndarray,
    mask: np.ndarray,
    contrast: tuple[np.ndarray, np.ndarray],
    area: np.ndarray,
    params: VisionParams,
) -> tuple[float, str]:
    """Confidence in 0-1 and the reason when it is too low to trust."""
    layout = 1.0 - fit.error / params.layout_error_zero
    strength = min(1.0, pips.contrast / params.pip_contrast_full)
    confidence = min(layout, strength) * params.rejected_spot_penalty ** (pips.rejected + fit.dropped)
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    sharpness = float(cv2.Laplacian(grey, cv2.CV_32F)[mask > 0].var()) if np.any(mask) else 0.0
    if sharpness < params.blur_min_sharpness:
        return confidence, BLURRED
    if fit.value == 1 and count_faint_spots(pips, contrast, area, params.read_die_px, params):
        return confidence, "a lone pip beside faint spots"
    if len(valid) > 1 and valid[1][0].value != fit.value and valid[1][0].value > 1:
        return confidence, "pips read both ways"
    glare = float(np.mean(grey[mask > 0] >= params.glare_level)) if np.any(mask) else 0.0
    if glare > params.glare_max_face_frac:
        return confidence, GLARE
    if confidence < params.confidence_min:
        return confidence, "low confidence"
    return confidence, ""


def _pip_in_empty_place(
    face: TopFace, kept: np.ndarray, pips: PipSet, contrast: tuple[np.ndarray, np.ndarray], params: VisionParams
) -> bool:
    """True when a place of the 3x3 pip grid that the reading leaves empty shows a faint pip.

    A three whose middle pip is washed out reads as a two, a five as a four: the grid
    place that should be empty tells them apart.
    """
    signed = contrast[0] if pips.polarity == "light" else contrast[1]
    step = params.pip_grid_step * face.side
    turn = np.radians(face.angle_deg)
    across, down = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    radius = max(1, int(round(params.pip_grid_probe * step)))
    height, width = signed.shape
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            place = face.centre + step * (i * across + j * down)
            if len(kept) and np.min(np.hypot(*(kept - place).T)) < step / 2:
                continue
            x, y = int(round(place[0])), int(round(place[1]))
            window = signed[max(0, y - radius) : min(height, y + radius + 1), max(0, x - radius) : min(width, x + radius + 1)]
            if window.size and float(np.median(window)) > params.pip_contrast_faint:
                return True
    return False


def _face_seed(spots: dict[str, list[Spot]], mask: np.ndarray, die_px: int, params: VisionParams) -> np.ndarray:
    """Where the top face most likely is: among the pip-like spots on the blob (a shadow has
    none), else the blob's centre."""
    found = [p.centres for p in find_pips(spots, mask, die_px, params) if len(p.centres)]
    if not found:
        return _mask_centre(mask)
    return np.median(max(found, key=len), axis=0)


def _crop(
    frame: np.ndarray, work: WorkFrame, candidate: Candidate, params: VisionParams, die_side: float
) -> tuple[np.ndarray, np.ndarray, tuple[float, float], float]:
    """Crop around the candidate (with margin) from the frame, resized so a die is read_die_px wide."""
    x, y, w, h = candidate.box
    margin = int(np.ceil(die_side * params.crop_margin_frac))
    coarse_h, coarse_w = work.image.shape[:2]
    cx0, cy0 = max(0, x - margin), max(0, y - margin)
    cx1, cy1 = min(coarse_w, x + w + margin), min(coarse_h, y + h + margin)
    coarse_mask = np.zeros((cy1 - cy0, cx1 - cx0), np.uint8)
    coarse_mask[y - cy0 : y - cy0 + h, x - cx0 : x - cx0 + w] = candidate.mask
    inv = 1.0 / work.scale
    fx0, fy0 = work.offset[0] + cx0 * inv, work.offset[1] + cy0 * inv
    fx1, fy1 = work.offset[0] + cx1 * inv, work.offset[1] + cy1 * inv
    full_h, full_w = frame.shape[:2]
    ix0, iy0 = max(0, int(fx0)), max(0, int(fy0))
    ix1, iy1 = min(full_w, int(np.ceil(fx1))), min(full_h, int(np.ceil(fy1)))
    patch = frame[iy0:iy1, ix0:ix1]
    zoom = params.read_die_px / max(die_side * inv, 1.0)
    size = (max(1, round((ix1 - ix0) * zoom)), max(1, round((iy1 - iy0) * zoom)))
    interpolation = cv2.INTER_AREA if zoom < 1.0 else cv2.INTER_LINEAR
    crop = cv2.resize(patch, size, interpolation=interpolation)
    mask = cv2.resize(coarse_mask, size, interpolation=cv2.INTER_LINEAR)
    mask = np.where(mask >= 128, 255, 0).astype(np.uint8)
    return crop, mask, (float(ix0), float(iy0)), zoom


def _search_area(mask: np.ndarray, centre: np.ndarray, die_px: int, params: VisionParams) -> np.ndarray:
    """Where pips may lie: the blob shrunk a little (its rim is edge, not pips), plus a disc
    around its centre (a pale die on pale cloth is segmented only in part)."""
    erode_px = max(1, int(die_px * params.crop_margin_frac / 2))
    inner = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * erode_px + 1, 2 * erode_px + 1)))
    disc = np.zeros_like(mask)
    radius = int(round(params.pip_search_radius * die_px))
    cv2.circle(disc, (int(round(centre[0])), int(round(centre[1]))), radius, (255,), -1)
    return cv2.bitwise_or(inner, disc)


def _mask_centre(mask: np.ndarray) -> np.ndarray:
    moments = cv2.moments(mask, binaryImage=True)
    if moments["m00"] == 0:
        return np.array([mask.shape[1] / 2.0, mask.shape[0] / 2.0])
    return np.array([moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]])


def _face_box(face: TopFace, origin: tuple[float, float], zoom: float) -> tuple[int, int, int, int]:
    """The top face's upright bounding square in frame pixels (the die's position, shadow left out)."""
    half = face.side / 2.0
    x0, y0 = _to_frame(np.array([face.centre - half]), origin, zoom)[0]
    size = round(face.side / zoom)
    return (round(x0), round(y0), size, size)


def _frame_box(work: WorkFrame, candidate: Candidate) -> tuple[int, int, int, int]:
    x, y, w, h = candidate.box
    inv = 1.0 / work.scale
    return (round(work.offset[0] + x * inv), round(work.offset[1] + y * inv), round(w * inv), round(h * inv))


def _to_frame(centres: np.ndarray, origin: tuple[float, float], zoom: float) -> np.ndarray:
    return centres / zoom + np.array(origin) if len(centres) else np.zeros((0, 2))


def _body_colour(crop: np.ndarray, mask: np.ndarray, pip_sets: list[PipSet], params: VisionParams) -> BodyColour:
    """Die colour from its top face (or blob) minus pips and glare (glare carries the lamp's colour).

    The top face rather than the blob: a blob may include a shadow or a side face in shade."""
    keep = mask.copy()
    for pips in pip_sets:
        for (cx, cy), area in zip(pips.centres, pips.areas):
            radius = int(round(np.sqrt(area / np.pi) * params.pip_exclusion_scale))
            cv2.circle(keep, (int(round(cx)), int(round(cy))), radius, (0,), -1)
    body = keep > 0
    if not np.any(body):
        body = np.ones_like(body)
    # Only the chosen pixels go through the (costly) Lab conversion.
    pixels = cv2.cvtColor(crop[body].reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3)
    unglared = pixels[pixels[:, 0] < params.glare_level]
    if len(unglared):
        pixels = unglared
    lightness = float(np.percentile(pixels[:, 0], params.body_lightness_percentile))
    a = float(np.median(pixels[:, 1])) - 128.0
    b = float(np.median(pixels[:, 2])) - 128.0
    return BodyColour(lightness=lightness, a=a, b=b)
