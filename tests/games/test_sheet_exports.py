"""Exports of a finished sheet game through the shell's export code: sheet JSON, CSV, BG Stats."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from app.games import read_document
from app.ui.exports import export_game

HERE = Path(__file__).parent
STARTED = "2026-12-05T20:15:00+01:00"


@pytest.mark.parametrize(
    ("sheet", "columns", "winner"),
    [
        ("guild_columns/four_players.json", ["scoring_columns", "seat", *(f"column_{n}" for n in range(1, 7))], "Dee"),
        ("shadows/tie_gang.json", ["gang", "establishments", "establishments_opened", "gang_members"], "Ben"),
        ("voyage/three_players.json", ["chests", "coins"], "Cy"),
        ("marcopolo2/three_players.json",
         ["vp_track", "guild_seals_vp", "shields_vp", "goods", "coins", "contracts", "camels"], "Cy"),
    ],
)
def test_a_finished_sheet_exports_its_file_scores_and_bg_stats_play(tmp_path: Path, sheet: str, columns: list[str],
                                                                    winner: str) -> None:
    text = (HERE / sheet).read_text(encoding="utf-8")
    rules, document = read_document(text)
    table = rules.score(rules.replay(document))
    written = export_game(tmp_path, rules.id, rules.title.render(), 7, STARTED, rules.write(document), table, None)
    stem = f"{rules.id}-7-202612052015"
    assert [p.name for p in written] == [stem + ext for ext in (".json", ".csv", ".bgstats.json")]
    assert json.loads(written[0].read_text(encoding="utf-8")) == json.loads(text)
    rows = list(csv.DictReader(written[1].read_text(encoding="utf-8").splitlines()))
    assert list(rows[0])[3:-3] == columns
    assert [r["name"] for r in rows if r["winner"] == "yes"] == [winner]
    play = json.loads(written[2].read_text(encoding="utf-8"))
    assert play["games"][0]["name"] == rules.title.render()
    scores = play["plays"][0]["playerScores"]
    assert [s["winner"] for s in scores].count(True) == 1
