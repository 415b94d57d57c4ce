"""The empty-tray refresh: a still frame the reader finds empty replaces the reference only when
it also shows no die-sized change from the reference in use, so a die the reader missed never
becomes part of the "empty" tray; a truly empty tray (new noise, brighter, nudged) still does."""

from __future__ import annotations

import numpy as np

from tests.vision.test_reference import scene_and_empty_tray
from tools import synth
from vision.params import load_vision_params
from vision.reference import EmptyTray, shows_empty_tray, tray_unchanged
from tools.synth import SceneOptions

PARAMS = load_vision_params()


def _lone_die_and_empty(seed: int, index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One die of a drawn scene alone in the tray, the empty tray, and the empty tray drawn again."""
    _frame, empty, _labels = scene_and_empty_tray(seed)
    world = synth._build_world(seed, SceneOptions())
    lone = synth._compose(world, (world.dice[index],), np.random.default_rng([seed, 2, index]))
    again = synth._compose(world, (), np.random.default_rng([seed, 3]))
    return lone, empty, again


def test_a_die_the_reader_missed_is_not_taken_for_the_empty_tray() -> None:
    lone, empty, _again = _lone_die_and_empty(2, 0)
    reference = EmptyTray.of(empty, PARAMS)
    assert shows_empty_tray(lone, 0, PARAMS)  # the reader's count alone: taken (as before)
    assert not shows_empty_tray(lone, 0, PARAMS, reference)


def test_an_empty_tray_still_refreshes_the_reference() -> None:
    _lone, empty, again = _lone_die_and_empty(2, 0)
    reference = EmptyTray.of(empty, PARAMS)
    brighter = np.clip(again.astype(np.float32) * 1.08, 0, 255).astype(np.uint8)
    for picture in (again, brighter, np.roll(again, (2, -2), axis=(0, 1))):
        assert shows_empty_tray(picture, 0, PARAMS, reference)
    assert not shows_empty_tray(again, 1, PARAMS, reference)  # the reader found a die: never


def test_a_reference_that_cannot_be_compared_leaves_it_to_the_reader_s_count() -> None:
    _lone, empty, again = _lone_die_and_empty(2, 0)
    moved = EmptyTray.of(np.roll(empty, 140, axis=1), PARAMS)  # the camera was turned since
    assert shows_empty_tray(again, 0, PARAMS, moved)
    assert shows_empty_tray(again, 0, PARAMS, EmptyTray.of(empty[:450], PARAMS))  # another size


def test_the_comparison_alone_tells_an_empty_tray_or_says_it_cannot() -> None:
    """As a roll starts the app asks the comparison first: no reading where it can tell."""
    lone, empty, again = _lone_die_and_empty(2, 0)
    reference = EmptyTray.of(empty, PARAMS)
    assert tray_unchanged(again, PARAMS, reference) is True
    assert tray_unchanged(lone, PARAMS, reference) is False
    assert tray_unchanged(np.zeros_like(again), PARAMS, reference) is False  # a covered lens is no tray
    assert tray_unchanged(again, PARAMS, EmptyTray.of(np.roll(empty, 140, axis=1), PARAMS)) is None
    assert tray_unchanged(again, PARAMS, EmptyTray.of(empty[:450], PARAMS)) is None
