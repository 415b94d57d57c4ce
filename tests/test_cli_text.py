"""`python -m app score|check|import` with awkward text and awkward files: a clear line, never a traceback.

Names in any script must print on a console that is not UTF-8 (the output is
escaped, and JSON stays JSON); text the reader refuses is named with where;
a record file's size is judged before it is read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.games.macao import dump_record, load_record, replay
from app.games.macao.record import MAX_RECORD_BYTES
from app.games.macao.simulate import random_record

REPO = Path(__file__).resolve().parent.parent


def run_app(*args: str, encoding: str) -> subprocess.CompletedProcess[bytes]:
    """The real entry point in a fresh interpreter whose console speaks `encoding`."""
    env = {**os.environ, "PYTHONIOENCODING": encoding, "PYTHONUTF8": "0", "LC_ALL": "C"}
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=REPO, capture_output=True, timeout=60, env=env)


@pytest.fixture(scope="module")
def named_record_text() -> str:
    """A finished 2-player game whose players have names outside ASCII."""
    record = random_record(seed=5, players=2)
    record.players[0]["name"] = "Jörg"
    record.players[1]["name"] = "李"
    return dump_record(record)


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "utf-8"])
def test_score_prints_valid_json_on_any_console(tmp_path: Path, named_record_text: str, encoding: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(named_record_text, encoding="utf-8")
    result = run_app("score", str(path), encoding=encoding)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    scores = json.loads(result.stdout.decode(encoding))
    assert {row["name"] for row in scores["players"]} == {"Jörg", "李"}


def test_check_and_import_print_on_an_ascii_console(tmp_path: Path, named_record_text: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(named_record_text, encoding="utf-8")
    checked = run_app("check", str(path), encoding="ascii")
    assert checked.returncode == 0, checked.stderr.decode(errors="replace")
    text = checked.stdout.decode("ascii")
    assert "J\\xf6rg (" in text and "\\u674e (" in text and text.rstrip().endswith("phase over")
    assert json.loads(run_app("check", "--json", str(path), encoding="ascii").stdout.decode("ascii"))["phase"] == "over"
    imported = run_app("import", str(path), "--db", str(tmp_path / "w.db"), encoding="ascii")
    assert imported.returncode == 0, imported.stderr.decode(errors="replace")
    assert int(imported.stdout) >= 1
    exported = run_app("export", "--db", str(tmp_path / "w.db"), encoding="ascii")
    assert exported.returncode == 0 and json.loads(exported.stdout.decode("ascii")) == json.loads(named_record_text)


@pytest.mark.parametrize("encoding", ["ascii", "utf-8"])
@pytest.mark.parametrize(("name", "why"), [("\\ud800", "lone surrogate"), ("Ann\\u202e", "writing direction")])
def test_a_broken_name_is_refused_in_words(tmp_path: Path, named_record_text: str, encoding: str, name: str,
                                           why: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(named_record_text.replace('"Jörg"', f'"{name}"'), encoding="utf-8")
    for command in ("score", "check", "import"):
        extra = ["--db", str(tmp_path / "w.db")] if command == "import" else []
        result = run_app(command, str(path), *extra, encoding=encoding)
        err = result.stderr.decode(encoding)
        assert result.returncode == 2 and result.stdout == b""
        assert "players[0].name" in err and why in err and "Traceback" not in err
    assert not (tmp_path / "w.db").exists()


def test_a_byte_order_mark_is_accepted(tmp_path: Path, named_record_text: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + named_record_text.encode("utf-8"))
    assert main(["score", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["winner"]


def test_the_size_is_judged_before_the_file_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.json"
    path.write_bytes(b"\xff" * (MAX_RECORD_BYTES + 1))  # read whole, it would fail as "not UTF-8"
    for command in ("score", "check"):
        assert main([command, str(path)]) == 2
        err = capsys.readouterr().err
        assert str(path) in err and "at most 5 MB" in err and "UTF-8" not in err


def test_an_endless_file_is_read_no_further_than_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    assert main(["check", "/dev/zero"]) == 2
    assert "at most 5 MB" in capsys.readouterr().err


def test_a_record_with_a_byte_order_mark_replays_like_one_without(named_record_text: str) -> None:
    plain = load_record(named_record_text)
    for marked in ("\ufeff" + named_record_text, b"\xef\xbb\xbf" + named_record_text.encode("utf-8")):
        assert replay(load_record(marked)).to_json() == replay(plain).to_json()
