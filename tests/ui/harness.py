"""Drives the real Windrose screens by taps: the app is built on the (offscreen) Kivy window,
taps are touches pressed at a widget's centre, EventLoop.idle() lets Kivy process them.

Used in-process by the widget tests and inside a subprocess by the whole-game
and restart tests (DESIGN.md: the whole App runs only in a subprocess).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")

from kivy.config import Config as KivyConfig  # noqa: E402

KivyConfig.set("graphics", "maxfps", "0")  # no frame pacing: each idle() returns at once
KivyConfig.set("kivy", "exit_on_escape", "0")

from kivy.base import EventLoop  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.input.motionevent import MotionEvent  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.layout import Layout  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

from app.session import Session  # noqa: E402
from app.ui.app import UiContext, WindroseApp  # noqa: E402
from app.ui.macao.catalogue import CardCatalogue  # noqa: E402
from app.ui.i18n import translator  # noqa: E402
from app.ui.settings_store import SettingsStore, UiSettings  # noqa: E402
from app.ui.widgets import TextLabel  # noqa: E402

STARTED = "2026-11-29T19:30:00+01:00"


def parents(widget: Widget) -> Iterator[Widget]:
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        yield parent
        parent = parent.parent


class Touch(MotionEvent):
    """A finger at window coordinates, as Kivy's UnitTestTouch. That one lives in kivy.tests,
    which imports pytest: some 8 MB in the whole-game subprocess whose memory is measured."""

    def __init__(self, x: float, y: float) -> None:
        window = EventLoop.window
        super().__init__("harness", 99, {"x": x / (window.width - 1.0), "y": y / (window.height - 1.0)},
                         is_touch=True, type_id="touch")
        self.profile = ["pos"]

    def depack(self, args: dict[str, float]) -> None:
        self.sx, self.sy = args["x"], args["y"]
        super().depack(args)


def _press(x: float, y: float) -> None:
    """A finger's press and release at a point of the window."""
    touch = Touch(x, y)
    EventLoop.post_dispatch_input("begin", touch)
    EventLoop.post_dispatch_input("end", touch)


def _release_delayed_touch_up() -> None:
    """A ScrollView hands a quick tap's release to its child 0.2 s later (Kivy waits to tell a
    tap from a scroll); fire that scheduled release now instead of waiting for the clock."""
    for event in Clock.get_events():
        callback = event.get_callback()
        if isinstance(callback, functools.partial) and callback.func.__name__ == "_do_touch_up":
            event.cancel()
            callback(0)


def make_context(folder: Path, dice: Any = None) -> UiContext:
    session = Session.open(folder / "windrose.db")
    return UiContext(
        session=session, settings=UiSettings(), settings_store=SettingsStore(folder / "ui-settings.json"),
        catalogue=CardCatalogue(folder / "cards.json"), exports_dir=folder / "exports", dice=dice,
        clock=lambda: STARTED,
    )


class UiHarness:
    """The app's screen manager on the window, with helpers to find and tap widgets."""

    def __init__(self, context: UiContext, size: tuple[int, int] = (800, 480)) -> None:
        translator.set_language("en")
        EventLoop.ensure_window()
        self.window = EventLoop.window
        self.window.size = size
        self.app = WindroseApp(context)
        self.root = self.app.build()
        self.window.add_widget(self.root)
        self.taps = 0
        self.idle()

    def idle(self) -> None:
        """Run Kivy's clock (scheduled callbacks) and lay every widget out, without drawing a frame:
        taps need positions, not pixels, and software rendering of a frame is slow.

        Builder.sync() runs the canvas expressions that Kivy defers to the next frame, as
        EventLoop.idle() does before drawing; left out, Kivy's queue of them keeps every widget's
        canvas rules alive and grows with each screen rebuilt (about 4 MB a round of a game)."""
        Clock.tick()
        Builder.sync()
        for _ in range(3):
            for widget in self.root.walk():
                if isinstance(widget, Layout):
                    widget.do_layout()
                elif isinstance(widget, ScrollView):
                    widget.update_from_scroll()  # sizes and places its content
        Clock.tick()
        Builder.sync()

    def close(self) -> None:
        self.window.remove_widget(self.root)
        self.app.on_stop()
        self.app.context.session.close()

    # -- finding -------------------------------------------------------------------
    def walk(self) -> Iterator[Widget]:
        return self.app.manager.current_screen.walk(restrict=True)

    def labels(self) -> list[str]:
        return [w.text for w in self.walk() if isinstance(w, Label) and w.text]

    def cut_texts(self) -> list[str]:
        """Texts on screen drawn shorter than they are (our ellipsis or Kivy's one-line shortening)."""
        cut = []
        for widget in self.walk():
            if isinstance(widget, TextLabel) and not widget.markup:
                widget.texture_update()
                if widget.is_shortened or widget._label.text != widget.text:
                    cut.append(widget.text)
        return cut

    def buttons(self, text: str | None = None, prefix: str | None = None) -> list[Button]:
        found = [w for w in self.walk() if isinstance(w, Button)]
        if text is not None:
            found = [b for b in found if b.text == text]
        if prefix is not None:
            found = [b for b in found if b.text.startswith(prefix)]
        return found

    def button(self, text: str | None = None, prefix: str | None = None) -> Button:
        found = self.buttons(text, prefix)
        if len(found) != 1:
            raise AssertionError(f"expected one button {text or prefix!r}, found {len(found)}; "
                                 f"buttons: {[b.text for b in self.buttons()]}")
        return found[0]

    def tagged(self, *tag: Any) -> Widget:
        """The one widget on screen whose `tag` is `tag` (the UI names its choice buttons so)."""
        found = [w for w in self.walk() if getattr(w, "tag", None) == tuple(tag)]
        if len(found) != 1:
            raise AssertionError(f"expected one widget tagged {tag!r}, found {len(found)}")
        return found[0]

    def find(self, kind: type, **attributes: Any) -> list[Widget]:
        return [w for w in self.walk() if isinstance(w, kind)
                and all(getattr(w, k, None) == v for k, v in attributes.items())]

    # -- tapping -------------------------------------------------------------------
    def tap(self, widget: Widget) -> None:
        """Press and release at the widget's centre, as a finger would."""
        if widget.get_root_window() is None:
            raise AssertionError(f"{widget!r} is not on screen")
        scroll = next((p for p in parents(widget) if isinstance(p, ScrollView)), None)
        if scroll is not None:
            scroll.scroll_to(widget, padding=0, animate=False)
            self.idle()
        _press(*widget.to_window(*widget.center))
        if scroll is not None:
            _release_delayed_touch_up()
        self.taps += 1
        self.idle()

    def tap_at(self, x: float, y: float) -> None:
        """Press and release at a point of the window (a place on a picture, say)."""
        _press(x, y)
        self.taps += 1
        self.idle()

    def tap_text(self, text: str) -> None:
        self.tap(self.button(text))
