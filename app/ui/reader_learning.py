"""Settings' dice-reader row: what the reader reads with (the shipped models, or the refit on the
table's own rolls and its held-out figures), "Learn from our rolls now" and "Back to the shipped
models".

The reader has a refit per kind of dice (its reader mode: the six dice of six colours, or dice
whose colours repeat), each learnt from the rolls of that kind alone. The row is about the dice
of the game in play, the ones a player has in hand and wants read better, and says which they
are; a run (and its outcome line) stays with the kind it started on when the game changes.

A game's end starts a run by itself (`after_game`) when enough rolls of its dice were kept since
the last run, so a table's reader gets better at its dice without anyone looking for the button.

Learning takes minutes on a Pi, so it runs on a worker thread (the game goes on meanwhile) and
its outcome comes back to the UI thread; a run that has not finished after LEARN_PATIENCE_S is
said to hang, in words, and the reader keeps what it had. The rolls never leave the machine.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout

from app.games.base import Message
from app.ui import theme
from app.ui.i18n import N_, _, translator
from app.ui.widgets import BigButton, TextLabel
from vision.adapt import Adaptation, AdaptError
from vision.types import ANY_DICE_MODE, SIX_COLOURS_MODE, ExpectMode

LOG = logging.getLogger(__name__)

# A run still going after this long is said to hang (300 rolls take a few minutes on a Pi 4).
LEARN_PATIENCE_S = 20 * 60
# How often a running learn is looked at.
CHECK_EVERY_S = 5.0
# What each reader mode's dice are, in the row's words: its line starts with them.
DICE_OF_MODE: dict[ExpectMode, str] = {SIX_COLOURS_MODE: N_("Dice of six colours: {status}"),
                                       ANY_DICE_MODE: N_("Dice whose colours repeat: {status}")}


@dataclass(frozen=True)
class LearnRun:
    """One run of "Learn from our rolls now": when it started, its worker thread, and the
    reader mode whose rolls it learns from."""

    started: float
    thread: threading.Thread
    mode: ExpectMode


def percent(right: int, dice: int) -> str:
    """A share as the row shows it: "95.8 %" ("95,8 %" in German)."""
    text = f"{100.0 * right / max(dice, 1):.1f} %"
    return text.replace(".", ",") if translator.language == "de" else text


class ReaderLearning:
    """The row's state, kept by the Settings screen across its rebuilds."""

    def __init__(self, app: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.clock = clock
        self.run: LearnRun | None = None
        self.ended_games: set[int] = set()  # the games whose end was looked at (`after_game`)
        self.said: Message | None = None  # the last run's outcome, or a fault of the buttons
        self.said_of: ExpectMode = SIX_COLOURS_MODE  # ... about the dice of this reader mode
        self.failed = False

    def reset(self) -> None:
        """Coming back to Settings shows what is in use rather than a run's success (the line
        in use says as much); why a run failed stays until the next one."""
        if self.run is None and not self.failed:
            self.said = None

    @property
    def station(self) -> Any:
        link = self.app.context.dice
        return None if link is None else link.station

    # -- what the row shows ------------------------------------------------------------------
    @property
    def mode(self) -> ExpectMode:
        """The reader mode of the game's dice (the six dice' when no station runs)."""
        station = self.station
        return SIX_COLOURS_MODE if station is None else station.mode

    def in_use(self) -> Message:
        """What the reader reads the game's dice with now."""
        station = self.station
        adaptation = None if station is None else station.adaptation
        if adaptation is None:
            return Message(N_("Shipped models (the dice station is not running)"))
        if adaptation.in_use is not None:
            refit = adaptation.in_use
            figures = {"rolls": refit.rolls, "before": percent(refit.right_before, refit.held_out_dice),
                       "after": percent(refit.right_after, refit.held_out_dice),
                       "extra_before": refit.extra_before, "extra_after": refit.extra_after,
                       "against_before": refit.against_before, "against_after": refit.against_after}
            extra, against = refit.extra_before != refit.extra_after, refit.against_before != refit.against_after
            if extra and against:
                return Message(N_("Adapted on {rolls} rolls: held-out dice read right {before} -> {after}, "
                                  "dice seen where none lay {extra_before} -> {extra_after}, values you did not "
                                  "confirm {against_before} -> {against_after}"), figures)
            if extra:
                return Message(N_("Adapted on {rolls} rolls: held-out dice read right {before} -> {after}, "
                                  "dice seen where none lay {extra_before} -> {extra_after}"), figures)
            if against:
                return Message(N_("Adapted on {rolls} rolls: held-out dice read right {before} -> {after}, "
                                  "values you did not confirm {against_before} -> {against_after}"), figures)
            return Message(N_("Adapted on {rolls} rolls: held-out dice read right {before} -> {after}"), figures)
        if adaptation.problem:
            return Message(N_("Shipped models; the refit on this table is not used: {problem}"),
                           {"problem": adaptation.problem})
        return Message(N_("Shipped models"))

    def status(self) -> tuple[str, bool]:
        """The row's line in the table's language, and whether it tells of a fault."""
        if self.run is not None:
            minutes = int((self.clock() - self.run.started) // 60)
            if minutes * 60 >= LEARN_PATIENCE_S:
                return self._of(self.run.mode, Message(
                    N_("Learning has run for {minutes} minutes without finishing; the reader keeps what it "
                       "had. Restarting the app stops it."), {"minutes": minutes})), True
            learning = Message(N_("Learning from our rolls ... the game can go on meanwhile"))
            return self._of(self.run.mode, learning), False
        if self.said is not None:
            return self._of(self.said_of, self.said), self.failed
        if self.station is None:  # no dice are read at all
            return translator.message(self.in_use()), False
        return self._of(self.mode, self.in_use()), False

    @staticmethod
    def _of(mode: ExpectMode, said: Message) -> str:
        """`said` after the words for the dice of `mode`, in the table's language."""
        return translator.message(Message(DICE_OF_MODE[mode], {"status": said}))

    # -- the buttons -------------------------------------------------------------------------
    def with_buttons(self, row: BoxLayout, on_change: Callable[[], None]) -> BoxLayout:
        """`row` (the keep-rolls choice) with the two buttons after it; `on_change` redraws the screen."""
        station = self.station
        running = self.run is not None
        row.add_widget(BigButton(_("Learn from our rolls now"), on_tap=lambda: self.learn(on_change),
                                 disabled=running or station is None, size=theme.FONT_SMALL, tag=("reader", "learn")))
        adapted = station is not None and station.adaptation is not None and station.adaptation.in_use is not None
        row.add_widget(BigButton(_("Back to the shipped models"), on_tap=lambda: self.forget(on_change),
                                 disabled=running or not adapted, size=theme.FONT_SMALL, tag=("reader", "shipped")))
        return row

    def status_label(self) -> TextLabel:
        """One line under the row: what is in use, or how a run goes or went."""
        text, fault = self.status()
        return TextLabel(text, size=theme.FONT_SMALL, size_hint_y=None, height=44,
                         color=theme.DANGER_TEXT if fault else theme.TEXT_DIM)

    def after_game(self, game_id: int) -> bool:
        """At a game's final score (once per game): start a run on the rolls of the dice it was
        played with when the players keep rolls and enough were kept since the last run
        (ReaderAdaptation.due); whether one started. Settings tells how it went."""
        station = self.station
        if game_id in self.ended_games or station is None or station.adaptation is None:
            return False
        self.ended_games.add(game_id)
        if self.run is not None or not self.app.context.settings.learn_from_rolls or not station.adaptation.due():
            return False
        self.learn(self.app.refresh)
        return self.run is not None

    def learn(self, on_change: Callable[[], None]) -> None:
        """Start a run on a worker thread, and look at it every few seconds until it is over;
        `on_change` redraws Settings (called only while it is on screen)."""
        station = self.station
        if self.run is not None or station is None:
            return
        mode = station.mode
        thread = threading.Thread(target=self._learn, args=(station, mode, on_change), name="reader-learning",
                                  daemon=True)
        self.run, self.said, self.failed = LearnRun(self.clock(), thread, mode), None, False
        thread.start()
        Clock.schedule_interval(lambda _dt: self._check(on_change), CHECK_EVERY_S)
        self._redraw(on_change)

    def _learn(self, station: Any, mode: ExpectMode, on_change: Callable[[], None]) -> None:
        """Worker thread: refit `mode`'s and write; the outcome goes to the UI thread."""
        try:
            outcome: Adaptation | Exception = station.learn_from_rolls(mode)
        except (AdaptError, OSError) as exc:
            outcome = exc
        except Exception as exc:  # a fault of ours must not leave the row learning for ever
            LOG.exception("learning from the table's rolls failed")
            outcome = exc
        Clock.schedule_once(lambda _dt: self.finished(outcome, mode, on_change))

    def finished(self, outcome: Adaptation | Exception, mode: ExpectMode, on_change: Callable[[], None]) -> None:
        """UI thread: say how the run on `mode`'s rolls ended; a better refit is read with from
        that kind of dice' next roll."""
        self.run, self.said_of = None, mode
        self.failed = isinstance(outcome, Exception)
        if isinstance(outcome, (AdaptError, OSError)):
            self.said = Message(N_("Nothing learnt: {reason}"), {"reason": str(outcome)})
        elif isinstance(outcome, Exception):
            self.said = Message(N_("Learning stopped on an unexpected fault ({reason})"),
                                {"reason": f"{type(outcome).__name__}: {outcome}"})
        else:
            figures = {"before": percent(outcome.before.colour_value_right, outcome.before.dice),
                       "after": percent(outcome.after.colour_value_right, outcome.after.dice),
                       "dice": outcome.before.dice, "extra_before": outcome.before.phantom,
                       "extra_after": outcome.after.phantom, "against_before": outcome.before.against_confirmed,
                       "against_after": outcome.after.against_confirmed}
            current = self.station
            if outcome.better and current is not None:
                problem = current.use_adaptation(mode)  # the station now running (a Settings change may have rebuilt it)
                self.failed = bool(problem)
                learnt = (N_("Learnt: held-out dice read right {before} -> {after} (of {dice}); in use from the "
                             "next roll") if outcome.before.phantom == outcome.after.phantom else
                          N_("Learnt: held-out dice read right {before} -> {after} (of {dice}), dice seen where "
                             "none lay {extra_before} -> {extra_after}; in use from the next roll"))
                self.said = (Message(learnt, figures) if not problem else
                             Message(N_("Learnt, but not used: {problem}"), {"problem": problem}))
            elif outcome.after.against_confirmed > outcome.before.against_confirmed:
                self.said = Message(N_("The refit stated more dice wrongly on the held-out rolls ({against_before} "
                                       "-> {against_after} values you did not confirm); the reader keeps what it "
                                       "had"), figures)
            else:
                self.said = Message(N_("The refit read the held-out dice no better ({before} -> {after} of "
                                       "{dice}); the reader keeps what it had"), figures)
        self._redraw(on_change)

    def _check(self, on_change: Callable[[], None]) -> bool:
        """Clock callback while a run goes on: redraw (its line tells a hang); False ends it."""
        if self.run is None:
            return False
        self._redraw(on_change)
        return True

    def _redraw(self, on_change: Callable[[], None]) -> None:
        """Redraw Settings when it is on screen (a screen left is built again when it comes back)."""
        manager = getattr(self.app, "manager", None)
        if manager is not None and manager.current == "settings":
            on_change()

    def forget(self, on_change: Callable[[], None]) -> None:
        station = self.station
        if station is None:
            return
        self.said_of = station.mode
        try:
            station.forget_adaptation(station.mode)
            self.said, self.failed = Message(N_("Back to the shipped models from the next roll")), False
        except OSError as exc:
            self.said, self.failed = Message(N_("The refit could not be deleted ({reason})"),
                                             {"reason": str(exc)}), True
        on_change()
