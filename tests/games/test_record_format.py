"""Reading and writing the record format (spec/macao-record.md, "Document").

The spec lets a writer add optional fields that older readers ignore, and
requires every record written in format 1 to be read. A record written by the
app must also survive export and import unchanged.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games.macao import dump_record, load_record, replay, score
from tests.games.golden import RECORDS

TWO = RECORDS / "two_players.json"


def golden_doc() -> dict[str, Any]:
    return json.loads(TWO.read_text())


def expected_scores() -> dict[str, Any]:
    return json.loads((RECORDS / "two_players.expected.json").read_text())


def test_dump_then_load_gives_back_the_same_record() -> None:
    record = load_record(TWO.read_text())
    again = load_record(dump_record(record))
    assert again.to_json() == record.to_json()
    assert json.loads(dump_record(record)) == golden_doc()


def test_an_optional_top_level_field_is_kept_and_ignored() -> None:
    doc = golden_doc()
    doc["table"] = {"location": "kitchen"}
    record = load_record(json.dumps(doc))
    assert json.loads(dump_record(record))["table"] == {"location": "kitchen"}
    assert score(replay(record)).to_json() == expected_scores()


@pytest.mark.parametrize(
    "where",
    [
        "action",  # e.g. a newer app stamping each action with the time it was made
        "player",  # e.g. a player id from a local address book
        "card",  # e.g. the catalogue entry a card was picked from
    ],
)
def test_optional_fields_inside_a_record_are_ignored(where: str) -> None:
    doc = golden_doc()
    if where == "action":
        for action in doc["actions"]:
            action["at"] = "2026-11-29T19:31:00+01:00"
    elif where == "player":
        doc["players"][0]["id"] = "p-17"
    else:
        doc["actions"][0]["cards"][0]["catalogue"] = "community-2026"
    record = load_record(json.dumps(doc))
    assert score(replay(record)).to_json() == expected_scores()
