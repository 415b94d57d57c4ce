"""Exports, statistics, the card catalogue and the saved settings (no Kivy needed)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from app.games.base import Message, ScoreColumn, ScoreLine, ScoreTable
from app.ui.macao.catalogue import CardCatalogue, CatalogueError
from app.ui.exports import bgstats_json, export_game, inert_cell, scores_csv
from app.ui.settings_store import SettingsStore, UiSettings
from app.ui.stats import player_stats

COLUMNS = (ScoreColumn("card_points", Message("Cards")), ScoreColumn("city_points", Message("City")))
TABLE = ScoreTable("macao", COLUMNS, (
    ScoreLine("white", "=HYPERLINK(\"x\")", "white", (6, 6), 12, 1),
    ScoreLine("orange", "-Ann", "orange", (1, 4), 5, 2),
), "white")


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx"])
def test_formula_like_cells_are_made_inert(text: str) -> None:
    assert inert_cell(text) == "'" + text


def test_csv_has_a_row_per_player_and_no_live_formula() -> None:
    rows = list(csv.reader(io.StringIO(scores_csv("2026-11-29T19:30:00+01:00", TABLE))))
    assert rows[0] == ["started", "colour", "name", "card_points", "city_points", "total", "rank", "winner"]
    assert rows[1][2] == "'=HYPERLINK(\"x\")"
    assert rows[2][2] == "'-Ann"
    assert rows[1][-3:] == ["12", "1", "yes"]
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row)


def test_bgstats_play_names_players_scores_and_winner() -> None:
    document = json.loads(bgstats_json("Macao", "2026-11-29T19:30:00+01:00", TABLE, "orange"))
    play = document["plays"][0]
    assert play["playDate"] == "2026-11-29 19:30:00"
    assert document["games"][0]["name"] == "Macao"
    scores = {document["players"][s["playerRefId"] - 1]["name"]: s for s in play["playerScores"]}
    assert scores["-Ann"]["score"] == "5" and scores["-Ann"]["startPlayer"] is True
    assert scores["=HYPERLINK(\"x\")"]["winner"] is True


def test_export_writes_record_csv_and_bgstats(tmp_path: Path) -> None:
    written = export_game(tmp_path, "macao", "Macao", 7, "2026-11-29T19:30:00+01:00",
                          '{"format": "macao-record/1"}', TABLE, "orange")
    assert [p.name for p in written] == ["macao-7-202611291930.json", "macao-7-202611291930.csv",
                                         "macao-7-202611291930.bgstats.json"]
    unfinished = export_game(tmp_path / "b", "macao", "Macao", 8, "2026-11-29T19:30:00+01:00", "{}", None, None)
    assert [p.suffix for p in unfinished] == [".json"]


def test_statistics_per_player() -> None:
    second = ScoreTable("macao", COLUMNS, (ScoreLine("white", "Ben", "white", (0, 0), 20, 1),
                                           ScoreLine("orange", "-Ann", "orange", (0, 0), 9, 2)), "white")
    stats = {s.name: s for s in player_stats([TABLE, second])}
    assert (stats["-Ann"].games, stats["-Ann"].wins, stats["-Ann"].average, stats["-Ann"].best) == (2, 0, 7.0, 9)
    assert stats["Ben"].wins == 1


def test_catalogue_learns_named_cards_and_offers_the_most_seen_first(tmp_path: Path) -> None:
    catalogue = CardCatalogue(tmp_path / "cards.json")
    tower = {"name": "Tower", "kind": "building", "cost": ["red", "blue"], "tribute": [1, 0]}
    abbot = {"name": "Abbot", "kind": "person", "cost": ["gray"], "tribute": [0, 1], "effects": ["no_tableau_penalty"]}
    assert catalogue.learn([tower, abbot, abbot, {**tower, "name": " "}]) == 3
    catalogue.save()
    again = CardCatalogue(tmp_path / "cards.json")
    assert again.load() is None
    assert [c["name"] for c in again.cards(("building", "person"))] == ["Abbot", "Tower"]
    assert again.cards(("person",))[0]["effects"] == ["no_tableau_penalty"]
    assert again.cards(("office",)) == []


def test_a_broken_catalogue_file_is_reported_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    path.write_text('{"cards": [{"name": "X", "kind": "ship", "cost": ["red"], "tribute": [0, 0]}]}')
    warning = CardCatalogue(path).load()
    assert warning is not None and "cards.json: card 1: the kind must be" in str(warning)
    with pytest.raises(CatalogueError, match="cannot read"):
        CardCatalogue(path).merge_file(tmp_path / "missing.json")


def test_settings_survive_a_restart_and_bad_files_fall_back(tmp_path: Path) -> None:
    store = SettingsStore(tmp_path / "ui-settings.json")
    store.save(UiSettings(language="de", text_scale=1.2))
    loaded, warning = store.load(UiSettings())
    assert (loaded.language, loaded.text_scale, warning) == ("de", 1.2, None)
    store.path.write_text("[1, 2")
    loaded, warning = store.load(UiSettings())
    assert loaded == UiSettings() and warning is not None and "ui-settings.json" in warning
    store.path.write_text('{"language": "fr", "text_scale": 9}')
    loaded, _warning = store.load(UiSettings())
    assert (loaded.language, loaded.text_scale) == ("en", 1.0)


@pytest.mark.parametrize("text", [" =1+1", "\n=1", "\r+1", "\u3000-1", "\uff1d1+1", "\uff0bx", "\uff20A1", "  \uff0d1"])
def test_blanks_line_breaks_and_full_width_signs_do_not_hide_a_formula(text: str) -> None:
    assert inert_cell(text) == "'" + text


@pytest.mark.parametrize("name", ["Ann\rBen", "Ann\nBen", "\nAnn", " Ann", "Ann\r\n"])
def test_a_name_with_a_line_break_keeps_its_row_whole(name: str) -> None:
    table = ScoreTable("macao", COLUMNS, (ScoreLine("white", name, "white", (1, 0), 1, 1),), "white")
    text = scores_csv("2026-11-29T19:30:00+01:00", table)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert len(rows) == 2 and len(rows[1]) == len(rows[0])
    assert rows[1][2].lstrip("'") == name
    assert text.count("\r\n") == 2 + name.count("\r\n")  # a line break outside quotes ends a row, no other
