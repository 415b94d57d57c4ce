"""Hand freed heap memory back to the system promptly (glibc only), and keep the cyclic
garbage collector's passes short.

glibc keeps the free space at the top of each heap until it exceeds a threshold that
grows with the largest block ever freed; after a few dice readings (frame-sized buffers
freed on the reader's thread) some 20 MB stay with the app for good. A fixed, small
threshold makes glibc give that space back as it is freed. A Pi kiosk runs for hours
with 1-4 GB of memory shared with the desktop stack, so this is worth one call at start.
The free pages left between blocks still in use are given back after each of the app's
garbage collections (`give_back_free_heap`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys
from typing import Any

M_TRIM_THRESHOLD = -1  # mallopt parameter number, from glibc's malloc.h
TRIM_THRESHOLD_BYTES = 128 * 1024  # glibc's own starting value, now kept fixed


def keep_heap_trimmed(threshold_bytes: int = TRIM_THRESHOLD_BYTES) -> bool:
    """Fix glibc's trim threshold; False (nothing changed) on another C library or system."""
    mallopt = _libc_function("mallopt")
    if mallopt is None:
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return mallopt(M_TRIM_THRESHOLD, threshold_bytes) == 1


def _libc_function(name: str) -> Any:
    """A function of the C library when it is glibc on Linux, else None."""
    if not sys.platform.startswith("linux"):
        return None
    library = ctypes.util.find_library("c")
    try:
        return getattr(ctypes.CDLL(library), name) if library else None
    except (OSError, AttributeError):  # musl and others have no mallopt or malloc_trim
        return None


_malloc_trim: Any = None


def give_back_free_heap() -> bool:
    """Return the whole free pages inside glibc's heaps to the system (malloc_trim). The trim
    threshold only gives back free space at a heap's top; a collection that frees widget trees
    leaves holes between blocks still in use, which stay resident until reused. About 0.2 ms a
    call on the development machine; False (nothing done) on another C library or system."""
    global _malloc_trim
    if _malloc_trim is None:
        _malloc_trim = _libc_function("malloc_trim") or False
        if _malloc_trim:
            _malloc_trim.argtypes = (ctypes.c_size_t,)
            _malloc_trim.restype = ctypes.c_int
    if not _malloc_trim:
        return False
    _malloc_trim(0)
    return True


def freeze_start_up_objects() -> None:
    """Leave what start-up made (modules, classes, the window, the journal, the dice station)
    out of the cyclic collector's passes from now on: some 30,000 objects that live as long as
    the app, which each full pass would otherwise walk again (WindroseApp collects dropped
    widget trees promptly, see docs/memory.md). Garbage already there is collected first;
    what is frozen is still freed by reference counting when it goes."""
    gc.collect()
    gc.freeze()
