"""`tools.training.unstretch`: photos squeezed square by an export get their camera's aspect back."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.training.unstretch import main, unstretch

# Square dice (left, top, side) on a 3:4 portrait photo, 120 x 160 px.
DICE = ((20, 30, 24), (70, 100, 24))


def squeezed_photo(folder: Path, name: str, quarter_turned: bool) -> None:
    """A 3:4 photo of square dice stretched to 160 x 160, as the export did, with its YOLO labels."""
    photo = np.full((160, 120, 3), 90, np.uint8)
    for x, y, side in DICE:
        cv2.rectangle(photo, (x, y), (x + side - 1, y + side - 1), (240, 240, 240), -1)
    if quarter_turned:
        photo = np.ascontiguousarray(np.rot90(photo))
    height, width = photo.shape[:2]
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    lines = []
    for x, y, side in DICE:
        box = (x, y, side, side) if not quarter_turned else (y, width - x - side, side, side)
        lines.append(f"0 {(box[0] + box[2] / 2) / width} {(box[1] + box[3] / 2) / height} "
                     f"{box[2] / width} {box[3] / height}")
    (folder / "labels" / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    cv2.imwrite(str(folder / "images" / f"{name}.png"), cv2.resize(photo, (160, 160), interpolation=cv2.INTER_CUBIC))


def dice_aspects(path: Path) -> list[float]:
    """Width / height of each bright square in the picture."""
    grey = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    count, _, stats, _ = cv2.connectedComponentsWithStats((grey > 165).astype(np.uint8))
    return [stats[i, cv2.CC_STAT_WIDTH] / stats[i, cv2.CC_STAT_HEIGHT] for i in range(1, count)]


def test_squeezed_dice_come_out_square_whichever_way_the_photo_was_turned(tmp_path: Path) -> None:
    source, out = tmp_path / "set", tmp_path / "out"
    squeezed_photo(source, "upright", quarter_turned=False)
    squeezed_photo(source, "turned", quarter_turned=True)
    before = {name: dice_aspects(source / "images" / f"{name}.png") for name in ("upright", "turned")}
    assert min(before["upright"]) > 1.25 and max(before["turned"]) < 0.8, "the squeeze this tool undoes"

    counts = unstretch(str(source), out, 4 / 3)

    assert counts == {"taller": 1, "wider": 1, "kept": 0}
    upright, turned = (cv2.imread(str(out / "images" / f"{name}.png")) for name in ("upright", "turned"))
    assert upright.shape[:2] == (213, 160) and turned.shape[:2] == (160, 213)
    for name in ("upright", "turned"):
        assert all(0.92 < aspect < 1.08 for aspect in dice_aspects(out / "images" / f"{name}.png")), name
        assert (out / "labels" / f"{name}.txt").read_text() == (source / "labels" / f"{name}.txt").read_text()


def test_a_half_is_written_alone_and_a_photo_without_dice_keeps_its_size(tmp_path: Path) -> None:
    source, out = tmp_path / "set", tmp_path / "out"
    for name in ("a", "b", "c"):
        squeezed_photo(source, name, quarter_turned=False)
    (source / "labels" / "b.txt").write_text("", encoding="utf-8")

    assert unstretch(f"{source}:odd", out, 4 / 3) == {"taller": 0, "wider": 0, "kept": 1}
    assert sorted(p.name for p in (out / "images").iterdir()) == ["b.png"]
    assert cv2.imread(str(out / "images" / "b.png")).shape[:2] == (160, 160)


@pytest.mark.parametrize("problem, expected", [
    ("no folder", "not a dataset folder"),
    ("json labels", "only YOLO label files"),
    ("bad label", "not a readable YOLO label file"),
    ("same folder", "would write over the dataset"),
    ("bad part", "must be 'even' or 'odd'"),
])
def test_what_it_cannot_use_is_named_without_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          problem: str, expected: str) -> None:
    source, out = tmp_path / "set", tmp_path / "out"
    squeezed_photo(source, "a", quarter_turned=False)
    spec = str(source)
    if problem == "no folder":
        spec = str(tmp_path / "missing")
    elif problem == "json labels":
        (source / "labels" / "a.txt").rename(source / "labels" / "a.json")
        (source / "labels" / "a.json").write_text('{"dice": [{"bbox_px": [0, 0, 9, 9], "center_px": [4, 4], '
                                                  '"value": 1}]}', encoding="utf-8")
    elif problem == "bad label":
        (source / "labels" / "a.txt").write_text("0 0.5 0.5 wide tall\n", encoding="utf-8")
    elif problem == "same folder":
        out = source
    elif problem == "bad part":
        spec = f"{source}:third"

    assert main([spec, str(out)]) == 2

    message = capsys.readouterr().err
    assert expected in message and "Traceback" not in message
