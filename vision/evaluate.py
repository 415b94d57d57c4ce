"""Scoring the reader on a labelled folder (the shared/datasets formats).

Labels are YOLO text files (`class cx cy w h`, value = class + 1) or JSON files
with `dice: [{colour, value, bbox_px, ...}]`. Predictions are matched one-to-one
to labelled dice: a prediction matches a die when its centre lies inside the
die's box enlarged by 25 %, ties going to the nearest centre.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.params import VisionParams
from vision.types import DIE_COLOURS, DiceReading, DieReading

# The scoring rule of the dataset READMEs: a box enlarged by 25 % (12.5 % each side).
MATCH_BOX_GROWTH = 0.25
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


@dataclass(frozen=True)
class LabelledDie:
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in image pixels
    value: int | None  # None for a cocked die (no top face)
    colour: str | None


# What became of one labelled die (or of a reading that matches none: EXTRA).
RIGHT, MISSED, UNSURE, WRONG, COCKED_READ, EXTRA = "right", "missed", "unsure", "wrong", "cocked read", "extra"
# `unsure_by_reason`'s name for a die read without a value and without a reason given.
NO_REASON = "no reason given"


@dataclass(frozen=True)
class Mistake:
    """A labelled die the reader did not get right, or a die read where none is labelled: what
    `evaluate --mistakes` lists, so a figure can be traced to the pictures behind it."""

    image: str
    kind: str  # MISSED, UNSURE, WRONG, COCKED_READ or EXTRA
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in image pixels: the label's (the reading's for EXTRA)
    truth: str  # e.g. "gray 3" or "3" ("cocked"; "" for EXTRA)
    read: str  # e.g. "black 3 at 0.82", "unsure at 0.47" ("" when missed)

    def line(self) -> str:
        x0, y0, x1, y1 = self.box
        return "  ".join(filter(None, [self.image, self.kind, self.truth and f"truth {self.truth}",
                                       self.read and f"read {self.read}", f"box {x0} {y0} {x1} {y1}"]))


@dataclass
class Score:
    """Running totals over a dataset."""

    images: int = 0
    dice: int = 0  # labelled dice with a value
    cocked: int = 0
    matched: int = 0
    right: int = 0  # confident and right value
    wrong_confident: int = 0
    unsure: int = 0
    unsure_reasons: Counter[str] = field(default_factory=Counter)  # labelled dice left unsure, by the reason given
    extra: int = 0
    phantom: int = 0  # extra readings that lie on no labelled die at all (table art, cubes, ...)
    phantom_sure: int = 0  # of those, read with a value and not unsure
    confirmed_images: int = 0  # kept rolls whose labels hold every value the players confirmed
    against_confirmed: int = 0  # sure values beyond those the players confirmed (`stated_against`)
    cocked_confident: int = 0
    images_all_right: int = 0
    read_in_tray_corners: int = 0  # images read beside the empty tray inside their labelled tray corners
    colour_labelled: bool = False
    colour_value_right: int = 0
    per_colour: dict[str, list[int]] = field(default_factory=lambda: {c: [0, 0] for c in DIE_COLOURS})
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((6, 7), int))  # truth x (1-6, unsure)
    ms: list[float] = field(default_factory=list)
    mistakes: list[Mistake] = field(default_factory=list)

    def report(self) -> dict[str, object]:
        n = max(self.dice, 1)
        result: dict[str, object] = {
            "images": self.images,
            "dice": self.dice,
            "value_accuracy": self.right / n,
            "recall": self.matched / n,
            "accuracy_on_matched": self.right / max(self.matched, 1),
            "wrong_but_confident": self.wrong_confident / n,
            "unsure_rate": self.unsure / n,
            "unsure_by_reason": {reason: count / n for reason, count in self.unsure_reasons.most_common()},
            "extra_per_image": self.extra / max(self.images, 1),
            "phantom_per_image": self.phantom / max(self.images, 1),
            "phantom_sure_per_image": self.phantom_sure / max(self.images, 1),
            "all_correct_images": self.images_all_right / max(self.images, 1),
            "read_in_tray_corners": self.read_in_tray_corners,
            "cocked_dice": self.cocked,
            "cocked_read_confidently": self.cocked_confident,
            "median_ms": float(np.median(self.ms)) if self.ms else 0.0,
            "confusion_truth_rows_pred_cols_1to6_unsure": self.confusion.tolist(),
        }
        if self.confirmed_images:  # kept rolls (vision.table_rolls): sure values the players did not confirm
            result["confirmed_images"] = self.confirmed_images
            result["stated_against_confirmed"] = self.against_confirmed
        if self.colour_labelled:
            result["colour_and_value_right"] = self.colour_value_right / n
            result["per_colour_accuracy"] = {c: r / max(t, 1) for c, (r, t) in self.per_colour.items()}
        return result


def load_labels(label_path: Path, width: int, height: int) -> list[LabelledDie]:
    """Dice of one image from a YOLO .txt or a JSON label file."""
    if label_path.suffix == ".json":
        data = json.loads(label_path.read_text(encoding="utf-8"))
        return [
            LabelledDie(tuple(float(v) for v in d["bbox_px"]), d["value"], d.get("colour"))  # type: ignore[arg-type]
            for d in data["dice"]
        ]
    dice = []
    for line in label_path.read_text(encoding="utf-8").split("\n"):
        parts = line.split()
        if len(parts) != 5:
            continue
        cls, cx, cy, w, h = int(parts[0]), *(float(p) for p in parts[1:])
        box = ((cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height)
        dice.append(LabelledDie(box, cls + 1, None))
    return dice


def iter_dataset(folder: Path) -> Iterator[tuple[Path, Path]]:
    """(image, label) pairs of a dataset folder with images/ and labels/."""
    for image in sorted((folder / "images").iterdir()):
        if image.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        for suffix in (".json", ".txt"):
            label = folder / "labels" / (image.stem + suffix)
            if label.exists():
                yield image, label
                break


def match(dice: list[LabelledDie], predictions: tuple[DieReading, ...]) -> dict[int, int]:
    """Labelled-die index -> prediction index, one-to-one, nearest centres first."""
    pairs = []
    for i, die in enumerate(dice):
        x0, y0, x1, y1 = die.box
        gx, gy = (x1 - x0) * MATCH_BOX_GROWTH / 2, (y1 - y0) * MATCH_BOX_GROWTH / 2
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for j, p in enumerate(predictions):
            px, py = p.x + p.w / 2, p.y + p.h / 2
            if x0 - gx <= px <= x1 + gx and y0 - gy <= py <= y1 + gy:
                pairs.append((float(np.hypot(px - cx, py - cy)), i, j))
    pairs.sort()
    taken_dice: dict[int, int] = {}
    taken_predictions: set[int] = set()
    for _, i, j in pairs:
        if i not in taken_dice and j not in taken_predictions:
            taken_dice[i] = j
            taken_predictions.add(j)
    return taken_dice


def on_a_die(dice: list[LabelledDie], prediction: DieReading) -> bool:
    """Whether a reading's centre lies on some labelled die (its box grown as for matching):
    a reading that matches no die but lies on one reads a die twice; one that lies on none is
    a phantom, something that is no die taken for one."""
    px, py = prediction.x + prediction.w / 2, prediction.y + prediction.h / 2
    for die in dice:
        x0, y0, x1, y1 = die.box
        gx, gy = (x1 - x0) * MATCH_BOX_GROWTH / 2, (y1 - y0) * MATCH_BOX_GROWTH / 2
        if x0 - gx <= px <= x1 + gx and y0 - gy <= py <= y1 + gy:
            return True
    return False


def judge(die: LabelledDie, prediction: DieReading | None, use_colour: bool) -> str:
    """The outcome for one labelled die and the reading matched to it (None: none matched)."""
    confident = prediction is not None and not prediction.unsure and prediction.value is not None
    if die.value is None:  # cocked: no top face, so only a confident reading is wrong
        return COCKED_READ if confident else RIGHT
    if prediction is None:
        return MISSED
    if not confident:
        return UNSURE
    colour_ok = not use_colour or prediction.colour == die.colour
    return RIGHT if prediction.value == die.value and colour_ok else WRONG


def _named(colour: str | None, value: int | None) -> str:
    return " ".join(str(part) for part in (colour, value) if part is not None)


def as_truth(die: LabelledDie, use_colour: bool) -> str:
    """A labelled die in words: `gray 3`, `3` (colours not scored) or `cocked`."""
    return "cocked" if die.value is None else _named(die.colour if use_colour else None, die.value)


def as_read(prediction: DieReading) -> str:
    """A reading in words: `black 3 at 0.82`, `black unsure at 0.47`, `unsure (leaning) at 0.91`."""
    if prediction.unsure or prediction.value is None:
        why = f" ({prediction.reason.value})" if prediction.reason else ""
        return f"{_named(prediction.colour, None)} unsure{why} at {prediction.confidence:.2f}".lstrip()
    return f"{_named(prediction.colour, prediction.value)} at {prediction.confidence:.2f}"


def every_die_labelled(label_path: Path) -> bool:
    """Whether the labels hold every die in the picture: not a kept roll whose labels leave out
    dice the players confirmed (`dice_in_roll`, vision.table_rolls), where a reading off the
    labelled dice may be one of those; datasets label every die. ValueError for a JSON label
    file that cannot be read (as `load_labels`)."""
    if label_path.suffix != ".json":
        return True
    data = json.loads(label_path.read_text(encoding="utf-8"))
    in_roll = data.get("dice_in_roll") if isinstance(data, dict) else None
    return not isinstance(in_roll, int) or len(data.get("dice", [])) >= in_roll


def confirmed_of(label_path: Path) -> dict[str, Counter[int]] | None:
    """The values the players confirmed for a kept roll, by colour (`confirmed`,
    vision.table_rolls), whether or not the reader found the dice to label with them; None for a
    label that holds none (a dataset's, or a roll kept before they were). ValueError for a JSON
    label file that cannot be read or holds them malformed."""
    if label_path.suffix != ".json":
        return None
    data = json.loads(label_path.read_text(encoding="utf-8"))
    given = data.get("confirmed") if isinstance(data, dict) else None
    if given is None:
        return None
    if not isinstance(given, dict) or not all(
            isinstance(values, list) and all(type(v) is int and 1 <= v <= 6 for v in values) for values in given.values()):
        raise ValueError(f"{label_path}: 'confirmed' is not a list of values 1-6 for each colour")
    return {str(colour): Counter(values) for colour, values in given.items()}


def stated_against(reading: DiceReading, confirmed: dict[str, Counter[int]], by_colour: bool) -> int:
    """How many dice `reading` states sure beyond the values the players confirmed: of each
    colour (`by_colour`) or of the roll, the dice read with a value more often than it was
    confirmed. Each is a die stated wrongly (or no die at all), whether or not the reader found
    the roll's dice to label: the one measure of sure mistakes on the rolls it read worst."""
    sure = [d for d in reading.dice if not d.unsure and d.value is not None]
    if not by_colour:
        given = sum(confirmed.values(), Counter[int]())
        return (Counter(int(d.value) for d in sure if d.value is not None) - given).total()
    against = 0
    for colour in {d.colour for d in sure}:
        read = Counter(int(d.value) for d in sure if d.colour == colour and d.value is not None)
        against += (read - confirmed.get(colour or "", Counter[int]())).total()
    return against


def score_image(score: Score, dice: list[LabelledDie], reading: DiceReading, use_colour: bool,
                image: str = "", every_die: bool = True) -> None:
    """Add one image's result to the totals, and what it got wrong to `score.mistakes`. A
    reading on no labelled die is a phantom only where the labels hold `every_die`."""
    score.images += 1
    score.ms.append(reading.ms)
    matches = match(dice, reading.dice)
    score.extra += len(reading.dice) - len(matches)
    all_right = len(reading.dice) == len(matches)
    for i, die in enumerate(dice):
        prediction = reading.dice[matches[i]] if i in matches else None
        outcome = judge(die, prediction, use_colour)
        if outcome != RIGHT:
            all_right = False
            x0, y0, x1, y1 = (round(v) for v in die.box)
            score.mistakes.append(Mistake(image, outcome, (x0, y0, x1, y1), as_truth(die, use_colour),
                                          "" if prediction is None else as_read(prediction)))
        if die.value is None:
            score.cocked += 1
            score.cocked_confident += outcome == COCKED_READ
            continue
        score.dice += 1
        if use_colour and die.colour in score.per_colour:
            score.per_colour[die.colour][1] += 1
            score.per_colour[die.colour][0] += outcome == RIGHT
        if prediction is None:
            continue
        score.matched += 1
        read = prediction.value
        unsure = outcome == UNSURE or read is None
        score.confusion[die.value - 1, 6 if unsure or read is None else read - 1] += 1
        if unsure:
            score.unsure += 1
            score.unsure_reasons[prediction.reason.value if prediction.reason is not None else NO_REASON] += 1
            continue
        score.right += prediction.value == die.value
        score.colour_value_right += outcome == RIGHT
        score.wrong_confident += outcome == WRONG
    matched = set(matches.values())
    for j, prediction in enumerate(reading.dice):
        if j not in matched:
            if every_die and not on_a_die(dice, prediction):
                score.phantom += 1
                score.phantom_sure += not prediction.unsure and prediction.value is not None
            box = (prediction.x, prediction.y, prediction.x + prediction.w, prediction.y + prediction.h)
            score.mistakes.append(Mistake(image, EXTRA, box, "", as_read(prediction)))
    if all_right:
        score.images_all_right += 1


def evaluate(
    folder: Path,
    read: Callable[[np.ndarray], DiceReading],
    score_colour: bool = True,
    read_beside_empty_tray: Callable[[np.ndarray, np.ndarray, CameraCheck | None], DiceReading] | None = None,
) -> Score:
    """Read every labelled image of `folder` with `read` and score it.

    Colours are scored when `score_colour` is set and the labels name them. With
    `read_beside_empty_tray`, each image is read as the app reads after the camera check: with
    its empty-tray picture (references/, the image's name; a missing one is an error) and, where
    its label gives them, the tray's four corners the player would tap and the camera's field of
    view (`camera_check_of`; else None).
    """
    score = Score()
    for image_path, label_path in iter_dataset(folder):
        frame = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        dice = load_labels(label_path, frame.shape[1], frame.shape[0])
        use_colour = score_colour and any(d.colour for d in dice)
        score.colour_labelled |= use_colour
        if read_beside_empty_tray is None:
            reading = read(frame)
        else:
            check = camera_check_of(label_path, frame.shape[1], frame.shape[0])
            score.read_in_tray_corners += check is not None
            reading = read_beside_empty_tray(frame, empty_tray_of(folder, image_path), check)
        score_image(score, dice, reading, use_colour, image_path.name, every_die_labelled(label_path))
        confirmed = confirmed_of(label_path)
        if confirmed is not None:
            score.confirmed_images += 1
            score.against_confirmed += stated_against(reading, confirmed, score_colour)
    return score


@dataclass(frozen=True)
class CameraCheck:
    """What the app's camera check knows beside the empty tray: the tray's four tapped corners
    (4 x 2 frame px) and the camera's field of view across ([vision] camera_fov_deg; None: the
    configured one)."""

    corners: np.ndarray
    field_of_view_deg: float | None


def camera_check_of(label_path: Path, width: int, height: int) -> CameraCheck | None:
    """The camera check a drawn scene's label gives (`scene.tray_corners_px`, `scene.camera_fov_deg`);
    None for labels without corners (photos). ValueError names the file when the corners are not
    four points inside the frame or the field of view is no angle."""
    if label_path.suffix != ".json":
        return None
    scene = json.loads(label_path.read_text(encoding="utf-8")).get("scene", {})
    corners = scene.get("tray_corners_px")
    if corners is None:
        return None
    try:
        points = np.array(corners, float)
    except (TypeError, ValueError):
        points = np.zeros(0)
    if points.shape != (4, 2) or not np.all((points >= 0) & (points <= (width, height))):
        raise ValueError(f"{label_path}: scene.tray_corners_px must be four [x, y] points inside the "
                         f"{width}x{height} picture, got {corners!r}")
    field_of_view = scene.get("camera_fov_deg")
    if field_of_view is not None and not (isinstance(field_of_view, (int, float)) and 0 < field_of_view < 180):
        raise ValueError(f"{label_path}: scene.camera_fov_deg must be an angle in degrees (0-180), "
                         f"got {field_of_view!r}")
    return CameraCheck(points, None if field_of_view is None else float(field_of_view))


def checked_params(params: VisionParams, check: CameraCheck | None, width: int, height: int) -> VisionParams:
    """`params` as the camera check leaves them for a picture of `width` x `height`: its tray
    corners and field of view, where the label gives them (`camera_check_of`)."""
    if check is None:
        return params
    checked = params.with_tray_corners(check.corners.tolist(), width, height)
    if check.field_of_view_deg is not None:
        checked = dataclasses.replace(checked, camera_fov_deg=check.field_of_view_deg)
    return checked


def empty_tray_of(folder: Path, image_path: Path) -> np.ndarray:
    """The picture of the empty tray taken for `image_path` (references/ under its name)."""
    reference = folder / "references" / image_path.name
    empty = cv2.imread(str(reference), cv2.IMREAD_COLOR) if reference.is_file() else None
    if empty is None:
        raise FileNotFoundError(f"{reference}: no empty-tray picture for {image_path.name} (or not one OpenCV reads)")
    return empty
