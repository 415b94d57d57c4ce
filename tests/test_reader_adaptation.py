"""The app applies the reader's refit on the table's own rolls: kept rolls -> adapt -> the station
reads with the refitted colours and threshold, at once and from the next start; a damaged,
cut-short or outdated refit leaves the shipped models in use with a notice that says what and
where; Settings can go back to the shipped models. Each reader mode has its own: the station
reads Marco Polo II's dice with the any-mode refit and Macao's with the macao one, and a refit
lying in the other mode's place is refused."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from app.config import load_config
from app.dice_station import DiceStation, build_dice_station
from app.reader_adaptation import (
    ADAPTED_FOLDER,
    LAST_RUN_NAME,
    LEARN_AFTER_NEW_ROLLS,
    LEARN_FROM_ROLLS,
    ReaderAdaptation,
)
from vision.adapt import RECORD_NAME, AdaptError
from vision.atomic_file import PARTIAL_SUFFIX
from vision.calibrate import Calibration
from vision.colour import default_models, default_models_for
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.reader import read_dice
from tests.learnt_table import (
    ANY_COLOURS,
    ANY_DICE,
    LAST_HELD_OUT,
    THROWS,
    TOO_STRICT,
    TRUTH_OF_LAST,
    any_roll,
    too_strict,
)
from vision.table_rolls import keep_roll
from vision.types import DiceReading, DiceSpec, DieReading

# Marco Polo II's dice on the learnt table (tests/learnt_table.py), as the game asks for them.
MARCO_POLO_DICE = DiceSpec(len(ANY_DICE), ANY_COLOURS, repeats=True)

PARAMS = load_vision_params()
LEARNED = load_learned_params()


def _station(data: Path, mock_factory: MockFactory, reports: list[str] | None = None,
             learned: str = "") -> DiceStation:
    """A station (no camera) on `data`; `learned`: lines of [vision.learned] laid over the config."""
    override = data / "config.toml"
    override.write_text(f'[camera]\nsource = "none"\n[vision]\ncalibration_path = "{data / "calibration.json"}"\n'
                        + (f"[vision.learned]\n{learned}\n" if learned else ""), encoding="utf-8")
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


def _record(folder: Path) -> dict[str, int]:
    record: dict[str, int] = json.loads((folder / RECORD_NAME).read_text(encoding="utf-8"))
    return record


def _damage_record(folder: Path, **changes: object) -> None:
    record: dict[str, object] = json.loads((folder / RECORD_NAME).read_text(encoding="utf-8"))
    record.update(changes)
    (folder / RECORD_NAME).write_text(json.dumps(record), encoding="utf-8")


DAMAGE = {
    "record cut off": (lambda f: (f / RECORD_NAME).write_text('{"version": 1, "rol', encoding="utf-8"), "unreadable"),
    "record not JSON text": (lambda f: (f / RECORD_NAME).write_bytes(b"\xff\xfe\x00garbage"), "unreadable"),
    "scores missing": (lambda f: _damage_record(f, right_after=None), "scores are missing or malformed"),
    "threshold out of range": (lambda f: _damage_record(f, value_min_probability=7), "not between 0.5 and 0.99"),
    "other models": (lambda f: _damage_record(f, models="0123456789abcdef"), "other dice-reading models"),
    "no better": (lambda f: _damage_record(f, right_after=0), "no better"),
    "more values the players did not confirm": (lambda f: _damage_record(f, against_after=_record(f)["against_before"] + 1),
                                                "no better"),
    "those counts missing": (lambda f: _damage_record(f, against_before=None), "scores are missing or malformed"),
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


def _keep_plain_rolls(folder: Path, count: int) -> None:
    """`count` rolls of one die each kept in `folder`, as the app keeps them (the picture is no matter)."""
    reading = DiceReading(dice=(DieReading(10, 10, 20, 20, "red", 3, 0.99, False),))
    for _ in range(count):
        keep_roll(folder, np.zeros((60, 80, 3), np.uint8), reading, {"red": 3}, limit=20)


def test_a_run_is_due_once_a_game_of_rolls_was_kept_since_the_last(tmp_path: Path) -> None:
    adaptation = ReaderAdaptation(tmp_path / "calibration.json", PARAMS, LEARNED)
    assert not adaptation.due()  # nothing kept
    _keep_plain_rolls(adaptation.rolls_folder, LEARN_FROM_ROLLS - 1)
    assert not adaptation.due()  # too few to teach and judge
    _keep_plain_rolls(adaptation.rolls_folder, 1)
    assert adaptation.due()
    with pytest.raises(AdaptError):  # one die a roll teaches too little: the run is noted all the same
        adaptation.learn(None)
    assert not adaptation.due()
    _keep_plain_rolls(adaptation.rolls_folder, LEARN_AFTER_NEW_ROLLS - 1)
    assert not adaptation.due()
    _keep_plain_rolls(adaptation.rolls_folder, 1)  # a game more, the oldest rolls dropped (limit 20)
    assert len(list((adaptation.rolls_folder / "images").iterdir())) == 20 and adaptation.due()
    (adaptation.rolls_folder / LAST_RUN_NAME).write_text("{", encoding="utf-8")
    assert adaptation.due()  # a damaged note of the last run is as none


def test_a_run_that_cannot_be_noted_still_runs(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    adaptation = ReaderAdaptation(tmp_path / "calibration.json", PARAMS, LEARNED)
    _keep_plain_rolls(adaptation.rolls_folder, LEARN_FROM_ROLLS)
    (adaptation.rolls_folder / LAST_RUN_NAME).mkdir()  # in the note's place: it cannot be written
    with caplog.at_level(logging.WARNING), pytest.raises(AdaptError, match="dice found"):
        adaptation.learn(None)
    assert f"{adaptation.rolls_folder / LAST_RUN_NAME}: the last run on the table's rolls could not be noted" \
        in caplog.text
    assert adaptation.due() and not list(adaptation.rolls_folder.glob(f"*{PARTIAL_SUFFIX}"))  # due again after the next game


# The any-mode refit was learnt from a too strict shipped threshold (tests/learnt_table.py).
STRICT = f"value_min_probability = {TOO_STRICT}"


def _sure_count(reading: DiceReading) -> int:
    return sum(not d.unsure for d in reading.dice)


def test_each_games_dice_are_read_with_their_own_modes_refit(learnt_tables: Path, mock_factory: MockFactory) -> None:
    data = learnt_tables
    roll = cv2.imread(str(data / "table-rolls-any" / "images" / LAST_HELD_OUT))
    assert roll is not None
    shipped = read_dice(roll, PARAMS, "any", learned=too_strict(LEARNED))
    reports: list[str] = []
    station = _station(data, mock_factory, reports, STRICT)
    try:
        macao, any_mode = station.adaptations["macao"].in_use, station.adaptations["any"].in_use
        assert macao is not None and any_mode is not None and reports == []
        assert any_mode.calibration is None and any_mode.value_min_probability < TOO_STRICT
        # Macao (the six dice, as at start): the macao refit's colours and threshold, any's untouched.
        assert station.adaptation is station.adaptations["macao"]
        assert station.reader.calibration == macao.calibration
        assert station.reader.learned.macao_value_min_probability == macao.value_min_probability
        assert station.reader.learned.value_min_probability == TOO_STRICT
        # Marco Polo II: the any-mode refit's threshold, the shipped one of macao mode.
        station.use_dice(MARCO_POLO_DICE)
        assert station.adaptation is station.adaptations["any"]
        assert station.reader.learned.value_min_probability == any_mode.value_min_probability
        assert station.reader.learned.macao_value_min_probability == LEARNED.macao_value_min_probability
        assert station.reader.calibration is None  # the table's own (none yet): a Macao refit's colours are not any's
        adapted = station.reader(roll)
        assert _sure_count(adapted) == len(ANY_DICE) > _sure_count(shipped)
        read: dict[str, list[int]] = {}
        for die in adapted.dice:
            read.setdefault(str(die.colour), []).append(int(die.value or 0))
        assert {c: sorted(v) for c, v in read.items()} == {c: sorted(v) for c, v in any_roll(THROWS - 1)[1].items()}
        station.use_dice(DiceSpec())  # and back to Macao
        assert station.reader.calibration == macao.calibration
        assert station.reader.learned.value_min_probability == TOO_STRICT
    finally:
        station.stop()


@pytest.mark.parametrize(("made_for", "used_for"), [("macao", "any"), ("any", "macao")])
def test_a_refit_for_one_mode_is_refused_by_the_other(made_for: str, used_for: str, learnt_tables: Path,
                                                      mock_factory: MockFactory) -> None:
    data = learnt_tables
    folders = {"macao": data / "table-rolls" / ADAPTED_FOLDER, "any": data / "table-rolls-any" / ADAPTED_FOLDER}
    shutil.rmtree(folders[used_for])
    shutil.copytree(folders[made_for], folders[used_for])  # one game's refit where the other's belongs
    reports: list[str] = []
    station = _station(data, mock_factory, reports, STRICT)
    try:
        (notice,) = reports
        assert (f"{folders[used_for] / RECORD_NAME}: made for the reader's {made_for} mode, not for its {used_for} "
                "mode" in notice and "reading with the shipped models" in notice)
        station.use_dice(MARCO_POLO_DICE if used_for == "any" else DiceSpec())
        assert station.adaptation is not None and station.adaptation.in_use is None
        assert f"made for the reader's {made_for} mode" in station.adaptation.problem
        assert station.adaptations[made_for].in_use is not None  # in its own place it is still used
        assert station.reader.learned == too_strict(LEARNED) and station.reader.calibration is None
    finally:
        station.stop()


def test_a_new_calibration_of_either_kind_of_dice_leaves_the_any_mode_refit(learnt_tables: Path,
                                                                            mock_factory: MockFactory) -> None:
    data = learnt_tables
    station = _station(data, mock_factory, learned=STRICT)
    try:
        station.keep_calibration(Calibration(default_models(PARAMS), "learned"))
        station.use_dice(MARCO_POLO_DICE)
        station.keep_calibration(Calibration(default_models_for(ANY_COLOURS, PARAMS), "learned", ANY_COLOURS))
        refit = station.adaptations["any"].in_use
        assert refit is not None and station.reader.learned.value_min_probability == refit.value_min_probability
        assert (data / "table-rolls-any" / ADAPTED_FOLDER / RECORD_NAME).exists()
        assert not (data / "table-rolls" / ADAPTED_FOLDER / RECORD_NAME).exists()  # the macao one was outdated
    finally:
        station.stop()


def test_going_back_to_the_shipped_models_forgets_only_the_games_modes_refit(learnt_tables: Path,
                                                                            mock_factory: MockFactory) -> None:
    data = learnt_tables
    station = _station(data, mock_factory, learned=STRICT)
    try:
        station.use_dice(MARCO_POLO_DICE)
        station.forget_adaptation()
        assert station.reader.learned == too_strict(LEARNED)
        assert not (data / "table-rolls-any" / ADAPTED_FOLDER / RECORD_NAME).exists()
        assert station.adaptations["macao"].in_use is not None
        station.use_dice(DiceSpec())
        assert station.reader.calibration == station.adaptations["macao"].in_use.calibration
    finally:
        station.stop()
