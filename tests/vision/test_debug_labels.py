"""Labels in the debug pictures: beside their dice, never over another label or die, inside
the picture (dice in a Macao tray often touch, and their labels used to run together)."""

from __future__ import annotations

import dataclasses
import itertools

import cv2
import numpy as np

from vision.debug import CandidateMark, candidate_label, draw_candidates, draw_readings, label_origins
from vision.types import DieReading

FRAME = (400, 300)  # width, height


def _rectangles(boxes: list[tuple[int, int, int, int]], sizes: list[tuple[int, int]],
                gap: int) -> list[tuple[int, int, int, int]]:
    origins = label_origins(boxes, sizes, FRAME, gap)
    return [(x, y - h, w, h + gap) for (x, y), (w, h) in zip(origins, sizes)]


def _overlap(first: tuple[int, int, int, int], second: tuple[int, int, int, int]) -> bool:
    return (min(first[0] + first[2], second[0] + second[2]) > max(first[0], second[0])
            and min(first[1] + first[3], second[1] + second[3]) > max(first[1], second[1]))


def test_labels_of_touching_dice_cover_neither_each_other_nor_a_die() -> None:
    boxes = [(100, 100, 30, 30), (131, 100, 30, 30), (100, 131, 30, 30), (131, 131, 30, 30)]
    sizes = [(70, 9)] * 4
    labels = _rectangles(boxes, sizes, gap=3)
    for first, second in itertools.combinations(labels, 2):
        assert not _overlap(first, second), (first, second)
    for label, box in itertools.product(labels, boxes):
        assert not _overlap(label, box), (label, box)


def test_a_label_stays_inside_the_picture() -> None:
    """A die in the top-left corner: its label cannot go above it or to its left."""
    (x, y, w, h), = _rectangles([(0, 0, 30, 30)], [(70, 9)], gap=3)
    assert x >= 0 and y >= 0 and x + w <= FRAME[0] and y + h <= FRAME[1]
    assert not _overlap((x, y, w, h), (0, 0, 30, 30))


def test_the_reading_picture_writes_each_label_where_it_was_placed() -> None:
    """Two touching dice drawn: each label's ink lies in its own place, off the dice."""
    frame = np.full((FRAME[1], FRAME[0], 3), 128, np.uint8)
    dice = [DieReading(x=100, y=100, w=30, h=30, colour="red", value=3, confidence=0.97, unsure=False),
            DieReading(x=131, y=100, w=30, h=30, colour="blue", value=5, confidence=0.91, unsure=False)]
    drawn = draw_readings(frame, dice)
    inked = np.any(drawn != frame, axis=2)
    inked[99:132, 99:163] = False  # the boxes themselves
    sizes = [cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.4, 1)[0] for text in ("red 3 0.97", "blue 5 0.91")]
    places = np.zeros_like(inked)
    for x, y, w, h in _rectangles([(d.x, d.y, d.w, d.h) for d in dice], sizes, gap=2):
        places[max(0, y - 2): y + h + 2, max(0, x - 2): x + w + 2] = True  # the halo reaches a little further
    assert inked.any() and not (inked & ~places).any()


def test_a_candidate_left_out_as_a_die_already_taken_says_so() -> None:
    """A sure candidate not taken looks like a mistake in the candidates picture unless it says why."""
    taken = CandidateMark(100.0, 100.0, 40.0, 0.98, 6, 0.85, taken=True)
    twice = CandidateMark(112.0, 110.0, 40.0, 0.85, 3, 0.75, taken=False, same_die=True)
    turned_down = CandidateMark(300.0, 200.0, 40.0, 0.04, 1, 0.3, taken=False)
    assert candidate_label(taken) == "die 0.98: 6 0.85"
    assert candidate_label(twice) == "die 0.85, same die"
    assert candidate_label(turned_down) == "die 0.04"


def test_a_candidate_read_again_elsewhere_is_drawn_from_where_it_was_found() -> None:
    """A die read again on its body (or split off a seam) would seem to sit where the detector
    never looked; the picture says it moved and draws the move."""
    moved = CandidateMark(200.0, 150.0, 40.0, 0.97, 3, 0.92, taken=True, moved_from=(140.0, 150.0))
    assert candidate_label(moved) == "die 0.97: 3 0.92, moved"
    assert candidate_label(dataclasses.replace(moved, taken=False)) == "die 0.97, moved"
    frame = np.zeros((FRAME[1], FRAME[0], 3), np.uint8)
    still = draw_candidates(frame, [dataclasses.replace(moved, moved_from=None)])
    drawn = draw_candidates(frame, [moved])
    assert still[150, 140].sum() == 0 and drawn[150, 140].sum() > 0  # the dot where it was found
    assert still[150, 160].sum() == 0 and drawn[150, 160].sum() > 0  # the line half way
