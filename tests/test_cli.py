"""`python -m app`: score, check, import, export; exit codes, JSON shape, clear errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main, wants_ui
from app.games.macao import Record, dump_record, replay, score
from app.games.macao.simulate import random_record
from app.journal import Journal

REPO = Path(__file__).resolve().parent.parent
GOLDEN = sorted(path for path in (REPO / "tests" / "records").glob("*.json") if ".expected" not in path.name)
SCORE_KEYS = {"colour", "name", "prestige", "card_points", "city_points", "punish_markers", "total", "rank"}


def run_app(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The real entry point in a fresh interpreter, as a user would start it."""
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture(scope="module")
def record() -> Record:
    return random_record(seed=3, players=3)


@pytest.fixture
def record_file(tmp_path: Path, record: Record) -> Path:
    path = tmp_path / "game.json"
    path.write_text(dump_record(record), encoding="utf-8")
    return path


def broken_record(record: Record, tmp_path: Path) -> tuple[Path, int]:
    """The record with one choose_dice given by the wrong player; returns the file and index."""
    doc = record.to_json()
    index = next(i for i, a in enumerate(doc["actions"]) if a["type"] == "choose_dice")
    others = [p["colour"] for p in doc["players"] if p["colour"] != doc["actions"][index]["player"]]
    doc["actions"][index]["player"] = others[0]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path, index


def test_score_prints_the_documented_json(record_file: Path, record: Record) -> None:
    result = run_app("score", str(record_file))
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert set(document) == {"players", "winner"}
    assert all(set(row) == SCORE_KEYS for row in document["players"])
    assert sorted(row["rank"] for row in document["players"]) == [1, 2, 3]
    assert document == score(replay(record)).to_json()
    assert document["winner"] == document["players"][0]["colour"]


@pytest.mark.parametrize("golden", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_score_of_each_golden_record_matches_its_expected_file(golden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = golden.with_name(golden.stem + ".expected.json")
    assert main(["score", str(golden)]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(expected.read_text(encoding="utf-8"))


def test_golden_records_exist() -> None:
    assert GOLDEN, "tests/records holds no golden records"


def test_an_invalid_record_exits_2_naming_the_action(record: Record, tmp_path: Path) -> None:
    path, index = broken_record(record, tmp_path)
    result = run_app("score", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert f"action {index} (choose_dice" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "no such file"),
        (b"{\"format\": ", "not valid JSON"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b"[1, 2, 3]", "not a valid game record"),
        (b'{"format": "macao-record/1", "players": [], "wall": [], "actions": []}', "players"),
    ],
    ids=["missing", "truncated", "binary", "not-an-object", "no-players"],
)
def test_malformed_files_get_a_one_line_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, expected: str
) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_bytes(content)
    for command in ("score", "check", "import"):
        argv = [command, str(path)] + (["--db", str(tmp_path / "w.db")] if command == "import" else [])
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert expected in err and str(path) in err and "Traceback" not in err
    assert not (tmp_path / "w.db").exists()


def test_an_unfinished_record_cannot_be_scored(record: Record, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "half.json"
    path.write_text(dump_record(Record(record.players, record.wall, record.actions[:60])), encoding="utf-8")
    assert main(["score", str(path)]) == 2
    assert "not finished" in capsys.readouterr().err


def test_check_prints_every_round_for_every_player(record_file: Path, record: Record) -> None:
    result = run_app("check", str(record_file))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines if line.startswith("round ")] == [f"round {r}" for r in range(1, 13)]
    for player in record.players:
        rows = [line for line in lines if line.strip().startswith(f"{player['name']} ({player['colour']})")]
        assert len(rows) == 12
        assert all(key in rows[0] for key in ("gold", "prestige", "punish", "wall space", "supply"))
    assert sum("windrose 1:" in line for line in lines) == 12 * len(record.players)
    assert lines[-1] == f"valid: {len(record.actions)} actions; now round 13, phase over"


def test_check_json_and_an_invalid_record(record: Record, record_file: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--json", str(record_file)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["rounds"]) == 12 and report["phase"] == "over"
    first = report["rounds"][0]["players"][0]
    assert {"windrose", "supply", "gold", "prestige", "punish", "wall"} <= set(first)
    path, index = broken_record(record, tmp_path)
    assert main(["check", str(path)]) == 2
    assert f"action {index}" in capsys.readouterr().err


def test_import_then_export_gives_the_record_back(record_file: Path, record: Record, tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    first = run_app("import", str(record_file), "--db", str(db))
    second = run_app("import", str(record_file), "--db", str(db))
    assert (first.returncode, first.stdout, second.stdout) == (0, "1\n", "2\n")
    out = tmp_path / "back.json"
    exported = run_app("export", "--db", str(db), "--game", "1", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    assert out.read_text(encoding="utf-8") == record_file.read_text(encoding="utf-8")
    last = run_app("export", "--db", str(db))
    assert json.loads(last.stdout) == record.to_json()
    with Journal.open(db) as journal:
        events = journal.events(2)
        assert [e.payload for e in events] == record.actions and {e.kind for e in events} == {"action"}
        assert journal.game(2).finished


def test_import_refuses_an_invalid_record_before_storing_anything(
    record: Record, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, index = broken_record(record, tmp_path)
    db = tmp_path / "journal.db"
    assert main(["import", str(path), "--db", str(db)]) == 2
    assert f"action {index}" in capsys.readouterr().err
    with Journal.open(db) as journal:
        assert journal.games() == []


def test_export_errors(tmp_path: Path, record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "journal.db"
    assert main(["export", "--db", str(db)]) == 2
    assert "holds no games" in capsys.readouterr().err
    assert main(["import", str(record_file), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["export", "--db", str(db), "--game", "7"]) == 2
    assert "no game 7" in capsys.readouterr().err
    assert main(["export", "--db", str(db), "--game", "first"]) == 2
    assert "game id or 'last'" in capsys.readouterr().err


def test_a_damaged_database_is_set_aside_with_a_note(
    tmp_path: Path, record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "journal.db"
    db.write_bytes(b"not sqlite at all " * 300)
    assert main(["import", str(record_file), "--db", str(db)]) == 0
    err = capsys.readouterr().err
    assert "note: The saved games file could not be used" in err and "not a SQLite database" in err
    [kept] = tmp_path.glob("journal.db.damaged-*")
    assert kept.read_bytes() == b"not sqlite at all " * 300  # kept, byte for byte
    with Journal.open(db) as journal:
        assert len(journal.games()) == 1


def test_an_unopenable_database_exits_3(tmp_path: Path, record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(record_file), "--db", str(tmp_path)]) == 3
    assert "cannot open the game journal" in capsys.readouterr().err


def test_the_database_path_comes_from_the_settings_file(tmp_path: Path, record_file: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "from-settings.db"
    settings = tmp_path / "settings.toml"
    settings.write_text(f'[journal]\ndb_path = "{db}"\n', encoding="utf-8")
    assert main(["--config", str(settings), "import", str(record_file)]) == 0
    assert capsys.readouterr().out == "1\n"
    with Journal.open(db) as journal:
        assert len(journal.games()) == 1
    assert main(["--config", str(tmp_path / "absent.toml"), "export"]) == 2
    assert "absent.toml" in capsys.readouterr().err


def test_usage_errors_exit_2_without_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score"]) == 2
    assert main(["export", "--bogus"]) == 2
    err = capsys.readouterr().err
    assert "usage:" in err and "Traceback" not in err


def test_which_arguments_start_the_touchscreen_app() -> None:
    assert wants_ui([])
    assert wants_ui(["--screenshot-tour", "out/tour"])
    assert wants_ui(["--screenshot-tour", "check"])  # a folder named "check"
    assert wants_ui(["--config", "score"])  # "score" is the settings file here, not a command
    assert not wants_ui(["--config", "x.toml", "score", "r.json"])
    assert not wants_ui(["--help"])


PROBE = """
import importlib, runpy, sys
if sys.argv[1] == "--preload":
    importlib.import_module(sys.argv[2])
    del sys.argv[1:3]
sys.argv = ["app", *sys.argv[1:]]
try:
    runpy.run_module("app", run_name="__main__")
except SystemExit as done:
    code = done.code
heavy = sorted({m for m in sys.modules if m in {"kivy", "cv2", "numpy"} or m == "app.ui"})
print(f"EXIT {code} HEAVY [{','.join(heavy)}]", file=sys.stderr)
"""


def probe(*args: str) -> str:
    """Run `python -m app ARGS` in a fresh interpreter; report its exit code and heavy modules."""
    result = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=REPO, capture_output=True, text=True,
                            timeout=60)
    return result.stderr.strip().splitlines()[-1]


def test_command_line_paths_import_no_kivy_or_opencv(record_file: Path, tmp_path: Path) -> None:
    # The probe itself sees a heavy module when one is loaded.
    assert probe("--preload", "numpy", "score", str(record_file)) == "EXIT 0 HEAVY [numpy]"
    db = tmp_path / "journal.db"
    for args in (
        ["score", str(record_file)],
        ["check", str(record_file)],
        ["import", str(record_file), "--db", str(db)],
        ["export", "--db", str(db)],
    ):
        assert probe(*args) == "EXIT 0 HEAVY []", args


def test_finding_the_database_through_the_settings_imports_no_opencv(tmp_path: Path, record_file: Path) -> None:
    settings = tmp_path / "settings.toml"
    settings.write_text(f'[journal]\ndb_path = "{tmp_path / "journal.db"}"\n', encoding="utf-8")
    assert probe("--config", str(settings), "import", str(record_file)) == "EXIT 0 HEAVY []"
