"""Camera check: what the camera sees, a test reading, re-locking exposure after the light changed,
and calibrating the dice colours under the table's light.

Calibration is two taps: "Calibrate colours" learns the six dice's colours (or, for a game
whose dice repeat colours, one die of each colour the table plays with: the game's dice, as
the station was told them) from the picture the camera has now and shows them; "Keep these colours" stores them
(the reader uses them from the next roll on), "Discard" keeps the old ones.
A failure says what went wrong and never touches the stored calibration.
The picture is taken and measured on a worker thread (on a Pi a full-size still and its
reading take about a second), so the screen keeps drawing meanwhile.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from app.dice_service import DiceStatus, RollState
from app.games.base import Message
from app.ui import theme
from app.ui.camera_view import CameraView, tray_from_corners
from app.ui.i18n import N_, _, translator
from app.ui.screens.base import BaseScreen, Paragraph
from app.ui.widgets import BigButton, DieWidget, Panel, TextLabel
from hardware.camera import CameraError
from vision.calibrate import Calibration, CalibrationError
from vision.colour import ColourModel
from vision.params import WHOLE_FRAME, VisionParams
from vision.types import DIE_COLOURS

POLARITY_WORDS = {"light": N_("light pips"), "dark": N_("dark pips"), "": N_("pips not seen")}
KEPT_UNCHANGED = N_("The colours in use stay as they were.")
EMPTY_TRAY_KEPT = N_("The picture of the empty tray was kept: each roll is compared with it.")
EMPTY_TRAY_NOT_EMPTY = N_("The reader saw dice in the tray, so no picture of the empty tray was kept: take them "
                          "out and mark the tray again.")
EMPTY_TRAY_NO_PICTURE = N_("The camera gave no picture, so none of the empty tray was kept: mark the tray again "
                           "once the picture shows.")
EMPTY_TRAY_NOT_STORED = N_("The picture of the empty tray could not be stored (is the card full?): rolls are read "
                           "without it. Free some space and mark the tray again.")
SLANT_WORTH_SAYING_DEG = 10.0  # a camera leaning less is as good as over the tray: nothing to say
NEUTRAL_DICE = ("black", "gray", "white")  # dark to light
LOG = logging.getLogger(__name__)


def doubtful_colours(calibration: Calibration, params: VisionParams) -> list[str]:
    """Dice whose learnt colour cannot be right: a coloured die that came out gray (another
    object was taken for it), or of the neutral dice (black, gray, white) a darker one not
    darker than the next. Shown, not refused."""
    models = calibration.models
    doubtful = [name for name in calibration.colours
                if name not in NEUTRAL_DICE and models[name].chroma < params.colour_chroma_neutral]
    neutral = [name for name in NEUTRAL_DICE if name in models]
    if any(models[dark].lightness >= models[light].lightness for dark, light in zip(neutral, neutral[1:])):
        doubtful += neutral
    return doubtful


def swatch_rgba(model: ColourModel) -> tuple[float, float, float, float]:
    """The learnt body colour (OpenCV 8-bit Lab: lightness, chroma, hue) as an RGBA fill."""
    angle = np.radians(model.hue_deg)
    lab = np.array([[[model.lightness, 128 + model.chroma * np.cos(angle), 128 + model.chroma * np.sin(angle)]]])
    red, green, blue = cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_Lab2RGB)[0, 0]
    return (red / 255, green / 255, blue / 255, 1.0)


class ColourSwatch(Panel):
    """One die's learnt colour as a filled tile, with its name and pip polarity."""

    def __init__(self, model: ColourModel, doubtful: bool = False, **kwargs: Any) -> None:
        rgba = swatch_rgba(model)
        super().__init__(orientation="vertical", bg=list(rgba), padding=(4, 2), **kwargs)
        self.colour = model.name
        self.polarity = model.pip_polarity
        self.doubtful = doubtful
        brightness = 0.3 * rgba[0] + 0.59 * rgba[1] + 0.11 * rgba[2]
        ink = (0.07, 0.07, 0.07, 1) if brightness > 0.55 else theme.TEXT
        self.add_widget(TextLabel(translator.gettext(model.name), size=theme.FONT_NORMAL, bold=True,
                                  halign="center", color=ink))
        below = _("doubtful") if doubtful else _(POLARITY_WORDS.get(model.pip_polarity, POLARITY_WORDS[""]))
        self.add_widget(TextLabel(below, size=theme.FONT_SMALL, halign="center", color=ink, bold=doubtful))


@dataclass
class CalibrationStep:
    """Where the table is in calibrating: a result waiting for Keep/Discard, and the last word on it."""

    found: Calibration | None = None
    doubtful: tuple[str, ...] = ()  # colours of `found` that cannot be right
    said: Message | None = None
    failed: bool = False
    detail: str = ""  # the reader's own (English) words on a failure, for whoever fixes the set-up
    measuring: bool = False  # the worker thread is still taking and reading the picture


class CameraScreen(BaseScreen):
    screen_name = "camera"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.step = CalibrationStep()
        self.calibration_job: threading.Thread | None = None  # the latest measurement's worker
        self.marking_tray = False  # the picture's taps mark the tray's corners
        self.tray_corners: list[tuple[float, float]] = []  # the corners tapped so far (up to four)
        self.tray_slipped = False  # the last four corners made no region that can hold the dice
        self.empty_tray_said: str | None = None  # what became of the empty-tray picture at the last marking

    def prepare(self) -> None:
        """Coming to the screen starts afresh: an earlier result or pending calibration is dropped
        (a measurement still running goes on and shows its result here)."""
        if not self.step.measuring:
            self.step = CalibrationStep()
        self._stop_marking()
        self.empty_tray_said = None

    def build(self, root: BoxLayout) -> None:
        root.add_widget(self.title_bar(_("Camera check")))
        link = self.app.context.dice
        body = BoxLayout(orientation="vertical", padding=theme.GAP * 2, spacing=theme.GAP)
        status = link.status if link is not None else None
        if link is None or link.station is None:
            body.add_widget(TextLabel(_("No dice station is running: dice are entered by hand."),
                                      size=theme.FONT_NORMAL))
        else:
            for problem in link.problems:  # start-up notices: PlayerNotice (translatable) or plain text
                body.add_widget(TextLabel(translator.message(getattr(problem, "message", problem)),
                                          size=theme.FONT_SMALL, color=theme.WARN, size_hint_y=None, height=26))
            if status is not None:
                body.add_widget(TextLabel(translator.gettext(status.note).format(**status.params),
                                          size=theme.FONT_NORMAL, size_hint_y=None, height=32))
            if link.has_camera:
                body.add_widget(CameraView(link, on_picture_tap=self.on_picture_tap if self.marking_tray else None,
                                           marks=tuple(self.tray_corners)))
            if self.marking_tray and link.has_camera:
                body.add_widget(self._marking_words())
                body.add_widget(self._marking_buttons())
                root.add_widget(body)
                return
            if link.has_camera and (slant := self._slant_words(link.station)) is not None:
                body.add_widget(slant)
            if self.empty_tray_said is not None:
                body.add_widget(self._empty_tray_words(self.empty_tray_said))
            body.add_widget(self._calibration_words(link.station))
            if self.step.found is not None:
                body.add_widget(self._swatches(self.step.found))
                body.add_widget(self._keep_or_discard())
            else:
                body.add_widget(self._reading(status))
                body.add_widget(self._buttons(link))
        if link is None or not link.has_camera:
            body.add_widget(Widget())
        root.add_widget(body)

    def _slant_words(self, station: Any) -> Widget | None:
        """What the tray's corners tell of the camera: that they do not fit its field of view (the
        reader then takes the camera as straight above the tray, and flat dice may be asked about as
        cocked), with a tap to use the one they measure; or how far it leans; nothing for a camera
        nearly over the tray or a rectangular region."""
        slant = station.camera_slant()
        if slant is None or (slant.tilt_deg is not None and slant.tilt_deg < SLANT_WORTH_SAYING_DEG):
            return None
        fov = f"{station.reader.params.camera_fov_deg:g}"
        if slant.tilt_deg is not None:
            text = _("By the tray's corners the camera looks {tilt}° from straight down (field of view "
                     "{fov}°).").format(tilt=round(slant.tilt_deg), fov=fov)
            return Paragraph(text, size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_y=None, height=26)
        measured = round(slant.measured_fov_deg)
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=66)
        row.add_widget(Paragraph(
            _("The tray's corners fit a camera that sees {measured}° across, not the {fov}° of the config file "
              "(camera_fov_deg): use theirs if this camera is not the one configured, else mark the tray again. "
              "Until then flat dice may be asked about as cocked.").format(measured=measured, fov=fov),
            size=theme.FONT_SMALL, color=theme.WARN))
        row.add_widget(BigButton(_("Use {degrees}°").format(degrees=measured), size_hint_x=None, width=150,
                                 on_tap=lambda: self.on_use_field_of_view(float(measured))))
        return row

    @staticmethod
    def _empty_tray_words(said: str) -> Widget:
        """Whether the last marking kept the picture of the empty tray (the reader compares each
        roll with it: without it, board art and tray patterns can pass for dice)."""
        kept = said == EMPTY_TRAY_KEPT
        return Paragraph(_(said), size=theme.FONT_SMALL, color=theme.TEXT_DIM if kept else theme.WARN,
                         size_hint_y=None, height=26 if kept else 48)

    def on_use_field_of_view(self, degrees: float) -> None:
        """Keep the field of view the tray's corners measured with the table's settings (over
        [vision] camera_fov_deg) and restart the dice station with it."""
        self.app.apply_settings(replace(self.app.context.settings, camera_fov_deg=degrees))
        self.app.restart_dice()

    def _calibration_words(self, station: Any) -> Widget:
        """The last calibration result, else which colours the reader uses and how to calibrate."""
        if self.step.doubtful:
            names = ", ".join(translator.gettext(colour) for colour in self.step.doubtful)
            return Paragraph(_("Some colours look wrong ({colours}): are the six dice apart and fully in view? "
                               "Keep them only if each tile matches its die.").format(colours=names),
                             size=theme.FONT_SMALL, color=theme.WARN, size_hint_y=None, height=48)
        if not station.reader.dice.names_jointly and self.step.said is None:
            return self._set_words(station)
        if self.step.said is not None:
            text = translator.message(self.step.said)
            if self.step.failed:
                text += " " + _(KEPT_UNCHANGED) + (f"\n({self.step.detail})" if self.step.detail else "")
            colour = theme.DANGER_TEXT if self.step.failed else theme.TEXT
            return Paragraph(text, size=theme.FONT_SMALL, color=colour, size_hint_y=None, height=66)
        if station.reader.calibration is None:
            text = _("Dice colours: built in. To calibrate, lay the six dice apart in the tray and tap "
                     "Calibrate colours.")
        elif not station.reader.calibration_applies:
            text = _("Dice colours: built in. The stored calibration was made by the other dice reader; "
                     "tap Calibrate colours to make a new one.")
        else:
            text = _("Dice colours: calibrated for this table. Calibrate again after the light changed.")
        return Paragraph(text, size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_y=None, height=48)

    def _set_words(self, station: Any) -> Widget:
        """For a game whose dice repeat colours: which colours are in use, and how to learn them."""
        names = ", ".join(translator.gettext(colour) for colour in station.reader.dice.colours)
        if station.reader.calibration_applies:
            text = _("Dice colours ({colours}): learnt at this table. Learn them again after the light "
                     "changed.").format(colours=names)
        else:
            text = _("Dice colours ({colours}): built in. To learn them, lay one die of each of these colours "
                     "apart in the tray and tap Calibrate colours.").format(colours=names)
        return Paragraph(text, size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_y=None, height=48)

    def _swatches(self, calibration: Calibration) -> Widget:
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=80)
        for colour in calibration.colours:
            row.add_widget(ColourSwatch(calibration.models[colour], doubtful=colour in self.step.doubtful))
        return row

    def _keep_or_discard(self) -> Widget:
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
        row.add_widget(BigButton(_("Keep these colours"), role="ok", on_tap=self.on_keep))
        row.add_widget(BigButton(_("Discard"), on_tap=self.on_discard))
        return row

    def _buttons(self, link: Any) -> Widget:
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
        row.add_widget(BigButton(_("Test roll"), role="accent", on_tap=self.on_roll_button))
        row.add_widget(BigButton(_("Adapt to the light again"),
                                 on_tap=lambda: link.station.service.relock_exposure()))
        row.add_widget(BigButton(_("Calibrate colours"), on_tap=self.on_calibrate, disabled=self.step.measuring))
        if link.has_camera:
            row.add_widget(BigButton(_("Mark the tray"), on_tap=self.on_mark_tray, disabled=self.step.measuring))
        return row

    # -- marking the tray on the picture --------------------------------------------------
    def _marking_words(self) -> Widget:
        if self.tray_slipped:
            text = _("Those four corners make no tray that holds the dice. Tap the four corners again.")
        elif not self.tray_corners:
            text = _("Take the dice out, then tap the four corners of the tray on the picture: the dice are "
                     "looked for only inside it, and the empty tray is kept to compare with.")
        else:
            text = _("Corner {n} of 4 marked: tap the next corner.").format(n=len(self.tray_corners))
        return Paragraph(text, size=theme.FONT_SMALL, color=theme.TEXT, size_hint_y=None, height=48)

    def _marking_buttons(self) -> Widget:
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
        row.add_widget(BigButton(_("Whole picture"), on_tap=lambda: self._keep_tray(list(WHOLE_FRAME))))
        settings = self.app.context.settings
        if settings.tray is not None or settings.camera_fov_deg is not None:  # the table's own override the file's
            row.add_widget(BigButton(_("As in the config file"), on_tap=lambda: self._keep_tray(None)))
        row.add_widget(BigButton(_("Cancel"), on_tap=self.on_stop_marking))
        return row

    def on_mark_tray(self) -> None:
        self._stop_marking()
        self.marking_tray, self.empty_tray_said = True, None
        self.refresh()

    def on_stop_marking(self) -> None:
        self._stop_marking()
        self.refresh()

    def _stop_marking(self) -> None:
        self.marking_tray, self.tray_corners, self.tray_slipped = False, [], False

    def on_picture_tap(self, across: float, down: float) -> None:
        """Each tap marks a corner of the tray, in any order; the fourth closes the region (a camera
        at a slant sees the tray as a quadrilateral, not a rectangle)."""
        if not self.marking_tray:
            return
        self.tray_corners.append((across, down))
        self.tray_slipped = False
        if len(self.tray_corners) < 4:
            self.refresh()
            return
        tray = tray_from_corners(self.tray_corners)
        if tray is None:
            self.tray_corners, self.tray_slipped = [], True
            self.refresh()
            return
        self._keep_tray(tray)

    def _keep_tray(self, tray: list[float] | None) -> None:
        """Store the region with the table's settings (None: config.toml's [vision] tray_* and
        camera_fov_deg again) and restart the dice station with it; the picture of the tray, when
        it shows no die, is kept as the empty tray the reader compares rolls with."""
        self._stop_marking()
        link = self.app.context.dice
        if link is not None and link.station is not None and link.has_camera:
            try:
                self.empty_tray_said = EMPTY_TRAY_KEPT if link.station.take_empty_tray() else EMPTY_TRAY_NOT_EMPTY
            except (CameraError, OSError) as exc:  # the region is kept all the same
                LOG.warning("no empty-tray picture taken: %s", exc)
                self.empty_tray_said = EMPTY_TRAY_NO_PICTURE
        settings = replace(self.app.context.settings, tray=tray)
        self.app.apply_settings(settings if tray is not None else replace(settings, camera_fov_deg=None))
        self.app.restart_dice()
        restarted = self.app.context.dice
        if self.empty_tray_said == EMPTY_TRAY_KEPT and (restarted is None or restarted.station is None
                                                        or restarted.station.reader.reference is None):
            self.empty_tray_said = EMPTY_TRAY_NOT_STORED  # the restarted station found no stored picture
            self.refresh()

    def _reading(self, status: DiceStatus | None) -> Widget:
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=80)
        if status is not None and not status.spec.names_jointly:
            return self._dice_read(row, status)
        proposed = status.proposed_dice if status is not None and status.state is RollState.PROPOSED else {}
        for colour in DIE_COLOURS:
            value = proposed.get(colour)
            die = DieWidget(colour, value or 0)
            die.unsure = bool(proposed) and value is None
            row.add_widget(die)
        return row

    @staticmethod
    def _dice_read(row: BoxLayout, status: DiceStatus) -> Widget:
        """A test roll of dice whose colours repeat: each die read, colour by colour (the first
        dozen: a whole table's roll does not fit the row)."""
        if status.state is RollState.PROPOSED:
            dice = [die for group in status.proposed_groups.values() for die in group]
            for die in dice[:12]:
                widget = DieWidget(die.colour or "", die.value or 0)
                widget.unsure = die.unsure
                row.add_widget(widget)
        return row

    def on_roll_button(self) -> None:
        link = self.app.context.dice
        if link is not None:
            link.roll()
            self.refresh()

    def on_calibrate(self) -> None:
        """Learn the colours from the camera's picture, on a worker thread; the result is shown
        for Keep/Discard, nothing is stored yet."""
        link = self.app.context.dice
        if self.calibration_running:
            return
        self.step = CalibrationStep()
        if link is None or link.station is None:
            return
        if not link.has_camera:
            status = link.status  # "Starting the camera", "No camera is configured ..." or the camera's fault
            reason = "" if status is None else str(status.params.get("problem") or translator.gettext(status.note))
            self._failed(Message(N_("The camera is not available ({reason}), so nothing was calibrated."),
                                 {"reason": reason}))
        else:
            said = (Message(N_("Measuring the six dice's colours ...")) if link.station.reader.dice.names_jointly
                    else Message(N_("Measuring the colours of the dice in the tray ...")))
            step = self.step = CalibrationStep(said=said, measuring=True)
            self.calibration_job = threading.Thread(target=self._measure, args=(link.station, step),
                                                    name="calibration", daemon=True)
            self.calibration_job.start()
        self.refresh()

    @property
    def calibration_running(self) -> bool:
        return self.calibration_job is not None and self.calibration_job.is_alive()

    def _measure(self, station: Any, step: CalibrationStep) -> None:
        """Worker thread: take the picture and learn the colours; the outcome goes to the UI thread."""
        try:
            outcome: Calibration | Exception = station.calibrate_now()
        except (CameraError, CalibrationError) as exc:
            outcome = exc
        except Exception as exc:  # a fault of ours must not leave the screen measuring for ever
            LOG.exception("colour calibration failed")
            outcome = exc
        Clock.schedule_once(lambda _dt: self._measured(station, step, outcome))

    def _measured(self, station: Any, step: CalibrationStep, outcome: Calibration | Exception) -> None:
        """Show what the measurement found, unless the table has started afresh meanwhile."""
        if self.step is not step:
            return
        if isinstance(outcome, CameraError):
            self._failed(Message(N_("The camera gave no picture ({reason}), so nothing was calibrated."),
                                 {"reason": str(outcome)}))
        elif isinstance(outcome, CalibrationError) and not station.reader.dice.names_jointly:
            colours = ", ".join(translator.gettext(colour) for colour in station.reader.dice.colours)
            self._failed(Message(N_("Calibration failed: one die of each colour ({colours}) must lie apart in "
                                    "the tray, each fully in view."), {"colours": colours}), detail=str(outcome))
        elif isinstance(outcome, CalibrationError):
            self._failed(Message(N_("Calibration failed: the six dice must lie apart in the tray, each "
                                    "fully in view.")), detail=str(outcome))
        elif isinstance(outcome, Exception):
            self._failed(Message(N_("Calibration stopped on an unexpected fault ({reason})."),
                                 {"reason": f"{type(outcome).__name__}: {outcome}"}))
        else:
            self.step = CalibrationStep(found=outcome,
                                        doubtful=tuple(doubtful_colours(outcome, station.reader.params)),
                                        said=Message(N_("These are the colours the camera found. Keep them?")))
        if self.manager is not None and self.manager.current == self.name:  # a table that left starts afresh
            self.refresh()

    def on_keep(self) -> None:
        link = self.app.context.dice
        found = self.step.found
        self.step = CalibrationStep()
        if found is None or link is None or link.station is None:  # the station went away meanwhile
            self.refresh()
            return
        station = link.station
        try:
            path = station.keep_calibration(found)
        except (OSError, CalibrationError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self._failed(Message(N_("The colours could not be saved ({reason})."), {"reason": reason}))
        else:
            self.step.said = Message(N_("Colours kept in {path}; the dice reader uses them from the next roll."),
                                     {"path": str(path)})
        self.refresh()

    def on_discard(self) -> None:
        self.step = CalibrationStep(said=Message(N_("Calibration discarded: the colours in use stay as they were.")))
        self.refresh()

    def _failed(self, message: Message, detail: str = "") -> None:
        self.step = CalibrationStep(said=message, failed=True, detail=detail)
