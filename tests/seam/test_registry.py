"""The game registry and the Game interface, checked on every registered game and on Macao."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.games import GAMES, UnknownGame, all_games, game, game_for_format, read_document
from app.games.base import Game, GameDocument, Message, RecordError, RulesError, ScoreTable
from tests.games.golden import RECORDS

ROOT = Path(__file__).resolve().parents[2]
FOUR = (RECORDS / "four_players.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_each_registered_game_is_a_game_under_its_own_id(game_id: str) -> None:
    found = game(game_id)
    assert isinstance(found, Game)
    assert found.id == game_id
    assert isinstance(found.title, Message) and found.title.render()
    assert 1 <= found.min_players <= found.max_players
    assert found.formats


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_registry_line_names_the_formats_the_game_reads(game_id: str) -> None:
    assert GAMES[game_id].formats == game(game_id).formats


@pytest.mark.parametrize("game_id", list(GAMES))
def test_reading_a_games_file_imports_that_game_alone(game_id: str) -> None:
    """The registry finds a file's game by format without importing the other games (a fresh
    interpreter, as `python -m app score FILE` starts)."""
    script = (
        "import json, sys\n"
        "from app.games import game_for_format\n"
        f"assert game_for_format({{'format': {GAMES[game_id].formats[0]!r}}}).id == {game_id!r}\n"
        "print(sorted({m.split('.')[2] for m in sys.modules if m.count('.') >= 2 and m.startswith('app.games.')}"
        " - {'base'}))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == repr([game_id])


def test_no_two_games_read_the_same_format() -> None:
    formats = [fmt for found in all_games() for fmt in found.formats]
    assert len(formats) == len(set(formats))


def test_an_unknown_game_id_is_refused() -> None:
    with pytest.raises(UnknownGame, match="chess"):
        game("chess")


@pytest.mark.parametrize(
    ("document", "where", "words"),
    [
        ([1, 2], "record", "expected a JSON object"),
        ({"players": []}, "format", "missing"),
        ({"format": "chess-record/1"}, "format", "chess-record/1"),
    ],
)
def test_a_document_no_game_reads_is_refused_at_format(document: object, where: str, words: str) -> None:
    with pytest.raises(RecordError) as caught:
        game_for_format(document)
    assert caught.value.where == where and words in str(caught.value)


def test_a_record_finds_its_game_by_format_and_round_trips() -> None:
    found, document = read_document(FOUR)
    assert found.id == "macao"
    assert found.write(document) == FOUR
    assert len(document.actions) == len(json.loads(FOUR)["actions"])


def test_text_that_is_no_json_names_the_line() -> None:
    with pytest.raises(RecordError) as caught:
        read_document('{"format": ')
    assert caught.value.where.startswith("line 1")


def test_macao_score_table_matches_its_own_score_document() -> None:
    found, document = read_document(FOUR)
    state = found.replay(document)
    progress = found.progress(state)
    assert progress.finished and progress.phase == "over"
    table = found.score(state)
    assert isinstance(table, ScoreTable)
    printed = found.score_document(state)
    assert [line.player for line in table.lines] == [row["colour"] for row in printed["players"]]
    assert [line.total for line in table.lines] == [row["total"] for row in printed["players"]]
    assert [line.rank for line in table.lines] == [1, 2, 3, 4]
    assert table.winner == printed["winner"]
    for line, row in zip(table.lines, printed["players"]):
        assert table.part(line, "card_points") == row["card_points"]
        assert table.part(line, "punish_markers") == row["punish_markers"]


def test_apply_is_pure_and_refuses_with_a_message() -> None:
    found, document = read_document(FOUR)
    start = found.new_state(document.header)
    before = json.dumps(start.to_json(), sort_keys=True)
    with pytest.raises(RulesError) as caught:
        found.apply(start, {"type": "end_turn", "player": "orange"})
    assert isinstance(caught.value.message, Message)
    assert json.dumps(start.to_json(), sort_keys=True) == before
    after = found.apply(start, document.actions[0])
    assert json.dumps(start.to_json(), sort_keys=True) == before and after is not start
    assert "Abbot" in found.describe(start, document.actions[0], after).render()


def test_replay_names_the_refused_action() -> None:
    found, document = read_document(FOUR)
    broken = GameDocument(document.header, [document.actions[0], {"type": "end_turn", "player": "orange"}])
    with pytest.raises(RulesError) as caught:
        found.replay(broken)
    assert caught.value.action_index == 1


def test_a_bad_header_is_refused_with_the_path() -> None:
    found, document = read_document(FOUR)
    header = {**document.header, "players": [{"colour": "orange", "name": ""}, *document.header["players"][1:]]}
    with pytest.raises(RecordError) as caught:
        found.new_state(header)
    assert caught.value.where == "players[0].name"


def test_seats_name_the_players_in_order() -> None:
    found, document = read_document(FOUR)
    seats = found.seats(document.header)
    assert [(s.id, s.name) for s in seats] == [(p["colour"], p["name"]) for p in document.header["players"]]
