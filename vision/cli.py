"""Command line: python -m vision read|calibrate|evaluate|adapt|bench|synth (see --help of each).

`synth` is the scene generator of the development tools (tools.synth): it is imported only
when that command runs, so reading dice never loads it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.adapt import (
    CALIBRATION_NAME,
    HEADS_NAME,
    HELD_OUT_EVERY,
    NO_CALIBRATION,
    RECORD_NAME,
    SETTINGS_NAME,
    THRESHOLD_FIELDS,
    AdaptError,
    adapt,
    calibration_fingerprint,
    models_fingerprint,
    threshold_of,
    write_adaptation,
)
from vision.baseline import read_baseline
from vision.bench import run_against, run_bench
from vision.calibrate import (
    Calibration,
    CalibrationError,
    calibrate,
    default_calibration_path,
    load_calibration,
    save_calibration,
)
from vision.debug import DebugSink
from vision.evaluate import CameraCheck, checked_params, evaluate
from vision.image_file import ImageFileError, read_image
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import WHOLE_FRAME, VisionParams, load_vision_params
from vision.reader import learned_models, read_dice
from vision.types import DiceReading, DieReading

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


def _load_image(path: str) -> tuple[np.ndarray | None, str]:
    """The image as BGR uint8 (colour kept as stored), or None and a plain reason."""
    try:
        return read_image(Path(path)), ""
    except ImageFileError as err:
        return None, str(err)


def _calibration_for(args: argparse.Namespace, params: VisionParams) -> Calibration | None:
    path = Path(args.calibration) if args.calibration else default_calibration_path(params)
    if not path.exists():
        if args.calibration:
            raise CalibrationError(f"{path}: no such calibration file")
        return None
    return load_calibration(path)


def cmd_read(args: argparse.Namespace, params: VisionParams, learned: LearnedParams) -> int:
    calibration = _calibration_for(args, params)
    reference = None
    if args.reference:
        reference, problem = _load_image(args.reference)
        if reference is None:
            print(f"--reference: {problem}", file=sys.stderr)
            return EXIT_BAD_INPUT
    status = EXIT_OK
    if args.debug:
        Path(args.debug).mkdir(parents=True, exist_ok=True)
    for path in args.images:
        frame, problem = _load_image(path)
        if frame is None:
            print(problem, file=sys.stderr)
            if args.json:
                print(json.dumps({"image": path, "dice": [], "ms": 0.0, "message": problem}))
            status = EXIT_BAD_INPUT
            continue
        sink = DebugSink() if args.debug else None
        reading = read_dice(frame, params, expect=args.expect, calibration=calibration, debug=sink, learned=learned,
                            reference=reference)
        if sink is not None:
            cv2.imwrite(str(Path(args.debug) / (Path(path).stem + "_debug.jpg")), sink.mosaic())
        if args.json:
            line: dict[str, object] = {"image": path, "dice": [d.to_json() for d in reading.dice],
                                       "ms": round(reading.ms, 2)}
            if reading.message:
                line["message"] = reading.message
            print(json.dumps(line))
        else:
            found = ", ".join(f"{d.colour + ' ' if d.colour else ''}{_value_text(d)}" for d in reading.dice)
            note = f" ({reading.message})" if reading.message else ""
            print(f"{path}: {found or 'no dice'}{note} [{reading.ms:.1f} ms]")
    return status


def _value_text(die: DieReading) -> str:
    """A die's value, or `?` and why the reader is unsure of it: `? (leaning)`."""
    if not die.unsure:
        return str(die.value)
    return f"? ({die.reason.value.replace('_', ' ')})" if die.reason is not None else "?"


def cmd_calibrate(args: argparse.Namespace, params: VisionParams, learned: LearnedParams) -> int:
    frame, problem = _load_image(args.image)
    if frame is None:
        print(problem, file=sys.stderr)
        return EXIT_BAD_INPUT
    calibration = calibrate(frame, params, learned)
    out = Path(args.out) if args.out else default_calibration_path(params)
    save_calibration(calibration, out)
    print(f"calibration saved to {out}")
    return EXIT_OK


def cmd_evaluate(args: argparse.Namespace, params: VisionParams, learned: LearnedParams) -> int:
    folder = Path(args.dataset)
    if not (folder / "images").is_dir() or not (folder / "labels").is_dir():
        print(f"{folder}: not a dataset folder (needs images/ and labels/)", file=sys.stderr)
        return EXIT_BAD_INPUT
    calibration = _calibration_for(args, params)
    params = params.with_tray(WHOLE_FRAME)  # a dataset's pictures are not the table's camera
    cv2.setNumThreads(1)
    if args.reader == "baseline":
        score = evaluate(folder, read_baseline, score_colour=False)
    else:
        if args.references and not (folder / "references").is_dir():
            print(f"{folder}: --references needs a references/ folder of empty-tray pictures", file=sys.stderr)
            return EXIT_BAD_INPUT

        def beside(frame: np.ndarray, empty: np.ndarray, check: CameraCheck | None) -> DiceReading:
            return read_dice(frame, checked_params(params, check, frame.shape[1], frame.shape[0]), expect=args.expect,
                             calibration=calibration, learned=learned, reference=empty)

        try:
            score = evaluate(
                folder,
                lambda frame: read_dice(frame, params, expect=args.expect, calibration=calibration, learned=learned),
                score_colour=args.expect == "macao",
                read_beside_empty_tray=beside if args.references else None,
            )
        except (FileNotFoundError, ValueError) as err:
            print(err, file=sys.stderr)
            return EXIT_BAD_INPUT
    report = score.report()
    if args.reader != "baseline":
        report["beside_empty_tray"] = bool(args.references)
    if args.json:
        if args.mistakes:
            report["mistakes"] = [dataclasses.asdict(m) for m in score.mistakes]
        print(json.dumps(report))
        return EXIT_OK
    for key, value in report.items():
        if isinstance(value, list):
            print(f"{key}:")
            for row in value:
                print("   " + " ".join(f"{n:4d}" for n in row))
        elif isinstance(value, dict):
            print(f"{key}: " + ", ".join(f"{k} {v:.3f}" for k, v in value.items()))
        elif isinstance(value, float):
            print(f"{key}: {value:.4f}")
        else:
            print(f"{key}: {value}")
    if args.mistakes:
        print(f"mistakes ({len(score.mistakes)}):")
        for mistake in score.mistakes:
            print("   " + mistake.line())
    return EXIT_OK


def cmd_adapt(args: argparse.Namespace, params: VisionParams, learned: LearnedParams) -> int:
    folder = Path(args.dataset)
    if not (folder / "images").is_dir() or not (folder / "labels").is_dir():
        print(f"{folder}: not a dataset folder (needs images/ and labels/)", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.expect != "macao" and args.calibration:
        print("--calibration is the six dice's colours: --expect any refits the values alone, read without "
              "colours", file=sys.stderr)
        return EXIT_BAD_INPUT
    chosen = learned_models(learned)
    if isinstance(chosen, str):
        print(f"adapt refits the learned reader, which cannot run: {chosen}", file=sys.stderr)
        return EXIT_FAILED
    cv2.setNumThreads(1)
    calibration = _calibration_for(args, params) if args.expect == "macao" else None
    try:
        result = adapt(folder, params, chosen[0], chosen[1], calibration, args.max_wrong, args.min_dice, args.expect,
                       layers=not args.no_layers)
    except AdaptError as exc:
        print(f"adapt: {exc}", file=sys.stderr)
        return EXIT_FAILED
    print(f"taught on {result.taught} rolls ({result.refit.dice} dice), judged on {result.held_out} held out "
          f"(every {HELD_OUT_EVERY}th) in {args.expect} mode; {THRESHOLD_FIELDS[args.expect]} "
          f"{threshold_of(learned, args.expect):.2f} -> "
          f"{result.refit.value_min_probability:.2f}, "
          + ("colours refitted" if result.refit.calibration is not None else "colours not refitted (values only)"))
    heads = result.refit.heads
    if heads is not None:
        taught = ", ".join(f"{count} {name}" for count, name in zip(
            (heads.crops_by_class[0], sum(heads.crops_by_class[1:])), ("crops of no die", "of dice")))
        print(f"last layers refitted: {', '.join(heads.heads) or 'none'} ({taught})"
              + "".join(f"; {reason}" for reason in heads.left_out))
    right = "colour and value right" if args.expect == "macao" else "value right"
    for name, score in (("before", result.before), ("after", result.after)):
        n = max(score.dice, 1)
        print(f"{name:6s}: {right} {score.colour_value_right / n:.2%}, stated wrongly "
              f"{score.wrong_confident / n:.2%}, unsure {score.unsure / n:.2%}, all dice right "
              f"{score.images_all_right / max(score.images, 1):.1%} ({score.dice} dice), "
              f"{score.phantom} where no die lies"
              + (f", {score.against_confirmed} values stated that the players did not confirm "
                 f"(on all {score.confirmed_images} rolls)" if score.confirmed_images else ""))
    if not result.better:
        print("the refit reads the held-out rolls no better: nothing written")
        return EXIT_OK
    out = Path(args.out) if args.out else folder / "adapted"
    judged_against = (calibration_fingerprint(Path(args.calibration) if args.calibration
                                              else default_calibration_path(params))
                      if args.expect == "macao" else NO_CALIBRATION)
    try:
        write_adaptation(out, result, models_fingerprint(chosen[1]), judged_against)
    except OSError as exc:
        print(f"adapt: the refit could not be written to {out}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    colours = f"{out / CALIBRATION_NAME} (the colours), " if result.refit.calibration is not None else ""
    if heads is not None and heads.heads:
        colours += f"{out / HEADS_NAME} (the last layers), "
    print(f"written: {colours}{out / SETTINGS_NAME} (lay over the config with --config) and {out / RECORD_NAME} "
          f"(the scores; the app applies the refit from {'table-rolls' if args.expect == 'macao' else 'table-rolls-any'}"
          "/adapted)")
    return EXIT_OK


def cmd_bench(args: argparse.Namespace, params: VisionParams, learned: LearnedParams) -> int:
    source = None
    if args.image:
        source, problem = _load_image(args.image)
        if source is None:
            print(problem, file=sys.stderr)
            return EXIT_BAD_INPUT
        source = source[:, :, :3]
    if args.against:
        try:
            other = Path(args.against).absolute()
            against = (load_vision_params(other).with_tray(WHOLE_FRAME), load_learned_params(other))
        except (OSError, ValueError) as exc:
            print(f"bench: --against: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        for named, setting in (("the config", learned), (f"--against {args.against}", against[1])):
            loaded = learned_models(setting) if setting.enabled else None
            if isinstance(loaded, str):  # the reader would fall back to the classical one unsaid
                print(f"bench: {named}: {loaded}; it would time the classical reader", file=sys.stderr)
                return EXIT_BAD_INPUT
        for row in run_against((params.with_tray(WHOLE_FRAME), learned), against, args.runs, source):
            print(f"{row['size']}: thread CPU a read, median (lower quartile): this config {row['first_ms']:.2f} "
                  f"({row['first_quartile_ms']:.2f}) ms, {args.against} {row['second_ms']:.2f} "
                  f"({row['second_quartile_ms']:.2f}) ms, ratio {row['ratio']:.3f} (read in turn, {args.runs} each, "
                  "1 thread)")
        return EXIT_OK
    for row in run_bench(params.with_tray(WHOLE_FRAME), args.runs, source, learned):
        next_roll = ("n/a (the first reading was not complete)" if row["next_roll_cpu_ms"] is None
                     else f"{row['next_roll_cpu_ms']:.2f} ms")
        print(f"{row['size']}: read {row['read_ms']:.2f} ms, plain pass {row['plain_ms']:.2f} ms, "
              f"ratio {row['ratio']:.1f}; thread CPU: read {row['read_cpu_ms']:.2f} ms, "
              f"the next roll at this table (its look remembered) {next_roll}, "
              f"plain {row['plain_cpu_ms']:.2f} ms, ratio {row['cpu_ratio']:.1f}; baseline reader "
              f"{row['baseline_ms']:.2f} ms (CPU {row['baseline_cpu_ms']:.2f} ms); classical fallback "
              f"{row['classical_ms']:.2f} ms (CPU {row['classical_cpu_ms']:.2f} ms) (median of {args.runs}, 1 thread)")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m vision", description="Windrose dice reader")
    parser.add_argument("--config", help="a TOML file whose [vision] and [vision.learned] keys override the "
                        "repository's config.toml (it need hold only the keys it changes)")
    sub = parser.add_subparsers(dest="command", required=True)
    read = sub.add_parser("read", help="read dice in images (in the tray region set in config)")
    read.add_argument("--expect", choices=("macao", "any"), default="macao")
    read.add_argument("--json", action="store_true", help="one JSON line per image")
    read.add_argument("--debug", metavar="DIR", help="write an annotated image per input here")
    read.add_argument("--calibration", metavar="PATH", help="calibration file (default: from config)")
    read.add_argument("--reference", metavar="EMPTY", help="a picture of the empty tray from the same camera: "
                      "dice are then looked for where the images differ from it")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    cal = sub.add_parser("calibrate", help="learn the dice colours from one frame of the six dice")
    cal.add_argument("image", metavar="IMAGE")
    cal.add_argument("--out", metavar="PATH", help="where to save (default: from config)")
    ev = sub.add_parser("evaluate", help="score the reader on a labelled folder (whole pictures)")
    ev.add_argument("dataset", metavar="DATASET")
    ev.add_argument("--expect", choices=("macao", "any"), default="macao")
    ev.add_argument("--calibration", metavar="PATH", help="calibration file (default: none unless in config)")
    ev.add_argument("--json", action="store_true")
    ev.add_argument("--reader", choices=("windrose", "baseline"), default="windrose",
                    help="baseline: the plain pip-blob reader of the bench (values only), for comparison")
    ev.add_argument("--references", action="store_true",
                    help="read each image beside its empty-tray picture (references/, the image's name), "
                         "as the app does after the camera check")
    ev.add_argument("--mistakes", action="store_true",
                    help="also list each die not read right (missed, unsure, wrong) and each die read where none lies")
    ad = sub.add_parser("adapt", help="refit the classifiers' last layers, the sure threshold (and in macao mode "
                        "the colours) on the table's own rolls, judged on a held-out part")
    ad.add_argument("dataset", metavar="DATASET", help="the table's rolls (beside the calibration: table-rolls/ "
                    "for macao mode, table-rolls-any/ for any)")
    ad.add_argument("--expect", choices=("macao", "any"), default="macao",
                    help="the reader mode the rolls were read in, and the refit is for (macao)")
    ad.add_argument("--out", metavar="DIR", help="where to write the refit (default: DATASET/adapted)")
    ad.add_argument("--calibration", metavar="PATH", help="the six dice's calibration in use (macao mode; "
                    "default: from config)")
    ad.add_argument("--max-wrong", type=float, default=0.003, help="share of dice stated wrongly allowed (0.003)")
    ad.add_argument("--min-dice", type=int, default=60, help="fewest dice to refit on (60)")
    ad.add_argument("--no-layers", action="store_true",
                    help="leave the classifiers' last layers as shipped (refit the threshold and colours only)")
    bench = sub.add_parser("bench", help="reading time per frame size, single thread")
    bench.add_argument("--runs", type=int, default=50)
    bench.add_argument("--image", help="use this picture (resized) instead of a drawn scene")
    bench.add_argument("--against", metavar="CONFIG",
                       help="time the reader with this config's settings too, each frame read by both in turn "
                            "(a fair comparison on a busy machine)")
    synth = sub.add_parser("synth", add_help=False,
                           help="write synthetic labelled tray scenes (a dataset folder; tools.synth, see its --help)")
    synth.add_argument("synth_args", nargs=argparse.REMAINDER)
    for sub_parser in (read, cal, ev, ad, bench):
        sub_parser.add_argument("--config", help=argparse.SUPPRESS, dest="sub_config")
    return parser


def run_synth(argv: list[str]) -> int:
    """The development tools' scene generator under its documented name `python -m vision synth`."""
    from tools import synth  # noqa: PLC0415  (a tool, not part of the reader: loaded only for this command)

    return synth.main(argv, prog="python -m vision synth")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["synth"]:
        return run_synth(argv[1:])
    args = build_parser().parse_args(argv)
    config = getattr(args, "sub_config", None) or args.config
    try:
        override = Path(config).absolute() if config else None
        params, learned = load_vision_params(override), load_learned_params(override)
    except (OSError, ValueError) as exc:
        print(f"config: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    commands = {"read": cmd_read, "calibrate": cmd_calibrate, "evaluate": cmd_evaluate, "adapt": cmd_adapt,
                "bench": cmd_bench,
                "synth": lambda args, _params, _learned: run_synth(args.synth_args)}
    try:
        return commands[args.command](args, params, learned)
    except CalibrationError as exc:
        print(f"calibration: {exc}", file=sys.stderr)
        return EXIT_FAILED
