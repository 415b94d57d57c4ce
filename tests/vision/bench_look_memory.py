"""Figures for the look remembered from roll to roll (not a test): drawn tables, each one scene
seed (camera, light, table, dice) thrown again and again, read as the app reads them (macao
mode, the whole frame): once without a remembered look, once given the look of the table's last
complete reading. Per die: right, wrong but stated sure, unsure, missed; the median thread CPU
of a reading; and each throw the two read differently.

    .venv/bin/python -m tests.vision.bench_look_memory [FIRST_SEED] [TABLES] [THROWS]
"""

from __future__ import annotations

import sys
import time

import cv2
import numpy as np

from tools.synth import SceneLabels, SceneOptions, render_scene
from vision.params import load_vision_params
from vision.reader import read_dice
from vision.types import DiceReading

OUTCOMES = ("right", "wrong but sure", "unsure", "missed")


def outcomes(reading: DiceReading, labels: SceneLabels) -> np.ndarray:
    """How many of the scene's flat dice (a cocked one has no value) fall under each of OUTCOMES,
    a Macao die found by its colour."""
    counts = np.zeros(len(OUTCOMES), int)
    read = {d.colour: d for d in reading.dice}
    for die in (d for d in labels.dice if d.value is not None):
        got = read.get(die.colour)
        outcome = (3 if got is None else 2 if got.unsure or got.value is None
                   else 0 if got.value == die.value else 1)
        counts[outcome] += 1
    return counts


def main(argv: list[str]) -> None:
    first, tables, throws = (int(argv[0]) if argv else 9810), (int(argv[1]) if len(argv) > 1 else 40), \
        (int(argv[2]) if len(argv) > 2 else 12)
    cv2.setNumThreads(1)
    params = load_vision_params()
    totals = {"judged": np.zeros(len(OUTCOMES), int), "remembered": np.zeros(len(OUTCOMES), int)}
    spent: dict[str, list[float]] = {"judged": [], "remembered": []}
    given = 0
    for seed in range(first, first + tables):
        look: float | None = None
        for throw in range(throws):
            frame, labels = render_scene(seed, SceneOptions(layout_seed=throw))
            readings = {}
            for name, scale in (("judged", None), ("remembered", look)):
                started = time.thread_time()
                readings[name] = read_dice(frame, params, "macao", look_scale=scale)
                spent[name].append((time.thread_time() - started) * 1000.0)
            judged, remembered = (outcomes(readings[name], labels) for name in ("judged", "remembered"))
            totals["judged"] += judged
            totals["remembered"] += remembered
            given += look is not None
            if (judged != remembered).any():
                print(f"table {seed} throw {throw}: judged {judged.tolist()}, remembered {remembered.tolist()} "
                      f"(look remembered {look}, judged {readings['judged'].look_scale})")
            if readings["remembered"].complete:
                look = readings["remembered"].look_scale
    print(f"{tables} tables x {throws} throws; {given} throws given a remembered look; per die "
          f"{' / '.join(OUTCOMES)}:")
    for name, counts in totals.items():
        print(f"  {name}: {' / '.join(str(c) for c in counts)}; median thread CPU {np.median(spent[name]):.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
