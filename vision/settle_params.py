"""Thresholds of settling detection and the still frames read, from config.toml's [vision.settle].

Kept apart from the detector so that loading the settings never imports OpenCV
(the command line reads the settings too).
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, ClassVar, Mapping


DEFAULT_CONFIG_PATH = Path(__file__).resolve().parent.parent / "config.toml"
# Timestamps summed from a fixed tick (0.1 + 0.1 + ...) drift by rounding; this much is no drift.
CLOCK_SLACK_S = 1e-6


class SettleConfigError(ValueError):
    """A [vision.settle] value is missing, of the wrong type or out of range."""


@dataclass(frozen=True)
class SettleParams:
    """Thresholds of settling detection and the still frames read (see [vision.settle] in config.toml)."""

    motion_width: int
    blur_px: int
    pixel_change: int
    changed_fraction: float
    still_time_s: float
    max_wait_s: float
    skin_cr_min: int
    skin_cr_max: int
    skin_cb_min: int
    skin_cb_max: int
    skin_min_brightness: int
    hand_fraction: float
    hand_min_width_px: int
    hand_still_limit_s: float
    light_change_fraction: float
    still_frames: int

    # (lowest, highest) allowed for each field; ints and floats keep their type.
    _LIMITS: ClassVar[dict[str, tuple[float, float]]] = {
        "motion_width": (16, 1024),
        "blur_px": (0, 31),
        "pixel_change": (1, 255),
        "changed_fraction": (0.0, 1.0),
        "still_time_s": (0.0, 60.0),
        "max_wait_s": (0.1, 600.0),
        "skin_cr_min": (0, 255),
        "skin_cr_max": (0, 255),
        "skin_cb_min": (0, 255),
        "skin_cb_max": (0, 255),
        "skin_min_brightness": (0, 255),
        "hand_fraction": (0.0, 1.0),
        "hand_min_width_px": (1, 101),
        "hand_still_limit_s": (0.0, 600.0),
        "light_change_fraction": (0.0, 1.0),
        "still_frames": (1, 20),
    }

    @classmethod
    def from_table(cls, table: Mapping[str, Any], where: str = "[vision.settle]") -> "SettleParams":
        """Build from a TOML table; every key is required and range-checked."""
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in table:
                raise SettleConfigError(f"{where}: missing key '{f.name}'")
            raw = table[f.name]
            want_int = f.type in ("int", int)
            if isinstance(raw, bool) or not isinstance(raw, (int, float)) or (want_int and not isinstance(raw, int)):
                kind = "a whole number" if want_int else "a number"
                raise SettleConfigError(f"{where}: '{f.name}' must be {kind}, got {raw!r}")
            low, high = cls._LIMITS[f.name]
            if not (low <= raw <= high) or (isinstance(raw, float) and not math.isfinite(raw)):
                raise SettleConfigError(f"{where}: '{f.name}' = {raw!r} is outside {low}..{high}")
            values[f.name] = int(raw) if want_int else float(raw)
        unknown = sorted(set(table) - set(values))
        if unknown:
            raise SettleConfigError(f"{where}: unknown key(s) {', '.join(unknown)}")
        if values["skin_cr_min"] >= values["skin_cr_max"] or values["skin_cb_min"] >= values["skin_cb_max"]:
            raise SettleConfigError(f"{where}: each skin_*_min must be below its skin_*_max")
        return cls(**values)

    @classmethod
    def from_config_file(cls, path: Path = DEFAULT_CONFIG_PATH) -> "SettleParams":
        """Read [vision.settle] from a config.toml (the repository's own by default)."""
        try:
            with open(path, "rb") as fh:
                config = tomllib.load(fh)
        except OSError as err:
            raise SettleConfigError(f"cannot read {path}: {err.strerror or err}") from err
        except tomllib.TOMLDecodeError as err:
            raise SettleConfigError(f"{path} is not valid TOML: {err}") from err
        table = config.get("vision", {}).get("settle")
        if not isinstance(table, dict):
            raise SettleConfigError(f"{path}: no [vision.settle] table")
        return cls.from_table(table, where=f"{path} [vision.settle]")
