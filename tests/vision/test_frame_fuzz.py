"""Frame fuzz: whatever the camera (or a caller) hands the reader, a DiceReading comes back.

Unusable input gets an empty reading whose `message` says what is wrong; a
usable frame without dice gets an empty or unsure reading. Both reader paths
are fuzzed: the learned one (as config.toml enables it) and the classical one.
The 48 MP frame prints its reading time (a figure for the report, not a timed
assertion).
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from vision.learned_params import load_learned_params
from vision.params import load_vision_params
from vision.reader import CLASSICAL_PATH, LEARNED_PATH, learned_models, read_dice
from vision.types import DiceReading

PARAMS = load_vision_params()
CONFIGURED = load_learned_params()
READER_PATHS = {
    "learned": dataclasses.replace(CONFIGURED, enabled=True),
    "classical": dataclasses.replace(CONFIGURED, enabled=False),
}
RNG = np.random.default_rng(20261129)


def with_nan(frame: np.ndarray) -> np.ndarray:
    spoilt = frame.copy()
    spoilt[10:13, 20:23] = np.nan
    return spoilt


UNUSABLE: dict[str, object] = {
    "1x1": np.zeros((1, 1, 3), np.uint8),
    "one channel": RNG.integers(0, 256, (480, 640), dtype=np.uint8),
    "one channel 3-d": RNG.integers(0, 256, (480, 640, 1), dtype=np.uint8),
    "two channels": RNG.integers(0, 256, (480, 640, 2), dtype=np.uint8),
    "empty 0x0x3": np.zeros((0, 0, 3), np.uint8),
    "empty 1-d": np.zeros(0, np.uint8),
    "empty width": np.zeros((480, 0, 3), np.uint8),
    "0-d array": np.array(7, np.uint8),
    "4-d array": np.zeros((2, 48, 64, 3), np.uint8),
    "NaN float32": with_nan(RNG.random((480, 640, 3), dtype=np.float32)),
    "inf float64": np.full((480, 640, 3), np.inf),
    "bool": RNG.integers(0, 2, (480, 640, 3)).astype(bool),
    "complex": np.zeros((480, 640, 3), np.complex128),
    "object array": np.full((48, 64, 3), None, dtype=object),
    "None": None,
    "string": "frame.png",
    "bytes": b"\x89PNG\r\n",
    "nested list": [[[0, 0, 0]] * 64] * 48,
    "number": 42,
}

NO_DICE: dict[str, np.ndarray] = {
    "noise": RNG.integers(0, 256, (480, 640, 3), dtype=np.uint8),
    "black": np.zeros((480, 640, 3), np.uint8),
    "white": np.full((480, 640, 3), 255, np.uint8),
    "mid-grey": np.full((480, 640, 3), 128, np.uint8),
    "float32 noise 0-1": RNG.random((480, 640, 3), dtype=np.float32),
    "float64 noise 0-255": RNG.random((480, 640, 3)) * 255.0,
    "int64 noise": RNG.integers(-(2**40), 2**40, (480, 640, 3), dtype=np.int64),
    "uint16 noise": RNG.integers(0, 2**16, (480, 640, 3), dtype=np.uint16),
    "BGRA noise": RNG.integers(0, 256, (480, 640, 4), dtype=np.uint8),
    "non-contiguous": RNG.integers(0, 256, (960, 1280, 3), dtype=np.uint8)[::2, ::2],
}


def assert_no_dice_claimed(reading: DiceReading) -> None:
    """Empty, or nothing in it taken for sure: a frame without dice never makes a roll."""
    assert isinstance(reading, DiceReading)
    assert not reading.complete
    assert all(die.unsure for die in reading.dice) or len(reading.dice) < 6


def test_both_reader_paths_are_fuzzed() -> None:
    assert not isinstance(learned_models(READER_PATHS["learned"]), str), "the learned models did not load"
    frame = NO_DICE["mid-grey"]
    assert read_dice(frame, PARAMS, learned=READER_PATHS["learned"]).message.startswith(LEARNED_PATH)
    assert read_dice(frame, PARAMS, learned=READER_PATHS["classical"]).message.startswith(CLASSICAL_PATH)


@pytest.mark.parametrize("path", READER_PATHS)
@pytest.mark.parametrize("name", UNUSABLE)
def test_unusable_input_gives_an_empty_reading_with_a_message(name: str, path: str) -> None:
    reading = read_dice(UNUSABLE[name], PARAMS, learned=READER_PATHS[path])  # type: ignore[arg-type]
    assert isinstance(reading, DiceReading)
    assert reading.dice == ()
    assert reading.message.strip()
    assert "Traceback" not in reading.message


@pytest.mark.parametrize("path", READER_PATHS)
@pytest.mark.parametrize("name", NO_DICE)
def test_frames_without_dice_give_an_empty_or_unsure_reading(name: str, path: str) -> None:
    reading = read_dice(NO_DICE[name], PARAMS, learned=READER_PATHS[path])
    assert_no_dice_claimed(reading)
    assert reading.message.strip()


@pytest.mark.parametrize("path", READER_PATHS)
def test_a_48_megapixel_frame_is_read_and_its_time_printed(path: str) -> None:
    """8000x6000 BGR (a 48 MP sensor at full size): a reading, and the time it took, for the report."""
    frame = np.full((6000, 8000, 3), 96, np.uint8)
    frame[::7, ::5] = RNG.integers(0, 256, (1, 1600, 3), dtype=np.uint8)  # texture, so it is not blank
    started = time.perf_counter()
    reading = read_dice(frame, PARAMS, learned=READER_PATHS[path])
    elapsed_ms = (time.perf_counter() - started) * 1000
    print(f"\nbenchmark: read_dice 8000x6000 uint8 ({path} path): {elapsed_ms:.0f} ms; {reading.message}")
    assert_no_dice_claimed(reading)


SMALL_FRAMES = hnp.arrays(
    dtype=st.sampled_from([np.uint8, np.uint16, np.int8, np.int64, np.float32, np.float64, np.bool_]),
    shape=st.one_of(
        hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=48),
        # big enough to pass the size check, so the detectors themselves see the values
        st.tuples(st.integers(64, 96), st.integers(64, 96), st.sampled_from([1, 3, 4])),
    ),
    elements=None,
)


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(frame=SMALL_FRAMES, path=st.sampled_from(sorted(READER_PATHS)))
def test_any_small_array_gives_a_reading(frame: np.ndarray, path: str) -> None:
    reading = read_dice(frame, PARAMS, learned=READER_PATHS[path])
    assert isinstance(reading, DiceReading)
    if reading.dice == ():
        assert reading.message.strip()  # an empty reading always says why

