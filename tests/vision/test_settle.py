"""Settling detection on rendered rolls (injected timestamps), and voting across still frames."""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.settle import SettleConfigError, SettleDetector, SettleParams, vote
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
    assert PARAMS.min_vote_frames >= 3
    assert PARAMS.still_time_s > 0


def _table() -> dict[str, object]:
    return {f.name: getattr(PARAMS, f.name) for f in dataclasses.fields(SettleParams)}


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("motion_width", 2.5, "whole number"),
        ("still_time_s", "soon", "must be a number"),
        ("min_vote_frames", 2, "outside"),
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


# --------------------------------------------------------------------------- vote


def die(x: int, y: int, value: int | None, colour: str | None = "red", confidence: float = 0.9) -> DieReading:
    return DieReading(x=x, y=y, w=40, h=40, colour=colour, value=value, confidence=confidence, unsure=value is None)


def frames_of(*rows: tuple[DieReading, ...]) -> list[DiceReading]:
    return [DiceReading(dice=row, ms=5.0) for row in rows]


def test_vote_agreement_keeps_values_and_matches_by_position() -> None:
    readings = frames_of(
        (die(100, 100, 4), die(300, 100, 2, "blue")),
        (die(303, 98, 2, "blue"), die(102, 101, 4)),  # other order, small jitter
        (die(99, 100, 4), die(301, 102, 2, "blue")),
    )
    result = vote(readings, PARAMS)
    assert {(d.colour, d.value, d.unsure) for d in result.dice} == {("red", 4, False), ("blue", 2, False)}
    assert all(0.8 < d.confidence <= 0.9 for d in result.dice)
    assert "3 frames" in result.message


def test_vote_disagreement_is_unsure() -> None:
    readings = frames_of((die(100, 100, 4),), (die(100, 100, 4),), (die(100, 100, 5),))
    (voted,) = vote(readings, PARAMS).dice
    assert voted.unsure and voted.value is None and voted.confidence == 0.0
    assert voted.reason is UnsureReason.FRAMES_DISAGREE


def test_vote_keeps_the_reason_most_frames_gave() -> None:
    leaning = dataclasses.replace(die(100, 100, None), reason=UnsureReason.LEANING)
    (voted,) = vote(frames_of((leaning,), (leaning,), (die(100, 100, 4),)), PARAMS).dice
    assert voted.unsure and voted.reason is UnsureReason.LEANING


def test_vote_clear_majority_keeps_value_with_lower_confidence() -> None:
    readings = frames_of(*[(die(100, 100, 6),)] * 4, (die(100, 100, 5),))
    (voted,) = vote(readings, PARAMS).dice
    assert voted.value == 6 and not voted.unsure
    assert voted.confidence == pytest.approx(0.8 * 0.9)


def test_vote_unsure_frames_count_against_a_value() -> None:
    readings = frames_of((die(100, 100, 3),), (die(100, 100, None),), (die(100, 100, None),))
    (voted,) = vote(readings, PARAMS).dice
    assert voted.unsure


def test_vote_colour_disagreement_is_unsure() -> None:
    readings = frames_of((die(100, 100, 3, "red"),), (die(100, 100, 3, "violet"),), (die(100, 100, 3, "red"),))
    (voted,) = vote(readings, PARAMS).dice
    assert voted.unsure and voted.colour == "red"


def test_vote_colour_claimed_twice_is_unsure_in_both_places() -> None:
    rows = [(die(100, 100, 3, "red"), die(400, 100, 5, "red"), die(700, 100, 2, None))] * 3
    result = vote(frames_of(*rows), PARAMS)
    assert [(d.colour, d.unsure, d.reason) for d in result.dice] == [
        ("red", True, UnsureReason.COLOUR_DOUBTFUL), ("red", True, UnsureReason.COLOUR_DOUBTFUL), (None, False, None)]


def test_vote_ignores_a_detection_seen_in_one_frame_only() -> None:
    readings = frames_of((die(100, 100, 3), die(500, 300, 1, "gray")), (die(100, 100, 3),), (die(100, 100, 3),))
    result = vote(readings, PARAMS)
    assert [(d.colour, d.value) for d in result.dice] == [("red", 3)]
    assert "too few frames" in result.message


def test_vote_needs_enough_frames() -> None:
    readings = frames_of((die(100, 100, 3),), (die(100, 100, 3),))
    result = vote(readings, PARAMS)
    assert result.dice == () and "3 are needed" in result.message


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


def test_demo_frames_give_every_roll_time_to_settle_and_vote() -> None:
    """Replayed like the app's folder camera (one frame per 0.1 s tick), each demo roll must be
    seen moving, then still for long enough to read `min_vote_frames` frames after the switch."""
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
        assert sum(s.still for s in states) >= PARAMS.min_vote_frames + 1, roll_name


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
