"""The app's start-up fixes glibc's trim threshold and freezes what it made (app/heap.py)."""

from __future__ import annotations

import gc
import sys
import weakref

import pytest

from app import heap


def test_sets_the_trim_threshold_on_glibc() -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("glibc's mallopt is a Linux call")
    assert heap.keep_heap_trimmed() is True


def test_changes_nothing_on_another_system(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap.sys, "platform", "darwin")
    assert heap.keep_heap_trimmed() is False


def test_a_c_library_without_mallopt_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoMallopt:
        def __init__(self, _name: str) -> None:
            pass

        def __getattr__(self, name: str) -> object:
            raise AttributeError(name)

    monkeypatch.setattr(heap.sys, "platform", "linux")
    monkeypatch.setattr(heap.ctypes, "CDLL", NoMallopt)
    assert heap.keep_heap_trimmed() is False


def test_start_up_objects_are_frozen_after_the_garbage_is_collected() -> None:
    class Node:
        pass

    cycle = Node()
    cycle.me = cycle  # type: ignore[attr-defined]
    dead = weakref.ref(cycle)
    del cycle
    try:
        heap.freeze_start_up_objects()
        assert dead() is None  # collected, not frozen for good
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()  # this test process's objects go back to the collector
