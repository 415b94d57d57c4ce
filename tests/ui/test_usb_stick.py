"""A USB stick by touch: Import lists the records on it, Export offers "To the stick <label>",
and a full stick is reported in words with nothing written (real tmpfs file systems)."""

from __future__ import annotations

from pathlib import Path

from app.games.macao import dump_record
from app.games.macao.simulate import random_record
from app.sticks import mounted_sticks
from tests.stick_mounts import mounted_stick
from tests.ui.harness import UiHarness


def _sticks_below(ui: UiHarness, media: Path) -> None:
    ui.app.context.find_sticks = lambda: mounted_sticks(roots=(media,))


def test_a_game_imported_from_a_stick_is_exported_back_to_it_by_one_tap(ui: UiHarness, tmp_path: Path) -> None:
    media = tmp_path / "media"
    with mounted_stick(media / "pi" / "GAMES") as stick:
        _sticks_below(ui, media)
        (stick / "evening.json").write_text(dump_record(random_record(seed=3, players=2)), encoding="utf-8")
        ui.tap_text("Past games")
        ui.tap_text("Import a game")
        assert "stick GAMES" in ui.labels()
        ui.tap(ui.tagged("record_file", "evening.json"))
        assert ui.app.manager.current == "score"
        game_id = ui.app.session.game_id

        taps = ui.taps
        ui.tap(ui.tagged("export", "GAMES"))
        assert ui.taps - taps == 1
        written = sorted(p.name for p in (stick / "windrose").iterdir())
        assert written == sorted(f"macao-{game_id}-202611291930{end}" for end in (".json", ".csv", ".bgstats.json"))
        assert ui.app.notice.text.startswith("Saved on the stick GAMES (folder windrose): ")
        assert not (ui.app.context.exports_dir).exists()  # the stick only

        ui.app.go("past_game", game_id=game_id)
        assert ui.tagged("export", "GAMES").text == "To the stick GAMES"


def test_a_full_stick_is_named_and_nothing_is_left_on_it(ui: UiHarness, tmp_path: Path) -> None:
    media = tmp_path / "media"
    record = dump_record(random_record(seed=3, players=2))
    with mounted_stick(media / "TINY", size_kb=len(record.encode()) // 1024 + 4) as stick:
        _sticks_below(ui, media)
        (stick / "game.json").write_text(record, encoding="utf-8")
        ui.tap_text("Past games")
        ui.tap_text("Import a game")
        ui.tap(ui.tagged("record_file", "game.json"))
        ui.tap(ui.tagged("export", "TINY"))
        assert ui.app.notice.level == "error"
        assert ui.app.notice.text == ("The stick TINY is full: nothing was written. "
                                      "Make room on it or use another stick.")
        assert list((stick / "windrose").iterdir()) == []
        assert ui.app.manager.current == "score"


def test_without_a_stick_export_offers_the_memory_card_only(ui: UiHarness, tmp_path: Path) -> None:
    _sticks_below(ui, tmp_path / "media")
    ui.app.context.exports_dir.mkdir(parents=True)
    (ui.app.context.exports_dir / "old.json").write_text(dump_record(random_record(seed=3, players=2)))
    ui.tap_text("Past games")
    ui.tap_text("Import a game")
    ui.tap(ui.tagged("record_file", "old.json"))
    assert [b.text for b in ui.buttons() if getattr(b, "tag", None) and b.tag[0] == "export"] == ["Export"]
