"""The import rule between the project's layers, checked on the source itself.

The rules core and the vision package must stay importable anywhere (a test,
a script, another game) without a screen, a camera or a disk; hardware may only
borrow vision's data types.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PACKAGES = ("app", "vision", "hardware")
# Libraries that would tie the rules core to a screen, a camera, a disk or the clock.
FORBIDDEN_IN_RULES = ("kivy", "cv2", "numpy", "gpiozero", "picamera2", "lgpio", "sqlite3", "time", "datetime")
ONLY_INSIDE_THEIR_CLASS = ("picamera2", "lgpio")
# The one module every game's rules share (the name rule, the game interface).
SHARED_GAME_BASE = "app.games.base"


def imports_of(path: Path) -> list[tuple[str, ast.AST]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[str, ast.AST]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, node))
    return found


def top(module: str) -> str:
    return module.split(".")[0]


def sources(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", sources("app/games"), ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_core_imports_nothing_of_the_project_or_the_machine(path: Path) -> None:
    for module, _ in imports_of(path):
        if module == SHARED_GAME_BASE:
            continue
        assert top(module) not in PROJECT_PACKAGES, f"{path}: imports {module}"
        assert top(module) not in FORBIDDEN_IN_RULES, f"{path}: imports {module}"


@pytest.mark.parametrize("path", sources("vision"), ids=lambda p: str(p.relative_to(ROOT)))
def test_vision_imports_nothing_of_the_project(path: Path) -> None:
    for module, _ in imports_of(path):
        assert top(module) not in ("app", "hardware"), f"{path}: imports {module}"


@pytest.mark.parametrize("path", sources("hardware"), ids=lambda p: str(p.relative_to(ROOT)))
def test_hardware_imports_at_most_vision_types(path: Path) -> None:
    for module, _ in imports_of(path):
        assert top(module) != "app", f"{path}: imports {module}"
        if top(module) == "vision":
            assert module == "vision.types", f"{path}: imports {module}; only vision.types is allowed"


@pytest.mark.parametrize(
    "path", sources("app") + sources("hardware") + sources("vision"), ids=lambda p: str(p.relative_to(ROOT))
)
def test_pi_only_libraries_are_imported_inside_functions(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            assert top(name) not in ONLY_INSIDE_THEIR_CLASS, f"{path}: imports {name} at module level"
