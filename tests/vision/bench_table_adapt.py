"""Figures for `vision adapt` at tables the reader has never seen (not a test): each drawn table
(one scene seed of a leave-one-out condition, `tools.scene_factors`) is thrown again and again and
kept as the app keeps confirmed rolls (each die labelled at its top face with its true value);
adapt then refits on three quarters and judges the held-out quarter, once with the threshold
(and colours) alone and once with the classifiers' last layers refitted too. Per table and in
all: dice read right, stated wrongly, unsure, and dice reported where none lies.

    .venv/bin/python -m tests.vision.bench_table_adapt [--throws 48] [--first 4811] [--tables 2]
        [--only tilt=30-35 ...] [--beside] [--as-kept] [--fresh 24]
    .venv/bin/python -m tests.vision.bench_table_adapt --photos DIR   # a labelled set of one table

--beside: each throw kept with its empty tray and the tray's corners, as the app keeps them, so
that adapt judges the held-out throws as the app reads them (its teaching reads them alone).
--as-kept: the throws adapt learns from are kept as the app keeps confirmed rolls of dice that share
one colour (read as the app reads them, `keep_roll` labelling only the dice the reader found, and
none of a throw where it found more or fewer dice than were rolled), not every die labelled; its
held-out quarter is then labelled so too, so judge by --fresh.
--fresh N: N more throws of each table that adapt never sees, read as shipped, through the layers
refitted on every table, and as adapt writes it (the refit where it judged it better, else as
shipped): the gate's choice judged on rolls that did not steer it.
--photos: a folder of labelled photos (images/, labels/) taken at one table, e.g. dice-real-dev2
given back its 4:3 (`tools.training.unstretch`); its odd images by name are the held-out quarter
and part of the teaching (the shipped classifiers were trained on its even half).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import tempfile
from pathlib import Path

import cv2
import numpy as np

from tools.scene_factors import allowed_values, parse_choices
from tools.synth import SceneLabels, SceneOptions, render_randomised, render_randomised_and_empty_tray
from vision.adapt import Adaptation, AdaptError, adapt, reader_beside_empty_tray, with_heads, with_threshold
from vision.evaluate import CameraCheck, Score, evaluate, iter_dataset
from vision.heads import save_heads
from vision.learned_params import LearnedParams
from vision.params import VisionParams, load_vision_params
from vision.reader import learned_models, read_dice
from vision.table_rolls import keep_roll
from vision.types import DiceReading

ONE_COLOUR = "die"  # the kept rolls' one colour: dice that share one, as a set of white dice

# The leave-one-out conditions of the judging sets (docs/dice-reader.md, "The sets"), two tables each.
CONDITIONS: dict[str, tuple[str, ...]] = {
    "tilt": ("tilt=30-35",),
    "marbled": ("style=marbled",),
    "white": ("style=white",),
    "board": ("background=board",),
    "webcam": ("style=white", "background=light_wood", "camera=webcam", "tilt=20-30,30-35"),
}


def write_table(folder: Path, seed: int, throws: int, only: list[str], beside: bool = False, first: int = 0,
                as_kept: bool = False) -> None:
    """`throws` throws of one drawn table, each die labelled by its top face with its value (a
    cocked die has none). With `beside`, each throw's empty tray in references/ (as the app keeps
    it) and its tray corners and field of view in the label (as the camera check knows them).
    `first`: the first throw's layout seed. With `as_kept`, each throw is kept as the app keeps
    a confirmed roll instead (`kept_as_the_app_keeps`)."""
    allowed = allowed_values(None, parse_choices(only, "--only"))
    for part in ("images", "labels") + (("references",) if beside else ()):
        (folder / part).mkdir(parents=True)
    kept = [0, 0, 0]  # throws kept, dice thrown, dice labelled with another value than their own
    for throw in range(first, first + throws):
        name = f"roll-{throw + 1:06d}"
        empty = None
        if beside:
            frame, labels, empty = render_randomised_and_empty_tray(seed, allowed, SceneOptions(layout_seed=throw))
        else:
            frame, labels = render_randomised(seed, allowed, SceneOptions(layout_seed=throw))
        scene = {key: labels.conditions[key] for key in ("tray_corners_px", "camera_fov_deg")} if beside else None
        if as_kept:
            settled = np.random.default_rng([seed, throw])
            wrong = kept_as_the_app_keeps(folder, frame, labels, empty, scene, throws, settled)
            kept[0] += 0 if wrong is None else 1
            kept[1] += sum(1 for die in labels.dice if die.value is not None)
            kept[2] += wrong or 0
            continue
        if empty is not None:
            cv2.imwrite(str(folder / "references" / f"{name}.jpg"), empty, [cv2.IMWRITE_JPEG_QUALITY, 95])
        cv2.imwrite(str(folder / "images" / f"{name}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
        dice = []
        for die in labels.dice:
            x, y, half = die.center[0], die.center[1], die.face_side / 2
            dice.append({"bbox_px": [x - half, y - half, x + half, y + half], "value": die.value, "colour": die.colour})
        record: dict[str, object] = {"dice": dice}
        if scene is not None:
            record["scene"] = scene
        (folder / "labels" / f"{name}.json").write_text(json.dumps(record), encoding="utf-8")
    if as_kept:
        labelled = sum(len(json.loads(path.read_text(encoding="utf-8"))["dice"]) for path in (folder / "labels").iterdir())
        print(f"{folder.name}: {kept[0]} of {throws} throws kept, {labelled} of {kept[1]} dice labelled, "
              f"{kept[2]} of them wrongly", flush=True)


def kept_as_the_app_keeps(folder: Path, frame: np.ndarray, labels: SceneLabels, empty: np.ndarray | None,
                          scene: dict[str, object] | None, limit: int, settled: np.random.Generator) -> int | None:
    """One throw kept as the app keeps a confirmed roll of dice that share one colour (`any`
    mode): read as the app reads it (beside its empty tray in its corners where given, else
    alone), the players confirming the true values (a cocked die's the one they settle it to,
    drawn at random), and `vision.table_rolls.keep_roll` labelling
    the dice the reader found (`labelled_dice`: none where it found more or fewer dice than
    were rolled). Returns how many of the labels name another value than the die's own there
    (the nearest true top face), or None when no die was labelled and the throw not kept."""
    params = load_vision_params()
    chosen = learned_models()
    assert not isinstance(chosen, str), chosen
    learned = chosen[1]
    if empty is not None and scene is not None:
        fov = scene.get("camera_fov_deg")
        check = CameraCheck(np.array(scene["tray_corners_px"], float), float(fov) if isinstance(fov, (int, float)) else None)
        reading = reader_beside_empty_tray(params, "any", None, learned)(frame, empty, check)
    else:
        reading = read_dice(frame, params, "any", learned=learned)
    one_colour = dataclasses.replace(reading, dice=tuple(dataclasses.replace(d, colour=ONE_COLOUR)
                                                         for d in reading.dice))
    confirmed = {ONE_COLOUR: [die.value if die.value is not None else int(settled.integers(1, 7))
                              for die in labels.dice]}
    image = keep_roll(folder, frame, one_colour, confirmed, limit + 1, empty)
    if image is None:
        return None
    label = folder / "labels" / f"{image.stem}.json"
    record = json.loads(label.read_text(encoding="utf-8"))
    if scene is not None:
        label.write_text(json.dumps({**record, "scene": scene}), encoding="utf-8")
    wrong = 0
    for die in record["dice"]:
        x0, y0, x1, y1 = die["bbox_px"]
        nearest = min(labels.dice, key=lambda true: math.dist(true.center, ((x0 + x1) / 2, (y0 + y1) / 2)))
        wrong += nearest.value != die["value"]
    return wrong


def photos_as_rolls(photos: Path, folder: Path) -> None:
    """The photos as rolls, ordered so that adapt's held-out quarter (every fourth) is odd images."""
    pairs = list(iter_dataset(photos))
    odd, even = pairs[1::2], pairs[0::2]
    held, rest = odd[: len(pairs) // 4], even + odd[len(pairs) // 4 :]
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    for number in range(len(pairs)):
        image, label = held.pop(0) if number % 4 == 3 and held else rest.pop(0)
        name = f"roll-{number + 1:06d}"
        os.symlink(image.resolve(), folder / "images" / f"{name}{image.suffix}")
        os.symlink(label.resolve(), folder / "labels" / f"{name}{label.suffix}")


def figures(result: Adaptation) -> str:
    after = result.after
    return (f"{after.right} right, {after.wrong_confident} wrong, {after.unsure} unsure, "
            f"{after.phantom} off the dice")


def judge(folder: Path, name: str, totals: dict[str, list[int]], fresh: Path | None = None,
          threshold_alone: bool = True, layers_bar: float | None = None) -> None:
    """Adapt on the table's rolls (with the threshold alone, and with the last layers) and print
    the held-out figures; with `fresh`, also those of the table's rolls adapt never saw, read
    through the refitted layers with a sure bar of at least `layers_bar` where given."""
    params = load_vision_params()
    chosen = learned_models()
    assert not isinstance(chosen, str), chosen
    models, learned = chosen
    try:
        layered = adapt(folder, params, models, learned, None, 0.003, 30, "any", layers=True)
    except AdaptError as exc:  # too few dice kept: adapt writes nothing, the table reads as shipped
        print(f"{name}: not adapted ({exc})", flush=True)
        if fresh is not None:
            shipped = read_fresh(fresh, params, learned)
            print(f"{name}, {shipped.dice} fresh dice: shipped {figures_of(shipped)}; layers {figures_of(shipped)}; "
                  f"as written {figures_of(shipped)}", flush=True)
            for key in ("fresh: shipped", "fresh: layers", "fresh: as written"):
                _add(totals, key, shipped)
        return
    plain = adapt(folder, params, models, learned, None, 0.003, 30, "any", layers=False) if threshold_alone else None
    before = layered.before
    print(f"{name}: {before.dice} held-out dice; shipped {before.right} right, {before.wrong_confident} wrong, "
          f"{before.unsure} unsure, {before.phantom} off the dice; "
          + (f"threshold alone ({plain.refit.value_min_probability:.2f}) {figures(plain)}; " if plain else "")
          + f"with the last layers {figures(layered)} ({'written' if layered.better else 'not written'}); "
          f"values stated that the players did not confirm {before.against_confirmed} -> "
          f"{layered.after.against_confirmed} on {before.confirmed_images} rolls", flush=True)
    applied = layered.after if layered.better else before  # adapt writes a refit only where it reads better
    scores = [("shipped", before), ("layers", layered.after), ("layers where written", applied)]
    scores += [("threshold", plain.after)] if plain else []
    if fresh is not None:
        with tempfile.TemporaryDirectory(prefix="heads-") as scratch:
            heads = Path(scratch) / "heads.json"
            refitted = layered.refit.learned(learned)
            if layers_bar is not None:
                refitted = with_threshold(refitted, "any", max(layers_bar, refitted.value_min_probability))
            if layered.refit.heads is not None and layered.refit.heads.heads:
                save_heads(heads, layered.refit.heads.heads)
                refitted = with_heads(refitted, heads)
            shipped, everywhere = (read_fresh(fresh, params, reading_with) for reading_with in (learned, refitted))
        written = everywhere if layered.better else shipped
        print(f"{name}, {shipped.dice} fresh dice: shipped {figures_of(shipped)}; layers {figures_of(everywhere)}; "
              f"as written {figures_of(written)}", flush=True)
        scores += [("fresh: shipped", shipped), ("fresh: layers", everywhere), ("fresh: as written", written)]
    for key, score in scores:
        _add(totals, key, score)


def _add(totals: dict[str, list[int]], key: str, score: Score) -> None:
    row = totals.setdefault(key, [0, 0, 0, 0, 0])
    for index, value in enumerate((score.dice, score.right, score.wrong_confident, score.unsure, score.phantom)):
        row[index] += value


def figures_of(score: Score) -> str:
    return f"{score.right} right, {score.wrong_confident} wrong, {score.unsure} unsure, {score.phantom} off the dice"


def read_fresh(folder: Path, params: VisionParams, learned: LearnedParams) -> Score:
    """The fresh rolls read in any mode as the app reads them: beside their empty trays in their
    tray corners where they were kept with them, else alone."""
    def alone(frame: np.ndarray) -> DiceReading:
        return read_dice(frame, params, "any", learned=learned)
    beside = reader_beside_empty_tray(params, "any", None, learned) if (folder / "references").is_dir() else None
    return evaluate(folder, alone, False, beside)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.vision.bench_table_adapt", description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=48)
    parser.add_argument("--first", type=int, default=4811, help="the first table's scene seed")
    parser.add_argument("--tables", type=int, default=2, help="tables per condition")
    parser.add_argument("--only", action="append", help="one condition of your own instead of CONDITIONS")
    parser.add_argument("--fresh", type=int, default=0, help="throws of each table adapt never sees, judged apart")
    parser.add_argument("--no-threshold-alone", action="store_true", help="leave out adapt with the threshold alone")
    parser.add_argument("--photos", type=Path, help="a labelled set of photos of one table instead")
    parser.add_argument("--as-kept", action="store_true",
                        help="teach on the throws as the app keeps confirmed rolls (labelled where the reader found as "
                             "many dice as were rolled) instead of every die labelled; judge on --fresh throws")
    parser.add_argument("--layers-bar", type=float, default=None,
                        help="read the fresh throws through the refitted layers with at least this sure bar")
    parser.add_argument("--beside", action="store_true",
                        help="keep each throw's empty tray and tray corners, as the app keeps its rolls: adapt then "
                             "judges the held-out throws as the app reads them")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    totals: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory(prefix="tables-") as scratch:
        if args.photos:
            photos_as_rolls(args.photos, Path(scratch) / "photos")
            judge(Path(scratch) / "photos", args.photos.name, totals, threshold_alone=not args.no_threshold_alone)
        conditions = {"own": tuple(args.only)} if args.only else CONDITIONS
        for number, (condition, only) in enumerate([] if args.photos else conditions.items()):
            for table in range(args.tables):
                seed = args.first + 10 * number + table
                folder = Path(scratch) / f"{condition}_{seed}"
                write_table(folder, seed, args.throws, list(only), args.beside, as_kept=args.as_kept)
                fresh = Path(scratch) / f"{condition}_{seed}_fresh" if args.fresh else None
                if fresh is not None:
                    write_table(fresh, seed, args.fresh, list(only), args.beside, first=args.throws)
                judge(folder, f"{condition} {seed}", totals, fresh, not args.no_threshold_alone, args.layers_bar)
    for key, (dice, right, wrong, unsure, phantom) in totals.items():
        print(f"all, {key}: {right} of {dice} right ({right / max(dice, 1):.1%}), {wrong} wrong "
              f"({wrong / max(dice, 1):.2%}), {unsure} unsure, {phantom} off the dice")


if __name__ == "__main__":
    main()
