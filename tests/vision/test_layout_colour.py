"""Pip layout check and joint colour assignment on hand-made inputs."""

from __future__ import annotations

import numpy as np
import pytest

from vision.colour import assign_colours, assignment_margins, colour_cost, cost_matrix, default_models
from vision.die import BodyColour, DieFace
from vision.layout import LAYOUTS, best_layout
from vision.params import load_vision_params
from vision.types import DIE_COLOURS

PARAMS = load_vision_params()
DIE_PX = 48.0
PIP_AREA = np.pi * 4.0**2  # pips about 8 px wide on a 48 px die


def _face(value: int, angle_deg: float) -> np.ndarray:
    """Pip centres of a standard face, 13 px grid step, rotated, centred at (40, 40)."""
    turn = np.radians(angle_deg)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    return np.array(LAYOUTS[value], float) * 13.0 @ rotation.T + 40.0


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("angle", [0.0, 17.0, 45.0, 80.0])
def test_standard_faces_fit_their_value(value: int, angle: float) -> None:
    centres = _face(value, angle)
    fit = best_layout(centres, np.full(len(centres), PIP_AREA), DIE_PX, angle, np.array([40.0, 40.0]), PARAMS)
    assert fit.reason == "" and fit.value == value


def test_row_of_three_is_not_a_three() -> None:
    centres = _face(6, 0.0)[:3]  # one row of a six: three pips in a line along an edge
    fit = best_layout(centres, np.full(3, PIP_AREA), DIE_PX, 0.0, centres.mean(axis=0), PARAMS)
    assert fit.reason != ""


def test_side_face_pip_is_left_out_but_a_missing_corner_is_not_guessed() -> None:
    five = _face(5, 0.0)
    with_side_pip = np.vstack([five, [[40.0, 40.0 + 13.0 * 2.3]]])  # one pip on the side face below
    fit = best_layout(with_side_pip, np.full(6, PIP_AREA), DIE_PX, 0.0, np.array([40.0, 44.0]), PARAMS)
    assert fit.value == 5 and fit.dropped == 1
    three_corners = _face(4, 0.0)[:3]  # a four with one pip lost: must not read as anything
    fit = best_layout(three_corners, np.full(3, PIP_AREA), DIE_PX, 0.0, np.array([40.0, 40.0]), PARAMS)
    assert fit.reason != ""


def test_colours_are_assigned_jointly_not_greedily() -> None:
    # Die 0 is closest to colour 0, but die 1 fits only colour 0: the joint answer swaps.
    costs = np.full((2, 6), 9.0)
    costs[0, 0], costs[0, 1] = 0.1, 0.3
    costs[1, 0] = 0.2
    assert assign_colours(costs, leave_out_cost=5.0) == [1, 0]
    margins = assignment_margins(costs, [1, 0])
    # Swapping the two costs 0.1 + 9.0 - 0.3 - 0.2; moving die 0 to its own best colour costs 0.1 - 0.3.
    assert margins[1] == pytest.approx(0.1 + 9.0 - 0.3 - 0.2)


def test_extra_blobs_stay_without_colour() -> None:
    costs = np.vstack([np.eye(6) * -1 + 1.0, np.full((2, 6), 4.0)])  # six good dice, two poor blobs
    costs[6:, 0] = 0.5  # the blobs look a little like the first die
    assignment = assign_colours(costs, leave_out_cost=3.0)
    assert assignment[:6] == list(range(6)) and assignment[6:] == [None, None]
    # More dice than colours: those left out are extra blobs, and no die's margin hangs on them
    # (the least is a swap of two dice's colours).
    assert min(assignment_margins(costs, assignment)[:6]) == pytest.approx(2.0)


def test_a_die_left_without_a_colour_puts_the_die_given_it_in_doubt() -> None:
    """Six dice, one of them measured like the table (the hue ring on a dark table): it and
    another die cost nearly alike for gray, the other colours are too dear for it, and it is
    left out. The die given gray could as well have been left out in its place."""
    costs = np.full((6, 6), 4.0)
    for die in range(5):
        costs[die, die] = 0.1
    costs[4, 5] = 1.02  # die 4 (a violet die measured on the table) fits gray a little better ...
    costs[5, 5] = 1.03  # ... than the gray die itself, which fits nothing else
    costs[4, 4] = 3.9
    assignment = assign_colours(costs, leave_out_cost=3.0)
    assert assignment == [0, 1, 2, 3, 5, None]
    margins = assignment_margins(costs, assignment)
    assert margins[4] == pytest.approx(0.01) and min(margins[:4]) > 1.0


def _die(lightness: float, chroma: float, hue_deg: float) -> DieFace:
    """A read die (value 4, light pips) whose body colour has this lightness, chroma and hue."""
    turn = np.radians(hue_deg)
    colour = BodyColour(lightness, chroma * float(np.cos(turn)), chroma * float(np.sin(turn)))
    return DieFace((0, 0, 40, 40), 4, 0.95, "", "light", np.zeros((0, 2)), colour, True)


def test_a_washed_out_die_does_not_swap_colours_with_a_clear_one() -> None:
    # Measured on a drawn scene (warm, dim light, the lamp's glare on the blue die): the blue
    # die's face is washed out nearly white, its hue noise that lies nearer violet's than the
    # violet die's own, which sits between blue and violet. Only the clear die's hue can tell.
    models = default_models(PARAMS)
    washed_blue, violet = _die(142.9, 4.2, 315.0), _die(57.4, 32.6, 312.5)
    costs = cost_matrix([washed_blue, violet], models, PARAMS, 5.0)
    # The other four dice took the other colours in that scene: only these two are in play.
    pair = costs[:, [DIE_COLOURS.index("blue"), DIE_COLOURS.index("violet")]]
    assert assign_colours(pair, PARAMS.colour_max_cost) == [0, 1]
    assert min(assignment_margins(pair, [0, 1])) > 0.0
    # A die with next to no colour is still no nearer any colour than a clearly coloured die a
    # quarter turn of hue away from it: a black or gray die is not drawn to a coloured model.
    for name in ("red", "blue", "green", "violet"):
        hue = models[name].hue_deg
        assert colour_cost(_die(60.0, 1.0, hue), models[name], PARAMS) > colour_cost(
            _die(60.0, 30.0, hue + 90.0), models[name], PARAMS)
