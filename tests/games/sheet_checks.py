"""What every score-sheet game's tests check the same way: golden sheets and keeping unknown fields."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from app.games import game, read_document
from app.games.base import Message, RulesError, SheetError, dump_sheet_json


def golden_pairs(folder: Path) -> list[tuple[Path, Path]]:
    """(sheet, expected output) for every worked example in a game's test folder."""
    pairs = [(folder / path.name.replace(".expected", ""), path) for path in sorted(folder.glob("*.expected.json"))]
    assert pairs, f"no worked examples in {folder}"
    return pairs


def assert_scores_as_expected(game: ModuleType, sheet: Path, expected: Path) -> None:
    result = game.score(game.parse_sheet(json.loads(sheet.read_text(encoding="utf-8"))))
    assert result.to_json() == json.loads(expected.read_text(encoding="utf-8"))


def assert_unknown_fields_kept(game: ModuleType, doc: dict[str, Any]) -> None:
    """Fields the format does not know, at the top and in a player, survive a read and a write."""
    doc = json.loads(json.dumps(doc))
    doc["table"] = {"place": "kitchen", "notes": ["rainy", 3]}
    doc["players"][0]["seat"] = "by the window"
    again = json.loads(dump_sheet_json(game.parse_sheet(json.loads(json.dumps(doc)))))
    assert again == doc


def assert_refused(game: ModuleType, doc: Any, where: str, words: str) -> None:
    """The sheet is refused at `where`, with `words` in the reason."""
    with pytest.raises(SheetError) as caught:
        game.parse_sheet(doc)
    assert caught.value.where == where
    assert words in str(caught.value.message)


def assert_action_refused(game: ModuleType, sheet: dict[str, Any], action: Any, where: str, words: str) -> None:
    """The action is refused at `where`, with `words` in the reason, and the sheet is left as it was."""
    before = json.dumps(sheet, sort_keys=True)
    with pytest.raises(SheetError) as caught:
        game.apply_action(sheet, action)
    assert caught.value.where == where
    assert words in str(caught.value.message)
    assert json.dumps(sheet, sort_keys=True) == before


def assert_game_reads_writes_and_scores(game_id: str, sheet: Path, expected: Path) -> None:
    """Through the registry and the Game interface: the file finds its game by format, comes
    back unchanged when written, replays to a finished game and scores as worked out."""
    text = sheet.read_text(encoding="utf-8")
    found, document = read_document(text)
    assert found.id == game_id and found is game(game_id)
    assert json.loads(found.write(document)) == json.loads(text)
    state = found.replay(document)
    assert found.progress(state).finished
    printed = found.score_document(state)
    assert printed == json.loads(expected.read_text(encoding="utf-8"))
    table = found.score(state)
    by_name = {row["name"]: row for row in printed["players"]}
    assert [line.rank for line in table.lines] == sorted(row["rank"] for row in printed["players"])
    assert all(line.total == by_name[line.name]["total"] for line in table.lines)
    assert all(len(line.parts) == len(table.columns) for line in table.lines)
    assert table.winner == printed["winner"]
    assert [seat.name for seat in found.seats(document.header)] == [row["name"] for row in printed["players"]]
    for before, action in zip(range(len(document.actions)), document.actions):
        earlier = found.replay(document, upto=before)
        assert found.describe(earlier, action, found.apply(earlier, action)).render()


def assert_game_refuses_without_changing(game_id: str, sheet: Path, action: dict[str, Any]) -> None:
    """A refused action raises RulesError with a Message and leaves the state as it was."""
    found, document = read_document(sheet.read_text(encoding="utf-8"))
    state = found.replay(document)
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(RulesError) as caught:
        found.apply(state, action)
    assert isinstance(caught.value.message, Message) and caught.value.message.render()
    assert json.dumps(state, sort_keys=True) == before


def assert_game_waits_until_complete(game_id: str, sheet: Path) -> None:
    """Entry by entry from an empty header, the game says whom it waits for, is not finished and
    cannot be scored, until the last entry."""
    found, document = read_document(sheet.read_text(encoding="utf-8"))
    state = found.new_state(document.header)
    for action in document.actions:
        waiting = found.waiting_for(state)
        assert waiting.player is not None and waiting.prompt.render()
        assert not found.progress(state).finished
        with pytest.raises(RulesError):
            found.score(state)
        state = found.apply(state, action)
    assert found.waiting_for(state).player is None
    assert found.progress(state).finished
