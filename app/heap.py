"""Hand freed heap memory back to the system promptly (glibc only), and keep the cyclic
garbage collector's passes short.

glibc keeps the free space at the top of each heap until it exceeds a threshold that
grows with the largest block ever freed; after a few dice readings (frame-sized buffers
freed on the reader's thread) some 20 MB stay with the app for good. A fixed, small
threshold makes glibc give that space back as it is freed. A Pi kiosk runs for hours
with 1-4 GB of memory shared with the desktop stack, so this is worth one call at start.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys

M_TRIM_THRESHOLD = -1  # mallopt parameter number, from glibc's malloc.h
TRIM_THRESHOLD_BYTES = 128 * 1024  # glibc's own starting value, now kept fixed


def keep_heap_trimmed(threshold_bytes: int = TRIM_THRESHOLD_BYTES) -> bool:
    """Fix glibc's trim threshold; False (nothing changed) on another C library or system."""
    if not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c")
    try:
        mallopt = ctypes.CDLL(name).mallopt if name else None
    except (OSError, AttributeError):  # musl and others have no mallopt
        return False
    if mallopt is None:
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return mallopt(M_TRIM_THRESHOLD, threshold_bytes) == 1


def freeze_start_up_objects() -> None:
    """Leave what start-up made (modules, classes, the window, the journal, the dice station)
    out of the cyclic collector's passes from now on: some 30,000 objects that live as long as
    the app, which each full pass would otherwise walk again (WindroseApp collects dropped
    widget trees promptly, see docs/memory.md). Garbage already there is collected first;
    what is frozen is still freed by reference counting when it goes."""
    gc.collect()
    gc.freeze()
