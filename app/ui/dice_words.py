"""Why the camera is unsure of a die, in the few words that fit under it, for every game's dice
screen. Keyed by vision.types.UnsureReason's values: the vision package is not loaded where
dice are typed in."""

from __future__ import annotations

from app.ui.i18n import N_

UNSURE_WORDS: dict[str, str] = {
    "leaning": N_("cocked"),
    "cut_by_edge": N_("cut off"),
    "glare": N_("glare"),
    "blurred": N_("blurred"),
    "colour_doubtful": N_("colour?"),
    "maybe_not_a_die": N_("a die?"),
    "value_doubtful": N_("pips unclear"),
}
