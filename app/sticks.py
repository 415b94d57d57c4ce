"""USB sticks the table has plugged in: found in the kernel's mount table, so exports and imports
can offer them by name and nobody types a path.

A stick is a file system mounted under /media/<label>, /media/<user>/<label> or
/run/media/<user>/<label> (where udisks, usbmount or an fstab line put them). The mount table
and the roots are arguments, so tests hand in a table of their own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

MOUNT_TABLE = Path("/proc/mounts")
STICK_ROOTS = (Path("/media"), Path("/run/media"))
EXPORT_FOLDER = "windrose"  # where an export goes on a stick, beside whatever else it holds


@dataclass(frozen=True)
class Stick:
    label: str  # the mount point's last part: the stick's label, as the file manager shows it
    path: Path

    @property
    def export_dir(self) -> Path:
        return self.path / EXPORT_FOLDER


def _unescape(field: str) -> str:
    """The kernel writes a space, tab, newline and backslash in a mount point as octal escapes."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def mounted_sticks(mount_table: Path = MOUNT_TABLE, roots: Sequence[Path] = STICK_ROOTS) -> list[Stick]:
    """The file systems mounted below one of `roots`, in the table's order (none when the table
    cannot be read); a stick mounted twice is listed once."""
    try:
        lines = mount_table.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    found: dict[Path, Stick] = {}
    for line in lines:
        fields = line.split()
        if len(fields) < 2:
            continue
        point = Path(_unescape(fields[1]))
        if any(root in point.parents for root in roots) and point not in found:
            found[point] = Stick(point.name, point)
    return list(found.values())
