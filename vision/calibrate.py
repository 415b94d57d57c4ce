"""Colour calibration: learn the six dice's colours and pip polarity under the table's light.

One frame of the six Macao dice (any values) is read, the dice are named with
the built-in colour models (a joint assignment, so only the order of hues and
shades must be right), and each die's measured colour becomes that colour's
model. The result is saved as JSON and handed to `read_dice`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.colour import ColourModel, assign_colours, cost_matrix, default_models
from vision.frame import FrameError
from vision.params import VisionParams
from vision.reader import detect_faces
from vision.types import DIE_COLOURS

CALIBRATION_VERSION = 1


class CalibrationError(ValueError):
    """Calibration could not be made or loaded; the message says why."""


@dataclass(frozen=True)
class Calibration:
    """Colour models for the six dice, learnt under one table's light."""

    models: dict[str, ColourModel]

    def to_json(self) -> dict[str, object]:
        return {"version": CALIBRATION_VERSION, "models": [self.models[name].to_json() for name in DIE_COLOURS]}


def default_calibration_path(params: VisionParams) -> Path:
    """The configured file, or calibration.json in the user's data directory."""
    if params.calibration_path:
        return Path(params.calibration_path).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "windrose" / "calibration.json"


def calibrate(frame: np.ndarray, params: VisionParams) -> Calibration:
    """Learn colour models from one frame showing the six dice apart from each other (any values)."""
    try:
        _, faces, _ = detect_faces(frame, params)
    except FrameError as exc:
        raise CalibrationError(str(exc)) from exc
    # The colour needs only the die's body; dice read cleanly come first, then the likeliest others.
    ranked = sorted(faces, key=lambda face: (face.value is None or bool(face.reason), -face.confidence))
    clean = ranked[: len(DIE_COLOURS)]
    if len(clean) < len(DIE_COLOURS):
        raise CalibrationError(
            f"calibration needs the six dice clearly visible; found {len(faces)}. "
            "Spread the dice apart and try again."
        )
    # Six dice, six colours: every die gets one, however unlike the built-in model it looks.
    assignment = assign_colours(cost_matrix(clean, default_models(params), params), leave_out_cost=float("inf"))
    models: dict[str, ColourModel] = {}
    for face, index in zip(clean, assignment):
        if index is None:
            raise CalibrationError("could not tell the six dice's colours apart")
        name = DIE_COLOURS[index]
        body = face.colour
        polarity = face.polarity if face.value is not None and not face.reason else ""
        models[name] = ColourModel(name, body.hue_deg, body.chroma, body.lightness, True, polarity)
    return Calibration(models=models)


def save_calibration(calibration: Calibration, path: Path) -> None:
    """Write the calibration as JSON (directories are created; written atomically)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text(json.dumps(calibration.to_json(), indent=1) + "\n", encoding="utf-8")
    temporary.replace(path)


def load_calibration(path: Path) -> Calibration:
    """Read a calibration file; CalibrationError says what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot read calibration ({exc.strerror})") from exc
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{path}: not a calibration file (bad JSON at line {exc.lineno})") from exc
    try:
        if data.get("version") != CALIBRATION_VERSION:
            raise CalibrationError(f"{path}: calibration version {data.get('version')!r}, expected {CALIBRATION_VERSION}")
        models = {model.name: model for model in (ColourModel.from_json(entry) for entry in data["models"])}
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, CalibrationError):
            raise
        raise CalibrationError(f"{path}: calibration file is incomplete or malformed ({exc})") from exc
    if set(models) != set(DIE_COLOURS):
        raise CalibrationError(f"{path}: calibration must name the six colours {', '.join(DIE_COLOURS)}")
    return Calibration(models=models)
