"""`python -m app --screenshot-tour DIR [--language de]`: a seeded demo game played offscreen, a PNG
of every screen, in English (one German screen among them) or all in German.

The game comes from the rules core's seeded random table; each action goes
through the app exactly as a tap would (WindroseApp.act), so the screens show
real states. Main screens are also taken at 1280x720 and portrait 720x1280.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from app.games.macao.simulate import RandomTable

BASE = (800, 480)
EXTRA_SIZES = ((1280, 720), (720, 1280))
SEED = 11
STARTED = "2026-11-29T19:30:00+01:00"


def settle_roses(root: Any) -> None:
    """Finish every rose's turning: the tour's frames follow each other faster than the 0.6 s
    animation, which would leave cubes drawn between sectors in the pictures."""
    from app.ui.macao.windrose import WindroseWidget

    for widget in root.walk():
        if isinstance(widget, WindroseWidget):
            widget.settle()


class Tour:
    """Drives the running app one step per frame and saves screenshots."""

    def __init__(self, app: Any, out: Path, work: Path, language: str = "en") -> None:
        self.app = app
        self.language = language
        self.out = out
        self.work = work  # the tour's own scratch folder (journal, exports, calibration)
        self.count = 0
        self.table = RandomTable(SEED, players=2, activity=0.85)
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
            settle_roses(self.app.root)
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

    def play_until(self, stop: Callable[[Any], bool]) -> Iterator[None]:
        """Feed the seeded table's actions to the app until `stop(state)`."""
        session = self.app.session
        while not stop(session.state):
            self.table.step()
            if not self.app.act(self.table.actions[-1]):
                raise RuntimeError(f"the app refused the demo's action: {self.app.notice.text}")
        self.app.go("game")
        yield

    def steps(self) -> Iterator[None]:
        from app.ui.i18n import translator

        app = self.app
        yield from self.shot("start-empty", all_sizes=True)
        app.go("new_game")
        yield from self.shot("choose-game", all_sizes=True)
        app.go("macao_setup")
        screen = app.manager.get_screen("macao_setup")
        screen.seated = list(self.table.wall)
        screen.names = {p["colour"]: p["name"] for p in self.table.players}
        yield
        screen.refresh()
        yield from self.shot("new-game", all_sizes=True)
        app.session.new_game("macao", {"started": STARTED, "players": self.table.players, "wall": self.table.wall})
        app.go("game")
        panel = app.manager.get_screen("game").current_panel()
        panel.slots[0].cost[:] = ["red", "red", "blue"]
        panel.slots[0].gold = 1
        panel.slots[0].tribute_tapped = True
        panel.slots[0].name = "Harbour Master"
        panel.selected = 1
        app.refresh()
        yield from self.shot("setup-cards")
        yield from self.play_until(lambda s: s.phase == "setup_pick")
        yield from self.shot("setup-pick")
        yield from self.play_until(lambda s: s.phase == "setup_cubes")
        game = app.manager.get_screen("game")
        game.current_panel().one = "green"
        app.refresh()
        yield from self.shot("setup-cubes")
        yield from self.play_until(lambda s: s.phase == "reveal")
        app.context.catalogue.learn(c for c in self.table.record().actions[0]["cards"])
        panel = game.current_panel()
        for slot, colours in zip(panel.slots, (["black"], ["gray", "gray"], ["violet", "red"])):
            slot.cost[:] = colours
            slot.gold, slot.prestige = 1, 1
            slot.tribute_tapped = True
        panel.selected = 3
        app.refresh()
        yield from self.shot("cards-reveal", all_sizes=True)
        yield from self.play_until(lambda s: s.phase == "take_card")
        yield from self.shot("cards-draft", all_sizes=True)
        yield from self.play_until(lambda s: s.phase == "roll")
        yield from self.shot("dice-manual")
        self._propose_dice(game.current_panel())
        app.refresh()
        yield from self.shot("dice-proposal", all_sizes=True)
        yield from self.play_until(lambda s: s.phase == "choose_dice")
        game.current_panel().first = "blue"
        app.refresh()
        yield from self.shot("dice-choose", all_sizes=True)
        yield from self.play_until(lambda s: s.phase == "actions")
        yield from self.shot("actions", all_sizes=True)
        panel = game.current_panel()
        options = app.session.options(app.session.state.turn)
        blocked = next((o.reason for o in (options.quarter, options.wall, options.buy_prestige, options.joker)
                        if not o.ok and o.reason is not None), None)
        if blocked is not None:
            app.say(translator.message(blocked), "error")
            app.refresh()
            yield from self.shot("actions-not-allowed")
            app.say("")
        if options.wall.ok:
            panel.open("wall")
            supply = app.session.state.player(app.session.state.turn).supply
            panel.pay = [c for c, n in supply.items() for _ in range(n)][:1]
            app.refresh()
            yield from self.shot("actions-wall")
            panel.close()
        app.go("history")
        yield from self.shot("history", all_sizes=True)
        app.go("game")
        yield from self.play_until(lambda s: s.round == 8 and s.phase == "choose_dice")
        yield from self.shot("dice-round-8")
        yield from self.play_until(lambda s: s.round == 8 and s.phase == "actions")
        if self.language == "en":
            translator.set_language("de")
            yield
            yield from self.shot("actions-german", all_sizes=True)
            translator.set_language("en")
            yield
        yield from self.play_until(lambda s: s.phase == "final")
        yield from self.shot("final-entry")
        yield from self.play_until(lambda s: s.phase == "over")
        app.go("score")
        yield from self.shot("score", all_sizes=True)
        app.go("past_games")
        yield from self.shot("past-games", all_sizes=True)
        app.go("settings")
        yield from self.shot("settings")
        settings = app.manager.get_screen("settings")
        settings.on_export()
        yield from self.shot("settings-card-list-exported")
        settings.on_choose_import()
        yield from self.shot("settings-card-list-import")
        yield from self.camera_check()

    def camera_check(self) -> Iterator[None]:
        """The camera check on a folder camera holding one resting demo frame: live picture with
        the tray region's outline, marking the tray (one corner tapped), then the colours a
        calibration found, waiting for Keep or Discard."""
        from dataclasses import replace

        from gpiozero.pins.mock import MockFactory

        from app.config import load_config
        from app.dice_station import build_dice_station
        from app.ui.dice_link import DiceLink
        from app.ui.launch import DEMO_FRAMES

        frames = self.work / "camera"
        frames.mkdir()
        shutil.copyfile(DEMO_FRAMES / "roll2_11.jpg", frames / "frame.jpg")
        config = load_config(None)
        tables = {**config.tables, "camera": {**config["camera"], "source": "folder", "folder": str(frames)},
                  "button": {**config["button"], "enabled": False}, "led": {**config["led"], "enabled": False},
                  "vision": {**config["vision"], "calibration_path": str(self.work / "calibration.json"),
                             "tray_left": 0.2, "tray_top": 0.1, "tray_width": 0.62, "tray_height": 0.76}}
        link = DiceLink()
        link.attach(lambda **callbacks: build_dice_station(replace(config, tables=tables), pin_factory=MockFactory(),
                                                           **callbacks), start=False)
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

    def _propose_dice(self, panel: Any) -> None:
        """Show what a camera proposal looks like: five dice read, the gray one unsure."""
        from app.dice_service import DiceStatus, RollState
        from vision.types import DiceReading, DieReading

        values = {"red": 3, "blue": 5, "green": 1, "black": 6, "gray": 2, "violet": 4}
        dice = tuple(
            DieReading(40 * i, 40, 30, 30, colour, value, 0.4 if colour == "gray" else 0.95, colour == "gray")
            for i, (colour, value) in enumerate(values.items())
        )
        panel.take_proposal(DiceStatus(RollState.PROPOSED, "Some dice are unclear: correct them, then confirm",
                                       {}, DiceReading(dice)))


def run_tour(out: Path, language: str = "en") -> int:
    """Play the tour in `language` and write the PNGs into `out`; prints how many were written."""
    from kivy.clock import Clock

    from app.session import Session
    from app.ui.app import UiContext, WindroseApp
    from app.ui.macao.catalogue import CardCatalogue
    from app.ui.settings_store import SettingsStore, UiSettings

    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="windrose-tour-"))
    session = Session.open(work / "tour.db")
    context = UiContext(
        session=session, settings=UiSettings(language=language), settings_store=SettingsStore(work / "ui-settings.json"),
        catalogue=CardCatalogue(work / "cards.json"), exports_dir=work / "exports", dice=None,
        clock=lambda: STARTED,
    )
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
