"""Round tokens told from dice by their outline (vision/outline.py): a disc with a dot in the
middle is no die showing 1, from above or at a slant; a die's face, straight or turned, is
never taken for one; an outline that cannot be traced is never judged."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tools import synth
from tools.synth import SceneOptions
from vision.debug import DebugSink
from vision.evaluate import LabelledDie, match
from vision.learned_params import LearnedParams, load_learned_params
from vision.outline import off_ellipse, round_tokens, traced_outlines
from vision.params import WHOLE_FRAME, load_vision_params
from vision.reader import read_dice

PARAMS = load_vision_params().with_tray(WHOLE_FRAME)
LEARNED = load_learned_params()
BOARD_BLUE = (170, 110, 40)  # BGR
SIDE = 40.0


def _table(rng: np.random.Generator) -> np.ndarray:
    """A blue board, a little noisy, as a phone sees one."""
    frame = np.full((200, 200, 3), BOARD_BLUE, np.uint8)
    return np.clip(frame + rng.normal(0.0, 3.0, frame.shape), 0, 255).astype(np.uint8)


def _token(frame: np.ndarray, squash: float = 1.0, turn: float = 0.0, colour: tuple[int, int, int] = (40, 40, 200)) -> None:
    """A disc one die side across (squashed by a slanted view) with a dark dot at its centre."""
    cv2.ellipse(frame, (100, 100), (int(SIDE / 2), int(SIDE / 2 * squash)), turn, 0, 360, colour, -1, cv2.LINE_AA)
    cv2.circle(frame, (100, 100), 4, (20, 20, 20), -1, cv2.LINE_AA)


def _face(frame: np.ndarray, degrees: float, pips: int = 1) -> None:
    """A red die's top face, a square one side across turned by `degrees`, with white pips."""
    square = cv2.boxPoints(((100.0, 100.0), (SIDE, SIDE), degrees)).astype(np.int32)
    cv2.fillConvexPoly(frame, square, (40, 40, 200), cv2.LINE_AA)
    spots = [(0.0, 0.0)] if pips == 1 else [(-0.27, -0.27), (0.27, 0.27), (0.27, -0.27), (-0.27, 0.27), (0.0, 0.0)]
    for dx, dy in spots:
        cv2.circle(frame, (int(100 + dx * SIDE), int(100 + dy * SIDE)), 4, (240, 240, 240), -1, cv2.LINE_AA)


@pytest.mark.parametrize("squash, turn", [(1.0, 0.0), (0.75, 20.0), (0.6, 70.0)])
def test_a_disc_with_a_dot_is_an_ellipse_from_above_or_at_a_slant(squash: float, turn: float) -> None:
    frame = _table(np.random.default_rng(1))
    _token(frame, squash, turn)
    off = off_ellipse(frame, 100.0, 100.0, SIDE)
    assert off is not None and off < LEARNED.token_max_off_ellipse


@pytest.mark.parametrize("degrees", [0.0, 15.0, 45.0])
@pytest.mark.parametrize("pips", [1, 5])
def test_a_die_s_face_is_no_ellipse_however_it_is_turned(degrees: float, pips: int) -> None:
    frame = _table(np.random.default_rng(2))
    _face(frame, degrees, pips)
    off = off_ellipse(frame, 100.0, 100.0, SIDE)
    assert off is not None and off > 2 * LEARNED.token_max_off_ellipse


def test_no_outline_is_traced_where_the_body_is_like_its_surroundings_or_runs_out_of_the_window() -> None:
    rng = np.random.default_rng(3)
    plain = _table(rng)
    assert off_ellipse(plain, 100.0, 100.0, SIDE) is None
    edge = _table(rng)
    cv2.circle(edge, (8, 100), int(SIDE / 2), (40, 40, 200), -1)  # cut by the frame's edge
    assert off_ellipse(edge, 8.0, 100.0, SIDE) is None


def _probabilities(value: int, die: float = 0.99) -> np.ndarray:
    """The classifier's output for one candidate: P(not a die), then the six values."""
    p = np.full(7, (die * 0.02) / 5)
    p[0], p[value] = 1.0 - die, die * 0.98
    return p


def test_only_a_candidate_read_as_a_1_large_enough_and_likely_enough_a_die_is_judged() -> None:
    frame = _table(np.random.default_rng(4))
    _token(frame)
    centres, sides = np.array([[100.0, 100.0]]), np.array([SIDE])
    traced = traced_outlines(frame, centres, sides, np.array([_probabilities(1)]), LEARNED)
    assert list(traced) == [0] and round_tokens(traced, LEARNED) == [0]
    assert traced_outlines(frame, centres, sides, np.array([_probabilities(3)]), LEARNED) == {}
    unlikely = _probabilities(1, die=LEARNED.token_check_min_probability / 2)
    assert traced_outlines(frame, centres, sides, np.array([unlikely]), LEARNED) == {}
    small = np.array([LEARNED.token_min_side_px - 1])
    assert traced_outlines(frame, centres, small, np.array([_probabilities(1)]), LEARNED) == {}
    off = dataclasses.replace(LEARNED, token_max_off_ellipse=0.0)
    assert traced_outlines(frame, centres, sides, np.array([_probabilities(1)]), off) == {}


def test_a_die_showing_1_is_traced_and_kept() -> None:
    frame = _table(np.random.default_rng(5))
    _face(frame, 20.0, pips=1)
    traced = traced_outlines(frame, np.array([[100.0, 100.0]]), np.array([SIDE]), np.array([_probabilities(1)]),
                             LEARNED)
    assert list(traced) == [0] and round_tokens(traced, LEARNED) == []


def _scene_with_tokens(seed: int) -> tuple[np.ndarray, list[LabelledDie], list[tuple[float, float]]]:
    """A drawn Macao scene with round tokens (discs in the dice's colours, a dark dot in the
    middle, about a die across) printed on the table away from the dice."""
    world = synth._build_world(seed, SceneOptions())
    labels = synth._labels(world, world.dice)
    boxes = [d.box for d in labels.dice]
    side = float(np.median([b[2] - b[0] for b in boxes]))
    rng = np.random.default_rng([seed, 5])
    height, width = world.background.shape[:2]
    tokens: list[tuple[float, float]] = []
    while len(tokens) < 8:
        x, y = rng.uniform(2 * side, width - 2 * side), rng.uniform(2 * side, height - 2 * side)
        if any(b[0] - 1.5 * side < x < b[2] + 1.5 * side and b[1] - 1.5 * side < y < b[3] + 1.5 * side for b in boxes) \
                or any(np.hypot(x - tx, y - ty) < 3 * side for tx, ty in tokens):
            continue
        colour = [(0.6, 0.03, 0.03), (0.03, 0.3, 0.05), (0.8, 0.8, 0.75), (0.7, 0.55, 0.02)][len(tokens) % 4]
        cv2.ellipse(world.background, (int(x), int(y)), (int(side * 0.55), int(side * 0.5)), rng.uniform(0, 180), 0, 360,
                    colour, -1, cv2.LINE_AA)
        cv2.circle(world.background, (int(x), int(y)), max(2, int(side * 0.1)), (0.01, 0.01, 0.01), -1, cv2.LINE_AA)
        tokens.append((x, y))
    frame = synth._compose(world, world.dice, np.random.default_rng([seed, 1]))
    dice = [LabelledDie(d.box, d.value, d.colour) for d in labels.dice if d.value is not None]
    return frame, dice, tokens


def _on_tokens(reading_dice: tuple, tokens: list[tuple[float, float]], side: float) -> int:
    return sum(any(np.hypot(d.x + d.w / 2 - x, d.y + d.h / 2 - y) < side / 2 for x, y in tokens) for d in reading_dice)


@pytest.mark.parametrize("seed", [3, 11])
def test_tokens_around_the_dice_are_not_read_and_take_no_die_s_colour(seed: int) -> None:
    """Read alone (no empty tray), the scene's round tokens: without the check some are read
    as dice showing 1 and push real dice out of their colours; with it none is read. Seeds 1-24:
    43 tokens read without the check, 3 with it; 55 -> 130 of the 141 dice right in colour and
    value."""
    frame, dice, tokens = _scene_with_tokens(seed)
    side = float(np.median([d.box[2] - d.box[0] for d in dice]))
    unchecked = read_dice(frame, PARAMS, expect="macao", learned=dataclasses.replace(LEARNED, token_max_off_ellipse=0.0))
    assert _on_tokens(unchecked.dice, tokens, side) > 0  # the scene does fool the reader without the check
    debug = DebugSink()
    reading = read_dice(frame, PARAMS, expect="macao", learned=LEARNED, debug=debug)
    assert _on_tokens(reading.dice, tokens, side) == 0
    outlines = [image for name, image in debug.stages.items() if name.startswith("outlines of candidates")]
    assert len(outlines) == 1 and outlines[0].shape == frame.shape  # `--debug` shows what was dropped
    matched = match(dice, reading.dice)
    right = sum(1 for i, die in enumerate(dice) if i in matched
                and (reading.dice[matched[i]].colour, reading.dice[matched[i]].value) == (die.colour, die.value))
    assert right == len(dice)


def test_a_bad_token_setting_is_refused_by_name() -> None:
    table = {f.name: getattr(LEARNED, f.name) for f in dataclasses.fields(LearnedParams)}
    with pytest.raises(ValueError, match="token_check_min_probability"):
        LearnedParams.from_table({**table, "token_check_min_probability": 1.5})
    with pytest.raises(ValueError, match="token_max_off_ellipse"):
        LearnedParams.from_table({**table, "token_max_off_ellipse": -0.1})
