"""Roll-flow figures on rendered rolls: `python -m bench.roll_bench [--rolls N]`.

For each rendered roll (tools.synth) the frames are replayed through the
folder camera into the real dice service (settling, the still frames' mean, reader) at 10 frames
per second of simulated time, read by the app's own table reader
(app.dice_station.TableReader: one for every roll, which remembers the look
that found the dice and rests between rolls, as the station's does), and it prints how long after the dice came to
rest the proposal appeared, the slowest tick in wall time, the wall time of the
ticks from rest to proposal (taking and reading the still frames), and how many
dice the proposal got right, left unsure, or got wrong.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import cv2

from app.config import load_config
from app.dice_service import DiceService, RollState
from app.dice_station import TableReader, roll_timings
from hardware.camera import FolderCamera
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.settle import SettleDetector, SettleParams
from tools.synth import render_roll_sequence


def bench_roll(seed: int, folder: Path, reader: TableReader) -> tuple[float | None, float, float, int, int, int]:
    """(seconds from rest to proposal or None, slowest tick ms, ms of ticks from rest to proposal,
    right, unsure, wrong) for one roll."""
    config = load_config()
    settle_params = SettleParams.from_table(config["vision.settle"])
    sequence = render_roll_sequence(seed, n_frames=40)
    for index, frame in enumerate(sequence.frames):
        cv2.imwrite(str(folder / f"{index:03d}.png"), frame)
    now = [0.0]
    motion_size = (config["camera"]["motion_width"], config["camera"]["motion_height"])
    service = DiceService(
        make_camera=lambda: FolderCamera(folder, motion_size, loop=False),
        reader=reader,
        new_settler=lambda: SettleDetector(settle_params, reader.params.tray),
        timings=roll_timings(config), clock=lambda: now[0], on_status=lambda status: None,
        on_roll=lambda action: None, rest_reader=reader.rest)
    service.tick(now[0])
    service.roll()
    slowest = busy = 0.0
    proposed_at: float | None = None
    rest = sequence.timestamps_s[sequence.moving.index(False)]
    for timestamp in sequence.timestamps_s:
        now[0] = 1.0 + timestamp
        started = time.perf_counter()
        service.tick(now[0])
        took = (time.perf_counter() - started) * 1000
        slowest = max(slowest, took)
        busy += took if timestamp >= rest else 0.0
        if service.state is RollState.PROPOSED:
            proposed_at = timestamp
            break
    truth = {label.colour: label.value for label in sequence.labels.dice}
    got = service.status.proposed_dice
    right = sum(got[colour] == value for colour, value in truth.items())
    unsure = sum(got[colour] is None for colour in truth)
    delay = None if proposed_at is None else proposed_at - rest
    return delay, slowest, busy, right, unsure, len(truth) - right - unsure


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.roll_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=5)
    args = parser.parse_args(argv)
    delays: list[float] = []
    config = load_config()
    reader = TableReader(VisionParams.from_table(dict(config["vision"])),
                         LearnedParams.from_table(dict(config["vision.learned"])), None)
    for seed in range(1, args.rolls + 1):
        with tempfile.TemporaryDirectory() as folder:
            delay, slowest, busy, right, unsure, wrong = bench_roll(seed, Path(folder), reader)
        shown = "never" if delay is None else f"{delay:.1f} s"
        print(f"roll {seed}: proposal {shown} after rest; slowest tick {slowest:.0f} ms; "
              f"ticks from rest to proposal {busy:.0f} ms; "
              f"dice right {right}, unsure {unsure}, wrong {wrong}")
        if delay is not None:
            delays.append(delay)
    if delays:
        print(f"median delay from rest to proposal: {statistics.median(delays):.1f} s over {len(delays)} rolls")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
