"""A file the table keeps is replaced whole or not at all: on a real full or read-only file
system the old file stays as it was and no partial file is left behind."""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

import pytest

from tests.stick_mounts import make_read_only, mounted_stick
from vision.atomic_file import PARTIAL_SUFFIX, write_atomically


def test_text_and_bytes_replace_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "looks.json"
    write_atomically(path, "{\"é\": 1}\n")
    assert path.read_text(encoding="utf-8") == "{\"é\": 1}\n"
    write_atomically(path, b"\x89PNG")
    assert path.read_bytes() == b"\x89PNG"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["looks.json"]


def test_the_file_and_then_its_folder_are_synced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def noting_fsync(descriptor: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{descriptor}"))
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", noting_fsync)
    write_atomically(tmp_path / "calibration.json", "{}")
    assert len(synced) == 2 and synced[1] == str(tmp_path)
    assert synced[0].startswith(str(tmp_path / "calibration.json.")) and synced[0].endswith(PARTIAL_SUFFIX)


def test_two_writers_at_once_leave_one_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "roll-000001.json"
    texts = [f"{{\"writer\": {n}, \"pad\": \"{'x' * 200_000}\"}}" for n in range(4)]
    writers = [threading.Thread(target=write_atomically, args=(path, text)) for text in texts]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert path.read_text(encoding="utf-8") in texts
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_a_full_disk_keeps_the_old_file_and_leaves_nothing_else(tmp_path: Path) -> None:
    with mounted_stick(tmp_path / "card", size_kb=64) as card:
        path = card / "empty-tray.png"
        write_atomically(path, b"old picture")
        with pytest.raises(OSError) as raised:
            write_atomically(path, b"x" * 200_000)
        assert raised.value.errno == errno.ENOSPC
        assert path.read_bytes() == b"old picture"
        assert [p.name for p in card.iterdir()] == ["empty-tray.png"]


def test_a_read_only_disk_keeps_the_old_file(tmp_path: Path) -> None:
    with mounted_stick(tmp_path / "card") as card:
        path = card / "settings.json"
        write_atomically(path, "{\"language\": \"de\"}")
        make_read_only(card)
        with pytest.raises(OSError) as raised:
            write_atomically(path, "{}")
        assert raised.value.errno == errno.EROFS
        assert path.read_text(encoding="utf-8") == "{\"language\": \"de\"}"


def test_a_rename_that_fails_removes_the_partial_file(tmp_path: Path) -> None:
    (tmp_path / "reader-looks.json").mkdir()  # a folder in the file's place
    with pytest.raises(OSError):
        write_atomically(tmp_path / "reader-looks.json", "{}")
    assert [p.name for p in tmp_path.iterdir()] == ["reader-looks.json"]
