"""Score the learned reader (vision.learned.read_with_model) on a labelled folder, the
same way `python -m vision evaluate` scores the classical reader; needs no torch.

    .venv/bin/python -m tools.training.evaluate_learned DATASET [--expect any|macao]
        [--detector PATH] [--classifier PATH [PATH ...]] [--lean PATH] [--second-opinion on|off] [--bench] [--mistakes]

--detector/--classifier/--lean override the model files named in config.toml [vision.learned]
(e.g. held-out models); several --classifier paths make an ensemble (the first picks the
dice, all of them average their probabilities for the dice kept); --value-min-probability
overrides that threshold, in both modes (for a sweep); --second-opinion on|off overrides whether the classical
reader is asked about doubtful dice (before/after figures). --bench also prints the median reading time of a
1600x900 frame (the dataset's first image resized), single thread, over 30 runs: wall-clock
and thread CPU time (the latter is what a busy shared machine does not inflate). --mistakes lists each
die not read right (image, missed / unsure / wrong, truth, reading, box) and each die read where none lies.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from pathlib import Path

import cv2
import numpy as np

from vision.evaluate import evaluate, iter_dataset
from vision.learned import read_with_model
from vision.learned_models import LearnedModels
from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.types import DiceReading

BENCH_SIZE = (1600, 900)
BENCH_RUNS = 30


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--expect", choices=("any", "macao"), default="any")
    parser.add_argument("--detector", default=None)
    parser.add_argument("--classifier", nargs="+", default=None)
    parser.add_argument("--lean", default=None, help="the leaning-die check's model (override [vision.learned] lean_path)")
    parser.add_argument("--value-min-probability", type=float, default=None,
                        help="override [vision.learned] value_min_probability and its macao twin")
    parser.add_argument("--second-opinion", choices=("on", "off"), default=None,
                        help="override [vision.learned] second_opinion")
    parser.add_argument("--bench", action="store_true")
    parser.add_argument("--mistakes", action="store_true",
                        help="also list each die not read right and each die read where none lies")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    params = load_vision_params()
    learned = load_learned_params()
    overrides: dict[str, object] = {}
    if args.detector:
        overrides["detector_path"] = args.detector
    if args.classifier:
        overrides["classifier_path"] = args.classifier[0]
    if args.lean:
        overrides["lean_path"] = args.lean
    if args.value_min_probability is not None:
        overrides["value_min_probability"] = overrides["macao_value_min_probability"] = args.value_min_probability
    if args.second_opinion is not None:
        overrides["second_opinion"] = args.second_opinion == "on"
    learned = dataclasses.replace(learned, **overrides)
    models = LearnedModels.load(learned, tuple(args.classifier[1:]) if args.classifier else ())

    def read(frame: np.ndarray) -> DiceReading:
        return read_with_model(frame, params, args.expect, None, models, learned)

    score = evaluate(args.dataset, read, score_colour=args.expect == "macao")
    report = score.report()
    confusion = report.pop("confusion_truth_rows_pred_cols_1to6_unsure")
    print(json.dumps(report, indent=1))
    print("confusion (truth rows 1-6; predicted 1-6, unsure):")
    for row in confusion:
        print("  " + " ".join(f"{v:5d}" for v in row))
    if args.mistakes:
        print(f"mistakes ({len(score.mistakes)}):")
        for mistake in score.mistakes:
            print("   " + mistake.line())
    if args.bench:
        image_path, _ = next(iter_dataset(args.dataset))
        frame = cv2.resize(cv2.imread(str(image_path)), BENCH_SIZE, interpolation=cv2.INTER_AREA)
        wall, cpu = [], []
        for _ in range(BENCH_RUNS):
            started, started_cpu = time.perf_counter(), time.thread_time()
            read(frame)
            wall.append((time.perf_counter() - started) * 1000.0)
            cpu.append((time.thread_time() - started_cpu) * 1000.0)
        print(f"{BENCH_SIZE[0]}x{BENCH_SIZE[1]} frame, median of {BENCH_RUNS}, 1 thread: "
              f"{float(np.median(wall)):.1f} ms wall, {float(np.median(cpu)):.1f} ms thread CPU")


if __name__ == "__main__":
    main()
