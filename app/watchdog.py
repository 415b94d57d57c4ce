"""Telling systemd the app is up and still alive (sd_notify), with the standard library only.

systemd passes a datagram socket in $NOTIFY_SOCKET (Type=notify) and the
watchdog period in $WATCHDOG_USEC. The UI sends READY=1 once its first screen
is shown and WATCHDOG=1 from its own clock, so a hung UI thread stops the pings
and systemd restarts the app. Outside systemd every call does nothing.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Mapping
from typing import Any


class SystemdNotifier:
    """Sends sd_notify messages; silent when not started by systemd."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):  # an abstract socket name
            address = "\0" + address[1:]
        self._address = address
        self._watchdog_s = self._watchdog_period(env)

    @staticmethod
    def _watchdog_period(env: Mapping[str, str]) -> float | None:
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        if not usec.isdigit() or int(usec) == 0:
            return None
        if pid and pid != str(os.getpid()):  # meant for another process
            return None
        return int(usec) / 1_000_000

    @property
    def enabled(self) -> bool:
        return bool(self._address)

    @property
    def ping_interval_s(self) -> float | None:
        """How often to call `ping` (half the watchdog period), or None without a watchdog."""
        return None if self._watchdog_s is None else self._watchdog_s / 2

    def notify(self, message: str) -> bool:
        """Send one message; False when there is no socket or sending failed."""
        if not self._address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message.encode(), self._address)
        except OSError:
            return False  # systemd went away: nothing useful to do about it here
        return True

    def ready(self, status: str = "") -> bool:
        """The first screen is up."""
        return self.notify("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def ping(self) -> bool:
        """Still alive: call from the UI thread every `ping_interval_s`."""
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")


def announce_ready(schedule_interval: Callable[[Callable[[float], Any], float], Any],
                   notifier: SystemdNotifier | None = None) -> SystemdNotifier:
    """Say READY=1 and start the watchdog pings on the UI's own clock.

    The UI calls `announce_ready(Clock.schedule_interval)` once its first screen
    is shown (in App.on_start): the pings then stop exactly when the UI thread
    stops, which is what the watchdog is there to notice.
    """
    notifier = SystemdNotifier() if notifier is None else notifier
    notifier.ready("Windrose is running")
    interval = notifier.ping_interval_s
    if interval is not None:
        schedule_interval(lambda _dt: notifier.ping(), interval)
    return notifier
