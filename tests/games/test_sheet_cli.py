"""`python -m app score|import|export` on the score sheets, run as a table's machine would run it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.games.sheet_checks import golden_pairs
from tests.test_cli import run_app

HERE = Path(__file__).parent
SHEET_GAMES = ("guild_columns", "shadows", "voyage", "marcopolo2")
WORKED = [pair for name in SHEET_GAMES for pair in golden_pairs(HERE / name)]


@pytest.mark.parametrize(("sheet", "expected"), WORKED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_score_prints_the_spec_json_for_each_worked_example(sheet: Path, expected: Path) -> None:
    done = run_app("score", str(sheet))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(expected.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("game", "change", "where"),
    [
        ("guild_columns", lambda d: d["players"][1]["columns"].append(19), "players[1].columns[2]"),
        ("shadows", lambda d: d["players"][0].update(gang=[1] * 8), "players[0].gang"),
        ("voyage", lambda d: d["players"][2]["rounds"][0].update(goods_left="3"), "players[2].rounds[0].goods_left"),
        ("marcopolo2", lambda d: d["players"][1].update(colour="white"), "players[1].colour"),
    ],
)
def test_a_bad_sheet_exits_2_naming_the_path_without_a_traceback(tmp_path: Path, game: str, change: object,
                                                                  where: str) -> None:
    doc = json.loads((HERE / game / "three_players.json").read_text(encoding="utf-8"))
    change(doc)  # type: ignore[operator]
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(doc), encoding="utf-8")
    done = run_app("score", str(sheet))
    assert done.returncode == 2
    assert where in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("game", SHEET_GAMES)
def test_a_sheet_imported_into_the_journal_exports_unchanged(tmp_path: Path, game: str) -> None:
    sheet = HERE / game / "three_players.json"
    doc = json.loads(sheet.read_text(encoding="utf-8"))
    doc["players"][0]["seat"] = "by the window"  # a field the format does not know
    source = tmp_path / "in.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    database = str(tmp_path / "windrose.db")
    imported = run_app("import", str(source), "--db", database)
    assert imported.returncode == 0, imported.stderr
    exported = run_app("export", "--db", database, "--out", str(tmp_path / "out.json"))
    assert exported.returncode == 0, exported.stderr
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8")) == doc
