"""Why a die is unsure: every note a reader stage leaves maps to one fixed reason, which the
reading, its JSON and `python -m vision read` carry."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cli import main
from vision.die import BodyColour, DieFace
from tools.synth import SceneOptions, render_scene
from vision.types import DieReading, UnsureReason
from vision.unsure import (BLURRED, COLOUR_UNCLEAR, DOUBTFUL_VALUE, GLARE, GLARE_AT_CENTRE, LEANING, MAYBE_NOT_A_DIE,
                           PARTLY_OUTSIDE, die_reading, unsure_reason, with_colour_doubt)

FACE = DieFace((10, 20, 30, 30), 4, 0.9, "", "dark", np.zeros((0, 2)), BodyColour(50.0, 0.0, 0.0), True)


@pytest.mark.parametrize(("note", "reason"), [
    (LEANING, UnsureReason.LEANING), (PARTLY_OUTSIDE, UnsureReason.CUT_BY_EDGE),
    (GLARE_AT_CENTRE, UnsureReason.GLARE), (GLARE, UnsureReason.GLARE), (BLURRED, UnsureReason.BLURRED),
    (COLOUR_UNCLEAR, UnsureReason.COLOUR_DOUBTFUL), (MAYBE_NOT_A_DIE, UnsureReason.MAYBE_NOT_A_DIE),
    (DOUBTFUL_VALUE, UnsureReason.VALUE_DOUBTFUL), ("layout of 5 off by 0.40", UnsureReason.VALUE_DOUBTFUL),
])
def test_each_note_is_reported_as_its_reason(note: str, reason: UnsureReason) -> None:
    assert unsure_reason(note) is reason
    reading = die_reading(FACE, "red", note)
    assert reading.unsure and reading.value is None and reading.reason is reason
    assert reading.to_json()["reason"] == reason.value


@pytest.mark.parametrize(("note", "kept"), [
    ("", COLOUR_UNCLEAR), (DOUBTFUL_VALUE, COLOUR_UNCLEAR), ("layout of 5 off by 0.40", COLOUR_UNCLEAR),
    (LEANING, LEANING), (PARTLY_OUTSIDE, PARTLY_OUTSIDE), (GLARE_AT_CENTRE, GLARE_AT_CENTRE), (BLURRED, BLURRED),
    (MAYBE_NOT_A_DIE, MAYBE_NOT_A_DIE)])
def test_a_doubtful_colour_outranks_a_doubtful_value_only(note: str, kept: str) -> None:
    assert with_colour_doubt(note, colour_unclear=True) == kept
    assert with_colour_doubt(note, colour_unclear=False) == note


@pytest.mark.parametrize(("note", "reason"), [
    ("", UnsureReason.COLOUR_DOUBTFUL), (DOUBTFUL_VALUE, UnsureReason.COLOUR_DOUBTFUL),
    (LEANING, UnsureReason.LEANING), (MAYBE_NOT_A_DIE, UnsureReason.MAYBE_NOT_A_DIE)])
def test_a_reading_keeps_its_colours_doubt_whatever_reason_it_shows(note: str, reason: UnsureReason) -> None:
    doubted = die_reading(FACE, "red", note, colour_doubtful=True)
    assert doubted.unsure and doubted.reason is reason and doubted.colour_doubtful
    assert doubted.to_json()["colour_doubtful"] is True
    assert not die_reading(FACE, "red", note).colour_doubtful


def test_a_clean_face_has_no_reason_and_a_face_without_value_doubts_its_pips() -> None:
    clean = die_reading(FACE, "red", "")
    assert (clean.value, clean.unsure, clean.reason) == (4, False, None)
    pipless = die_reading(dataclasses.replace(FACE, value=None), None, "")
    assert pipless.unsure and pipless.reason is UnsureReason.VALUE_DOUBTFUL


def test_a_reading_made_without_a_reason_keeps_the_old_shape() -> None:
    """Code that builds readings by hand (the tour, old tests) need not name a reason."""
    die = DieReading(1, 2, 3, 4, "red", 5, 0.9, False)
    assert die.reason is None and die.to_json()["reason"] is None


def test_read_prints_why_a_die_is_unsure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame, labels = render_scene(5, SceneOptions(cocked=True, cubes=0, touching=False, glare=False, cards=0))
    path = tmp_path / "cocked.png"
    cv2.imwrite(str(path), frame)
    assert any(d.cocked for d in labels.dice)
    assert main(["read", str(path)]) == 0
    assert "? (leaning)" in capsys.readouterr().out
