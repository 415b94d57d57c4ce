"""Collects every string the UI shows through gettext, from the source (for the catalogue tests).

- `_("...")` and `N_("...")` in app/ui, and both forms of `ngettext("...", "...", n)`,
- the English templates of the core's, the session's and the dice station's messages (Message(...),
  refusals, prompts), which the UI translates with the same catalogue,
- the dice service's status notes,
- the words the UI translates one by one (colours, goods, card kinds).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI_DIR = ROOT / "app" / "ui"
MESSAGE_SOURCES = [ROOT / "app" / "games", ROOT / "app" / "session.py",
                   ROOT / "app" / "dice_station.py"]
DICE_SERVICE = ROOT / "app" / "dice_service.py"
MESSAGE_CALLS = {"Message", "_Refusal"}
# Calls whose literal arguments become message parameters (what is being paid for, or done twice).
PARAMETER_CALLS = {"_pay", "_once", "once"}
# Dicts of phrases that become whole messages or message parameters.
PHRASE_DICTS = {"_PROMPTS", "_PHASE_WORDS", "labels"}
# Templates the core builds from pieces at run time.
COMPOSED = tuple(
    "{name} has already " + done + " this round."
    for done in ("taken a city quarter", "moved on the wall", "bought prestige")
) + ("Went back to action {keep}", "Went forward to action {keep}")
WORDS = (
    "orange", "white", "yellow", "brown",
    "red", "blue", "green", "black", "gray", "violet",
    "lacquer", "rice", "tea", "jade", "silk", "paper", "porcelain", "spices", "joker",
    "office", "building", "person", "gold", "no cubes", "and",
)


def _files(path: Path) -> Iterator[Path]:
    yield from ([path] if path.is_file() else sorted(path.rglob("*.py")))


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _constant(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def ui_msgids() -> set[str]:
    found: set[str] = set()
    for path in _files(UI_DIR):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _name(node.func) in {"_", "N_", "ngettext"} and node.args:
                forms = node.args[:2] if _name(node.func) == "ngettext" else node.args[:1]
                found |= {text for text in map(_constant, forms) if text is not None}
    return found


def message_msgids() -> set[str]:
    """Templates and phrases the core and session hand to the UI."""
    found: set[str] = set(COMPOSED)
    for source in MESSAGE_SOURCES:
        for path in _files(source):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and _name(node.func) in MESSAGE_CALLS and node.args:
                    text = _constant(node.args[0])
                    if text is not None:
                        found.add(text)
                if isinstance(node, ast.Call) and _name(node.func) in PARAMETER_CALLS:
                    found |= {t for t in map(_constant, node.args) if t is not None and (" " in t or t == "the quarter")}
                targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
                value = getattr(node, "value", None)
                if any(_name(t) in PHRASE_DICTS for t in targets) and isinstance(value, ast.Dict):
                    found |= {v for v in map(_constant, value.values) if v is not None}
    return found


def dice_msgids() -> set[str]:
    """Status notes of the dice service (the string arguments of _enter/_set/DiceStatus)."""
    found: set[str] = set()
    tree = ast.parse(DICE_SERVICE.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in {"_enter", "_set", "DiceStatus"}:
            for arg in node.args:
                choices = (arg.body, arg.orelse) if isinstance(arg, ast.IfExp) else (arg,)  # a note or another
                for choice in choices:
                    text = _constant(choice)
                    if text is not None and " " in text:
                        found.add(text)
    return found


def all_msgids() -> set[str]:
    return ui_msgids() | message_msgids() | dice_msgids() | set(WORDS)


if __name__ == "__main__":
    for text in sorted(all_msgids()):
        print(repr(text))
