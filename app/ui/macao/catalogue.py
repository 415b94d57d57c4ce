"""The learned card catalogue: every named card the table has entered, by name.

The cards' printed data exists only on cardboard, so the app learns it: a
card entered once with a name is offered in one tap the next time. Stored as
JSON next to the journal; it can be exported and merged with another file
(all or nothing: a file with one bad card adds none).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from app.games.macao import CUBE_COLOURS
from app.games.base import Message
from app.session import PlayerNotice
from app.ui.i18n import N_
from vision.atomic_file import write_atomically

CARD_KINDS: tuple[str, ...] = ("office", "building", "person")
FORMAT = "windrose-cards/1"
MAX_FILE_BYTES = 5_000_000  # thousands of cards take well under 1 MB; anything bigger is some other file


class CatalogueError(Exception):
    """A card that is not right, or a catalogue file that cannot be read: `problem` says what
    (and which card), `message` also names the file; both are Messages for any language."""

    def __init__(self, problem: Message, file: str = "") -> None:
        self.problem = problem
        self.message = Message(N_("{file}: {problem}"), {"file": file, "problem": problem}) if file else problem
        super().__init__(str(self.message))

    def in_file(self, path: Path) -> CatalogueError:
        return CatalogueError(self.problem, path.name)


def _where(index: int) -> Message:
    return Message(N_("card {number}"), {"number": index + 1})


def _clean(card: Mapping[str, Any], where: Message) -> dict[str, Any]:
    """A card dict with only the printed fields, checked for shape."""
    name = card.get("name")
    kind = card.get("kind")
    cost = card.get("cost")
    tribute = card.get("tribute")
    if not isinstance(name, str) or not name.strip():
        raise CatalogueError(Message(N_("{where}: a card needs a name"), {"where": where}))
    if kind not in CARD_KINDS:
        raise CatalogueError(Message(N_("{where}: the kind must be office, building or person, not {found}"),
                                     {"where": where, "found": repr(kind)}))
    if (not isinstance(cost, list) or not 1 <= len(cost) <= 4
            or not all(isinstance(c, str) and c in CUBE_COLOURS for c in cost)):
        raise CatalogueError(Message(N_("{where}: the cost must be a list of 1 to 4 cube colours"), {"where": where}))
    if (
        not isinstance(tribute, list)
        or len(tribute) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 2 for n in tribute)
    ):
        raise CatalogueError(Message(N_("{where}: the tribute must be two numbers from 0 to 2"), {"where": where}))
    clean: dict[str, Any] = {"name": name.strip(), "kind": kind, "cost": list(cost), "tribute": list(tribute)}
    effects = card.get("effects")
    if isinstance(effects, list) and effects:
        clean["effects"] = [str(e) for e in effects]
    return clean


def read_card_file(path: Path) -> list[tuple[dict[str, Any], int]]:
    """Every card of a catalogue file with how often it was seen, all checked before any is used."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise CatalogueError(Message(N_("too large for a card list (over {megabytes} MB)"),
                                         {"megabytes": MAX_FILE_BYTES // 1_000_000}), path.name)
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise CatalogueError(Message(N_("cannot read the card list ({reason})"), {"reason": reason}),
                             path.name) from err
    try:
        document = json.loads(text)
    except ValueError as err:
        line, column = getattr(err, "lineno", 0), getattr(err, "colno", 0)
        raise CatalogueError(Message(N_("not a card list: broken JSON at line {line}, column {column}"),
                                     {"line": line, "column": column}), path.name) from err
    entries = document.get("cards") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise CatalogueError(Message(N_("not a card list (no list of cards in it)")), path.name)
    cards: list[tuple[dict[str, Any], int]] = []
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise CatalogueError(Message(N_("{where}: not a card"), {"where": _where(index)}), path.name)
        try:
            card = _clean(entry, _where(index))
        except CatalogueError as err:
            raise err.in_file(path) from None
        seen = entry.get("seen", 1)
        cards.append((card, seen if isinstance(seen, int) and seen > 0 else 1))
    return cards


class CardCatalogue:
    """Named cards seen so far, keyed by (kind, name), with how often each was entered."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._cards: dict[tuple[str, str], dict[str, Any]] = {}
        self._seen: dict[tuple[str, str], int] = {}

    def load(self) -> PlayerNotice | None:
        """Read the file if there is one; returns a warning instead of failing on a bad file."""
        if not self.path.exists():
            return None
        try:
            self.merge_file(self.path)
        except CatalogueError as err:
            return PlayerNotice(err.message)
        return None

    def merge_file(self, path: Path) -> int:
        """Add the cards of a catalogue file (own or a community one); returns how many were new.
        A file with any bad card changes nothing (CatalogueError says which card and what)."""
        added = 0
        for card, seen in read_card_file(path):
            key = (card["kind"], card["name"])
            added += key not in self._cards
            self._cards[key] = card
            self._seen[key] = max(self._seen.get(key, 0), seen)
        return added

    def import_file(self, path: Path) -> int:
        """Merge a card list into the table's own and save it; returns how many cards were new.
        On a bad file or a failed save (CatalogueError, OSError) the catalogue stays as it was."""
        merged = CardCatalogue(self.path)
        merged._cards, merged._seen = dict(self._cards), dict(self._seen)
        added = merged.merge_file(path)
        merged.save()
        self._cards, self._seen = merged._cards, merged._seen
        return added

    def export_to(self, folder: Path, started: str) -> Path:
        """Write the catalogue into `folder` (the exports folder) as cards-<date and time>.json,
        named like the game exports (digits of the timestamp)."""
        return self.save(folder / f"cards-{re.sub(r'[^0-9]', '', started)[:12] or 'undated'}.json")

    def learn(self, cards: Iterable[Mapping[str, Any]]) -> int:
        """Remember the named cards among `cards` (unnamed ones are skipped); returns how many."""
        learned = 0
        for card in cards:
            if not str(card.get("name", "")).strip():
                continue
            clean = _clean(card, Message(N_("a card entered at the table")))
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
        write_atomically(target, json.dumps({"format": FORMAT, "cards": entries}, indent=2, ensure_ascii=False))
        return target
