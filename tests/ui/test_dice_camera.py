"""The dice screen with the real roll flow: folder camera replaying the shipped demo frames, the
roll button on a MockFactory pin, the real reader; the test ticks the service with its own clock."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from app.config import load_config
from app.dice_service import RollState
from app.dice_station import build_dice_station
from app.games.macao import CUBE_COLOURS
from app.ui.camera_view import CameraView, frame_texture
from app.ui.dice_link import DiceLink
from app.ui.widgets import DieWidget
from vision.debug import outline_region
from vision.frame import tray_pixels
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness, make_context

DEMO_FRAMES = Path(__file__).resolve().parents[2] / "app" / "assets" / "demo_frames"


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def one_roll_folder(tmp_path: Path) -> Path:
    """The first demo roll, its resting frame held a while longer (as real dice stay put)."""
    folder = tmp_path / "frames"
    folder.mkdir()
    frames = sorted(DEMO_FRAMES.glob("roll1_*.jpg"))
    for index, frame in enumerate(frames + [frames[-1]] * 15):
        shutil.copyfile(frame, folder / f"{index:03d}.jpg")
    return folder


def folder_station(tmp_path: Path, mock_factory: MockFactory, clock: FakeClock) -> DiceLink:
    """A dice station on the one-roll folder, not ticking by itself: the test ticks it."""
    override = tmp_path / "config.toml"
    override.write_text(f'[camera]\nsource = "folder"\nfolder = "{one_roll_folder(tmp_path)}"\nloop = false\n')
    config = load_config(override, env={}, home=Path("/nonexistent"))
    link = DiceLink()
    link.attach(lambda **callbacks: build_dice_station(config, clock=clock, pin_factory=mock_factory, **callbacks),
                start=False)
    return link


def test_the_space_bar_and_the_screen_button_start_a_roll(tmp_path: Path, mock_factory: MockFactory) -> None:
    clock = FakeClock()
    link = folder_station(tmp_path, mock_factory, clock)
    ui = UiHarness(make_context(tmp_path, dice=link))
    try:
        Table(ui).advance(lambda s: s.phase == "roll")
        link.station.service.tick(clock.now)
        ui.idle()
        ui.window.dispatch("on_key_down", 32, 0, " ", [])
        ui.idle()
        assert link.status.state is RollState.WAITING_FOR_MOTION
        assert "Roll the dice" in ui.labels()
        link.cancel()
        ui.idle()
        ui.tap_text("Roll (button or space bar)")
        assert link.status.state is RollState.WAITING_FOR_MOTION
    finally:
        ui.close()
        link.close()


def test_button_roll_camera_proposal_fix_and_confirm(tmp_path: Path, mock_factory: MockFactory) -> None:
    clock = FakeClock()
    link = folder_station(tmp_path, mock_factory, clock)
    ui = UiHarness(make_context(tmp_path, dice=link))
    try:
        Table(ui).advance(lambda s: s.phase == "roll")
        station = link.station
        station.service.tick(clock.now)  # opens the folder camera
        ui.idle()
        assert link.status.state is RollState.IDLE
        mock_factory.pin(17).drive_low()  # the physical button
        clock.now += 0.2
        mock_factory.pin(17).drive_high()
        for _ in range(400):
            clock.now += 0.1
            station.button.poll(clock.now)
            station.service.tick(clock.now)
            if link.station.service.state in (RollState.PROPOSED, RollState.ERROR):
                break
        ui.idle()
        assert link.status.state is RollState.PROPOSED, link.status.message
        proposed = link.status.proposed_dice
        dice = {d.colour: d for d in ui.find(DieWidget)}
        for colour in CUBE_COLOURS:
            if proposed[colour] is None:
                assert dice[colour].unsure and dice[colour].value == 0
            else:
                assert dice[colour].value == proposed[colour]
        assert ui.find(CameraView) and ui.find(CameraView)[0].texture is not None
        ui.tap(ui.tagged("correct", "dice"))  # the reader is sure of this roll: corrections on request
        for colour in CUBE_COLOURS:  # the table corrects what the camera could not read
            if proposed[colour] is None:
                ui.tap(next(d for d in ui.find(DieWidget) if d.colour == colour))
                ui.tap(ui.tagged("pips", 3))
        shown = {d.colour: d.value for d in ui.find(DieWidget)}
        ui.tap_text("Dice are right")
        roll = ui.app.session.actions[-1]
        assert roll == {"type": "roll", "dice": shown}
        assert ui.app.session.state.phase == "choose_dice"
    finally:
        ui.close()
        link.close()


def test_the_preview_outlines_the_tray_region_without_drawing_on_the_frame() -> None:
    frame = np.zeros((450, 800, 3), np.uint8)
    frame_texture(frame, tray=((0.25, 0.1), (0.75, 0.1), (0.75, 0.9), (0.25, 0.9)))
    assert not frame.any(), "the service's frame was drawn on"
    outline_region(frame, tray_pixels((0.25, 0.1, 0.5, 0.8), 800, 450))
    rows, cols = np.nonzero(frame.any(axis=2))
    assert (cols.min(), cols.max(), rows.min(), rows.max()) == pytest.approx((200, 600, 45, 405), abs=3)
    assert not frame[100:350, 250:550].any(), "only the outline is drawn"
    whole = np.zeros((450, 800, 3), np.uint8)
    outline_region(whole, (0, 0, 800, 450))  # a region up to the edges stays in view
    assert whole[:, 0].any() and whole[:, -1].any() and whole[0].any() and whole[-1].any()


def test_a_sure_camera_proposal_is_accepted_by_the_first_die_chosen(tmp_path: Path) -> None:
    """The dice service hands the roll over a frame later; the die that accepted it is still the
    first player's first choice when it arrives."""
    from tests.ui.play_game import camera_station, stage_rendered_roll

    link, pins, clock = camera_station(tmp_path, rendered_seed=9104)
    ui = UiHarness(make_context(tmp_path, dice=link))
    try:
        table = Table(ui)
        table.advance(lambda s: s.phase == "roll")
        table.random.step()
        roll = table.random.actions[-1]
        stage_rendered_roll(tmp_path / "frames", 9104, 1, roll["dice"])
        pins.pin(17).drive_low()
        clock.now += 0.2
        pins.pin(17).drive_high()
        for _ in range(400):
            clock.now += 0.1
            link.station.button.poll(clock.now)
            link.station.service.tick(clock.now)
            if link.station.service.state in (RollState.PROPOSED, RollState.ERROR):
                break
        ui.idle()
        panel = ui.app.manager.get_screen("game").current_panel()
        assert panel.sure() and panel.values == roll["dice"]  # the reader read this scene whole
        first = ui.app.session.state.turn_order()[0]
        ui.tap(next(d for d in ui.find(DieWidget) if d.colour == "red"))
        ui.idle()
        assert ui.app.session.actions[-1] == roll
        ui.tap(next(d for d in ui.find(DieWidget) if d.colour == "blue"))
        assert ui.app.session.actions[-1] == {"type": "choose_dice", "player": first, "dice": ["red", "blue"]}
    finally:
        ui.close()
        link.close()
