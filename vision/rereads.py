"""Second chances for candidates the classifier doubts: read turned, at the frame's typical die
side, on their die's body, at points around them, beside the dice found, or split in two where
one sits on the seam of two touching dice."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from vision.candidates import clear_of, moved_onto_body, suppress_duplicates
from vision.debug import DebugSink, draw_second_look
from vision.learned_models import DiceDetector, DiceNet, DieCandidate, crops_at_typical_side
from vision.learned_params import LearnedParams

# Steps to the eight points around a candidate (x, y), read when it may be a die seen off its centre.
_EIGHT_WAYS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1))

# Unit steps along four axes through a die (across, down, the two diagonals): where a die found at
# the seam of two touching dice is read either way.
_FOUR_AXES = ((1.0, 0.0), (0.0, 1.0), (0.5**0.5, 0.5**0.5), (0.5**0.5, -(0.5**0.5)))


def second_look(frame: np.ndarray, detector: DiceDetector, maps: tuple[np.ndarray, np.ndarray, float],
                found: list[DieCandidate], typical: float, learned: LearnedParams,
                debug: DebugSink | None) -> list[DieCandidate]:
    """Macao mode, fewer than six dice: new candidates beside those found (a die touching one,
    a faint one), each moved onto its die's body. A new peak on a found die is that die again."""
    heat, side_map, scale = maps
    beside = suppress_duplicates(found + detector.look_beside(heat, side_map, scale, found, learned, typical),
                                 learned.duplicate_distance)[len(found):]
    moved = [moved_onto_body(frame, c, typical, learned) for c in beside]
    if debug is not None:
        debug.add("second look (gray: first candidates; orange: new ones, moved to the die body)",
                  draw_second_look(frame, [(c.cx, c.cy, c.side) for c in found],
                                   [(b.cx, b.cy, m.cx, m.cy, typical) for b, m in zip(beside, moved)]))
    return suppress_duplicates(found + moved, learned.duplicate_distance)[len(found):]


def beside_the_dice(frame: np.ndarray, detector: DiceDetector, maps: tuple[np.ndarray, np.ndarray, float],
                    found: list[DieCandidate], typical: float, learned: LearnedParams,
                    where: Callable[[DieCandidate], bool], debug: DebugSink | None) -> list[DieCandidate]:
    """Any mode: new candidates beside those found, the peaks `second_look` finds (from
    `any_look_beside_min_score`) that lie `where` something may be (the picture differs from
    the empty tray), left at their peaks: moving each onto its die's body costs most, and those
    the classifier finds likely enough are moved when read again."""
    heat, side_map, scale = maps
    beside = [c for c in suppress_duplicates(found + detector.look_beside(heat, side_map, scale, found, learned,
                                                                          typical, learned.any_look_beside_min_score),
                                             learned.duplicate_distance)[len(found):] if where(c)]
    if debug is not None:
        debug.add("look beside the dice (gray: first candidates; orange: new ones where the empty tray differs)",
                  draw_second_look(frame, [(c.cx, c.cy, c.side) for c in found],
                                   [(c.cx, c.cy, c.cx, c.cy, typical) for c in beside]))
    return beside


def turned_where(net: DiceNet, crops: np.ndarray, upright: np.ndarray, rows: list[int],
                 learned: LearnedParams) -> np.ndarray:
    """`upright` (the crops read once), with the given rows read turned as well."""
    probabilities = upright.copy()
    probabilities[rows] = net.refine(crops[rows], upright[rows], learned.classifier_turns, learned.classifier_batch)
    return probabilities


def at_typical_side(frame: np.ndarray, net: DiceNet, centres: np.ndarray, sides: np.ndarray, crops: np.ndarray,
                    probabilities: np.ndarray, rows: list[int], typical: float, learned: LearnedParams) -> None:
    """Each die still doubted after its turned reading, whose crop side is off the frame's
    typical die side, is read again in a crop of the typical side (dice on one table are one
    size; a side guessed too large shows the die small). The reading surer of its value
    replaces the first, crop included (in place); the new crop is read turned only where its
    upright reading is already the surer one."""
    rows = [i for i in rows if abs(sides[i] / typical - 1.0) >= learned.typical_side_min_gap
            and float(np.max(probabilities[i][1:])) < learned.classifier_sure_probability]
    if not rows:
        return
    again_crops = crops_at_typical_side(frame, centres[rows], typical, net)
    upright = net.classify(again_crops, 1, learned.classifier_batch)
    surer = [k for k, i in enumerate(rows) if np.max(upright[k][1:]) > np.max(probabilities[i][1:])]
    if not surer:
        return
    again = net.refine(again_crops[surer], upright[surer], learned.classifier_turns, learned.classifier_batch)
    for k, reading in zip(surer, again):
        i = rows[k]
        if np.max(reading[1:]) > np.max(probabilities[i][1:]):
            sides[i], crops[i], probabilities[i] = typical, again_crops[k], reading


def read_doubted_on_body(frame: np.ndarray, net: DiceNet, found: list[DieCandidate], sides: np.ndarray,
                         crops: np.ndarray, probabilities: np.ndarray, rows: list[int], others: list[int],
                         typical: float, least: float, learned: LearnedParams) -> None:
    """Each die of `rows` whose value is not plainly sure (its top value under
    `body_check_below`) is read again on its die's body (`body_centre`, a crop of the typical
    side) when that moves it at least `doubted_on_body_min_shift` die sides and stays
    `macao_clearance` die sides clear of the other dice of `rows` and `others` (the doubtful
    candidates also reported). The new reading replaces the first, in place, when it names the
    same value and is surer of it. When it names another value, a die the first reading was
    sure of (at least `least`) gets the mean of both: two readings of one die that disagree
    leave its value in doubt.

    The detector can put a die's centre a fifth of a side off, towards its shadow or a corner,
    and the crop then shows a pip cut at its edge: the classifier names the right value but
    doubts it. Centred, the same die reads plainly. Further off, the crop can show part of the
    face as another value (the top rows of a 6 as a 3, at 0.75). A reading that names another
    value is not taken: the body can run into a touching die or a shadow, and a die moved onto
    the wrong place must not be read as another die with confidence; it is left to the second
    opinion."""
    tries = []
    for i in rows:
        if float(np.max(probabilities[i][1:])) >= learned.body_check_below:
            continue
        moved = moved_onto_body(frame, found[i], typical, learned)
        if (np.hypot(moved.cx - found[i].cx, moved.cy - found[i].cy) >= learned.doubted_on_body_min_shift * typical
                and clear_of(moved, [found[k] for k in rows + others if k != i], learned.macao_clearance * typical)):
            tries.append((i, moved))
    if not tries:
        return
    again_crops = crops_at_typical_side(frame, np.array([(c.cx, c.cy) for _, c in tries]), typical, net)
    readings = net.classify(again_crops, learned.classifier_turns, learned.classifier_batch)
    for (i, moved), crop, reading in zip(tries, again_crops, readings):
        value = int(np.argmax(probabilities[i][1:]))
        if int(np.argmax(reading[1:])) == value:
            if reading[1 + value] > probabilities[i][1 + value]:
                found[i], sides[i], crops[i], probabilities[i] = moved, typical, crop, reading
        elif probabilities[i][1 + value] >= least:
            probabilities[i] = (probabilities[i] + reading) / 2.0


def reread_candidates(frame: np.ndarray, net: DiceNet, found: list[DieCandidate], sides: np.ndarray,
                      crops: np.ndarray, probabilities: np.ndarray, rows: list[int], typical: float,
                      learned: LearnedParams, taken: Sequence[DieCandidate] = ()) -> list[int]:
    """Each candidate of `rows` (not yet a sure die) is read again in a crop of the
    frame's typical die side, where it is when its own side is off that by `typical_side_min_gap`,
    and on its die's body when that moves it at least `macao_recentre_min_shift` die sides; the
    first `macao_shift_most` of them also at the eight points `macao_shift_step` die sides around
    them. No point within `macao_clearance` die sides of a die `taken` (the sure ones) is read:
    it would be that die again.

    A die dark on a dark table (a black die in its own shadow) can be found off its face's
    centre, on one pip, and its crop shows half a die; a die whose side the detector guessed too
    large shows small in its crop. Either way the classifier doubts it. The crop that looks most
    like a die replaces the first if it looks more so (in place: `found`, `sides`, `crops`,
    `probabilities`); the body's centre is only a guess (a side face or a shadow can pull it
    off), so the unmoved crop is tried as well. Each crop is read upright first and turned only
    where it already looks more like a die. Returns those now sure dice."""
    tries: list[tuple[int, DieCandidate]] = []
    for i in rows:
        if abs(sides[i] / typical - 1.0) >= learned.typical_side_min_gap:
            tries.append((i, found[i]))
        moved = moved_onto_body(frame, found[i], typical, learned)
        if np.hypot(moved.cx - found[i].cx, moved.cy - found[i].cy) >= learned.macao_recentre_min_shift * typical:
            tries.append((i, moved))
        if i in rows[: learned.macao_shift_most]:
            step = learned.macao_shift_step * typical
            tries += [(i, dataclasses.replace(found[i], cx=found[i].cx + dx * step, cy=found[i].cy + dy * step))
                      for dx, dy in _EIGHT_WAYS]
    tries = [(i, c) for i, c in tries if clear_of(c, taken, learned.macao_clearance * typical)]
    if not tries:
        return []
    again_crops = crops_at_typical_side(frame, np.array([(c.cx, c.cy) for _, c in tries]), typical, net)
    upright = net.classify(again_crops, 1, learned.classifier_batch)
    hopeful = [k for k, (i, _) in enumerate(tries) if upright[k][0] < probabilities[i][0]]
    again = net.refine(again_crops[hopeful], upright[hopeful], learned.classifier_turns, learned.classifier_batch)
    for k, reading in zip(hopeful, again):
        i, candidate = tries[k]
        if reading[0] < probabilities[i][0]:
            found[i], sides[i], crops[i], probabilities[i] = candidate, typical, again_crops[k], reading
    return [i for i in dict.fromkeys(i for i, _ in tries) if 1.0 - float(probabilities[i][0]) >= learned.die_min_probability]


@dataclass(frozen=True)
class SeamSplit:
    """A sure die that is two touching dice: its index among the candidates, the two dice, their
    crops (at the typical side) and the classifier's readings of them (turned)."""

    index: int
    dice: tuple[DieCandidate, DieCandidate]
    crops: np.ndarray
    probabilities: np.ndarray


def split_seams(frame: np.ndarray, net: DiceNet, found: list[DieCandidate], kept: list[int], doubted: list[int],
                typical: float, learned: LearnedParams) -> list[SeamSplit]:
    """Macao mode, a die still missing: the sure dice (`kept`) that are two touching dice found as
    one, the surest first.

    The detector can put a single peak on the seam between two touching dice, and the seam's crop
    (half of each) reads as a die, but not a plain one: only the dice of `kept` whose value the
    classifier doubted at first (`doubted`: those read turned) are tried. Each is read at the two
    points `macao_split_step` die sides either side of its centre along four axes, where both lie
    `macao_clearance` die sides clear of the other sure dice. A die's centre is where its crop
    looks most like a die: half a side off a lone die, the crop shows half of it and the table.
    So an axis splits the die when each of its ends is a sure die with a sure value and looks
    more like a die than the centre between them (all read turned, at the typical side); of a
    die's axes, the one whose less likely end is the likelier counts."""
    tried = [k for k in kept if k in doubted]
    if learned.macao_split_step <= 0.0 or not tried:
        return []
    step, clearance = learned.macao_split_step * typical, learned.macao_clearance * typical
    points: list[DieCandidate] = []
    axes: list[tuple[int, int, int]] = []  # (die, row of its centre, row of its first end; the second follows)
    for k in tried:
        die = dataclasses.replace(found[k], side=typical)
        others = [found[i] for i in kept if i != k]
        centre_row = len(points)
        points.append(die)
        for ux, uy in _FOUR_AXES:
            ends = [dataclasses.replace(die, cx=die.cx + sign * ux * step, cy=die.cy + sign * uy * step)
                    for sign in (-1.0, 1.0)]
            if all(clear_of(end, others, clearance) for end in ends):
                axes.append((k, centre_row, len(points)))
                points += ends
    if not axes:
        return []
    crops = crops_at_typical_side(frame, np.array([(c.cx, c.cy) for c in points]), typical, net)
    upright = net.classify(crops, 1, learned.classifier_batch)
    die_probability = 1.0 - upright[:, 0]

    def weaker_end(axis: tuple[int, int, int]) -> float:
        return float(min(die_probability[axis[2]], die_probability[axis[2] + 1]))

    best: dict[int, tuple[int, int, int]] = {}
    for axis in axes:
        k, centre_row, _ = axis
        if (die_probability[centre_row] < weaker_end(axis) and weaker_end(axis) >= learned.die_min_probability
                and (k not in best or weaker_end(axis) > weaker_end(best[k]))):
            best[k] = axis
    splits = []
    for k, centre_row, end_row in sorted(best.values(), key=weaker_end, reverse=True):
        rows = [centre_row, end_row, end_row + 1]
        readings = net.refine(crops[rows], upright[rows], learned.classifier_turns, learned.classifier_batch)
        centre, at_ends = readings[0], readings[1:]
        if (np.all(1.0 - at_ends[:, 0] >= learned.die_min_probability) and np.all(at_ends[:, 0] < centre[0])
                and np.all(np.max(at_ends[:, 1:], axis=1) >= learned.macao_value_min_probability)):
            splits.append(SeamSplit(k, (points[end_row], points[end_row + 1]), crops[rows[1:]], at_ends))
    return splits

