"""The import rule between the project's layers, checked on the source itself.

The rules core and the vision package must stay importable anywhere (a test,
a script, another game) without a screen, a camera or a disk; hardware may only
borrow vision's data types. The development tools (`tools/`: scene generator,
training) are not part of what runs on the Pi: only `python -m vision synth`
reaches them, through an import inside that command.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PACKAGES = ("app", "vision", "hardware")
# Libraries that would tie the rules core to a screen, a camera, a disk or the clock.
FORBIDDEN_IN_RULES = ("kivy", "cv2", "numpy", "gpiozero", "picamera2", "lgpio", "sqlite3", "time", "datetime")
ONLY_INSIDE_THEIR_CLASS = ("picamera2", "lgpio")
# The one module every game's rules share (the name rule, the game interface).
SHARED_GAME_BASE = "app.games.base"
TOOLS = "tools"
# The one door from the runtime into the tools: the synth command, imported inside its function.
LAZY_TOOL_IMPORTS = {"vision/cli.py": "tools.synth"}


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


def _module_level_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _tool_imports(path: Path) -> list[str]:
    """Every import of the tools package in the file, `from tools import synth` as `tools.synth`."""
    found: list[str] = []
    for module, node in imports_of(path):
        if top(module) != TOOLS:
            continue
        if isinstance(node, ast.ImportFrom) and module == TOOLS:
            found.extend(f"{TOOLS}.{alias.name}" for alias in node.names)
        else:
            found.append(module)
    return found


@pytest.mark.parametrize(
    "path", sources("app") + sources("hardware") + sources("vision"), ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_runtime_does_not_import_the_tools(path: Path) -> None:
    relative = str(path.relative_to(ROOT))
    allowed = LAZY_TOOL_IMPORTS.get(relative)
    for module in _tool_imports(path):
        assert module == allowed, f"{path}: imports {module}; the tools are not part of the running app"
    assert not {m for m in _module_level_imports(path) if top(m) == TOOLS}, f"{path}: imports the tools at load"


def test_starting_the_app_and_reading_dice_loads_no_tool(tmp_path: Path) -> None:
    """The app's modules load and `python -m vision read` reads a frame without the tools package."""
    frame = sorted((ROOT / "app" / "assets" / "demo_frames").glob("*.jpg"))[0]
    script = (
        "import sys\n"
        "import app.cli, app.ui.launch, app.ui.app, app.dice_station, vision.cli\n"
        f"assert vision.cli.main(['read', {str(frame)!r}]) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'tools'))\n"
    )
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_HOME": str(tmp_path), "SDL_VIDEODRIVER": "offscreen",
           "KIVY_LOG_MODE": "PYTHON"}
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]", result.stdout
