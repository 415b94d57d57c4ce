"""Figures for the empty-tray reference on drawn scenes (not a test): dice read right, stated
wrongly, unsure, missed and phantom dice an image, without and with the reference.

    .venv/bin/python -m tests.vision.bench_reference [SEEDS] [plain|board|moved|foreign ...] [--classical]

`--classical`: the classical fallback reader (the learned models off), which uses the reference too.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time

import numpy as np

from tests.vision.test_reference import LEARNED, PARAMS, scene_and_empty_tray
from tools import synth
from vision.evaluate import MISSED, RIGHT, UNSURE, WRONG, LabelledDie, judge, match
from vision.reader import read_dice
from tools.synth import SceneOptions


def _scene(seed: int, kind: str) -> tuple[np.ndarray, np.ndarray, synth.SceneLabels]:
    if kind == "foreign":  # other dice sets: what the detector knows least
        world = synth._build_world(seed, SceneOptions(foreign_dice=True))
        return (synth._compose(world, world.dice, np.random.default_rng([seed, 1])),
                synth._compose(world, (), np.random.default_rng([seed, 1, 99])), synth._labels(world, world.dice))
    frame, empty, labels = scene_and_empty_tray(seed, board_art=kind == "board")
    if kind == "moved":  # camera nudged by 3 px, light 12 % brighter since the empty picture
        frame = np.clip(np.roll(frame, (3, -2), axis=(0, 1)).astype(np.float32) * 1.12, 0, 255).astype(np.uint8)
        labels = synth.SceneLabels(tuple(dataclasses.replace(
            d, box=(d.box[0] - 2, d.box[1] + 3, d.box[2] - 2, d.box[3] + 3)) for d in labels.dice))
    return frame, empty, labels


def main(argv: list[str]) -> None:
    learned = dataclasses.replace(LEARNED, enabled=False) if "--classical" in argv else LEARNED
    argv = [arg for arg in argv if arg != "--classical"]
    seeds = int(argv[0]) if argv else 20
    for kind in argv[1:] or ["plain", "board", "moved", "foreign"]:
        expect = "any" if kind == "foreign" else "macao"
        for use in (False, True):
            counts = {RIGHT: 0, WRONG: 0, UNSURE: 0, MISSED: 0}
            phantoms = refused = 0
            cpu_ms = []
            for seed in range(1, seeds + 1):
                frame, empty, labels = _scene(seed, kind)
                started = time.thread_time()
                reading = read_dice(frame, PARAMS, expect=expect, learned=learned, reference=empty if use else None)
                cpu_ms.append((time.thread_time() - started) * 1000.0)
                refused += "reference not used" in reading.message
                dice = [LabelledDie(d.box, d.value, d.colour) for d in labels.dice]
                matched = match(dice, reading.dice)
                for i, die in enumerate(dice):
                    if die.value is not None:
                        counts[judge(die, reading.dice[matched[i]] if i in matched else None, expect == "macao")] += 1
                phantoms += len(reading.dice) - len(matched)
            n = sum(counts.values())
            print(f"{kind:8s} {expect:5s} reference {'yes' if use else 'no '}: {n} flat dice, right "
                  f"{counts[RIGHT] / n:.1%}, wrong but sure {counts[WRONG]}, unsure {counts[UNSURE]}, missed "
                  f"{counts[MISSED]}, phantom dice an image {phantoms / seeds:.2f}, reference refused {refused}, "
                  f"thread CPU median {statistics.median(cpu_ms):.1f} ms a reading",
                  flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
