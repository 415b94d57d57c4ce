"""The start screen's Resume button says how far the unfinished game is in its own game's words:
a round for Macao, the entries made for a score pad (never "round 0")."""

from __future__ import annotations

from pathlib import Path

from app.session import Session
from app.ui.i18n import translator
from tests.ui.conftest import Table
from tests.ui.harness import STARTED, UiHarness, make_context

COLUMNS_GAME = {"started": STARTED, "players": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}]}


def _a_columns_game_with_one_entry(folder: Path) -> int:
    with Session.open(folder / "windrose.db") as session:
        game_id = session.new_game("guild_columns", COLUMNS_GAME)
        session.act({"type": "columns", "player": "Ann", "columns": [3, 1, 4]})
        listed = next(g for g in session.games() if g.id == game_id)
        assert listed.progress is not None and listed.progress.render() == "Columns entered: 1 of 3"
        return game_id


def _resume_buttons(ui: UiHarness) -> list[str]:
    ui.app.go("start")
    ui.idle()
    return [b.text for b in ui.buttons() if b.text.startswith(("Resume", "Weiter"))]


def test_a_score_pad_game_is_resumed_by_its_entries_in_english_and_german(tmp_path: Path) -> None:
    game_id = _a_columns_game_with_one_entry(tmp_path)
    ui = UiHarness(make_context(tmp_path))
    try:
        assert _resume_buttons(ui) == ["Resume: Ann, Ben, Cy (Columns entered: 1 of 3)"]
        translator.set_language("de")
        assert _resume_buttons(ui) == ["Weiter: Ann, Ben, Cy (Spalten eingetragen: 1 von 3)"]
        translator.set_language("en")
        ui.app.session.load(game_id)  # the game on the table, not only in the list
        ui.app.session.act({"type": "columns", "player": "Ben", "columns": [2, 5]})
        assert _resume_buttons(ui) == ["Resume: Ann, Ben, Cy (Columns entered: 2 of 3)"]
    finally:
        translator.set_language("en")
        ui.close()


def test_a_macao_game_is_resumed_by_its_round(table: Table) -> None:
    names = ", ".join(p["name"] for p in table.random.players)
    assert _resume_buttons(table.ui) == [f"Resume: {names} (Set-up)"]
    table.advance(lambda state: state.round == 2)
    assert _resume_buttons(table.ui) == [f"Resume: {names} (Round 2)"]


def test_past_games_say_how_far_an_unfinished_score_pad_is(tmp_path: Path) -> None:
    _a_columns_game_with_one_entry(tmp_path)
    ui = UiHarness(make_context(tmp_path))
    try:
        ui.app.go("past_games")
        ui.idle()
        assert "Columns entered: 1 of 3, not finished" in ui.labels()
        assert not [text for text in ui.labels() if "round 0" in text.lower()]
    finally:
        ui.close()
