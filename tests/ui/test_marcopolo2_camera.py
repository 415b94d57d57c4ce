"""Marco Polo II's round by camera: drawn scenes with several dice per player colour go through a
folder camera, the real reader (learned colours of a set), the real station and the round pad
into the real session; an unsure die is asked about; without a camera the dice are tapped in."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import pytest
from gpiozero.pins.mock import MockFactory

from app.config import load_config
from app.dice_service import DiceStatus, RollState
from app.dice_station import build_dice_station
from app.ui.dice_link import DiceLink
from app.ui.marcopolo2.dice import ColouredDie
from tests.test_camera_hang import hanging_folder  # noqa: F401 (the fixture of a camera read that hangs)
from tests.ui.harness import UiHarness, make_context
from vision.calibrate import colour_set_path
from vision.params import VisionParams
from tools.synth import SceneOptions, render_dice_set
from vision.types import DiceReading, DieReading, UnsureReason

PLAYERS = (("Ann", "red"), ("Ben", "blue"), ("Cy", "yellow"))
# The table's colours (the players' and black and white), one die each for the camera check.
CHECK = (("red", 2), ("blue", 5), ("yellow", 3), ("black", 6), ("white", 1))
ROLL = (("red", 3), ("red", 1), ("red", 6), ("red", 2), ("red", 4),
        ("blue", 2), ("blue", 2), ("blue", 1), ("blue", 5), ("blue", 3),
        ("yellow", 6), ("yellow", 6), ("yellow", 5), ("yellow", 4), ("yellow", 1),
        ("black", 4), ("white", 6))
HUNG_AFTER_S = 0.2  # the smallest read_timeout_s the settings allow
SCENE_SEED = 4017  # a neutral table under plain light: the test is of the flow, the accuracy is benched
SCENE = SceneOptions(die_px=40, table="grey_card", tint="neutral", dim=False, blur_sigma=0.5, tilt_deg=0.0,
                     cards=0, hard_light=False, glare=False)


class StepClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def folder_of(tmp_path: Path, dice: tuple[tuple[str, int], ...], copies: int, layout: int | None = None) -> Path:
    """A folder camera's frames: one drawn scene held still (as dice that lie in the tray)."""
    folder = tmp_path / f"frames-{layout}"
    folder.mkdir()
    frame, _labels = render_dice_set(SCENE_SEED, dice, SceneOptions(**{**SCENE.__dict__, "layout_seed": layout}))
    for index in range(copies):
        cv2.imwrite(str(folder / f"{index:03d}.png"), frame)
    return folder


def station(tmp_path: Path, folder: Path | None, mock_factory: MockFactory, clock: StepClock,
            read_timeout_s: float) -> DiceLink:
    """A dice station on `folder` (None: a camera that is not there), its files in tmp_path; the test ticks it."""
    override = tmp_path / "config.toml"
    override.write_text(f'[camera]\nsource = "folder"\nfolder = "{folder or tmp_path / "missing"}"\nloop = true\n'
                        f'read_timeout_s = {read_timeout_s}\n'
                        f'[vision]\ncalibration_path = "{tmp_path / "calibration.json"}"\n')
    config = load_config(override, env={}, home=Path("/nonexistent"))
    link = DiceLink()
    link.attach(lambda **callbacks: build_dice_station(config, clock=clock, pin_factory=mock_factory, **callbacks),
                start=False)
    link.station.service.tick(clock.now)
    return link


@pytest.fixture
def table(tmp_path: Path, mock_factory: MockFactory) -> Iterator[Any]:
    made: list[tuple[UiHarness, DiceLink]] = []

    def open_table(folder: Path | None, read_timeout_s: float = 10.0) -> tuple[UiHarness, DiceLink, StepClock]:
        clock = StepClock()
        link = station(tmp_path, folder, mock_factory, clock, read_timeout_s)
        ui = UiHarness(make_context(tmp_path, dice=link))
        made.append((ui, link))
        ui.app.session.new_game("marcopolo2", {"format": "marcopolo2-score/1", "players": [
            {"name": name, "colour": colour} for name, colour in PLAYERS]})
        ui.app.go("game")
        ui.idle()
        return ui, link, clock

    yield open_table
    for ui, link in made:
        ui.close()
        link.close()


def roll_until_proposed(ui: UiHarness, link: DiceLink, clock: StepClock) -> None:
    ui.tap(ui.tagged("roll"))
    for _ in range(200):
        clock.now += 0.1
        link.station.service.tick(clock.now)
        if link.station.service.state in (RollState.PROPOSED, RollState.ERROR):
            break
    ui.idle()
    assert link.status.state is RollState.PROPOSED, link.status.message


def pad(ui: UiHarness) -> Any:
    return ui.app.manager.get_screen("game").current_panel().pad


def test_the_game_tells_the_station_its_colours(table: Any) -> None:
    _ui, link, _clock = table(None)
    spec = link.station.service.dice
    assert spec.repeats and spec.colours == ("red", "blue", "yellow", "black", "white")
    assert link.station.reader.dice == spec


def test_a_sure_roll_of_every_players_dice_is_one_tap(table: Any, tmp_path: Path) -> None:
    ui, link, clock = table(folder_of(tmp_path, ROLL, 40))
    roll_until_proposed(ui, link, clock)
    shown = {name: [d.value for d in ui.find(ColouredDie) if d.tag is not None and d.tag[:2] == ("die", name)]
             for name, _colour in PLAYERS}
    for name, colour in PLAYERS:  # grouped by player colour, every die of it read
        assert sorted(shown[name]) == sorted(v for c, v in ROLL if c == colour), name
    spare = sorted((d.colour, d.value) for d in ui.find(ColouredDie) if d.tag and d.tag[0] == "spare")
    assert spare == [("black", 4), ("white", 6)]  # the black and white dice apart, in nobody's sum
    assert "sum 16, none owed" in ui.labels() and "sum 13, owed 2" in ui.labels()
    taps = ui.taps
    ui.tap(ui.tagged("confirm", "Ann"))
    assert ui.taps - taps == 1
    recorded = ui.app.session.actions[-3:]
    assert [(a["player"], a["round"], sorted(a["dice"])) for a in recorded] == [
        (name, 1, sorted(v for c, v in ROLL if c == colour)) for name, colour in PLAYERS]
    assert ui.app.session.state["players"][1]["rolls"] == [shown["Ben"]]
    assert link.status.state is RollState.CONFIRMED
    clock.now += 0.1
    link.station.service.tick(clock.now)  # the confirmed roll is kept on the ticking thread
    kept = json.loads((tmp_path / "table-rolls-any" / "labels" / "roll-000001.json").read_text(encoding="utf-8"))
    assert sorted((d["colour"], d["value"]) for d in kept["dice"]) == sorted(ROLL)
    assert not (tmp_path / "table-rolls").exists()  # not among the Macao rolls `adapt` refits on


def test_an_unsure_die_is_asked_for_before_the_dice_go_in(table: Any) -> None:
    ui, link, _clock = table(None)
    reading = DiceReading((
        DieReading(10, 10, 40, 40, "red", 5, 0.9, False), DieReading(60, 10, 40, 40, "red", None, 0.3, True,
                                                                    UnsureReason.VALUE_DOUBTFUL),
        DieReading(10, 60, 40, 40, "blue", 6, 0.9, False), DieReading(60, 60, 40, 40, "yellow", 4, 0.9, False),
        DieReading(110, 60, 40, 40, "blue", None, 0.2, True, UnsureReason.COLOUR_DOUBTFUL)))
    status = DiceStatus(RollState.PROPOSED, "Some dice are unclear: correct them, then confirm", {}, reading,
                        link.station.service.dice)
    board = pad(ui)
    board.on_status(status)
    ui.idle()
    assert board.picked == ("Ann", 1)  # the first open die is picked for its number
    assert ui.tagged("confirm", "Ann").disabled and "Every die needs a number" in [b.text for b in ui.buttons()]
    assert "pips unclear" in ui.labels() and "colour?" in ui.labels()
    ui.tap(ui.tagged("pips", 2))  # Ann's second die shows 2; Ben's doubtful one is picked next
    assert board.picked == ("Ben", 1)
    ui.tap(ui.tagged("take_out"))  # it was not Ben's: out it goes
    ui.tap(ui.tagged("confirm", "Ann"))
    assert [(a["player"], a["dice"]) for a in ui.app.session.actions[-3:]] == [
        ("Ann", [5, 2]), ("Ben", [6]), ("Cy", [4])]


def test_without_a_camera_the_dice_are_tapped_in(table: Any) -> None:
    ui, link, _clock = table(None)
    assert link.status.state is RollState.CAMERA_UNAVAILABLE
    for pips in (6, 5, 4):
        ui.tap(ui.tagged("pips", pips))
    ui.tap(ui.tagged("confirm", "Ann"))
    assert ui.app.session.actions[-1] == {"type": "round_dice", "player": "Ann", "round": 1, "dice": [6, 5, 4]}
    assert pad(ui).lit == "Ben"


def test_a_hung_camera_leaves_the_dice_to_be_tapped_in(table: Any, request: pytest.FixtureRequest) -> None:
    ui, link, clock = table(request.getfixturevalue("hanging_folder"), HUNG_AFTER_S)
    ui.tap(ui.tagged("roll"))  # the roll asks for a picture, which never comes
    clock.now += 0.1
    link.station.service.tick(clock.now)
    ui.idle()
    assert link.status.state is RollState.CAMERA_UNAVAILABLE and "the camera hangs" in link.status.message
    for pips in (1, 2):
        ui.tap(ui.tagged("pips", pips))
    ui.tap(ui.tagged("confirm", "Ann"))
    assert ui.app.session.actions[-1] == {"type": "round_dice", "player": "Ann", "round": 1, "dice": [1, 2]}


def test_a_cancelled_proposal_is_dropped_from_the_pad(table: Any, tmp_path: Path) -> None:
    ui, link, clock = table(folder_of(tmp_path, ROLL, 40))
    roll_until_proposed(ui, link, clock)
    assert pad(ui).drafts["Ann"]
    link.cancel()
    ui.idle()
    assert link.status.state is RollState.CANCELLED
    assert pad(ui).drafts == {} and not pad(ui).spare


def test_the_camera_check_learns_the_tables_colours(table: Any, tmp_path: Path) -> None:
    ui, link, _clock = table(folder_of(tmp_path, CHECK, 2))
    ui.app.go("camera")
    ui.idle()
    assert any("red, blue, yellow, black, white" in text for text in ui.labels())
    ui.tap_text("Calibrate colours")
    job = ui.app.manager.get_screen("camera").calibration_job
    job.join(timeout=60)
    ui.idle()
    swatches = [w.colour for w in ui.walk() if type(w).__name__ == "ColourSwatch"]
    assert swatches == ["red", "blue", "yellow", "black", "white"]
    ui.tap_text("Keep these colours")
    params = link.station.reader.params
    assert isinstance(params, VisionParams)
    kept = colour_set_path(params, swatches)
    assert kept.exists() and not (tmp_path / "calibration.json").exists()  # Macao's six stay as they were
    assert link.station.reader.colour_set().colours == tuple(swatches)
    assert link.station.reader.calibration_applies
