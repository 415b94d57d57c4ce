"""History's correction form offers the counters the game's UI names and logs the game's action."""

from __future__ import annotations

from app.ui.widgets import TextField
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness


def test_a_correction_logs_the_changed_counters_with_the_reason(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.phase == "actions")
    player = ui.app.session.state.players[1]
    before = (player.gold, player.punish)
    ui.app.go("history")
    ui.idle()
    ui.tap_text("Correct gold, prestige or punish markers")
    ui.tap(ui.button(player.name))
    ui.tap(ui.tagged("gold", 1))
    ui.tap(ui.tagged("gold", 1))
    ui.tap(ui.tagged("punish", 1))
    assert ui.button("Log the correction").disabled is False
    ui.find(TextField)[0].text = "a ruling at the table"
    ui.tap_text("Log the correction")
    assert ui.app.session.actions[-1] == {"type": "adjust", "player": player.colour,
                                          "note": "a ruling at the table", "gold": 2, "punish": 1}
    after = ui.app.session.state.player(player.colour)
    assert (after.gold, after.punish) == (before[0] + 2, before[1] + 1)
