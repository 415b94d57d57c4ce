"""The dice reader: frame in, DiceReading out.

Two paths. The learned one (vision/learned.py: a heatmap detector and a die-face
classifier, ONNX through OpenCV's DNN module) runs when [vision.learned] enables it
and its model files load. Otherwise the classical chain of small stages runs:
check frame -> coarse copy -> foreground -> die candidates -> read each candidate
(pips, layout, confidence, body colour) -> split blobs of touching dice -> (with a picture of
the empty tray) drop what it shows too, read the patches of change no blob covers -> drop
pipless and cube-sized blobs -> (macao) joint colour assignment -> DiceReading.
The reading's message starts with the path that ran.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import time
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.colour import CLASSICAL_MEASURE, assign_colours, assignment_margins, colour_models, cost_matrix, set_colours
from vision.debug import DebugSink, draw_faces, draw_readings, outline_corners, outline_region
from vision.die import DieFace, read_candidate
from vision.frame import (FrameError, WorkFrame, check_frame, inside_corners,
                          is_blank, make_work_frame, tray_corner_pixels)
from vision.heads import load_heads
from vision.lean import LeanNet
from vision.learned import leaning_dice, read_with_model
from vision.learned_models import DiceDetector, DiceNet, DieCandidate, LearnedModels, ModelError, load_lean, model_path
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import VisionParams
from vision.perspective import point_below_camera
from vision.reader_view import reader_view, view_difference
from vision.reference import EmptyTray, TrayDifference
from vision.segment import Candidate, find_candidates, foreground_mask, squareness
from vision.types import DIE_COLOURS, DiceReading, DieReading, ExpectMode
from vision.unsure import LEANING, die_reading

if TYPE_CHECKING:
    from vision.calibrate import Calibration

LEARNED_PATH = "learned reader"
CLASSICAL_PATH = "classical reader"


def read_dice(
    frame: np.ndarray,
    params: VisionParams,
    expect: ExpectMode = "macao",
    calibration: Calibration | None = None,
    region: tuple[int, int, int, int] | None = None,
    debug: DebugSink | None = None,
    learned: LearnedParams | None = None,
    reference: np.ndarray | EmptyTray | None = None,
    look_scale: float | None = None,
    dice_count: int | None = None,
) -> DiceReading:
    """Read the dice in one BGR frame; never raises on bad input (see `message`).

    `reference`: a picture of the empty tray from the same camera (vision.reference; a frame, or
    an `EmptyTray` made of one once), if any:
    either path then finds dice where the picture differs from it and never where it does
    not; one that cannot be compared (another size, camera moved) is left out, and the message
    says so.

    `region`: the tray region (x, y, w, h) in frame pixels; None: the configured one ([vision]
    tray_corners, else tray_left/top/width/height), by default the whole frame. `learned` is the [vision.learned]
    table (the repository's config.toml when None): with `enabled` and loadable models the
    learned path runs, else the classical one.

    `look_scale`: the `look_scale` of the last complete reading of the same camera and tray: the
    learned reader looks at that scale alone where it finds the dice there, in a half to two
    thirds of the time (`vision.looks.remembered_look`): the six dice in macao mode, and in any
    mode `dice_count` of them, where the caller knows how many lie (a game's dice; without a
    count nothing tells that a look found them all, and the looks are judged as ever).
    """
    chosen = learned_models(learned)
    if isinstance(chosen, str):
        lean, lean_note = _lean_for_classical(learned)
        reading = read_classical(frame, params, expect, calibration, region, debug, lean, reference)
        return _labelled(reading, f"{CLASSICAL_PATH} ({'; '.join(filter(None, [chosen, lean_note]))})")
    reading = _read_learned(frame, params, expect, calibration, region, debug, reference, look_scale, dice_count,
                            *chosen)
    trouble = chosen[0].lean_trouble
    path = LEARNED_PATH + (", last layers refitted to this table" if chosen[1].classifier_heads_path else "")
    return _labelled(reading, f"{path} (no leaning check: {trouble})" if trouble else path)


def learned_models(learned: LearnedParams | None = None) -> tuple[LearnedModels, LearnedParams] | str:
    """The loaded models (cached per set of files) and their thresholds, or why the classical path runs."""
    if learned is None:
        configured = _configured_learned()
        if isinstance(configured, str):
            return configured
        learned = configured
    if not learned.enabled:
        return "learned models disabled in [vision.learned]"
    try:
        lean = model_path(learned.lean_path) if learned.lean_check else None
        second = model_path(learned.second_classifier_path) if learned.second_classifier_path else None
        return _models_at(model_path(learned.detector_path), model_path(learned.classifier_path), second, lean,
                          learned.runtime, _heads_file(learned.classifier_heads_path)), learned
    except ModelError as exc:
        return f"learned models not loaded: {exc}"


def _heads_file(path: str) -> tuple[Path, str] | None:
    """The refitted layers' file (`classifier_heads_path`) and a digest of its bytes, which tells
    the models' cache a file written anew from the one it loaded; None for ""."""
    if not path:
        return None
    heads = model_path(path)
    try:
        return heads, hashlib.sha256(heads.read_bytes()).hexdigest()
    except OSError as exc:
        raise ModelError(f"{heads}: the refitted layers cannot be read ({exc.strerror or exc})") from exc


@functools.lru_cache(maxsize=1)
def _configured_learned() -> LearnedParams | str:
    """The repository's [vision.learned] table, or what is wrong with it."""
    try:
        return load_learned_params()
    except (OSError, ValueError) as exc:
        return f"no usable [vision.learned]: {exc}"


@functools.lru_cache(maxsize=4)
def _models_at(detector: Path, classifier: Path, second: Path | None, lean: Path | None, runtime: str,
               heads: tuple[Path, str] | None = None) -> LearnedModels:
    """Models loaded once per set of files (a failed load raises, is not cached, and is tried
    again), each classifier with its refitted last layer where `heads` (`_heads_file`) holds one.
    Without its leaning check the learned reader still reads far better than the classical one,
    which has none either: a lean model that fails to load only turns it off."""
    try:
        layers = {} if heads is None else load_heads(heads[0])
    except (OSError, ValueError) as exc:
        raise ModelError(f"the refitted layers cannot be used: {exc}") from exc
    strangers = sorted(set(layers) - {classifier.name} - ({second.name} if second is not None else set()))
    if strangers:
        raise ModelError(f"{heads[0] if heads else ''}: refitted layers of {', '.join(strangers)}, "
                         "a classifier the reader does not use")
    models = LearnedModels(DiceDetector.load(detector, runtime), DiceNet.load(classifier, runtime, layers.get(classifier.name)),
                           () if second is None else (DiceNet.load(second, runtime, layers.get(second.name)),))
    if lean is None:
        return models
    try:
        return dataclasses.replace(models, lean=load_lean(lean, runtime))
    except ModelError as exc:
        return dataclasses.replace(models, lean_trouble=str(exc))


def _lean_for_classical(learned: LearnedParams | None) -> tuple[tuple[LeanNet, LearnedParams] | None, str]:
    """The leaning check for the classical reader, which has none of its own: the learned one's
    model and thresholds when `lean_check` is on and it loads, else None and why not."""
    table = _configured_learned() if learned is None else learned
    if isinstance(table, str) or not table.lean_check:
        return None, ""
    try:
        return (_lean_at(model_path(table.lean_path), table.runtime), table), ""
    except ModelError as exc:
        return None, f"no leaning check: {exc}"


@functools.lru_cache(maxsize=1)
def _lean_at(path: Path, runtime: str) -> LeanNet:
    """The lean model loaded once (a failed load raises, is not cached, and is tried again)."""
    return load_lean(path, runtime)


def release_learned_models() -> None:
    """Let the loaded models go: their nets keep packed weights and buffers for the largest
    frame read (some 13 MB). A caller that reads only now and then (the app, between rolls)
    gives that back; the next read loads them again (about 2 ms, its first pass some 6 ms
    slower) and reads the same."""
    _models_at.cache_clear()
    _lean_at.cache_clear()


def _labelled(reading: DiceReading, path: str) -> DiceReading:
    return dataclasses.replace(reading, message="; ".join(filter(None, [path, reading.message])))


def _read_learned(
    frame: object,
    params: VisionParams,
    expect: ExpectMode,
    calibration: Calibration | None,
    region: tuple[int, int, int, int] | None,
    debug: DebugSink | None,
    reference: np.ndarray | EmptyTray | None,
    look_scale: float | None,
    dice_count: int | None,
    models: LearnedModels,
    learned: LearnedParams,
) -> DiceReading:
    """The learned reader on the tray region (`region`, else the configured one); boxes in frame pixels."""
    started = time.perf_counter()
    try:
        checked = check_frame(frame, params)
        seen = reader_view(checked, params, region, reference, learned)
    except FrameError as exc:
        return DiceReading(message=str(exc), ms=_ms(started))
    if debug is not None and seen.straight is not None:
        debug.add(f"the tray straightened (camera leaning {seen.straight.tilt_deg:.0f} degrees)", seen.picture)
    reading = read_with_model(seen.picture, params, expect, calibration, models, learned, debug, seen.place, seen.tray,
                              look_scale, dice_count)
    reading = dataclasses.replace(reading, dice=tuple(seen.die_in_frame(d) for d in reading.dice))
    if debug is not None:
        picture = draw_readings(checked, reading.dice)
        place = seen.region
        if place is not None and place.corners is not None:
            outline_corners(picture, place.corners + place.offset)
        elif place is not None and place.counted is not None:
            left, top, width, height = place.counted
            outline_region(picture, (left + place.offset[0], top + place.offset[1], width, height))
        debug.add("read (learned)", picture)
    return dataclasses.replace(reading, ms=_ms(started),
                               message="; ".join(filter(None, [reading.message, seen.note])))


def read_classical(
    frame: np.ndarray,
    params: VisionParams,
    expect: ExpectMode = "macao",
    calibration: Calibration | None = None,
    region: tuple[int, int, int, int] | None = None,
    debug: DebugSink | None = None,
    lean: tuple[LeanNet, LearnedParams] | None = None,
    reference: np.ndarray | EmptyTray | None = None,
) -> DiceReading:
    """The classical reader (segmentation, pip layouts, colour models); never raises on bad input.
    With `lean` (the learned leaning check and its thresholds) a die it takes for cocked is unsure;
    with `reference` (the empty tray, as for `read_dice`) blobs where nothing changed are dropped
    and patches of change no blob covers are read too."""
    started = time.perf_counter()
    if expect not in ("macao", "any"):
        return DiceReading(message=f"unknown expect mode {expect!r}; use 'macao' or 'any'")
    try:
        frame, faces, mask, reference_note = _detect_beside_empty_tray(frame, params, region, reference)
    except FrameError as exc:
        return DiceReading(message=str(exc), ms=_ms(started))
    if debug is not None:
        debug.add("foreground", mask)
    if lean is not None and faces:
        centres = np.array([(x + w / 2.0, y + h / 2.0) for x, y, w, h in (f.box for f in faces)])
        side = float(np.median([f.box[2] for f in faces]))
        corners = tray_corner_pixels(params, frame.shape[1], frame.shape[0]) if region is None else None
        below = None if corners is None else point_below_camera(corners, frame.shape[1], frame.shape[0],
                                                                params.camera_fov_deg)
        cocked = leaning_dice(frame, lean[0], centres, side, lean[1], below, debug)
        faces = [dataclasses.replace(f, reason=LEANING) if flag else f for f, flag in zip(faces, cocked)]
    if expect == "any":
        named, calibration_note = set_colours(faces, calibration, CLASSICAL_MEASURE, params, params.colour_margin_min)
        dice = [die_reading(face, colour, face.reason, doubtful) for face, (colour, doubtful) in zip(faces, named)]
        if debug is not None:
            debug.add("read", draw_faces(frame, [(f, colour, True) for f, (colour, _) in zip(faces, named)]))
        return DiceReading(dice=tuple(dice), ms=_ms(started),
                           message="; ".join(filter(None, [_summary(dice), calibration_note, reference_note])))
    models, calibration_note = colour_models(calibration, CLASSICAL_MEASURE, params)
    costs = cost_matrix(faces, models, params)
    assignment = assign_colours(costs, params.colour_max_cost) if faces else []
    margins = assignment_margins(costs, assignment) if faces else []
    dice = []
    drawn: list[tuple[DieFace, str | None, bool]] = []
    for face, colour_index, margin in zip(faces, assignment, margins):
        if colour_index is None:
            drawn.append((face, None, False))
            continue
        colour = DIE_COLOURS[colour_index]
        dice.append(die_reading(face, colour, face.reason, margin < params.colour_margin_min))
        drawn.append((face, colour, True))
    if debug is not None:
        debug.add("read", draw_faces(frame, drawn))
    message = "; ".join(filter(None, [_summary(dice, expected=len(DIE_COLOURS)), calibration_note, reference_note]))
    return DiceReading(dice=tuple(dice), ms=_ms(started), message=message)


def _detect_beside_empty_tray(
    frame: object, params: VisionParams, region: tuple[int, int, int, int] | None,
    reference: np.ndarray | EmptyTray | None,
) -> tuple[np.ndarray, list[DieFace], np.ndarray, str]:
    """`detect_faces` with the whole frame compared with the empty tray first; the note says why
    a reference given was not used. FrameError as there."""
    if reference is None:
        return (*detect_faces(frame, params, region), "")
    checked = check_frame(frame, params)
    tray, note = view_difference(checked, checked, None, reference, params)
    return (*detect_faces(checked, params, region, tray), note)


def detect_faces(
    frame: object, params: VisionParams, region: tuple[int, int, int, int] | None = None,
    tray: TrayDifference | None = None,
) -> tuple[np.ndarray, list[DieFace], np.ndarray]:
    """Checked frame, the dice read on it (no colour names yet) and the foreground mask; in the
    tray region (x, y, w, h; None: the configured one, of a rectangle or four corners). With
    `tray` (where the frame differs from the empty tray) only dice where it differs, and the
    patches of change no blob covers read as dice too.

    Raises FrameError (with a plain message) for frames that cannot be read.
    """
    checked = check_frame(frame, params)
    if is_blank(checked, params):
        raise FrameError("frame has no contrast (blank, black or blown out)")
    work = make_work_frame(checked, params, region)
    faces, mask = _read_all(checked, work, params, tray)
    corners = tray_corner_pixels(params, checked.shape[1], checked.shape[0]) if region is None else None
    if corners is not None:  # read in the rectangle around the four corners; only dice inside count
        faces = [face for face in faces if inside_corners(corners, *_centre(face))]
    return checked, faces, mask


def _read_all(frame: np.ndarray, work: WorkFrame, params: VisionParams,
              tray: TrayDifference | None = None) -> tuple[list[DieFace], np.ndarray]:
    """Find the die size from the clearest dice, segment again at that size, read every blob.

    Blobs that hold several dice are split; pipless and cube-sized blobs are dropped. With `tray`,
    blobs where the frame does not differ from the empty tray are dropped and the patches of
    change no blob covers are read as well.
    """
    colours = cv2.cvtColor(work.image, cv2.COLOR_BGR2YCrCb)
    mask = foreground_mask(colours, params)
    die_side = _die_side(frame, work, mask, params, tray)
    faces: list[DieFace] = []
    if die_side is not None:
        mask = foreground_mask(colours, params, die_side)
        faces = [read_candidate(frame, work, candidate, params, die_side)
                 for candidate in find_candidates(mask, params, die_side=die_side)]
    if tray is not None:
        faces = [face for face in faces if _changed_under(face, tray, params)]
        faces += [read_candidate(frame, work, candidate, params, die_side)
                  for candidate in _changed_patches(faces, work, tray, die_side, params)]
    return _one_per_die([face for face in faces if face.is_die], params), mask


def _changed_under(face: DieFace, tray: TrayDifference, params: VisionParams) -> bool:
    """Whether enough of the face differs from the empty tray to be a die (as the learned path judges)."""
    x, y, width, height = face.box
    return tray.differs_at(DieCandidate(x + width / 2, y + height / 2, max(width, height, 1), 0.0), params)


def _changed_patches(faces: list[DieFace], work: WorkFrame, tray: TrayDifference, die_side: float | None,
                     params: VisionParams) -> list[Candidate]:
    """The die-sized patches of change no face lies on, as square blobs of the work frame (a die
    the segmentation missed: pale on a pale table, or in a shadow)."""
    found = [DieCandidate(x + w / 2, y + h / 2, max(w, h, 1), 1.0) for x, y, w, h in (f.box for f in faces)]
    typical = None if die_side is None else die_side / work.scale
    patches = []
    height, width = work.image.shape[:2]
    for proposal in tray.proposals(found, typical, 0.0, params):
        side = proposal.side * work.scale
        x0 = int(round((proposal.cx - work.offset[0]) * work.scale - side / 2))
        y0 = int(round((proposal.cy - work.offset[1]) * work.scale - side / 2))
        x1, y1 = min(width, x0 + int(round(side))), min(height, y0 + int(round(side)))
        x0, y0 = max(0, x0), max(0, y0)
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue  # outside the region read
        blob = np.full((y1 - y0, x1 - x0), 255, np.uint8)
        patches.append(Candidate((x0, y0, x1 - x0, y1 - y0), blob, float(side), float(side), 0.0))
    return patches


def _one_per_die(faces: list[DieFace], params: VisionParams) -> list[DieFace]:
    """Drop readings of a die already read from another blob (parts of a split blob can
    each find the same face): the clearest reading of each place is kept."""
    ranked = sorted(faces, key=lambda f: (f.value is None or bool(f.reason), -f.confidence))
    kept: list[DieFace] = []
    for face in ranked:
        size = params.duplicate_distance * max(face.box[2], face.box[3], 1)
        twin = next((i for i, other in enumerate(kept) if np.hypot(*(_centre(face) - _centre(other))) < size), None)
        if twin is None:
            kept.append(face)
        elif face.value is not None and kept[twin].value is not None and face.value != kept[twin].value:
            # The same place read as two different values: trust neither.
            kept[twin] = dataclasses.replace(kept[twin], reason="read differently from two blobs")
    return kept


def _centre(face: DieFace) -> np.ndarray:
    x, y, w, h = face.box
    return np.array([x + w / 2.0, y + h / 2.0])


def _die_side(frame: np.ndarray, work: WorkFrame, mask: np.ndarray, params: VisionParams,
              tray: TrayDifference | None = None) -> float | None:
    """The typical die side (coarse pixels): the median over the squarest blobs that read as dice
    (with `tray`, only those where the frame differs from the empty tray: a die printed on the
    board is no measure).

    Reading stops once enough clean dice are seen; None when no blob has pips at all.
    """
    probes = sorted(find_candidates(mask, params), key=lambda c: -squareness(c))[: params.size_probe_reads]
    clean: list[float] = []
    with_pips: list[float] = []
    for candidate in probes:
        face = read_candidate(frame, work, candidate, params)
        if tray is not None and not _changed_under(face, tray, params):
            continue
        if face.is_die:
            with_pips.append(candidate.side)
        if face.value is not None and not face.reason:
            clean.append(candidate.side)
            if len(clean) >= params.size_probe_enough:
                break
    sides = clean or with_pips
    return float(np.median(sides)) if sides else None


def _summary(dice: list[DieReading], expected: int | None = None) -> str:
    unsure = sum(d.unsure for d in dice)
    parts = []
    if expected is not None and len(dice) != expected:
        parts.append(f"found {len(dice)} of {expected} dice")
    if unsure:
        parts.append(f"{unsure} die/dice unsure")
    return "; ".join(parts)


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0

