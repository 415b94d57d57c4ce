"""A copy of a YOLO dataset folder with each photo given back its camera's aspect.

dice-real-dev2's phone photos (4:3) were stretched to 640x640 by the export they came from, so
every die in them is 1.2-1.4 times wider than tall (or taller than wide, in the quarter-turned
copies). No camera at a table does that to a die, so judged as they are, those photos measure the
reader on dice it will never see. This writes the photos stretched back along their short side,
by `--aspect` (4:3), the way the labelled boxes say: a photo whose boxes are wider than tall grows
in height, one whose boxes are taller than wide grows in width. YOLO labels are fractions of the
picture, so they stay true and are copied as they are.

    python -m tools.training.unstretch ../shared/datasets/dice-real-dev2 /tmp/real2_4x3
    python -m tools.training.unstretch ../shared/datasets/dice-real-dev2:odd /tmp/real2_odd_4x3   # the held-out half
"""

from __future__ import annotations

import argparse
import shutil
import sys
from fractions import Fraction
from pathlib import Path

import cv2
import numpy as np

from tools.training.data import load_spec

JPEG_QUALITY = 95


class UnstretchError(ValueError):
    """A folder or label this tool cannot use; the message names it."""


def box_aspect(label: Path, width: int, height: int) -> float | None:
    """The median width / height of the labelled boxes in pixels; None for a photo without dice."""
    try:
        rows = [line.split() for line in label.read_text(encoding="utf-8").splitlines() if line.strip()]
        boxes = np.array([[float(v) for v in row[3:5]] for row in rows if len(row) == 5])
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UnstretchError(f"{label}: not a readable YOLO label file ({exc})") from exc
    if len(boxes) == 0 or np.any(boxes <= 0):
        return None
    return float(np.median(boxes[:, 0] * width / (boxes[:, 1] * height)))


def unstretched_size(width: int, height: int, aspect: float | None, ratio: float) -> tuple[int, int]:
    """The picture's size with the stretch undone: the axis the dice are squeezed along grows by
    `ratio`. Every photo was stretched one way or the other, so only the direction is asked of
    the boxes (in a slanted view they also hold side faces, and a stretched photo's boxes can
    come out nearly square); a photo without dice keeps its size."""
    if aspect is None:
        return width, height
    if aspect >= 1.0:
        return width, round(height * ratio)
    return round(width * ratio), height


def unstretch(spec: str, out: Path, ratio: float) -> dict[str, int]:
    """Write the images of `spec` (`FOLDER[:even|odd]`) with their aspect restored, and their labels,
    into `out` (images/, labels/). Counts of photos grown in height, in width, and left as they were."""
    folder = Path(spec.partition(":")[0])
    if not (folder / "images").is_dir() or not (folder / "labels").is_dir():
        raise UnstretchError(f"{folder}: not a dataset folder (needs images/ and labels/)")
    if out.resolve() == folder.resolve():
        raise UnstretchError(f"{out}: would write over the dataset it reads")
    records = load_spec(spec)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    counts = {"taller": 0, "wider": 0, "kept": 0}
    for record in records:
        label = folder / "labels" / f"{record.path.stem}.txt"
        if not label.is_file():
            raise UnstretchError(f"{label}: only YOLO label files (.txt) can be carried over")
        image = record.load()
        height, width = image.shape[:2]
        size = unstretched_size(width, height, box_aspect(label, width, height), ratio)
        counts["taller" if size[1] > height else "wider" if size[0] > width else "kept"] += 1
        resized = cv2.resize(image, size, interpolation=cv2.INTER_CUBIC) if size != (width, height) else image
        target = out / "images" / record.path.name
        if not cv2.imwrite(str(target), resized, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
            raise UnstretchError(f"{target}: could not be written")
        shutil.copyfile(label, out / "labels" / label.name)
    return counts


def aspect_ratio(text: str) -> float:
    """`4:3`, `4/3` or `1.333` as a number above 1."""
    try:
        value = float(Fraction(text.replace(":", "/")))
    except (ValueError, ZeroDivisionError) as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is no aspect ratio (try 4:3)") from exc
    if value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r}: the aspect ratio must be above 1 (long side : short side)")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.training.unstretch", description=__doc__.splitlines()[0])
    parser.add_argument("source", help="a dataset folder with YOLO labels, optionally FOLDER:even or FOLDER:odd")
    parser.add_argument("out", type=Path, help="the folder to write (images/ and labels/)")
    parser.add_argument("--aspect", type=aspect_ratio, default=4 / 3, help="the camera's aspect ratio (default 4:3)")
    args = parser.parse_args(argv)
    try:
        counts = unstretch(args.source, args.out, args.aspect)
    except (ValueError, OSError) as exc:
        print(f"unstretch: {exc}", file=sys.stderr)
        return 2
    print(f"{args.out}: {counts['taller']} photos made taller, {counts['wider']} wider, {counts['kept']} kept as they were")
    return 0


if __name__ == "__main__":
    sys.exit(main())
