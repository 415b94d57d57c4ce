"""The dice reader's tunable numbers, read from the `[vision]` table of config.toml.

Every threshold the reader uses is a field here and a commented key in
config.toml; the code holds no bare threshold literals. Fields stay flat
(int/float/bool/str) so the app's config loader can check them by type.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.types import DIE_COLOURS

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONFIG_PATH = REPO_ROOT / "config.toml"
# A tray region (left, top, width, height; fractions of the frame) that is the whole frame.
WHOLE_FRAME = (0.0, 0.0, 1.0, 1.0)
CAMERA_FOV_RANGE_DEG = (10.0, 170.0)  # the fields of view across that camera_fov_deg may give
# A tray region's four corners (x, y; fractions of the frame's width and height).
Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]
WHOLE_FRAME_CORNERS: Corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


@dataclass(frozen=True)
class VisionParams:
    """All reader thresholds; see config.toml [vision] for what each one means."""

    # Input checks and scales
    tray_left: float  # the tray region, fractions of the frame's width and height
    tray_top: float
    tray_width: float
    tray_height: float
    tray_margin: float  # how far beyond the region the reader looks, a fraction of the frame's long side
    tray_corners: str  # "" or the region's four corners, "x y x y x y x y" (fractions): over tray_left/...
    camera_fov_deg: float  # the camera's field of view across: where the point below it lies (tilted)
    # The table's own rolls (vision.table_rolls)
    keep_rolls: int  # confirmed rolls kept as a labelled dataset for `vision adapt` (0: none)
    # The empty-tray reference (vision.reference)
    reference_long_side: int  # px: both pictures are compared at this long side
    reference_max_shift: float  # a camera shift beyond this share of the long side: reference not used
    reference_min_match: float  # phase correlation's peak below this: the pictures do not line up
    reference_blur_px: float  # the difference is smoothed this much (px of the small copy)
    reference_change: float  # Lab distance from the empty tray that counts as changed
    reference_max_changed: float  # more of the picture changed than this: reference not used
    reference_probe_radius: float  # die sides round a candidate's centre that are looked at
    reference_min_changed: float  # share of them that must differ for the candidate to stay
    reference_min_side_px: float  # px: smaller patches of change are no die
    reference_min_fill: float  # a patch must fill this share of its shorter extent squared
    reference_max_aspect: float  # longer extent over shorter beyond this: no single die
    reference_patch_sides: float  # a die's patch of change is this many of its top face's sides across ...
    reference_size_min_patches: int  # ... and at least this many such patches measure the dice (0: never)
    min_frame_side: int
    blank_frame_std: float
    blank_check_samples: int
    coarse_max_side: int
    background_shrink: int
    background_median_ksize: int
    background_die_px: float
    background_kernel_dice: float
    read_die_px: int
    # Die segmentation
    foreground_distance: float
    foreground_chroma_weight: float
    long_structure_dice: float
    long_structure_margin: float
    die_min_side_frac: float
    die_max_side_frac: float
    die_min_fill: float
    die_min_rel_side: float
    die_max_aspect: float
    size_probe_reads: int
    size_probe_enough: int
    split_area_ratio: float
    split_max_dice: int
    crop_margin_frac: float
    duplicate_distance: float
    # Pips
    pip_contrast: float
    pip_contrast_faint: float
    pip_grid_step: float
    pip_grid_probe: float
    pip_search_radius: float
    pip_min_diameter_frac: float
    pip_max_diameter_frac: float
    pip_merge_elongation: float
    pip_merge_max: int
    pip_size_spread: float
    pip_contrast_full: float
    pip_exclusion_scale: float
    rejected_spot_penalty: float
    glare_level: int
    glare_max_face_frac: float
    # Top face
    face_seed_radius: float
    face_min_samples: int
    face_colour_tolerance: float
    face_max_aspect: float
    face_min_side_frac: float
    face_max_side_frac: float
    face_edge_margin: float
    face_pip_radius: float
    # Layout check and confidence
    layout_max_error: float
    layout_error_zero: float
    layout_centre_offset_max: float
    layout_single_offset_max: float
    layout_span_min_frac: float
    layout_span_max_frac: float
    layout_diagonal_tolerance_deg: float
    layout_span_min_pips: float
    layout_span_max_pips: float
    layout_max_dropped: int
    layout_outlier_radius: float
    confidence_min: float
    blur_min_sharpness: float
    # Colours
    body_lightness_percentile: float
    colour_hue_weight: float
    colour_chroma_weight: float
    colour_lightness_weight: float
    colour_chroma_neutral: float
    colour_polarity_cost: float
    colour_unread_cost: float
    colour_max_cost: float
    colour_margin_min: float
    default_hue_red: float
    default_hue_blue: float
    default_hue_green: float
    default_hue_violet: float
    default_hue_yellow: float
    default_hue_orange: float
    default_lightness_white: float
    default_lightness_black: float
    default_lightness_gray: float
    default_light_pip_colours: str  # space-separated die colours whose pips are light without calibration
    calibration_path: str

    @property
    def tray(self) -> tuple[float, float, float, float]:
        """The tray region as fractions of the frame: left, top, width, height (with four corners
        set, the upright rectangle around them: what the settling check watches)."""
        corners = self.tray_quad
        if corners is None:
            return self.tray_left, self.tray_top, self.tray_width, self.tray_height
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)

    @property
    def tray_quad(self) -> Corners | None:
        """The tray region's four corners (fractions; clockwise on the picture from the top-left
        one), or None when the region is the rectangle tray_left/top/width/height."""
        return parse_tray_corners(self.tray_corners) if self.tray_corners.strip() else None

    @property
    def tray_outline(self) -> Corners:
        """The tray region's corners (fractions), clockwise, whether it is four corners or a rectangle."""
        if self.tray_quad is not None:
            return self.tray_quad
        left, top, width, height = self.tray
        return (left, top), (left + width, top), (left + width, top + height), (left, top + height)

    def with_tray(self, tray: tuple[float, float, float, float]) -> VisionParams:
        """The same thresholds with another, upright rectangular tray region (fractions, as `tray`)."""
        left, top, width, height = tray
        return dataclasses.replace(self, tray_left=left, tray_top=top, tray_width=width, tray_height=height,
                                   tray_corners="")

    def with_tray_corners(self, corners: Sequence[Sequence[float]], width: int, height: int) -> VisionParams:
        """The same thresholds with a tray region of four corners given in pixels of a `width` x
        `height` frame (as the camera check's four taps); ValueError when they make no region."""
        text = " ".join(f"{float(x) / width:.6f} {float(y) / height:.6f}" for x, y in corners)
        parse_tray_corners(text)
        return dataclasses.replace(self, tray_corners=text)

    @classmethod
    def from_table(cls, table: dict[str, Any]) -> VisionParams:
        """Build from a parsed [vision] table; ValueError names any bad or unknown key.

        Sub-tables (such as [vision.settle], owned by the settling detector) are skipped.
        """
        known = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, value in table.items():
            if isinstance(value, dict):
                continue
            if key not in known:
                raise ValueError(f"[vision] unknown key '{key}'")
            values[key] = _checked(key, known[key].type, value)
        missing = sorted(set(known) - set(values))
        if missing:
            raise ValueError(f"[vision] missing key(s): {', '.join(missing)}")
        unknown_colours = [c for c in values["default_light_pip_colours"].split() if c not in DIE_COLOURS]
        if unknown_colours:
            raise ValueError(f"[vision] key 'default_light_pip_colours': {', '.join(unknown_colours)} "
                             f"not a die colour (use {', '.join(DIE_COLOURS)})")
        check_tray(values["tray_left"], values["tray_top"], values["tray_width"], values["tray_height"])
        if values["tray_corners"].strip():
            parse_tray_corners(values["tray_corners"])
        for key in ("reference_max_shift", "reference_min_match", "reference_max_changed", "reference_min_changed",
                    "reference_min_fill"):
            if values[key] > 1.0:
                raise ValueError(f"[vision] key '{key}' is a share (0-1), got {values[key]!r}")
        if values["reference_patch_sides"] < 1.0:
            raise ValueError("[vision] key 'reference_patch_sides' is a die's patch of change in top-face sides, "
                             f"at least 1, got {values['reference_patch_sides']!r}")
        if values["reference_long_side"] < 32:
            raise ValueError(f"[vision] key 'reference_long_side' must be at least 32 (px), "
                             f"got {values['reference_long_side']!r}")
        low, high = CAMERA_FOV_RANGE_DEG
        if not low <= values["camera_fov_deg"] <= high:
            raise ValueError(f"[vision] key 'camera_fov_deg' is the camera's field of view across in degrees "
                             f"({low:g}-{high:g}), got {values['camera_fov_deg']!r}")
        if not 0.0 <= values["tray_margin"] <= 0.5:
            raise ValueError(f"[vision] key 'tray_margin' is a fraction of the frame's long side (0-0.5), "
                             f"got {values['tray_margin']!r}")
        return cls(**values)


def check_tray(left: float, top: float, width: float, height: float) -> None:
    """A tray region must lie within the frame and cover some of it; ValueError names the key."""
    values = {"tray_left": left, "tray_top": top, "tray_width": width, "tray_height": height}
    for key, value in values.items():
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"[vision] key '{key}' is a fraction of the frame (0-1), got {value!r}")
    for start, size in (("tray_left", "tray_width"), ("tray_top", "tray_height")):
        if values[size] == 0.0:
            raise ValueError(f"[vision] key '{size}' must be above 0: the tray region would be empty")
        if values[start] + values[size] > 1.0:
            raise ValueError(f"[vision] keys '{start}' + '{size}' come to {values[start] + values[size]:g}: "
                             "the tray region must end inside the frame (at most 1)")


def parse_tray_corners(text: str) -> Corners:
    """Four corners written "x y x y x y x y" (fractions of the frame, in any order) as a
    quadrilateral, clockwise on the picture from the corner nearest the top-left; ValueError
    names the key when they are not eight fractions or make no convex region (three in a line,
    or one inside the others' triangle: a slip of the finger)."""
    parts = text.replace(",", " ").split()
    try:
        numbers = [float(part) for part in parts]
    except ValueError:
        raise ValueError(f"[vision] key 'tray_corners' holds eight fractions 'x y x y x y x y', got {text!r}") from None
    if len(numbers) != 8:
        raise ValueError(f"[vision] key 'tray_corners' holds eight fractions (four corners x y), got {len(numbers)}")
    if not all(0.0 <= n <= 1.0 for n in numbers):
        raise ValueError(f"[vision] key 'tray_corners': each corner lies in the frame (fractions 0-1), got {text!r}")
    points = [(numbers[i], numbers[i + 1]) for i in range(0, 8, 2)]
    cx, cy = sum(x for x, _ in points) / 4, sum(y for _, y in points) / 4
    points.sort(key=lambda p: math.atan2(p[1] - cy, p[0] - cx))  # clockwise on the picture (y runs down)
    first = min(range(4), key=lambda i: points[i][0] + points[i][1])
    points = points[first:] + points[:first]
    turns = [(points[(i + 1) % 4][0] - points[i][0]) * (points[(i + 2) % 4][1] - points[(i + 1) % 4][1])
             - (points[(i + 1) % 4][1] - points[i][1]) * (points[(i + 2) % 4][0] - points[(i + 1) % 4][0])
             for i in range(4)]
    if min(turns) <= 0.0:
        raise ValueError(f"[vision] key 'tray_corners': {text!r} is no convex quadrilateral "
                         "(three corners in a line, or one inside the other three)")
    return points[0], points[1], points[2], points[3]


def _checked(key: str, type_name: Any, value: Any) -> Any:
    """Return `value` as the field's type, or raise ValueError naming the key."""
    wanted = {"int": int, "float": float, "bool": bool, "str": str}[str(type_name)]
    if wanted is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, bool) and wanted is not bool:
        raise ValueError(f"[vision] key '{key}' must be {wanted.__name__}, got a boolean")
    if not isinstance(value, wanted):
        raise ValueError(
            f"[vision] key '{key}' must be {wanted.__name__}, got {type(value).__name__} {value!r}"
        )
    if isinstance(value, int | float) and value < 0:
        raise ValueError(f"[vision] key '{key}' must not be negative, got {value!r}")
    return value


def vision_table(override_path: Path | None = None) -> dict[str, Any]:
    """The [vision] table (sub-tables included) of the repository's config.toml, with the keys an
    override file sets laid over it, as the app lays a user's file over the defaults: the file
    need only hold the keys it changes.

    Raises ValueError naming the file on bad TOML, OSError if a file cannot be read.
    """
    table = _read_vision(DEFAULT_CONFIG_PATH)
    return table if override_path is None else _laid_over(table, _read_vision(override_path))


def _read_vision(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML ({exc})") from exc
    table = data.get("vision", {})
    if not isinstance(table, dict):
        raise ValueError(f"{path}: [vision] is not a table")
    return table


def _laid_over(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        merged[key] = _laid_over(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return merged


def load_vision_params(override_path: Path | None = None) -> VisionParams:
    """[vision] of the repository's config.toml, with an override file's keys laid over it.

    Raises ValueError naming the override file (the repository's own holds every key) on a bad
    or unknown key, OSError if a file cannot be read.
    """
    table = vision_table(override_path)
    try:
        return VisionParams.from_table(table)
    except ValueError as exc:
        raise ValueError(f"{override_path or DEFAULT_CONFIG_PATH}: {exc}") from exc
