"""USB sticks: found in the mount table under /media or /run/media; an export to one is whole or
nothing, on a real (tmpfs) file system that is full or read-only."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from app.sticks import Stick, mounted_sticks
from app.ui.exports import export_game
from tests.stick_mounts import make_read_only, mounted_stick
from tests.ui.test_exports import TABLE


def test_sticks_are_the_mounts_below_the_roots_with_their_labels(tmp_path: Path) -> None:
    table = tmp_path / "mounts"
    table.write_text(
        "/dev/mmcblk0p2 / ext4 rw,noatime 0 0\n"
        "/dev/sda1 /media/pi/GAMES vfat rw,nosuid,nodev,uid=1000 0 0\n"
        "/dev/sdb1 /media/My\\040Stick exfat ro,nosuid 0 0\n"
        "/dev/sdc1 /run/media/anna/BACKUP ext4 rw 0 0\n"
        "/dev/sdc1 /run/media/anna/BACKUP ext4 rw 0 0\n"
        "tmpfs /media tmpfs rw 0 0\n"
        "/dev/sdd1 /mnt/other vfat rw 0 0\n"
        "broken line\n", encoding="utf-8")
    roots = (Path("/media"), Path("/run/media"))
    assert mounted_sticks(table, roots) == [
        Stick("GAMES", Path("/media/pi/GAMES")), Stick("My Stick", Path("/media/My Stick")),
        Stick("BACKUP", Path("/run/media/anna/BACKUP")),
    ]
    assert mounted_sticks(tmp_path / "no such table", roots) == []


def test_a_stick_mounted_now_is_found_in_the_kernels_mount_table(tmp_path: Path) -> None:
    with mounted_stick(tmp_path / "media" / "TABLE_STICK") as point:
        assert mounted_sticks(roots=(tmp_path / "media",)) == [Stick("TABLE_STICK", point)]
    assert mounted_sticks(roots=(tmp_path / "media",)) == []


def _export(folder: Path, record_text: str) -> list[Path]:
    return export_game(folder, "macao", "Macao", 7, "2026-11-29T19:30:00+01:00", record_text, TABLE, "white")


def test_an_export_to_a_full_stick_leaves_nothing_behind(tmp_path: Path) -> None:
    with mounted_stick(tmp_path / "media" / "SMALL", size_kb=64) as point:
        folder = Stick("SMALL", point).export_dir
        with pytest.raises(OSError) as raised:
            _export(folder, "{}" + " " * 200_000)
        assert raised.value.errno == errno.ENOSPC
        assert list(folder.iterdir()) == []  # neither a partial file nor the first of the three
        assert [p.name for p in _export(folder, "{}")] == ["macao-7-202611291930.json", "macao-7-202611291930.csv",
                                                             "macao-7-202611291930.bgstats.json"]
        assert (folder / "macao-7-202611291930.json").read_text() == "{}"


def test_an_export_to_a_read_only_stick_is_refused(tmp_path: Path) -> None:
    with mounted_stick(tmp_path / "media" / "LOCKED") as point:
        make_read_only(point)
        with pytest.raises(OSError) as raised:
            _export(point, "{}")
        assert raised.value.errno == errno.EROFS
        assert list(point.iterdir()) == []
