"""A game whose cards were revealed with `cost: null` (imported, or a table that taps tribute only) opens on screen."""

from __future__ import annotations

from app.games.macao.simulate import RandomTable
from tests.ui.harness import UiHarness


def test_cards_of_unknown_cost_are_shown_for_the_pick(ui: UiHarness) -> None:
    table = RandomTable(2, players=2, activity=0.7, unknown_costs=1.0)
    ui.app.session.new_game("macao", {"started": "2026-11-29T19:30:00+01:00", "players": table.players,
                                      "wall": list(table.wall)})
    while not (table.state.round == 2 and table.state.phase == "take_card"):
        table.step()
        ui.app.session.act(table.actions[-1])
    assert all(card is None or card.cost is None for card in table.state.revealed)
    ui.app.go("game")
    ui.idle()
    names = {card.name for card in table.state.revealed if card is not None}
    assert names and names <= set(ui.labels())
