"""Soak benchmark: many whole games through one Session, as an evening-long app would play them (not a test).

Run from the repository root:  .venv/bin/python -m bench.soak [--games 200] [--players 4] [--dice camera|script]

Each game is a seeded legal game (RandomTable) acted through one Session into
one database, so every action is a committed journal transaction and every
round writes a backup record file. With `--dice camera` (the default) every
roll goes through the real dice station as the app builds it: a gpiozero
MockFactory pin is pressed and released, the folder camera replays rendered
roll frames, the real settle detector and reader (one reading of the still frames' mean) propose the dice, and
the proposal is confirmed (or, if some die is unsure, the dice are entered by
hand as a player would). The clock driving the station is injected, so a roll
costs only the work, not the seconds a table would wait.

Prints memory (VmRSS), OS and Python threads, open descriptors and database
size at the start (nothing loaded), after the first game (warm: caches and libraries loaded)
and at the end; goal: no growth beyond 10 MB after warm-up, no leaked threads
or descriptors once the station and the session are closed.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GROWTH_GOAL_MB = 10.0
ROLL_SEQUENCES = 3  # rendered rolls in the replayed folder
FRAMES_PER_ROLL = 30
MAX_TICKS_PER_ROLL = 400
PRESS_S = 0.08
PROGRESS_EVERY = 25


@dataclass(frozen=True)
class Figures:
    rss_mb: float
    os_threads: int
    python_threads: int
    descriptors: int
    db_mb: float


def measure(db: Path) -> Figures:
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    db_bytes = sum(Path(f"{db}{suffix}").stat().st_size for suffix in ("", "-wal", "-shm")
                   if Path(f"{db}{suffix}").exists())
    return Figures(
        rss_mb=int(status["VmRSS"].split()[0]) / 1024,
        os_threads=int(status["Threads"]),
        python_threads=threading.active_count(),
        descriptors=len(os.listdir("/proc/self/fd")),
        db_mb=db_bytes / 1024 / 1024,
    )


class InjectedClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class CameraRolls:
    """Rolls made by pressing the MockFactory button and letting the dice station read the folder camera."""

    def __init__(self, work: Path, seed: int) -> None:
        import cv2  # noqa: PLC0415 - OpenCV only for the camera mode
        from gpiozero.pins.mock import MockFactory  # noqa: PLC0415

        from app.config import load_config  # noqa: PLC0415
        from app.dice_service import RollState  # noqa: PLC0415
        from app.dice_station import build_dice_station  # noqa: PLC0415
        from tools.synth import render_roll_sequence  # noqa: PLC0415

        frames = work / "frames"
        frames.mkdir()
        for roll in range(ROLL_SEQUENCES):
            for index, frame in enumerate(render_roll_sequence(seed + roll, n_frames=FRAMES_PER_ROLL).frames):
                cv2.imwrite(str(frames / f"roll{roll}_{index:03d}.png"), frame)
        settings = work / "config.toml"
        # The reader's files (empty tray, looks, kept rolls) beside the calibration, in the work folder:
        # never the user's own data folder.
        settings.write_text(f'[camera]\nsource = "folder"\nfolder = "{frames}"\nloop = true\n'
                            f'[vision]\ncalibration_path = "{work / "reader" / "calibration.json"}"\n',
                            encoding="utf-8")
        config = load_config(settings, env={}, home=Path("/nonexistent"))
        self.tick_s = float(config["camera"]["tick_interval_s"])
        self.pin_number = int(config["button"]["pin"])
        self.rolling_states = RollState
        self.clock = InjectedClock()
        self.factory = MockFactory()
        self.rolls: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self.station = build_dice_station(config, on_status=lambda status: None, on_roll=self.rolls.append,
                                          report=self.problems.append, clock=self.clock,
                                          pin_factory=self.factory)
        if self.station.button is None:
            raise SystemExit(f"the dice station has no button: {self.problems}")
        self.read_whole = self.corrected = self.failed = 0
        self._tick()  # opens the camera

    def _tick(self) -> None:
        self.clock.now += self.tick_s
        assert self.station.button is not None
        self.station.button.poll(self.clock.now)
        self.station.service.tick(self.clock.now)

    def roll(self, by_hand: dict[str, int]) -> dict[str, Any]:
        """Press and release the button, tick until a proposal or an error, confirm; returns the roll action."""
        states = self.rolling_states
        pin = self.factory.pin(self.pin_number)
        pin.drive_low()
        self.clock.now += PRESS_S
        pin.drive_high()
        service = self.station.service
        for _ in range(MAX_TICKS_PER_ROLL):
            self._tick()
            if service.state in (states.PROPOSED, states.ERROR, states.CAMERA_UNAVAILABLE):
                break
        reading = service.status.reading
        if service.state is states.PROPOSED and reading is not None and reading.complete:
            service.confirm()
            self.read_whole += 1
        elif service.state is states.PROPOSED and reading is not None:
            read = reading.values_by_colour()  # the player fills in the dice the reader was unsure of
            service.confirm({colour: read[colour] or pips for colour, pips in by_hand.items()})
            self.corrected += 1
        else:
            service.confirm(by_hand)  # the player types all six dice
            self.failed += 1
        return self.rolls.pop()

    def close(self) -> bool:
        stopped = self.station.stop()
        self.factory.reset()
        return stopped


def play_game(session: Any, seed: int, players: int, roll: Callable[[dict[str, int]], dict[str, Any]] | None) -> int:
    """One whole seeded game through the session; returns its action count."""
    from app.games.macao import CUBE_COLOURS  # noqa: PLC0415
    from app.games.macao.simulate import RandomTable  # noqa: PLC0415

    table = RandomTable(seed=seed, players=players)
    session.new_game("macao", {"started": f"soak game {seed}", "players": table.players, "wall": table.wall})
    hand = random.Random(seed)
    while table.state.phase != "over":
        if roll is not None and table.state.phase == "roll":
            table.act(roll({colour: hand.randint(1, 6) for colour in CUBE_COLOURS}))
        else:
            table.step()
        session.act(table.actions[-1])
    if session.state.to_json() != table.state.to_json():
        raise SystemExit(f"game {seed}: the session and the table disagree")
    return len(table.actions)


def report(label: str, figures: Figures) -> None:
    print(f"{label:<26} RSS {figures.rss_mb:7.1f} MB  threads {figures.os_threads:3d} OS / "
          f"{figures.python_threads:2d} Python  fds {figures.descriptors:3d}  database {figures.db_mb:6.2f} MB",
          flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--dice", choices=("camera", "script"), default="camera",
                        help="camera: every roll through the dice station; script: the seeded dice")
    parser.add_argument("--dir", type=Path, help="work folder (default: a new temporary one, removed after)")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="windrose-soak-", dir=args.dir))
    db = work / "data" / "windrose.db"
    try:
        before = measure(db)
        from app.session import Session  # noqa: PLC0415 - measured before the app is loaded

        camera = CameraRolls(work, seed=4100) if args.dice == "camera" else None
        session = Session.open(db)
        started = time.perf_counter()
        actions = play_game(session, 1, args.players, camera.roll if camera else None)
        warm = measure(db)
        for seed in range(2, args.games + 1):
            actions += play_game(session, seed, args.players, camera.roll if camera else None)
            if seed % PROGRESS_EVERY == 0:
                report(f"after game {seed}", measure(db))
        played_s = time.perf_counter() - started
        end = measure(db)
        listing_started = time.perf_counter()
        summaries = session.games()
        listing_s = time.perf_counter() - listing_started
        notices = list(session.notices)
        session.close()
        stopped = camera.close() if camera else True
        reopen_started = time.perf_counter()
        Session.open(db).close()  # the start-up check (header, quick_check, schema) on the full database
        reopen_s = time.perf_counter() - reopen_started
        closed = measure(db)
        backups = len(list((db.parent / "backups").glob("*.json")))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"{args.games} games, {args.players} players, {actions} actions in {played_s:.1f} s "
          f"({actions / played_s:.0f} actions/s, every one committed with synchronous=FULL); dice: {args.dice}")
    if camera:
        print(f"rolls through the station: {camera.read_whole} read whole and confirmed, {camera.corrected} "
              f"with unsure dice filled in by hand, {camera.failed} typed by hand after an error; station problems: "
              f"{camera.problems or 'none'}")
    print(f"backup record files: {backups}; session notices: {notices or 'none'}; "
          f"game list of {len(summaries)} games built in {listing_s:.2f} s; "
          f"reopening the database with its start-up check: {reopen_s * 1000:.0f} ms")
    report("start (nothing loaded)", before)
    report("after game 1 (warm)", warm)
    report(f"after game {args.games}", end)
    report("after closing everything", closed)
    growth = end.rss_mb - warm.rss_mb
    leaked_threads = closed.python_threads - before.python_threads
    leaked_fds = closed.descriptors - before.descriptors
    print(f"RSS growth after warm-up: {growth:+.1f} MB (goal <= {GROWTH_GOAL_MB:.0f} MB); "
          f"Python threads left: {leaked_threads:+d}; descriptors left: {leaked_fds:+d}; "
          f"OS threads now vs warm: {closed.os_threads - warm.os_threads:+d}; station stopped: {stopped}")
    ok = growth <= GROWTH_GOAL_MB and leaked_threads <= 0 and leaked_fds <= 0 and stopped
    print("goal met" if ok else "GOAL MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
