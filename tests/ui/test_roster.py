"""The roster, rematch and statistics by name, from the stored games of every registered game."""

from __future__ import annotations

from pathlib import Path

from app.games import read_document
from app.games.macao import dump_record
from app.games.macao.simulate import random_record
from app.ui.roster import RosterEntry, rematch_header, roster
from tests.ui.harness import UiHarness

VOYAGE = Path(__file__).resolve().parent.parent / "games" / "voyage" / "three_players.json"


def _store_finished_macao(ui: UiHarness, seed: int = 3) -> int:
    return ui.app.session.import_document(*read_document(dump_record(random_record(seed=seed, players=2))))


def _store_finished_voyage(ui: UiHarness) -> int:
    return ui.app.session.import_document(*read_document(VOYAGE.read_text(encoding="utf-8")))


def test_the_roster_counts_games_and_wins_by_name_and_skips_unnamed_seats(ui: UiHarness) -> None:
    session = ui.app.session
    record = random_record(seed=3, players=2)
    _store_finished_macao(ui)
    winner = next(p["name"] for p in record.players if p["colour"] == session.score().winner)
    session.new_game("macao", {"started": "2026-11-30T19:00:00+01:00", "wall": ["white", "yellow"],
                               "players": [{"colour": "yellow", "name": "Gelb"}, {"colour": "white", "name": "Dora"}]})
    entries = {entry.name: entry for entry in roster(session)}
    assert set(entries) == {p["name"] for p in record.players} | {"Dora"}  # "Gelb" is yellow's German name
    assert entries["Dora"] == RosterEntry("Dora", "white", 1, 0)
    assert entries[winner].wins == 1 and entries[winner].games == 1
    assert list(entries)[0] == "Dora"  # the latest game's names first


def test_a_name_typed_in_another_case_is_the_same_player(ui: UiHarness) -> None:
    session = ui.app.session
    for started, name in (("2026-11-30T19:00:00+01:00", "dora"), ("2026-12-01T19:00:00+01:00", "Dora")):
        session.new_game("macao", {"started": started, "wall": ["white", "yellow"],
                                   "players": [{"colour": "yellow", "name": "Emil"}, {"colour": "white", "name": name}]})
    entries = roster(session)
    assert [(entry.name, entry.games) for entry in entries] == [("Emil", 2), ("Dora", 2)]


def test_a_roster_name_seats_a_player_in_one_tap_in_their_colour(ui: UiHarness) -> None:
    record = random_record(seed=3, players=2)
    _store_finished_macao(ui)
    ui.app.go("start")
    ui.idle()
    ui.tap_text("New game")
    ui.tap(ui.tagged("game", "macao"))
    first, second = record.players
    taps = ui.taps
    ui.tap(ui.tagged("roster", first["name"]))
    assert ui.taps - taps == 1
    screen = ui.app.manager.current_screen
    assert (screen.seated, screen.names) == ([first["colour"]], {first["colour"]: first["name"]})
    assert not [w for w in ui.walk() if getattr(w, "tag", None) == ("roster", first["name"])]  # seated: gone
    ui.tap(ui.tagged("roster", second["name"]))
    ui.tap_text("Start the game")
    header = ui.app.session.document().header
    assert sorted((p["colour"], p["name"]) for p in header["players"]) == \
        sorted((p["colour"], p["name"]) for p in record.players)


def test_rematch_from_the_score_screen_is_one_tap_with_the_same_players_and_seats(ui: UiHarness) -> None:
    old_id = _store_finished_macao(ui)
    ui.app.go("score")
    ui.idle()
    old_header = ui.app.session.journal.game(old_id).header
    taps = ui.taps
    ui.tap(ui.tagged("rematch", ""))
    assert ui.taps - taps == 1
    session = ui.app.session
    assert ui.app.manager.current == "game"
    assert session.game_id != old_id and session.actions == []
    new_header = session.document().header
    assert (new_header["players"], new_header["wall"]) == (old_header["players"], old_header["wall"])
    assert ui.app.notice.text.startswith("Rematch: ")


def test_rematch_of_a_score_sheet_game_from_past_games(ui: UiHarness) -> None:
    old_id = _store_finished_voyage(ui)
    ui.app.go("past_game", game_id=old_id)
    ui.idle()
    ui.tap(ui.tagged("rematch", ""))
    header = ui.app.session.document().header
    assert ui.app.session.game.id == "voyage"
    assert [p["name"] for p in header["players"]] == ["Ann", "Ben", "Cy"]
    assert "rounds" not in str(header["players"])  # the set-up only, none of the old game's entries


def test_rematch_header_keeps_the_set_up_and_takes_the_new_start() -> None:
    header = {"format": "x/1", "started": "old", "players": [{"name": "Ann"}], "wall": ["a"], "actions": [1]}
    assert rematch_header(header, "new") == {"format": "x/1", "started": "new", "players": [{"name": "Ann"}],
                                             "wall": ["a"]}


def test_statistics_by_name_for_each_registered_game_and_all_together(ui: UiHarness) -> None:
    _store_finished_macao(ui, seed=3)
    _store_finished_voyage(ui)
    ui.app.go("past_games")
    ui.idle()
    chooser = ui.tagged("stats_game", "voyage")  # the latest game played comes first
    assert "Statistics over 1 finished game" in ui.labels()
    assert {"Ann", "Ben", "Cy"} <= set(ui.labels())
    ui.tap(chooser)
    ui.tap(ui.tagged("stats_game", "macao"))  # after the games played: all of them together
    assert "Statistics over 2 finished games" in ui.labels()
    assert ui.tagged("stats_game", "*").text == "All games"
    assert "-" in ui.labels()  # no average across games whose scores do not add up
    ui.tap(ui.tagged("stats_game", "*"))
    assert ui.tagged("stats_game", "voyage")
