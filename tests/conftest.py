"""Fixtures shared by the whole suite."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


@pytest.fixture(autouse=True)
def own_data_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test its own data folder (XDG_DATA_HOME): files the app keeps there by default (the
    colour calibration, the empty-tray picture) never carry over between tests or from the home."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's mock pins as the default factory, with the previous factory restored after."""
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


@pytest.fixture(scope="session")
def learnt_table_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A drawn table's kept rolls and the refit learnt from them (tests/learnt_table.py), made
    once: some 10 s."""
    from tests.learnt_table import keep_rolls, learn

    data = tmp_path_factory.mktemp("learnt-table")
    keep_rolls(data)
    learn(data)
    return data


@pytest.fixture
def learnt_table(learnt_table_once: Path, tmp_path: Path) -> Path:
    """A copy of `learnt_table_once` for one test to change (tmp_path/data)."""
    data = tmp_path / "data"
    shutil.copytree(learnt_table_once, data)
    return data


@pytest.fixture(scope="session")
def learnt_tables_once(learnt_table_once: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`learnt_table_once` with the same table's Marco Polo II rolls kept beside (table-rolls-any/)
    and the any-mode refit learnt from them (tests/learnt_table.py): some 5 s more."""
    from tests.learnt_table import keep_any_rolls, learn_any

    data = tmp_path_factory.mktemp("learnt-tables") / "data"
    shutil.copytree(learnt_table_once, data)
    keep_any_rolls(data)
    learn_any(data)
    return data


@pytest.fixture
def learnt_tables(learnt_tables_once: Path, tmp_path: Path) -> Path:
    """A copy of `learnt_tables_once` for one test to change (tmp_path/data)."""
    data = tmp_path / "data"
    shutil.copytree(learnt_tables_once, data)
    return data
