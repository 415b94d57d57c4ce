"""Ruff and mypy, pinned in requirements-test.txt and set up in pyproject.toml, run on the source:
an unused import, an undefined name or a type mistake in a checked module fails the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=240)


def test_ruff_finds_nothing() -> None:
    result = run("ruff", "check", "--no-cache", "app", "vision", "hardware", "tools", "bench", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing_in_the_checked_packages() -> None:
    result = run("mypy", "--no-incremental", "--cache-dir", "/dev/null")
    assert result.returncode == 0, result.stdout + result.stderr
