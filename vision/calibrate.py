"""Colour calibration: learn the six dice's colours and pip polarity under the table's light.

One frame of the six Macao dice (any values) is read, the dice are named with
the built-in colour models (a joint assignment, so only the order of hues and
shades must be right), and each die's measured colour becomes that colour's
model. The dice are found and measured by the reader that will read them (the learned
one when its models load): the two measure body colour in different scales, so the file
records its measure and each reader uses only a calibration made with its own.
The result is saved as JSON and handed to `read_dice`.

Games whose dice repeat colours (each player's dice in the player's colour) learn a set of
colours the same way (`calibrate_set`): one die of each colour in the tray, named jointly
among the game's colours; the reader then names every die by its nearest learnt colour.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.atomic_file import write_atomically
from vision.colour import (
    CLASSICAL_MEASURE,
    LEARNED_MEASURE,
    NEUTRAL_COLOURS,
    ColourModel,
    assign_colours,
    assignment_margins,
    cost_matrix,
    default_models,
    default_models_for,
)
from vision.die import DieFace
from vision.frame import FrameError, check_frame, cut_with_margin, is_blank
from vision.learned import find_faces
from vision.learned_models import LearnedModels
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.reader import detect_faces, learned_models
from vision.types import DIE_COLOURS

CALIBRATION_VERSION = 2  # 2 added "measure"; a version 1 file was made by the classical reader
MEASURES = (LEARNED_MEASURE, CLASSICAL_MEASURE)


class CalibrationError(ValueError):
    """Calibration could not be made or loaded; the message says why."""


@dataclass(frozen=True)
class Calibration:
    """Colour models for the six dice (or a set of colours that repeat, `colours`), learnt under
    one table's light by one reader's colour measure."""

    models: dict[str, ColourModel]
    measure: str = CLASSICAL_MEASURE  # the reader whose body-colour measure made the models
    colours: tuple[str, ...] = DIE_COLOURS  # the six jointly; any other set: each die its nearest

    @property
    def is_set(self) -> bool:
        """A set of colours that may repeat, not Macao's six."""
        return self.colours != DIE_COLOURS

    def to_json(self) -> dict[str, object]:
        document: dict[str, object] = {"version": CALIBRATION_VERSION, "measure": self.measure}
        if self.is_set:
            document["colours"] = list(self.colours)
        document["models"] = [self.models[name].to_json() for name in self.colours]
        return document


def default_calibration_path(params: VisionParams) -> Path:
    """The configured file, or calibration.json in the user's data directory."""
    if params.calibration_path:
        return Path(params.calibration_path).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "windrose" / "calibration.json"


def colour_set_path(params: VisionParams, colours: Sequence[str]) -> Path:
    """Where the learnt colours of a game's set are kept: beside the six dice's calibration."""
    main = default_calibration_path(params)
    return main.with_name(f"{main.stem}-{'-'.join(colours)}{main.suffix}")


def calibrate(frame: np.ndarray, params: VisionParams, learned: LearnedParams | None = None) -> Calibration:
    """Learn colour models from one frame showing the six dice apart from each other (any values).

    The dice are found (in the configured tray region) and measured the way `read_dice` will
    read them: by the learned reader when its models load (`learned` as in read_dice), else by
    the classical one.
    """
    chosen = learned_models(learned)
    if isinstance(chosen, str):
        return _calibrate_classical(frame, params)
    return _calibrate_learned(frame, params, *chosen)


def _calibrate_learned(frame: np.ndarray, params: VisionParams, models: LearnedModels,
                       learned: LearnedParams) -> Calibration:
    """The learned reader's six dice, measured by its `body_colours`, named by a sure joint assignment."""
    try:
        checked, place = cut_with_margin(check_frame(frame, params), params, None)
    except FrameError as exc:
        raise CalibrationError(str(exc)) from exc
    if is_blank(checked, params):
        raise CalibrationError("the frame has no contrast (blank, black or blown out); check the camera and the light")
    # Only dice read plainly (no doubt that it is a die, about its value, or that it lies flat):
    # a colour is learnt from a face seen clearly.
    faces = [face for face in find_faces(checked, params, "macao", models, learned, place=place) if not face.reason]
    if len(faces) < len(DIE_COLOURS):
        raise CalibrationError(
            f"calibration needs the six dice clearly visible; found {len(faces)}. "
            "Spread the dice apart in the tray and try again."
        )
    costs = cost_matrix(faces, default_models(params), params, learned.colour_lightness_floor)
    assignment = assign_colours(costs, leave_out_cost=float("inf"))
    unclear = [DIE_COLOURS[index] for index, margin in zip(assignment, assignment_margins(costs, assignment))
               if index is not None and margin < learned.colour_margin_min]
    if unclear:
        raise CalibrationError(
            f"could not tell the {' and '.join(unclear)} dice apart under this light; "
            "brighten the tray evenly and try again."
        )
    return Calibration(models=_models_from(faces, assignment), measure=LEARNED_MEASURE)


def calibrate_set(frame: np.ndarray, colours: Sequence[str], params: VisionParams,
                  learned: LearnedParams | None = None) -> Calibration:
    """Learn the colours of the dice in the tray, one die of each of `colours` (the colours the
    table plays with, which may repeat in a roll; any values), named jointly.
    CalibrationError says why it failed."""
    chosen = learned_models(learned)
    try:
        if isinstance(chosen, str):
            _, found, _ = detect_faces(frame, params)
            faces, measure, floor, margin_min = found, CLASSICAL_MEASURE, None, params.colour_margin_min
        else:
            models, table = chosen
            checked, place = cut_with_margin(check_frame(frame, params), params, None)
            if is_blank(checked, params):
                raise FrameError("frame has no contrast (blank, black or blown out)")
            faces = find_faces(checked, params, "any", models, table, place=place, polarity=True)
            measure, floor, margin_min = LEARNED_MEASURE, table.colour_lightness_floor, table.colour_margin_min
    except FrameError as exc:
        raise CalibrationError(str(exc)) from exc
    # The body colour is measured on the bevel, so a die whose pips are in doubt (glare on a
    # white face, say) still shows its colour; only the classical reader's pipless blobs may be
    # no die at all.
    faces = [face for face in faces if face.value is not None]
    if len(faces) != len(colours):
        raise CalibrationError(f"calibration needs one die of each of the {len(colours)} colours "
                               f"({', '.join(colours)}) clearly visible; found {len(faces)}. "
                               "Lay them apart in the tray and try again.")
    names = tuple(colours)
    costs = cost_matrix(faces, default_models_for(names, params), params, floor, names)
    assignment = assign_colours(costs, leave_out_cost=float("inf"))
    unclear = [names[index] for index, margin in zip(assignment, assignment_margins(costs, assignment))
               if index is not None and margin < margin_min]
    if unclear:
        raise CalibrationError(f"could not tell the {' and '.join(unclear)} dice apart under this light; "
                               "brighten the tray evenly and try again.")
    # One die per colour is one sample of its shade and its pips, which light and place vary
    # more than a coloured die's hue (and one glint passes for a light pip): the coloured dice
    # are told apart by hue alone, as without a calibration; shade and pips tell the neutral ones.
    colour_models = {name: model if name in NEUTRAL_COLOURS else
                     dataclasses.replace(model, use_lightness=False, pip_polarity="")
                     for name, model in _models_from(faces, assignment, names).items()}
    return Calibration(models=colour_models, measure=measure, colours=names)


def _calibrate_classical(frame: np.ndarray, params: VisionParams) -> Calibration:
    """The classical reader's blobs (clean reads first), measured and named as it reads them."""
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
    return Calibration(models=_models_from(clean, assignment), measure=CLASSICAL_MEASURE)


def _models_from(faces: list[DieFace], assignment: list[int | None],
                 names: Sequence[str] = DIE_COLOURS) -> dict[str, ColourModel]:
    """Each named die's measured colour as its colour's model; pip polarity only from a clean read."""
    models: dict[str, ColourModel] = {}
    for face, index in zip(faces, assignment):
        if index is None:
            raise CalibrationError("could not tell the dice's colours apart; spread them apart and try again")
        name = names[index]
        body = face.colour
        polarity = face.polarity if face.value is not None and not face.reason else ""
        models[name] = ColourModel(name, body.hue_deg, body.chroma, body.lightness, True, polarity)
    return models


def save_calibration(calibration: Calibration, path: Path) -> None:
    """Write the calibration as JSON (directories are created; written atomically)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(calibration.to_json(), indent=1) + "\n")


def load_calibration(path: Path) -> Calibration:
    """Read a calibration file; CalibrationError says what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot read calibration ({exc.strerror})") from exc
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{path}: not a calibration file (bad JSON at line {exc.lineno})") from exc
    try:
        version = data.get("version")
        if version not in (1, CALIBRATION_VERSION):
            raise CalibrationError(f"{path}: calibration version {version!r}, expected {CALIBRATION_VERSION}")
        measure = str(data["measure"]) if version == CALIBRATION_VERSION else CLASSICAL_MEASURE
        if measure not in MEASURES:
            raise CalibrationError(f"{path}: calibration measure {measure!r}, expected one of {', '.join(MEASURES)}")
        models = {model.name: model for model in (ColourModel.from_json(entry) for entry in data["models"])}
        colours = tuple(str(name) for name in data.get("colours", DIE_COLOURS))
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, CalibrationError):
            raise
        raise CalibrationError(f"{path}: calibration file is incomplete or malformed ({exc})") from exc
    if set(models) != set(colours) or len(colours) != len(set(colours)):
        raise CalibrationError(f"{path}: calibration must name each of the colours {', '.join(colours)} once")
    return Calibration(models=models, measure=measure, colours=colours)
