"""Scoring a labelled folder (vision/evaluate.py): the totals behind every figure in the READMEs,
and the list of mistakes that traces a figure to the pictures behind it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from vision.evaluate import (COCKED_READ, EXTRA, MISSED, NO_REASON, RIGHT, UNSURE, WRONG, LabelledDie, Score,
                             confirmed_of, judge, score_image, stated_against)
from vision.types import DiceReading, DieReading, UnsureReason


def _label(x: float, value: int | None, colour: str | None) -> LabelledDie:
    return LabelledDie((x, 100.0, x + 40.0, 140.0), value, colour)


def _read(x: int, value: int | None, colour: str | None, confidence: float = 0.95,
          reason: UnsureReason | None = None) -> DieReading:
    return DieReading(x, 100, 40, 40, colour, value, confidence, unsure=value is None, reason=reason)


# One picture with every outcome: (label, reading matched to it or None, expected outcome).
CASES = [
    (_label(0, 3, "red"), _read(0, 3, "red"), RIGHT),
    (_label(100, 4, "blue"), _read(100, 5, "blue", 0.82), WRONG),
    (_label(200, 2, "green"), _read(200, 2, "gray"), WRONG),  # value right, colour wrong
    (_label(300, 6, "black"), _read(300, None, "black", 0.47, UnsureReason.GLARE), UNSURE),
    (_label(400, 1, "gray"), None, MISSED),
    (_label(500, None, "violet"), _read(500, 1, "violet"), COCKED_READ),
    (_label(600, None, "violet"), _read(600, None, "violet", 0.3), RIGHT),  # a cocked die asked for
]


def test_judge_names_each_outcome() -> None:
    assert [judge(label, reading, use_colour=True) for label, reading, _ in CASES] == [o for _, _, o in CASES]
    # In `any` mode the colour is not scored: a right value is right.
    assert judge(CASES[2][0], CASES[2][1], use_colour=False) == RIGHT


def test_a_picture_with_every_outcome_is_counted_and_its_mistakes_listed() -> None:
    extra = _read(800, 5, None, 0.9)
    reading = DiceReading(dice=tuple(r for _, r, _ in CASES if r is not None) + (extra,))
    score = Score(colour_labelled=True)
    score_image(score, [label for label, _, _ in CASES], reading, use_colour=True, image="a.jpg")
    report = score.report()
    assert (score.dice, score.cocked, score.matched) == (5, 2, 4)
    assert (score.right, score.colour_value_right, score.wrong_confident, score.unsure) == (2, 1, 2, 1)
    assert (score.cocked_confident, score.extra, score.images_all_right) == (1, 1, 0)
    assert report["per_colour_accuracy"]["red"] == 1.0 and report["per_colour_accuracy"]["green"] == 0.0
    assert score.confusion[3, 4] == 1 and score.confusion[5, 6] == 1  # a 4 read 5; a 6 unsure
    assert report["unsure_by_reason"] == {"glare": 1 / 5}
    assert [(m.kind, m.truth, m.read) for m in score.mistakes] == [
        (WRONG, "blue 4", "blue 5 at 0.82"),
        (WRONG, "green 2", "gray 2 at 0.95"),
        (UNSURE, "black 6", "black unsure (glare) at 0.47"),
        (MISSED, "gray 1", ""),
        (COCKED_READ, "cocked", "violet 1 at 0.95"),
        (EXTRA, "", "5 at 0.90"),
    ]
    assert score.mistakes[3].line() == "a.jpg  missed  truth gray 1  box 400 100 440 140"
    assert score.mistakes[5].box == (800, 100, 840, 140)


def test_unsure_dice_are_counted_by_the_reason_given() -> None:
    """The share of the labelled dice left unsure for each reason, commonest first: where a set's
    dice are lost (cocked dice asked for are not among them: they have no value to read)."""
    labels = [_label(x, 2, None) for x in (0, 100, 200, 300)] + [_label(400, None, None)]
    reading = DiceReading(dice=(_read(0, None, None, 0.9, UnsureReason.LEANING), _read(100, None, None, 0.6),
                                _read(200, None, None, 0.9, UnsureReason.LEANING), _read(300, 2, None),
                                _read(400, None, None, 0.9, UnsureReason.LEANING)))
    score = Score()
    score_image(score, labels, reading, use_colour=False)
    assert list(score.report()["unsure_by_reason"].items()) == [("leaning", 2 / 4), (NO_REASON, 1 / 4)]


def test_a_picture_read_right_is_all_right_and_lists_nothing() -> None:
    labels = [_label(0, 3, "red"), _label(100, 4, "blue")]
    score = Score()
    score_image(score, labels, DiceReading(dice=(_read(0, 3, "red"), _read(100, 4, "blue"))), use_colour=True)
    assert score.mistakes == [] and score.images_all_right == 1 and score.colour_value_right == 2


def test_a_reading_on_no_die_is_a_phantom_and_a_second_reading_of_a_die_is_not() -> None:
    """Both are extra; only the one where no die lies counts as a phantom (board art, a cube),
    and it counts as a sure phantom when it states a value."""
    labels = [_label(0, 3, None), _label(100, 4, None)]
    twice = DieReading(4, 102, 40, 40, None, 3, 0.9, unsure=False)  # the first die read a second time
    on_the_table = _read(600, 2, None)
    asked_about = _read(900, None, None, 0.4)
    reading = DiceReading(dice=(_read(0, 3, None), _read(100, 4, None), twice, on_the_table, asked_about))
    score = Score()
    score_image(score, labels, reading, use_colour=False)
    score_image(score, labels, DiceReading(dice=(_read(0, 3, None), _read(100, 4, None))), use_colour=False)
    report = score.report()
    assert (score.extra, score.phantom, score.phantom_sure) == (3, 2, 1)
    assert report["phantom_per_image"] == 1.0 and report["phantom_sure_per_image"] == 0.5


def test_values_stated_beyond_those_the_players_confirmed_are_counted_by_colour_or_by_roll() -> None:
    """A sure value the players did not confirm is a die stated wrongly, labelled or not; an
    unsure die states nothing, and a value confirmed twice may be read twice."""
    confirmed = {"red": Counter([3, 3]), "blue": Counter([5])}
    reading = DiceReading(dice=(_read(0, 3, "red"), _read(100, 3, "red"), _read(200, 3, "blue"),
                                _read(300, None, "blue", 0.4), _read(400, 5, "green")))
    assert stated_against(reading, confirmed, by_colour=True) == 2  # blue 3, and green, which none confirmed
    assert stated_against(reading, confirmed, by_colour=False) == 1  # 3, 3, 3 and 5 against 3, 3 and 5
    assert stated_against(DiceReading(dice=(_read(0, 3, "red"),)), confirmed, by_colour=True) == 0


def test_the_confirmed_values_are_read_from_a_kept_roll_s_label_and_refused_when_malformed(tmp_path: Path) -> None:
    label = tmp_path / "roll.json"
    label.write_text(json.dumps({"dice": [], "confirmed": {"red": [3, 3], "blue": []}}), encoding="utf-8")
    assert confirmed_of(label) == {"red": Counter({3: 2}), "blue": Counter()}
    label.write_text(json.dumps({"dice": []}), encoding="utf-8")
    assert confirmed_of(label) is None  # a dataset's label, or a roll kept before they were
    for malformed in ({"red": 3}, {"red": [7]}, {"red": ["3"]}, [3, 5]):
        label.write_text(json.dumps({"dice": [], "confirmed": malformed}), encoding="utf-8")
        with pytest.raises(ValueError, match="roll.json: 'confirmed' is not a list of values 1-6"):
            confirmed_of(label)
    assert confirmed_of(tmp_path / "roll.txt") is None  # YOLO labels hold no such thing


@pytest.mark.parametrize("as_json", [True, False])
def test_the_command_line_lists_the_mistakes_behind_its_figures(tmp_path: Path, as_json: bool,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A label made wrong on purpose shows up in the list, and the list accounts for every die the
    figures count as not right."""
    from vision.cli import main as vision_main

    dataset = tmp_path / "set"
    assert vision_main(["synth", str(dataset), "--count", "1", "--seed", "5"]) == 0
    label_path = next((dataset / "labels").iterdir())
    labels = json.loads(label_path.read_text(encoding="utf-8"))
    changed = labels["dice"][0]
    changed["value"] = changed["value"] % 6 + 1
    label_path.write_text(json.dumps(labels), encoding="utf-8")
    capsys.readouterr()
    assert vision_main(["evaluate", str(dataset), "--mistakes"] + (["--json"] if as_json else [])) == 0
    out = capsys.readouterr().out
    if not as_json:
        assert f"truth {changed['colour']} {changed['value']}" in out and "mistakes (" in out
        return
    report = json.loads(out)
    not_right = [m for m in report["mistakes"] if m["kind"] != EXTRA]
    assert len(not_right) == report["dice"] - round(report["colour_and_value_right"] * report["dice"])
    assert any(m["truth"] == f"{changed['colour']} {changed['value']}" for m in not_right)


def test_the_command_line_reads_beside_each_scene_s_empty_tray(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """`--references` reads each picture beside its own empty-tray picture, as the app does after
    the camera check: given the picture itself as its empty tray, nothing has changed and no die
    is there to read. A folder without empty-tray pictures is refused in words."""
    import shutil

    from vision.cli import main as vision_main

    dataset = tmp_path / "set"
    assert vision_main(["synth", str(dataset), "--count", "1", "--seed", "5", "--empty-trays"]) == 0
    assert [p.name for p in (dataset / "references").iterdir()] == [p.name for p in (dataset / "images").iterdir()]
    capsys.readouterr()
    assert vision_main(["evaluate", str(dataset), "--references", "--json"]) == 0
    beside = json.loads(capsys.readouterr().out)
    assert beside["beside_empty_tray"] is True and beside["colour_and_value_right"] > 0.8
    for image in (dataset / "images").iterdir():
        shutil.copyfile(image, dataset / "references" / image.name)
    assert vision_main(["evaluate", str(dataset), "--references", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["colour_and_value_right"] == 0.0
    shutil.rmtree(dataset / "references")
    assert vision_main(["evaluate", str(dataset), "--references"]) == 2
    assert "needs a references/ folder" in capsys.readouterr().err


def test_beside_the_empty_tray_the_labelled_tray_corners_are_read_within(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """After the camera check the app reads inside the tray's four tapped corners; `--references`
    does the same where a drawn scene's label gives them. Corners drawn round only part of the
    tray leave the dice outside unread; corners that make no region are refused in words."""
    from vision.cli import main as vision_main

    dataset = tmp_path / "set"
    assert vision_main(["synth", str(dataset), "--count", "1", "--seed", "5", "--empty-trays"]) == 0
    label_path = next((dataset / "labels").iterdir())
    capsys.readouterr()
    assert vision_main(["evaluate", str(dataset), "--references", "--json"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert whole["read_in_tray_corners"] == 1 and whole["colour_and_value_right"] > 0.8
    label = json.loads(label_path.read_text())
    xs = sorted(d["center_px"][0] for d in label["dice"])
    split = (xs[2] + xs[3]) / 2  # three dice left of this line, three right of it
    corners = np.array(label["scene"]["tray_corners_px"])
    corners[:, 0] = np.minimum(corners[:, 0], split)
    label["scene"]["tray_corners_px"] = corners.tolist()
    label_path.write_text(json.dumps(label))
    assert vision_main(["evaluate", str(dataset), "--references", "--expect", "any", "--json"]) == 0
    left_half = json.loads(capsys.readouterr().out)  # any mode: three dice are a whole roll there
    assert left_half["recall"] == pytest.approx(0.5) and left_half["value_accuracy"] == pytest.approx(0.5)
    label["scene"]["tray_corners_px"] = [[10, 10], [20, 20], [30, 30], [40, 40]]
    label_path.write_text(json.dumps(label))
    assert vision_main(["evaluate", str(dataset), "--references"]) == 2
    assert "no convex quadrilateral" in capsys.readouterr().err
    label["scene"]["tray_corners_px"] = corners.tolist()
    label["scene"]["camera_fov_deg"] = "wide"
    label_path.write_text(json.dumps(label))
    assert vision_main(["evaluate", str(dataset), "--references"]) == 2
    assert f"{label_path}: scene.camera_fov_deg must be an angle" in capsys.readouterr().err
    label["scene"]["tray_corners_px"] = [[10, 10], [5000, 20]]
    label_path.write_text(json.dumps(label))
    assert vision_main(["evaluate", str(dataset), "--references"]) == 2
    assert f"{label_path}: scene.tray_corners_px must be four [x, y] points" in capsys.readouterr().err
