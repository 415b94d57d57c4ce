"""Figures for the look remembered from roll to roll (not a test): drawn tables, each one scene
seed (camera, light, table, dice) thrown again and again, read in macao mode (or with `--expect
any` in any mode, told that six dice lie, as the app tells it a game's count of dice) once
without a remembered look and once given the look of the table's last complete reading. Per flat die:
right, wrong but stated sure, unsure, missed; the median thread CPU of a reading; and each throw
the two read differently.

    .venv/bin/python -m tests.vision.bench_look_memory [--first 9810] [--tables 40] [--throws 12]
        [--table KIND] [--as-the-app] [--expect any]

--table: every table that surface (`tools.synth` TABLES, or e.g. "board": printed dice, hexes and
ships around the tray, which the detector proposes and the classifier may take for dice).
--as-the-app: read as the app reads after its camera check, inside the tray's four corners and
beside the table's empty tray (drawn once per table); else the whole frame, alone.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import cv2
import numpy as np

from tools.synth import SceneLabels, SceneOptions, render_scene, render_scene_and_empty_tray
from vision.params import VisionParams, load_vision_params
from vision.reader import read_dice
from vision.reference import EmptyTray
from vision.evaluate import LabelledDie, match
from vision.types import DIE_COLOURS, DiceReading, DiceSpec, ExpectMode

OUTCOMES = ("right", "wrong but sure", "unsure", "missed")


def outcomes(reading: DiceReading, labels: SceneLabels, expect: ExpectMode = "macao") -> np.ndarray:
    """How many of the scene's flat dice (a cocked one has no value) fall under each of OUTCOMES,
    a Macao die found by its colour (in any mode, by where it lies: `vision.evaluate.match`)."""
    counts = np.zeros(len(OUTCOMES), int)
    flat = [d for d in labels.dice if d.value is not None]
    if expect == "any":
        matched = match([LabelledDie(d.box, d.value, None) for d in flat], reading.dice)
        found = [reading.dice[matched[i]] if i in matched else None for i in range(len(flat))]
    else:
        by_colour = {d.colour: d for d in reading.dice}
        found = [by_colour.get(d.colour) for d in flat]
    for die, got in zip(flat, found):
        outcome = (3 if got is None else 2 if got.unsure or got.value is None
                   else 0 if got.value == die.value else 1)
        counts[outcome] += 1
    return counts


def camera_check(seed: int, options: SceneOptions, params: VisionParams) -> tuple[VisionParams, EmptyTray]:
    """What the app's camera check keeps for a table: the tray's corners and field of view in the
    settings, and the empty tray."""
    frame, labels, empty = render_scene_and_empty_tray(seed, options)
    corners = labels.conditions["tray_corners_px"]
    checked = params.with_tray_corners(corners, frame.shape[1], frame.shape[0])  # type: ignore[arg-type]
    checked = dataclasses.replace(checked, camera_fov_deg=float(labels.conditions["camera_fov_deg"]))  # type: ignore[arg-type]
    return checked, EmptyTray.of(empty, checked)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.vision.bench_look_memory", description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=9810, help="the first table's scene seed")
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--throws", type=int, default=12)
    parser.add_argument("--table", help="every table this surface (default: each seed's own)")
    parser.add_argument("--as-the-app", action="store_true", help="inside the tray corners, beside the empty tray")
    parser.add_argument("--expect", choices=("macao", "any"), default="macao")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    totals = {"judged": np.zeros(len(OUTCOMES), int), "remembered": np.zeros(len(OUTCOMES), int)}
    spent: dict[str, list[float]] = {"judged": [], "remembered": []}
    given = 0
    dice = DiceSpec() if args.expect == "macao" else DiceSpec(len(DIE_COLOURS), DIE_COLOURS, repeats=True)
    for seed in range(args.first, args.first + args.tables):
        params, empty = load_vision_params(), None
        if args.as_the_app:
            params, empty = camera_check(seed, SceneOptions(layout_seed=0, table=args.table), params)
        look: float | None = None
        for throw in range(args.throws):
            frame, labels = render_scene(seed, SceneOptions(layout_seed=throw, table=args.table))
            readings = {}
            for name, scale in (("judged", None), ("remembered", look)):
                started = time.thread_time()
                readings[name] = read_dice(frame, params, args.expect, reference=empty, look_scale=scale,
                                           dice_count=len(DIE_COLOURS))
                spent[name].append((time.thread_time() - started) * 1000.0)
            judged, remembered = (outcomes(readings[name], labels, args.expect) for name in ("judged", "remembered"))
            totals["judged"] += judged
            totals["remembered"] += remembered
            given += look is not None
            if (judged != remembered).any():
                print(f"table {seed} throw {throw}: judged {judged.tolist()}, remembered {remembered.tolist()} "
                      f"(look remembered {look}, judged {readings['judged'].look_scale})")
            if readings["remembered"].complete_for(dice):
                look = readings["remembered"].look_scale
    print(f"{args.tables} tables{'' if args.table is None else ' (' + args.table + ')'} x {args.throws} throws, "
          f"{args.expect} mode"
          f"{', as the app reads' if args.as_the_app else ''}; {given} throws given a remembered look; per die "
          f"{' / '.join(OUTCOMES)}:")
    for name, counts in totals.items():
        print(f"  {name}: {' / '.join(str(c) for c in counts)}; median thread CPU {np.median(spent[name]):.1f} ms")


if __name__ == "__main__":
    main()
