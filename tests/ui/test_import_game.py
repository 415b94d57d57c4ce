"""Importing a game by touch: a record file in the exports or backups folder becomes a stored game."""

from __future__ import annotations

import json

from app.games.macao import dump_record
from app.games.macao.simulate import random_record
from tests.ui.harness import UiHarness


def test_a_record_file_is_imported_by_one_tap_and_a_bad_one_refused(ui: UiHarness) -> None:
    exports = ui.app.context.exports_dir
    exports.mkdir(parents=True)
    record = random_record(seed=3, players=2)
    (exports / "finished.json").write_text(dump_record(record), encoding="utf-8")
    broken = record.to_json()  # one choose_dice given by the wrong player: the rules refuse it
    index = next(i for i, action in enumerate(broken["actions"]) if action["type"] == "choose_dice")
    broken["actions"][index]["player"] = next(p["colour"] for p in broken["players"]
                                              if p["colour"] != broken["actions"][index]["player"])
    (exports / "broken.json").write_text(json.dumps(broken), encoding="utf-8")
    (exports / "1-x.bgstats.json").write_text("{}", encoding="utf-8")  # not a record: not listed

    ui.tap_text("Past games")
    ui.tap_text("Import a game")
    assert ui.app.manager.current == "import_game"
    assert {text for text in ui.labels() if text.endswith(".json")} == {"finished.json", "broken.json"}
    ui.tap(ui.tagged("record_file", "broken.json"))
    assert any(text.startswith("broken.json was not imported: ") for text in ui.labels())
    assert ui.app.session.journal.games() == []

    ui.tap(ui.tagged("record_file", "finished.json"))
    assert ui.app.manager.current == "score"
    assert ui.app.session.actions == record.actions
    assert ui.app.notice.text == f"finished.json is stored as game {ui.app.session.game_id}."
