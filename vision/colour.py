"""Naming dice by colour: the six Macao dice jointly, other games' dice one by one.

Each die gets a cost against each colour model; the six colours are then given
to the dice as one assignment problem (each colour at most once, the cheapest
total), solved exactly by dynamic programming over the set of used colours.
A die's margin is how much the total would grow if its colour were swapped
with another die's (or moved to an unused colour); a small margin means the
colour is a guess. Where colours repeat (a player's several dice of one colour),
each die takes its nearest colour, and its margin is the gap to the next nearest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vision.die import DieFace
from vision.params import VisionParams
from vision.types import DIE_COLOURS

if TYPE_CHECKING:
    from vision.calibrate import Calibration

NEUTRAL_COLOURS = ("black", "gray", "white")
# How a die's body colour was measured: the two readers measure it in different scales, so a
# calibration is stored with its measure and used only by the reader that measures alike.
LEARNED_MEASURE = "learned"
CLASSICAL_MEASURE = "classical"


@dataclass(frozen=True)
class ColourModel:
    """What one die colour looks like: a hue for coloured dice, a lightness for neutral ones."""

    name: str
    hue_deg: float
    chroma: float
    lightness: float
    use_lightness: bool  # neutral dice always; coloured dice once calibrated
    pip_polarity: str = ""  # "light"/"dark" once calibrated; "" when unknown

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "hue_deg": round(self.hue_deg, 2),
            "chroma": round(self.chroma, 2),
            "lightness": round(self.lightness, 2),
            "use_lightness": self.use_lightness,
            "pip_polarity": self.pip_polarity,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> ColourModel:
        return cls(
            name=str(data["name"]),
            hue_deg=float(data["hue_deg"]),  # type: ignore[arg-type]
            chroma=float(data["chroma"]),  # type: ignore[arg-type]
            lightness=float(data["lightness"]),  # type: ignore[arg-type]
            use_lightness=bool(data["use_lightness"]),
            pip_polarity=str(data.get("pip_polarity", "")),
        )


def default_models(params: VisionParams) -> dict[str, ColourModel]:
    """Colour models from config, meant for ordinary light without calibration.

    Pip polarity is known beforehand only where paint allows nothing else (a black die's
    pips are light): it tells a glossy black die, its face washed pale by the lamp, from a
    gray die with dark pips."""
    hues = {
        "red": params.default_hue_red,
        "blue": params.default_hue_blue,
        "green": params.default_hue_green,
        "violet": params.default_hue_violet,
    }
    lightness = {"black": params.default_lightness_black, "gray": params.default_lightness_gray}
    models = {name: ColourModel(name, hue, 2 * params.colour_chroma_neutral, 0.0, False) for name, hue in hues.items()}
    models.update({name: ColourModel(name, 0.0, 0.0, value, True) for name, value in lightness.items()})
    light_pips = set(params.default_light_pip_colours.split())
    return {name: dataclasses.replace(model, pip_polarity="light") if name in light_pips else model
            for name, model in models.items()}


def default_models_for(names: Sequence[str], params: VisionParams) -> dict[str, ColourModel]:
    """Built-in models for the colours `names`: Macao's six and the player colours of other games
    (purple is violet's hue; white a light neutral). ValueError names a colour without one."""
    macao = default_models(params)
    hues = {"yellow": params.default_hue_yellow, "orange": params.default_hue_orange,
            "purple": params.default_hue_violet}
    models: dict[str, ColourModel] = {}
    for name in names:
        if name in macao:
            models[name] = macao[name]
        elif name in hues:
            models[name] = ColourModel(name, hues[name], 2 * params.colour_chroma_neutral, 0.0, False)
        elif name == "white":
            models[name] = ColourModel(name, 0.0, 0.0, params.default_lightness_white, True, "dark")
        else:
            raise ValueError(f"no built-in colour for {name!r} dice")
    return models


def colour_models(calibration: Calibration | None, measure: str,
                  params: VisionParams) -> tuple[dict[str, ColourModel], str]:
    """The colour models a reader with this `measure` uses, and a note when it cannot use the
    calibration it was given (made by the other reader): then the built-in models."""
    if calibration is None:
        return default_models(params), ""
    if calibration.measure != measure:
        return default_models(params), f"calibration made by the {calibration.measure} reader not used: calibrate again"
    return calibration.models, ""


def colour_cost(face: DieFace, model: ColourModel, params: VisionParams, lightness_floor: float | None = None) -> float:
    """How unlike the model the die's body colour (and pip polarity, when decided) is (0 = exactly alike).

    Lightness is compared as a difference (per 100), or, with `lightness_floor`, as a ratio
    (the log of (L + floor) / (model L + floor)): light scales a die's shade, so a dim
    scene's gray die is as far from gray as a bright scene's, and never nearer to black.
    """
    body = face.colour
    neutral = params.colour_chroma_neutral
    if model.name in NEUTRAL_COLOURS:
        cost = params.colour_chroma_weight * max(0.0, body.chroma - neutral) / neutral
    else:
        # A hue measured on a nearly neutral die (a face washed out by the lamp) is mostly
        # noise: it counts in proportion to the die's chroma (up to the neutral limit), and
        # the rest of the weight goes to the gap a random hue would have (90 degrees), the
        # same for every colour.
        trust = min(1.0, body.chroma / neutral)
        hue_gap = abs((body.hue_deg - model.hue_deg + 180.0) % 360.0 - 180.0)
        cost = params.colour_hue_weight * (trust * hue_gap / 180.0 + (1.0 - trust) * 0.5)
        cost += params.colour_chroma_weight * max(0.0, neutral - body.chroma) / neutral
    if model.use_lightness:
        if lightness_floor is None:
            gap = abs(body.lightness - model.lightness) / 100.0
        else:
            gap = abs(float(np.log((body.lightness + lightness_floor) / (model.lightness + lightness_floor))))
        cost += params.colour_lightness_weight * gap
    if model.pip_polarity and face.polarity and face.value is not None and face.polarity != model.pip_polarity:
        cost += params.colour_polarity_cost
    if face.value is None:
        # A blob without a readable face is less likely one of the six dice than one with it.
        cost += params.colour_unread_cost
    return cost


def cost_matrix(faces: list[DieFace], models: dict[str, ColourModel], params: VisionParams,
                lightness_floor: float | None = None, names: Sequence[str] = DIE_COLOURS) -> np.ndarray:
    """Dice x colours (in the order of `names`); `lightness_floor` as in colour_cost."""
    return np.array([[colour_cost(face, models[name], params, lightness_floor) for name in names]
                     for face in faces]).reshape(len(faces), len(names))


def set_colours(faces: list[DieFace], calibration: Calibration | None, measure: str, params: VisionParams,
                margin_min: float, lightness_floor: float | None = None) -> tuple[Sequence[tuple[str | None, bool]], str]:
    """`any` mode: per die its colour among a colour set's (`calibration`, learnt by this reader's
    `measure`, else the set's built-in colours) and whether that colour is in doubt. Without a
    calibration the dice stay unnamed. Also a note when the set was learnt by the other reader."""
    if calibration is None:
        return [(None, False) for _ in faces], ""
    note = ""
    models = calibration.models
    if calibration.measure != measure:
        models = default_models_for(calibration.colours, params)
        note = f"colours learnt by the {calibration.measure} reader not used: calibrate again"
    named = colours_of_a_set(faces, {name: models[name] for name in calibration.colours}, params, margin_min,
                             lightness_floor)
    return named, note


def faded_costs(faces: list[DieFace], models: dict[str, ColourModel], params: VisionParams,
                names: Sequence[str]) -> np.ndarray:
    """Dice x colours: what a die pays for having less than half the chroma a coloured model
    learnt (a white die in warm light has a yellow's hue, never its strength). Built-in models
    know no strength, so only a learnt set prices it."""
    half = np.array([0.0 if name in NEUTRAL_COLOURS else models[name].chroma / 2 for name in names])
    chroma = np.array([face.colour.chroma for face in faces]).reshape(-1, 1)
    return params.colour_chroma_weight * np.maximum(0.0, half - np.maximum(chroma, params.colour_chroma_neutral)) \
        / params.colour_chroma_neutral


def nearest_colours(costs: np.ndarray) -> tuple[list[int], list[float]]:
    """Per die (row): its cheapest colour (column), and the extra cost of the next cheapest
    (infinite with one colour only). Colours may repeat: no die takes another's away."""
    if costs.shape[0] == 0:
        return [], []
    order = np.argsort(costs, axis=1, kind="stable")
    rows = np.arange(costs.shape[0])
    best = costs[rows, order[:, 0]]
    margins = costs[rows, order[:, 1]] - best if costs.shape[1] > 1 else np.full(len(rows), np.inf)
    return [int(c) for c in order[:, 0]], [float(m) for m in margins]


def colours_of_a_set(faces: list[DieFace], models: dict[str, ColourModel], params: VisionParams,
                     margin_min: float, lightness_floor: float | None = None) -> list[tuple[str, bool]]:
    """Each die's colour among the set's `models` (several dice may share one), and whether it
    is doubtful: the next colour is less than `margin_min` dearer, or even the nearest costs more
    than `colour_max_cost` (a die of a colour the set was not shown)."""
    names = list(models)
    costs = cost_matrix(faces, models, params, lightness_floor, names) + faded_costs(faces, models, params, names)
    chosen, margins = nearest_colours(costs)
    return [(names[c], margin < margin_min or float(costs[row, c]) > params.colour_max_cost)
            for row, (c, margin) in enumerate(zip(chosen, margins))]


def assign_colours(costs: np.ndarray, leave_out_cost: float) -> list[int | None]:
    """Cheapest assignment of colours (columns) to dice (rows), each colour at most once.

    A die may stay without a colour at `leave_out_cost` (extra blobs when more than
    six are found). Returns the colour index per die, or None.
    """
    dice, colours = costs.shape
    full = 1 << colours
    inf = float("inf")
    best = np.full((dice + 1, full), inf)
    choice = np.full((dice + 1, full), -2, dtype=int)
    best[0, 0] = 0.0
    for i in range(dice):
        for used in range(full):
            base = best[i, used]
            if base == inf:
                continue
            if base + leave_out_cost < best[i + 1, used]:
                best[i + 1, used] = base + leave_out_cost
                choice[i + 1, used] = -1
            for c in range(colours):
                bit = 1 << c
                if used & bit:
                    continue
                total = base + costs[i, c]
                if total < best[i + 1, used | bit]:
                    best[i + 1, used | bit] = total
                    choice[i + 1, used | bit] = c
    used = int(np.argmin(best[dice]))
    result: list[int | None] = [None] * dice
    for i in range(dice, 0, -1):
        c = int(choice[i, used])
        if c >= 0:
            result[i - 1] = c
            used &= ~(1 << c)
    return result


def assignment_margins(costs: np.ndarray, assignment: list[int | None]) -> list[float]:
    """Per assigned die: the least extra cost of giving it any other colour (swap or move), or,
    with no more dice than colours, of handing its colour to a die left without one (it is
    then left out in that die's place: two dice that measure alike for one colour, one of them
    given none, are both in doubt). With more dice than colours, those left out are the extra
    blobs, and no die's colour hangs on them."""
    dice, colours = costs.shape
    taken = {c: i for i, c in enumerate(assignment) if c is not None}
    left_out = [j for j, c in enumerate(assignment) if c is None] if dice <= colours else []
    margins: list[float] = []
    for i, mine in enumerate(assignment):
        if mine is None:
            margins.append(0.0)
            continue
        options = []
        for other in range(colours):
            if other == mine:
                continue
            j = taken.get(other)
            if j is None:
                options.append(costs[i, other] - costs[i, mine])
            else:
                options.append(costs[i, other] + costs[j, mine] - costs[i, mine] - costs[j, other])
        options.extend(costs[j, mine] - costs[i, mine] for j in left_out)
        margins.append(float(min(options)) if options else float("inf"))
    return margins
