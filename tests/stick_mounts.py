"""Real file systems for the USB-stick tests: a small tmpfs mounted where a stick would be
(needs root and mount; the tests that use it skip, saying why, where that is not allowed)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=30, check=False)


@contextmanager
def mounted_stick(point: Path, size_kb: int = 256, read_only: bool = False) -> Iterator[Path]:
    """A tmpfs of `size_kb` mounted at `point` (made if missing), read-only if asked; unmounted after."""
    point.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a stand-in stick (tmpfs) needs root")
    result = _run("mount", "-t", "tmpfs", "-o", f"size={size_kb}k,mode=0777", "tmpfs", point)
    if result.returncode != 0:
        pytest.skip(f"tmpfs cannot be mounted here: {result.stderr.strip()}")
    try:
        yield point
    finally:
        _run("umount", "-l", point)


def make_read_only(point: Path) -> None:
    result = _run("mount", "-o", "remount,ro", point)
    assert result.returncode == 0, result.stderr
