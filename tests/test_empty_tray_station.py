"""The dice station keeps a picture of the empty tray: taken by the camera check when the tray
shows no die, stored beside the colour calibration and loaded at the next start, replaced for
the run by every still frame the reader finds empty."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from app.config import load_config
from app.dice_station import DiceStation, build_dice_station
from tests.vision.test_reference import scene_and_empty_tray
from vision.types import DiceReading


def _station(tmp_path: Path, picture: np.ndarray, mock_factory: MockFactory) -> DiceStation:
    """A station whose folder camera shows `picture`, its calibration (and so its empty-tray
    picture) kept in tmp_path; the camera opened."""
    folder = tmp_path / "frames"
    folder.mkdir(exist_ok=True)
    cv2.imwrite(str(folder / "000.png"), picture)
    override = tmp_path / "config.toml"
    override.write_text(f'[camera]\nsource = "folder"\nfolder = "{folder}"\nloop = true\n'
                        f'[vision]\ncalibration_path = "{tmp_path / "calibration.json"}"\n', encoding="utf-8")
    config = load_config(override, env={}, home=Path("/nonexistent"))
    station = build_dice_station(config, on_status=lambda _status: None, on_roll=lambda _roll: None,
                                 report=lambda _problem: None, clock=lambda: 100.0, pin_factory=mock_factory)
    station.service.tick(100.0)  # opens the camera
    return station


def test_the_camera_check_keeps_an_empty_tray_and_the_next_start_loads_it(tmp_path: Path,
                                                                         mock_factory: MockFactory) -> None:
    _frame, empty, _labels = scene_and_empty_tray(2)
    station = _station(tmp_path, empty, mock_factory)
    try:
        assert station.reader.reference is None
        assert station.take_empty_tray()
        assert station.reader.reference is not None and (tmp_path / "empty-tray.png").is_file()
    finally:
        station.stop()
    again = _station(tmp_path, empty, mock_factory)
    try:
        assert again.reader.reference is not None and again.reader.reference.frame_size == (1600, 900)
    finally:
        again.stop()


def test_a_tray_with_dice_in_it_is_not_taken_for_empty(tmp_path: Path, mock_factory: MockFactory) -> None:
    frame, _empty, _labels = scene_and_empty_tray(2)
    station = _station(tmp_path, frame, mock_factory)
    try:
        assert not station.take_empty_tray()
        assert station.reader.reference is None and not (tmp_path / "empty-tray.png").exists()
    finally:
        station.stop()


def test_a_still_frame_read_empty_becomes_the_reference_for_the_run(tmp_path: Path, mock_factory: MockFactory) -> None:
    frame, empty, _labels = scene_and_empty_tray(2)
    station = _station(tmp_path, frame, mock_factory)
    try:
        reader = station.reader
        assert reader(frame).dice and reader.reference is None
        assert reader(np.zeros_like(empty)).dice == () and reader.reference is None  # a covered lens is no tray
        assert reader(empty).dice == () and reader.reference is not None
        assert len(reader(frame).dice) == 6 and "reference not used" not in reader(frame).message
        assert not (tmp_path / "empty-tray.png").exists()  # only the camera check's picture is stored
    finally:
        station.stop()


def test_an_empty_tray_picture_that_cannot_be_stored_is_kept_for_the_run(tmp_path: Path,
                                                                        mock_factory: MockFactory) -> None:
    _frame, empty, _labels = scene_and_empty_tray(2)
    station = _station(tmp_path, empty, mock_factory)
    try:
        (tmp_path / "empty-tray.png").mkdir()  # a folder where the file should go
        assert station.take_empty_tray()
        assert station.reader.reference is not None
    finally:
        station.stop()


def test_a_damaged_empty_tray_file_is_ignored(tmp_path: Path, mock_factory: MockFactory) -> None:
    (tmp_path / "empty-tray.png").write_bytes(b"not a picture")
    station = _station(tmp_path, np.full((480, 640, 3), 90, np.uint8), mock_factory)
    try:
        assert station.reader.reference is None
    finally:
        station.stop()


def test_a_die_the_reader_misses_does_not_become_part_of_the_empty_tray(tmp_path: Path, mock_factory: MockFactory,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader finding nothing is not enough: the frame must not differ from the empty tray
    in use by a die-sized patch (a die of a kind the reader has never seen)."""
    from tests.vision.test_reference_refresh import _lone_die_and_empty

    lone, empty, again = _lone_die_and_empty(2, 0)
    station = _station(tmp_path, empty, mock_factory)
    try:
        assert station.take_empty_tray()
        kept = station.reader.reference
        monkeypatch.setattr("app.dice_station.read_dice", lambda *_args, **_kwargs: DiceReading())  # finds nothing
        station.reader(lone)
        assert station.reader.reference is kept
        station.reader(again)
        assert station.reader.reference is not kept  # a truly empty tray still refreshes it
    finally:
        station.stop()


def test_the_look_at_the_dice_is_kept_beside_the_empty_tray_until_the_next_camera_check(
        tmp_path: Path, mock_factory: MockFactory) -> None:
    """After a restart (a power cut) the first roll reads at the look of the run before; the
    camera check, which may follow a moved camera, forgets it."""
    frame, empty, _labels = scene_and_empty_tray(2)
    station = _station(tmp_path, empty, mock_factory)
    try:
        reading = station.reader(frame)
        assert reading.complete and reading.look_scale is not None
    finally:
        station.stop()
    assert (tmp_path / "reader-looks.json").is_file()
    again = _station(tmp_path, empty, mock_factory)
    try:
        assert again.reader.look_scale == reading.look_scale
        assert again.take_empty_tray()
        assert again.reader.look_scale is None
    finally:
        again.stop()


def test_the_tray_looked_at_as_a_roll_starts_becomes_the_empty_tray_of_a_table_that_never_marked_it(
        tmp_path: Path, mock_factory: MockFactory) -> None:
    """No camera check, no empty tray: the frame taken as the roll starts is read, and kept as the
    empty tray where no die is read in it for sure; a tray with the dice still in it is not."""
    frame, empty, _labels = scene_and_empty_tray(2)
    station = _station(tmp_path, frame, mock_factory)
    try:
        reader = station.reader
        assert not reader.look_at_empty_tray(frame) and reader.reference is None
        assert not reader.look_at_empty_tray(np.zeros_like(empty)) and reader.reference is None
        assert reader.look_at_empty_tray(empty) and reader.reference is not None
        assert "reference not used" not in reader(frame).message
        assert not (tmp_path / "empty-tray.png").exists()  # only the camera check's picture is stored
    finally:
        station.stop()


def test_with_an_empty_tray_in_use_the_comparison_alone_decides(tmp_path: Path, mock_factory: MockFactory,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The tray compared with the one kept: an empty one replaces it (the light drifts) and one
    with a die leaves it, with no reading at all; where the two cannot be compared (the camera was
    turned), a reading decides."""
    from tests.vision.test_reference_refresh import _lone_die_and_empty

    lone, empty, again = _lone_die_and_empty(2, 0)
    station = _station(tmp_path, empty, mock_factory)
    try:
        reader = station.reader
        assert station.take_empty_tray()
        kept = reader.reference
        reads: list[np.ndarray] = []
        monkeypatch.setattr("app.dice_station.read_dice", lambda frame, **_kwargs: reads.append(frame) or DiceReading())
        assert not reader.look_at_empty_tray(lone) and reader.reference is kept
        assert reader.look_at_empty_tray(again) and reader.reference is not kept
        assert reads == []
        turned = np.roll(again, 140, axis=1)
        assert reader.look_at_empty_tray(turned) and len(reads) == 1
    finally:
        station.stop()


def test_an_empty_tray_a_reading_alone_made_gives_way_to_the_next_one_read_empty(
        tmp_path: Path, mock_factory: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """A die the reader only doubted, left alone in the tray as a roll started, became part of
    the empty tray: the next roll that starts over the tray read empty replaces it, though the
    die's spot differs from it. The camera check's picture is not given up so."""
    from tests.vision.test_reference_refresh import _lone_die_and_empty

    lone, empty, again = _lone_die_and_empty(2, 0)
    station = _station(tmp_path, empty, mock_factory)
    try:
        reader = station.reader
        monkeypatch.setattr("app.dice_station.read_dice", lambda *_args, **_kwargs: DiceReading())  # finds nothing
        assert reader.look_at_empty_tray(lone) and not reader.tray_marked
        with_die = reader.reference
        assert reader.look_at_empty_tray(again) and reader.reference is not with_die
        monkeypatch.undo()
        assert station.take_empty_tray() and reader.tray_marked
        marked = reader.reference
        monkeypatch.setattr("app.dice_station.read_dice", lambda *_args, **_kwargs: DiceReading())
        assert not reader.look_at_empty_tray(lone) and reader.reference is marked
    finally:
        station.stop()
