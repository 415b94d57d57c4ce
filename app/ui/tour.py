"""`python -m app --screenshot-tour DIR [--language de]`: a seeded demo game played offscreen, a PNG
of every screen, in English (one German screen among them) or all in German.

The shell's screens are taken here; each game's UI package plays its own
seeded demo game through the app (GameUi.tour), so its screens show real
states. Main screens are also taken at 1280x720 and portrait 720x1280.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

BASE = (800, 480)
EXTRA_SIZES = ((1280, 720), (720, 1280))
STARTED = "2026-11-29T19:30:00+01:00"


def settle_animations(root: Any) -> None:
    """Finish every animation a widget runs (those with a `settle()`, e.g. a turning windrose):
    the tour's frames follow each other faster than the animations, which would leave them
    half-way in the pictures."""
    for widget in root.walk():
        settle = getattr(widget, "settle", None)
        if callable(settle):
            settle()


class Tour:
    """Drives the running app one step per frame and saves screenshots."""

    def __init__(self, app: Any, out: Path, work: Path, language: str = "en") -> None:
        self.app = app
        self.language = language
        self.out = out
        self.work = work  # the tour's own scratch folder (journal, exports, calibration)
        self.count = 0
        self.started = STARTED  # when the demo games start
        self.taken: list[Path] = []

    def shot(self, name: str, all_sizes: bool = False) -> Iterator[None]:
        """Save the screen as NN-name-WxH.png (at every size for the main screens)."""
        from kivy.core.window import Window

        self.count += 1
        for size in (BASE, *EXTRA_SIZES) if all_sizes else (BASE,):
            if tuple(Window.size) != size:
                Window.size = size
                yield
                self.app.refresh()
            yield
            yield
            settle_animations(self.app.root)
            target = self.out / f"{self.count:02d}-{name}-{size[0]}x{size[1]}.png"
            # Rendered through an Fbo at the window's size: the offscreen surface itself
            # keeps the size it was opened with.
            self.app.root.export_to_png(str(target))
            self.taken.append(target)
        if tuple(Window.size) != BASE:
            Window.size = BASE
            yield
            self.app.refresh()
            yield

    def shot_of(self, name: str, view: Any) -> Iterator[None]:
        """Save a view open over the screen (a ModalView: a player sheet, a summary) as its own
        NN-name-WxH.png, at the base size."""
        yield
        yield
        self.count += 1
        target = self.out / f"{self.count:02d}-{name}-{BASE[0]}x{BASE[1]}.png"
        view.export_to_png(str(target))
        self.taken.append(target)

    def steps(self) -> Iterator[None]:
        from app.ui.games import game_ui, playable_games

        app = self.app
        yield from self.shot("start-empty", all_sizes=True)
        app.go("new_game")
        yield from self.shot("choose-game", all_sizes=True)
        for game in playable_games():
            yield from game_ui(game).tour(self)
        app.go("past_games")
        yield from self.shot("past-games", all_sizes=True)
        yield from self.names_and_keyboard()
        yield from self.usb_stick()
        app.go("settings")
        yield from self.shot("settings")
        for section in app.manager.get_screen("settings").sections:
            yield from section.tour(self)
        yield from self.camera_check()

    def names_and_keyboard(self) -> Iterator[None]:
        """A set-up after the demo games: the roster's names to tap, then the on-screen keyboard
        typing into a name field (the first game whose set-up has a name field free to type in)."""
        from app.ui.games import game_ui, playable_games
        from app.ui.keyboard import close_keyboard, shown_keyboard
        from app.ui.widgets import TextField

        for game in playable_games():
            self.app.go(game_ui(game).setup_screen)
            yield
            fields = [w for w in self.app.manager.current_screen.walk() if isinstance(w, TextField) and not w.disabled]
            if fields:
                break
        else:
            return
        yield from self.shot("new-game-roster")
        fields[0].focus = True  # as a tap does
        keyboard = shown_keyboard()
        for key in ("j", "ü", "r", "g", "e", "n") if self.language == "de" else ("a", "n", "n", "a"):
            if keyboard is not None:
                keyboard.press(key)
        yield from self.shot("keyboard")  # one size: a new window size draws the screen again, without it
        close_keyboard()
        self.app.go("start")

    def usb_stick(self) -> Iterator[None]:
        """A USB stick mounted (a folder standing in for it): the last finished game exported to
        it by its button, then Import a game listing what is on it."""
        from app.sticks import Stick

        stick = Stick("GAMES", self.work / "media" / "GAMES")
        stick.path.mkdir(parents=True)
        self.app.context.find_sticks = lambda: [stick]
        finished = [game.id for game in self.app.session.games() if game.finished and not game.problem]
        if finished:
            self.app.go("past_game", game_id=finished[-1])
            yield from self.shot("past-game-usb")
            self.app.export_game(finished[-1], stick)
            yield from self.shot("exported-to-stick")
        self.app.go("import_game")
        yield from self.shot("import-from-stick")
        self.app.go("start")

    def folder_station(self, picture: Path, tray: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0),
                       clock: Callable[[], float] = time.monotonic) -> Any:
        """A dice station (its DiceLink) whose camera replays `picture`, with the tray region
        `tray` (left, top, width, height as fractions), no button or light, and its calibration
        in the tour's own folder; not ticking by itself: the tour ticks it (with `clock`'s times)."""
        from dataclasses import replace

        from gpiozero.pins.mock import MockFactory

        from app.config import load_config
        from app.dice_station import build_dice_station
        from app.ui.dice_link import DiceLink

        frames = self.work / f"camera-{picture.stem}"
        frames.mkdir()
        shutil.copyfile(picture, frames / f"frame{picture.suffix}")
        config = load_config(None)
        left, top, width, height = tray
        tables = {**config.tables, "camera": {**config["camera"], "source": "folder", "folder": str(frames)},
                  "button": {**config["button"], "enabled": False}, "led": {**config["led"], "enabled": False},
                  "vision": {**config["vision"], "calibration_path": str(self.work / "calibration.json"),
                             "tray_left": left, "tray_top": top, "tray_width": width, "tray_height": height}}
        link = DiceLink()
        link.attach(lambda **callbacks: build_dice_station(replace(config, tables=tables), clock=clock,
                                                           pin_factory=MockFactory(), **callbacks), start=False)
        return link

    def camera_check(self) -> Iterator[None]:
        """The camera check on a folder camera holding one resting demo frame: live picture with
        the tray region's outline, marking the tray (one corner tapped), then the colours a
        calibration found, waiting for Keep or Discard."""
        from app.ui.launch import DEMO_FRAMES

        link = self.folder_station(DEMO_FRAMES / "roll2_11.jpg", (0.2, 0.1, 0.62, 0.76))
        self.app.context.dice = link
        try:
            link.station.service.tick(0.0)  # opens the camera
            for _frame in range(10):  # its status reaches the link through the UI clock
                if link.has_camera:
                    break
                yield
            self.app.go("camera")  # the live view asks for pictures
            link.station.service.tick(0.1)
            self.app.refresh()  # a new live view shows the newest picture at once
            yield from self.shot("camera-check")
            camera = self.app.manager.get_screen("camera")
            camera.on_mark_tray()
            camera.on_picture_tap(0.8, 0.88)  # one corner tapped, the other to come
            yield from self.shot("camera-mark-tray")
            camera.on_stop_marking()
            camera.on_calibrate()
            if camera.calibration_job is not None:
                camera.calibration_job.join(timeout=60)
            yield  # the result reaches the screen through the UI clock
            yield from self.shot("camera-calibration")
        finally:
            self.app.go("start")
            self.app.context.dice = None
            link.close()

def run_tour(out: Path, language: str = "en") -> int:
    """Play the tour in `language` and write the PNGs into `out`; prints how many were written."""
    from kivy.clock import Clock

    from app.session import Session
    from app.ui.app import UiContext, WindroseApp
    from app.ui.games import game_ui, playable_games
    from app.ui.settings_store import SettingsStore, UiSettings

    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="windrose-tour-"))
    session = Session.open(work / "tour.db")
    context = UiContext(
        session=session, settings=UiSettings(language=language),
        settings_store=SettingsStore(work / "ui-settings.json"),
        exports_dir=work / "exports", dice=None, clock=lambda: STARTED,
    )
    for game in playable_games():
        game_ui(game).prepare(context, work)
    app = WindroseApp(context)
    tour = Tour(app, out, work, language)
    problems: list[str] = []

    def start(_dt: float) -> None:
        steps = tour.steps()

        def advance(_dt: float) -> bool:
            try:
                next(steps)
            except StopIteration:
                app.stop()
                return False
            except Exception as err:  # the tour must end with a message, not hang offscreen
                problems.append(f"{type(err).__name__}: {err}")
                app.stop()
                raise
            return True

        Clock.schedule_interval(advance, 0)

    Clock.schedule_once(start, 0)
    try:
        app.run()
    finally:
        session.close()
        shutil.rmtree(work, ignore_errors=True)
    print(f"screenshot tour: {len(tour.taken)} PNG files in {out}")
    if problems:
        print("screenshot tour stopped early: " + "; ".join(problems))
        return 1
    return 0
