"""The learned dice reader: the detector, the classifier and the leaning check chained into a
DiceReading like `vision.reader.read_dice`, reusing the reader's frame checks and joint colour
assignment.

`find_faces` finds the dice (shared with the colour calibration, so that both measure alike);
`read_with_model` names their colours and says which are unsure. In macao mode, with fewer
than six sure dice, the doubtful candidates get second chances (vision.rereads). The networks:
vision.learned_models; the colour measure: vision.learned_colour; the training:
tools/training/README.md.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING, Sequence

import cv2
import numpy as np

from vision.candidates import apart, clear_of, crop_candidates, sized_like_the_dice, suppress_duplicates, typical_side
from vision.colour import LEARNED_MEASURE, assign_colours, assignment_margins, colour_models, cost_matrix, set_colours
from vision.debug import (CandidateMark, DebugSink, draw_candidates, draw_faces, draw_heat, draw_leaning,
                          draw_outlines, draw_second_opinions, draw_tray_difference)
from vision.die import DieFace
from vision.frame import FrameError, RegionPlace, check_frame, is_blank
from vision.lean import LeanNet
from vision.learned_colour import chosen_colours, pip_polarities, polar_grid
from vision.learned_models import DiceDetector, DieCandidate, LearnedModels, crop_dice
from vision.learned_params import LearnedParams
from vision.looks import Look, Maps, classified_look, looked_at, remembered_look, upright_readings
from vision.outline import round_tokens, traced_outlines
from vision.params import VisionParams
from vision.reference import TrayDifference
from vision.rereads import (at_typical_side, beside_the_dice, read_doubted_on_body, reread_candidates, second_look,
                            split_seams, turned_where)
from vision.second_opinion import review_doubtful
from vision.types import DIE_COLOURS, DiceReading, DieReading, ExpectMode
from vision.unsure import (DOUBTFUL_VALUE, GLARE_AT_CENTRE, LEANING, MAYBE_NOT_A_DIE, PARTLY_OUTSIDE, die_reading,
                           with_colour_doubt)

if TYPE_CHECKING:
    from vision.calibrate import Calibration

# The debug picture of the dice with their values' probabilities and why any is unsure.
WHY_UNSURE = "dice (value, P(value), why unsure)"
# Why a candidate drawn there is not among the dice: the joint assignment left it no colour.
NO_COLOUR_LEFT = "no colour left"
# Where the point below a tilted camera is sought (`camera_foot`), in half-diagonals of the
# picture from its centre, in eight directions each.
FOOT_DISTANCES = (1.0, 1.5, 2.5, 4.0)
# Read values a middle pip tells apart: 2 from 3, 4 from 5 (a 1 and a 6 have no neighbour there).
_MIDDLE_PIP_PAIRS = (2, 3, 4, 5)


def maps_at_dice_scale(detector: DiceDetector, frame: np.ndarray, learned: LearnedParams,
                       frame_long_side: int | None = None,
                       looked: dict[int, Maps] | None = None) -> tuple[np.ndarray, np.ndarray, float]:
    """The detector's maps (`DiceDetector.maps`) at `detector_long_side`; where the dice measure
    under `detector_small_die` px there, at the scale that makes them `detector_die_target` px
    (at most the frame's own); where they are too large for it, at `detector_large_long_side`.

    Shrunk to one fixed size, a frame whose dice are small (a camera high over the tray, a
    wide view) shows them at the bottom of the sizes the detector learned: it misses dice that
    touch and guesses their sides large, and every crop cut at that side shows the table. One
    whose dice are large (a webcam close over the tray) shows them above those sizes: the
    detector proposes their pips, or nothing (`smaller_look`). `looked`: as in `looked_at`."""
    heat, sides, scale = looked_at(detector, frame, learned.detector_long_side, frame_long_side, looked)
    may_be_small = learned.detector_small_die > 0.0 and scale < 1.0
    if not may_be_small and learned.detector_large_long_side <= 0:
        return heat, sides, scale
    found = detector.peaks(heat, sides, scale, learned.detector_min_score, learned.detector_peak_window)
    if may_be_small and found:
        measured = typical_side(found) * scale
        if measured < learned.detector_small_die:
            long_side = round(learned.detector_long_side * learned.detector_die_target / measured)
            return looked_at(detector, frame, long_side, frame_long_side, looked)
    return smaller_look(detector, frame, (heat, sides, scale), found, learned, frame_long_side, looked)


def smaller_look(detector: DiceDetector, frame: np.ndarray, maps: tuple[np.ndarray, np.ndarray, float],
                 found: list[DieCandidate], learned: LearnedParams, frame_long_side: int | None = None,
                 looked: dict[int, Maps] | None = None) -> tuple[np.ndarray, np.ndarray, float]:
    """The detector's `maps` of `frame` (with the candidates `found` in them), or its maps at
    `detector_large_long_side` where those measure dice too large for `maps`: at least
    `detector_large_die` px at the scale of `maps`, and at least `detector_large_ratio` times
    as large as `maps` measures them (or where `maps` found none).

    Both looks measure dice of a size the detector knows alike (the development sets: within
    a factor 1.6). Dice too large for the first look come out there as their pips or corners,
    much smaller than the smaller look measures the whole dice; read at a pip's side, a crop
    shows part of a die, and the classifier reads it wrongly and sure. Dice too small for the
    smaller look come out there as large blurs of several dice: of a size the first look
    would have measured right."""
    long_side = learned.detector_large_long_side
    if long_side <= 0 or long_side >= maps[2] * (frame_long_side or max(frame.shape[:2])):
        return maps  # no smaller look asked for, or the frame is no larger than it
    heat, sides, smaller = looked_at(detector, frame, long_side, frame_long_side, looked)
    seen = detector.peaks(heat, sides, smaller, learned.detector_min_score, learned.detector_peak_window)
    if not seen:
        return maps
    measured = typical_side(seen)
    too_large = measured * maps[2] >= learned.detector_large_die
    if too_large and (not found or measured >= learned.detector_large_ratio * typical_side(found)):
        return heat, sides, smaller
    return maps


def find_faces(checked: np.ndarray, params: VisionParams, expect: ExpectMode, models: LearnedModels,
               learned: LearnedParams, debug: DebugSink | None = None,
               place: RegionPlace | None = None, tray: TrayDifference | None = None,
               polarity: bool = False) -> list[DieFace]:
    """The dice found in a checked frame (`located_faces` with no look remembered)."""
    return located_faces(checked, params, expect, models, learned, debug, place, tray, polarity).faces


@dataclasses.dataclass(frozen=True)
class Proposal:
    """The look a frame is read at and the candidates the detector proposes there."""

    look: Look
    found: list[DieCandidate]  # in the region's pixels, sized like the dice (none: no die proposed)
    typical: float  # the dice's typical side (px) among all proposed, before those of other sizes went


def proposed_candidates(checked: np.ndarray, params: VisionParams, expect: ExpectMode, models: LearnedModels,
                        learned: LearnedParams, debug: DebugSink | None = None, place: RegionPlace | None = None,
                        tray: TrayDifference | None = None, remembered_scale: float | None = None,
                        dice_count: int | None = None) -> Proposal:
    """The first step of `located_faces` (its arguments as there): the look, then the candidates
    the detector proposes at it, in the tray region, where the picture differs from the empty tray
    and of the dice's size. The classifier reads these first, and `vision adapt` refits it on them."""
    detector, net = models.detector, models.classifier
    frame_long_side = None if place is None else place.frame_long_side
    looked: dict[int, Maps] = {}
    count = len(DIE_COLOURS) if expect == "macao" else dice_count
    remembered = (remembered_look(detector, net, checked, remembered_scale, count, learned, frame_long_side, looked)
                  if count is not None and count > 0 and remembered_scale is not None and 0.0 < remembered_scale <= 1.0
                  else None)  # a scale no look can have (nan, 0, a blow-up) is no memory: judged as without
    if remembered is not None:
        look, looks = remembered, [(round(remembered.maps[2] * (frame_long_side or max(checked.shape[:2]))),
                                    remembered)]
    else:
        look, looks = classified_look(detector, net, checked,
                                      maps_at_dice_scale(detector, checked, learned, frame_long_side, looked), learned,
                                      frame_long_side, looked, expect, None if tray is None else tray.die_side(params))
    heat, side_map, scale = look.maps
    if debug is not None:
        tried = ", ".join(f"{side}: {seen.worth:.1f}" for side, seen in looks)
        which = "the look remembered" if remembered is not None else "looks"
        debug.add(f"detector heat (at {scale:.0%}; {which}, px: worth {tried})",
                  draw_heat(checked, heat, detector.stride / scale))
    found = suppress_duplicates(detector.peaks(heat, side_map, scale, learned.detector_min_score,
                                               learned.detector_peak_window), learned.duplicate_distance)
    if place is not None:
        found = [c for c in found if place.counts(c.cx, c.cy)]
    if tray is not None:
        found = [c for c in found if tray.differs_at(c, params)]
        proposed = tray.proposals(found, typical_side(found) if found else None, learned.detector_min_score, params)
        found = found + [c for c in proposed if place is None or place.counts(c.cx, c.cy)]
        if debug is not None:
            debug.add("empty-tray difference (white: changed; rings: candidates it proposes)",
                      draw_tray_difference(checked, tray.changed, [(c.cx, c.cy, c.side) for c in proposed]))
    if not found:
        return Proposal(look, [], 0.0)
    typical = typical_side(found)
    return Proposal(look, sized_like_the_dice(found, typical, learned.die_min_side_ratio), typical)


@dataclasses.dataclass(frozen=True)
class LocatedFaces:
    """The dice found in a frame and the scale of the detector's look they were read at."""

    faces: list[DieFace]
    scale: float


def located_faces(checked: np.ndarray, params: VisionParams, expect: ExpectMode, models: LearnedModels,
                  learned: LearnedParams, debug: DebugSink | None = None,
                  place: RegionPlace | None = None, tray: TrayDifference | None = None,
                  polarity: bool = False, remembered_scale: float | None = None,
                  dice_count: int | None = None) -> LocatedFaces:
    """The dice the detector and classifier find in a checked frame, each with its body colour
    (`body_colours`) and, in macao mode or with `polarity` (dice named among a colour set), its
    pip polarity (`pip_polarities`); shared by the reader and the colour calibration, so both
    measure alike.

    In macao mode at most six: the likeliest, with doubtful ones marked "maybe not a die";
    when fewer than six are sure dice, the detector looks again beside those found (pictured
    for `debug`, if given), the other candidates are read again, and a die found on the seam
    of two touching dice is split. A die whose value is not plainly sure after all that is read
    again on its body (`read_doubted_on_body`); in any mode, beside the empty tray, the detector
    looks beside the dice found too (`beside_the_dice`; a side face found so is left out,
    `side_face_of`), every candidate left out that may yet
    be a die is read again like macao mode's others (`any_reread_min_probability`), and a doubted
    die beside a sure one is that die's side face (`off_the_sure_dice`), and last a candidate the
    classifier still doubts is a die, where the picture changed, is reported as maybe one
    (`maybe_dice`). Dice are found at the scale they need: the
    detector's own sizes pick a first look (`maps_at_dice_scale`), the classifier judges it
    against others (`classified_look`; beside the empty tray, also the look at the size its
    patches of change measure). Dice the leaning check takes for cocked are marked so,
    and dice the picture's edge may cut. `place`: where `checked`, a tray region (with a margin
    around it), lies in the whole frame, and which of its dice count (default: it is the whole
    frame).
    `tray`: where `checked` differs from the empty tray, when known: candidates where nothing
    differs are dropped, and patches of change the detector missed become candidates.
    `remembered_scale`: the scale of the look the table's last complete reading took (0-1); that
    look alone is read where it finds the six dice of macao mode, or in any mode the `dice_count`
    dice the caller knows lie there (`remembered_look`), else the looks are picked as above.
    A candidate read as a 1 whose outline is an ellipse is a round token, not a die, and is
    dropped before anything else counts it (`vision.outline`).
    """
    proposal = proposed_candidates(checked, params, expect, models, learned, debug, place, tray, remembered_scale,
                                   dice_count)
    detector, net = models.detector, models.classifier
    look, found, typical = proposal.look, proposal.found, proposal.typical
    heat, side_map, scale = look.maps
    if not found:
        return LocatedFaces([], scale)
    centres, sides, crops = crop_candidates(checked, found, typical, net, learned)
    upright = upright_readings(net, crops, [(c.cx, c.cy, float(side)) for c, side in zip(found, sides)], look,
                               learned.classifier_batch)
    sure_count = int(np.sum(1.0 - upright[:, 0] >= learned.die_min_probability))
    beside: list[DieCandidate] = []
    if expect == "macao" and sure_count < len(DIE_COLOURS):
        beside = second_look(checked, detector, (heat, side_map, scale), found, typical, learned, debug)
    elif expect == "any" and tray is not None and learned.any_look_beside_min_score < 1.0:
        # No count of dice tells that one is missing, but the empty tray tells where something
        # lies: a die touching another, whose heat is only a shoulder of the other's, is looked
        # for there, where the picture differs from the empty tray. Read alone, each weak peak
        # on the table would cost a crop and a read.
        beside = beside_the_dice(checked, detector, (heat, side_map, scale), found, typical, learned,
                                 lambda c: tray.differs_at(c, params), debug)
    first_count = len(found)  # candidates from here on were found beside the first ones
    if beside:
        if place is not None:
            beside = [c for c in beside if place.counts(c.cx, c.cy)]
        if tray is not None:
            beside = [c for c in beside if tray.differs_at(c, params)]
        if beside:
            more_centres, more_sides, more_crops = crop_candidates(checked, beside, typical, net, learned)
            found = found + beside
            centres, sides = np.concatenate([centres, more_centres]), np.concatenate([sides, more_sides])
            crops = np.concatenate([crops, more_crops])
            upright = np.concatenate([upright, net.classify(more_crops, 1, learned.classifier_batch)])
    traced = traced_outlines(checked, centres, sides, upright, learned)
    tokens = round_tokens(traced, learned)
    if debug is not None and traced:
        debug.add(f"outlines of candidates read as a 1 (within {learned.token_max_off_ellipse} of an ellipse: a "
                  "round token, dropped)",
                  draw_outlines(checked, [(float(centres[i][0]), float(centres[i][1]), float(sides[i]), off, i in tokens)
                                          for i, off in traced.items()]))
    if tokens:  # gone before any path counts, reads again or colours them
        left = [i for i in range(len(found)) if i not in tokens]
        found, centres, sides, crops, upright = ([found[i] for i in left], centres[left], sides[left], crops[left],
                                                 upright[left])
        first_count -= sum(i < first_count for i in tokens)
        if not found:
            return LocatedFaces([], scale)
    detected_at = [(c.cx, c.cy) for c in found]  # before any is read again elsewhere (debug picture)
    likeliest = [int(i) for i in np.argsort(upright[:, 0], kind="stable")]  # by P(not a die)
    sure = [i for i in likeliest if 1.0 - float(upright[i][0]) >= learned.die_min_probability]
    # Where a tilted camera sees a die's side face: between its top face and the point below the
    # camera (the picture's centre where no tray corners place it). Any mode asks it of the
    # candidates it gives a second chance beside the empty tray (found beside a die, read again).
    below = (checked.shape[1] / 2.0, checked.shape[0] / 2.0) if place is None or place.view_centre is None \
        else place.view_centre
    if expect == "any" and len(found) > first_count:
        # A candidate found beside a die nearer it than a touching die can lie is that die again;
        # one where the die's side face lies is that. Neither displaces the die, nor is read again.
        firsts = [found[i] for i in sure if i < first_count]
        beside_a_die = {i for i in range(first_count, len(found)) if (
            not clear_of(found[i], firsts, learned.macao_clearance * typical)
            or side_face_of(found[i], firsts, below, typical, learned))}
        sure = [i for i in sure if i not in beside_a_die]
    else:
        beside_a_die = set()
    kept = apart(sure, found, learned.one_die_within * typical)
    seen_twice = (set(sure) - set(kept)) | beside_a_die
    if expect == "macao":  # exactly six dice on the table: the six likeliest
        kept = kept[: len(DIE_COLOURS)]
    # Only a die read upright with less than the sure probability is read turned as well: the
    # turned reading is there to catch a doubtful one, and a plain die need not pay for it.
    turned = [i for i in kept if float(np.max(upright[i][1:])) < learned.classifier_sure_probability]
    probabilities = turned_where(net, crops, upright, turned, learned)
    at_typical_side(checked, net, centres, sides, crops, probabilities, turned, typical, learned)
    asked = [i for i in kept if float(np.max(probabilities[i][1:])) < learned.second_classifier_below]
    if models.extra_classifiers and asked:
        # Each further classifier reads the dice asked in its own crop geometry, turned where the
        # first one was; all vote equally.
        again = [k for k, i in enumerate(asked) if i in turned]
        readings = [probabilities[asked]]
        for extra in models.extra_classifiers:
            extra_crops = crop_dice(checked, centres[asked], sides[asked], extra.crop_px, extra.window_sides)
            readings.append(turned_where(extra, extra_crops, extra.classify(extra_crops, 1, learned.classifier_batch),
                                         again, learned))
        probabilities[asked] = np.mean(readings, axis=0)
    kept = [i for i in kept if 1.0 - float(probabilities[i][0]) >= learned.die_min_probability]
    doubtful: list[int] = []
    if expect == "any" and learned.any_reread_min_probability > 0.0:
        # No count of dice tells that one is missing: every candidate left out that may yet be a
        # die is read again (a die under a steep camera or close to a webcam is often found off
        # its face, or cut at a side the detector guessed wrong), and kept when it then reads as
        # a die clear of those kept.
        again = [i for i in likeliest if i not in kept and i not in seen_twice
                 and 1.0 - float(probabilities[i][0]) >= learned.any_reread_min_probability]
        promoted = reread_candidates(checked, net, found, sides, crops, probabilities, again, typical, learned,
                                     [found[i] for i in kept])
        for i in sorted(promoted, key=lambda i: float(probabilities[i][0])):
            dice = [found[k] for k in kept]
            if clear_of(found[i], dice, learned.macao_clearance * typical) and (
                    tray is None or not side_face_of(found[i], dice, below, typical, learned)):
                kept.append(i)
    if expect == "macao":
        # Fewer than six sure dice: the other candidates are read again (any of them may be a die
        # the classifier saw off its centre or at the wrong size: a gray die in its long shadow
        # scores like the table), the likeliest first; then the likeliest of the rest join the
        # colour assignment (unsure), so that a die the classifier doubts still takes its colour
        # from the others.
        missing = len(DIE_COLOURS) - len(kept)
        others = [i for i in likeliest if i not in kept]
        again = others[: learned.macao_reread_most] if missing else []
        promoted = reread_candidates(checked, net, found, sides, crops, probabilities, again, typical, learned,
                                     [found[i] for i in kept])
        for i in sorted(promoted, key=lambda i: float(probabilities[i][0])):
            if len(kept) < len(DIE_COLOURS) and clear_of(found[i], [found[k] for k in kept],
                                                         learned.macao_clearance * typical):
                kept.append(i)
        missing = len(DIE_COLOURS) - len(kept)
        splits = split_seams(checked, net, found, kept, turned, typical, learned) if missing > 0 else []
        for split in splits[:missing]:
            # The die found on the seam becomes the first of the two; the second is a new candidate.
            found[split.index] = split.dice[0]
            sides[split.index] = typical
            crops[split.index] = split.crops[0]
            probabilities[split.index] = split.probabilities[0]
            found.append(split.dice[1])
            detected_at.append(detected_at[split.index])
            sides = np.append(sides, typical)
            crops = np.concatenate([crops, split.crops[1:]])
            probabilities = np.concatenate([probabilities, split.probabilities[1:]])
            kept.append(len(found) - 1)
        doubtful = sorted((i for i in others if i not in kept
                           and 1.0 - float(probabilities[i][0]) >= learned.macao_doubtful_min_probability),
                          key=lambda i: float(probabilities[i][0]))
        doubtful = [i for i in apart(kept + doubtful, found, learned.one_die_within * typical)
                    if i not in kept][: len(DIE_COLOURS) - len(kept)]
    least_value_probability = (learned.macao_value_min_probability if expect == "macao"
                               else learned.value_min_probability)
    if learned.doubted_on_body:
        # Last: in macao mode a die on the seam of two touching dice must be split first, not
        # moved onto one of them.
        read_doubted_on_body(checked, net, found, sides, crops, probabilities, kept, doubtful, typical,
                             least_value_probability, learned)
    if expect == "any":  # macao mode takes six, and a touching die can lie nearer than a side
        taken_once = set(kept)
        kept = off_the_sure_dice(found, sides, probabilities, kept, least_value_probability,
                                 learned.doubted_beside_sure_within)
        if tray is not None and learned.any_side_face_closer > 0.0:
            kept = off_the_side_faces(found, kept, below, typical, learned)
        if tray is not None:  # last: clear of the kept dice where they are read, none of them again
            doubtful = maybe_dice(found, probabilities, likeliest, kept, seen_twice | taken_once, tray, below,
                                  typical, params, learned)
    chosen = sorted(kept + doubtful)
    centres = np.array([(c.cx, c.cy) for c in found])  # a candidate read again may have moved
    if debug is not None:
        debug.add("candidates (classifier: P(die), then value and its probability for those taken)",
                  draw_candidates(checked, [
                      CandidateMark(c.cx, c.cy, float(sides[i]), 1.0 - float(p[0]), int(np.argmax(p[1:])) + 1,
                                    float(np.max(p[1:])), i in chosen, i in seen_twice and i not in chosen,
                                    first if (c.cx, c.cy) != first else None)
                      for i, (c, p, first) in enumerate(zip(found, probabilities, detected_at))]))
    colour_crops, colours = chosen_colours(checked, net, crops[chosen], centres[chosen], sides[chosen], typical,
                                           params, learned)
    values = [int(np.argmax(probabilities[i][1:])) + 1 for i in chosen]
    # The polarity only prices colours: `any` mode names none unless given a colour set (a
    # white die and a black one can measure alike on the bevel, never in their pips), and a
    # photo there can hold twenty dice.
    polarities = (pip_polarities(colour_crops, values, net.window_sides, params, learned)
                  if expect == "macao" or polarity else [""] * len(chosen))
    # The dice's own median side, not the typical candidate's: on a busy board many small
    # candidates pull that one down, and the check reads a die filling its crop as leaning.
    # Any mode's maybe-dice are left out of it, and of the leaning check (they are asked about
    # whatever it says): the likeliest to be cut at a wrong side, and no evidence of where the
    # camera stands.
    sized = chosen if expect == "macao" else sorted(kept)
    dice_side = float(np.median([found[i].side for i in sized])) if sized else typical
    leaning_of = dict(zip(sized, leaning_dice(checked, models.lean, centres[sized], dice_side, learned,
                                              None if place is None else place.view_centre, debug)))
    leaning = [leaning_of.get(i, False) for i in chosen]
    glared = glare_at_centre(crops[chosen], values, net.window_sides, learned)
    cut = near_the_edge(checked, centres[chosen], np.maximum(sides[chosen], typical), learned.edge_min_sides)
    faces: list[DieFace] = []
    for i, value, colour, pips_polarity, cocked, glare, off in zip(chosen, values, colours, polarities, leaning, glared, cut):
        c = found[i]
        confidence = float(probabilities[i][value])
        reason = (MAYBE_NOT_A_DIE if i in doubtful else PARTLY_OUTSIDE if off else LEANING if cocked
                  else GLARE_AT_CENTRE if glare else "" if confidence >= least_value_probability else DOUBTFUL_VALUE)
        side = float(sides[i])
        box = (round(c.cx - side / 2), round(c.cy - side / 2), round(side), round(side))
        faces.append(DieFace(box, value, confidence, reason, pips_polarity, np.zeros((0, 2)), colour, True))
    return LocatedFaces(faces, scale)


def off_the_side_faces(found: list[DieCandidate], kept: list[int], below: tuple[float, float], typical: float,
                       learned: LearnedParams) -> list[int]:
    """Those of `kept` that are no other kept die's side face: nearer it than
    `any_side_face_closer` sides (two flat dice's top faces lie at least a side apart; a
    tilted camera sees a side face's middle 0.5-0.9 sides from the top face's) and within
    `any_side_face_degrees` of the line from it towards the camera's foot `below`."""
    near = dataclasses.replace(learned, any_side_face_within=learned.any_side_face_closer)
    return [i for i in kept if not side_face_of(found[i], [found[k] for k in kept if k != i], below, typical, near)]


def maybe_dice(found: list[DieCandidate], probabilities: np.ndarray, likeliest: list[int], kept: list[int],
               seen_twice: set[int], tray: TrayDifference, below: tuple[float, float], typical: float,
               params: VisionParams, learned: LearnedParams) -> list[int]:
    """Candidates left out (likeliest first) that are dice as far as the detector and the empty
    tray can tell, though the classifier doubts it: P(die) at least `any_maybe_die_min_probability`,
    at least `any_maybe_die_min_changed` of their face differing from the empty tray, clear of the
    dice `kept` and of each other by `any_maybe_die_clearance` sides, and not where a kept die's side
    face lies (within `any_maybe_die_side_face_degrees` of the line towards the camera's foot:
    weak evidence, it is held to a wider cone than a die read surely)."""
    if learned.any_maybe_die_min_probability >= 1.0 or learned.any_maybe_die_min_changed >= 1.0:
        return []
    dice = [found[k] for k in kept]
    maybe: list[int] = []
    for i in likeliest:
        candidate = found[i]
        if (i in kept or i in seen_twice
                or 1.0 - float(probabilities[i][0]) < learned.any_maybe_die_min_probability
                or tray.changed_share(candidate.cx, candidate.cy, params.reference_probe_radius * typical)
                < learned.any_maybe_die_min_changed):
            continue
        if clear_of(candidate, dice + [found[k] for k in maybe], learned.any_maybe_die_clearance * typical) and not (
                side_face_of(candidate, dice, below, typical, learned, learned.any_maybe_die_side_face_degrees)):
            maybe.append(i)
    return maybe


def side_face_of(candidate: DieCandidate, dice: Sequence[DieCandidate], below_camera: tuple[float, float],
                 side: float, learned: LearnedParams, degrees: float | None = None) -> bool:
    """Whether `candidate` lies where a camera above `below_camera` sees a side face of one of
    `dice` (top faces `side` px wide): within `any_side_face_within` sides of it, and within
    `degrees` (default `any_side_face_degrees`) of the line from it towards the point below the camera."""
    within = learned.any_side_face_within
    cosine = np.cos(np.radians(learned.any_side_face_degrees if degrees is None else degrees))
    for die in dice:
        step = np.array([candidate.cx - die.cx, candidate.cy - die.cy])
        towards = np.array([below_camera[0] - die.cx, below_camera[1] - die.cy])
        distance, reach = float(np.hypot(*step)), float(np.hypot(*towards))
        if distance > within * side or distance == 0.0 or reach == 0.0:
            continue
        if float(np.dot(step, towards)) / (distance * reach) >= cosine:
            return True
    return False


def off_the_sure_dice(found: list[DieCandidate], sides: np.ndarray, probabilities: np.ndarray, kept: list[int],
                      least: float, within: float) -> list[int]:
    """Those of `kept` that are dice of their own: one whose value is doubted (below `least`)
    and whose centre lies within `within` of the side it was read at (`sides`) from a die read
    surely is that die's side face, or the die again off its centre (two flat dice's top faces
    lie a side apart)."""
    def value_sure(i: int) -> bool:
        return float(np.max(probabilities[i][1:])) >= least

    sure = [found[i] for i in kept if value_sure(i)]
    return [i for i in kept if value_sure(i) or clear_of(found[i], sure, within * float(sides[i]))]


def near_the_edge(picture: np.ndarray, centres: np.ndarray, sides: np.ndarray, least: float) -> list[bool]:
    """Per die: whether its centre lies nearer than `least` of its side to the picture's edge.
    Cut by the edge, a die shows only some of its pips, and the classifier reads what it sees:
    half a 6 as a 3, half a 4 as a 2, as surely as a whole die. The detector puts such a die's
    centre and side on the part it sees, so its side is taken at least as the frame's typical one."""
    if len(centres) == 0:
        return []
    height, width = picture.shape[:2]
    x, y = np.asarray(centres, float).T
    room = np.minimum.reduce([x, y, width - x, height - y])
    return [bool(r < least * side) for r, side in zip(room, sides)]


def glare_at_centre(crops: np.ndarray, values: Sequence[int], window_sides: float,
                    learned: LearnedParams) -> list[bool]:
    """Per crop (centred on a die `window_sides` die sides wide): whether its read value is one a
    middle pip tells apart (2-5) and the lamp's mirror image covers where that pip would be.

    The classifier reads such dice as surely when it is wrong as when it is right (drawn scenes
    with glare: P 0.74-0.95 for its mistakes, 0.71-0.96 for the rest), so its probability cannot
    flag them; the bright patch can. A white pip alone is far smaller than a patch worth
    flagging, and a pip seen through a washed-out face leaves a hole in it. The lamp's mirror
    image clips the camera; a light face in the shade is light but not clipped. A white die's face
    lit so is as light all round its centre: no glare there is told apart."""
    if learned.glare_min_area <= 0 or len(crops) == 0:
        return [False] * len(crops)
    size = crops.shape[1]
    die_px = size / window_sides
    radius = polar_grid(size, window_sides, 1)[0].reshape(size, size)
    centre = radius <= learned.glare_centre_radius
    face = radius <= learned.colour_face_radius
    glared = []
    for crop, value in zip(crops, values):
        if value not in _MIDDLE_PIP_PAIRS:
            glared.append(False)
            continue
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        face_grey = float(np.median(grey[face]))
        if face_grey >= learned.glare_lightness:
            glared.append(False)  # a white face is that light all over: its centre mirrors no lamp
            continue
        bright = (grey >= learned.glare_lightness).astype(np.uint8)
        if bright[centre].mean() < learned.glare_centre_cover:
            glared.append(False)  # a middle pip, or its absence, shows at the centre
            continue
        if (np.mean(grey[centre] >= learned.glare_clipped_lightness) < learned.glare_clipped_share
                and float(np.mean(grey[centre])) - face_grey < learned.glare_above_face):
            glared.append(False)  # light, but not the lamp's mirror image: that clips, or outshines the face
            continue
        _, patches, stats, _ = cv2.connectedComponentsWithStats(bright, connectivity=8)
        reaching = np.unique(patches[centre & (patches > 0)])
        area = float(stats[reaching, cv2.CC_STAT_AREA].max()) / die_px**2 if len(reaching) else 0.0
        glared.append(area >= learned.glare_min_area)
    return glared


def leaning_dice(frame: np.ndarray, lean: LeanNet | None, centres: np.ndarray, side: float,
                 learned: LearnedParams, view_centre: tuple[float, float] | None,
                 debug: DebugSink | None) -> list[bool]:
    """For each die at `centres` (top faces `side` px wide), whether the leaning check `lean`
    takes it for cocked (all False without it, and for dice within lean_min_offset sides of the
    point below the camera, `view_centre`: default the frame's centre, or where the dice say
    it is, `camera_foot`); pictured for `debug`."""
    if lean is None or len(centres) == 0:
        return [False] * len(centres)
    centres = np.asarray(centres, float)
    if view_centre is None:
        below_camera, cocked, far = camera_foot(frame, lean, centres, side, learned)
    else:
        below_camera = view_centre
        cocked, far = cocked_seen_from(frame, lean, centres, side, learned, below_camera)
    if debug is not None:
        debug.add("leaning check (P(cocked); the line points outward)", draw_leaning(
            frame, [(float(x), float(y), side, float(p)) for (x, y), p, checked in zip(centres, cocked, far) if checked],
            learned.lean_min_probability, below_camera, learned.lean_both_ways_within * side))
    return [bool(p >= learned.lean_min_probability) for p in cocked]


def cocked_seen_from(frame: np.ndarray, lean: LeanNet, centres: np.ndarray, side: float, learned: LearnedParams,
                     below_camera: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """P(cocked) of each die with the camera above `below_camera` (0 for those within
    lean_min_offset sides of it), and which were checked."""
    offset = np.hypot(*(centres - below_camera).T)
    far = offset >= learned.lean_min_offset * side
    cocked = np.zeros(len(centres), np.float32)
    cocked[far] = lean.cocked_probabilities(frame, centres[far], np.full(int(far.sum()), side), below_camera,
                                            offset[far] < learned.lean_both_ways_within * side)
    return cocked, far


def camera_foot(frame: np.ndarray, lean: LeanNet, centres: np.ndarray, side: float,
                learned: LearnedParams) -> tuple[tuple[float, float], np.ndarray, np.ndarray]:
    """Where the point below the camera lies, when no tray corners tell (with P(cocked) of each
    die seen from there, and which were checked): the frame's centre, unless at least
    `lean_tilt_share` of `lean_tilt_min_dice` or more dice look cocked from there (P(cocked) at
    least `lean_tilt_min_probability`).

    A camera that looks down at an angle shows every flat die's side face on the side away from
    the point below it, which then lies outside the picture; from the centre, most of them look
    like dice leaning outward. Few dice in a roll lean, and they lean every way: the point below
    the camera is taken where the fewest dice look cocked from, among the centre and points in
    eight directions at each of `FOOT_DISTANCES`."""
    height, width = frame.shape[:2]
    centre = (width / 2.0, height / 2.0)
    cocked, far = cocked_seen_from(frame, lean, centres, side, learned, centre)
    flagged = int(np.sum(cocked >= learned.lean_tilt_min_probability))
    if learned.lean_tilt_share <= 0.0 or len(centres) < learned.lean_tilt_min_dice or \
            flagged < learned.lean_tilt_share * len(centres):
        return centre, cocked, far
    best = (flagged, float(np.mean(cocked)), centre, cocked, far)
    reach = np.hypot(width, height) / 2.0
    for distance in np.array(FOOT_DISTANCES) * reach:
        for angle in np.arange(8) * np.pi / 4.0:
            point = (centre[0] + distance * float(np.cos(angle)), centre[1] + distance * float(np.sin(angle)))
            seen, checked = cocked_seen_from(frame, lean, centres, side, learned, point)
            tried = (int(np.sum(seen >= learned.lean_tilt_min_probability)), float(np.mean(seen)), point, seen,
                     checked)
            if tried[:2] < best[:2]:
                best = tried
    return best[2], best[3], best[4]


def read_with_model(
    frame: object,
    params: VisionParams,
    expect: ExpectMode,
    calibration: Calibration | None,
    models: LearnedModels,
    learned: LearnedParams,
    debug: DebugSink | None = None,
    place: RegionPlace | None = None,
    tray: TrayDifference | None = None,
    look_scale: float | None = None,
    dice_count: int | None = None,
) -> DiceReading:
    """Read the dice with the learned detector and classifier; same contract as read_dice.

    `place`: where `frame`, a tray region, lies in the camera's whole frame (default: it is the
    whole frame); the region is read at that frame's scale and measured from its centre.
    `tray`: where `frame` differs from the empty tray (vision.reference), when known.

    A die whose value the classifier doubts gets a second opinion from the classical pip
    reader (vision/second_opinion.py); `debug` receives a picture of those asked, if any.
    Colours (macao mode) come from the reader's own colour models and joint assignment; a
    calibration is used only when it was made with this reader's colour measure.
    """
    started = time.perf_counter()
    if expect not in ("macao", "any"):
        return DiceReading(message=f"unknown expect mode {expect!r}; use 'macao' or 'any'")
    try:
        checked = check_frame(frame, params)
    except FrameError as exc:
        return DiceReading(message=str(exc), ms=_ms(started))
    if is_blank(checked, params):
        return DiceReading(message="frame has no contrast (blank, black or blown out)", ms=_ms(started))
    located = located_faces(checked, params, expect, models, learned, debug, place, tray,
                            polarity=calibration is not None, remembered_scale=look_scale, dice_count=dice_count)
    faces, opinions = review_doubtful(checked, located.faces, params, learned)
    if debug is not None and opinions:
        debug.add("second opinion (classical pips on doubtful dice)", draw_second_opinions(checked, opinions))
    if not faces:
        return DiceReading(message="no dice found", ms=_ms(started))
    if expect == "any":
        named, calibration_note = set_colours(faces, calibration, LEARNED_MEASURE, params, learned.colour_margin_min,
                                              learned.colour_lightness_floor)
        dice = [die_reading(face, colour, face.reason, doubtful) for face, (colour, doubtful) in zip(faces, named)]
        if debug is not None:
            debug.add(WHY_UNSURE, draw_faces(checked, [(dataclasses.replace(face, reason=with_colour_doubt(
                face.reason, doubtful)), colour, True) for face, (colour, doubtful) in zip(faces, named)]))
        note = "; ".join(filter(None, [_unsure_note(dice), calibration_note]))
        return DiceReading(dice=tuple(dice), ms=_ms(started), message=note, look_scale=located.scale)
    models_by_colour, calibration_note = colour_models(calibration, LEARNED_MEASURE, params)
    costs = cost_matrix(faces, models_by_colour, params, learned.colour_lightness_floor)
    assignment = assign_colours(costs, params.colour_max_cost)
    margins = assignment_margins(costs, assignment)
    swayed = swayed_by_doubtful(faces, costs, assignment, params.colour_max_cost)
    dice = []
    drawn: list[tuple[DieFace, str | None, bool]] = []
    for face, colour_index, margin, sway in zip(faces, assignment, margins, swayed):
        if colour_index is None:
            drawn.append((dataclasses.replace(face, reason=NO_COLOUR_LEFT), None, False))
            continue
        doubtful = bool(margin < learned.colour_margin_min or sway)
        reason = with_colour_doubt(face.reason, doubtful)
        dice.append(die_reading(face, DIE_COLOURS[colour_index], face.reason, doubtful))
        drawn.append((dataclasses.replace(face, reason=reason), DIE_COLOURS[colour_index], True))
    if debug is not None:
        debug.add(WHY_UNSURE, draw_faces(checked, drawn))
    note = _unsure_note(dice)
    if len(dice) != len(DIE_COLOURS):
        note = "; ".join(filter(None, [f"found {len(dice)} of {len(DIE_COLOURS)} dice", note]))
    note = "; ".join(filter(None, [note, calibration_note]))
    return DiceReading(dice=tuple(dice), ms=_ms(started), message=note, look_scale=located.scale)


def swayed_by_doubtful(faces: list[DieFace], costs: np.ndarray, assignment: list[int | None],
                       leave_out_cost: float) -> list[bool]:
    """Per face: whether its colour hangs on the candidates that may not be dice at all.

    A candidate the classifier doubts is a die (a fill-up when fewer than six are sure) takes a
    colour in the joint assignment, so that no sure die is given a doubted die's colour. But
    when it is no die (a shadow beside one, a cube), the colour it takes can push a sure die
    into another: the sure dice's colours are trusted only where the assignment without the
    doubted candidates gives them the same."""
    doubted = [face.reason == MAYBE_NOT_A_DIE for face in faces]
    if not any(doubted):
        return [False] * len(faces)
    sure_rows = [i for i, d in enumerate(doubted) if not d]
    alone = assign_colours(costs[sure_rows], leave_out_cost) if sure_rows else []
    swayed = [False] * len(faces)
    for row, colour in zip(sure_rows, alone):
        swayed[row] = colour != assignment[row]
    return swayed


def _unsure_note(dice: list[DieReading]) -> str:
    unsure = sum(d.unsure for d in dice)
    return f"{unsure} die/dice unsure" if unsure else ""


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0

