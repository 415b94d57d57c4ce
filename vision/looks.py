"""Which scale the detector reads a frame at, with the classifier as the judge.

The detector learned dice 10-48 px wide at its scale, and the side it guesses for a die is
compressed towards the middle of that: a frame whose dice are far larger comes out as their
pips, one whose dice are far smaller as blurs of several dice, and in both cases it guesses a
side that looks plausible. The rule that picks the first look (`maps_at_dice_scale`) rests on
those guesses. The classifier does not: a crop cut at a pip's side shows a pip, one cut at a
blur's side shows several dice, and it reads neither as a die. So each other look's strongest
candidates are read once, and the look whose candidates read most like dice is taken.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.candidates import apart, crop_candidates, suppress_duplicates, typical_side
from vision.learned_models import DiceDetector, DiceNet
from vision.learned_params import LearnedParams, look_long_sides
from vision.types import ExpectMode

# The detector's maps: heat, side map (px at detector scale) and the frame-to-detector scale.
Maps = tuple[np.ndarray, np.ndarray, float]


def looked_at(detector: DiceDetector, frame: np.ndarray, long_side: int, frame_long_side: int | None,
              looked: dict[int, Maps] | None) -> Maps:
    """`detector.maps(frame, long_side, frame_long_side)`, kept in `looked` (one frame's maps by
    long side) when given: the first look's rules and the judge ask for the same look at 320 px."""
    if looked is None:
        return detector.maps(frame, long_side, frame_long_side)
    if long_side not in looked:
        looked[long_side] = detector.maps(frame, long_side, frame_long_side)
    return looked[long_side]


@dataclass(frozen=True)
class Look:
    """One look at the frame and how much like dice its strongest candidates read."""

    maps: Maps
    worth: float  # sum over them of P(die) x P(their likeliest value)
    candidates: int
    dice: int  # how many of them, apart, read as dice (P(die) >= die_min_probability)
    typical_px: float  # their typical side at the look's scale
    # Their upright readings by (centre x, centre y, crop side), for the reader to take again.
    readings: dict[tuple[float, float, float], np.ndarray] = field(default_factory=dict)


def judged(detector: DiceDetector, net: DiceNet, frame: np.ndarray, maps: Maps, learned: LearnedParams) -> Look:
    """`maps` with the worth of its `look_candidates` strongest candidates, each read once,
    upright, in a crop at their typical side, as the reader first reads them; as there, a
    candidate nearer a likelier one than two dice can lie is that die again, and not counted."""
    heat, sides, scale = maps
    found = suppress_duplicates(detector.peaks(heat, sides, scale, learned.detector_min_score,
                                               learned.detector_peak_window),
                                learned.duplicate_distance)[: learned.look_candidates]
    if not found:
        return Look(maps, 0.0, 0, 0, 0.0)
    typical = typical_side(found)
    _centres, crop_sides, crops = crop_candidates(frame, found, typical, net, learned)
    probabilities = net.classify(crops, 1, learned.classifier_batch)  # as the reader reads, to the last bit
    likeliest = [int(i) for i in np.argsort(probabilities[:, 0], kind="stable")]
    counted = apart(likeliest, found, learned.one_die_within * typical)
    worth = float(np.sum((1.0 - probabilities[counted, 0]) * probabilities[counted, 1:].max(axis=1)))
    dice = int(np.sum(1.0 - probabilities[counted, 0] >= learned.die_min_probability))
    readings = {(c.cx, c.cy, float(side)): reading for c, side, reading in zip(found, crop_sides, probabilities)}
    return Look(maps, worth, len(found), dice, typical * scale, readings)


def upright_readings(net: DiceNet, crops: np.ndarray, keys: list[tuple[float, float, float]], look: Look,
                     batch: int) -> np.ndarray:
    """`net.classify(crops, 1, batch)`, where the crop of each key (its candidate's centre and
    crop side) that the look judged is not read again: the same crop reads the same."""
    missing = [i for i, key in enumerate(keys) if key not in look.readings]
    read = net.classify(crops[missing], 1, batch) if missing else np.zeros((0, 0), np.float32)
    fresh = dict(zip(missing, read))
    return np.array([fresh[i] if i in fresh else look.readings[key] for i, key in enumerate(keys)], np.float32)


def classified_look(detector: DiceDetector, net: DiceNet, frame: np.ndarray, first: Maps, learned: LearnedParams,
                    frame_long_side: int | None = None, looked: dict[int, Maps] | None = None,
                    expect: ExpectMode = "any", measured_side: float | None = None) -> tuple[Look, list[tuple[int, Look]]]:
    """The look at `frame` whose candidates read most like dice: `first` (the look picked by
    the detector's own sizes), unless a look at one of `look_long_sides` (for `expect`) reads at least
    `look_margin` dice' worth more. A larger look than the first is tried only where the first
    measures the dice under `look_larger_below` px; a look smaller than every one tried only where
    the smallest tried after the first measures them at least `look_smaller_above` px (`_too_small_for`).
    Also each look tried, by its long side, for the debug picture. Looks at the scale of `first`, or
    beyond the frame's own size, are not taken again; `frame_long_side` as in DiceDetector.maps,
    `looked` as in `looked_at`.

    `measured_side`: the dice's side in frame px as something other than the detector measures
    it (the patches where the picture differs from the empty tray). Where that is under
    `detector_small_die` px at the first look, the look that makes it `detector_die_target` px is
    judged last, whatever the first look measures: on a busy board small dice are a few px at the
    first look, whose candidates are then the print's, of any size. The patches can measure pips
    instead (a die the colour of the table differs only there), and a look where its pips are
    dice-sized reads them as 1s: it must read `look_margin` more than the best look before it."""
    long_side = frame_long_side or max(frame.shape[:2])
    first_look = judged(detector, net, frame, first, learned)
    tried = [(round(first[2] * long_side), first_look)]
    best, best_worth = first_look, first_look.worth + learned.look_margin
    closer = (round(long_side * min(1.0, learned.detector_die_target / measured_side))
              if measured_side and measured_side * first[2] < learned.detector_small_die else None)
    for side in list(look_long_sides(learned, expect)) + ([closer] if closer else []):
        if best_worth >= learned.look_candidates:
            break  # each candidate is worth at most 1: no look can read more like dice
        scale = min(1.0, side / long_side)
        if any(abs(scale - look.maps[2]) < 1e-6 for _, look in tried):
            continue
        if side != closer and scale > first[2] and first_look.typical_px >= learned.look_larger_below:
            continue  # dice that large at the first look are no better seen larger (and it costs most)
        if side != closer and _too_small_for(scale, tried, learned.look_smaller_above):
            continue
        look = judged(detector, net, frame, looked_at(detector, frame, side, frame_long_side, looked), learned)
        tried.append((round(scale * long_side), look))
        # The first look's worth counts with the margin already; the closer look needs it over any.
        bar = best_worth + (learned.look_margin if side == closer and best is not first_look else 0.0)
        if look.worth > bar:
            best, best_worth = look, look.worth
    return best, tried


def remembered_look(detector: DiceDetector, net: DiceNet, frame: np.ndarray, scale: float, dice: int,
                    learned: LearnedParams, frame_long_side: int | None = None,
                    looked: dict[int, Maps] | None = None) -> Look | None:
    """The look at `scale` (frame to detector) alone, where its strongest candidates hold
    `dice` apart that each read as a die (P(die) >= `die_min_probability`); else None.

    The camera over a table does not move between rolls, nor do its dice change size: the look
    the last complete reading took sees this roll's dice at the same size, and where it finds
    all of them as dice, no other look can read more like dice than they do. Judging the
    others costs two more passes of the detector and eight crops each."""
    long_side = frame_long_side or max(frame.shape[:2])
    look = judged(detector, net, frame, looked_at(detector, frame, round(scale * long_side), frame_long_side, looked),
                  learned)
    return look if look.dice >= dice else None


def _too_small_for(scale: float, tried: list[tuple[int, Look]], least_px: float) -> bool:
    """Whether the dice would come out too small at a look at `scale`, smaller than every look
    `tried`: the smallest of those after the first found candidates measuring under `least_px`
    px, so that they would measure still less there, under the sizes the detector learned. The
    first look is no judge of that: where dice are larger than it learned, it measures their pips."""
    if any(scale >= look.maps[2] for _, look in tried):
        return False
    judges = [look for _, look in tried[1:] if look.candidates > 0]
    return bool(judges) and min(judges, key=lambda look: look.maps[2]).typical_px < least_px
