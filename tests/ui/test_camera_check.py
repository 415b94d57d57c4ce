"""Camera check screen, colour calibration by taps: a folder camera replays one of the project's own
frames, the real calibration runs, and the calibration file is written only when the table keeps it."""

from __future__ import annotations

import json
import math
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from app.config import load_config
from app.dice_service import RollState
from app.dice_station import build_dice_station
from app.games.macao import CUBE_COLOURS
from app.ui.camera_view import CameraView, tray_from_corners
from app.ui.dice_link import DiceLink
from app.ui.i18n import translator
from app.ui.launch import dice_config
from app.ui.screens.camera import ColourSwatch, doubtful_colours
from app.ui.settings_store import SettingsStore, UiSettings
from tests.ui.harness import UiHarness, make_context
from tests.vision.test_reference import scene_and_empty_tray
from vision.calibrate import Calibration, load_calibration, save_calibration
from vision.colour import ColourModel
from tools.synth import SceneOptions, render_scene

DEMO_FRAMES = Path(__file__).resolve().parents[2] / "app" / "assets" / "demo_frames"
RESTING_DEMO_FRAME = DEMO_FRAMES / "roll2_11.jpg"


class FixedClock:
    def __call__(self) -> float:
        return 100.0


def station_on(tmp_path: Path, frame: Path | None, mock_factory: MockFactory,
               calibration: Path | None = None, vision: str = "") -> DiceLink:
    """A dice station whose camera replays `frame` (None: a folder that does not exist),
    its calibration file at `calibration` (default: tmp_path/calibration.json), `vision` more
    lines of its [vision] table; the test ticks it."""
    folder = tmp_path / "frames"
    if frame is not None:
        folder.mkdir()
        shutil.copyfile(frame, folder / f"000{frame.suffix}")
    override = tmp_path / "config.toml"
    override.write_text(f'[camera]\nsource = "folder"\nfolder = "{folder}"\nloop = true\n'
                        f'[vision]\ncalibration_path = "{calibration or tmp_path / "calibration.json"}"\n{vision}')
    config = load_config(override, env={}, home=Path("/nonexistent"))
    link = DiceLink()
    link.attach(lambda **callbacks: build_dice_station(config, clock=FixedClock(), pin_factory=mock_factory,
                                                       **callbacks), start=False)
    link.station.service.tick(100.0)  # opens the camera (or finds it missing)
    return link


@contextmanager
def camera_screen(tmp_path: Path, frame: Path | None, mock_factory: MockFactory,
                  calibration: Path | None = None, vision: str = "") -> Iterator[tuple[UiHarness, DiceLink]]:
    """The app on the camera check with a station replaying `frame` (see station_on); closed after."""
    link = station_on(tmp_path, frame, mock_factory, calibration, vision)
    ui = UiHarness(make_context(tmp_path, dice=link))
    try:
        ui.app.go("camera")
        ui.idle()
        yield ui, link
    finally:
        translator.set_language("en")
        ui.close()
        link.close()


@pytest.fixture
def screen(tmp_path: Path, mock_factory: MockFactory, request: pytest.FixtureRequest) -> Iterator[tuple[UiHarness, DiceLink]]:
    frame, calibration = getattr(request, "param", (RESTING_DEMO_FRAME, None))
    with camera_screen(tmp_path, frame, mock_factory, calibration) as opened:
        yield opened


def swatches(ui: UiHarness) -> dict[str, ColourSwatch]:
    return {swatch.colour: swatch for swatch in ui.find(ColourSwatch)}


def finish_calibration(ui: UiHarness) -> None:
    """Let the calibration's worker thread end and its result reach the screen."""
    job = ui.app.manager.get_screen("camera").calibration_job
    if job is not None:
        job.join(timeout=60)
        assert not job.is_alive(), "the calibration worker did not end"
    ui.idle()


def text_on_screen(ui: UiHarness, words: str) -> bool:
    return any(words in label for label in ui.labels())


def test_calibrate_shows_six_colours_and_keep_writes_the_file_the_reader_then_uses(
        screen: tuple[UiHarness, DiceLink], tmp_path: Path) -> None:
    ui, link = screen
    station = link.station
    assert link.status.state is RollState.IDLE
    assert station.reader.calibration is None
    assert text_on_screen(ui, "Dice colours: built in.")
    ui.tap_text("Calibrate colours")
    finish_calibration(ui)
    assert set(swatches(ui)) == set(CUBE_COLOURS)
    assert all(s.polarity in ("light", "dark", "") for s in swatches(ui).values())
    assert text_on_screen(ui, "These are the colours the camera found. Keep them?")
    assert not (tmp_path / "calibration.json").exists()  # nothing stored before Keep
    assert station.reader.calibration is None
    ui.tap_text("Keep these colours")
    stored = load_calibration(tmp_path / "calibration.json")
    assert station.reader.calibration == stored
    assert station.service._reader is station.reader  # the roll flow reads through this reader
    assert text_on_screen(ui, f"Colours kept in {tmp_path / 'calibration.json'}")
    assert not swatches(ui) and ui.buttons("Test roll")
    ui.app.go("start")
    ui.app.go("camera")
    assert text_on_screen(ui, "Dice colours: calibrated for this table.")


def test_discard_leaves_the_old_calibration_file_and_reader_alone(
        screen: tuple[UiHarness, DiceLink], tmp_path: Path) -> None:
    ui, link = screen
    ui.tap_text("Calibrate colours")
    finish_calibration(ui)
    ui.tap_text("Keep these colours")
    path = tmp_path / "calibration.json"
    old_bytes, old_calibration = path.read_bytes(), link.station.reader.calibration
    ui.tap_text("Calibrate colours")
    finish_calibration(ui)
    assert len(swatches(ui)) == 6
    ui.tap_text("Discard")
    assert text_on_screen(ui, "Calibration discarded: the colours in use stay as they were.")
    assert path.read_bytes() == old_bytes
    assert link.station.reader.calibration is old_calibration


def half_tray() -> np.ndarray:
    """The resting demo frame with its right half painted over by the table: some dice gone."""
    frame = cv2.imread(str(RESTING_DEMO_FRAME))
    frame[:, 800:] = frame[5, 5]
    return frame


@pytest.mark.parametrize(("picture", "reader_words"), [
    (lambda: np.zeros((720, 1280, 3), np.uint8), "no contrast"),
    (lambda: np.full((720, 1280, 3), (90, 120, 60), np.uint8), "found 0\\."),
    (half_tray, "found [0-5]\\."),
], ids=["black", "bare-felt", "half-tray"])
def test_a_frame_without_six_dice_fails_plainly_and_keeps_the_old_file(
        tmp_path: Path, mock_factory: MockFactory, picture: Callable[[], np.ndarray], reader_words: str) -> None:
    frame = tmp_path / "tray.png"
    cv2.imwrite(str(frame), picture())
    old = tmp_path / "calibration.json"
    old.write_text("left as it was\n")
    with camera_screen(tmp_path, frame, mock_factory) as (ui, link):
        ui.tap_text("Calibrate colours")
        finish_calibration(ui)
        assert text_on_screen(ui, "Calibration failed: the six dice must lie apart in the tray")
        assert text_on_screen(ui, "The colours in use stay as they were.")
        assert any(re.search(reader_words, label) for label in ui.labels())  # the reader's own words
        assert not swatches(ui) and not ui.buttons("Keep these colours")
        assert old.read_text() == "left as it was\n"
        assert link.station.reader.calibration is None


@pytest.mark.parametrize("screen", [(None, None)], indirect=True)
def test_without_a_camera_calibration_says_so(screen: tuple[UiHarness, DiceLink], tmp_path: Path) -> None:
    ui, link = screen
    assert link.status.state is RollState.CAMERA_UNAVAILABLE
    ui.tap_text("Calibrate colours")
    finish_calibration(ui)
    assert text_on_screen(ui, f"The camera is not available (image folder '{tmp_path / 'frames'}' does not exist)")
    assert text_on_screen(ui, "so nothing was calibrated.")
    assert not (tmp_path / "calibration.json").exists()


def test_a_camera_that_fails_on_the_frame_is_reported(screen: tuple[UiHarness, DiceLink], tmp_path: Path) -> None:
    ui, link = screen
    shutil.rmtree(tmp_path / "frames")  # the image vanishes between the check and the frame
    ui.tap_text("Calibrate colours")
    finish_calibration(ui)
    assert text_on_screen(ui, "The camera gave no picture (")
    assert not (tmp_path / "calibration.json").exists()


def test_a_calibration_that_cannot_be_saved_keeps_the_reader_as_it_was(
        tmp_path: Path, mock_factory: MockFactory) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the calibration's folder should be\n")
    with camera_screen(tmp_path, RESTING_DEMO_FRAME, mock_factory, blocker / "calibration.json") as (ui, link):
        ui.tap_text("Calibrate colours")
        finish_calibration(ui)
        ui.tap_text("Keep these colours")
        assert text_on_screen(ui, "The colours could not be saved (")
        assert link.station.reader.calibration is None
        assert blocker.read_text() == "a file where the calibration's folder should be\n"


def test_a_rendered_tray_scene_calibrates_too(tmp_path: Path, mock_factory: MockFactory) -> None:
    """A scene of the project's own generator (fixed seed), the dice well apart and no cubes about."""
    image, _labels = render_scene(31, SceneOptions(cubes=0, touching=False, cocked=False, glare=False, cards=0,
                                                   blur_sigma=0.0, tilt_deg=0.0, dim=False))
    frame = tmp_path / "scene.png"
    cv2.imwrite(str(frame), image)
    with camera_screen(tmp_path, frame, mock_factory) as (ui, link):
        ui.tap_text("Calibrate colours")
        finish_calibration(ui)
        assert set(swatches(ui)) == set(CUBE_COLOURS)
        ui.tap_text("Keep these colours")
        assert load_calibration(tmp_path / "calibration.json") == link.station.reader.calibration


def test_calibration_speaks_german(screen: tuple[UiHarness, DiceLink]) -> None:
    ui, _link = screen
    translator.set_language("de")
    ui.idle()
    german = translator.gettext("Calibrate colours")
    assert german != "Calibrate colours"
    ui.tap_text(german)
    finish_calibration(ui)
    names = {colour: s.children[-1].text for colour, s in swatches(ui).items()}  # the name label comes first
    assert names["red"] == translator.gettext("red") != "red"
    ui.tap_text(translator.gettext("Discard"))
    assert text_on_screen(ui, translator.gettext("Calibration discarded: the colours in use stay as they were."))


def test_the_screen_keeps_drawing_while_the_colours_are_measured(screen: tuple[UiHarness, DiceLink]) -> None:
    """The picture is measured on a worker thread: meanwhile the screen says so and a second
    tap cannot start another measurement; the result shows once the worker is done."""
    ui, link = screen
    release = threading.Event()
    measure = link.station.calibrate_now
    calls = []

    def held_measure() -> Calibration:
        calls.append(1)
        release.wait(timeout=60)
        return measure()

    link.station.calibrate_now = held_measure
    ui.tap_text("Calibrate colours")
    assert text_on_screen(ui, "Measuring the six dice's colours")
    assert ui.button("Calibrate colours").disabled
    ui.app.manager.get_screen("camera").on_calibrate()  # a second tap on the way
    assert len(calls) == 1
    release.set()
    finish_calibration(ui)
    assert set(swatches(ui)) == set(CUBE_COLOURS)
    assert not text_on_screen(ui, "Measuring")


def test_an_unexpected_fault_while_measuring_is_told_and_the_screen_can_try_again(
        screen: tuple[UiHarness, DiceLink], tmp_path: Path) -> None:
    ui, link = screen

    def broken_measure() -> Calibration:
        raise RuntimeError("a bug in the measuring")

    link.station.calibrate_now = broken_measure
    ui.tap_text("Calibrate colours")
    finish_calibration(ui)
    assert text_on_screen(ui, "Calibration stopped on an unexpected fault (RuntimeError: a bug in the measuring).")
    assert ui.button("Calibrate colours").disabled is False
    assert not (tmp_path / "calibration.json").exists()


def test_a_result_that_arrives_after_the_table_left_is_dropped(screen: tuple[UiHarness, DiceLink]) -> None:
    ui, link = screen
    release = threading.Event()
    measure = link.station.calibrate_now
    link.station.calibrate_now = lambda: (release.wait(timeout=60), measure())[1]
    ui.tap_text("Calibrate colours")
    ui.app.go("start")
    release.set()
    finish_calibration(ui)
    assert ui.app.manager.current == "start"
    ui.app.go("camera")
    ui.idle()
    assert swatches(ui) == {}
    assert ui.button("Calibrate colours").disabled is False


def table_calibration(**changes: tuple[float, float]) -> Calibration:
    """A plausible calibration (colour -> chroma, lightness), with some colours changed."""
    looks = {"red": (70, 90), "blue": (57, 61), "green": (58, 95), "black": (1, 8), "gray": (2, 112),
             "violet": (60, 65), **changes}
    return Calibration({name: ColourModel(name, 30.0 * index, chroma, lightness, True, "light")
                        for index, (name, (chroma, lightness)) in enumerate(looks.items())})


def test_doubtful_colours_are_a_coloured_die_gone_gray_or_black_lighter_than_gray(
        screen: tuple[UiHarness, DiceLink]) -> None:
    params = screen[1].station.reader.params
    assert doubtful_colours(table_calibration(), params) == []
    assert doubtful_colours(table_calibration(green=(3, 95)), params) == ["green"]
    assert doubtful_colours(table_calibration(black=(1, 130)), params) == ["black", "gray"]


def test_a_doubtful_calibration_is_marked_and_can_still_be_kept(
        screen: tuple[UiHarness, DiceLink], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ui, link = screen
    found = table_calibration(red=(4, 90))  # a gray thing was taken for the red die
    monkeypatch.setattr(link.station, "calibrate_now", lambda: found)
    ui.tap_text("Calibrate colours")
    finish_calibration(ui)
    assert {colour for colour, swatch in swatches(ui).items() if swatch.doubtful} == {"red"}
    assert swatches(ui)["red"].children[0].text == "doubtful"
    assert text_on_screen(ui, "Some colours look wrong (red): are the six dice apart and fully in view?")
    ui.tap_text("Keep these colours")
    assert load_calibration(tmp_path / "calibration.json") == found == link.station.reader.calibration


def test_a_broken_calibration_file_at_start_is_told_in_german(tmp_path: Path, mock_factory: MockFactory) -> None:
    (tmp_path / "calibration.json").write_text("{not json")
    with camera_screen(tmp_path, RESTING_DEMO_FRAME, mock_factory) as (ui, link):
        translator.set_language("de")
        assert text_on_screen(ui, "calibration.json: not a calibration file (bad JSON at line 1); bis zur nächsten "
                                  "Kalibrierung gelten die voreingestellten Würfelfarben")


def test_a_calibration_of_the_other_reader_is_shown_as_not_in_use(tmp_path: Path, mock_factory: MockFactory) -> None:
    """The learned reader measures colours in its own scale: a classical reader's file is not used,
    and the screen says so instead of "calibrated for this table"."""
    save_calibration(table_calibration(), tmp_path / "calibration.json")  # made by the classical reader
    with camera_screen(tmp_path, RESTING_DEMO_FRAME, mock_factory) as (ui, link):
        reader = link.station.reader
        assert reader.measure == "learned" and reader.calibration is not None
        assert not reader.calibration_applies
        assert text_on_screen(ui, "The stored calibration was made by the other dice reader")
        assert not text_on_screen(ui, "calibrated for this table")


def _picture_point(view: CameraView, across: float, down: float) -> tuple[float, float]:
    """The window point at fractions (across, down) of the picture the view shows."""
    width, height = view.norm_image_size
    return view.to_window(view.center_x - width / 2 + across * width, view.center_y + height / 2 - down * height)


def test_the_tray_is_marked_by_tapping_its_four_corners_on_the_picture(screen: tuple[UiHarness, DiceLink]) -> None:
    """A camera at a slant sees the tray as a quadrilateral: its four corners, tapped in any order,
    are kept clockwise from the top-left one."""
    ui, link = screen
    link.station.service.tick(100.1)  # a frame for the live picture
    ui.idle()
    ui.tap_text("Mark the tray")
    assert any(text.startswith("Take the dice out, then tap the four corners") for text in ui.labels())
    view = ui.find(CameraView)[0]
    assert view.texture is not None and view.on_picture_tap is not None
    for corner in ((0.80, 0.90), (0.78, 0.85), (0.79, 0.88)):
        ui.tap_at(*_picture_point(view, *corner))
    assert "Corner 3 of 4 marked: tap the next corner." in ui.labels()
    ui.tap_at(*_picture_point(view, 0.81, 0.86))  # a slip: far too small for a tray
    assert any(text.startswith("Those four corners make no tray") for text in ui.labels())
    assert ui.app.context.settings.tray is None
    for corner in ((0.85, 0.90), (0.20, 0.15), (0.10, 0.95), (0.75, 0.20)):
        ui.tap_at(*_picture_point(view, *corner))
    tray = ui.app.context.settings.tray
    assert tray == pytest.approx([0.20, 0.15, 0.75, 0.20, 0.85, 0.90, 0.10, 0.95], abs=0.01)
    assert json.loads(ui.app.context.settings_store.path.read_text(encoding="utf-8"))["tray"] == tray
    assert ui.button("Mark the tray") and ui.find(CameraView)[0].on_picture_tap is None  # marking is over


def test_four_corners_with_one_inside_the_others_are_a_slip() -> None:
    assert tray_from_corners([(0.1, 0.1), (0.9, 0.1), (0.5, 0.3), (0.5, 0.9)]) is None
    assert tray_from_corners([(0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9)]) == [0.1, 0.1, 0.9, 0.1, 0.9, 0.9, 0.1, 0.9]


def test_whole_picture_and_cancel_end_the_marking(screen: tuple[UiHarness, DiceLink]) -> None:
    ui, _link = screen
    ui.tap_text("Mark the tray")
    ui.tap_text("Cancel")
    assert ui.app.context.settings.tray is None and ui.button("Mark the tray")
    ui.tap_text("Mark the tray")
    ui.tap_text("Whole picture")
    assert ui.app.context.settings.tray == [0.0, 0.0, 1.0, 1.0]


def test_a_marked_tray_is_handed_back_to_the_config_file(screen: tuple[UiHarness, DiceLink]) -> None:
    """The choice shows only while the table's region overrides config.toml's, and clears it from
    the saved settings (dice_config then takes config.toml's, see the test above)."""
    ui, _link = screen
    ui.tap_text("Mark the tray")
    assert not ui.buttons("As in the config file")
    ui.tap_text("Whole picture")
    ui.tap_text("Mark the tray")
    ui.tap_text("As in the config file")
    assert ui.app.context.settings.tray is None
    assert json.loads(ui.app.context.settings_store.path.read_text(encoding="utf-8"))["tray"] is None
    assert ui.button("Mark the tray") and not ui.buttons("As in the config file")


def test_a_marked_tray_reaches_the_reader_and_the_settling_check(tmp_path: Path, mock_factory: MockFactory) -> None:
    """The station is built from the config with the table's marked tray over [vision] tray_*."""
    config = load_config(None, env={}, home=Path("/nonexistent"))
    station_config, _note = dice_config(config, UiSettings(camera="none", tray=[0.1, 0.2, 0.5, 0.6]))
    station = build_dice_station(station_config, on_status=lambda _status: None, on_roll=lambda _roll: None,
                                 report=lambda _problem: None, clock=FixedClock(), pin_factory=mock_factory)
    try:
        assert station.reader.params.tray == (0.1, 0.2, 0.5, 0.6)
        assert station.service._new_settler().tray == (0.1, 0.2, 0.5, 0.6)
    finally:
        station.stop()
    corners = [0.2, 0.1, 0.8, 0.15, 0.9, 0.9, 0.1, 0.85]  # a camera at a slant: four corners
    station_config, _note = dice_config(config, UiSettings(camera="none", tray=corners))
    station = build_dice_station(station_config, on_status=lambda _status: None, on_roll=lambda _roll: None,
                                 report=lambda _problem: None, clock=FixedClock(), pin_factory=mock_factory)
    try:
        assert station.reader.params.tray_quad == ((0.2, 0.1), (0.8, 0.15), (0.9, 0.9), (0.1, 0.85))
        assert station.service._new_settler().tray == pytest.approx((0.1, 0.1, 0.8, 0.8))  # the rectangle round them
    finally:
        station.stop()
    unchanged, _note = dice_config(config, UiSettings(camera="none"))
    assert unchanged["vision"]["tray_width"] == config["vision"]["tray_width"]


@pytest.mark.parametrize("saved", [[0.5, 0.0, 0.6, 1.0], [0.1, 0.1, 0.0, 0.5], "whole", [0.1, 0.2, 0.3], [True, 0, 1, 1],
                                   [0.1, 0.1, 0.9, 0.1, 0.5, 0.3, 0.5, 0.9], [0.1, 0.1, 1.2, 0.1, 0.9, 0.9, 0.1, 0.9]])
def test_a_bad_saved_tray_is_dropped(saved: object, tmp_path: Path) -> None:
    store = SettingsStore(tmp_path / "ui-settings.json")
    store.path.write_text(json.dumps({"tray": saved}), encoding="utf-8")
    loaded, warning = store.load(UiSettings())
    assert loaded.tray is None and warning is None


@pytest.mark.parametrize("language", ["en", "de"])
def test_no_text_of_the_camera_check_is_cut_at_800x480(screen: tuple[UiHarness, DiceLink], language: str) -> None:
    """Four buttons share the row; German runs longer."""
    ui, link = screen
    translator.set_language(language)
    link.station.service.tick(100.1)
    ui.idle()
    seen = [("check", ui.cut_texts())]
    ui.tap_text(translator.gettext("Mark the tray"))
    seen.append(("marking", ui.cut_texts()))
    view = ui.find(CameraView)[0]
    for corner in ((0.5, 0.5), (0.52, 0.5), (0.5, 0.52), (0.52, 0.52)):  # too small: the slip's words
        ui.tap_at(*_picture_point(view, *corner))
    seen.append(("slip", ui.cut_texts()))
    ui.tap_at(*_picture_point(view, 0.1, 0.9))
    seen.append(("next corner", ui.cut_texts()))
    for corner in ((0.1, 0.1), (0.9, 0.1), (0.9, 0.9)):
        ui.tap_at(*_picture_point(view, *corner))
    ui.tap_text(translator.gettext("Mark the tray"))  # a marked tray: the config file's is offered too
    seen.append(("marking again", ui.cut_texts()))
    assert seen == [(where, []) for where, _cut in seen]


@pytest.mark.parametrize("corners", [((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)),
                                     ((0.12345, 1.0), (1.0, 0.00005), (0.0, 0.2), (0.9, 0.99999)),
                                     ((0.99999, 0.5), (0.33333, 0.87654), (0.4, 0.1), (0.7, 0.95))])
def test_corners_at_the_picture_s_edge_make_a_tray_the_settings_keep(corners: tuple[tuple[float, float], ...]) -> None:
    tray = tray_from_corners(list(corners))
    assert tray is not None and UiSettings(tray=tray).checked().tray == tray


def test_marking_the_tray_keeps_the_empty_tray_to_compare_with(tmp_path: Path, mock_factory: MockFactory) -> None:
    from tests.vision.test_reference import scene_and_empty_tray

    _frame, empty, _labels = scene_and_empty_tray(2)
    picture = tmp_path / "empty.png"
    cv2.imwrite(str(picture), empty)
    with camera_screen(tmp_path, picture, mock_factory) as (ui, link):
        link.station.service.tick(100.1)
        ui.idle()
        ui.tap_text("Mark the tray")
        view = ui.find(CameraView)[0]
        for corner in ((0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9)):
            ui.tap_at(*_picture_point(view, *corner))
        assert ui.app.context.settings.tray is not None
        assert (tmp_path / "empty-tray.png").is_file()
        assert link.station.reader.reference is not None  # the restarted station loaded it


def test_marking_a_tray_with_dice_in_it_keeps_no_empty_tray(screen: tuple[UiHarness, DiceLink], tmp_path: Path) -> None:
    ui, link = screen
    link.station.service.tick(100.1)
    ui.idle()
    ui.tap_text("Mark the tray")
    ui.tap_text("Whole picture")
    assert not (tmp_path / "empty-tray.png").exists() and link.station.reader.reference is None


def _corners_of_a_tray_seen(tilt_deg: float, lens_fov_deg: float) -> str:
    """tray_corners of a tray in the middle of the view of a camera 60 cm up, leaning `tilt_deg`
    towards a point 120 degrees round from the picture's right, its lens seeing `lens_fov_deg`
    across a 2304 x 1296 picture (config.toml's camera); 30 x 20 cm under a 66-degree lens, and
    as much of the view under another."""
    width, height = 2304, 1296
    focal = width / 2 / math.tan(math.radians(lens_fov_deg) / 2)
    axis = np.array([math.cos(math.radians(120)), math.sin(math.radians(120)), 0.0])
    cross = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    turn = math.radians(tilt_deg)
    rotation = np.eye(3) + math.sin(turn) * cross + (1 - math.cos(turn)) * cross @ cross
    ray = np.array([0.0, 0.0, -1.0]) @ rotation
    middle = np.array([0.0, 0.0, 600.0]) + ray * (600.0 / -ray[2])
    size = math.tan(math.radians(lens_fov_deg) / 2) / math.tan(math.radians(33))
    tray = middle + size * np.array([[-150, -100, 0], [150, -100, 0], [150, 100, 0], [-150, 100, 0]], float)
    seen = (tray - (0.0, 0.0, 600.0)) @ rotation.T
    across = 0.5 + focal * seen[:, 0] / -seen[:, 2] / width
    down = 0.5 + focal * seen[:, 1] / -seen[:, 2] / height
    return " ".join(f"{x:.5f} {y:.5f}" for x, y in zip(across, down))


@pytest.mark.parametrize(("tilt", "lens", "words"), [
    (25, 66, "By the tray's corners the camera looks 25° from straight down (field of view 66°)."),
    (25, 25, "The tray's corners fit a camera that sees 25° across, not the 66° of the config file"),
    (5, 66, None),
], ids=["leaning", "narrow-lens", "over-the-tray"])
def test_the_camera_check_says_what_the_tray_s_corners_tell_of_the_camera(
        tmp_path: Path, mock_factory: MockFactory, tilt: float, lens: float, words: str | None) -> None:
    """A lens the configured field of view does not fit is said in words (the leaning check then
    guesses where straight down is: flat dice may be asked about); a leaning camera's tilt is
    said; a camera nearly over the tray says nothing."""
    corners = _corners_of_a_tray_seen(tilt, lens)
    with camera_screen(tmp_path, RESTING_DEMO_FRAME, mock_factory,
                       vision=f'camera_fov_deg = 66.0\ntray_corners = "{corners}"\n') as (ui, link):
        assert link.station.reader.params.tray_quad is not None
        said = [text for text in ui.labels() if "tray's corners" in text]
        if words is None:
            assert said == []
        else:
            assert len(said) == 1 and said[0].startswith(words)


def test_the_field_of_view_the_corners_measure_is_kept_by_one_tap(tmp_path: Path, mock_factory: MockFactory) -> None:
    """Use 25° keeps the corners' field of view with the table's settings (over [vision]
    camera_fov_deg): the station built from them places the camera; As in the config file drops
    it with the marked tray."""
    corners = _corners_of_a_tray_seen(25, 25)
    with camera_screen(tmp_path, RESTING_DEMO_FRAME, mock_factory,
                       vision=f'camera_fov_deg = 66.0\ntray_corners = "{corners}"\n') as (ui, _link):
        ui.tap_text("Use 25°")
        settings = ui.app.context.settings
        assert settings.camera_fov_deg == 25.0
        assert json.loads(ui.app.context.settings_store.path.read_text(encoding="utf-8"))["camera_fov_deg"] == 25.0
        config = load_config(tmp_path / "config.toml", env={}, home=Path("/nonexistent"))
        station_config, _note = dice_config(config, settings)
        assert station_config["vision"]["camera_fov_deg"] == 25.0
        station = build_dice_station(station_config, on_status=lambda _status: None, on_roll=lambda _roll: None,
                                     report=lambda _problem: None, clock=FixedClock(), pin_factory=mock_factory)
        try:
            slant = station.camera_slant()
            assert slant is not None and slant.tilt_deg == pytest.approx(25, abs=1)
        finally:
            station.stop()
        ui.tap_text("Mark the tray")
        ui.tap_text("As in the config file")
        assert ui.app.context.settings.camera_fov_deg is None and ui.app.context.settings.tray is None


@pytest.mark.parametrize("saved", [5, 171.0, "66", True, None, 66])
def test_a_saved_field_of_view_the_reader_cannot_take_is_dropped(saved: object) -> None:
    kept = UiSettings(camera_fov_deg=saved).checked().camera_fov_deg  # type: ignore[arg-type]
    assert kept == (saved if saved in (None, 66) else None)


def _mark_the_tray(ui: UiHarness, link: DiceLink) -> None:
    link.station.service.tick(100.1)  # a frame for the live picture
    ui.idle()
    ui.tap_text("Mark the tray")
    view = ui.find(CameraView)[0]
    for corner in ((0.05, 0.05), (0.95, 0.05), (0.95, 0.95), (0.05, 0.95)):
        ui.tap_at(*_picture_point(view, *corner))


def test_marking_a_tray_with_dice_in_it_says_the_empty_tray_was_not_kept(screen: tuple[UiHarness, DiceLink]) -> None:
    """Without the empty tray board art and tray patterns can pass for dice: the table is told
    to take the dice out and mark again, until it leaves the screen."""
    ui, link = screen
    _mark_the_tray(ui, link)
    assert ui.app.context.settings.tray is not None
    assert text_on_screen(ui, "The reader saw dice in the tray, so no picture of the empty tray was kept")
    assert link.station.reader.reference is None
    ui.app.go("start")
    ui.app.go("camera")
    assert not text_on_screen(ui, "picture of the empty tray")


def test_marking_an_empty_tray_says_its_picture_was_kept(tmp_path: Path, mock_factory: MockFactory) -> None:
    _frame, empty, _labels = scene_and_empty_tray(2)
    picture = tmp_path / "empty.png"
    cv2.imwrite(str(picture), empty)
    with camera_screen(tmp_path, picture, mock_factory) as (ui, link):
        _mark_the_tray(ui, link)
        assert text_on_screen(ui, "The picture of the empty tray was kept: each roll is compared with it.")
        assert link.station.reader.reference is not None


def test_an_empty_tray_the_disk_refuses_is_not_called_kept(tmp_path: Path, mock_factory: MockFactory) -> None:
    """The marking restarts the dice station, which reads the empty tray from its file: where the
    file could not be written (a folder in its place), the table is told it reads without one."""
    _frame, empty, _labels = scene_and_empty_tray(2)
    picture = tmp_path / "empty.png"
    cv2.imwrite(str(picture), empty)
    (tmp_path / "empty-tray.png").mkdir()
    with camera_screen(tmp_path, picture, mock_factory) as (ui, link):
        config = load_config(tmp_path / "config.toml", env={}, home=Path("/nonexistent"))

        def start_dice(settings: UiSettings) -> None:
            station_config, _note = dice_config(config, settings)
            link.attach(lambda **callbacks: build_dice_station(station_config, clock=FixedClock(),
                                                               pin_factory=mock_factory, **callbacks), start=False)
            link.station.service.tick(100.0)

        ui.app.context.start_dice = start_dice
        _mark_the_tray(ui, link)
        assert link.station.reader.reference is None
        assert text_on_screen(ui, "The picture of the empty tray could not be stored (is the card full?)")
        (tmp_path / "empty-tray.png").rmdir()
        _mark_the_tray(ui, link)
        assert link.station.reader.reference is not None
        assert text_on_screen(ui, "The picture of the empty tray was kept")


NOT_MARKED = "The dice tray is not marked at this table yet"


def test_the_start_screen_says_the_tray_is_not_marked_until_a_camera_check_marks_it(
        tmp_path: Path, mock_factory: MockFactory) -> None:
    """A table that skipped the camera check reads without the tray's corners, and without its
    empty tray until a roll starts over it: the start screen says so, in German too, uncut."""
    _frame, empty, _labels = scene_and_empty_tray(2)
    picture = tmp_path / "empty.png"
    cv2.imwrite(str(picture), empty)
    link = station_on(tmp_path, picture, mock_factory)
    ui = UiHarness(make_context(tmp_path, dice=link))
    try:
        ui.app.go("start")
        ui.idle()
        assert text_on_screen(ui, NOT_MARKED)
        translator.set_language("de")
        ui.app.refresh()
        ui.idle()
        assert text_on_screen(ui, "Die Würfelschale ist an diesem Tisch noch nicht markiert")
        assert ui.cut_texts() == []
        translator.set_language("en")
        assert link.station.take_empty_tray()
        ui.app.refresh()
        ui.idle()
        assert not text_on_screen(ui, NOT_MARKED)
    finally:
        translator.set_language("en")
        ui.close()
        link.close()
