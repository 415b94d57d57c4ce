"""Opening GPIO devices through gpiozero, with failures turned into one plain message."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TypeVar

from gpiozero import Factory
from gpiozero.exc import GPIOPinInUse, PinFactoryFallback

DeviceT = TypeVar("DeviceT")


class GpioUnavailable(Exception):
    """A GPIO device could not be opened; the message says which pin and why."""


class LgpioChip:
    """A GPIO chip driven through lgpio (the only class that imports it)."""

    @staticmethod
    def pin_factory(chip: int) -> Factory | None:
        """gpiozero's lgpio factory on an explicit chip; None (gpiozero's own choice) for -1.

        The Pi 5 drives its header through lgpio only; older kernels number the
        header's chip 4 instead of 0, hence the override.
        """
        if chip < 0:
            return None
        try:
            from gpiozero.pins.lgpio import LGPIOFactory
            return LGPIOFactory(chip=chip)
        except Exception as exc:  # lgpio missing or the chip absent: both mean no GPIO here
            raise GpioUnavailable(f"GPIO chip {chip} cannot be opened: {exc}") from exc


def open_device(what: str, pin: int, make: Callable[[], DeviceT]) -> DeviceT:
    """Run `make` (a gpiozero constructor) and turn any failure into GpioUnavailable."""
    try:
        with warnings.catch_warnings():
            # gpiozero warns once per factory it tries; the final error says enough.
            warnings.simplefilter("ignore", PinFactoryFallback)
            return make()
    except GPIOPinInUse as exc:
        raise GpioUnavailable(f"{what} on GPIO{pin}: the pin is busy (used by another "
                              f"device or program)") from exc
    except ImportError as exc:  # BadPinFactory, or the named factory's library is missing
        raise GpioUnavailable(f"{what} on GPIO{pin}: this machine has no usable GPIO ({exc})") from exc
    except Exception as exc:  # lgpio reports a busy line as lgpio.error, others vary
        raise GpioUnavailable(f"{what} on GPIO{pin} cannot be opened: {exc}") from exc
