"""What every screen shares: rebuild-from-state, a title bar with a way back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from app.ui import theme
from app.ui.i18n import _
from app.ui.widgets import BigButton, Panel, TextLabel

if TYPE_CHECKING:
    from app.ui.app import WindroseApp


class BaseScreen(Screen):
    """A screen that draws itself from the session each time `refresh()` is called.

    Rebuilding is cheap for screens this size and keeps every label in step
    with the game and the active language.
    """

    def __init__(self, app: WindroseApp, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.app = app

    def refresh(self) -> None:
        if self.children:
            self.clear_widgets()
            self.app.dropped_widgets()
        root = Panel(orientation="vertical", bg=list(theme.BACKGROUND))
        self.build(root)
        self.add_widget(root)

    def build(self, root: BoxLayout) -> None:
        raise NotImplementedError

    def release(self) -> None:
        """Drop the widgets of a screen that was left: `app.go` builds them again from the
        session when it comes back, and an unseen screen should not hold hundreds of them."""
        self.clear_widgets()
        self.app.dropped_widgets()

    @staticmethod
    def portrait() -> bool:
        return Window.height > Window.width

    @staticmethod
    def roomy() -> bool:
        """Whether the window has height to spare for taller touch targets (portrait, 1280x720)."""
        return Window.height >= theme.ROOMY_HEIGHT

    @staticmethod
    def narrow() -> bool:
        """Whether the window is too narrow for a bar title beside three buttons (480x800)."""
        return Window.width < theme.NARROW_WIDTH

    @classmethod
    def tall_portrait(cls) -> bool:
        """A portrait window high enough for keys in more rows (720x1280, not 480x800)."""
        return cls.portrait() and Window.height >= theme.TALL_PORTRAIT_HEIGHT

    def title_bar(self, title: str, back_to: str | None = "start") -> BoxLayout:
        """A top bar with the screen title and, unless this is home, a Back button."""
        bar = Panel(size_hint_y=None, height=theme.TOP_BAR_HEIGHT, spacing=theme.GAP, padding=(0, 0, 0, 0))
        if back_to is not None:
            bar.add_widget(
                BigButton(_("Back"), on_tap=lambda: self.app.go(back_to), size_hint=(None, 1), width=120)
            )
        bar.add_widget(TextLabel(title, size=theme.FONT_LARGE, bold=True, halign="center"))
        if back_to is not None:
            bar.add_widget(Widget(size_hint_x=None, width=120))
        return bar


class Paragraph(TextLabel):
    """Text that wraps onto several lines (a TextLabel keeps to one): as many as its height holds,
    or with `grow` as many as the text needs, its height following the text."""

    def __init__(self, text: str = "", size: int = theme.FONT_NORMAL, grow: bool = False, **kwargs: Any) -> None:
        self.grow = grow
        if grow:
            kwargs["size_hint_y"] = None
        super().__init__(text, size, **kwargs)
        if grow:
            self.bind(texture_size=lambda *_args: setattr(self, "height", self.texture_size[1]))

    def _fit(self, *_args: Any) -> None:
        self.shorten = False
        if self.grow:
            self.text_size = (max(1.0, self.width - 8), None)
            self.max_lines = 0
            return
        self.text_size = (max(1.0, self.width - 8), max(1.0, self.height))
        self.max_lines = max(1, int(self.height // (self.font_size * 1.25)))
