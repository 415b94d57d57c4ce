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


class _LibcWithoutFunctions:
    """A C library (musl, say) that has neither mallopt nor malloc_trim."""

    def __init__(self, _name: str) -> None:
        pass

    def __getattr__(self, name: str) -> object:
        raise AttributeError(name)


def test_a_c_library_without_mallopt_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap.sys, "platform", "linux")
    monkeypatch.setattr(heap.ctypes, "CDLL", _LibcWithoutFunctions)
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


def _resident_kb() -> int:
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_free_pages_between_live_blocks_go_back_to_the_system(monkeypatch: pytest.MonkeyPatch) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("glibc's malloc_trim is a Linux call")
    monkeypatch.setattr(heap, "_malloc_trim", None)
    blocks = [bytearray(b"x" * 100_000) for _ in range(400)]  # 40 MB below the mmap threshold: glibc's heap
    last = bytearray(b"x" * 100_000)  # still in use above them, so the heap's top cannot shrink
    del blocks
    before = _resident_kb()
    assert heap.give_back_free_heap() is True
    assert before - _resident_kb() > 20_000  # most of the 40 MB freed in the middle
    del last


def test_gives_back_nothing_on_another_system(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "_malloc_trim", None)
    monkeypatch.setattr(heap.sys, "platform", "darwin")
    assert heap.give_back_free_heap() is False


def test_a_c_library_without_malloc_trim_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "_malloc_trim", None)
    monkeypatch.setattr(heap.sys, "platform", "linux")
    monkeypatch.setattr(heap.ctypes, "CDLL", _LibcWithoutFunctions)
    assert heap.give_back_free_heap() is False
    assert heap.give_back_free_heap() is False  # looked up once, remembered
