"""Labelled dice from the dataset folders, as one simple record per image.

Both label formats of shared/datasets are read: YOLO text files (the box covers the
top face; value = class + 1) and JSON files (`center_px` is the top-face centre,
`bbox_px` also covers visible side faces, `value` null for a cocked die). Each die
gets a top-face side estimate in pixels, which sets the crop and detector scales.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
# A YOLO box of a turned face is wider than the face; dice in one photo are about one
# size, so each die's side is held near a low quantile of the photo's box sides.
SIDE_QUANTILE = 25
SIDE_CLIP = (0.8, 1.25)
# JSON boxes include side faces: the top face is about this fraction of the least box side.
JSON_FACE_FRACTION = 0.87


@dataclass(frozen=True)
class LabelledDie:
    cx: float
    cy: float
    side: float  # top-face side estimate, px
    value: int  # 1-6; 0 for a cocked die (no readable top face)


@dataclass(frozen=True)
class LabelledImage:
    path: Path
    dice: tuple[LabelledDie, ...]
    below_camera: tuple[float, float] | None = None  # a drawn scene's point below the lens (frame px)

    def load(self) -> np.ndarray:
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise OSError(f"{self.path}: not an image OpenCV can read")
        return image


def load_folder(folder: Path) -> list[LabelledImage]:
    """Every labelled image of a dataset folder (images/ + labels/), sorted by name."""
    records = []
    for image_path in sorted((folder / "images").iterdir()):
        if image_path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        json_label = folder / "labels" / f"{image_path.stem}.json"
        yolo_label = folder / "labels" / f"{image_path.stem}.txt"
        if json_label.exists():
            records.append(LabelledImage(image_path, _from_json(json_label), _below_camera(json_label)))
        elif yolo_label.exists():
            records.append(LabelledImage(image_path, _from_yolo(yolo_label, image_path)))
    return records


def _from_json(label: Path) -> tuple[LabelledDie, ...]:
    data = json.loads(label.read_text(encoding="utf-8"))
    dice = data["dice"]
    known = data.get("scene", {}).get("die_px")
    least = min(min(d["bbox_px"][2] - d["bbox_px"][0], d["bbox_px"][3] - d["bbox_px"][1]) for d in dice)
    side = float(known) if known else least * JSON_FACE_FRACTION
    return tuple(  # a drawn scene's label gives each die's own face side (a tilted camera sees far dice smaller)
        LabelledDie(float(d["center_px"][0]), float(d["center_px"][1]), float(d.get("face_side_px") or side),
                    int(d["value"] or 0)) for d in dice
    )


def _below_camera(label: Path) -> tuple[float, float] | None:
    """Where a drawn scene's camera stands over the table, if its label says (photos do not)."""
    point = json.loads(label.read_text(encoding="utf-8")).get("scene", {}).get("below_camera_px")
    return (float(point[0]), float(point[1])) if point else None


def _from_yolo(label: Path, image_path: Path) -> tuple[LabelledDie, ...]:
    image = cv2.imread(str(image_path), cv2.IMREAD_GRAYSCALE)
    if image is None:
        raise OSError(f"{image_path}: not an image OpenCV can read")
    height, width = image.shape[:2]
    rows = [line.split() for line in label.read_text(encoding="utf-8").splitlines() if len(line.split()) == 5]
    if not rows:
        return ()
    try:
        boxes = np.array([[float(v) for v in row[1:]] for row in rows]) * [width, height, width, height]
        classes = [int(row[0]) for row in rows]
    except ValueError as exc:
        raise ValueError(f"{label}: not a readable YOLO label file ({exc})") from exc
    least = np.minimum(boxes[:, 2], boxes[:, 3])
    typical = float(np.percentile(least, SIDE_QUANTILE))
    sides = np.clip(least, SIDE_CLIP[0] * typical, SIDE_CLIP[1] * typical)
    return tuple(
        LabelledDie(float(b[0]), float(b[1]), float(s), value_class + 1) for b, s, value_class in zip(boxes, sides, classes)
    )


def load_spec(spec: str) -> list[LabelledImage]:
    """`FOLDER` (every image), `FOLDER:even` or `FOLDER:odd` (every other image by sorted
    name: a hold-out split by image)."""
    folder, _, part = spec.partition(":")
    records = load_folder(Path(folder))
    if part == "even":
        return records[0::2]
    if part == "odd":
        return records[1::2]
    if part:
        raise ValueError(f"{spec}: the part after ':' must be 'even' or 'odd'")
    return records


def load_specs(specs: list[str]) -> list[LabelledImage]:
    return [record for spec in specs for record in load_spec(spec)]


def load_weighted_specs(specs: list[str], default_copies: int) -> tuple[list[LabelledImage], list[int]]:
    """`FOLDER[:even|odd][@N]` specs: the records, and per record how many times its dice are
    drawn each epoch (N, else `default_copies`). Weighting a set up this way keeps each image
    in memory once, unlike naming the folder twice."""
    records: list[LabelledImage] = []
    copies: list[int] = []
    for spec in specs:
        folder_spec, at, times = spec.partition("@")
        if at and not (times.isdigit() and int(times) >= 1):
            raise ValueError(f"{spec}: the part after '@' must be a whole number of copies, 1 or more")
        these = load_spec(folder_spec)
        records += these
        copies += [int(times) if at else default_copies] * len(these)
    return records, copies
