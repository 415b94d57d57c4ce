"""The one rule for player names and typed text, shared by every game and screen."""

from __future__ import annotations

import pytest

from app.games.base import MAX_NAME_LENGTH, player_name_problem, text_problem


@pytest.mark.parametrize("name", ["Ann", "Jörg", "李", "Ann-Sophie O'Neil", "x" * MAX_NAME_LENGTH, "👩‍👩‍👧"])
def test_ordinary_names_pass(name: str) -> None:
    assert player_name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * (MAX_NAME_LENGTH + 1), "at most 40"),
        (" Ann", "space"),
        ("Ann\n", "control"),
        ("Ann ", "space"),
        ("An\rn", "control"),
        ("A\tnn", "control"),
        ("A\x7fnn", "control"),
        ("A\x85nn", "control"),
        ("\ud800Ann", "surrogate"),
        ("Ann\u202egnp.exe", "direction"),
        ("Ann\u2067", "direction"),
    ],
)
def test_bad_names_are_refused_with_a_reason(name: str, why: str) -> None:
    problem = player_name_problem(name)
    assert problem is not None and why in problem


def test_notes_may_be_empty_when_allowed() -> None:
    assert text_problem("", 500, allow_empty=True) is None
    assert text_problem("", 500) == "must not be empty"
