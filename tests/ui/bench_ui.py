"""Benchmarks of the touchscreen app (a script, not a test): start-up time and memory.

    ./setup.sh test --co -q >/dev/null; .venv/bin/python -m tests.ui.bench_ui

1. Start-up: from launching `python -m app` (the real start path: config, journal,
   dice station, Kivy window) to the first screen drawn; median of 3 runs.
   Goal: under 3 s on the development machine.
2. Memory: resident set size of a process that has just played a whole
   two-player game on the screens by taps (tests/ui/play_game.py). Goal: under 200 MB.
   Beside it: RSS as rounds begin (growth per round), anonymous / file-backed / PSS, the
   software OpenGL libraries' share, the same game rolled with the camera (dice station), and
   the same game with a frame drawn after every tap (the harness itself draws none).
3. Taps per round: cards typed, cards from the learned list, rolls read by the camera from
   synthetic scenes of the table's own dice (so corrections are the reader's real misses), and
   both together (a table that has played before).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RUNS = 3

# Runs the app's own launch path; prints once the first screen has been drawn, then quits.
CHILD = """
import sys
from kivy.clock import Clock
from app.ui.app import WindroseApp

def on_start(self):
    def drawn(_dt):
        print("first-screen", self.manager.current, flush=True)
        self.stop()
    Clock.schedule_once(lambda _dt: Clock.schedule_once(drawn, 0), 0)

WindroseApp.on_start = on_start
from app.ui.launch import launch
sys.exit(launch(["--db", sys.argv[1]]))
"""


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "offscreen")
    env.update(KIVY_NO_ARGS="1", KIVY_HOME=str(home / "kivy"), PYTHONPATH=str(ROOT))
    return env


def startup_seconds(home: Path) -> float:
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(home / "bench.db")], cwd=ROOT, env=_env(home),
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert child.stdout is not None
    for line in child.stdout:
        if line.startswith("first-screen"):
            elapsed = time.perf_counter() - started
            break
    else:
        raise SystemExit("the app ended without drawing a screen")
    child.wait(timeout=60)
    return elapsed


def whole_game(home: Path, name: str, *extra: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """A whole game by taps (tests/ui/play_game.py, seed 3) in its own folder `home/name`."""
    folder = home / name
    folder.mkdir()
    done = subprocess.run([sys.executable, "-m", "tests.ui.play_game", "full", str(folder), "3", *extra], cwd=ROOT,
                          env={**_env(folder), **(env or {})}, capture_output=True, text=True, timeout=900,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="windrose-bench-") as folder:
        home = Path(folder)
        times = [startup_seconds(home) for _ in range(RUNS)]
        print(f"start-up to first screen: median {statistics.median(times):.2f} s "
              f"(runs: {', '.join(f'{t:.2f}' for t in times)}; goal < 3 s)")
        result = whole_game(home, "game")
        print(f"RSS after a whole 2-player game played by taps: {result['rss_mb']} MB (goal < 200 MB)")
        print_memory(result, "dice typed in")
        print(f"cards typed in: median taps per round (rounds 1-12) {result['median_taps_per_round']}; "
              f"split {result['median_taps_by_part']}; taps by action type: {result['taps_by_kind']}")
        learned = whole_game(home, "learned", "learned")
        print(f"cards picked from the learned catalogue: median taps per round {learned['median_taps_per_round']}; "
              f"split {learned['median_taps_by_part']}; taps by action type: {learned['taps_by_kind']}")
        camera = whole_game(home, "camera", "camera")
        print(f"extra: RSS after the same game rolled with the button and the folder camera (dice station, "
              f"OpenCV, the configured reader): {camera['rss_mb']} MB")
        print_memory(camera, "camera")
        rendered = whole_game(home, "rendered", "camera", "rendered")
        print(f"camera rolls of the table's own dice (a synthetic scene of each roll, read by the reader): median "
              f"taps per round {rendered['median_taps_per_round']}; rolls {rendered['camera_rolls']} took "
              f"{rendered['taps_by_kind']['roll']} taps (button, corrections, confirm); "
              f"split {rendered['median_taps_by_part']}")
        usual = whole_game(home, "usual", "camera", "rendered", "learned")
        print(f"a table that has played before (camera rolls of the table's own dice, cards from the learned list): "
              f"median taps per round {usual['median_taps_per_round']}; split {usual['median_taps_by_part']}")
        drawn = whole_game(home, "drawn", "drawn")
        print(f"extra: RSS after the game with dice typed in and a frame drawn after every tap (as the running app "
              f"does; software OpenGL here): {drawn['rss_mb']} MB")
        print_memory(drawn, "frames drawn")
        # Mesa's software rasteriser keeps scene memory per thread (one per core); a Pi draws on its GPU.
        one_thread = whole_game(home, "drawn1", "drawn", env={"LP_NUM_THREADS": "0"})
        print(f"extra: the same with the software rasteriser on the main thread only (LP_NUM_THREADS=0): "
              f"{one_thread['rss_mb']} MB")
    return 0


def print_memory(result: dict[str, Any], label: str) -> None:
    """Extra figures beside the RSS: its growth over the rounds and where it is."""
    by_round = {int(number): mb for number, mb in result["rss_by_round"].items()}
    parts = result["memory_mb"]
    # From round 2 on: the first round loads what a game needs once (panels; with the camera, the reader).
    print(f"  {label}: RSS as rounds 1, 2, 6, 12 began {by_round[1]}, {by_round[2]}, {by_round[6]}, {by_round[12]} MB; "
          f"growth per round from round 2 to 12 {(by_round[12] - by_round[2]) / 10:+.1f} MB; "
          f"anonymous {parts['anonymous']} MB, file-backed {parts['file_backed']} MB, PSS {parts['pss']} MB, "
          f"software OpenGL libraries (Mesa llvmpipe, not on a Pi) {parts['software_gl_rss']} MB")


if __name__ == "__main__":
    sys.exit(main())
