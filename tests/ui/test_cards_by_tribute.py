"""Cards by tribute: one tap per revealed card, the cost named by the cubes paid at activation;
the "check costs" setting keeps the typed path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.games.macao.simulate import RandomTable
from app.ui.settings_store import SettingsStore, UiSettings
from tests.ui.harness import UiHarness


def _table(ui: UiHarness, seed: int = 5, unknown_costs: float = 1.0) -> RandomTable:
    ui.app.context.settings.check_costs = False  # the default a table starts with
    table = RandomTable(seed, players=2, activity=0.7, unknown_costs=unknown_costs)
    ui.app.session.new_game("macao", {"started": "2026-11-29T19:30:00+01:00", "players": table.players,
                                      "wall": list(table.wall)})
    return table


def _advance(ui: UiHarness, table: RandomTable, until: Any) -> None:
    while not until(table.state):
        table.step()
        ui.app.session.act(table.actions[-1])
    ui.app.go("game")
    ui.idle()


TRIBUTES = [(2, 2), (0, 1), (1, 1), (0, 0), (1, 2), (0, 1)]  # offices first, then the four others


def test_six_tribute_taps_reveal_the_round_with_costs_unknown(ui: UiHarness) -> None:
    table = _table(ui)
    _advance(ui, table, lambda s: s.phase == "reveal" and s.round == 2)
    taps = ui.taps
    for pair in TRIBUTES:
        ui.tap(ui.tagged("tribute", *pair))
    assert ui.taps - taps == 6
    assert ui.app.session.state.phase == "take_card"
    sent = ui.app.session.actions[-1]
    assert sent["type"] == "reveal"
    cards = sent["office"] + sent["cards"]
    assert [c["cost"] for c in cards] == [None] * 6
    assert [tuple(c["tribute"]) for c in cards] == TRIBUTES
    assert [c["kind"] for c in cards] == ["office"] * 2 + ["building"] * 4


def test_undo_of_a_tribute_reveal_shows_the_pairs_to_correct(ui: UiHarness) -> None:
    table = _table(ui)
    _advance(ui, table, lambda s: s.phase == "reveal" and s.round == 2)
    for pair in TRIBUTES:
        ui.tap(ui.tagged("tribute", *pair))
    ui.tap_text("Undo")
    panel = ui.app.manager.get_screen("game").current_panel()
    assert [(s.gold, s.prestige) for s in panel.slots] == TRIBUTES
    ui.tap(ui.tagged("slot", 3))
    ui.tap(ui.tagged("tribute", 1, 1))  # a correction does not send by itself: the cards were complete
    assert ui.app.session.state.phase == "reveal"
    ui.tap_text("Cards are right")
    assert [tuple(c["tribute"]) for c in ui.app.session.actions[-1]["cards"]] == [(1, 1), (1, 1), (1, 2), (0, 1)]


def test_with_check_costs_a_tribute_alone_does_not_complete_a_card(ui: UiHarness) -> None:
    table = _table(ui, unknown_costs=0.0)
    ui.app.context.settings.check_costs = True
    _advance(ui, table, lambda s: s.phase == "reveal" and s.round == 2)
    for _ in range(6):
        ui.tap(ui.tagged("tribute", 1, 1))
    assert ui.app.session.state.phase == "reveal"
    assert "Every card needs cost and tribute" in ui.labels()
    panel = ui.app.manager.get_screen("game").current_panel()
    assert panel.selected == 0 and not any(slot.complete for slot in panel.slots)


def test_a_card_of_unknown_cost_is_activated_by_tapping_the_cubes_paid(ui: UiHarness) -> None:
    table = _table(ui, seed=4)

    def activation_next(state: Any) -> bool:
        return state.phase == "actions" and any(
            card.ok and not card.cost_known for card in ui.app.session.options(state.turn).activate)

    _advance(ui, table, activation_next)
    who = ui.app.session.state.turn
    card = next(c for c in ui.app.session.options(who).activate if c.ok and not c.cost_known)
    tableau_before = len(ui.app.session.state.player(who).tableau)
    ui.tap(ui.tagged("activate", card.index))
    colour = sorted(card.payable)[0]
    ui.tap(ui.tagged("cube", colour))
    assert ui.app.session.actions[-1]["type"] != "activate"  # one cube could be the cost, or not: Confirm says
    ui.tap(ui.tagged("confirm", True))
    sent = ui.app.session.actions[-1]
    assert sent == {"type": "activate", "player": who, "card": card.index, "pay": [colour]}
    assert len(ui.app.session.state.player(who).tableau) == tableau_before - 1


def test_check_costs_is_kept_and_a_bad_saved_value_falls_back(tmp_path: Path) -> None:
    store = SettingsStore(tmp_path / "ui-settings.json")
    store.save(UiSettings(check_costs=True))
    assert store.load(UiSettings())[0].check_costs is True
    (tmp_path / "ui-settings.json").write_text(json.dumps({"check_costs": "yes"}))
    assert store.load(UiSettings())[0].check_costs is False
