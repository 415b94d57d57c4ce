"""The Kivy App: screens, navigation, and the one place that talks to the session.

Every action goes through `WindroseApp.act`: the session checks it with the
rules core and saves it before anything on screen changes; a refused action
leaves the game as it was and shows the core's reason in plain words. Every
tap runs through `guarded`, so a fault on the way to the disk (full, read-only,
locked) becomes a notice in the table's language and the app carries on; what
else escapes Kivy's loop is logged with its traceback by `_LastResort`.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.base import ExceptionManager
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.screenmanager import NoTransition, ScreenManager

from app.games.base import RecordError, RulesError
from app.heap import give_back_free_heap
from app.journal import local_timestamp
from app.session import Session, SessionError, read_game_file
from app.sticks import Stick, mounted_sticks
from app.watchdog import announce_ready
from app.ui import theme
from app.ui.faults import TAP_FAULTS, fault_text, stick_fault_text
from app.ui.i18n import _, translator
from app.ui.keyboard import close_keyboard
from app.ui.settings_store import SettingsStore, UiSettings
from app.ui.widgets import taps

if TYPE_CHECKING:
    from app.ui.reader_learning import ReaderLearning

ROLL_KEYS = {32}  # space bar
COLLECT_EVERY = 2  # frames that dropped widget trees, per full garbage collection
log = logging.getLogger(__name__)


@dataclass
class UiContext:
    """Everything the screens need, made once at start-up (see app.ui.main)."""

    session: Session
    settings: UiSettings
    settings_store: SettingsStore
    exports_dir: Path
    dice: Any = None  # app.ui.dice_link.DiceLink or None (manual entry only)
    camera_view: bool = True  # show the camera's picture on the dice screens
    start_dice: Callable[[UiSettings], None] | None = None  # (re)builds the dice station
    warnings: list[Any] = field(default_factory=list)  # start-up notices: Message, PlayerNotice or text
    clock: Callable[[], str] = local_timestamp  # when a new game starts (injected by the tour)
    catalogue: Any = None  # a game's learned card list, opened by its UI package (GameUi.prepare)
    find_sticks: Callable[[], list[Stick]] = mounted_sticks  # the USB sticks mounted now (tests: their own)


@dataclass
class Notice:
    """The one-line message under the top bar: a refused action's reason, or a hint."""

    text: str = ""
    level: str = "info"  # info | error


class WindroseApp(App):
    title = "Windrose"

    def __init__(self, context: UiContext, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.context = context
        self.notice = Notice()
        self._reader_learning: ReaderLearning | None = None
        self._shown_start_up_notice: Notice | None = None
        self._refresh_pending = False
        # Screens let go of widget trees on every tap, garbage in reference cycles (a Kivy label
        # binds its own methods) that Python's collector would free only once the objects made
        # since its last full pass reach a quarter of all long-lived ones: some 12 MB by then.
        self._collect_dropped = Clock.create_trigger(self._collect_garbage, 0)
        self._dropped = 0
        self.last_resort = _LastResort(self)

    @property
    def reader_learning(self) -> ReaderLearning:
        """Settings' dice-reader row, and a run a game's end starts; made when first asked for,
        as it loads the dice reader (a game with its dice typed in never loads it)."""
        if self._reader_learning is None:
            from app.ui.reader_learning import ReaderLearning

            self._reader_learning = ReaderLearning(self)
        return self._reader_learning

    @property
    def session(self) -> Session:
        return self.context.session

    def build(self) -> ScreenManager:
        from app.ui.screens import LazyScreenManager

        Window.clearcolor = theme.BACKGROUND
        theme.text_scale.factor = float(self.context.settings.text_scale)
        translator.set_language(self.context.settings.language)
        self.manager = LazyScreenManager(lambda screen: screen(self, name=screen.screen_name),
                                         transition=NoTransition())
        translator.on_change(self._language_changed)
        taps.guard = self.guarded
        Window.bind(on_key_down=self._on_key_down, on_resize=self._window_resized)
        if self.context.warnings:
            self.notice = self._shown_start_up_notice = self._start_up_notice()
        if self.context.dice is not None:
            self.context.dice.on_status(self._dice_status)
            self.context.dice.on_roll(self._dice_roll)
        self.go(self.first_screen())
        return self.manager

    def first_screen(self) -> str:
        """After a restart the unfinished game comes back by itself."""
        if self.session.backup_offers:  # the start screen offers them before the table plays on
            return "start"
        try:
            if self.session.resume_last():
                return "game"
        except SessionError as err:
            self.notice = Notice(_("The last game could not be resumed: {reason}").format(reason=err), "error")
        return "start"

    # navigation -----------------------------------------------------------------
    def go(self, name: str, **params: Any) -> None:
        close_keyboard()  # its field belongs to the screen being left
        screen = self.manager.get_screen(name)
        if hasattr(screen, "prepare"):
            screen.prepare(**params)
        left = self.manager.current_screen
        self.manager.current = name
        if left is not None and left is not screen:
            left.release()  # rebuilt from the session when shown again
        screen.refresh()

    def refresh(self) -> None:
        self._refresh_pending = False
        self.manager.current_screen.refresh()

    def refresh_soon(self) -> None:
        if not self._refresh_pending:
            self._refresh_pending = True
            Clock.schedule_once(lambda _dt: self.refresh(), 0)

    def dropped_widgets(self) -> None:
        """A screen let go of widgets: they are collected at the next clock tick (once a frame,
        after the frame that answers the tap is drawn), before many more trees are built into
        memory of their own (see docs/memory.md)."""
        self._collect_dropped()

    def _collect_garbage(self, _dt: float) -> None:
        """A full pass every COLLECT_EVERY frames that dropped widgets: garbage stays under
        two taps' trees, for about the collector's time it took by itself."""
        self._dropped += 1
        if self._dropped % COLLECT_EVERY == 0:
            gc.collect()
            give_back_free_heap()  # the pages the freed trees leave whole between live blocks

    def say(self, text: str, level: str = "info") -> None:
        self.notice = Notice(text, level)

    def guarded(self, step: Callable[[], Any]) -> None:
        """Run one tap's work; a fault on the way to the journal, settings or exports becomes a
        notice (what happened, what to do) and the game stays as the session kept it. When the
        game was saved before the fault (a file written after the action), the notice says so."""
        before = self.session.position
        try:
            step()
        except TAP_FAULTS as err:
            self.show_fault(err, game_saved=self.session.position != before)

    def show_fault(self, error: BaseException, game_saved: bool = False) -> None:
        log.warning("a tap was not carried out in full: %s", error)
        self.notice = Notice(fault_text(error, game_saved), "error")
        try:
            self.refresh()
        except TAP_FAULTS as err:  # the screen cannot even read the games: the start screen can
            log.warning("the screen could not be redrawn: %s", err)
            self.manager.current = "start"
            self.manager.current_screen.refresh()

    # the only way the UI changes a game ------------------------------------------
    def act(self, action: dict[str, Any]) -> bool:
        """Hand one action to the session; on refusal show why and keep everything as it was."""
        try:
            self.session.act(action)
        except RulesError as err:
            self.notice = Notice(translator.message(err.message), "error")
            self.refresh()
            return False
        except (SessionError, RecordError) as err:
            self.notice = Notice(str(err), "error")
            self.refresh()
            return False
        except TAP_FAULTS as err:
            self.show_fault(err)
            return False
        self.notice = Notice()
        self.refresh()
        return True

    def undo(self) -> None:
        self._history_step(self.session.undo, _("Undone."))

    def redo(self) -> None:
        self._history_step(self.session.redo, _("Redone."))

    def go_back(self, keep: int) -> None:
        self._history_step(lambda: self.session.go_back(keep), _("Back to an earlier point of the game."))

    def _history_step(self, step: Callable[[], Any], done: str) -> None:
        try:
            step()
            self.notice = Notice(done)
        except SessionError as err:
            self.notice = Notice(str(err), "error")
        except TAP_FAULTS as err:
            log.warning("a history step was not carried out: %s", err)
            self.notice = Notice(fault_text(err), "error")
        self.go("game")

    def restore_backups(self) -> None:
        """One tap: the games the backup copies hold more of come back into the journal."""
        restored = self.session.restore_backups()
        self.say(_("Restored from the backups: game {games}.").format(games=", ".join(map(str, restored)) or "-"))
        if self.session.game_id is not None and not self.session.is_over:
            self.go("game")
        else:
            self.refresh()

    def import_game(self, path: Path) -> str | None:
        """Store a record file as a new game and show it; the reason in words when it is refused
        (nothing is stored then). Faults of the disk go to the tap's safety net."""
        try:
            game_id = self.session.import_document(*read_game_file(path))
        except RulesError as err:
            return _("{file} was not imported: {reason}").format(file=path.name, reason=translator.message(err.message))
        except RecordError as err:
            return _("{file} was not imported: {reason}").format(file=path.name, reason=err)
        self.say(_("{file} is stored as game {game}.").format(file=path.name, game=game_id))
        self.go("score" if self.session.is_over else "game")
        return None

    def rematch(self, game_id: int) -> None:
        """One tap: a new game of the same kind with the same players, colours and seats."""
        from app.ui.roster import rematch_header

        row = self.session.journal.game(game_id)
        try:
            self.session.new_game(row.game_type, rematch_header(row.header, self.context.clock()))
        except RulesError as err:
            self.say(_("No rematch: {reason}").format(reason=translator.message(err.message)), "error")
        except (RecordError, SessionError) as err:
            self.say(_("No rematch: {reason}").format(reason=err), "error")
        else:
            names = ", ".join(seat.name for seat in self.session.game.seats(self.session.document().header))
            self.say(_("Rematch: {names}").format(names=names))
            self.go("game")
            return
        self.refresh()

    # exports -----------------------------------------------------------------------
    def export_game(self, game_id: int, stick: Stick | None = None) -> list[Path]:
        """Write a stored game's record (and, once scored, CSV and BG Stats files) to the exports
        folder or a USB stick; say where, or in words why not."""
        from app.ui.exports import export_game
        from app.ui.past import past_game

        game = past_game(self.session, game_id)
        if game.game is None:
            self.say(_("Export failed: {reason}").format(reason=game.problem), "error")
            self.refresh()
            return []
        folder = self.context.exports_dir if stick is None else stick.export_dir
        try:
            written = export_game(
                folder, game.game.id, game.game.title.render(), game_id, game.started,
                game.game.write(game.document), game.table, game.game.start_player(game.document.header),
            )
        except OSError as err:
            log.warning("export of game %s to %s failed: %s", game_id, folder, err)
            self.say(_("Export failed: {reason}").format(reason=err.strerror or err) if stick is None
                     else stick_fault_text(stick, err), "error")
            self.refresh()
            return []
        files = ", ".join(p.name for p in written)
        self.say(_("Saved in {folder}: {files}").format(folder=folder, files=files) if stick is None
                 else _("Saved on the stick {label} (folder {folder}): {files}").format(
                     label=stick.label, folder=stick.export_dir.name, files=files))
        self.refresh()
        return written

    def sticks(self) -> list[Stick]:
        """The USB sticks mounted now (the context's finder reads the mount table)."""
        return self.context.find_sticks()

    # settings ----------------------------------------------------------------------
    def apply_settings(self, settings: UiSettings) -> None:
        """Show the table's choices at once (language, text size), then save them; a card that
        refuses the file keeps them for this session and says so."""
        self.context.settings = settings
        theme.text_scale.factor = float(settings.text_scale)
        new_language = settings.language != translator.language
        if new_language:
            translator.set_language(settings.language)  # listeners refresh the screen
        try:
            self.context.settings_store.save(settings)
        except OSError as err:
            self.show_fault(err)
            return
        if not new_language:
            self.refresh()

    def restart_dice(self) -> None:
        """Rebuild the dice station after the camera or button choice changed."""
        if self.context.dice is not None and self.context.start_dice is not None:
            self.context.dice.close()
            self.context.start_dice(self.context.settings)
        self.refresh()

    def _dice_status(self, status: Any) -> None:
        screen = self.manager.current_screen
        panel = getattr(screen, "_panel", None)
        if screen.name == "game" and panel is not None and hasattr(panel, "on_status"):
            panel.on_status(status)
        elif screen.name in ("camera", "start"):  # the start screen says whether the tray is marked
            screen.refresh()

    def _dice_roll(self, action: dict[str, Any]) -> None:
        """The dice service confirmed a roll: it becomes the game's roll if the game waits for one."""
        if self.session.game_id is None or "roll" not in self.session.waiting_for().actions:
            self.say(_("Dice read, but the game is not waiting for a roll."), "error")
            self.refresh()
            return
        self.act(action)

    def _on_key_down(self, _window: Any, key: int, *_args: Any) -> bool:
        if key in ROLL_KEYS:
            screen = self.manager.current_screen
            handler = getattr(screen, "on_roll_button", None)
            if handler is not None:
                handler()
                return True
        return False

    def on_start(self) -> None:
        """Tell systemd the first screen is up and keep its watchdog fed from the UI clock."""
        ExceptionManager.add_handler(self.last_resort)
        self.notifier = announce_ready(Clock.schedule_interval)

    def _start_up_notice(self) -> Notice:
        """The start-up warnings in the table's language, as one notice."""
        return Notice(" ".join(translator.message(getattr(w, "message", w)) for w in self.context.warnings), "error")

    def _language_changed(self, _language: str) -> None:
        if self.notice is self._shown_start_up_notice:  # still on screen: in the new language
            self.notice = self._shown_start_up_notice = self._start_up_notice()
        self.refresh()

    def _window_resized(self, *_args: Any) -> None:
        self.refresh_soon()

    def on_stop(self) -> None:
        """Let go of the window and the translator (both outlive the app) and of the dice station."""
        translator.remove_listener(self._language_changed)
        ExceptionManager.remove_handler(self.last_resort)
        if taps.guard == self.guarded:
            taps.guard = None
        Window.unbind(on_key_down=self._on_key_down, on_resize=self._window_resized)
        close_keyboard()
        if self.context.dice is not None:
            self.context.dice.close()


class _LastResort:
    """Kivy's exception handler: an error that escapes a callback (a bug) is logged with its
    traceback and shown as a notice, and the app goes on; every action is already saved."""

    def __init__(self, app: WindroseApp) -> None:
        self.app = app

    def handle_exception(self, error: BaseException) -> int:
        if not isinstance(error, Exception):  # Ctrl-C, SystemExit: let the app end
            return ExceptionManager.RAISE
        log.error("unexpected error, the app carries on", exc_info=error)
        self.app.notice = Notice(_("Something went wrong ({reason}). Every action is saved; "
                                   "if the screen looks wrong, restart the Pi.").format(reason=error), "error")
        try:
            self.app.go("start")
        except Exception:  # noqa: BLE001 - the notice must never start a loop of its own
            log.exception("the start screen could not be shown")
        return ExceptionManager.PASS
