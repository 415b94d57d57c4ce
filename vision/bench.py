"""Timing the reader against one plain pass (BGR->HSV plus a 5x5 Gaussian blur) and against a
plain pip-blob reader (`vision.baseline`, the speed it must never fall behind) on the same frame;
and two reader settings against each other, read in turn (`run_against`)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import cv2
import numpy as np

from vision.baseline import read_baseline
from vision.learned_params import LearnedParams, load_learned_params
from vision.params import VisionParams
from vision.reader import read_dice

BENCH_SIZES: tuple[tuple[int, int], ...] = ((1280, 720), (1600, 900), (2304, 1296))


def bench_frame(size: tuple[int, int], source: np.ndarray | None = None) -> np.ndarray:
    """A frame of the given size: `source` resized, or a tray-like scene drawn with dice."""
    width, height = size
    if source is not None:
        return cv2.resize(source, (width, height), interpolation=cv2.INTER_AREA)
    rng = np.random.default_rng(0)
    frame = np.full((height, width, 3), (150, 160, 165), np.uint8)
    side = max(8, width // 40)
    body = ((40, 40, 200), (200, 80, 30), (50, 160, 50), (30, 30, 30), (140, 140, 140), (150, 50, 120))
    for index, colour in enumerate(body):
        x = int(rng.integers(side, width - 2 * side))
        y = int(rng.integers(side, height - 2 * side))
        cv2.rectangle(frame, (x, y), (x + side, y + side), colour, -1)
        cv2.circle(frame, (x + side // 2, y + side // 2), max(2, side // 9), (245, 245, 245), -1)
    return frame


def median_ms(action: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall-clock and median CPU time of this thread (ms): on a busy machine the
    wall clock also counts other programs, the thread's CPU time does not."""
    wall, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.thread_time()
        action()
        wall.append((time.perf_counter() - started) * 1000.0)
        cpu.append((time.thread_time() - started_cpu) * 1000.0)
    return float(np.median(wall)), float(np.median(cpu))


def plain_pass(frame: np.ndarray) -> np.ndarray:
    """The reference pass the reader's time is compared with."""
    return cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2HSV), (5, 5), 0)


def run_bench(params: VisionParams, runs: int, source: np.ndarray | None = None,
              learned: LearnedParams | None = None) -> list[dict[str, object]]:
    """Median reading time, plain-pass time, the baseline reader's and the classical fallback's
    (the reader with its models off, as when they cannot load) per size, single-threaded
    (`learned` as in read_dice). Also the time of a reading as the app reads the next roll at the
    same table, given the look the first reading took (`next_roll_*`; None where that reading
    was not complete, and so gives no look to remember)."""
    cv2.setNumThreads(1)
    classical = dataclasses.replace(learned or load_learned_params(), enabled=False)
    rows = []
    for size in BENCH_SIZES:
        frame = bench_frame(size, source)
        first = read_dice(frame, params, expect="macao", learned=learned)  # warm-up
        reader, reader_cpu = median_ms(lambda: read_dice(frame, params, expect="macao", learned=learned), runs)
        look = first.look_scale if first.complete else None
        next_roll, next_roll_cpu = (None, None) if look is None else median_ms(
            lambda: read_dice(frame, params, expect="macao", learned=learned, look_scale=look), runs)
        plain, plain_cpu = median_ms(lambda: plain_pass(frame), runs)
        baseline, baseline_cpu = median_ms(lambda: read_baseline(frame), runs)
        fallback, fallback_cpu = median_ms(lambda: read_dice(frame, params, expect="macao", learned=classical), runs)
        rows.append({
            "size": f"{size[0]}x{size[1]}", "read_ms": reader, "plain_ms": plain, "ratio": reader / plain,
            "read_cpu_ms": reader_cpu, "next_roll_ms": next_roll, "next_roll_cpu_ms": next_roll_cpu,
            "plain_cpu_ms": plain_cpu, "cpu_ratio": reader_cpu / max(plain_cpu, 1e-6),
            "baseline_ms": baseline, "baseline_cpu_ms": baseline_cpu,
            "classical_ms": fallback, "classical_cpu_ms": fallback_cpu,
        })
    return rows


Setup = tuple[VisionParams, LearnedParams | None]


def run_against(first: Setup, second: Setup, runs: int, source: np.ndarray | None = None) -> list[dict[str, object]]:
    """Thread CPU time (ms) of a reading with each of two settings, per size, single-threaded:
    the frame is read by one and then the other, `runs` times. On a shared machine the time of a
    reading swings with the hour by a third or more; read in turn, both settings meet the same
    load, so their ratio holds where two separate runs of the bench would not compare. Medians
    and lower quartiles (the quieter moments), and the second's median over the first's."""
    cv2.setNumThreads(1)
    rows = []
    for size in BENCH_SIZES:
        frame = bench_frame(size, source)
        times: list[list[float]] = [[], []]
        for params, learned in (first, second):
            read_dice(frame, params, expect="macao", learned=learned)  # warm-up
        for _ in range(runs):
            for spent, (params, learned) in zip(times, (first, second)):
                started = time.thread_time()
                read_dice(frame, params, expect="macao", learned=learned)
                spent.append((time.thread_time() - started) * 1000.0)
        medians = [float(np.median(spent)) for spent in times]
        rows.append({"size": f"{size[0]}x{size[1]}", "first_ms": medians[0], "second_ms": medians[1],
                     "first_quartile_ms": float(np.percentile(times[0], 25)),
                     "second_quartile_ms": float(np.percentile(times[1], 25)),
                     "ratio": medians[1] / max(medians[0], 1e-6)})
    return rows
