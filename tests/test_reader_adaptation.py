"""The app applies the reader's refit on the table's own rolls: kept rolls -> adapt -> the station
reads with the refitted colours and threshold, at once and from the next start; a damaged,
cut-short or outdated refit leaves the shipped models in use with a notice that says what and
where; Settings can go back to the shipped models."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from app.config import load_config
from app.dice_station import DiceStation, build_dice_station
from app.reader_adaptation import ADAPTED_FOLDER, ReaderAdaptation
from vision.adapt import RECORD_NAME, AdaptError
from vision.calibrate import Calibration
from vision.colour import default_models
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.reader import read_dice
from tests.learnt_table import LAST_HELD_OUT, THROWS, TRUTH_OF_LAST
from vision.types import DiceReading

PARAMS = load_vision_params()
LEARNED = load_learned_params()


def _station(data: Path, mock_factory: MockFactory, reports: list[str] | None = None) -> DiceStation:
    override = data / "config.toml"
    override.write_text(f'[camera]\nsource = "none"\n[vision]\ncalibration_path = "{data / "calibration.json"}"\n',
                        encoding="utf-8")
    config = load_config(override, env={}, home=Path("/nonexistent"))
    return build_dice_station(config, on_status=lambda _status: None, on_roll=lambda _roll: None,
                              report=(reports if reports is not None else []).append, clock=lambda: 100.0,
                              pin_factory=mock_factory)


def _last_held_out(data: Path) -> np.ndarray:
    frame = cv2.imread(str(data / "table-rolls" / "images" / LAST_HELD_OUT))
    assert frame is not None
    return frame


def _sure(reading: DiceReading) -> dict[str, int]:
    return {d.colour: d.value for d in reading.dice if not d.unsure and d.colour is not None and d.value is not None}


def test_the_refit_is_written_with_its_held_out_scores(learnt_table: Path) -> None:
    folder = learnt_table / "table-rolls" / ADAPTED_FOLDER
    record = json.loads((folder / RECORD_NAME).read_text(encoding="utf-8"))
    assert (folder / "calibration.json").is_file() and (folder / "adapted.toml").is_file()
    assert record["rolls"] == THROWS and record["held_out_dice"] == 18
    assert record["right_after"] > record["right_before"] and record["wrong_after"] <= record["wrong_before"]
    assert record["judged_against"] == "none"  # no camera-check calibration on this table yet


def test_the_station_reads_with_the_refit_from_the_start(learnt_table: Path, mock_factory: MockFactory) -> None:
    data = learnt_table
    frame = _last_held_out(data)
    shipped = _sure(read_dice(frame, PARAMS, "macao", learned=LEARNED))
    assert (shipped["black"], shipped["blue"]) == (TRUTH_OF_LAST["blue"], TRUTH_OF_LAST["black"])  # swapped
    reports: list[str] = []
    station = _station(data, mock_factory, reports)
    try:
        in_use = station.adaptation.in_use if station.adaptation is not None else None
        assert in_use is not None and reports == []
        assert station.reader.calibration == in_use.calibration
        assert station.reader.learned.macao_value_min_probability == in_use.value_min_probability
        adapted = _sure(station.reader(frame))
        assert adapted.items() <= TRUTH_OF_LAST.items() and {"blue", "black"} <= set(adapted)
        assert in_use.rolls == THROWS and in_use.right_after > in_use.right_before
    finally:
        station.stop()


def test_going_back_to_the_shipped_models_deletes_the_refit(learnt_table: Path,
                                                            mock_factory: MockFactory) -> None:
    data = learnt_table
    station = _station(data, mock_factory)
    try:
        station.forget_adaptation()
        assert station.reader.calibration is None and station.reader.learned == LEARNED
        assert _sure(station.reader(_last_held_out(data)))["gray"] == 3  # read as shipped again
        assert not (data / "table-rolls" / ADAPTED_FOLDER / RECORD_NAME).exists()
    finally:
        station.stop()
    again = _station(data, mock_factory)
    try:
        assert again.adaptation is not None and again.adaptation.in_use is None and again.reader.calibration is None
    finally:
        again.stop()


def _damage_record(folder: Path, **changes: object) -> None:
    record = json.loads((folder / RECORD_NAME).read_text(encoding="utf-8"))
    record.update(changes)
    (folder / RECORD_NAME).write_text(json.dumps(record), encoding="utf-8")


DAMAGE = {
    "record cut off": (lambda f: (f / RECORD_NAME).write_text('{"version": 1, "rol', encoding="utf-8"), "unreadable"),
    "record not JSON text": (lambda f: (f / RECORD_NAME).write_bytes(b"\xff\xfe\x00garbage"), "unreadable"),
    "scores missing": (lambda f: _damage_record(f, right_after=None), "scores are missing or malformed"),
    "threshold out of range": (lambda f: _damage_record(f, value_min_probability=7), "not between 0.5 and 0.99"),
    "other models": (lambda f: _damage_record(f, models="0123456789abcdef"), "other dice-reading models"),
    "no better": (lambda f: _damage_record(f, right_after=0), "no better"),
    "colours cut short": (lambda f: (f / "calibration.json").write_text('{"version": 2', encoding="utf-8"),
                          "calibration.json: missing or not the one the record names"),
    "colours missing": (lambda f: (f / "calibration.json").unlink(), "missing or not the one the record names"),
}


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_a_refit_that_cannot_be_applied_leaves_the_shipped_models_and_says_why(
        damage: str, learnt_table: Path, mock_factory: MockFactory,
        caplog: pytest.LogCaptureFixture) -> None:
    data = learnt_table
    folder = data / "table-rolls" / ADAPTED_FOLDER
    spoil, said = DAMAGE[damage]
    spoil(folder)
    reports: list[str] = []
    with caplog.at_level(logging.WARNING):
        station = _station(data, mock_factory, reports)
    try:
        assert station.reader.learned == LEARNED and station.reader.calibration is None
        (notice,) = reports
        assert said in notice and str(folder) in notice and "reading with the shipped models" in notice
        assert "not used" in caplog.text and said in caplog.text
        assert station.reader(_last_held_out(data)).dice  # and the dice are read
    finally:
        station.stop()


def test_a_new_calibration_outdates_the_refit(learnt_table: Path, mock_factory: MockFactory) -> None:
    data = learnt_table
    station = _station(data, mock_factory)
    calibration = Calibration(default_models(PARAMS), "learned")
    try:
        station.keep_calibration(calibration)
        assert station.reader.calibration == calibration and station.reader.learned == LEARNED
        assert not (data / "table-rolls" / ADAPTED_FOLDER / RECORD_NAME).exists()
    finally:
        station.stop()


def test_a_refit_judged_against_another_calibration_is_not_used(learnt_table: Path) -> None:
    data = learnt_table
    (data / "calibration.json").write_text("{}", encoding="utf-8")  # calibrated (badly) since
    adaptation = ReaderAdaptation(data / "calibration.json", PARAMS, LEARNED)
    adaptation.load()
    assert adaptation.in_use is None and "calibrated again since" in adaptation.problem


def test_learning_needs_kept_rolls(tmp_path: Path) -> None:
    adaptation = ReaderAdaptation(tmp_path / "calibration.json", PARAMS, LEARNED)
    with pytest.raises(AdaptError, match="no rolls kept yet"):
        adaptation.learn(None)
    adaptation.load()
    assert adaptation.in_use is None and adaptation.problem == ""
