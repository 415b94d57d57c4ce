"""The learned card catalogue: every named card the table has entered, by name.

The cards' printed data exists only on cardboard, so the app learns it: a
card entered once with a name is offered in one tap the next time. Stored as
JSON next to the journal; it can be exported and merged with another file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

CARD_KINDS: tuple[str, ...] = ("office", "building", "person")
FORMAT = "windrose-cards/1"


class CatalogueError(Exception):
    """A catalogue file that cannot be read; the message names the file and the entry."""


def _clean(card: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A card dict with only the printed fields, checked for shape."""
    name = card.get("name")
    kind = card.get("kind")
    cost = card.get("cost")
    tribute = card.get("tribute")
    if not isinstance(name, str) or not name.strip():
        raise CatalogueError(f"{where}: a card needs a name")
    if kind not in CARD_KINDS:
        raise CatalogueError(f"{where}: kind must be one of {', '.join(CARD_KINDS)}, found {kind!r}")
    if not isinstance(cost, list) or not 1 <= len(cost) <= 4 or not all(isinstance(c, str) for c in cost):
        raise CatalogueError(f"{where}: cost must be a list of 1 to 4 cube colours")
    if (
        not isinstance(tribute, list)
        or len(tribute) != 2
        or not all(isinstance(n, int) and 0 <= n <= 2 for n in tribute)
    ):
        raise CatalogueError(f"{where}: tribute must be two numbers from 0 to 2")
    clean: dict[str, Any] = {"name": name.strip(), "kind": kind, "cost": list(cost), "tribute": list(tribute)}
    effects = card.get("effects")
    if isinstance(effects, list) and effects:
        clean["effects"] = [str(e) for e in effects]
    return clean


class CardCatalogue:
    """Named cards seen so far, keyed by (kind, name), with how often each was entered."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._cards: dict[tuple[str, str], dict[str, Any]] = {}
        self._seen: dict[tuple[str, str], int] = {}

    def load(self) -> str | None:
        """Read the file if there is one; returns a warning instead of failing on a bad file."""
        if not self.path.exists():
            return None
        try:
            self.merge_file(self.path)
        except CatalogueError as err:
            return str(err)
        return None

    def merge_file(self, path: Path) -> int:
        """Add the cards of a catalogue file (own or a community one); returns how many were new."""
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise CatalogueError(f"{path}: cannot read the card catalogue ({err})") from err
        entries = document.get("cards") if isinstance(document, dict) else None
        if not isinstance(entries, list):
            raise CatalogueError(f"{path}: expected an object with a 'cards' list")
        added = 0
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise CatalogueError(f"{path}: cards[{i}] is not an object")
            card = _clean(entry, f"{path}: cards[{i}]")
            key = (card["kind"], card["name"])
            added += key not in self._cards
            self._cards[key] = card
            seen = entry.get("seen", 1)
            self._seen[key] = max(self._seen.get(key, 0), seen if isinstance(seen, int) and seen > 0 else 1)
        return added

    def learn(self, cards: Iterable[Mapping[str, Any]]) -> int:
        """Remember the named cards among `cards` (unnamed ones are skipped); returns how many."""
        learned = 0
        for card in cards:
            if not str(card.get("name", "")).strip():
                continue
            clean = _clean(card, "card")
            key = (clean["kind"], clean["name"])
            self._cards[key] = clean
            self._seen[key] = self._seen.get(key, 0) + 1
            learned += 1
        return learned

    def cards(self, kinds: Iterable[str] = CARD_KINDS) -> list[dict[str, Any]]:
        """Known cards of the given kinds, the most often seen first, then by name."""
        wanted = set(kinds)
        keys = [k for k in self._cards if k[0] in wanted]
        keys.sort(key=lambda k: (-self._seen.get(k, 0), k[1].lower()))
        return [dict(self._cards[k]) for k in keys]

    def __len__(self) -> int:
        return len(self._cards)

    def save(self, path: Path | None = None) -> Path:
        """Write the catalogue (atomically); `path` exports it elsewhere."""
        target = path or self.path
        target.parent.mkdir(parents=True, exist_ok=True)
        entries = [
            {**card, "seen": self._seen.get(key, 1)}
            for key, card in sorted(self._cards.items(), key=lambda item: (item[0][0], item[0][1].lower()))
        ]
        temporary = target.with_suffix(".tmp")
        temporary.write_text(json.dumps({"format": FORMAT, "cards": entries}, indent=2, ensure_ascii=False), encoding="utf-8")
        os.replace(temporary, target)
        return target
