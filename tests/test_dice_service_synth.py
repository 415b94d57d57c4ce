"""The whole roll flow on rendered frames: folder camera, real settling, the still frames' mean, real reader."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from app.config import load_config
from app.dice_service import DiceService, RollState
from app.dice_station import roll_timings
from hardware.camera import FolderCamera
from vision.params import VisionParams
from vision.reader import read_dice
from vision.settle import SettleDetector, SettleParams, still_picture
from tools.synth import render_roll_sequence
from vision.types import DiceReading


@pytest.fixture(scope="module")
def sequence():
    return render_roll_sequence(7, n_frames=30)


def test_rendered_roll_is_read_only_once_the_dice_lie_still(tmp_path: Path, sequence) -> None:
    for index, frame in enumerate(sequence.frames):
        cv2.imwrite(str(tmp_path / f"{index:03d}.png"), frame)
    config = load_config(env={}, home=Path("/nonexistent"), system_path=tmp_path / "none.toml")
    vision_params = VisionParams.from_table(dict(config["vision"]))
    settle_params = SettleParams.from_table(config["vision.settle"])
    pictures: list[np.ndarray] = []

    def reader(picture: np.ndarray) -> DiceReading:
        pictures.append(picture)
        return read_dice(picture, vision_params, "macao", None)

    now = [0.0]
    rolls: list[dict] = []
    service = DiceService(
        make_camera=lambda: FolderCamera(
            tmp_path, (config["camera"]["motion_width"], config["camera"]["motion_height"]), loop=False),
        reader=reader, new_settler=lambda: SettleDetector(settle_params),
 timings=roll_timings(config),
        clock=lambda: now[0], on_status=lambda status: None, on_roll=rolls.append)
    service.tick(now[0])
    assert service.state is RollState.IDLE
    service.roll()
    for timestamp in sequence.timestamps_s:
        now[0] = 1.0 + timestamp
        service.tick(now[0])
        if service.state is RollState.PROPOSED:
            break
    assert service.state is RollState.PROPOSED, service.status.message
    first_still = sequence.moving.index(False)
    count = settle_params.still_frames
    assert len(pictures) == 1  # one reading a roll: of its still frames' mean
    averaged = [start for start in range(len(sequence.frames) - count + 1)
                if np.array_equal(still_picture(sequence.frames[start:start + count]), pictures[0])]
    assert averaged and min(averaged) >= first_still  # nothing taken while a die or the hand still moved
    proposal = service.status.reading
    assert proposal is not None and proposal.message.startswith(f"the mean of {count} still frame(s) read")
    truth = {label.colour: label.value for label in sequence.labels.dice}
    service.confirm(truth)  # the player fixes whatever the reader was unsure of
    assert rolls == [{"type": "roll", "dice": truth}]
