"""The table's confirmed rolls kept as the reader's own dataset: the dice service hands each
confirmed proposal (as it was or corrected) to the keeper on its ticking thread; the keeper
writes the layout `vision evaluate` reads and keeps the newest N; Settings can turn it off."""

from __future__ import annotations

import dataclasses
import json
import logging
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from app.config import load_config
from app.dice_service import DiceService, RollState
from app.dice_station import build_dice_station, keep_table_roll, roll_timings
from app.ui.launch import dice_config
from app.ui.settings_store import UiSettings
from hardware.camera import FolderCamera
from tests.test_dice_service import DT, MOTION, ROLL, ManualClock, label_reader, roll_sequence, write_frames
from vision.params import load_vision_params
from vision.reference import EmptyTray
from vision.evaluate import Score, evaluate, every_die_labelled, load_labels, score_image
from vision.head_refit import candidate_classes
from vision.settle import SettleDetector, SettleParams
from vision.table_rolls import keep_roll, labelled_dice
from vision.types import DiceReading, DiceSpec, DieReading, UnsureReason

Kept = tuple[np.ndarray, DiceReading, dict[str, int], DiceSpec]


@pytest.fixture(scope="module")
def config():  # noqa: ANN201 - app.config.Config
    return load_config(env={}, home=Path("/nonexistent"))


def _service(config, folder: Path, keeper) -> tuple[DiceService, ManualClock, list[dict]]:  # noqa: ANN001
    clock, rolls = ManualClock(), []
    params = SettleParams.from_table(config["vision.settle"])
    service = DiceService(make_camera=lambda: FolderCamera(folder, MOTION, False), reader=label_reader,
                          new_settler=lambda: SettleDetector(params),
                          timings=roll_timings(config), clock=clock, on_status=lambda _status: None,
                          on_roll=rolls.append, keep_roll=keeper)
    return service, clock, rolls


def _tick_until(service: DiceService, clock: ManualClock, state: RollState) -> None:
    for _ in range(200):
        clock.now = round(clock.now + DT, 6)
        service.tick(clock.now)
        if service.state is state:
            return
    raise AssertionError(f"stuck in {service.state}")


def _tick(service: DiceService, clock: ManualClock) -> None:
    clock.now = round(clock.now + DT, 6)
    service.tick(clock.now)


def test_a_confirmed_proposal_is_kept_on_the_ticking_thread(tmp_path: Path, config) -> None:  # noqa: ANN001
    kept: list[Kept] = []
    unsure_gray = dict(ROLL, gray=None)
    service, clock, rolls = _service(config, write_frames(tmp_path, roll_sequence(unsure_gray)),
                                     lambda *roll: kept.append(roll))
    _tick(service, clock)
    service.roll()
    _tick_until(service, clock, RollState.PROPOSED)
    service.confirm(ROLL)  # the players type the gray die in
    assert rolls == [{"type": "roll", "dice": ROLL}] and kept == []  # not on the UI's thread
    _tick(service, clock)
    ((frame, reading, dice, spec),) = kept
    assert frame.shape == (120, 160, 3) and dice == ROLL and spec == DiceSpec()
    assert reading is not None and {d.colour for d in reading.dice} == set(ROLL)


def test_dice_typed_without_a_proposal_or_a_cancelled_one_are_not_kept(tmp_path: Path, config) -> None:  # noqa: ANN001
    kept: list[Kept] = []
    service, clock, rolls = _service(config, write_frames(tmp_path, roll_sequence() + roll_sequence()),
                                     lambda *roll: kept.append(roll))
    _tick(service, clock)
    service.confirm(ROLL)  # by hand, no camera reading
    _tick(service, clock)
    service.roll()
    _tick_until(service, clock, RollState.PROPOSED)
    service.cancel()
    service.confirm(ROLL)
    _tick(service, clock)
    assert kept == [] and len(rolls) == 2


def test_a_keeper_that_fails_costs_the_dataset_a_roll_not_the_game(tmp_path: Path, config,  # noqa: ANN001
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    def full_disk(*_roll: object) -> None:
        raise OSError(28, "No space left on device")

    service, clock, rolls = _service(config, write_frames(tmp_path, roll_sequence() * 2), full_disk)
    _tick(service, clock)
    service.roll()
    _tick_until(service, clock, RollState.PROPOSED)
    service.confirm()
    with caplog.at_level(logging.ERROR):
        _tick(service, clock)
    assert "confirmed roll not kept" in caplog.text and rolls == [{"type": "roll", "dice": ROLL}]
    service.roll()
    _tick_until(service, clock, RollState.PROPOSED)


def _reading(values: dict[str, int]) -> DiceReading:
    return DiceReading(tuple(DieReading(30 + 60 * i, 40, 40, 40, colour, None if colour == "gray" else value, 0.9,
                                        colour == "gray") for i, (colour, value) in enumerate(values.items())))


def test_kept_rolls_are_a_dataset_evaluate_reads_and_only_the_newest_stay(tmp_path: Path) -> None:
    frame = np.full((120, 400, 3), 90, np.uint8)
    folder = tmp_path / "table-rolls"
    for _ in range(5):
        assert keep_roll(folder, frame, _reading(ROLL), ROLL, limit=3) is not None
    assert sorted(p.name for p in (folder / "images").iterdir()) == ["roll-000003.jpg", "roll-000004.jpg",
                                                                     "roll-000005.jpg"]
    label = json.loads((folder / "labels" / "roll-000005.json").read_text(encoding="utf-8"))
    assert [(d["colour"], d["value"], d["bbox_px"]) for d in label["dice"]][4] == ("gray", 2, [270, 40, 310, 80])
    score = evaluate(folder, lambda _frame: _reading(ROLL), score_colour=True)
    assert score.report()["dice"] == 18 and score.unsure == 3  # the reader's unsure gray, labelled by the players
    assert keep_roll(folder, frame, _reading(ROLL), ROLL, limit=0) is None
    assert keep_roll(folder, frame, DiceReading(), {}, limit=3) is None  # nothing confirmed: nothing to keep


def test_a_roll_the_reader_miscounted_is_kept_with_the_values_confirmed_to_judge_by(tmp_path: Path) -> None:
    """No die of it can be labelled, but a refit that states a value the players did not confirm
    there states a die wrongly: such rolls, the ones read worst, judge what adapt writes."""
    frame = np.full((120, 400, 3), 90, np.uint8)
    image = keep_roll(tmp_path, frame, DiceReading(), ROLL, limit=3)
    assert image is not None
    label = json.loads((tmp_path / "labels" / f"{image.stem}.json").read_text(encoding="utf-8"))
    assert label["dice"] == [] and label["dice_in_roll"] == 6
    assert label["confirmed"] == {colour: [value] for colour, value in ROLL.items()}
    stray = DiceReading((_die(0, "red", ROLL["red"]), _die(60, "blue", 1 + ROLL["blue"] % 6), _die(120, "blue", None)))
    score = evaluate(tmp_path, lambda _frame: stray, score_colour=True)
    assert (score.dice, score.confirmed_images, score.against_confirmed) == (0, 1, 1)  # the blue die read sure
    assert score.report()["stated_against_confirmed"] == 1


def _die(x: int, colour: str, value: int | None) -> DieReading:
    return DieReading(x, 40, 30, 30, colour, value, 0.9 if value else 0.3, value is None)


@pytest.mark.parametrize(("read", "confirmed", "labels"), [
    # as read: every die keeps its value
    ([("red", 3), ("red", 5), ("blue", 2)], {"red": [5, 3], "blue": [2]}, [3, 5, 2]),
    # one die corrected, or one unsure: the value left over is its
    ([("red", 3), ("red", 6)], {"red": [3, 4]}, [3, 4]),
    ([("red", 3), ("red", None)], {"red": [3, 4]}, [3, 4]),
    # two dice read 3, the players say 3 and 5: which is which is not known, neither is labelled
    ([("red", 3), ("red", 3), ("blue", 1)], {"red": [3, 5], "blue": [1]}, [None, None, 1]),
    # two dice left and two values left that differ: which is which is not known
    ([("red", 3), ("red", 6), ("red", 2)], {"red": [3, 4, 5]}, [3, None, None]),
    # ... but two dice left for two like values: both take it
    ([("red", 1), ("red", 6), ("red", None)], {"red": [1, 4, 4]}, [1, 4, 4]),
    # a die the reader missed, or one too many: the colour's dice are not labelled
    ([("red", 3)], {"red": [3, 5]}, [None]),
    ([("red", 3), ("red", 5), ("white", 2)], {"red": [3], "white": [2]}, [None, None, 2]),
    # a colour the players did not confirm, and the Macao form (one value a colour)
    ([("gray", 2), ("violet", 4)], {"violet": 5}, [None, 5]),
    # two colours corrected to each other's values: the reader swapped their colours, most
    # likely, so neither label would be right; two colours corrected otherwise are
    ([("black", 3), ("white", 5), ("red", 1)], {"black": 5, "white": 3, "red": 1}, [None, None, 1]),
    ([("black", 3), ("white", 2)], {"black": 5, "white": 4}, [5, 4]),
    ([("red", 3), ("red", 1), ("blue", 5)], {"red": [5, 1], "blue": [3]}, [None, 1, None]),
    # a die corrected from the value of a colour whose die was missed or left unsure may be that
    # die under the wrong colour; where that colour's die was read with it, it is not
    ([("black", 3), ("white", None)], {"black": 5, "white": 3}, [None, 3]),
    ([("black", 3)], {"black": 5, "white": 3}, [None]),
    ([("black", 3), ("white", 3)], {"black": 5, "white": 3}, [5, 3]),
    ([("red", 3), ("red", 4), ("blue", 2), ("blue", None)], {"red": [3, 6], "blue": [2, 4]}, [3, None, 2, 4]),
    # a die taken for leaning is one of the roll but never labelled; the values left then
    # differ, so a corrected die beside it is not labelled either
    ([("red", 3), ("red", "leaning")], {"red": [3, 4]}, [3, None]),
    ([("red", 3), ("red", 6), ("red", "leaning")], {"red": [3, 4, 5]}, [3, None, None]),
    ([("red", 3), ("red", 6), ("red", "leaning")], {"red": [3, 4, 4]}, [3, 4, None]),
])
def test_a_kept_roll_labels_only_the_dice_whose_value_is_certain(
        read: list[tuple[str, int | str | None]], confirmed: dict, labels: list[int | None]) -> None:
    reading = DiceReading(tuple(_die(40 * i, colour, value) if value != "leaning"
                                else dataclasses.replace(_die(40 * i, colour, None), reason=UnsureReason.LEANING)
                                for i, (colour, value) in enumerate(read)))
    given = {die.x: value for die, value in labelled_dice(reading, confirmed)}
    assert [given.get(die.x) for die in reading.dice] == labels


@pytest.mark.parametrize(("reason", "colour_doubtful", "labelled"), [
    (UnsureReason.VALUE_DOUBTFUL, False, True), (UnsureReason.LEANING, False, False), (UnsureReason.GLARE, False, True),
    (UnsureReason.MAYBE_NOT_A_DIE, False, False), (UnsureReason.COLOUR_DOUBTFUL, True, False),
    (UnsureReason.LEANING, True, False), (UnsureReason.GLARE, True, False)])
def test_an_unsure_die_is_labelled_only_where_its_colour_is_not_in_doubt_and_it_does_not_lean(
        reason: UnsureReason, colour_doubtful: bool, labelled: bool) -> None:
    """A die that shines shows that reason first, but its colour's doubt stays with it. A die
    taken for leaning is never labelled: the players' value for it is the one they settled it to
    (on drawn Macao tables 57 of 118 such labels were wrong, `tests.vision.bench_kept_labels`)."""
    doubted = dataclasses.replace(_die(40, "violet", None), reason=reason, colour_doubtful=colour_doubtful)
    reading = DiceReading((_die(0, "red", 3), doubted, _die(80, "blue", None)))
    pairs = labelled_dice(reading, {"red": 3, "violet": 5, "blue": [2]})
    assert [(die.colour, value) for die, value in pairs] == [("red", 3)] + [("violet", 5)] * labelled + [("blue", 2)]


def test_a_roll_of_repeated_colours_is_kept_with_its_certain_dice(tmp_path: Path) -> None:
    frame = np.full((120, 400, 3), 90, np.uint8)
    reading = DiceReading((_die(10, "red", 3), _die(60, "red", 3), _die(110, "white", None), _die(160, "blue", 6)))
    image = keep_roll(tmp_path, frame, reading, {"red": [3, 5], "white": [2], "blue": [6], "black": []}, limit=5)
    assert image is not None
    label = json.loads((tmp_path / "labels" / f"{image.stem}.json").read_text(encoding="utf-8"))
    assert [(d["colour"], d["value"], d["bbox_px"][0]) for d in label["dice"]] == [("white", 2, 110), ("blue", 6, 160)]
    # Four dice were rolled, two are labelled: a reading on the red ones is no phantom, and a
    # candidate there teaches adapt nothing (not "no die").
    assert label["dice_in_roll"] == 4 and not every_die_labelled(tmp_path / "labels" / f"{image.stem}.json")
    dice = load_labels(tmp_path / "labels" / f"{image.stem}.json", 400, 120)
    red = np.array([(30.0, 60.0)])
    assert candidate_classes(red, dice, every_die=False).tolist() == [-1]
    assert candidate_classes(red, dice).tolist() == [0]
    for every_die, phantoms in ((False, 0), (True, 2)):
        score = Score()
        score_image(score, dice, reading, use_colour=False, every_die=every_die)
        assert score.phantom == phantoms and score.extra == 2


def test_each_roll_keeps_the_empty_tray_it_was_read_beside_linked_while_it_stays_the_same(tmp_path: Path) -> None:
    frame = np.full((120, 400, 3), 90, np.uint8)
    trays = [np.full((120, 400, 3), level, np.uint8) for level in (60, 60, 80)]
    for tray in trays:
        keep_roll(tmp_path, frame, _reading(ROLL), ROLL, limit=2, empty_tray=tray)
    references = sorted((tmp_path / "references").iterdir())
    assert [p.name for p in references] == ["roll-000002.jpg", "roll-000003.jpg"]  # the oldest went with its roll
    assert references[0].stat().st_nlink == 1  # its twin (roll 1) is gone: one link left
    assert [round(float(cv2.imread(str(p)).mean())) for p in references] == [60, 80]
    keep_roll(tmp_path, frame, _reading(ROLL), ROLL, limit=5, empty_tray=trays[2])
    assert (tmp_path / "references" / "roll-000004.jpg").stat().st_ino == references[1].stat().st_ino  # linked


def test_other_games_rolls_are_kept_apart_from_the_ones_adapt_refits_on(tmp_path: Path) -> None:
    frame = np.full((120, 400, 3), 90, np.uint8)
    calibration = tmp_path / "calibration.json"
    empty = EmptyTray.of(np.full((120, 400, 3), 70, np.uint8), load_vision_params())
    keep_table_roll(calibration, 5, lambda: empty, frame, _reading(ROLL), ROLL, DiceSpec())
    grouped = DiceSpec(3, ("red", "white"), repeats=True)
    reading = DiceReading((_die(10, "red", 3), _die(60, "red", 4), _die(110, "white", 2)))
    keep_table_roll(calibration, 5, lambda: None, frame, reading, {"red": [4, 3], "white": [2]}, grouped)
    assert [p.name for p in (tmp_path / "table-rolls" / "images").iterdir()] == ["roll-000001.jpg"]
    kept_empty = cv2.imread(str(tmp_path / "table-rolls" / "references" / "roll-000001.jpg"))
    assert kept_empty is not None and abs(float(kept_empty.mean()) - 70.0) < 1.0  # beside the roll it was read by
    assert not (tmp_path / "table-rolls-any" / "references").exists()  # no empty tray known: none kept
    label = json.loads((tmp_path / "table-rolls-any" / "labels" / "roll-000001.json").read_text(encoding="utf-8"))
    assert [(d["colour"], d["value"]) for d in label["dice"]] == [("red", 3), ("red", 4), ("white", 2)]


def test_settings_can_turn_keeping_rolls_off(tmp_path: Path, mock_factory: MockFactory) -> None:
    config = load_config(None, env={}, home=Path("/nonexistent"))
    assert config["vision"]["keep_rolls"] > 0
    for learn, keeps in ((True, True), (False, False)):
        station_config, _note = dice_config(config, UiSettings(camera="none", learn_from_rolls=learn))
        station = build_dice_station(station_config, on_status=lambda _s: None, on_roll=lambda _r: None,
                                     report=lambda _p: None, clock=lambda: 1.0, pin_factory=mock_factory)
        try:
            assert (station.service._keep_roll is not None) is keeps
        finally:
            station.stop()
