"""What every score-sheet game's tests check the same way: golden sheets and keeping unknown fields."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from app.games.base import SheetError


def golden_pairs(folder: Path) -> list[tuple[Path, Path]]:
    """(sheet, expected output) for every worked example in a game's test folder."""
    pairs = [(folder / path.name.replace(".expected", ""), path) for path in sorted(folder.glob("*.expected.json"))]
    assert pairs, f"no worked examples in {folder}"
    return pairs


def assert_scores_as_expected(game: ModuleType, sheet: Path, expected: Path) -> None:
    result = game.score(game.load_sheet(sheet.read_text(encoding="utf-8")))
    assert result.to_json() == json.loads(expected.read_text(encoding="utf-8"))


def assert_unknown_fields_kept(game: ModuleType, doc: dict[str, Any]) -> None:
    """Fields the format does not know, at the top and in a player, survive a read and a write."""
    doc = json.loads(json.dumps(doc))
    doc["table"] = {"place": "kitchen", "notes": ["rainy", 3]}
    doc["players"][0]["seat"] = "by the window"
    again = json.loads(game.dump_sheet(game.load_sheet(json.dumps(doc))))
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
