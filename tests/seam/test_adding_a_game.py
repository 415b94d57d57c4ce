"""Adding a game is a folder under app/games/, a folder under app/ui/ and one registry line each:
no other file of the running app names a registered game (in code, text or comments)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.games import GAMES, game
from app.ui.games import GAME_UIS

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("app", "hardware")  # what runs; tests, benchmarks and vision's reader modes are not the seam
GAMES_REGISTRY = ROOT / "app" / "games" / "__init__.py"
UI_REGISTRY = ROOT / "app" / "ui" / "games.py"


def mentions(text: str, game_id: str) -> list[int]:
    """The line numbers naming the game: its id as a word (also inside snake_case names), any case."""
    word = re.compile(rf"(?<![a-z0-9]){re.escape(game_id)}(?![a-z0-9])", re.IGNORECASE)
    return [number for number, line in enumerate(text.splitlines(), 1) if word.search(line)]


def without_own_title(text: str, path: Path) -> str:
    """A game's own folders may spell out its title even where the title holds another game's
    name ("Shadows of Macao"): that is the game's name, not a reference to the other game."""
    for other in GAMES:
        if any(path.is_relative_to(folder) for folder in own_folders(other)):
            title = game(other).title.template
            return re.sub(re.escape(title), "", text, flags=re.IGNORECASE)
    return text


def own_folders(game_id: str) -> tuple[Path, Path]:
    return ROOT / "app" / "games" / game_id, ROOT / "app" / "ui" / game_id


def sources() -> list[Path]:
    return sorted(path for folder in SCANNED for path in (ROOT / folder).rglob("*.py"))


def test_the_scan_finds_a_game_named_in_code_text_or_a_name() -> None:
    text = 'x = 1\nscreen = "tally_setup"\n# the Tally table\nrules = tallying + total\n'
    assert mentions(text, "tally") == [2, 3]


def test_a_games_own_title_is_not_a_mention_of_another_game() -> None:
    shadows = ROOT / "app" / "ui" / "shadows" / "pad.py"
    assert mentions(without_own_title("the Shadows of Macao pad", shadows), "macao") == []
    assert mentions(without_own_title("like the Macao pad", shadows), "macao") == [1]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_each_game_has_its_own_folders_and_one_line_in_each_registry(game_id: str) -> None:
    rules_folder, ui_folder = own_folders(game_id)
    assert (rules_folder / "__init__.py").is_file()
    assert (ui_folder / "__init__.py").is_file(), f"{game_id} has no UI package in app/ui/{game_id}/"
    assert GAMES[game_id].where.startswith(f"app.games.{game_id}.")
    assert GAME_UIS.get(game_id, "").startswith(f"app.ui.{game_id}:") or GAME_UIS.get(game_id, "").startswith(
        f"app.ui.{game_id}.")
    assert len(mentions(GAMES_REGISTRY.read_text(encoding="utf-8"), game_id)) == 1
    assert len(mentions(UI_REGISTRY.read_text(encoding="utf-8"), game_id)) == 1


@pytest.mark.parametrize("game_id", list(GAMES))
def test_no_file_outside_a_games_folders_names_it(game_id: str) -> None:
    allowed = own_folders(game_id)
    found = []
    for path in sources():
        if any(path.is_relative_to(folder) for folder in allowed):
            continue
        lines = mentions(without_own_title(path.read_text(encoding="utf-8"), path), game_id)
        if path in (GAMES_REGISTRY, UI_REGISTRY):
            lines = lines[1:]  # the one registry line
        found += [f"{path.relative_to(ROOT)}:{number}" for number in lines]
    assert found == [], f"{game_id} is named outside its folders and registry lines: {found}"


def test_games_do_not_import_each_other_or_the_ui() -> None:
    for game_id in GAMES:
        for path in own_folders(game_id)[0].rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for other in GAMES:
                if other != game_id:
                    assert not re.search(rf"\bapp\.(games|ui)\.{other}\b", text), f"{path} imports {other}"
