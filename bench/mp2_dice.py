"""How well the reader reads a table's dice whose colours repeat (not a test): per-die accuracy
on seeded drawn Marco Polo II rolls.

Run from the repository root:  .venv/bin/python -m bench.mp2_dice [--scenes N] [--seed S] [--classical]

Each scene draws a table, light and camera from its seed, four players with colours drawn from
the game's six, five dice each plus the black and white die. The camera check is played first
(one die of each colour on the same table, learnt by `calibrate_set`), then the roll is read
in `any` mode against the learnt colours, and once more against the built-in ones. A die is
right when the reader found it, sure, in its colour with its pips; unsure is a question to the
table; wrong is a sure answer that is not the die's (the costly kind).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections import Counter
from pathlib import Path

import numpy as np

from app.config import load_config
from app.games.marcopolo2 import NOBODYS_DICE, PLAYER_COLOURS
from vision.calibrate import Calibration, CalibrationError, calibrate_set
from vision.colour import default_models_for
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.reader import learned_models, read_dice
from tools.synth import SceneLabels, SceneOptions, render_dice_set
from vision.types import DiceReading

PLAYERS, DICE_EACH = 4, 5


def tally(reading: DiceReading, labels: SceneLabels, counts: Counter[str]) -> None:
    """Match each drawn die to the reading's die at its place and count how it was read."""
    taken: set[int] = set()
    for label in labels.dice:
        cx, cy = label.center
        found = next((k for k, d in enumerate(reading.dice) if k not in taken
                      and abs(d.x + d.w / 2 - cx) < 0.6 * d.w and abs(d.y + d.h / 2 - cy) < 0.6 * d.h), None)
        if found is None:
            counts["missed"] += 1
            continue
        taken.add(found)
        die = reading.dice[found]
        if die.unsure:
            counts["unsure"] += 1
            counts[f"unsure: {die.reason.value if die.reason else '?'}"] += 1
        elif die.colour == label.colour and die.value == label.value:
            counts["right"] += 1
        else:
            counts["wrong"] += 1
            counts["wrong colour" if die.colour != label.colour else "wrong pips"] += 1
            if die.colour != label.colour:
                counts[f"taken for: {label.colour} as {die.colour}"] += 1
    counts["extra"] += len(reading.dice) - len(taken)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--classical", action="store_true", help="the classical reader instead of the learned one")
    args = parser.parse_args()
    config = load_config(env={}, home=Path("/nonexistent"))
    params = VisionParams.from_table(dict(config["vision"]))
    learned = LearnedParams.from_table(dict(config["vision.learned"]))
    if args.classical:
        learned = dataclasses.replace(learned, enabled=False)
    reader = "classical" if isinstance(learned_models(learned), str) else "learned"
    learnt, built_in = Counter[str](), Counter[str]()
    failed_checks = 0
    seconds: list[float] = []
    for scene in range(args.scenes):
        rng = np.random.default_rng([args.seed, scene])
        players = tuple(str(c) for c in rng.choice(PLAYER_COLOURS, PLAYERS, replace=False))
        colours = tuple(c for c in (*PLAYER_COLOURS, *NOBODYS_DICE) if c in (*players, *NOBODYS_DICE))
        seed = args.seed * 100_003 + scene
        check, _ = render_dice_set(seed, [(c, int(rng.integers(1, 7))) for c in colours])
        roll = [(c, int(v)) for c in players for v in rng.integers(1, 7, DICE_EACH)]
        roll += [(c, int(rng.integers(1, 7))) for c in NOBODYS_DICE]
        frame, labels = render_dice_set(seed, roll, SceneOptions(layout_seed=1))
        started = time.perf_counter()
        reading = None
        try:
            calibration = calibrate_set(check, colours, params, learned)
        except CalibrationError:
            failed_checks += 1
        else:
            reading = read_dice(frame, params, expect="any", calibration=calibration, learned=learned)
            tally(reading, labels, learnt)
        seconds.append(time.perf_counter() - started)
        measure = "classical" if reader == "classical" else "learned"
        plain = Calibration(default_models_for(colours, params), measure, colours)
        tally(read_dice(frame, params, expect="any", calibration=plain, learned=learned), labels, built_in)
    print(f"{reader} reader, {args.scenes} scenes (seed {args.seed}), {PLAYERS} players x {DICE_EACH} dice "
          f"+ black and white; camera check failed in {failed_checks}")
    for name, counts in (("learnt colours", learnt), ("built-in colours", built_in)):
        total = counts["right"] + counts["unsure"] + counts["wrong"] + counts["missed"]
        if not total:
            continue
        print(f"{name}: {total} dice: right {100 * counts['right'] / total:.1f} %, "
              f"unsure {100 * counts['unsure'] / total:.1f} %, wrong {100 * counts['wrong'] / total:.1f} % "
              f"(colour {counts['wrong colour']}, pips {counts['wrong pips']}), missed {counts['missed']}, "
              f"extra {counts['extra']}")
        reasons = {k[len('unsure: '):]: v for k, v in counts.items() if k.startswith("unsure: ")}
        print(f"  unsure by reason: {reasons}")
        mistaken = {k[len('taken for: '):]: v for k, v in counts.most_common() if k.startswith("taken for: ")}
        print(f"  colours taken for another: {mistaken}")
    print(f"check + read per scene: {1000 * float(np.median(seconds)):.0f} ms median")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
