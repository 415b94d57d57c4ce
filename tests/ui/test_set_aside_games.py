"""A journal holding a game that no longer replays: the app reaches its start screen, says so, and the
game can still be looked at and exported up to where it stops."""

from __future__ import annotations

from pathlib import Path

from app.games.macao import load_record
from app.ui.i18n import translator
from app.ui.widgets import Tile
from tests.reliability.test_unreadable_games import BROKEN_SEQ, journal_with_a_broken_game
from tests.ui.harness import UiHarness, make_context


def test_the_app_starts_tells_and_exports_a_set_aside_game(tmp_path: Path) -> None:
    game = journal_with_a_broken_game(tmp_path / "windrose.db", "not UTF-8")
    ui = UiHarness(make_context(tmp_path))
    try:
        assert ui.app.manager.current == "start"
        told = " ".join(ui.labels())
        assert f"Game {game} (" in told and "set aside" in told
        assert not [b for b in ui.buttons() if b.text.startswith("Resume")]
        ui.tap_text("Past games")
        assert "cannot be replayed" in ui.labels()
        ui.tap(next(w for w in ui.walk() if isinstance(w, Tile)))  # newest first: the set-aside game
        ui.tap_text("Export")
        record_file = next(p for p in (tmp_path / "exports").iterdir() if p.suffix == ".json"
                           and not p.name.endswith("bgstats.json"))
        assert len(load_record(record_file.read_text(encoding="utf-8")).actions) == BROKEN_SEQ - 1
        translator.set_language("de")
        ui.app.go("start")
        ui.idle()
        assert "beiseitegelegt" in " ".join(ui.labels())
    finally:
        translator.set_language("en")
        ui.close()
