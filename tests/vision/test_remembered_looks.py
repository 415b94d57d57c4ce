"""The reader's last look at a table survives a restart (vision.remembered_looks): one per kind of
dice, forgotten together, and a damaged or unwritable file costs only the looks, said in the log."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from tests.stick_mounts import make_read_only, mounted_stick
from vision.remembered_looks import FORMAT, RememberedLooks, default_looks_path, look_key
from vision.types import DIE_COLOURS, DiceSpec

SIX = DiceSpec()
REPEATING = DiceSpec(count=5, colours=("red", "red", "blue", "white", "black"), repeats=True)


def test_each_kind_of_dice_keeps_its_own_look_for_the_next_start(tmp_path: Path) -> None:
    path = default_looks_path(tmp_path / "empty-tray.png")
    looks = RememberedLooks(path)
    assert looks.look_for(SIX) is None
    looks.remember(SIX, 0.5)
    looks.remember(REPEATING, 0.32)
    again = RememberedLooks(path)
    assert (again.look_for(SIX), again.look_for(REPEATING)) == (0.5, 0.32)
    assert again.look_for(DiceSpec(count=6, colours=DIE_COLOURS, repeats=True)) is None  # other dice


def test_the_dice_are_told_apart_by_count_colours_and_repeats() -> None:
    keys = {look_key(SIX), look_key(REPEATING), look_key(DiceSpec(count=6, colours=DIE_COLOURS, repeats=True)),
            look_key(DiceSpec(count=4, colours=("red", "red", "blue", "white"), repeats=True))}
    assert len(keys) == 4


def test_forgetting_reaches_the_file(tmp_path: Path) -> None:
    path = tmp_path / "reader-looks.json"
    looks = RememberedLooks(path)
    looks.remember(SIX, 0.5)
    looks.forget_all()
    assert looks.look_for(SIX) is None and RememberedLooks(path).look_for(SIX) is None


def test_a_look_written_again_unchanged_does_not_touch_the_file(tmp_path: Path) -> None:
    path = tmp_path / "reader-looks.json"
    looks = RememberedLooks(path)
    looks.remember(SIX, 0.5)
    path.write_text(json.dumps({"format": FORMAT, "looks": {look_key(SIX): 0.25}}), encoding="utf-8")
    looks.remember(SIX, 0.5)  # what this run already holds: no write
    assert RememberedLooks(path).look_for(SIX) == 0.25


@pytest.mark.parametrize(("text", "said"), [
    ("{not json", "is not JSON (line 1)"),
    (json.dumps({"format": "something else", "looks": {}}), f"is not a {FORMAT} file"),
    (json.dumps([1, 2]), f"is not a {FORMAT} file"),
    (json.dumps({"format": FORMAT, "looks": [0.5]}), f"is not a {FORMAT} file"),
])
def test_a_damaged_file_is_said_and_costs_only_the_looks(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                         text: str, said: str) -> None:
    path = tmp_path / "reader-looks.json"
    path.write_text(text, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="vision.remembered_looks"):
        looks = RememberedLooks(path)
    assert looks.look_for(SIX) is None
    assert str(path) in caplog.text and said in caplog.text
    looks.remember(SIX, 0.5)  # and the next complete reading writes a sound file over it
    assert RememberedLooks(path).look_for(SIX) == 0.5


def test_scales_outside_zero_to_one_are_left_out_and_the_rest_kept(tmp_path: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "reader-looks.json"
    path.write_text(json.dumps({"format": FORMAT, "looks": {look_key(SIX): 0.5, "a": 0, "b": 3.0, "c": "half",
                                                            "d": True, "e": None}}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="vision.remembered_looks"):
        looks = RememberedLooks(path)
    assert looks.looks == {look_key(SIX): 0.5}
    assert "5 of 6" in caplog.text


def test_an_unreadable_file_is_said(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "reader-looks.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with caplog.at_level(logging.WARNING, logger="vision.remembered_looks"):
        assert RememberedLooks(path).looks == {}
    assert str(path) in caplog.text


def test_a_read_only_folder_keeps_the_look_for_the_run(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with mounted_stick(tmp_path / "data") as folder:
        make_read_only(folder)
        looks = RememberedLooks(folder / "reader-looks.json")
        with caplog.at_level(logging.WARNING, logger="vision.remembered_looks"):
            looks.remember(SIX, 0.5)
        assert looks.look_for(SIX) == 0.5
        assert "not stored" in caplog.text and str(folder / "reader-looks.json") in caplog.text
        assert not (folder / "reader-looks.json").exists()
