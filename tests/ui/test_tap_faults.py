"""Every screen action against a journal that refuses writes: a notice in the table's language, the
game as it was, the app still running.

The faults are real, not stand-ins for the journal:
- full: the data folder is a 4 MB tmpfs filled to the last page (mounting needs root; elsewhere
  that case is skipped). The journal, the settings file and the exports all meet ENOSPC.
- read-only: the journal file opened by SQLite read-only (`mode=ro`), as after the kernel remounts
  a failing card read-only (a real remount is refused while the app holds the file open for writing).
- locked: a second SQLite connection holds the write lock, as another program on the file would.
"""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.session import Session
from app.ui.i18n import translator
from app.ui.widgets import Tile
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness, make_context

NOTICES = {
    "full": "The memory card is full",
    "read_only": "The memory card cannot be written just now",
    "locked": "Another program holds the saved games",
}


def mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True, check=False).returncode == 0


@pytest.fixture
def card(tmp_path: Path) -> Iterator[Path]:
    """A 4 MB memory card of its own, mounted at tmp_path/card."""
    folder = tmp_path / "card"
    folder.mkdir()
    if not mount("-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)):
        pytest.skip("mounting a tmpfs needs root")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Write a file until the file system has not one page left."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as handle:
        for chunk in (65536, 4096, 1):
            try:
                while True:
                    handle.write(b"\0" * chunk)
            except OSError:
                pass
    return filler


def stored_events(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as other:
        return other.execute("SELECT COUNT(*) FROM events").fetchone()[0]


def snapshot(ui: UiHarness) -> tuple[object, ...]:
    session = ui.app.session
    return session.game_id, session.state.to_json(), session.actions, stored_events(session.journal.path)


def game_under_way(folder: Path) -> tuple[UiHarness, Path]:
    ui = UiHarness(make_context(folder))
    Table(ui).advance(lambda s: s.phase == "actions")
    return ui, folder / "windrose.db"


def reopen(ui: UiHarness, db: Path, connect: Callable[[Path], sqlite3.Connection]) -> None:
    """The same game, resumed through a connection the fault applies to."""
    ui.app.context.session.close()
    ui.app.context.session = Session.open(db, connect=connect)
    assert ui.app.session.resume_last()
    ui.app.go("game")
    ui.idle()


def tap_every_journal_action(ui: UiHarness, expected: str) -> None:
    """End of turn, Undo, Go back, Start the game: each refused in words, the game unchanged."""
    before = snapshot(ui)
    ui.tap(ui.tagged("action", "end_turn"))
    assert ui.app.manager.current == "game" and expected in ui.app.notice.text
    assert snapshot(ui) == before
    ui.tap_text("Undo")
    assert expected in ui.app.notice.text and snapshot(ui) == before
    ui.tap_text("History")
    ui.tap(ui.buttons("Go back to here")[0])
    assert ui.app.manager.current == "game" and expected in ui.app.notice.text
    assert snapshot(ui) == before
    ui.tap_text("Menu")
    ui.tap_text("New game")
    ui.tap(ui.tagged("game", "macao"))
    ui.tap(ui.tagged("seat", "yellow"))
    ui.tap(ui.tagged("seat", "brown"))
    ui.tap_text("Start the game")
    assert expected in ui.app.notice.text and snapshot(ui) == before
    assert len(ui.app.session.games()) == 1


def test_a_full_card_refuses_every_tap_in_words_and_keeps_the_game(card: Path) -> None:
    ui, db = game_under_way(card)
    try:
        filler = fill(card)
        tap_every_journal_action(ui, NOTICES["full"])
        before = snapshot(ui)
        ui.tap_text("Back")  # to the choice of game
        ui.tap_text("Back")
        ui.tap_text("Past games")
        ui.tap(next(w for w in ui.walk() if isinstance(w, Tile)))
        ui.tap_text("Export")
        assert "Export failed: No space left on device" in ui.app.notice.text
        ui.app.go("settings")
        ui.idle()
        ui.tap_text("Deutsch")  # the language changes at once; only saving the choice fails
        assert translator.language == "de"
        assert "Die Speicherkarte ist voll" in ui.app.notice.text
        assert "Die Speicherkarte ist voll" in " ".join(ui.labels())
        ui.tap_text("English")
        assert snapshot(ui) == before
        # Space again: the same taps work, nothing was lost meanwhile.
        filler.unlink()
        ui.app.go("game")
        ui.idle()
        ui.tap(ui.tagged("action", "end_turn"))
        assert ui.app.notice.level != "error"
        assert stored_events(db) == before[3] + 1
    finally:
        ui.close()


def test_a_read_only_journal_refuses_every_tap_in_words(tmp_path: Path) -> None:
    ui, db = game_under_way(tmp_path)
    try:
        reopen(ui, db, lambda path: sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None))
        tap_every_journal_action(ui, NOTICES["read_only"])
    finally:
        ui.close()


def test_a_locked_journal_refuses_every_tap_in_words(tmp_path: Path) -> None:
    ui, db = game_under_way(tmp_path)
    holder = sqlite3.connect(db, isolation_level=None)
    try:  # the journal as the app opens it: a tap waits for the lock a moment, then tells
        holder.execute("BEGIN IMMEDIATE")  # another program writing
        tap_every_journal_action(ui, NOTICES["locked"])
        holder.execute("ROLLBACK")
        ui.app.go("game")
        ui.idle()
        ui.tap(ui.tagged("action", "end_turn"))
        assert ui.app.notice.level != "error"
    finally:
        holder.close()
        ui.close()


def test_an_unexpected_error_in_kivys_loop_is_logged_shown_and_the_app_goes_on(
    ui: UiHarness, caplog: pytest.LogCaptureFixture
) -> None:
    from kivy.base import ExceptionManager

    Table(ui).advance(lambda s: s.phase == "actions")
    before = snapshot(ui)
    try:
        raise RuntimeError("a bug in a panel")
    except RuntimeError as bug:
        assert ui.app.last_resort.handle_exception(bug) == ExceptionManager.PASS
    assert ui.app.manager.current == "start"
    assert ui.app.notice.text.startswith("Something went wrong (a bug in a panel).")
    [logged] = [r for r in caplog.records if r.getMessage() == "unexpected error, the app carries on"]
    assert logged.exc_info is not None and "a bug in a panel" in str(logged.exc_info[1])
    assert snapshot(ui) == before
    assert ui.app.last_resort.handle_exception(KeyboardInterrupt()) == ExceptionManager.RAISE


def test_a_file_written_after_a_saved_action_says_the_game_is_saved(tmp_path: Path) -> None:
    """The card list is written after the reveal is committed: its failure must not claim the
    reveal was lost. The fault is real: the card list's folder is a plain file (ENOTDIR)."""
    from app.ui.macao.catalogue import CardCatalogue
    from tests.ui.tap_player import TapPlayer

    (tmp_path / "blocked").write_text("not a folder", encoding="utf-8")
    context = make_context(tmp_path)
    context.catalogue = CardCatalogue(tmp_path / "blocked" / "cards.json")
    ui = UiHarness(context)
    ui.app.context.settings.check_costs = True  # cards typed whole, as the card list learns them
    try:
        Table(ui).advance(lambda s: s.phase == "reveal")
        before = len(ui.app.session.actions)
        panel = ui.app.manager.get_screen("game").current_panel()
        panel.slots[0].name = "Harbour master"
        TapPlayer(ui, seed=1).enter_cards([{"name": "", "kind": "office", "cost": ["red"], "tribute": [1, 1]}] * 6)
        assert len(ui.app.session.actions) == before + 1  # the reveal is saved
        assert ui.app.notice.text.startswith("The game is saved, but a file beside it could not be written (")
    finally:
        ui.close()
