"""The dice panel shows under each die the camera is unsure of why it is, in the table's language."""

from __future__ import annotations

from pathlib import Path

from app.dice_service import DiceStatus, RollState
from app.ui.i18n import translator
from app.ui.macao.dice import UNSURE_WORDS
from app.ui.widgets import DieWidget
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness, make_context
from vision.types import DiceReading, DieReading, UnsureReason


def _proposal() -> DiceStatus:
    """Red read; gray leaning; violet cut by the frame's edge; the others read."""
    values = {"red": 3, "blue": 5, "green": 1, "black": 6, "gray": None, "violet": None}
    why = {"gray": UnsureReason.LEANING, "violet": UnsureReason.CUT_BY_EDGE}
    dice = tuple(DieReading(40 * i, 40, 30, 30, colour, value, 0.9, value is None, why.get(colour))
                 for i, (colour, value) in enumerate(values.items()))
    return DiceStatus(RollState.PROPOSED, "Some dice are unclear: correct them, then confirm", {}, DiceReading(dice))


def _notes(ui: UiHarness) -> dict[str, str]:
    return {w.colour: w.note for w in ui.walk() if isinstance(w, DieWidget)}


def test_unsure_dice_say_why_until_given_a_number(tmp_path: Path) -> None:
    ui = UiHarness(make_context(tmp_path))
    try:
        Table(ui).advance(lambda s: s.phase == "roll")
        panel = ui.app.manager.get_screen("game").current_panel()
        panel.take_proposal(_proposal())
        panel.redraw()
        ui.idle()
        notes = _notes(ui)
        assert (notes["gray"], notes["violet"], notes["red"]) == ("cocked", "cut off", "")
        translator.set_language("de")
        panel.redraw()
        ui.idle()
        assert (_notes(ui)["gray"], _notes(ui)["violet"]) == ("schief", "angeschnitten")
        translator.set_language("en")
        panel.select("gray")
        panel.set_value(2)
        ui.idle()
        assert _notes(ui)["gray"] == "" and _notes(ui)["violet"] == "cut off"
    finally:
        translator.set_language("en")
        ui.close()


def test_every_reason_the_reader_gives_has_its_words() -> None:
    assert set(UNSURE_WORDS) == {reason.value for reason in UnsureReason}
