"""The randomised drawn scenes: every condition the reader must not depend on is a named
factor with a few values, drawn per scene from its own seeded stream. A set can leave a
value out (`hold_out`: a training set that never saw it) or hold only some values (`only`:
a set of that condition alone), so the reader is judged on what no training scene had.

    python -m vision synth DIR --randomise --hold-out background=board      # train without boards
    python -m vision synth DIR --randomise --only background=board          # judge on boards
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from tools.synth_tables import MORE_TABLES

# Factor -> its values. A value's name says what it is; size and tilt values are ranges
# (die side in px at the picture's centre; camera tilt from straight down, degrees).
FACTORS: dict[str, tuple[str, ...]] = {
    "background": ("grey_card", "wood", "green_felt", "dark", *MORE_TABLES),
    "style": ("macao", "white", "ivory", "coloured", "translucent", "marbled"),
    "pips": ("usual", "black", "white", "coloured"),
    "corners": ("rounded", "sharp"),
    "size": ("15-30", "30-60", "60-120"),
    "tilt": ("0-10", "10-20", "20-30", "30-35"),
    "blur": ("none", "focus", "motion"),
    "camera": ("pi", "webcam"),
    "light": ("neutral", "warm", "cool", "dim"),
    "shadows": ("soft", "hard"),
    "distractors": ("none", "cubes", "cards"),
    "tray": ("walls", "none"),
}
CAMERA_FRAMES = {"pi": (1600, 900), "webcam": (640, 480)}
# Six dice and their gaps must fit in the picture: a die is at most this share of its short side.
LARGEST_DIE_SHARE = 1 / 6
FACTOR_STREAM = 30  # the seed streams [scene seed, FACTOR_STREAM, factor index] and the next for sizes


def parse_choices(items: Sequence[str], what: str) -> dict[str, tuple[str, ...]]:
    """`["background=board,paper", "tilt=30-35"]` -> {factor: values}; a clear ValueError for
    an unknown factor or value (`what` names the option in the message)."""
    chosen: dict[str, tuple[str, ...]] = {}
    for item in items:
        factor, sep, values = item.partition("=")
        if not sep or not values:
            raise ValueError(f"{what} {item!r}: write FACTOR=VALUE[,VALUE...], e.g. background=board")
        if factor not in FACTORS:
            raise ValueError(f"{what} {item!r}: no factor {factor!r}; the factors are {', '.join(FACTORS)}")
        unknown = [v for v in values.split(",") if v not in FACTORS[factor]]
        if unknown:
            raise ValueError(f"{what} {item!r}: {factor} has no value {unknown[0]!r}; "
                             f"its values are {', '.join(FACTORS[factor])}")
        chosen[factor] = chosen.get(factor, ()) + tuple(values.split(","))
    return chosen


def allowed_values(hold_out: Mapping[str, Sequence[str]] | None = None,
                   only: Mapping[str, Sequence[str]] | None = None) -> dict[str, tuple[str, ...]]:
    """Each factor's values a scene may take: `only`'s where given, less those held out."""
    hold_out, only = hold_out or {}, only or {}
    allowed = {}
    for factor, values in FACTORS.items():
        kept = tuple(v for v in values if v in only.get(factor, values) and v not in hold_out.get(factor, ()))
        if not kept:
            raise ValueError(f"every value of {factor} is held out; keep at least one")
        allowed[factor] = kept
    return allowed


def draw_factors(scene_seed: int, allowed: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """One scene's factor values, each factor from its own stream (holding one factor's value
    out changes no other factor of the scene)."""
    drawn = {}
    for index, factor in enumerate(FACTORS):
        values = allowed.get(factor, FACTORS[factor])
        drawn[factor] = values[int(np.random.default_rng([scene_seed, FACTOR_STREAM, index]).integers(len(values)))]
    return drawn


def _range(text: str) -> tuple[float, float]:
    low, high = text.split("-")
    return float(low), float(high)


def scene_keywords(factors: Mapping[str, str], scene_seed: int) -> dict[str, object]:
    """The `tools.synth.SceneOptions` keywords that draw a scene with these factor values
    (sizes, tilts and blur lengths drawn within their ranges from the scene's seed)."""
    rng = np.random.default_rng([scene_seed, FACTOR_STREAM + 1])
    width, height = CAMERA_FRAMES[factors["camera"]]
    low, high = _range(factors["size"])
    die_px = float(rng.uniform(low, min(high, max(low, min(width, height) * LARGEST_DIE_SHARE))))
    tilt = float(rng.uniform(*_range(factors["tilt"])))
    blur_sigma, smear = float(rng.uniform(0.2, 0.8)), 0.0
    if factors["blur"] == "focus":
        blur_sigma = float(np.clip(rng.uniform(0.03, 0.07) * die_px, 1.2, 4.0))
    elif factors["blur"] == "motion":
        smear = float(np.clip(rng.uniform(0.08, 0.2) * die_px, 2.5, 12.0))
    light = factors["light"]
    tint = light if light != "dim" else ("neutral", "warm", "cool")[int(rng.integers(3))]
    cubes, cards = 0, 0
    if factors["distractors"] == "cubes":
        cubes = int(rng.integers(4, 15))
    elif factors["distractors"] == "cards":
        cubes, cards = int(rng.integers(0, 4)), int(rng.integers(1, 3))
    return {
        "width": width, "height": height, "die_px": die_px, "table": factors["background"], "tint": tint,
        "dim": light == "dim", "cubes": cubes, "cards": cards, "hard_light": factors["shadows"] == "hard",
        "blur_sigma": blur_sigma, "motion_blur_px": smear, "tilt_deg": tilt, "aim_at_tray": True, "webcam": factors["camera"] == "webcam",
        "dice_style": factors["style"], "pips": factors["pips"], "corners": factors["corners"],
        "tray": factors["tray"] == "walls", "factors": tuple(factors.items()),
    }
