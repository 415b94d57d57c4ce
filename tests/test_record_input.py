"""Hostile or broken record files are refused with where and why, never a traceback."""

from __future__ import annotations

import json

import pytest

from app.games.base import RecordError
from app.games.macao import dump_record, load_record, replay
from app.games.macao.record import MAX_DEPTH, MAX_RECORD_BYTES
from app.games.macao.simulate import random_record


def good_doc() -> dict:
    return json.loads(dump_record(random_record(3, players=2)))


def refuse(doc_or_text: object) -> RecordError:
    text = doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text)
    with pytest.raises(RecordError) as caught:
        load_record(text)
    return caught.value


def test_a_whole_random_game_survives_the_round_trip() -> None:
    record = load_record(json.dumps(good_doc()))
    again = load_record(dump_record(record))
    assert replay(again).to_json() == replay(record).to_json()


def test_not_json_names_line_and_column() -> None:
    err = refuse('{"format": "macao-record/1",\n  "players": [}')
    assert "line 2" in str(err) and "not valid JSON" in str(err)


def test_wrong_format_number() -> None:
    doc = good_doc()
    doc["format"] = "macao-record/2"
    err = refuse(doc)
    assert err.where == "format" and "macao-record/1" in str(err)


@pytest.mark.parametrize("key", ["players", "wall", "actions"])
def test_missing_top_level_field(key: str) -> None:
    doc = good_doc()
    del doc[key]
    assert refuse(doc).where == key


def test_a_misspelt_field_shows_as_the_missing_one() -> None:
    doc = good_doc()
    doc["actions"][6]["palyer"] = doc["actions"][6].pop("player")
    err = refuse(doc)
    assert err.where == "actions[6]" and "missing field 'player'" in str(err)


def test_optional_fields_inside_actions_are_kept() -> None:
    doc = good_doc()
    doc["actions"][5]["at"] = "19:42"
    record = load_record(json.dumps(doc))
    assert json.loads(dump_record(record))["actions"][5]["at"] == "19:42"


def test_missing_field_in_an_action_is_named() -> None:
    doc = good_doc()
    roll = next(i for i, a in enumerate(doc["actions"]) if a["type"] == "roll")
    del doc["actions"][roll]["dice"]
    err = refuse(doc)
    assert err.where == f"actions[{roll}]" and "dice" in str(err)


def test_unknown_colours() -> None:
    doc = good_doc()
    doc["players"][0]["colour"] = "purple"
    assert refuse(doc).where == "players[0].colour"
    doc = good_doc()
    roll = next(i for i, a in enumerate(doc["actions"]) if a["type"] == "roll")
    doc["actions"][roll]["dice"]["pink"] = 3
    assert refuse(doc).where == f"actions[{roll}].dice.pink"


def test_optional_top_level_fields_are_kept() -> None:
    doc = good_doc()
    doc["location"] = "Club night"
    record = load_record(json.dumps(doc))
    assert json.loads(dump_record(record))["location"] == "Club night"


def test_names_with_control_characters_or_too_long() -> None:
    doc = good_doc()
    doc["players"][1]["name"] = "Ann\x1b[31m"
    assert "control characters" in str(refuse(doc))
    doc["players"][1]["name"] = "A" * 10_000
    err = refuse(doc)
    assert err.where == "players[1].name" and "10000 characters" in str(err)


def test_a_50_megabyte_file_is_refused_before_parsing() -> None:
    text = '{"pad": "' + "x" * (50 * 1024 * 1024) + '"}'
    err = refuse(text)
    assert "MB" in str(err) and len(text) > MAX_RECORD_BYTES


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_deeply_nested_documents(depth: int) -> None:
    text = '{"format": "macao-record/1", "x": ' + "[" * depth + "]" * depth + "}"
    assert "nested" in str(refuse(text))


def test_not_an_object_at_all() -> None:
    assert "expected an object" in str(refuse([1, 2, 3]))
