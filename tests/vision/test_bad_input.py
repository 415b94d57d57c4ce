"""Bad frames give an empty reading with a message, never an exception."""

from __future__ import annotations

import numpy as np
import pytest

from vision.params import load_vision_params
from vision.reader import read_dice

PARAMS = load_vision_params()


@pytest.mark.parametrize(
    ("frame", "words"),
    [
        (np.zeros((0, 0, 3), np.uint8), "empty"),
        (np.full((480, 640), 128, np.uint8), "colour"),
        (np.zeros((20, 20, 3), np.uint8), "at least"),
        (np.zeros((720, 1280, 3), np.uint8), "no contrast"),
        (np.full((720, 1280, 3), 255, np.uint8), "no contrast"),
        (np.full((480, 640, 3), np.nan, np.float32), "NaN"),
        ("not an image", "not an image array"),
        (np.zeros((480, 640, 3), np.complex64), "pixel type"),
    ],
    ids=["empty", "one-channel", "tiny", "all-black", "all-white", "nan-float", "not-array", "complex"],
)
def test_bad_frame_gives_message(frame: object, words: str) -> None:
    reading = read_dice(frame, PARAMS)  # type: ignore[arg-type]
    assert reading.dice == ()
    assert words in reading.message


def test_float_frame_is_read_like_uint8() -> None:
    from tools.synth import render_scene

    frame, _ = render_scene(1)
    as_uint8 = read_dice(frame, PARAMS, expect="any")
    as_float = read_dice(frame.astype(np.float32) / 255.0, PARAMS, expect="any")
    assert as_uint8.dice and [d.value for d in as_float.dice] == [d.value for d in as_uint8.dice]


def test_region_outside_frame_gives_message() -> None:
    frame = np.random.default_rng(0).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    reading = read_dice(frame, PARAMS, region=(700, 500, 100, 100))
    assert reading.dice == () and "region" in reading.message


def test_unknown_mode_gives_message() -> None:
    frame = np.random.default_rng(0).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    assert "expect" in read_dice(frame, PARAMS, expect="poker").message  # type: ignore[arg-type]
