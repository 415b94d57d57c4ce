"""A second opinion from the classical pip reader for dice the classifier doubts.

The classifier (vision/learned.py) reports a die unsure when its top value is less
likely than `value_min_probability` (`macao_value_min_probability` in macao mode). Many
such dice show their pips plainly; the
classical reader (vision/die.py: pips of either polarity checked against the six
layouts) is an independent method. It reads the die at a few die sizes around the
detector's (its reading depends on the size it assumes); when at least one reading is
confident and every confident one names the classifier's own top value, the value is
taken. It never changes a value: a disagreement, or no confident classical reading,
leaves the die unsure. Only doubtful dice are read again, so a frame of sure dice costs
nothing extra. The two readers share the detector's box, so a box centred off the face
can fool both (see tools/training/README.md).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from vision.die import DieFace, read_candidate
from vision.frame import WorkFrame
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.segment import Candidate
from vision.unsure import DOUBTFUL_VALUE


@dataclass(frozen=True)
class SecondOpinion:
    """One doubtful die read again: the classifier's face, the classical readings, the outcome."""

    face: DieFace  # as the classifier read it (unsure)
    classical: tuple[DieFace, ...]  # the classical reader's readings, one per die side tried
    accepted: bool  # the confident classical readings all name the classifier's value

    @property
    def confident_values(self) -> list[int]:
        """The values of the confident classical readings, in the order tried."""
        return [c.value for c in self.classical if c.value is not None and not c.reason]

    @property
    def clearest(self) -> DieFace:
        """The most confident classical reading that is sure, else the most confident one."""
        return max(self.classical, key=lambda c: (c.value is not None and not c.reason, c.confidence))

    @property
    def note(self) -> str:
        """What the classical reader said, for the debug picture."""
        values = self.confident_values
        if self.accepted:
            return f"2nd: {values[0]} agrees ({len(values)}/{len(self.classical)})"
        if values:
            return "2nd: reads " + "/".join(str(v) for v in sorted(set(values)))
        return f"2nd: not sure ({self.clearest.reason})" if self.clearest.reason else "2nd: not sure"


def side_scales(learned: LearnedParams) -> np.ndarray:
    """The factors on the detector's die side that the classical reader tries."""
    low, high = learned.second_opinion_side_scale_min, learned.second_opinion_side_scale_max
    if learned.second_opinion_side_tries == 1:
        return np.array([(low + high) / 2.0])
    return np.linspace(low, high, learned.second_opinion_side_tries)


def classical_reading_at(frame: np.ndarray, box: tuple[int, int, int, int], params: VisionParams,
                         side_scale: float) -> DieFace:
    """The classical reader's reading of the die in `box` (frame pixels, the detector's face box),
    taking the die's side as the box's times `side_scale`.

    The box, so scaled about its centre, stands in for the die's blob: the classical reader
    crops around it and scales the crop so the die is its reading size.
    """
    x, y, w, h = box
    side = max(float(max(w, h)) * side_scale, 1.0)
    height, width = frame.shape[:2]
    x0 = int(np.clip(round(x + w / 2.0 - side / 2.0), 0, width - 1))
    y0 = int(np.clip(round(y + h / 2.0 - side / 2.0), 0, height - 1))
    x1 = int(np.clip(round(x + w / 2.0 + side / 2.0), x0 + 1, width))
    y1 = int(np.clip(round(y + h / 2.0 + side / 2.0), y0 + 1, height))
    blob = np.full((y1 - y0, x1 - x0), 255, np.uint8)
    candidate = Candidate(box=(x0, y0, x1 - x0, y1 - y0), mask=blob, side=side, length=side, angle=0.0)
    # The full frame serves as its own working copy (scale 1): no resize, no copy.
    return read_candidate(frame, WorkFrame(image=frame, scale=1.0, offset=(0, 0)), candidate, params, side)


def review_doubtful(frame: np.ndarray, faces: list[DieFace], params: VisionParams,
                    learned: LearnedParams) -> tuple[list[DieFace], list[SecondOpinion]]:
    """The faces with doubtful values confirmed where the classical reader agrees, and every
    second opinion asked (for the debug picture).

    Asked only for a die whose value alone is in doubt and whose top value still has at least
    `second_opinion_min_probability` (the classifier leans to it). The classical reader reads
    it at each side in `side_scales`; the value is taken when at least one reading is confident
    and every confident one names the classifier's value. An accepted die's confidence is the
    chance that not both readers are wrong, taken as independent.
    """
    if not learned.second_opinion:
        return faces, []
    scales = side_scales(learned)
    reviewed: list[DieFace] = []
    opinions: list[SecondOpinion] = []
    for face in faces:
        if face.reason != DOUBTFUL_VALUE or face.value is None or face.confidence < learned.second_opinion_min_probability:
            reviewed.append(face)
            continue
        readings = tuple(classical_reading_at(frame, face.box, params, float(scale)) for scale in scales)
        opinion = SecondOpinion(face, readings, accepted=False)
        values = opinion.confident_values
        if values and set(values) == {face.value}:
            opinion = dataclasses.replace(opinion, accepted=True)
            clearest = opinion.clearest
            both = 1.0 - (1.0 - face.confidence) * (1.0 - clearest.confidence)
            face = dataclasses.replace(face, reason="", confidence=both, pips=clearest.pips)
        opinions.append(opinion)
        reviewed.append(face)
    return reviewed, opinions
