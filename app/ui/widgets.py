"""Small building blocks shared by every screen: buttons, labels, cubes, dice.

All are drawn with Kivy graphics (no image files), sized for fingers at the
800x480 baseline, and coloured from the theme so player colours look the same
everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.i18n import _


class Panel(BoxLayout):
    """A BoxLayout with a flat background colour."""

    bg = ListProperty(list(theme.PANEL))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.canvas.before:
            self._bg_colour = Color(*self.bg)
            self._bg_rect = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._redraw, size=self._redraw, bg=self._redraw)

    def _redraw(self, *_args: Any) -> None:
        self._bg_colour.rgba = self.bg
        self._bg_rect.pos = self.pos
        self._bg_rect.size = self.size


class TextField(TextInput):
    """A one-line text input that opens the on-screen keyboard (app.ui.keyboard) when tapped, and
    does not keep the screen it was on alive.

    Kivy 2.3's TextInput._adjust_viewport is wrapped by kivy.clock.triggered, which keeps the
    arguments of its last call in one closure for the whole class: the last text input shown,
    and through its parents the whole tree of the screen it was on (the card form's game screen
    is some 100 widgets), lived on after the screen let go of it. Each field keeps its own here.
    """

    _adjust_viewport_now = TextInput._adjust_viewport.__wrapped__  # Kivy's method, undecorated

    def __init__(self, **kwargs: Any) -> None:
        self._viewport_cursor = (0, 0)
        self._viewport_trigger = Clock.create_trigger(self._adjust_viewport_later, -1)
        super().__init__(**kwargs)
        self.bind(focus=self._focus_changed)

    def _focus_changed(self, _field: TextInput, focused: bool) -> None:
        if focused:
            from app.ui.keyboard import open_keyboard  # the keyboard is built of this module's widgets

            open_keyboard(self)

    def _adjust_viewport(self, cc: int, cr: int) -> None:
        """Scroll the text to show the cursor at the next clock tick, as Kivy's own does."""
        self._viewport_cursor = (cc, cr)
        self._viewport_trigger()

    def _adjust_viewport_later(self, _dt: float) -> None:
        self._adjust_viewport_now(*self._viewport_cursor)


ELLIPSIS = "\u2026"
# Text too big for its box (a large text-size setting on a small screen) is drawn smaller, down to
# this share of its size: at 140 % that is about the 100 % size, never smaller.
FIT_FLOOR = 0.7


def _fitted_size(core: Any, nominal: float, fits: Callable[[], bool]) -> None:
    """Set the core label's font size to the largest from `nominal` down to FIT_FLOOR of it at
    which `fits()` holds after a layout pass (the smallest tried when none does)."""
    size = nominal
    core.options["font_size"] = size
    floor = nominal * FIT_FLOOR
    while size - 1 >= floor:
        core.render()
        if fits():
            return
        size -= 1
        core.options["font_size"] = size


def _words_whole(core: Any, text: str) -> bool:
    """Whether a layout kept every word on one line (Kivy breaks a word wider than the box)."""
    laid_out = " ".join("".join(word.text for word in line.words) for line in core._cached_lines)
    return laid_out.split() == text.split()


def _shown_characters(core: Any) -> int:
    """How many non-blank characters a core label's last layout kept (lines that do not fit are dropped)."""
    return sum(len("".join(word.text.split())) for line in core._cached_lines for word in line.words)


class TextLabel(Label):
    """A label that wraps inside its width and never overflows its box; a text cut at the box's
    last line ends in an ellipsis there, so a cut text looks cut."""

    def __init__(self, text: str = "", size: int = theme.FONT_NORMAL, **kwargs: Any) -> None:
        kwargs.setdefault("color", theme.TEXT)
        kwargs.setdefault("halign", "left")
        kwargs.setdefault("valign", "middle")
        super().__init__(text=text, font_size=theme.font(size), **kwargs)
        self.bind(size=self._fit)
        self._fit()

    def _fit(self, *_args: Any) -> None:
        self.text_size = (max(1.0, self.width - 8), max(1.0, self.height))
        self.max_lines = max(1, int(self.height // (self.font_size * 1.25)))
        # Kivy's shortening keeps to one line, so it is only for boxes one line high.
        self.shorten = self.max_lines == 1
        self.shorten_from = "right"

    def texture_update(self, *args: Any) -> None:
        """Kivy's wrapping drops the lines below the box without a sign (its own shortening is one
        line only): when it dropped some, the last line kept is cut to end in an ellipsis. A box
        one line high first tries smaller type (down to FIT_FLOOR) before Kivy shortens the text."""
        full = self.text
        core = self._label
        if not self.markup:
            core.text = full  # an earlier, smaller box may have left a cut text here
        if self.shorten and full.strip():  # one line: smaller type before Kivy shortens it
            _fitted_size(core, self.font_size, lambda: not core.is_shortened and sum(
                line.h for line in core._cached_lines) <= self.height + 1)
        else:
            core.options["font_size"] = self.font_size
        super().texture_update(*args)
        if self.markup:
            return
        if self.shorten or not full.strip() or _shown_characters(core) >= len("".join(full.split())):
            return
        core.text = self._cut_to_fit(full)
        super().texture_update(*args)
        self.is_shortened = True

    def _cut_to_fit(self, full: str) -> str:
        """The longest start of `full` that, ending in an ellipsis, fits the box; cut after a whole
        word when the kept part has one."""
        core = self._label

        def fits(kept: int) -> bool:
            text = self._ended(full[:kept])
            core.text = text
            core.render()
            return _shown_characters(core) >= len("".join(text.split()))

        low, high = 0, len(full)  # fits(low) holds: the ellipsis alone fits any box a line high
        while low < high:
            middle = (low + high + 1) // 2
            if fits(middle):
                low = middle
            else:
                high = middle - 1
        word_end = full.rfind(" ", 0, low + 1)
        return self._ended(full[:word_end] if word_end > 0 else full[:low])

    def wrapped_height(self) -> float:
        """The height the whole text needs wrapped at the label's width, as many lines as
        `_fit` grants a box of that height (a row can grow to it instead of cutting)."""
        core = CoreLabel(text=self.text, font_size=self.font_size, font_name=self.font_name, bold=self.bold,
                         text_size=(max(1.0, self.width - 8), None))
        core.resolve_font_name()
        _width, height = core.render()
        return max(float(height), len(core._cached_lines) * self.font_size * 1.25)

    @staticmethod
    def _ended(kept: str) -> str:
        return kept.rstrip(" ,;:.") + ELLIPSIS


class TapGuard:
    """Every tap's callback runs through here, so one place (the app's `guarded`) turns a fault
    on the way to the disk into a notice instead of ending the app. What a callback returns is
    not used, so a tap may call a method that returns something (whether the rules took a roll)."""

    def __init__(self) -> None:
        self.guard: Callable[[Callable[[], object]], None] | None = None

    def run(self, on_tap: Callable[[], object]) -> None:
        if self.guard is None:
            on_tap()
        else:
            self.guard(on_tap)


taps = TapGuard()


class BigButton(Button):
    """A finger-sized flat button; `role` picks its colour (normal, ok, danger, player);
    `outlined` rims a chosen one whose fill is a colour of its own (a cube)."""

    role = StringProperty("normal")
    outlined = BooleanProperty(False)

    def __init__(
        self,
        text: str = "",
        on_tap: Callable[[], object] | None = None,
        role: str = "normal",
        fill: tuple[float, float, float, float] | None = None,
        size: int = theme.FONT_NORMAL,
        tag: Any = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", theme.BUTTON_HEIGHT)
        super().__init__(text=text, font_size=theme.font(size), **kwargs)
        self.background_normal = ""
        self.background_down = ""
        self.background_disabled_normal = ""
        self.halign = "center"
        self.valign = "middle"
        self.role = role
        self.tag = tag  # what the button stands for, e.g. ("cube", "red"): names it for tests and tools
        self._fill = fill
        self._apply_colours()
        self.bind(disabled=lambda *_a: self._apply_colours(), size=self._fit)
        self.bind(pos=self._draw_rim, size=self._draw_rim, outlined=self._draw_rim)
        self._fit()
        self._draw_rim()
        if on_tap is not None:
            self.bind(on_release=lambda *_a: taps.run(on_tap))

    def _fit(self, *_args: Any) -> None:
        self.text_size = (max(1.0, self.width - 10), max(1.0, self.height))

    def texture_update(self, *args: Any) -> None:
        """A text that would run past the button's edges or break inside a word (an action's
        long name at a large text size) is drawn smaller, down to FIT_FLOOR of its size."""
        core = self._label
        if self.markup or not self.text.strip() or self.width <= 10 or self.height <= 1:
            core.options["font_size"] = self.font_size
        else:
            _fitted_size(core, self.font_size, lambda: _words_whole(core, self.text) and sum(
                line.h for line in core._cached_lines) <= self.height)
        super().texture_update(*args)

    def _draw_rim(self, *_args: Any) -> None:
        """A light rim with a dark line inside it: plain on every cube colour, white and gray too."""
        self.canvas.after.clear()
        if not self.outlined:
            return
        with self.canvas.after:
            Color(*theme.TEXT)
            Line(rectangle=(self.x + 3, self.y + 3, self.width - 6, self.height - 6), width=3)
            Color(*theme.BACKGROUND)
            Line(rectangle=(self.x + 7, self.y + 7, self.width - 14, self.height - 14), width=1.5)

    def _apply_colours(self) -> None:
        fills = {
            "normal": theme.PANEL_LIGHT,
            "ok": theme.OK,
            "danger": theme.DANGER,
            "accent": theme.ACCENT,
            "selected": theme.ACCENT,
        }
        fill = self._fill or fills.get(self.role, theme.PANEL_LIGHT)
        if self.disabled:
            # A coloured button (a cube, a player) keeps a dimmed hint of its colour: a row of
            # greyed cubes must still say which colour each one is.
            self.background_color = theme.dimmed(self._fill) if self._fill else theme.DISABLED
            self.disabled_color = theme.DISABLED_TEXT
        else:
            self.background_color = fill
            brightness = 0.3 * fill[0] + 0.59 * fill[1] + 0.11 * fill[2]
            self.color = (0.07, 0.07, 0.07, 1) if brightness > 0.6 else theme.TEXT


def player_button(colour: str, text: str, on_tap: Callable[[], None] | None = None, **kwargs: Any) -> BigButton:
    """A button filled with a player's colour."""
    return BigButton(text=text, on_tap=on_tap, fill=theme.player_colour(colour), **kwargs)


class CubeWidget(Widget):
    """One action cube drawn in its colour; shows a count when it stands for a pile."""

    colour = StringProperty("red")
    count = NumericProperty(1)

    def __init__(self, colour: str, count: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.colour = colour
        self.count = count
        self._label: Label | None = None  # made only for piles (count > 1): labels are costly
        self.bind(pos=self._redraw, size=self._redraw, colour=self._redraw, count=self._redraw)
        self._redraw()

    def _redraw(self, *_args: Any) -> None:
        side = min(self.width, self.height) * 0.9
        # From x/y/width/height, not center: a pos callback may run before Kivy updates center.
        x = self.x + (self.width - side) / 2
        y = self.y + (self.height - side) / 2
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*theme.CUBE_OUTLINE)
            RoundedRectangle(pos=(x - 1.5, y - 1.5), size=(side + 3, side + 3), radius=[4])
            Color(*theme.cube_colour(self.colour))
            RoundedRectangle(pos=(x, y), size=(side, side), radius=[4])
        if self.count == 1 and self._label is None:
            return
        if self._label is None:
            self._label = Label(font_size=theme.font(theme.FONT_NORMAL), bold=True)
            self.add_widget(self._label)
        self._label.pos = (x, y)
        self._label.size = (side, side)
        self._label.text = str(self.count) if self.count != 1 else ""
        self._label.color = theme.CUBE_TEXT.get(self.colour, theme.TEXT)


class CubeRow(BoxLayout):
    """A row of cube piles: one cube per colour with its count."""

    def __init__(self, cubes: Mapping[str, int] | Iterable[str], cube_size: int = 36, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", cube_size)
        kwargs.setdefault("spacing", 4)
        super().__init__(**kwargs)
        counts = _count(cubes)
        for colour, n in counts.items():
            if n > 0:
                self.add_widget(CubeWidget(colour, n, size_hint=(None, None), size=(cube_size, cube_size)))
        if not any(counts.values()):
            self.add_widget(TextLabel(_("no cubes"), size=theme.FONT_SMALL, color=theme.TEXT_DIM))
        else:
            self.add_widget(Widget())


def _count(cubes: Mapping[str, int] | Iterable[str]) -> dict[str, int]:
    if isinstance(cubes, Mapping):
        return {c: int(n) for c, n in cubes.items()}
    counts: dict[str, int] = {}
    for c in cubes:
        counts[c] = counts.get(c, 0) + 1
    return counts


_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.73), (0.73, 0.27)),
    3: ((0.25, 0.75), (0.5, 0.5), (0.75, 0.25)),
    4: ((0.27, 0.27), (0.27, 0.73), (0.73, 0.27), (0.73, 0.73)),
    5: ((0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)),
    6: ((0.27, 0.22), (0.27, 0.5), (0.27, 0.78), (0.73, 0.22), (0.73, 0.5), (0.73, 0.78)),
}


class DieWidget(ButtonBehavior, Widget):
    """A die in its colour with its pips; magenta rim when the reading is unsure,
    a thick light rim when selected. Value 0 means not read yet (shows '?')."""

    colour = StringProperty("red")
    value = NumericProperty(0)
    unsure = BooleanProperty(False)
    selected = BooleanProperty(False)
    note = StringProperty("")

    def __init__(self, colour: str, value: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.colour = colour
        self.value = value
        self._question = Label(text="?", bold=True)
        self._note = Label(font_size=theme.font(theme.FONT_SMALL), color=theme.TEXT)
        self.add_widget(self._question)
        self.add_widget(self._note)
        self.bind(
            pos=self._redraw, size=self._redraw, colour=self._redraw, value=self._redraw,
            unsure=self._redraw, selected=self._redraw, note=self._redraw,
        )
        self._redraw()

    def _redraw(self, *_args: Any) -> None:
        note_h = theme.font(theme.FONT_SMALL) * 1.4 if self.note else 0
        side = max(10.0, min(self.width, self.height - note_h) * 0.92)
        x = self.x + (self.width - side) / 2
        y = self.y + note_h + (self.height - note_h - side) / 2
        pip_colour = theme.CUBE_TEXT.get(self.colour, theme.TEXT)
        self.canvas.before.clear()
        with self.canvas.before:
            if self.selected:  # a rim that grows with the die, so a big one shows it across the table
                rim = max(6.0, side * 0.07)
                Color(*theme.TEXT)
                RoundedRectangle(pos=(x - rim, y - rim), size=(side + 2 * rim, side + 2 * rim), radius=[6 + rim])
            if self.unsure:
                Color(*theme.UNSURE)
                Line(rounded_rectangle=(x - 4, y - 4, side + 8, side + 8, 10), width=3)
            Color(*theme.CUBE_OUTLINE)
            RoundedRectangle(pos=(x - 1.5, y - 1.5), size=(side + 3, side + 3), radius=[9])
            Color(*theme.cube_colour(self.colour))
            RoundedRectangle(pos=(x, y), size=(side, side), radius=[8])
            Color(*pip_colour)
            r = side * 0.09
            for px, py in _PIPS.get(int(self.value), ()):
                Ellipse(pos=(x + px * side - r, y + py * side - r), size=(2 * r, 2 * r))
        self._question.text = "?" if int(self.value) not in _PIPS else ""
        self._question.color = pip_colour
        self._question.font_size = side * 0.6
        self._question.pos = (x, y)
        self._question.size = (side, side)
        self._note.text = self.note
        self._note.pos = (self.x, self.y)
        self._note.size = (self.width, note_h)


class PlayerBadge(Panel):
    """A player's name on their colour, used wherever a player is named."""

    def __init__(self, colour: str, name: str, size: int = theme.FONT_NORMAL, **kwargs: Any) -> None:
        super().__init__(bg=list(theme.player_colour(colour)), padding=(8, 0), **kwargs)
        self.add_widget(TextLabel(name, size=size, bold=True, color=theme.on_player_text(colour)))


def fit_stack(box: BoxLayout) -> BoxLayout:
    """Give a vertical box the least and the most height its rows can take (Kivy does not add up
    its children's bounds), so a parent sharing spare height gives it neither less nor more."""
    least = most = sum(box.padding[1::2]) + box.spacing * max(0, len(box.children) - 1)
    bounded = True
    for child in box.children:
        if child.size_hint_y is None:
            least += child.height
            most += child.height
        else:
            least += child.size_hint_min_y or 0
            bounded = bounded and child.size_hint_max_y is not None
            most += child.size_hint_max_y or 0
    box.size_hint_min_y, box.size_hint_max_y = least, most if bounded else None
    return box


def spacer(**kwargs: Any) -> Widget:
    return Widget(**kwargs)


class Tile(ButtonBehavior, Panel):
    """A tappable panel (a card slot, a history line): a BoxLayout with a background."""

    def __init__(self, on_tap: Callable[[], object] | None = None, tag: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tag = tag
        if on_tap is not None:
            self.bind(on_release=lambda *_a: taps.run(on_tap))


def segmented(
    values: Iterable[Any], current: Any, on_pick: Callable[[Any], None],
    labels: Mapping[Any, str] | None = None, group: str = "", **kwargs: Any,
) -> BoxLayout:
    """A row of buttons of which one is lit: a compact choice for small numbers."""
    row = BoxLayout(spacing=3, **kwargs)
    for value in values:
        text = labels.get(value, str(value)) if labels else str(value)
        row.add_widget(BigButton(text, role="selected" if value == current else "normal", tag=(group, value),
                                 on_tap=partial(on_pick, value), height=kwargs.get("height", theme.BUTTON_HEIGHT)))
    return row


def cube_button(colour: str, on_tap: Callable[[], None], text: str = "", group: str = "cube", **kwargs: Any) -> BigButton:
    """A button filled with a cube colour (for picking cubes); `outlined=True` marks the chosen one."""
    kwargs.setdefault("size", theme.FONT_NORMAL)
    return BigButton(text, on_tap=on_tap, fill=theme.cube_colour(colour), tag=(group, colour), **kwargs)


def stepper(
    value: int, on_change: Callable[[int], None], low: int = 0, high: int = 99, key: str = "", **kwargs: Any,
) -> BoxLayout:
    """[-] value [+] with finger-sized buttons."""
    kwargs.setdefault("size_hint_y", None)
    kwargs.setdefault("height", theme.BUTTON_HEIGHT)
    row = BoxLayout(spacing=3, **kwargs)
    row.add_widget(BigButton("-", on_tap=lambda: on_change(value - 1), disabled=value <= low, size=theme.FONT_LARGE,
                             tag=(key, -1)))
    row.add_widget(TextLabel(str(value), size=theme.FONT_LARGE, bold=True, halign="center"))
    row.add_widget(BigButton("+", on_tap=lambda: on_change(value + 1), disabled=value >= high, size=theme.FONT_LARGE,
                             tag=(key, 1)))
    return row


def blocked_button(text: str, reason: str, on_blocked: Callable[[str], None], **kwargs: Any) -> BigButton:
    """A greyed action that still answers a tap, with the reason it is not allowed."""
    button = BigButton(text, on_tap=lambda: on_blocked(reason), fill=theme.DISABLED, **kwargs)
    button.color = theme.TEXT_DIM
    button.blocked_reason = reason
    return button
