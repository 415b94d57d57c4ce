"""Synthetic top-down tray scenes of the six Macao dice, for tests and demos.

Every scene is drawn from a small 3-D model (boxes seen by a pinhole camera
straight above the table), so perspective, visible side faces, shadows and a
leaning ("cocked") die come out consistent with the labels. Everything is pure
numpy + OpenCV and deterministic per seed: the same seed gives the same pixels.

    frame, labels = render_scene(7)                      # one still scene
    sequence = render_roll_sequence(7, n_frames=30)      # a roll coming to rest
    python -m tools.synth OUTDIR --count 100 --seed 1   # a labelled folder

With `--randomise` (`render_randomised`) each scene also draws what the reader must not
depend on (table, dice style, size, camera tilt and kind, blur, light; `tools.scene_factors`),
and `--hold-out` / `--only` build sets with a factor's value left out or alone.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence, TypeVar

import cv2
import numpy as np

from tools.scene_factors import allowed_values, draw_factors, parse_choices, scene_keywords
from tools.synth_tables import MORE_TABLES, more_table
from vision.types import DIE_COLOURS

DIE_MM = 16.0
CAMERA_HEIGHT_MM = 600.0
TOUCH_GAP_MM = 0.7  # the rendered-dev sets call dice closer than this "touching"
TRAY_WALL_MM = 10.0  # wall thickness
TRAY_WALL_HEIGHT_MM = 22.0
SUPERSAMPLE = 4  # bodies are drawn this many times larger, then area-averaged

TABLES: tuple[str, ...] = ("grey_card", "wood", "green_felt", "dark")  # drawn at random when none is given
ALL_TABLES: tuple[str, ...] = TABLES + MORE_TABLES  # any of these may be asked for
DICE_STYLES: tuple[str, ...] = ("macao", "white", "ivory", "coloured", "translucent", "marbled")
PIP_STYLES: tuple[str, ...] = ("usual", "black", "white", "coloured")  # usual: the style's own
CORNERS: tuple[str, ...] = ("rounded", "sharp")
TINTS: tuple[str, ...] = ("neutral", "warm", "cool")

# Plausible sRGB body colours of the dice (0-1); cubes are painted wood, a bit duller.
DIE_SRGB: dict[str, tuple[float, float, float]] = {
    "red": (0.74, 0.11, 0.08),
    "blue": (0.08, 0.23, 0.60),
    "green": (0.07, 0.50, 0.18),
    "black": (0.035, 0.035, 0.04),
    "gray": (0.44, 0.44, 0.45),
    "violet": (0.33, 0.16, 0.55),
}
CUBE_SRGB: dict[str, tuple[float, float, float]] = {
    "red": (0.70, 0.13, 0.09),
    "blue": (0.12, 0.27, 0.58),
    "green": (0.12, 0.48, 0.20),
    "black": (0.06, 0.055, 0.05),
    "gray": (0.50, 0.49, 0.47),
    "violet": (0.38, 0.20, 0.52),
}
WHITE_PIP_SRGB = (0.93, 0.92, 0.88)
BLACK_PIP_SRGB = (0.05, 0.05, 0.05)
SKIN_TONES_SRGB: tuple[tuple[float, float, float], ...] = (
    (0.86, 0.64, 0.52),
    (0.72, 0.50, 0.38),
    (0.47, 0.31, 0.22),
)

# Pip centres on a face whose half-width is 1 (u to the right, v down the face).
_D = 0.52
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-_D, -_D), (_D, _D)),
    3: ((-_D, -_D), (0.0, 0.0), (_D, _D)),
    4: ((-_D, -_D), (_D, -_D), (-_D, _D), (_D, _D)),
    5: ((-_D, -_D), (_D, -_D), (0.0, 0.0), (-_D, _D), (_D, _D)),
    6: ((-_D, -_D), (-_D, 0.0), (-_D, _D), (_D, -_D), (_D, 0.0), (_D, _D)),
}
PIP_RADIUS = 0.19  # in the same face units

# Local face normals of a die and the value printed on each (opposite faces sum to 7),
# with the two in-face axes (u, v) used to lay out the pips.
_FACES: tuple[tuple[np.ndarray, np.ndarray, np.ndarray, int], ...] = tuple(
    (np.array(n, float), np.array(u, float), np.array(v, float), value)
    for n, u, v, value in (
        ((0, 0, 1), (1, 0, 0), (0, 1, 0), 1),
        ((0, 0, -1), (1, 0, 0), (0, -1, 0), 6),
        ((1, 0, 0), (0, 1, 0), (0, 0, 1), 2),
        ((-1, 0, 0), (0, -1, 0), (0, 0, 1), 5),
        ((0, 1, 0), (-1, 0, 0), (0, 0, 1), 3),
        ((0, -1, 0), (1, 0, 0), (0, 0, 1), 4),
    )
)


@dataclass(frozen=True)
class SceneOptions:
    """What a scene should contain; None means "pick at random from the seed"."""

    width: int = 1600
    height: int = 900
    die_px: float | None = None  # top-face width at the image centre, 26-63 px
    table: str | None = None  # one of TABLES
    tint: str | None = None  # one of TINTS
    dim: bool | None = None
    cubes: int | None = None  # distractor action cubes
    cubes_near_dice: bool | None = None  # put some cubes right beside a die of their colour
    touching: bool | None = None  # force a pair of dice that touch
    cocked: bool | None = None  # one die leaning, no flat top
    glare: bool | None = None  # a bright specular spot on a die's top face
    hard_light: bool | None = None  # sharp, long shadows instead of soft ones
    blur_sigma: float | None = None  # Gaussian blur of the final image, px
    tilt_deg: float | None = None  # camera tilt from straight down (random 0-6)
    cards: int | None = None  # game cards lying on the table (white with coloured print), random 0-2
    colour_spread: float | None = None  # per-channel variation of the dice paint, 0-0.12 (random)
    layout_seed: int | None = None  # another throw on the same table: dice and cubes from this seed
    values: tuple[int, ...] | None = None  # the six dice's pips in DIE_COLOURS order (a given roll)
    gray_black_pips: bool | None = None
    # Dice of other sets instead of Macao's six: any paint (half of them marbled), pips white,
    # black, red, gold or blue; for teaching the `any` mode reader (colour names in the labels
    # then only tell the six dice apart). Never random: a scene has it only when asked.
    foreign_dice: bool = False
    # Flat dice that came to rest against a tray wall (each with a chance of 0.4): what a die
    # leaning on the wall must be told from. Never random, like foreign_dice.
    dice_by_walls: bool = False
    # With a cocked die: it leans against the side of another die instead of a tray wall, so
    # anywhere in the tray and facing any way. Never random, like foreign_dice.
    cocked_on_a_die: bool = False
    # With a cocked die: it leans against an action cube (8-10 mm, lower than a die, so the die
    # tips less, 20-27 up to 20-32 degrees), somewhere in the tray. Never random; not with
    # cocked_on_a_die.
    cocked_on_a_cube: bool = False
    # With foreign_dice: about half of the dice are of smoky, see-through plastic, through
    # which the pips of their hidden faces show faintly (as on translucent sets). Own stream.
    translucent_dice: bool = False
    tray: bool = True
    # The randomised scenes' factors (`tools.scene_factors`); each None or False leaves the
    # scene as above. dice_style (one of DICE_STYLES) repaints the six dice, pips (PIP_STYLES)
    # repaints their pips, corners (CORNERS) rounds or sharpens them; all from own streams.
    dice_style: str | None = None
    pips: str | None = None
    corners: str | None = None
    motion_blur_px: float = 0.0  # length of a straight smear (a die still rolling, a shaky hand)
    aim_at_tray: bool = False  # a tilted camera looks at the tray rather than leaning over it
    webcam: bool = False  # a cheap webcam: strong and coloured noise, then JPEG at a low quality
    factors: tuple[tuple[str, str], ...] = ()  # the factor values a scene was drawn with (for its label)


@dataclass(frozen=True)
class DieLabel:
    """Ground truth for one die, in pixels of the rendered frame."""

    colour: str
    value: int | None  # None when cocked
    center: tuple[float, float]  # centre of the most upward face
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 around the whole die
    cocked: bool
    touching: tuple[str, ...]  # colours of the dice it touches
    face_side: float = 0.0  # mean side of its most upward face in the picture, px (far dice are smaller)

    @property
    def touches_other_die(self) -> bool:
        return bool(self.touching)

    def to_json(self) -> dict[str, object]:
        """The die in the label format of shared/datasets/dice-rendered-dev."""
        return {
            "colour": self.colour,
            "value": self.value,
            "cocked": self.cocked,
            "center_px": [round(c, 1) for c in self.center],
            "bbox_px": [round(c, 1) for c in self.box],
            "touches_other_die": self.touches_other_die,
            "touching": list(self.touching),
            "face_side_px": round(self.face_side, 1),
        }


@dataclass(frozen=True)
class SceneLabels:
    """Ground truth for a frame: the dice and the conditions it was drawn under."""

    dice: tuple[DieLabel, ...]
    conditions: dict[str, object] = field(default_factory=dict)

    def by_colour(self) -> dict[str, DieLabel]:
        return {d.colour: d for d in self.dice}


@dataclass(frozen=True)
class RollSequence:
    """Frames of one roll coming to rest, with per-frame truth."""

    frames: tuple[np.ndarray, ...]
    timestamps_s: tuple[float, ...]
    moving: tuple[bool, ...]  # a die moved since the previous frame, or a hand is in view
    hand_in_view: tuple[bool, ...]
    labels: SceneLabels  # the dice at rest (valid from the first still frame on)


# --------------------------------------------------------------------------- geometry


def _rotation(axis: Sequence[float], angle: float) -> np.ndarray:
    """Rotation matrix about `axis` by `angle` radians (Rodrigues)."""
    k = np.asarray(axis, float)
    k = k / np.linalg.norm(k)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(angle) * kx + (1 - math.cos(angle)) * kx @ kx


def _face_up(value: int) -> np.ndarray:
    """Rotation that turns the face with `value` pips to point straight up."""
    normal = next(n for n, _, _, v in _FACES if v == value)
    up = np.array([0.0, 0.0, 1.0])
    cos = float(normal @ up)
    if cos > 0.999:
        return np.eye(3)
    if cos < -0.999:
        return _rotation((1, 0, 0), math.pi)
    return _rotation(np.cross(normal, up), math.acos(cos))


@dataclass(frozen=True)
class _Camera:
    """Pinhole above the world origin (or above `ground`), looking down (tilted by `turn`); X right,
    Y down the image, Z up (mm)."""

    f: float
    cx: float
    cy: float
    height_mm: float = CAMERA_HEIGHT_MM
    turn: np.ndarray = field(default_factory=lambda: np.eye(3))  # world -> camera rotation
    ground: tuple[float, float] = (0.0, 0.0)  # the table point straight below the camera

    @property
    def eye(self) -> np.ndarray:
        return np.array([self.ground[0], self.ground[1], self.height_mm])

    def project(self, points: np.ndarray) -> np.ndarray:
        rel = (points - self.eye) @ self.turn.T
        depth = -rel[..., 2]
        return np.stack((self.cx + self.f * rel[..., 0] / depth, self.cy + self.f * rel[..., 1] / depth), -1)

    def table_extent(self, width: int, height: int) -> tuple[float, float, float, float]:
        """The largest upright rectangle of the table (mm) seen inside the frame: x0, y0, x1, y1."""
        corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], float)
        rays = np.stack(((corners[:, 0] - self.cx) / self.f, (corners[:, 1] - self.cy) / self.f, -np.ones(4)), -1)
        rays = rays @ self.turn  # camera -> world
        on_table = rays[:, :2] * (self.height_mm / -rays[:, 2:3]) + np.array(self.ground)
        left, right = max(on_table[0, 0], on_table[3, 0]), min(on_table[1, 0], on_table[2, 0])
        top, bottom = max(on_table[0, 1], on_table[1, 1]), min(on_table[2, 1], on_table[3, 1])
        return (float(left), float(top), float(right), float(bottom))


@dataclass(frozen=True)
class _Box:
    """A die, cube or tray wall: a rounded box with optional pips."""

    centre: np.ndarray  # mm
    rotation: np.ndarray  # local -> world
    half: np.ndarray  # half sizes along local x, y, z (mm)
    colour: np.ndarray  # linear RGB
    rounding: float = 0.0  # corner radius as a fraction of the face half-width
    pip_colour: np.ndarray | None = None  # linear RGB; None: no pips
    glare: tuple[float, float, float, float] | None = None  # u, v, radius, strength on the top face
    marble: tuple[np.ndarray, int] | None = None  # second paint (linear RGB) swirled in, and its pattern's seed
    translucency: float = 0.0  # how strongly the hidden faces' pips show through the body (0: opaque)

    def corners(self) -> np.ndarray:
        signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], float)
        return self.centre + (signs * self.half) @ self.rotation.T

    def face_point(self, face: int, uv: np.ndarray) -> np.ndarray:
        """World points of face-local (u, v) coordinates in [-1, 1]."""
        n, u, v, _ = _FACES[face]
        local = (
            n * (self.half @ np.abs(n))
            + uv[..., :1] * u * (self.half @ np.abs(u))
            + uv[..., 1:2] * v * (self.half @ np.abs(v))
        )
        return self.centre + local @ self.rotation.T

    def top_face(self) -> int:
        """Index of the face pointing most upward."""
        return int(np.argmax([(self.rotation @ n)[2] for n, _, _, _ in _FACES]))

    def lowest_z(self) -> float:
        return float(self.corners()[:, 2].min())


def _rounded_square(rounding: float, scale: float = 1.0, per_corner: int = 6) -> np.ndarray:
    """Outline of a square [-1, 1]^2 with rounded corners, as (N, 2) face coordinates."""
    if rounding <= 0:
        return np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * scale
    inner = 1.0 - rounding
    pts = []
    for (sx, sy), start in (((1, 1), 0.0), ((-1, 1), 0.5), ((-1, -1), 1.0), ((1, -1), 1.5)):
        for a in np.linspace(start * math.pi, (start + 0.5) * math.pi, per_corner):
            pts.append((sx * inner + rounding * math.cos(a), sy * inner + rounding * math.sin(a)))
    return np.array(pts) * scale


def _circle(cx: float, cy: float, r: float, n: int = 14) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack((cx + r * np.cos(a), cy + r * np.sin(a)), -1)


def _footprint(box: _Box) -> np.ndarray:
    """Convex outline of the box seen from straight above, (N, 2) in mm."""
    hull = cv2.convexHull(box.corners()[:, :2].astype(np.float32))
    return hull.reshape(-1, 2).astype(float)


def _polygon_gap(a: np.ndarray, b: np.ndarray) -> float:
    """Distance between two convex polygons (0 when they overlap)."""
    if _overlaps(a, b):
        return 0.0

    def point_edges(points: np.ndarray, poly: np.ndarray) -> float:
        best = math.inf
        for p0, p1 in zip(poly, np.roll(poly, -1, 0)):
            d = p1 - p0
            t = np.clip(((points - p0) @ d) / max(d @ d, 1e-12), 0, 1)
            best = min(best, float(np.min(np.linalg.norm(points - (p0 + t[:, None] * d), axis=1))))
        return best

    return min(point_edges(a, b), point_edges(b, a))


def _overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    """Separating-axis test for two convex polygons."""
    for poly in (a, b):
        for p0, p1 in zip(poly, np.roll(poly, -1, 0)):
            axis = np.array([p0[1] - p1[1], p1[0] - p0[0]])
            pa, pb = a @ axis, b @ axis
            if pa.max() < pb.min() or pb.max() < pa.min():
                return False
    return True


# --------------------------------------------------------------------------- drawing


def _srgb_to_linear(c: Sequence[float]) -> np.ndarray:
    return np.asarray(c, np.float32) ** 2.2


def _shade(normal_world: np.ndarray, light: np.ndarray, ambient: float) -> float:
    return ambient + (1.0 - ambient) * max(0.0, float(normal_world @ light))


def _draw_box(
    canvas: np.ndarray, box: _Box, cam: _Camera, light: np.ndarray, ambient: float, light_rgb: np.ndarray
) -> None:
    """Draw one box into the linear float canvas, supersampled for smooth edges."""
    corner_px = cam.project(box.corners())
    x0, y0 = np.floor(corner_px.min(0)).astype(int) - 2
    x1, y1 = np.ceil(corner_px.max(0)).astype(int) + 2
    h_img, w_img = canvas.shape[:2]
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w_img), min(y1, h_img)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    ss = SUPERSAMPLE
    patch = np.zeros(((y1 - y0) * ss, (x1 - x0) * ss, 3), np.float32)
    alpha = np.zeros(patch.shape[:2], np.float32)
    eye = cam.eye

    def to_patch(points_world: np.ndarray) -> np.ndarray:
        px = (cam.project(points_world) - (x0, y0)) * ss
        return np.round(px * 8).astype(np.int32)  # 3 fractional bits for cv2's shift

    def fill(img: np.ndarray, poly: np.ndarray, value: object) -> None:
        cv2.fillPoly(img, [poly], value, lineType=cv2.LINE_8, shift=3)

    visible = []
    for index, (n, _, _, _) in enumerate(_FACES):
        normal = box.rotation @ n
        centre = box.face_point(index, np.zeros((1, 2)))[0]
        if normal @ (eye - centre) > 0:
            visible.append((index, normal))
    outline = _rounded_square(box.rounding)
    shades = {i: _shade(n, light, ambient) for i, n in visible}
    silhouette = np.concatenate([to_patch(box.face_point(i, outline)) for i, _ in visible])
    hull = cv2.convexHull(silhouette)
    edge = box.colour * light_rgb * (0.8 * float(np.mean(list(shades.values()))))
    fill(patch, hull, edge.tolist())
    fill(alpha, hull, 1.0)
    bevel = 0.9 if box.rounding > 0 else 1.0
    top = box.top_face()
    veins = _marble_veins(patch.shape[:2], box.marble[1]) if box.marble is not None else None
    for index, _normal in visible:
        colour = box.colour * light_rgb * shades[index]
        face = to_patch(box.face_point(index, outline * bevel))
        fill(patch, face, colour.tolist())
        if veins is not None and box.marble is not None:
            mask = np.zeros(patch.shape[:2], np.uint8)
            fill(mask, face, 1)
            inside = mask.astype(bool)
            swirl = box.marble[0] * light_rgb * shades[index]
            patch[inside] = patch[inside] * (1 - veins[inside, None]) + swirl * veins[inside, None]
        if box.pip_colour is None:
            continue
        value = _FACES[index][3]
        pip = box.pip_colour * light_rgb * shades[index]
        recess = colour * 0.35 + pip * 0.25
        for u, v in PIP_LAYOUTS[value]:
            fill(patch, to_patch(box.face_point(index, _circle(u, v, PIP_RADIUS))), recess.tolist())
            inner = _circle(u + 0.025, v + 0.025, PIP_RADIUS * 0.86)
            fill(patch, to_patch(box.face_point(index, inner)), pip.tolist())
        if box.glare is not None and index == top:
            _add_glare(patch, box, index, to_patch, light_rgb)
    if box.translucency > 0 and box.pip_colour is not None:
        _show_hidden_pips(patch, hull, box, {i for i, _ in visible}, to_patch,
                          box.pip_colour * light_rgb * float(np.mean(list(shades.values()))))
    small = cv2.resize(patch, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    small_alpha = cv2.resize(alpha, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)[..., None]
    sub = (slice(cy0 - y0, cy1 - y0), slice(cx0 - x0, cx1 - x0))
    region = canvas[cy0:cy1, cx0:cx1]
    region[:] = region * (1 - small_alpha[sub]) + small[sub]


def _show_hidden_pips(patch: np.ndarray, hull: np.ndarray, box: _Box, visible: set[int],
                      to_patch: Callable[[np.ndarray], np.ndarray], pip: np.ndarray) -> None:
    """Seen through a translucent body: the pips of the faces turned away from the camera, soft
    (the plastic scatters them) and faint, inside the die's outline."""
    ghost = np.zeros(patch.shape[:2], np.float32)
    for index in range(len(_FACES)):
        if index in visible:
            continue
        for u, v in PIP_LAYOUTS[_FACES[index][3]]:
            cv2.fillPoly(ghost, [to_patch(box.face_point(index, _circle(u, v, PIP_RADIUS)))], 1.0,
                         lineType=cv2.LINE_8, shift=3)
    inside = np.zeros(patch.shape[:2], np.float32)
    cv2.fillPoly(inside, [hull], 1.0, lineType=cv2.LINE_8, shift=3)
    soft = 0.04 * max(patch.shape[:2])
    ghost = cv2.GaussianBlur(ghost, (0, 0), soft) * inside * box.translucency
    patch[:] = patch * (1 - ghost[..., None]) + pip * ghost[..., None]


def _marble_veins(shape: tuple[int, int], seed: int) -> np.ndarray:
    """A 0-1 pattern of soft swirls the size of a die's patch: where the second paint shows."""
    rng = np.random.default_rng(seed)
    coarse = rng.random((6, 6)).astype(np.float32)
    field = cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    ripple = np.sin(field * rng.uniform(8, 16) + rng.uniform(0, 2 * math.pi))
    return np.clip((ripple - 0.2) * 1.5, 0, 1).astype(np.float32)


def _add_glare(
    patch: np.ndarray, box: _Box, face: int, to_patch: Callable[[np.ndarray], np.ndarray], light_rgb: np.ndarray
) -> None:
    """A soft specular spot or sheen on the top face (drawn over the pips)."""
    assert box.glare is not None
    gu, gv, radius, strength = box.glare
    mask = np.zeros(patch.shape[:2], np.float32)
    cv2.fillPoly(mask, [to_patch(box.face_point(face, _rounded_square(box.rounding, 0.9)))], 1.0, shift=3)
    centre = to_patch(box.face_point(face, np.array([[gu, gv]])))[0] / 8.0
    edge = to_patch(box.face_point(face, np.array([[gu + radius, gv]])))[0] / 8.0
    sigma = max(float(np.linalg.norm(edge - centre)), 1.0)
    yy, xx = np.mgrid[0 : patch.shape[0], 0 : patch.shape[1]]
    spot = np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * sigma**2)).astype(np.float32)
    patch += (spot * mask)[..., None] * (strength * light_rgb)


def _fill_aa(canvas: np.ndarray, polys: list[np.ndarray], colour: np.ndarray, opacity: float = 1.0) -> None:
    """Blend anti-aliased polygons (pixel coordinates) of one colour into the canvas."""
    pts = np.concatenate(polys)
    x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int) - 2, 0)
    x1 = min(int(np.ceil(pts[:, 0].max())) + 2, canvas.shape[1])
    y1 = min(int(np.ceil(pts[:, 1].max())) + 2, canvas.shape[0])
    if x0 >= x1 or y0 >= y1:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for poly in polys:  # one call each: overlapping polygons in one call would cancel out
        cv2.fillPoly(mask, [np.round((poly - (x0, y0)) * 16).astype(np.int32)], 255, lineType=cv2.LINE_AA, shift=4)
    a = (mask.astype(np.float32) / 255.0 * opacity)[..., None]
    region = canvas[y0:y1, x0:x1]
    region[:] = region * (1 - a) + colour * a


def _table(kind: str, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A table surface in linear RGB."""

    def smooth_noise(cells: int) -> np.ndarray:
        small = rng.standard_normal((max(2, height * cells // width), cells)).astype(np.float32)
        return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)

    grain = rng.standard_normal((height, width)).astype(np.float32)
    if kind == "grey_card":
        base = np.array((0.56, 0.56, 0.53)) * rng.uniform(0.85, 1.1)
        tex = 1 + 0.025 * smooth_noise(12) + 0.012 * grain
    elif kind == "wood":
        base = np.array((0.62, 0.43, 0.26)) * rng.uniform(0.7, 1.1)
        angle = rng.uniform(-0.3, 0.3) + (math.pi / 2 if rng.random() < 0.5 else 0.0)
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        across = -xx * math.sin(angle) + yy * math.cos(angle)
        period = rng.uniform(18, 45) * width / 1600
        warp = 6.0 * smooth_noise(6) * period / 10
        rings = np.sin(2 * math.pi * (across + warp) / period)
        streaks = cv2.GaussianBlur(grain, (0, 0), sigmaX=1.0, sigmaY=1.0)
        kernel = max(3, int(width / 40)) | 1
        streaks = cv2.blur(streaks, (kernel, 1)) if abs(math.cos(angle)) > 0.5 else cv2.blur(streaks, (1, kernel))
        tex = 1 + 0.07 * rings + 0.5 * streaks + 0.06 * smooth_noise(5) + 0.01 * grain
    elif kind == "green_felt":
        base = np.array((0.10, 0.34, 0.16)) * rng.uniform(0.8, 1.1)
        tex = 1 + 0.04 * smooth_noise(20) + 0.06 * cv2.GaussianBlur(grain, (0, 0), 0.8) + 0.03 * grain
    elif kind == "dark":
        base = np.array((0.10, 0.095, 0.09)) * rng.uniform(0.6, 1.3)
        tex = 1 + 0.05 * smooth_noise(10) + 0.05 * grain
    else:
        raise ValueError(f"unknown table {kind!r}; choose one of {', '.join(ALL_TABLES)}")
    return (_srgb_to_linear(base)[None, None, :] * tex[..., None]).astype(np.float32)


def _capsule(a: tuple[float, float], b: tuple[float, float], radius: float) -> np.ndarray:
    """Outline of a rounded stroke from a to b (a finger)."""
    pa, pb = np.array(a), np.array(b)
    angle = math.atan2(pb[1] - pa[1], pb[0] - pa[0])
    back = np.linspace(angle + math.pi / 2, angle + 3 * math.pi / 2, 8)
    front = np.linspace(angle - math.pi / 2, angle + math.pi / 2, 8)
    ring = [pa + radius * np.array([math.cos(t), math.sin(t)]) for t in back]
    ring += [pb + radius * np.array([math.cos(t), math.sin(t)]) for t in front]
    return np.array(ring)


def _hand_polygons(
    width: int, height: int, edge: int, reach: float, along: float, size: float
) -> list[np.ndarray]:
    """Arm, palm and fingers reaching from one frame edge, in pixels."""
    # Build pointing "down" from the top edge, then turn to the chosen edge.
    palm_y = reach
    arm = np.array([[-0.45, -3.0], [0.45, -3.0], [0.5, 0.0], [-0.5, 0.0]]) * size
    palm = np.array([[np.cos(a) * 0.62, np.sin(a) * 0.7] for a in np.linspace(0, 2 * math.pi, 24)]) * size
    polys = [arm + (0, palm_y - 0.2 * size), palm + (0, palm_y)]
    for dx, length in ((-0.42, 0.75), (-0.14, 0.95), (0.14, 0.9), (0.4, 0.7)):
        base, tip = (dx * size, palm_y + 0.3 * size), (dx * 1.15 * size, palm_y + (0.45 + length) * size)
        polys.append(_capsule(base, tip, 0.12 * size))
    polys.append(_capsule((0.45 * size, palm_y - 0.1 * size), (0.95 * size, palm_y + 0.45 * size), 0.14 * size))
    turn = edge * math.pi / 2
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    centre = np.array((width / 2, height / 2))
    start = {0: (along * width, 0.0), 1: (width, along * height), 2: (along * width, height), 3: (0.0, along * height)}
    origin = np.array(start[edge]) - centre
    out = []
    for p in polys:
        q = p @ rot.T  # edge 0 top (pointing down), 1 right, 2 bottom, 3 left
        out.append(q + origin + centre)
    return out


# --------------------------------------------------------------------------- scenes


@dataclass(frozen=True)
class _World:
    """Everything static about a scene, plus the dice at rest."""

    width: int
    height: int
    cam: _Camera
    light: np.ndarray  # unit vector towards the light
    ambient: float
    light_rgb: np.ndarray
    shadow_strength: float
    shadow_blur_px: float
    background: np.ndarray  # linear RGB: table, tray, cubes and their shadows
    dice: tuple[_Box, ...]
    colours: tuple[str, ...]
    cocked: tuple[bool, ...]
    illumination: np.ndarray  # (H, W, 1) gradient / vignette
    exposure: float
    noise_sigma: float
    blur_sigma: float
    conditions: dict[str, object]
    smear: tuple[float, float] | None = None  # motion blur: length (px) and direction (radians)
    jpeg_quality: int | None = None  # a webcam's own JPEG compression
    tray_inner: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # the tray floor (mm): x0, y0, x1, y1


def _aimed_at_the_table_centre(cam: _Camera) -> _Camera:
    """The tilted camera moved back so that its axis meets the table at the world origin (where
    the tray lies), as far along that axis as the straight-down camera is high: the die size at
    the picture's centre stays what was asked for, however far the camera leans."""
    axis = cam.turn.T @ np.array([0.0, 0.0, -1.0])  # the optical axis in the world
    height = CAMERA_HEIGHT_MM * float(-axis[2])
    reach = axis[:2] * (height / -axis[2])
    return replace(cam, height_mm=height, ground=(float(-reach[0]), float(-reach[1])))


def _pick(rng: np.random.Generator, given: object, choices: Sequence[object]) -> object:
    drawn = choices[int(rng.integers(len(choices)))]
    return drawn if given is None else given


def _chance(rng: np.random.Generator, given: bool | None, p: float) -> bool:
    drawn = bool(rng.random() < p)
    return drawn if given is None else given


def _build_world(seed: int, options: SceneOptions) -> _World:
    rng = np.random.default_rng(seed)
    w, h = options.width, options.height
    if w < 64 or h < 64:
        raise ValueError(f"frame {w}x{h} is too small to draw dice in (need 64x64 or more)")
    # Draw every random choice first, in a fixed order, so options never shift the others.
    die_px = float(options.die_px if options.die_px is not None else rng.uniform(26, 63))
    table = str(_pick(rng, options.table, TABLES))
    tint = str(_pick(rng, options.tint, TINTS))
    dim = _chance(rng, options.dim, 0.15)
    n_cubes = int(rng.integers(0, 15)) if options.cubes is None else options.cubes
    cubes_near = _chance(rng, options.cubes_near_dice, 0.5)
    touching = _chance(rng, options.touching, 0.35)
    cocked = _chance(rng, options.cocked, 0.12)
    glare = _chance(rng, options.glare, 0.25)
    hard = _chance(rng, options.hard_light, 0.3)
    blur = float(rng.uniform(0.3, 1.2)) if options.blur_sigma is None else options.blur_sigma
    gray_black = _chance(rng, options.gray_black_pips, 0.5)

    f = die_px * (CAMERA_HEIGHT_MM - DIE_MM) / DIE_MM
    cx, cy = w / 2 + rng.uniform(-0.03, 0.03) * w, h / 2 + rng.uniform(-0.03, 0.03) * h
    # The camera arm is rarely quite vertical (own generator, so the rest of the scene stays put).
    tilt_rng = np.random.default_rng([seed, 3])
    tilt_deg = float(tilt_rng.uniform(0, 6) if options.tilt_deg is None else options.tilt_deg)
    tilt_dir = tilt_rng.uniform(0, 2 * math.pi)
    turn = _rotation((math.cos(tilt_dir), math.sin(tilt_dir), 0.0), math.radians(tilt_deg))
    cam = _Camera(f=f, cx=cx, cy=cy, turn=turn)
    if options.aim_at_tray:
        cam = _aimed_at_the_table_centre(cam)
    ex0, ey0, ex1, ey1 = cam.table_extent(w, h)

    elevation = rng.uniform(0.9, 1.4) if hard else rng.uniform(2.0, 4.0)
    azimuth = rng.uniform(0, 2 * math.pi)
    light = np.array([math.cos(azimuth), math.sin(azimuth), elevation])
    light /= np.linalg.norm(light)
    ambient = rng.uniform(0.35, 0.5) if hard else rng.uniform(0.55, 0.7)
    temperature = {"neutral": (1.0, 1.0, 1.0), "warm": (1.0, 0.82, 0.58), "cool": (0.78, 0.9, 1.0)}[tint]
    strength = rng.uniform(0.5, 1.0)
    light_rgb = np.array([1 + (c - 1) * strength for c in temperature], np.float32)

    # Tray: a frame of four walls standing on the table, a bit smaller than the view.
    tray_w = min(rng.uniform(260, 320), (ex1 - ex0) * 0.9)
    tray_h = min(rng.uniform(180, 220), (ey1 - ey0) * 0.9)
    # Off-centre a little, but never so far that the tray floor leaves the picture.
    tray_x = float(np.clip(rng.uniform(-0.04, 0.04) * (ex1 - ex0), ex0 + tray_w / 2, ex1 - tray_w / 2))
    tray_y = float(np.clip(rng.uniform(-0.04, 0.04) * (ey1 - ey0), ey0 + tray_h / 2, ey1 - tray_h / 2))
    inner = (tray_x - tray_w / 2, tray_y - tray_h / 2, tray_x + tray_w / 2, tray_y + tray_h / 2)
    wall_kind = str(rng.choice(["black_plastic", "wood", "grey"]))
    wall_srgb = {"black_plastic": (0.07, 0.07, 0.075), "wood": (0.55, 0.38, 0.22), "grey": (0.35, 0.35, 0.36)}[
        wall_kind
    ]

    # Dice at rest, then the distractor cubes around them. With a layout seed they
    # come from their own stream: the same table, tray and light with another throw.
    lay = rng if options.layout_seed is None else np.random.default_rng([seed, 8, options.layout_seed])
    yaw = lay.uniform(0, 2 * math.pi, 6)
    values = [int(v) for v in lay.integers(1, 7, 6)]  # drawn even when given: the layout stays the same
    if options.values is not None:
        if len(options.values) != 6 or any(v not in range(1, 7) for v in options.values):
            raise ValueError(f"values must be six pips 1-6, got {options.values!r}")
        values = [int(v) for v in options.values]
    cocked_index = int(lay.integers(6)) if cocked else -1
    glare_index = int(lay.integers(6)) if glare else -1
    flat = [i for i in range(6) if i != cocked_index]
    touch_pair = tuple(sorted(int(i) for i in lay.choice(flat, 2, replace=False))) if touching else ()
    # Each set of dice is painted a little differently (own stream: the layout stays put).
    paint_rng = np.random.default_rng([seed, 6])
    spread = float(paint_rng.uniform(0, 0.12) if options.colour_spread is None else options.colour_spread)
    body = {
        c: np.clip(np.array(DIE_SRGB[c]) * (1 + paint_rng.uniform(-spread, spread, 3)), 0, 1) for c in DIE_COLOURS
    }
    if options.cocked_on_a_die and options.cocked_on_a_cube:
        raise ValueError("a cocked die leans on a die or on a cube, not both")
    by_walls = np.random.default_rng([seed, 10]) if options.dice_by_walls else None
    on_a_die = np.random.default_rng([seed, 11]) if options.cocked_on_a_die and cocked else None
    on_a_cube = np.random.default_rng([seed, 12]) if options.cocked_on_a_cube and cocked else None
    dice, supports = _place_dice(lay, inner, yaw, values, cocked_index, glare_index, touch_pair, gray_black, body,
                                 by_walls, on_a_die, on_a_cube)
    if options.foreign_dice:
        dice = _repainted(dice, np.random.default_rng([seed, 9]))
        if options.translucent_dice:
            dice = _see_through(dice, np.random.default_rng([seed, 11]))
    if options.dice_style is not None or options.pips is not None or options.corners is not None:
        dice = _styled(dice, options.dice_style or "macao", options.pips, options.corners,
                       np.random.default_rng([seed, 21]))
    cubes = supports + _place_cubes(lay, n_cubes, cubes_near, dice, inner, (ex0, ey0, ex1, ey1), supports)

    walls = _tray_walls(inner, _srgb_to_linear(wall_srgb)) if options.tray else []
    shadow_strength = rng.uniform(0.45, 0.65) if hard else rng.uniform(0.3, 0.45)
    shadow_blur = (0.06 if hard else 0.35) * die_px
    if table in MORE_TABLES:
        background = more_table(table, w, h, die_px, np.random.default_rng([seed, 22]))
    else:
        background = _table(table, w, h, rng)
    card_rng = np.random.default_rng([seed, 5])  # own stream: cards never move the rest of the scene
    n_cards = int(card_rng.integers(0, 3)) if options.cards is None else options.cards
    for _ in range(n_cards):
        _draw_card(background, card_rng, cam, (ex0, ey0, ex1, ey1), light_rgb, ambient)
    _cast_shadows(background, [*walls, *cubes], cam, light, shadow_strength, shadow_blur)
    for wall in walls:
        _draw_wall(background, wall, cam, light, ambient, light_rgb)
    for cube in cubes:
        _draw_box(background, cube, cam, light, ambient, light_rgb)

    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    gradient = 1 + rng.uniform(0.05, 0.3) * (gx * (xx / w - 0.5) + gy * (yy / h - 0.5))
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    vignette = 1 - rng.uniform(0.05, 0.3) * r2 / 2
    exposure = rng.uniform(0.22, 0.35) if dim else rng.uniform(0.95, 1.2)
    noise = rng.uniform(5, 9) if dim else rng.uniform(1.0, 3.0)
    camera_rng = np.random.default_rng([seed, 23])  # own stream: the webcam and the smear
    smear = (options.motion_blur_px, float(camera_rng.uniform(0, math.pi))) if options.motion_blur_px > 0 else None
    if options.webcam:
        noise += float(camera_rng.uniform(3, 7))
    jpeg = int(camera_rng.integers(45, 80)) if options.webcam else None

    touching_labels = _touching(dice)
    conditions: dict[str, object] = {
        "generator": "tools.synth",
        "seed": seed,
        "die_px": round(die_px, 1),
        "tilt_deg": round(tilt_deg, 1),
        # the table point straight below the lens, in frame px (far outside the frame at a steep tilt):
        # a flat die shows side faces on its side away from it, which the leaning check must not mistake
        "below_camera_px": [round(float(v), 1) for v in cam.project(np.array([*cam.ground, 0.0]))],
        # the camera's horizontal field of view, as [vision] camera_fov_deg would give it for this camera:
        "camera_fov_deg": round(math.degrees(2 * math.atan(w / 2 / cam.f)), 2),
        # the tray floor's corners in frame px (the area the dice roll in where no tray is drawn):
        # what a player taps in the camera check, so a judge can read as the app does after it
        "tray_corners_px": [[round(float(v), 1) for v in corner] for corner in cam.project(np.array(
            [[inner[0], inner[1], 0.0], [inner[2], inner[1], 0.0], [inner[2], inner[3], 0.0], [inner[0], inner[3], 0.0]]))],
        "colour_spread": round(spread, 3),
        "foreign_dice": options.foreign_dice,
        "translucent_dice": options.foreign_dice and options.translucent_dice,
        "dice_by_walls": options.dice_by_walls,
        "cocked_on_a_die": options.cocked_on_a_die,
        "cocked_on_a_cube": options.cocked_on_a_cube,
        "table": table,
        "tray_walls": wall_kind if options.tray else None,
        "tint": tint,
        "dim": dim,
        "hard_light": hard,
        "glare_on": DIE_COLOURS[glare_index] if glare_index >= 0 else None,
        "cocked_die": DIE_COLOURS[cocked_index] if cocked_index >= 0 else None,
        "distractor_cubes": len(cubes),
        "cards": n_cards,
        "cubes_near_dice": cubes_near and bool(cubes),
        "touching_dice": sum(1 for t in touching_labels if t),
        "blur_sigma": round(blur, 2),
        "gray_die_pips": "black" if gray_black else "white",
    }
    if options.factors:
        conditions["factors"] = dict(options.factors)
        conditions["motion_blur_px"] = round(options.motion_blur_px, 1)
        conditions["jpeg_quality"] = jpeg
    return _World(
        width=w,
        height=h,
        cam=cam,
        light=light,
        ambient=ambient,
        light_rgb=light_rgb,
        shadow_strength=shadow_strength,
        shadow_blur_px=shadow_blur,
        background=background,
        dice=tuple(dice),
        colours=DIE_COLOURS,
        cocked=tuple(i == cocked_index for i in range(6)),
        illumination=(gradient * vignette)[..., None].astype(np.float32),
        exposure=exposure,
        noise_sigma=noise,
        blur_sigma=blur,
        conditions=conditions,
        smear=smear,
        jpeg_quality=jpeg,
        tray_inner=inner,
    )


def _inside(footprint: np.ndarray, area: tuple[float, float, float, float], pad: float) -> bool:
    x0, y0, x1, y1 = area
    return bool(
        footprint[:, 0].min() > x0 + pad
        and footprint[:, 0].max() < x1 - pad
        and footprint[:, 1].min() > y0 + pad
        and footprint[:, 1].max() < y1 - pad
    )


FOREIGN_PIPS_SRGB = (WHITE_PIP_SRGB, BLACK_PIP_SRGB, (0.75, 0.10, 0.08), (0.80, 0.62, 0.22), (0.15, 0.30, 0.75))
FOREIGN_MIN_CONTRAST = 0.3  # least sRGB distance between a foreign die's paint and its pips


def _repainted(dice: list[_Box], rng: np.random.Generator) -> list[_Box]:
    """The dice of another set: each a random paint (half of them marbled with a second one)
    and pips of a colour that stands out from it, if only a little (red on dark gray)."""
    repainted = []
    for box in dice:
        hsv = np.array([[[rng.uniform(0, 180), rng.uniform(0, 230), rng.uniform(25, 235)]]], np.uint8)
        body = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0].astype(np.float32) / 255.0
        pips = [c for c in FOREIGN_PIPS_SRGB if np.linalg.norm(np.subtract(c, body)) >= FOREIGN_MIN_CONTRAST]
        pip = pips[int(rng.integers(len(pips)))] if pips else WHITE_PIP_SRGB
        marble = None
        if rng.random() < 0.5:
            swirl = np.clip(body + rng.uniform(-0.35, 0.35, 3), 0, 1)
            marble = (_srgb_to_linear(swirl), int(rng.integers(1 << 30)))
        repainted.append(replace(box, colour=_srgb_to_linear(body), pip_colour=_srgb_to_linear(pip), marble=marble))
    return repainted


TRANSLUCENT_SHARE = 0.5  # of the dice in a scene with translucent dice
TRANSLUCENCY_RANGE = (0.35, 0.75)
SMOKY_DARKENING = (0.3, 0.7)  # a see-through body is darker than its paint


def _see_through(dice: list[_Box], rng: np.random.Generator) -> list[_Box]:
    """Some of the dice made of smoky see-through plastic: darker, the hidden pips showing."""
    changed = []
    for box in dice:
        if rng.random() < TRANSLUCENT_SHARE:
            darker = float(rng.uniform(*SMOKY_DARKENING))
            box = replace(box, colour=box.colour * darker, marble=None,
                          translucency=float(rng.uniform(*TRANSLUCENCY_RANGE)))
        changed.append(box)
    return changed


STYLE_BODY_SRGB = {"white": (0.92, 0.92, 0.90), "ivory": (0.90, 0.84, 0.68)}
STYLE_ROUNDING = {"rounded": (0.25, 0.4), "sharp": (0.0, 0.06)}


def _styled(dice: list[_Box], style: str, pips: str | None, corners: str | None,
            rng: np.random.Generator) -> list[_Box]:
    """The six dice repainted in `style` (one of DICE_STYLES; macao keeps the paint), with
    pips of `pips` (PIP_STYLES; a colour that stands out from the body) and `corners`."""
    if style not in DICE_STYLES:
        raise ValueError(f"unknown dice style {style!r}; choose one of {', '.join(DICE_STYLES)}")
    if pips is not None and pips not in PIP_STYLES:
        raise ValueError(f"unknown pips {pips!r}; choose one of {', '.join(PIP_STYLES)}")
    if corners is not None and corners not in STYLE_ROUNDING:
        raise ValueError(f"unknown corners {corners!r}; choose one of {', '.join(CORNERS)}")
    if style in ("coloured", "translucent", "marbled"):
        dice = _repainted(dice, rng)
    styled = []
    for box in dice:
        if style in STYLE_BODY_SRGB:
            body = np.clip(np.array(STYLE_BODY_SRGB[style]) * rng.uniform(0.93, 1.04, 3), 0, 1)
            box = replace(box, colour=_srgb_to_linear(body), pip_colour=_srgb_to_linear(BLACK_PIP_SRGB))
        if style == "marbled" and box.marble is None:
            swirl = np.clip(box.colour ** (1 / 2.2) + rng.uniform(-0.35, 0.35, 3), 0, 1)
            box = replace(box, marble=(_srgb_to_linear(swirl), int(rng.integers(1 << 30))))
        elif style in ("coloured", "translucent"):
            box = replace(box, marble=None)
        if style == "translucent":
            box = replace(box, colour=box.colour * float(rng.uniform(*SMOKY_DARKENING)),
                          translucency=float(rng.uniform(*TRANSLUCENCY_RANGE)))
        if pips not in (None, "usual"):
            box = replace(box, pip_colour=_srgb_to_linear(_pip_for(box.colour ** (1 / 2.2), pips, rng)))
        if corners is not None:
            box = replace(box, rounding=float(rng.uniform(*STYLE_ROUNDING[corners])))
        styled.append(box)
    return styled


def _pip_for(body_srgb: np.ndarray, pips: str, rng: np.random.Generator) -> tuple[float, float, float]:
    """Pips of the kind asked for, or the nearest kind that stands out from the body
    (black pips on a black die would be no pips at all)."""
    coloured = FOREIGN_PIPS_SRGB[2:]
    wanted = {"black": [BLACK_PIP_SRGB], "white": [WHITE_PIP_SRGB], "coloured": list(coloured)}[pips]
    fallback = [c for c in FOREIGN_PIPS_SRGB if c not in wanted]
    for choices in (wanted, fallback):
        visible = [c for c in choices if np.linalg.norm(np.subtract(c, body_srgb)) >= FOREIGN_MIN_CONTRAST]
        if visible:
            return visible[int(rng.integers(len(visible)))]
    return WHITE_PIP_SRGB


def _place_dice(
    rng: np.random.Generator,
    inner: tuple[float, float, float, float],
    yaw: np.ndarray,
    values: list[int],
    cocked_index: int,
    glare_index: int,
    touch_pair: tuple[int, ...],
    gray_black_pips: bool,
    body_srgb: dict[str, np.ndarray],
    by_walls: np.random.Generator | None = None,
    on_a_die: np.random.Generator | None = None,
    on_a_cube: np.random.Generator | None = None,
) -> tuple[list[_Box], list[_Box]]:
    """The six dice inside the tray, apart from each other except for the touching pair; with
    `by_walls`, some flat dice against a wall (that generator's draws, so the rest stay put);
    with `on_a_die` (`on_a_cube`), the cocked die is placed last, leaning on one of the others
    (on an action cube put down for it). Also the cubes so put down (none, or that one)."""
    margin = DIE_MM * 0.75 + 2
    placed: dict[int, _Box] = {}
    supports: list[_Box] = []
    order = list(range(6))
    if on_a_die is not None or on_a_cube is not None:
        order = [i for i in order if i != cocked_index] + [cocked_index]
    for i in order:
        colour = DIE_COLOURS[i]
        pip = BLACK_PIP_SRGB if (colour == "gray" and gray_black_pips) else WHITE_PIP_SRGB
        rotation = _rotation((0, 0, 1), yaw[i]) @ _face_up(values[i])
        glare_spot = None
        if i == glare_index:
            # A small hot spot, or a broad sheen of a glossy face that washes the colour out.
            broad = rng.random() < 0.4
            radius = rng.uniform(0.7, 1.1) if broad else rng.uniform(0.2, 0.45)
            strength = rng.uniform(0.35, 0.7) if broad else 1.6
            glare_spot = (float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.5, 0.5)), float(radius), float(strength))
        box = None
        for attempt in range(400):
            wants_touch = bool(touch_pair) and i == touch_pair[1] and attempt < 300
            if wants_touch:
                # Side by side with its partner: same turn, one face against the other.
                partner = placed[touch_pair[0]]
                turn = yaw[touch_pair[0]] + rng.uniform(-0.06, 0.06)
                rotation = _rotation((0, 0, 1), turn) @ _face_up(values[i])
                side = rng.integers(4) * math.pi / 2 + yaw[touch_pair[0]]
                offset = np.array([math.cos(side), math.sin(side)]) * (DIE_MM + 0.35)
                offset += np.array([-math.sin(side), math.cos(side)]) * rng.uniform(-7, 7)
                xy = partner.centre[:2] + offset
            else:
                xy = np.array(
                    [
                        rng.uniform(inner[0] + margin, inner[2] - margin),
                        rng.uniform(inner[1] + margin, inner[3] - margin),
                    ]
                )
            support = -1
            if i == cocked_index and on_a_die is not None:
                support = int(on_a_die.choice(list(placed)))
                rotation, xy = _leaning_on_a_box(on_a_die, placed[support], values[i])
            elif i == cocked_index and on_a_cube is not None:
                supports = [_support_cube(on_a_cube, inner, list(placed.values()))]
                tilt = _tilt_on_a_cube(2 * float(supports[0].half[2]))
                rotation, xy = _leaning_on_a_box(on_a_cube, supports[0], values[i], tilt)
            elif i == cocked_index:
                rotation, xy = _leaning_on_a_wall(rng, inner, values[i])
            elif by_walls is not None and not wants_touch and by_walls.random() < 0.4:
                xy = _against_a_wall(by_walls, inner, rotation)
            box = _Box(
                centre=np.array([xy[0], xy[1], DIE_MM / 2]),
                rotation=rotation,
                half=np.full(3, DIE_MM / 2),
                colour=_srgb_to_linear(body_srgb[colour]),
                rounding=0.22,
                pip_colour=_srgb_to_linear(pip),
                glare=glare_spot,
            )
            box = replace(box, centre=box.centre - (0, 0, box.lowest_z()))
            fp = _footprint(box)
            gap = 0.2 if wants_touch else 2.5
            if _inside(fp, inner, 0.5) and all(_polygon_gap(fp, _footprint(o)) > gap
                                               for k, o in placed.items() if k != support):
                break
        else:
            raise ValueError("no room for six dice in the tray; use a larger frame or smaller dice")
        placed[i] = box
    return [placed[i] for i in range(6)], supports


def _support_cube(rng: np.random.Generator, inner: tuple[float, float, float, float],
                  dice: list[_Box]) -> _Box:
    """An action cube of a random colour in the tray, clear of `dice` by more than a die side
    (room for a die to lean on it)."""
    size = rng.uniform(8, 10)
    colour = DIE_COLOURS[int(rng.integers(6))]
    margin = size + 4
    for _attempt in range(200):
        xy = np.array([rng.uniform(inner[0] + margin, inner[2] - margin), rng.uniform(inner[1] + margin, inner[3] - margin)])
        cube = _Box(centre=np.array([xy[0], xy[1], size / 2]), rotation=_rotation((0, 0, 1), rng.uniform(0, 2 * math.pi)),
                    half=np.full(3, size / 2), colour=_srgb_to_linear(CUBE_SRGB[colour]), rounding=0.08)
        if all(_polygon_gap(_footprint(cube), _footprint(die)) > DIE_MM * 1.5 for die in dice):
            return cube
    raise ValueError("no room for a cube to lean a die on; use a larger frame or smaller dice")


def _die_corners(rotation: np.ndarray) -> np.ndarray:
    """A die's eight corners (mm) around its centre, turned by `rotation`."""
    return _Box(centre=np.zeros(3), rotation=rotation, half=np.full(3, DIE_MM / 2), colour=np.zeros(3)).corners()


def _leaning_on_a_wall(rng: np.random.Generator, inner: tuple[float, float, float, float],
                       value: int) -> tuple[np.ndarray, np.ndarray]:
    """Turn and floor position of a die that stands on one edge and leans back against a tray wall.

    A die comes to lean only where something holds it up; in a tray that is a wall. Its faces
    line up with the wall and the face it had on top tips away from the wall, inwards, by 25-45
    degrees: so its centre lies over the wall's side of the edge it stands on, and it rests
    against the wall on a lower edge (tipped the other way it would fall back flat). The
    camera then sees the upper face and, outwards, a steep second face with its pips, which a
    flat die never shows."""
    wall = int(rng.integers(4))  # left, right, top, bottom of the tray floor
    outward = np.array(((-1.0, 0.0), (1.0, 0.0), (0.0, -1.0), (0.0, 1.0))[wall])
    lean = _rotation((-outward[1], outward[0], 0.0), -rng.uniform(math.radians(25), math.radians(45)))
    rotation = lean @ _rotation((0, 0, 1), rng.uniform(-0.08, 0.08) + rng.integers(4) * math.pi / 2) @ _face_up(value)
    reach = float((_die_corners(rotation)[:, :2] @ outward).max())  # centre to the edge against the wall
    along = rng.uniform(0.15, 0.85)
    x0, y0, x1, y1 = inner
    wall_line = (x0, x1, y0, y1)[wall] - outward.sum() * 0.6  # a hair inside the wall
    if wall < 2:
        xy = np.array([wall_line - outward[0] * reach, y0 + along * (y1 - y0)])
    else:
        xy = np.array([x0 + along * (x1 - x0), wall_line - outward[1] * reach])
    return rotation, xy


def _tilt_on_a_cube(height_mm: float) -> tuple[float, float]:
    """How far (degrees) a die may tip back on a cube this high: 20 up to 32, and no further than
    keeps the edge it rests on below the cube's top (a tenth to spare: the die sits a little askew)."""
    return 20.0, min(32.0, math.degrees(math.asin(min(1.0, 0.9 * height_mm / DIE_MM))))


def _leaning_on_a_box(rng: np.random.Generator, support: _Box, value: int,
                      tilt_deg: tuple[float, float] = (25.0, 45.0)) -> tuple[np.ndarray, np.ndarray]:
    """Turn and floor position of a die that leans back against a side face of the flat box
    `support` (a die or a cube), as against a tray wall (`_leaning_on_a_wall`): tipped away from
    it by `tilt_deg` degrees, its faces lined up with the support's, a lower edge resting on the
    support's side face (a die side times the sine of the tilt up: below a die's top at 45, a
    cube's with `_tilt_on_a_cube`), within the middle of that face."""
    sides = [column[:2] / np.linalg.norm(column[:2]) for column in support.rotation.T if abs(column[2]) < 0.5]
    normal = sides[int(rng.integers(len(sides)))] * (1.0 if rng.random() < 0.5 else -1.0)  # the face it leans on
    outward = -normal  # from the leaning die towards what holds it up
    lean = _rotation((-outward[1], outward[0], 0.0), -rng.uniform(*np.radians(tilt_deg)))
    facing = math.atan2(normal[1], normal[0]) + rng.uniform(-0.08, 0.08) + rng.integers(4) * math.pi / 2
    rotation = lean @ _rotation((0, 0, 1), facing) @ _face_up(value)
    reach = float((_die_corners(rotation)[:, :2] @ outward).max())  # centre to the edge against the die
    face = support.centre[:2] + normal * (float(support.half[0]) + 0.3)  # a hair off the support's side face
    along = np.array([-normal[1], normal[0]]) * rng.uniform(-0.25, 0.25) * 2 * float(support.half[0])
    return rotation, face + normal * reach + along


def _against_a_wall(rng: np.random.Generator, inner: tuple[float, float, float, float],
                    rotation: np.ndarray) -> np.ndarray:
    """Floor position of a flat die (turned by `rotation`) 0.6-3 mm from a random tray wall."""
    corners = _die_corners(rotation)
    reach_x, reach_y = np.abs(corners[:, 0]).max(), np.abs(corners[:, 1]).max()
    x0, y0, x1, y1 = inner
    gap = rng.uniform(0.6, 3.0)
    along = rng.uniform(0.1, 0.9)
    wall = int(rng.integers(4))  # left, right, top, bottom
    if wall < 2:
        x = x0 + reach_x + gap if wall == 0 else x1 - reach_x - gap
        return np.array([x, y0 + along * (y1 - y0)])
    y = y0 + reach_y + gap if wall == 2 else y1 - reach_y - gap
    return np.array([x0 + along * (x1 - x0), y])


def _place_cubes(
    rng: np.random.Generator,
    count: int,
    near_dice: bool,
    dice: Sequence[_Box],
    inner: tuple[float, float, float, float],
    extent: tuple[float, float, float, float],
    lying: Sequence[_Box] = (),
) -> list[_Box]:
    """Action cubes: the first few right beside the die of their colour, the rest anywhere,
    clear of the dice and of the cubes already `lying` there."""
    cubes: list[_Box] = []
    for k in range(count):
        colour = DIE_COLOURS[int(rng.integers(6))]
        size = rng.uniform(8, 10)
        rotation = _rotation((0, 0, 1), rng.uniform(0, 2 * math.pi))
        for _attempt in range(200):
            if near_dice and k < 4:
                target = dice[DIE_COLOURS.index(colour)]
                angle = rng.uniform(0, 2 * math.pi)
                gap = DIE_MM * 0.72 + size * 0.72 + rng.uniform(1, 6)
                xy = target.centre[:2] + gap * np.array([math.cos(angle), math.sin(angle)])
            elif rng.random() < 0.7:
                xy = np.array([rng.uniform(inner[0] + 8, inner[2] - 8), rng.uniform(inner[1] + 8, inner[3] - 8)])
            else:
                xy = np.array([rng.uniform(extent[0], extent[2]), rng.uniform(extent[1], extent[3])])
            cube = _Box(
                centre=np.array([xy[0], xy[1], size / 2]),
                rotation=rotation,
                half=np.full(3, size / 2) * (1, 1, rng.uniform(0.95, 1.05)),
                colour=_srgb_to_linear(np.clip(np.array(CUBE_SRGB[colour]) * rng.uniform(0.9, 1.1), 0, 1)),
                rounding=0.08,
            )
            fp = _footprint(cube)
            if not _crosses_walls(fp, inner) and all(_polygon_gap(fp, _footprint(o)) > 1.0
                                                     for o in [*dice, *lying, *cubes]):
                cubes.append(cube)
                break
    return cubes


def _draw_card(
    canvas: np.ndarray,
    rng: np.random.Generator,
    cam: _Camera,
    extent: tuple[float, float, float, float],
    light_rgb: np.ndarray,
    ambient: float,
) -> None:
    """A 63x88 mm game card flat on the table: white, a coloured frame and a few printed shapes."""
    centre = np.array([rng.uniform(extent[0], extent[2]), rng.uniform(extent[1], extent[3])])
    turn = rng.uniform(0, math.pi)
    axes = np.array([[math.cos(turn), math.sin(turn)], [-math.sin(turn), math.cos(turn)]])

    def on_table(local_mm: np.ndarray) -> np.ndarray:
        xy = centre + local_mm @ axes
        return cam.project(np.column_stack((xy, np.full(len(xy), 0.3))))

    brightness = ambient + (1 - ambient) * 0.9
    paper = _srgb_to_linear((0.9, 0.89, 0.85)) * light_rgb * brightness
    ink = _srgb_to_linear(DIE_SRGB[DIE_COLOURS[int(rng.integers(6))]]) * light_rgb * brightness
    _fill_aa(canvas, [on_table(_rounded_square(0.1) * (31.5, 44.0))], paper)
    frame = _rounded_square(0.1) * (28.0, 40.5)
    _fill_aa(canvas, [on_table(frame)], ink)
    _fill_aa(canvas, [on_table(frame * (0.9, 0.93))], paper)
    for _ in range(int(rng.integers(1, 4))):
        spot = np.array([rng.uniform(-18, 18), rng.uniform(-30, 30)])
        radius = rng.uniform(3, 9)
        shape = _circle(spot[0], spot[1], radius) if rng.random() < 0.5 else _rounded_square(0.2) * radius + spot
        colour = _srgb_to_linear(DIE_SRGB[DIE_COLOURS[int(rng.integers(6))]]) * light_rgb * brightness
        _fill_aa(canvas, [on_table(shape)], colour)


def _crosses_walls(fp: np.ndarray, inner: tuple[float, float, float, float]) -> bool:
    """True when a footprint overlaps the tray walls around `inner`."""
    x0, y0, x1, y1 = inner
    reach = TRAY_WALL_MM + 1.0
    outer = (x0 - reach, y0 - reach, x1 + reach, y1 + reach)
    outside_outer = (
        fp[:, 0].max() < outer[0] or fp[:, 0].min() > outer[2] or fp[:, 1].max() < outer[1] or fp[:, 1].min() > outer[3]
    )
    return not (_inside(fp, inner, 0.0) or outside_outer)


def _tray_walls(inner: tuple[float, float, float, float], colour: np.ndarray) -> list[_Box]:
    x0, y0, x1, y1 = inner
    t, height = TRAY_WALL_MM, TRAY_WALL_HEIGHT_MM
    specs = (
        ((x0 + x1) / 2, y0 - t / 2, (x1 - x0) / 2 + t, t / 2),
        ((x0 + x1) / 2, y1 + t / 2, (x1 - x0) / 2 + t, t / 2),
        (x0 - t / 2, (y0 + y1) / 2, t / 2, (y1 - y0) / 2),
        (x1 + t / 2, (y0 + y1) / 2, t / 2, (y1 - y0) / 2),
    )
    return [
        _Box(
            centre=np.array([cx, cy, height / 2]), rotation=np.eye(3), half=np.array([hx, hy, height / 2]), colour=colour
        )
        for cx, cy, hx, hy in specs
    ]


def _draw_wall(
    canvas: np.ndarray, box: _Box, cam: _Camera, light: np.ndarray, ambient: float, light_rgb: np.ndarray
) -> None:
    """Large flat boxes (tray walls): anti-aliased polygons at full size, no supersampling."""
    eye = cam.eye
    faces = []
    for index, (n, _, _, _) in enumerate(_FACES):
        normal = box.rotation @ n
        centre = box.face_point(index, np.zeros((1, 2)))[0]
        if normal @ (eye - centre) > 0:
            faces.append((float(np.linalg.norm(eye - centre)), index, normal))
    for _dist, index, normal in sorted(faces, reverse=True):
        poly = cam.project(box.face_point(index, _rounded_square(0.0)))
        colour = box.colour * light_rgb * _shade(normal, light, ambient)
        _fill_aa(canvas, [poly], colour)


def _cast_shadows(
    canvas: np.ndarray, bodies: Sequence[_Box], cam: _Camera, light: np.ndarray, strength: float, blur_px: float
) -> None:
    """Darken the table where the bodies block the light (plus a contact shadow)."""
    if not bodies:
        return
    mask = np.zeros(canvas.shape[:2], np.uint8)
    contact = np.zeros(canvas.shape[:2], np.uint8)
    for body in bodies:
        corners = body.corners()
        on_table = corners - light[None, :] * (corners[:, 2:3] / light[2])
        on_table[:, 2] = 0
        hull = cv2.convexHull(cam.project(on_table).astype(np.float32)).reshape(-1, 2)
        cv2.fillPoly(mask, [np.round(hull * 16).astype(np.int32)], 255, lineType=cv2.LINE_AA, shift=4)
        base = corners.copy()
        base[:, 2] = 0
        foot = cv2.convexHull(cam.project(base).astype(np.float32)).reshape(-1, 2)
        cv2.fillPoly(contact, [np.round(foot * 16).astype(np.int32)], 255, lineType=cv2.LINE_AA, shift=4)
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), max(blur_px, 0.5))
    near = cv2.GaussianBlur(contact.astype(np.float32) / 255, (0, 0), max(blur_px * 0.3, 1.0))
    canvas *= (1 - strength * np.clip(soft + 0.5 * near, 0, 1))[..., None]


def _touching(dice: Sequence[_Box], colours: Sequence[str] = DIE_COLOURS) -> list[tuple[str, ...]]:
    prints = [_footprint(d) for d in dice]
    return [
        tuple(colours[j] for j in range(len(dice)) if j != i and _polygon_gap(prints[i], prints[j]) < TOUCH_GAP_MM)
        for i in range(len(dice))
    ]


def _labels(world: _World, dice: Sequence[_Box]) -> SceneLabels:
    touching = _touching(dice, world.colours)
    labels = []
    for i, box in enumerate(dice):
        top = box.top_face()
        centre = world.cam.project(box.face_point(top, np.zeros((1, 2))))[0]
        corners = world.cam.project(box.corners())
        face = world.cam.project(box.face_point(top, _rounded_square(0.0)))
        cocked = world.cocked[i]
        labels.append(
            DieLabel(
                colour=world.colours[i],
                value=None if cocked else _FACES[top][3],
                center=(float(centre[0]), float(centre[1])),
                box=(*(float(v) for v in corners.min(0)), *(float(v) for v in corners.max(0))),
                cocked=cocked,
                touching=touching[i],
                face_side=float(np.mean(np.linalg.norm(face - np.roll(face, 1, axis=0), axis=1))),
            )
        )
    return SceneLabels(dice=tuple(labels), conditions=dict(world.conditions))


def _compose(
    world: _World,
    dice: Sequence[_Box],
    rng: np.random.Generator,
    hand: list[np.ndarray] | None = None,
    flicker: float = 1.0,
    skin_srgb: tuple[float, float, float] = SKIN_TONES_SRGB[0],
) -> np.ndarray:
    """Dice, hand, light and camera over the static background -> BGR uint8."""
    canvas = world.background.copy()
    _cast_shadows(canvas, dice, world.cam, world.light, world.shadow_strength, world.shadow_blur_px)
    order = sorted(range(len(dice)), key=lambda i: dice[i].centre[2])
    for i in order:
        _draw_box(canvas, dice[i], world.cam, world.light, world.ambient, world.light_rgb)
    if hand:
        shift = world.light[:2] / world.light[2] * world.cam.f * 0.12
        shadow = np.zeros_like(canvas)
        _fill_aa(shadow, [p + shift for p in hand], np.ones(3, np.float32))
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(world.width / 150, 1.0))
        canvas *= 1 - 0.5 * shadow
        # Skin, rounder in the middle of palm and fingers than at their edges.
        coverage = np.zeros_like(canvas[..., :1])
        _fill_aa(coverage, hand, np.ones(1, np.float32))
        relief = cv2.GaussianBlur(coverage, (0, 0), max(world.width / 200, 1.0))[..., None]
        skin = _srgb_to_linear(skin_srgb) * world.light_rgb * (0.65 + 0.35 * relief)
        canvas[:] = canvas * (1 - coverage) + skin * coverage
    canvas *= world.illumination * (world.exposure * flicker)
    srgb = np.clip(canvas, 0, 1) ** (1 / 2.2) * 255
    if world.blur_sigma > 0:
        srgb = cv2.GaussianBlur(srgb, (0, 0), world.blur_sigma)
    if world.smear is not None:
        srgb = cv2.filter2D(srgb, -1, _smear_kernel(*world.smear))
    srgb += rng.standard_normal(srgb.shape, dtype=np.float32) * np.float32(world.noise_sigma)
    rgb = np.clip(srgb + 0.5, 0, 255).astype(np.uint8)
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    if world.jpeg_quality is not None:
        _ok, encoded = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, world.jpeg_quality])
        bgr = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return bgr


def _smear_kernel(length_px: float, angle: float) -> np.ndarray:
    """A normalised straight line `length_px` long at `angle`: the blur of a short movement."""
    size = int(math.ceil(length_px)) | 1
    kernel = np.zeros((size, size), np.float32)
    half = (size - 1) / 2
    dx, dy = math.cos(angle) * length_px / 2, math.sin(angle) * length_px / 2
    cv2.line(kernel, (round(half - dx), round(half - dy)), (round(half + dx), round(half + dy)), 1.0, 1, cv2.LINE_AA)
    return kernel / max(float(kernel.sum()), 1e-6)


Rendered = TypeVar("Rendered")  # what a render function of `_randomised` gives
EmptyTrayScene = tuple[np.ndarray, SceneLabels, np.ndarray]  # frame, its labels, the same table without the dice


def render_scene(seed: int, options: SceneOptions = SceneOptions()) -> tuple[np.ndarray, SceneLabels]:
    """One still tray scene: BGR uint8 frame and its ground truth."""
    world = _build_world(seed, options)
    frame = _compose(world, world.dice, np.random.default_rng([seed, 1]))
    return frame, _labels(world, world.dice)


def render_scene_and_empty_tray(seed: int, options: SceneOptions = SceneOptions()) -> EmptyTrayScene:
    """`render_scene`, and the same table, tray and light without the dice: what the camera check
    keeps as the empty-tray picture (another frame: its own noise and JPEG)."""
    world = _build_world(seed, options)
    frame = _compose(world, world.dice, np.random.default_rng([seed, 1]))
    empty = _compose(world, (), np.random.default_rng([seed, 1, 99]))
    return frame, _labels(world, world.dice), empty


def render_roll_sequence(
    seed: int,
    n_frames: int = 30,
    options: SceneOptions = SceneOptions(width=640, height=360, die_px=24),
    fps: float = 10.0,
    hand: bool = True,
    hand_returns: bool = False,
) -> RollSequence:
    """Frames of a roll: a hand lets the dice go, they slide and tumble, then lie still.

    With `hand_returns` a hand reaches into the tray again over the last frames
    (the dice stay put), which must count as "not still" too.
    """
    if n_frames < 4:
        raise ValueError("a roll sequence needs at least 4 frames")
    world = _build_world(seed, options)
    rng = np.random.default_rng([seed, 2] if options.layout_seed is None else [seed, 2, options.layout_seed])
    entry = int(rng.integers(4))
    rest_at = rng.integers(int(n_frames * 0.25), max(int(n_frames * 0.55), int(n_frames * 0.25) + 1), len(world.dice))
    hand_until = int(min(rest_at.min(), max(2, n_frames // 6))) if hand else 0
    return_from = n_frames - max(2, n_frames // 6) if hand_returns else n_frames
    direction = np.array([(0, -1), (1, 0), (0, 1), (-1, 0)][entry], float)
    starts = []
    for _ in world.dice:
        travel = rng.uniform(2.5, 7.0) * DIE_MM
        starts.append(
            (
                direction * travel + rng.normal(0, DIE_MM, 2),
                rng.normal(0, 1, 3),
                rng.uniform(3 * math.pi, 7 * math.pi),
            )
        )
    size = rng.uniform(60, 75) * world.cam.f / world.cam.height_mm  # a hand's palm is 8-9 cm across
    skin = SKIN_TONES_SRGB[int(np.random.default_rng([seed, 4]).integers(len(SKIN_TONES_SRGB)))]
    along = rng.uniform(0.3, 0.7)
    frames, moving, in_view = [], [], []
    previous: list[_Box] | None = None
    for t in range(n_frames):
        dice = []
        for i, box in enumerate(world.dice):
            remaining = max(0.0, 1.0 - t / rest_at[i]) if rest_at[i] > 0 else 0.0
            offset, axis, spin = starts[i]
            ease = remaining**1.5  # slides slow down; tumbling stops more abruptly
            if ease > 0:
                axis_h = axis.copy()
                axis_h[2] *= 0.3
                rotation = _rotation(axis_h, spin * remaining) @ box.rotation
                moved = replace(box, rotation=rotation, centre=box.centre + np.array([*(offset * ease), 0.0]))
                moved = replace(moved, centre=moved.centre - (0, 0, moved.lowest_z() - 3.0 * ease * DIE_MM))
                dice.append(moved)
            else:
                dice.append(box)
        hand_now = t < hand_until or t >= return_from
        if t < hand_until:
            reach = size * (1.6 - 0.8 * t / max(hand_until, 1))
        else:
            reach = size * 1.3
        polys = _hand_polygons(world.width, world.height, entry, reach, along, size) if hand_now else None
        flicker = 1.0 + float(rng.normal(0, 0.004))
        frames.append(_compose(world, dice, rng, polys, flicker, skin))
        changed = previous is None or any(
            not (np.array_equal(a.centre, b.centre) and np.array_equal(a.rotation, b.rotation))
            for a, b in zip(dice, previous)
        )
        moving.append(bool(changed and t < rest_at.max() + 1) or hand_now)
        in_view.append(hand_now)
        previous = dice
    return RollSequence(
        frames=tuple(frames),
        timestamps_s=tuple(t / fps for t in range(n_frames)),
        moving=tuple(moving),
        hand_in_view=tuple(in_view),
        labels=_labels(world, world.dice),
    )


# --------------------------------------------------------------------------- dice of a game's set


# Paint of the player colours other games' dice come in, beside DIE_SRGB's; pips dark on the light ones.
MORE_DIE_SRGB: dict[str, tuple[float, float, float]] = {
    "yellow": (0.93, 0.78, 0.12),
    "orange": (0.92, 0.42, 0.08),
    "purple": (0.36, 0.16, 0.52),
    "white": (0.90, 0.90, 0.87),
}
DARK_PIPS_ON = ("yellow", "white")


def render_dice_set(seed: int, dice: Sequence[tuple[str, int]],
                    options: SceneOptions = SceneOptions()) -> tuple[np.ndarray, SceneLabels]:
    """A tray of any number of flat dice of the given colours and values (several of a colour: a
    player's own dice), apart from each other; table, tray, light and camera drawn from `seed` as
    for `render_scene`, without cubes. For the reader of games whose dice repeat colours."""
    world = _build_world(seed, replace(options, cubes=0, cocked=False, touching=False, values=None))
    rng = np.random.default_rng([seed, 30])
    spread = float(world.conditions["colour_spread"])
    paints = {**DIE_SRGB, **MORE_DIE_SRGB}
    x0, y0, x1, y1 = world.tray_inner
    margin = DIE_MM * 0.75 + 2
    boxes: list[_Box] = []
    for colour, value in dice:
        body = np.clip(np.array(paints[colour]) * (1 + rng.uniform(-spread, spread, 3)), 0, 1)
        pip = BLACK_PIP_SRGB if colour in DARK_PIPS_ON else WHITE_PIP_SRGB
        for _attempt in range(400):
            xy = (rng.uniform(x0 + margin, x1 - margin), rng.uniform(y0 + margin, y1 - margin))
            box = _Box(centre=np.array([xy[0], xy[1], DIE_MM / 2]),
                       rotation=_rotation((0, 0, 1), rng.uniform(0, 2 * math.pi)) @ _face_up(value),
                       half=np.full(3, DIE_MM / 2), colour=_srgb_to_linear(body), rounding=0.22,
                       pip_colour=_srgb_to_linear(pip))
            footprint = _footprint(box)
            if all(_polygon_gap(footprint, _footprint(other)) > 2.5 for other in boxes):
                break
        else:
            raise ValueError(f"no room for {len(dice)} dice in the tray; use a larger frame or smaller dice")
        boxes.append(box)
    world = replace(world, dice=tuple(boxes), colours=tuple(colour for colour, _ in dice),
                    cocked=(False,) * len(boxes))
    frame = _compose(world, world.dice, np.random.default_rng([seed, 1]))
    return frame, _labels(world, world.dice)


# --------------------------------------------------------------------------- dataset


SCENE_ATTEMPTS = 8  # a randomised scene with no room for its dice is drawn again from another seed
ATTEMPT_SEED_STEP = 1_000_000_007


def render_randomised(scene_seed: int, allowed: dict[str, tuple[str, ...]],
                      options: SceneOptions = SceneOptions()) -> tuple[np.ndarray, SceneLabels]:
    """One scene whose factors (`tools.scene_factors`) are drawn from `allowed`; where the
    drawn size, tilt and tray leave no room for six dice, the next seed of a fixed series."""
    frame, labels, _ = _randomised(scene_seed, allowed, options, lambda seed, chosen: (*render_scene(seed, chosen), None))
    return frame, labels


def render_randomised_and_empty_tray(scene_seed: int, allowed: dict[str, tuple[str, ...]],
                                     options: SceneOptions = SceneOptions()) -> EmptyTrayScene:
    """`render_randomised` with the empty-tray picture of `render_scene_and_empty_tray`."""
    frame, labels, empty = _randomised(scene_seed, allowed, options, render_scene_and_empty_tray)
    assert empty is not None
    return frame, labels, empty


def render_still_frames(seed: int, options: SceneOptions = SceneOptions(),
                        count: int = 3) -> tuple[list[np.ndarray], SceneLabels, np.ndarray]:
    """The scene of `render_scene_and_empty_tray` as `count` still frames of a roll at rest (the
    first is `render_scene`'s frame; each has noise and JPEG of its own, as a camera's frames
    have), its labels and the empty tray."""
    world = _build_world(seed, options)
    frames = [_compose(world, world.dice, np.random.default_rng([seed, 1] if index == 0 else [seed, 1, index]))
              for index in range(count)]
    return frames, _labels(world, world.dice), _compose(world, (), np.random.default_rng([seed, 1, 99]))


def render_randomised_still_frames(scene_seed: int, allowed: dict[str, tuple[str, ...]], count: int = 3,
                                   options: SceneOptions = SceneOptions()
                                   ) -> tuple[list[np.ndarray], SceneLabels, np.ndarray]:
    """`render_still_frames` of the scene `render_randomised_and_empty_tray` draws."""
    frames, labels, empty = _randomised(scene_seed, allowed, options,
                                        lambda seed, chosen: render_still_frames(seed, chosen, count))
    return frames, labels, empty


def _randomised(scene_seed: int, allowed: dict[str, tuple[str, ...]], options: SceneOptions,
                render: Callable[[int, SceneOptions], Rendered]) -> Rendered:
    problem = ""
    for attempt in range(SCENE_ATTEMPTS):
        seed = scene_seed + attempt * ATTEMPT_SEED_STEP
        factors = draw_factors(seed, allowed)
        try:
            return render(seed, replace(options, **scene_keywords(factors, seed)))  # type: ignore[arg-type]
        except ValueError as err:
            problem = str(err)
    raise ValueError(f"scene {scene_seed}: {problem} ({SCENE_ATTEMPTS} draws)")


def write_dataset(
    outdir: Path, count: int, seed: int, options: SceneOptions = SceneOptions(), quality: int = 90,
    randomised: dict[str, tuple[str, ...]] | None = None, empty_trays: bool = False,
) -> list[Path]:
    """Write `count` scenes as images/ + labels/ + manifest.csv (rendered-dev format); with
    `randomised` (each factor's allowed values), scenes of randomised factors; with
    `empty_trays`, each scene's empty-tray picture in references/ under the image's name."""
    (outdir / "images").mkdir(parents=True, exist_ok=True)
    (outdir / "labels").mkdir(parents=True, exist_ok=True)
    if empty_trays:
        (outdir / "references").mkdir(exist_ok=True)
    written = []
    rows = []
    for index in range(count):
        name = f"synth_{seed}_{index:04d}"
        scene_seed = seed * 100_003 + index
        empty = None
        if randomised is None and empty_trays:
            frame, labels, empty = render_scene_and_empty_tray(scene_seed, options)
        elif randomised is None:
            frame, labels = render_scene(scene_seed, options)
        elif empty_trays:
            frame, labels, empty = render_randomised_and_empty_tray(scene_seed, randomised, options)
        else:
            frame, labels = render_randomised(scene_seed, randomised, options)
        image_path = outdir / "images" / f"{name}.jpg"
        pictures = [(image_path, frame)] + ([(outdir / "references" / image_path.name, empty)] if empty is not None else [])
        for path, picture in pictures:
            if not cv2.imwrite(str(path), picture, [cv2.IMWRITE_JPEG_QUALITY, quality]):
                raise OSError(f"could not write {path}")
        record = {
            "image": image_path.name,
            "width": frame.shape[1],
            "height": frame.shape[0],
            "generated": True,
            "dice": [d.to_json() for d in labels.dice],
            "scene": labels.conditions,
        }
        (outdir / "labels" / f"{name}.json").write_text(json.dumps(record, indent=1))
        values = " ".join(f"{d.colour}:{'null' if d.value is None else d.value}" for d in labels.dice)
        factors = labels.conditions.get("factors", {})
        rows.append((f"images/{name}.jpg", f"labels/{name}.json", labels.conditions["table"], values,
                     " ".join(f"{k}={v}" for k, v in factors.items())))  # type: ignore[union-attr]
        written.append(image_path)
    with open(outdir / "manifest.csv", "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(("image", "label", "table", "values", "factors"))
        writer.writerows(rows)
    return written


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the synth command (`python -m tools.synth`, also run as `python -m vision synth`)."""
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--width", type=int, default=1600)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--die-px", type=float, default=None, help="die size in px (default: random 26-63)")
    parser.add_argument("--glare", action="store_true", default=None,
                        help="a glare spot on one die of every scene (default: in about a quarter)")
    parser.add_argument("--cocked", action="store_true", default=None,
                        help="a cocked die in every scene (default: in about one in eight)")
    parser.add_argument("--foreign", action="store_true",
                        help="dice of other sets (any paint, some marbled; white, black, red, gold or blue pips)")
    parser.add_argument("--translucent", action="store_true",
                        help="with --foreign: about half the dice see-through, their hidden pips showing")
    parser.add_argument("--by-walls", action="store_true",
                        help="some flat dice resting against a tray wall (about two in five)")
    parser.add_argument("--on-a-die", action="store_true",
                        help="the cocked die (with --cocked, or where there is one) leans on another die, not a wall")
    parser.add_argument("--on-a-cube", action="store_true",
                        help="the cocked die leans on an action cube put down for it, not a wall")
    parser.add_argument("--randomise", action="store_true",
                        help="draw every factor the reader must not depend on (background, dice style, pips, "
                             "corners, size, tilt, blur, camera, light, shadows, distractors, tray) per scene; "
                             "the camera sets the frame size")
    parser.add_argument("--hold-out", action="append", default=[], metavar="FACTOR=VALUE[,VALUE]",
                        help="with --randomise: no scene takes these values (repeatable)")
    parser.add_argument("--only", action="append", default=[], metavar="FACTOR=VALUE[,VALUE]",
                        help="with --randomise: every scene takes one of these values (repeatable)")
    parser.add_argument("--empty-trays", action="store_true",
                        help="also each scene's table without the dice, in references/ (what the camera check "
                             "keeps; `vision evaluate --references` reads beside it)")


def run(args: argparse.Namespace) -> int:
    """Write the labelled folder; exit code 2 with a message on bad arguments or a failed write."""
    if args.count < 1:
        print("synth: --count must be at least 1", file=sys.stderr)
        return 2
    randomised = None
    if args.randomise or args.hold_out or args.only:
        try:
            randomised = allowed_values(parse_choices(args.hold_out, "--hold-out"), parse_choices(args.only, "--only"))
        except ValueError as err:
            print(f"synth: {err}", file=sys.stderr)
            return 2
    options = SceneOptions(width=args.width, height=args.height, die_px=args.die_px,
                           glare=args.glare, cocked=args.cocked, foreign_dice=args.foreign,
                           translucent_dice=args.translucent, dice_by_walls=args.by_walls,
                           cocked_on_a_die=args.on_a_die, cocked_on_a_cube=args.on_a_cube)
    try:
        paths = write_dataset(args.outdir, args.count, args.seed, options, randomised=randomised,
                              empty_trays=args.empty_trays)
    except (OSError, ValueError) as err:
        print(f"synth: {err}", file=sys.stderr)
        return 2
    print(f"wrote {len(paths)} scenes to {args.outdir}")
    return 0


def main(argv: Sequence[str] | None = None, prog: str = "python -m tools.synth") -> int:
    parser = argparse.ArgumentParser(prog=prog, description="Write synthetic labelled tray scenes.")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
