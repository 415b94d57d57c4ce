"""sd_notify messages arrive on a real AF_UNIX datagram socket, as systemd would receive them."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.watchdog import SystemdNotifier, announce_ready


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    yield sock, path
    sock.close()


def test_ready_and_watchdog_messages_reach_the_socket(listener) -> None:
    sock, path = listener
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000",
                                "WATCHDOG_PID": str(os.getpid())})
    assert notifier.enabled and notifier.ping_interval_s == 15.0
    assert notifier.ready("Windrose is up")
    assert sock.recv(256) == b"READY=1\nSTATUS=Windrose is up"
    assert notifier.ping()
    assert sock.recv(256) == b"WATCHDOG=1"
    assert notifier.stopping()
    assert sock.recv(256) == b"STOPPING=1"


def test_abstract_socket_names_are_supported() -> None:
    name = f"windrose-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(5)
    try:
        assert SystemdNotifier({"NOTIFY_SOCKET": "@" + name}).ping()
        assert sock.recv(64) == b"WATCHDOG=1"
    finally:
        sock.close()


def test_outside_systemd_nothing_is_sent_and_nothing_fails() -> None:
    notifier = SystemdNotifier({})
    assert not notifier.enabled
    assert notifier.ping_interval_s is None
    assert notifier.ready() is False


def test_a_vanished_socket_is_not_an_error(tmp_path: Path) -> None:
    assert SystemdNotifier({"NOTIFY_SOCKET": str(tmp_path / "gone")}).ping() is False


def test_watchdog_meant_for_another_process_is_ignored() -> None:
    notifier = SystemdNotifier({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"})
    assert notifier.ping_interval_s is None


def test_announce_ready_sends_ready_and_schedules_pings_on_the_ui_clock(listener) -> None:
    sock, path = listener
    scheduled: list[tuple[object, float]] = []
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"})
    announce_ready(lambda callback, interval: scheduled.append((callback, interval)), notifier)
    assert sock.recv(256) == b"READY=1\nSTATUS=Windrose is running"
    assert [interval for _, interval in scheduled] == [15.0]
    scheduled[0][0](15.0)  # what the UI clock does every 15 s
    assert sock.recv(256) == b"WATCHDOG=1"


def test_announce_ready_without_a_watchdog_schedules_nothing() -> None:
    scheduled: list[object] = []
    announce_ready(lambda callback, interval: scheduled.append(callback), SystemdNotifier({}))
    assert scheduled == []
