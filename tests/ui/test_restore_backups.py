"""An emptied games file beside its backups: the start screen says so, and one tap brings the game back."""

from __future__ import annotations

from pathlib import Path

from tests.reliability.test_backup_recovery import played
from tests.ui.harness import UiHarness, make_context


def test_one_tap_restores_the_games_the_backups_hold(tmp_path: Path) -> None:
    [actions] = played(tmp_path / "windrose.db")
    (tmp_path / "windrose.db").write_bytes(b"")
    ui = UiHarness(make_context(tmp_path))
    try:
        assert ui.app.manager.current == "start"
        assert any("The backup copies hold more than the games file" in text for text in ui.labels())
        ui.tap_text("Restore from the backups")
        assert ui.app.manager.current == "game"
        assert ui.app.session.actions == actions
        assert ui.app.notice.text.startswith("Restored from the backups: game ")
        ui.tap_text("Menu")
        assert not ui.buttons("Restore from the backups")
    finally:
        ui.close()
