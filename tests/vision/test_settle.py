"""Settling detection on rendered rolls (injected timestamps), and the still frames made one picture."""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.settle import SettleConfigError, SettleDetector, SettleParams, one_die_per_colour, still_picture
from tools.synth import RollSequence, SceneOptions, render_roll_sequence
from vision.types import DiceReading, DieReading, MotionState, UnsureReason

PARAMS = SettleParams.from_config_file()


@lru_cache(maxsize=None)
def roll(seed: int, hand_returns: bool = False, dim: bool = False, table: str | None = None) -> RollSequence:
    options = SceneOptions(width=640, height=360, die_px=24, dim=dim, table=table)
    return render_roll_sequence(seed, n_frames=24, options=options, hand_returns=hand_returns)


def states(sequence: RollSequence, params: SettleParams = PARAMS) -> list[MotionState]:
    detector = SettleDetector(params)
    return [detector.update(t, frame) for t, frame in zip(sequence.timestamps_s, sequence.frames)]


def first_quiet_time(sequence: RollSequence) -> float:
    """Timestamp of the first frame after which nothing moves (until the end or a hand)."""
    for i, moving in enumerate(sequence.moving):
        if not moving:
            return sequence.timestamps_s[i]
    raise AssertionError("the roll never comes to rest")


# --------------------------------------------------------------------------- config


def test_repository_config_loads() -> None:
    assert PARAMS.still_frames >= 1
    assert PARAMS.still_time_s > 0


def _table() -> dict[str, object]:
    return {f.name: getattr(PARAMS, f.name) for f in dataclasses.fields(SettleParams)}


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("motion_width", 2.5, "whole number"),
        ("still_time_s", "soon", "must be a number"),
        ("still_frames", 0, "outside"),
        ("changed_fraction", True, "must be a number"),
        ("skin_cr_min", 200, "below"),
    ],
)
def test_bad_values_are_named(key: str, value: object, words: str) -> None:
    table = _table() | {key: value}
    with pytest.raises(SettleConfigError, match=words) as err:
        SettleParams.from_table(table)
    assert key in str(err.value) or "skin" in str(err.value)


def test_missing_and_unknown_keys_are_named() -> None:
    table = _table()
    del table["max_wait_s"]
    with pytest.raises(SettleConfigError, match="missing key 'max_wait_s'"):
        SettleParams.from_table(table)
    with pytest.raises(SettleConfigError, match="unknown key.*still_tme_s"):
        SettleParams.from_table(_table() | {"still_tme_s": 1.0})


def test_unreadable_config_files(tmp_path: Path) -> None:
    with pytest.raises(SettleConfigError, match="cannot read"):
        SettleParams.from_config_file(tmp_path / "absent.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[vision.settle\nmotion_width = 1")
    with pytest.raises(SettleConfigError, match="not valid TOML"):
        SettleParams.from_config_file(broken)
    empty = tmp_path / "empty.toml"
    empty.write_text("[vision]\n")
    with pytest.raises(SettleConfigError, match=r"no \[vision.settle\]"):
        SettleParams.from_config_file(empty)


# --------------------------------------------------------------------------- detector


@pytest.mark.parametrize(
    ("seed", "hand_returns", "dim"), [(1, False, False), (2, True, False), (3, False, True), (4, True, True), (5, False, False)]
)
def test_never_still_while_anything_moves_and_still_once_settled(seed: int, hand_returns: bool, dim: bool) -> None:
    sequence = roll(seed, hand_returns, dim)
    result = states(sequence)
    for i, state in enumerate(result):
        if sequence.moving[i]:
            assert not state.still, f"frame {i} called still while dice move or a hand is in view"
    quiet_from = first_quiet_time(sequence)
    still_times = [t for t, s in zip(sequence.timestamps_s, result) if s.still]
    assert still_times, "the tray never counted as still"
    # Still only after the configured quiet time, and no later than two frames after it.
    assert still_times[0] >= quiet_from + PARAMS.still_time_s - 1e-9
    assert still_times[0] <= quiet_from + PARAMS.still_time_s + 0.2 + 1e-9


# Seeds 2, 3 and 4 draw the dark, light and medium skin tones.
@pytest.mark.parametrize(
    ("table", "seed"), [("wood", 2), ("wood", 3), ("grey_card", 3), ("green_felt", 4), ("dark", 2)]
)
def test_hand_held_still_in_view_is_never_still(table: str, seed: int) -> None:
    sequence = roll(seed, hand_returns=True, table=table)
    result = states(sequence)
    hand_frames = [i for i, h in enumerate(sequence.hand_in_view) if h and i > len(sequence.frames) // 2]
    assert len(hand_frames) >= 2
    # The hand does not move in these frames; only its colour gives it away.
    assert np.abs(sequence.frames[hand_frames[-1]].astype(int) - sequence.frames[hand_frames[-2]]).mean() < 4
    for i in hand_frames:
        assert not result[i].still and "hand in view" in result[i].notes


def test_still_time_counts_injected_seconds_not_frames() -> None:
    frame = roll(1).frames[-1]
    for still_time in (0.5, 2.0):
        detector = SettleDetector(dataclasses.replace(PARAMS, still_time_s=still_time))
        # Irregular frame times: what matters is the clock passed in.
        times = [10.0, 10.05, 10.4, 10.55, 11.1, 11.9, 12.05, 12.2]
        result = [detector.update(t, frame) for t in times]
        assert not result[0].still  # nothing to compare the first frame with
        for t, state in zip(times[1:], result[1:]):
            assert state.still_for_s == pytest.approx(t - 10.05)
            assert state.still == (t - 10.05 >= still_time)


def test_motion_restarts_the_still_clock() -> None:
    sequence = roll(1)
    quiet, other = sequence.frames[-1], sequence.frames[0]
    detector = SettleDetector(PARAMS)
    for t in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
        state = detector.update(t, quiet)
    assert state.still
    state = detector.update(0.8, other)
    assert not state.still and state.still_for_s == 0.0 and "moving" in state.notes
    state = detector.update(0.9, quiet)  # back to the old picture: still has to be earned again
    assert not state.still


def test_waiting_too_long_is_noted() -> None:
    sequence = roll(1)
    detector = SettleDetector(dataclasses.replace(PARAMS, max_wait_s=1.0))
    detector.reset(timestamp_s=0.0)
    notes = [detector.update(t, sequence.frames[i % 2]).notes for i, t in enumerate((0.5, 1.0, 1.5))]
    assert "waited too long" not in notes[0]
    assert "waited too long" in notes[2]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_nudged_tray_settles_again(seed: int) -> None:
    """A die knocks the tray a few px: motion for a moment, not a hand forever."""
    frame = roll(seed).frames[-1]
    shift = np.float32([[1, 0, 4], [0, 1, 3]])
    nudged = cv2.warpAffine(frame, shift, frame.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)
    detector = SettleDetector(PARAMS)
    for t in (0.0, 0.1, 0.2):
        detector.update(t, frame)
    assert not detector.update(0.3, nudged).still
    later = [detector.update(0.4 + i / 10, nudged) for i in range(8)]
    assert all("hand in view" not in s.notes for s in later)
    assert later[-1].still


def test_a_change_of_frame_size_counts_as_motion() -> None:
    frame = roll(1).frames[-1]
    detector = SettleDetector(PARAMS)
    for t in (0.0, 0.1, 0.2):
        detector.update(t, frame)
    state = detector.update(0.3, frame[:, :320])
    assert not state.still and "moving" in state.notes


def test_motion_beside_the_tray_region_does_not_hold_up_the_reading() -> None:
    """Something stirring in the frame's top band (a hand at the cube piles) keeps the whole frame
    moving, but not a tray region that leaves the band out."""
    sequence = roll(4)
    quiet = sequence.frames[-1]
    height, width = quiet.shape[:2]
    assert all(d.box[1] > 0.25 * height for d in sequence.labels.dice), "a die lies in the top band"
    frames = []
    for i in range(12):
        frame = quiet.copy()
        x = 45 * i % (width - 60)
        cv2.rectangle(frame, (x, 5), (x + 50, 60), (60, 120, 200), -1)
        frames.append(frame)
    times = [0.1 * i for i in range(len(frames))]
    whole, tray = SettleDetector(PARAMS), SettleDetector(PARAMS, (0.0, 0.25, 1.0, 0.75))
    assert not any(whole.update(t, frame).still for t, frame in zip(times, frames))
    assert [tray.update(t, frame).still for t, frame in zip(times, frames)][-1]


def test_bad_input_is_refused_clearly() -> None:
    detector = SettleDetector(PARAMS)
    frame = roll(1).frames[0]
    detector.update(1.0, frame)
    with pytest.raises(ValueError, match="backwards"):
        detector.update(0.5, frame)
    with pytest.raises(ValueError, match="BGR uint8"):
        detector.update(2.0, frame[..., 0])


# --------------------------------------------------------------------------- the still picture


def die(x: int, y: int, value: int | None, colour: str | None = "red", confidence: float = 0.9) -> DieReading:
    return DieReading(x=x, y=y, w=40, h=40, colour=colour, value=value, confidence=confidence, unsure=value is None)


def test_the_still_picture_is_the_frames_mean_rounded() -> None:
    """What lies still stays as it is; what the camera's noise moves is averaged down."""
    rng = np.random.default_rng(4)
    scene = rng.integers(30, 220, (90, 160, 3)).astype(np.float32)
    frames = [np.clip(scene + rng.normal(0, 12, scene.shape), 0, 255).round().astype(np.uint8) for _ in range(3)]
    picture = still_picture(frames)
    assert picture.dtype == np.uint8 and picture.shape == frames[0].shape
    exact = np.mean(np.stack(frames).astype(np.float64), axis=0)
    assert np.abs(picture - exact).max() <= 0.5 + 1e-6
    assert np.abs(picture - scene).mean() < 0.75 * np.abs(frames[0] - scene).mean()
    assert np.array_equal(still_picture([frames[1]]), frames[1])
    assert np.array_equal(still_picture([frames[2]] * 3), frames[2])


@pytest.mark.parametrize("frames", [
    [],
    [np.zeros((90, 160, 3), np.uint8), np.zeros((90, 161, 3), np.uint8)],
    [np.zeros((90, 160, 3), np.uint8), np.zeros((90, 160, 3), np.float32)],
])
def test_still_frames_that_cannot_be_one_picture_are_refused(frames: list[np.ndarray]) -> None:
    with pytest.raises(ValueError, match="no still frame|differ in size or kind"):
        still_picture(frames)


def test_a_colour_read_on_two_dice_is_unsure_on_both_unless_colours_repeat() -> None:
    reading = DiceReading(dice=(die(100, 100, 3, "red"), die(400, 100, 5, "red"), die(700, 100, 2, "blue"),
                                die(900, 100, None, "blue")))
    checked = one_die_per_colour(reading)
    assert [(d.colour, d.value, d.unsure, d.reason) for d in checked.dice] == [
        ("red", None, True, UnsureReason.COLOUR_DOUBTFUL), ("red", None, True, UnsureReason.COLOUR_DOUBTFUL),
        ("blue", 2, False, None), ("blue", None, True, None)]  # an unsure die claims no colour
    assert one_die_per_colour(reading, repeats=True) is reading


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lamp_flicker_is_not_motion(seed: int) -> None:
    frame = roll(seed).frames[-1].astype(np.float32)
    detector = SettleDetector(PARAMS)
    result = []
    for i in range(10):
        gain = 1 + 0.05 * (-1) ** i  # brightness jumping by 10 % from frame to frame
        result.append(detector.update(i / 10, np.clip(frame * gain, 0, 255).astype(np.uint8)))
    assert all("moving" not in s.notes and "hand in view" not in s.notes for s in result[1:])
    assert result[-1].still


def test_light_change_is_never_a_hand_and_settles_again() -> None:
    frame = roll(1).frames[-1]
    # A lamp switched on at one side: the left half darker, the right half brighter than before.
    ramp = np.linspace(0.5, 1.5, frame.shape[1], dtype=np.float32)[None, :, None]
    brighter = np.clip(frame * ramp, 0, 255).astype(np.uint8)
    detector = SettleDetector(PARAMS)
    for t in (0.0, 0.1, 0.2):
        detector.update(t, frame)
    state = detector.update(0.3, brighter)
    assert not state.still and "light changed" in state.notes
    later = [detector.update(t, brighter) for t in (0.4, 0.5, 0.6, 0.7, 0.8, 0.9)]
    assert all("hand in view" not in s.notes for s in later)
    assert later[-1].still


def test_demo_frames_give_every_roll_time_to_settle_and_be_read() -> None:
    """Replayed like the app's folder camera (one frame per 0.1 s tick), each demo roll must be
    seen moving, then still for long enough to take `still_frames` frames after the switch."""
    folder = Path(__file__).resolve().parents[2] / "app" / "assets" / "demo_frames"
    files = sorted(folder.glob("roll*_*.jpg"))
    rolls = sorted({path.name.split("_")[0] for path in files})
    assert len(rolls) >= 2
    detector = SettleDetector(PARAMS)
    t = 0.0
    for roll_name in rolls:
        states = []
        for path in (p for p in files if p.name.startswith(roll_name + "_")):
            frame = cv2.imread(str(path))
            assert frame is not None and path.stat().st_size < 150_000
            states.append(detector.update(t, cv2.resize(frame, (320, 180), interpolation=cv2.INTER_AREA)))
            t += 0.1
        assert not states[0].still and not states[1].still, roll_name
        assert sum(s.still for s in states) >= PARAMS.still_frames + 1, roll_name


def test_a_thing_put_down_at_the_edge_stops_counting_as_a_hand() -> None:
    """A grey box lid pushed in at the frame edge: a hand while it moves, then part of the scene."""
    frame = roll(1).frames[-1]
    with_lid = frame.copy()
    with_lid[:, : frame.shape[1] // 6] = (60, 60, 60)  # not skin-coloured
    detector = SettleDetector(PARAMS)
    for t in (0.0, 0.1, 0.2):
        detector.update(t, frame)
    times = [0.3 + i / 10 for i in range(30)]
    states = [detector.update(t, with_lid) for t in times]
    limit = 0.4 + PARAMS.hand_still_limit_s  # quiet from the second frame with the lid
    for t, state in zip(times, states):
        if t < limit - 1e-9:
            assert "hand in view" in state.notes and not state.still
    assert any(s.still for s in states)
    first_still = next(t for t, s in zip(times, states) if s.still)
    assert first_still >= limit + PARAMS.still_time_s - 1e-6
