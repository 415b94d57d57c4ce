"""Start-up of the touchscreen app: settings, Kivy window, session, dice station, then run.

Kivy reads its window settings when kivy.core.window is first imported, so
they are set here before any screen module is loaded.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.config import Config, ConfigError, load_config
from app.instance_lock import InstanceLock, InstanceLockError, InstanceLockHeld
from app.logs import set_level
from app.paths import data_dir, default_db_path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
DEMO_FRAMES = REPO_ROOT / "app" / "assets" / "demo_frames"
# A bad config.toml, or another Windrose holding the journal: starting again would fail again, so
# the kiosk unit does not restart on it (systemd/windrose.service: RestartPreventExitStatus).
EXIT_NOT_STARTED = 2
log = logging.getLogger(__name__)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m app", description="Windrose touchscreen app")
    parser.add_argument("--config", metavar="FILE", help="settings file over config.toml")
    parser.add_argument("--db", metavar="FILE", help="game journal (SQLite) to use")
    parser.add_argument("--screenshot-tour", metavar="DIR",
                        help="play a seeded demo game offscreen and save a PNG of every screen in DIR")
    parser.add_argument("--language", choices=("en", "de"), default="en",
                        help="with --screenshot-tour: the language the tour is shown in")
    parser.add_argument("--manual-dice", action="store_true", help="no camera or button: dice typed in by hand")
    return parser.parse_args(argv)


def configure_kivy(ui: Any, offscreen: bool = False) -> None:
    """Window and input settings; must run before kivy.core.window is imported."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    # Kivy's own mode would swap sys.stderr for its log file: journald would see nothing after this.
    os.environ["KIVY_LOG_MODE"] = "PYTHON"
    from kivy.config import Config as KivyConfig

    KivyConfig.set("kivy", "exit_on_escape", "0")
    KivyConfig.set("input", "mouse", "mouse,multitouch_on_demand")
    KivyConfig.set("graphics", "width", str(ui["window_width"]))
    KivyConfig.set("graphics", "height", str(ui["window_height"]))
    KivyConfig.set("graphics", "fullscreen", "auto" if ui["fullscreen"] and not offscreen else "0")
    KivyConfig.set("graphics", "resizable", "1")


def dice_config(config: Config, settings: Any) -> tuple[Config, str | None]:
    """The config the dice station gets, after the table's choices (camera, button, the tray
    region marked on the camera screen and the field of view its corners measured); the demo
    camera on a desktop."""
    from app.games.base import Message
    from app.session import PlayerNotice
    from app.ui.i18n import N_
    from hardware.camera import picamera2_importable

    camera = dict(config["camera"])
    button = dict(config["button"])
    vision = dict(config["vision"])
    note = None
    if settings.camera != "config":
        camera["source"] = settings.camera
    if settings.button != "config":
        button["enabled"] = settings.button == "gpio"
    if settings.tray is not None and len(settings.tray) == 8:  # four corners marked
        vision["tray_corners"] = " ".join(f"{float(value):g}" for value in settings.tray)
    elif settings.tray is not None:  # a rectangle: the whole picture, or marked before corners were
        vision.update(zip(("tray_left", "tray_top", "tray_width", "tray_height"), map(float, settings.tray)))
        vision["tray_corners"] = ""
    if settings.camera_fov_deg is not None:  # measured from the tray's corners on the camera screen
        vision["camera_fov_deg"] = float(settings.camera_fov_deg)
    if not settings.learn_from_rolls:
        vision["keep_rolls"] = 0
    # A desktop without the Pi camera replays the shipped demo rolls unless a folder or
    # "opencv" is asked for explicitly, so a newcomer sees the whole dice loop at once.
    wants_demo = camera["source"] == "auto" and not camera["folder"]
    if wants_demo and DEMO_FRAMES.is_dir() and not picamera2_importable():
        camera.update(source="folder", folder=str(DEMO_FRAMES), loop=True)
        note = PlayerNotice(Message(N_("Demo camera: replaying the shipped rolls in {folder}"),
                                    {"folder": "app/assets/demo_frames"}))
    tables = {**config.tables, "camera": camera, "button": button, "vision": vision}
    return replace(config, tables=tables), note


def launch(argv: list[str]) -> int:
    try:
        args = parse_args(argv)
    except SystemExit as exit_request:
        return int(exit_request.code or 0)
    try:
        config = load_config(args.config)
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_NOT_STARTED
    set_level(config["log"]["level"])
    if args.screenshot_tour:
        os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
        configure_kivy(config["ui"], offscreen=True)
        from app.ui.tour import run_tour

        return run_tour(Path(args.screenshot_tour), args.language)
    db_path = Path(args.db or config["journal"]["db_path"] or default_db_path())
    lock = InstanceLock(db_path)
    try:
        lock.acquire()  # before the window: a second copy leaves the screen to the first
    except InstanceLockHeld as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_NOT_STARTED
    except InstanceLockError as err:  # no lock file can be made: opening the journal says why, on screen
        log.warning("%s", err)
    try:
        configure_kivy(config["ui"])
        return run_app(config, db_path, manual_dice=args.manual_dice)
    finally:
        lock.release()


def run_app(config: Config, db_path: Path, manual_dice: bool = False) -> int:
    from app.heap import freeze_start_up_objects, keep_heap_trimmed
    from app.journal import JournalError
    from app.session import Session
    from app.ui.app import UiContext, WindroseApp
    from app.ui.games import game_ui, playable_games
    from app.ui.settings_store import SettingsStore, UiSettings

    keep_heap_trimmed()
    try:
        session = Session.open(db_path)
    except JournalError as err:
        log.error("%s", err)
        from app.ui.journal_fault import JournalFaultApp

        JournalFaultApp(getattr(err, "reason", str(err)), config["ui"]["language"]).run()
        return 2
    log.info("game journal %s", db_path)
    home = db_path.parent if db_path.parent != Path("") else data_dir()
    warnings: list[str] = list(session.notices)  # e.g. a damaged journal set aside at start
    for warning in warnings:
        log.warning("%s", warning)
    store = SettingsStore(home / "ui-settings.json")
    settings, unreadable = store.load(UiSettings.from_config(dict(config["ui"])))
    warnings += [unreadable] if unreadable else []
    exports = Path(config["ui"]["exports_dir"]) if config["ui"]["exports_dir"] else home / "exports"
    link = None if manual_dice else dice_link()
    context = UiContext(session=session, settings=settings, settings_store=store,
                        exports_dir=exports, dice=link, warnings=warnings,
                        camera_view=bool(config["ui"]["camera_view"]))
    for game in playable_games():
        warnings += game_ui(game).prepare(context, home)
    if link is not None:
        context.start_dice = lambda chosen: start_dice_station(link, config, chosen)
        context.start_dice(settings)
    freeze_start_up_objects()
    try:
        WindroseApp(context).run()
    finally:
        session.close()
    return 0


def dice_link() -> Any:
    """The UI's side of the dice station; imported only here, as it loads OpenCV and numpy
    (some 30 MB), which a table typing its dice in (--manual-dice) never needs."""
    import vision.image_file  # noqa: F401 - first: it sets OpenCV's pixel limit before OpenCV loads
    from app.ui.dice_link import DiceLink

    return DiceLink()


def start_dice_station(link: Any, config: Config, settings: Any) -> None:
    from app.dice_station import build_dice_station

    station_config, note = dice_config(config, settings)
    link.problems = [note] if note else []
    link.attach(lambda **callbacks: build_dice_station(station_config, **callbacks))
