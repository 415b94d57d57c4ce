"""Thresholds of the learned reader, read from config.toml's [vision.learned].

Kept apart from the models so that loading the settings never imports OpenCV
(the command line reads the settings too).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from vision.params import DEFAULT_CONFIG_PATH, vision_table
from vision.types import ExpectMode

# What may run the models (vision.onnx_net): "auto" (onnxruntime if installed, else OpenCV's DNN),
# onnxruntime, or OpenCV's DNN module.
RUNTIMES = ("auto", "onnxruntime", "opencv")


@dataclass(frozen=True)
class LearnedParams:
    """Thresholds of the learned reader, from the [vision.learned] table of config.toml."""

    enabled: bool  # read_dice takes this path when the models load; false: the classical reader
    detector_path: str  # relative to the repository root, or absolute
    classifier_path: str
    second_classifier_path: str  # "": none; else a classifier whose readings of the dice the first keeps are averaged in
    classifier_heads_path: str  # "": the classifiers as shipped; else their last layers refitted to a table (vision.heads)
    second_classifier_below: float  # ... of those whose first reading gives their value less than this (above 1: all)
    runtime: str  # what runs the models: "auto", "onnxruntime" or "opencv" (vision.onnx_net)
    detector_long_side: int  # the frame is shrunk so its long side is at most this
    detector_min_score: float  # heatmap peak needed for a candidate
    detector_small_die: float  # dice measured under this many px at detector scale: the frame is looked at again ...
    detector_die_target: float  # ... at the scale that makes them this many px (the frame's own at most)
    detector_large_long_side: int  # the frame is looked at shrunk to this long side as well (0: never) ...
    detector_large_die: float  # ... and read there when its dice would measure at least this many px at the first look's scale ...
    detector_large_ratio: float  # ... and at least this many times as large as the first look measures them
    look_other_long_sides: str  # long sides of further looks the classifier judges ("320 800"; "": none) ...
    macao_look_other_long_sides: str  # ... the same in macao mode
    look_candidates: int  # ... by this many of each look's strongest candidates ...
    look_margin: float  # ... taking one only when it reads this many dice' worth more than the first
    look_larger_below: float  # a larger look only where the first measures the dice under this many px
    look_smaller_above: float  # a look smaller than all tried only where the smallest but the first measures them at least this
    straighten_min_tilt_deg: float  # with tray corners, a camera leaning this far or more is read straightened
    straighten_leaves_deg: float  # ... turned to lean this much still (side faces seen as in training)
    detector_peak_window: int  # odd: a peak is the maximum of this many heatmap cells across
    die_min_probability: float  # P(die) needed to keep a candidate at all
    macao_doubtful_min_probability: float  # macao mode, fewer than six sure dice: candidates this likely join, unsure
    macao_look_beside_min_score: float  # macao mode, fewer than six dice: heatmap peaks this high count once ...
    macao_look_beside_own_radius: float  # ... after each found die's own (alike in every direction) heat within this many die sides is taken away
    macao_look_beside_core_radius: float  # ... and all heat within this many die sides of it
    any_look_beside_min_score: float  # any mode, beside the empty tray: the same look beside the dice found, from this score (1: never)
    any_side_face_within: float  # ... a candidate it finds (or the re-read promotes) within this many die sides of a die ...
    any_side_face_degrees: float  # ... and this many degrees of the line from it towards the point below the camera is its side face
    body_seed_radius: float  # die sides: the colour around a weak candidate's centre is taken this near it ...
    body_colour_tolerance: float  # ... the die body is the connected region within this Lab distance of it ...
    body_pip_close: float  # ... its pips closed over (die sides) ...
    body_min_area: float  # ... and its centroid is the die's centre when the region covers this many ...
    body_max_area: float  # ... to this many squared die sides
    body_max_shift: float  # ... and lies within this many die sides of the candidate
    macao_recentre_min_shift: float  # macao mode: a doubtful candidate the body moves this many die sides is read again there
    macao_reread_most: int  # macao mode, fewer than six sure dice: at most this many other candidates are read again
    any_reread_min_probability: float  # any mode: candidates left out with at least this P(die) are read again (0: none)
    any_side_face_closer: float  # any mode, beside the empty tray: a kept die this near another's side-face line is it (0: never)
    any_maybe_die_min_probability: float  # any mode, beside the empty tray: one still left out with this P(die) ...
    any_maybe_die_min_changed: float  # ... where this share of its face differs from the empty tray: "maybe not a die" (1: never) ...
    any_maybe_die_clearance: float  # ... at least this many die sides from every die kept ...
    any_maybe_die_side_face_degrees: float  # ... and outside a cone this wide round the line to the camera's foot
    macao_shift_most: int  # ... the likeliest this many of them also at the eight points around them ...
    macao_shift_step: float  # ... this many die sides away
    macao_clearance: float  # a candidate read again this near a sure die (die sides) is that die again
    macao_split_step: float  # macao mode, a die still missing: a sure die is read this many die sides either way (0: not tried)
    doubted_beside_sure_within: float  # a die with a doubted value this near (its own sides) a sure die is that die's side
    one_die_within: float  # two dice taken this near (typical die sides) are one die: the likelier is kept
    value_min_probability: float  # P(value) needed to report a value, else unsure
    edge_min_sides: float  # a die centred nearer the picture's edge (die sides) may be cut by it: unsure
    macao_value_min_probability: float  # the same in macao mode (the known six dice)
    duplicate_distance: float  # candidates closer than this many die sides are one die
    typical_side_min_gap: float  # a doubted die's crop this far off the typical side is read again at it
    doubted_on_body: bool  # a die whose value is doubted is read again on its die's body; kept if surer of the same value
    body_check_below: float  # P(value) under this: a die is read again on its body (with doubted_on_body)
    doubted_on_body_min_shift: float  # ... when the body's centre lies at least this many die sides away
    side_spread: float  # crop sides are held within this factor of the frame's typical die side
    die_min_side_ratio: float  # a candidate whose side is under this fraction of the typical die side is dropped
    classifier_turns: int  # 1, 2 or 4 turned readings of each crop, averaged
    classifier_sure_probability: float  # ... only for dice whose upright P(value) is under this (above 1: every die)
    classifier_batch: int  # at most this many crops go through the classifier at once (bounds its buffers)
    colour_face_radius: float  # die sides from the centre: the disc whose pips give the polarity
    colour_pip_wide_radius: float  # die sides: when the face's pips do not tell, exactly the value's pips within this do
    colour_pip_search_radius: float  # die sides from the centre: pips are looked for no further out
    colour_band_inner: float  # die sides from the centre: the band along the top face's edges ...
    colour_band_outer: float  # ... from here to here, whose shade glare does not wash out
    colour_band_lightness_percentile: float  # the body's lightness: this percentile (0-100) of the band ...
    colour_band_sectors: int  # ... in each of this many angular sectors, the sectors' median
    colour_white_percentile: float  # a light-pipped die's pip lightness: this percentile (0-100) of its pips
    colour_white_lightness: float  # lightness (0-255) are scaled so the frame's light pips read this
    colour_lightness_floor: float  # lightness is compared as the ratio (L + this) / (model L + this)
    colour_margin_min: float  # a die whose colour could be swapped for less extra cost than this is unsure
    colour_hue_radius: float  # die sides from the centre: only pixels this near name the hue
    colour_darker_percentile: float  # the hue comes from die pixels darker than this percentile (0-100) ...
    colour_hue_sectors: int  # ... of each of this many angular sectors, the sectors' median
    second_opinion: bool  # a die whose value the classifier doubts is read again by the classical reader
    second_opinion_min_probability: float  # ... when its top value has at least this probability (0-1)
    second_opinion_side_scale_min: float  # the classical reader reads the die taking its side as the detector's
    second_opinion_side_scale_max: float  # ... side times each of `tries` factors evenly spread from min to max
    second_opinion_side_tries: int  # (1: the middle factor only)
    lean_check: bool  # every die found is checked for leaning (cocked), and then reported unsure
    lean_path: str  # the leaning-die check's model, relative to the repository root or absolute
    lean_min_probability: float  # P(cocked) at which a die counts as leaning
    lean_min_offset: float  # die sides: a die nearer the point below the camera is not checked
    lean_both_ways_within: float  # die sides: a die nearer it must look cocked with outward either way
    lean_tilt_share: float  # no tray corners: when this share (0-1) of the dice look cocked from the centre (0: never) ...
    lean_tilt_min_dice: int  # ... of at least this many, the point below the camera is sought where the fewest do
    lean_tilt_min_probability: float  # a die looks cocked there with at least this P(cocked)
    glare_lightness: float  # grey level (0-255) from which a face's pixels count as mirrored lamp light ...
    glare_centre_radius: float  # ... filling the disc this many die sides around the centre ...
    glare_centre_cover: float  # ... to at least this share (0-1), a pip there showing through it or not ...
    glare_clipped_lightness: float  # ... with pixels of at least this grey level (0-255), where the camera clips ...
    glare_clipped_share: float  # ... filling at least this share (0-1) of that disc, or lighter on average ...
    glare_above_face: float  # ... by this many grey levels than the face's median ...
    glare_min_area: float  # ... in a patch of this many squared die sides leave a 2-5 unsure (0: no check)
    token_max_off_ellipse: float  # a candidate read as a 1 whose outline lies this near an ellipse is a round token (0: no check) ...
    token_min_side_px: float  # ... when at least this many frame pixels across ...
    token_check_min_probability: float  # ... and at least this likely a die (0-1)

    @classmethod
    def from_table(cls, table: dict[str, Any]) -> LearnedParams:
        """Build from a parsed [vision.learned] table; ValueError names any bad or unknown key."""
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(table) - set(known))
        if unknown:
            raise ValueError(f"[vision.learned] unknown key(s): {', '.join(unknown)}")
        missing = sorted(set(known) - set(table))
        if missing:
            raise ValueError(f"[vision.learned] missing key(s): {', '.join(missing)}")
        values: dict[str, Any] = {}
        for name, field in known.items():
            wanted = {"int": int, "float": float, "bool": bool, "str": str}[str(field.type)]
            value = table[name]
            if wanted is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if isinstance(value, bool) != (wanted is bool) or not isinstance(value, wanted):
                raise ValueError(f"[vision.learned] key '{name}' must be {wanted.__name__}, got {value!r}")
            if isinstance(value, (int, float)) and value < 0:
                raise ValueError(f"[vision.learned] key '{name}' must not be negative, got {value!r}")
            values[name] = value
        if values["classifier_turns"] not in (1, 2, 4):
            raise ValueError("[vision.learned] key 'classifier_turns' must be 1, 2 or 4")
        if values["classifier_batch"] < 1:
            raise ValueError(f"[vision.learned] key 'classifier_batch' must be at least 1, got {values['classifier_batch']!r}")
        for name in ("colour_band_sectors", "colour_hue_sectors"):
            if values[name] < 1:
                raise ValueError(f"[vision.learned] key '{name}' must be at least 1, got {values[name]!r}")
        for name in ("die_min_probability", "macao_doubtful_min_probability", "any_reread_min_probability",
                     "any_maybe_die_min_probability", "any_maybe_die_min_changed",
                     "value_min_probability",
                     "macao_value_min_probability", "body_check_below",
                     "second_opinion_min_probability", "lean_min_probability", "lean_tilt_min_probability",
                     "token_check_min_probability"):
            if values[name] > 1.0:
                raise ValueError(f"[vision.learned] key '{name}' is a probability: 0 to 1, got {values[name]!r}")
        low, high = values["second_opinion_side_scale_min"], values["second_opinion_side_scale_max"]
        if not 0.0 < low <= high <= 2.0:
            raise ValueError("[vision.learned] keys 'second_opinion_side_scale_min' and '..._max' must satisfy "
                             f"0 < min <= max <= 2, got {low!r} and {high!r}")
        if values["die_min_side_ratio"] >= 1.0:
            raise ValueError("[vision.learned] key 'die_min_side_ratio' is a fraction under 1 (0: keep every "
                             f"size), got {values['die_min_side_ratio']!r}")
        if values["lean_tilt_share"] > 1.0:
            raise ValueError("[vision.learned] key 'lean_tilt_share' is a share of the dice: 0 to 1 (0: never), "
                             f"got {values['lean_tilt_share']!r}")
        if values["glare_centre_cover"] > 1.0:
            raise ValueError("[vision.learned] key 'glare_centre_cover' is a share of the centre: 0 to 1, "
                             f"got {values['glare_centre_cover']!r}")
        for name in ("glare_lightness", "glare_clipped_lightness"):
            if values[name] > 255.0:
                raise ValueError(f"[vision.learned] key '{name}' is a grey level: 0 to 255, got {values[name]!r}")
        if values["glare_clipped_share"] > 1.0:
            raise ValueError("[vision.learned] key 'glare_clipped_share' is a share of the centre: 0 to 1, "
                             f"got {values['glare_clipped_share']!r}")
        for name in ("any_side_face_degrees", "any_maybe_die_side_face_degrees"):
            if values[name] > 90.0:
                raise ValueError(f"[vision.learned] key '{name}' is an angle from the line towards the "
                                 f"point below the camera: 0 to 90, got {values[name]!r}")
        if values["side_spread"] < 1.0:
            raise ValueError(f"[vision.learned] key 'side_spread' is a factor of at least 1, got {values['side_spread']!r}")
        for name in ("macao_look_beside_min_score", "any_look_beside_min_score"):
            if values[name] > 1.0:
                raise ValueError(f"[vision.learned] key '{name}' is a heatmap score: 0 to 1 "
                                 f"(1: never look again), got {values[name]!r}")
        if values["macao_look_beside_core_radius"] > values["macao_look_beside_own_radius"]:
            raise ValueError("[vision.learned] key 'macao_look_beside_core_radius' must not exceed "
                             f"'macao_look_beside_own_radius', got {values['macao_look_beside_core_radius']!r} "
                             f"and {values['macao_look_beside_own_radius']!r}")
        radii = [values[name] for name in ("colour_face_radius", "colour_pip_wide_radius", "colour_pip_search_radius")]
        if radii != sorted(radii):
            raise ValueError("[vision.learned] keys 'colour_face_radius', 'colour_pip_wide_radius' and "
                             "'colour_pip_search_radius' must not shrink in that order (pips are counted within "
                             f"the first two and looked for within the third), got {radii[0]!r}, {radii[1]!r} "
                             f"and {radii[2]!r}")
        if values["body_min_area"] > values["body_max_area"]:
            raise ValueError("[vision.learned] key 'body_min_area' must not exceed 'body_max_area', got "
                             f"{values['body_min_area']!r} and {values['body_max_area']!r}")
        if values["second_opinion_side_tries"] < 1:
            raise ValueError("[vision.learned] key 'second_opinion_side_tries' must be at least 1")
        if values["runtime"] not in RUNTIMES:
            raise ValueError(f"[vision.learned] key 'runtime' must be one of {', '.join(RUNTIMES)}, "
                             f"got {values['runtime']!r}")
        if values["detector_large_ratio"] < 1.0:
            raise ValueError("[vision.learned] key 'detector_large_ratio' is a factor of at least 1, "
                             f"got {values['detector_large_ratio']!r}")
        other_long_sides(values["look_other_long_sides"], "look_other_long_sides")
        other_long_sides(values["macao_look_other_long_sides"], "macao_look_other_long_sides")
        for name in ("straighten_min_tilt_deg", "straighten_leaves_deg"):
            if values[name] > 90.0:
                raise ValueError(f"[vision.learned] key '{name}' is an angle: 0 to 90, got {values[name]!r}")
        if values["look_candidates"] < 1:
            raise ValueError(f"[vision.learned] key 'look_candidates' must be at least 1, got {values['look_candidates']!r}")
        if values["detector_peak_window"] % 2 == 0:
            raise ValueError("[vision.learned] key 'detector_peak_window' must be odd")
        return cls(**values)


def load_learned_params(override_path: Path | None = None) -> LearnedParams:
    """[vision.learned] of the repository's config.toml, with an override file's keys laid over
    it (`vision_table`); ValueError names the file on a bad or unknown key."""
    table = vision_table(override_path).get("learned")
    if not isinstance(table, dict):
        raise ValueError(f"{override_path or DEFAULT_CONFIG_PATH}: [vision.learned] is not a table")
    try:
        return LearnedParams.from_table(table)
    except ValueError as exc:
        raise ValueError(f"{override_path or DEFAULT_CONFIG_PATH}: {exc}") from exc


def other_long_sides(text: str, key: str = "look_other_long_sides") -> tuple[int, ...]:
    """The long sides of `look_other_long_sides` or another `key` of that form ("320 800"; "" none);
    ValueError naming the key if one is not a whole number of pixels of at least 64."""
    try:
        sides = tuple(int(word) for word in text.split())
    except ValueError:
        raise ValueError(f"[vision.learned] key '{key}' holds whole numbers of pixels "
                         f"(\"320 800\", or \"\"), got {text!r}") from None
    if any(side < 64 for side in sides):
        raise ValueError(f"[vision.learned] key '{key}': each long side is at least 64 px, got {text!r}")
    return sides


def look_long_sides(learned: LearnedParams, expect: ExpectMode) -> tuple[int, ...]:
    """The long sides of the further looks the classifier judges when reading in `expect` mode."""
    if expect == "macao":
        return other_long_sides(learned.macao_look_other_long_sides, "macao_look_other_long_sides")
    return other_long_sides(learned.look_other_long_sides)
