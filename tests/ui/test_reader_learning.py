"""Settings' dice-reader row: it says what the reader reads with, "Learn from our rolls now" runs
the refit on a worker thread with the table's real kept rolls (the screen stays usable, a hung
or failing run is told in words) and "Back to the shipped models" drops the refit; each for the
kind of dice of the game in play, which the row names."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from app import reader_adaptation
from app.games import read_document
from app.games.macao import dump_record
from app.games.macao.simulate import random_record

from app.ui.dice_link import DiceLink
from app.ui.i18n import translator
from app.ui.reader_learning import LEARN_PATIENCE_S, ReaderLearning
from tests.learnt_table import ANY_COLOURS, MIN_DICE, THROWS, TOO_STRICT, keep_any_rolls, keep_rolls
from tests.ui.harness import UiHarness, make_context
from tests.ui.test_camera_check import FixedClock
from vision.adapt import RECORD_NAME, Adaptation, Refit
from vision.evaluate import Score


def _link(data: Path, mock_factory: MockFactory, learned: str = "") -> DiceLink:
    """A dice station (no camera) whose calibration, kept rolls and refits lie in `data`;
    `learned`: lines of [vision.learned] laid over the config."""
    from app.config import load_config
    from app.dice_station import build_dice_station

    override = data / "config.toml"
    override.write_text(f'[camera]\nsource = "none"\n[vision]\ncalibration_path = "{data / "calibration.json"}"\n'
                        + (f"[vision.learned]\n{learned}\n" if learned else ""), encoding="utf-8")
    config = load_config(override, env={}, home=Path("/nonexistent"))
    link = DiceLink()
    link.attach(lambda **callbacks: build_dice_station(config, clock=FixedClock(), pin_factory=mock_factory,
                                                       **callbacks), start=False)
    for adaptation in link.station.adaptations.values():
        adaptation.min_dice = MIN_DICE  # twelve rolls: fewer dice than the app asks for
    return link


@contextmanager
def settings_on(data: Path, mock_factory: MockFactory, learned: str = "") -> Iterator[tuple[UiHarness, DiceLink]]:
    link = _link(data, mock_factory, learned)
    ui = UiHarness(make_context(data, dice=link))
    try:
        ui.app.go("settings")
        ui.idle()
        yield ui, link
    finally:
        translator.set_language("en")
        ui.close()
        link.close()


def _learning(ui: UiHarness) -> ReaderLearning:
    return ui.app.reader_learning


def _finish(ui: UiHarness) -> None:
    """Let the run's worker thread end and its outcome reach the screen (a quick one has already)."""
    run = _learning(ui).run
    if run is not None:
        run.thread.join(timeout=120)
        assert not run.thread.is_alive(), "the learning worker did not end"
    ui.idle()
    assert _learning(ui).run is None


def _said(ui: UiHarness, words: str) -> bool:
    return any(words in label for label in ui.labels())


def test_learning_from_the_kept_rolls_puts_the_refit_in_use(tmp_path: Path, mock_factory: MockFactory) -> None:
    keep_rolls(tmp_path)
    with settings_on(tmp_path, mock_factory) as (ui, link):
        assert _said(ui, "Dice of six colours: Shipped models") and ui.button("Back to the shipped models").disabled
        ui.tap_text("Learn from our rolls now")
        assert _said(ui, "Learning from our rolls ... the game can go on meanwhile")
        assert ui.button("Learn from our rolls now").disabled
        _finish(ui)
        assert _said(ui, "Dice of six colours: Learnt: held-out dice read right 88.9 % -> 100.0 % (of 18); in use "
                         "from the next roll")
        refit = link.station.adaptation.in_use
        assert refit is not None and link.station.reader.calibration == refit.calibration
        ui.app.go("start")
        ui.app.go("settings")
        ui.idle()
        assert _said(ui, "Adapted on 12 rolls: held-out dice read right 88.9 % -> 100.0 %")
        translator.set_language("de")
        ui.app.refresh()
        ui.idle()
        assert _said(ui, "An 12 Würfen angepasst: zurückgehaltene Würfel richtig gelesen 88,9 % -> 100,0 %")
        translator.set_language("en")
        ui.app.refresh()
        ui.idle()
        ui.tap_text("Back to the shipped models")
        assert _said(ui, "Back to the shipped models from the next roll")
        assert link.station.adaptation.in_use is None and link.station.reader.calibration is None
        assert not (tmp_path / "table-rolls" / "adapted" / RECORD_NAME).exists()


def test_without_kept_rolls_nothing_is_learnt_and_it_says_why(tmp_path: Path, mock_factory: MockFactory) -> None:
    with settings_on(tmp_path, mock_factory) as (ui, _link_):
        ui.tap_text("Learn from our rolls now")
        _finish(ui)
        assert _said(ui, f"Nothing learnt: {tmp_path / 'table-rolls'}: no rolls kept yet")
        assert not ui.button("Learn from our rolls now").disabled  # it can be tried again
        ui.app.go("start")
        ui.app.go("settings")
        ui.idle()
        assert _said(ui, "Nothing learnt:")  # told until the next run


def test_a_hung_run_is_told_in_words_and_the_screen_stays_usable(tmp_path: Path, mock_factory: MockFactory) -> None:
    with settings_on(tmp_path, mock_factory) as (ui, link):
        release = threading.Event()

        def hangs(_mode: str) -> None:
            release.wait(60)
            raise OSError("the card was pulled")

        link.station.learn_from_rolls = hangs
        learning = _learning(ui)
        now = [1000.0]
        learning.clock = lambda: now[0]
        ui.tap_text("Learn from our rolls now")
        now[0] += LEARN_PATIENCE_S + 1
        ui.app.refresh()
        ui.idle()
        assert _said(ui, "Learning has run for 20 minutes without finishing; the reader keeps what it had.")
        ui.tap_text("100%")  # the rest of Settings still answers
        assert ui.app.context.settings.text_scale == 1.0
        ui.app.go("start")  # the table leaves Settings while it runs
        release.set()
        _finish(ui)
        assert not ui.app.manager.get_screen("settings").children  # not built again while away
        ui.app.go("settings")
        ui.idle()
        assert _said(ui, "Nothing learnt: the card was pulled")


def test_a_refit_that_states_values_the_players_did_not_confirm_is_refused_in_those_words(
        tmp_path: Path, mock_factory: MockFactory) -> None:
    """It reads more labelled dice right, but on the rolls the reader miscounted it states dice
    the players corrected: the table is told why nothing changed, not that it read no better."""
    before, after = (Score(dice=40, colour_value_right=right, against_confirmed=against)
                     for right, against in ((30, 2), (36, 5)))
    refused = Adaptation(Refit("macao", None, 0.7, 120), before, after, 36, 12)
    assert not refused.better
    with settings_on(tmp_path, mock_factory) as (ui, link):
        link.station.learn_from_rolls = lambda _mode: refused
        ui.tap_text("Learn from our rolls now")
        _finish(ui)
        assert _said(ui, "The refit stated more dice wrongly on the held-out rolls (2 -> 5 values you did not "
                         "confirm); the reader keeps what it had")
        assert link.station.adaptation.in_use is None
        translator.set_language("de")
        ui.app.refresh()
        ui.idle()
        assert _said(ui, "mehr Würfel falsch (2 -> 5 Werte, die ihr nicht bestätigt habt)")
        assert not [text for text in ui.cut_texts() if "bestätigt" in text]


def test_in_a_game_whose_colours_repeat_the_row_learns_and_forgets_its_dice_alone(
        tmp_path: Path, mock_factory: MockFactory) -> None:
    keep_rolls(tmp_path)  # Macao's rolls too, which this run must leave alone
    keep_any_rolls(tmp_path)
    with settings_on(tmp_path, mock_factory, f"value_min_probability = {TOO_STRICT}") as (ui, link):
        ui.app.session.new_game("marcopolo2", {"format": "marcopolo2-score/1", "players": [
            {"name": "Ann", "colour": "red"}, {"name": "Ben", "colour": "blue"}, {"name": "Cy", "colour": "yellow"}]})
        ui.app.go("game")  # the game tells the station its dice
        ui.idle()
        assert link.station.reader.dice.colours == ANY_COLOURS and link.station.mode == "any"
        ui.app.go("settings")
        ui.idle()
        assert _said(ui, "Dice whose colours repeat: Shipped models")
        ui.tap_text("Learn from our rolls now")
        assert _said(ui, "Dice whose colours repeat: Learning from our rolls ... the game can go on meanwhile")
        _finish(ui)
        assert _said(ui, "Dice whose colours repeat: Learnt: held-out dice read right 62.5 % -> 100.0 % (of 24); "
                         "in use from the next roll")
        refit = link.station.adaptations["any"].in_use
        assert refit is not None and link.station.reader.learned.value_min_probability == refit.value_min_probability
        assert link.station.adaptations["macao"].in_use is None
        assert not (tmp_path / "table-rolls" / "adapted").exists()  # Macao's rolls taught nothing
        translator.set_language("de")
        ui.app.go("start")
        ui.app.go("settings")
        ui.idle()
        assert _said(ui, "Würfel mit sich wiederholenden Farben: An 12 Würfen angepasst: zurückgehaltene Würfel "
                         "richtig gelesen 62,5 % -> 100,0 %")
        translator.set_language("en")
        ui.app.refresh()
        ui.idle()
        ui.tap_text("Back to the shipped models")
        assert _said(ui, "Dice whose colours repeat: Back to the shipped models from the next roll")
        assert link.station.adaptations["any"].in_use is None
        assert link.station.reader.learned.value_min_probability == TOO_STRICT
        assert not (tmp_path / "table-rolls-any" / "adapted" / RECORD_NAME).exists()


def test_a_refit_that_stops_dice_being_seen_where_none_lay_says_so(learnt_table: Path, mock_factory: MockFactory) -> None:
    """Readings where no die lies cost the players a tap each, as a die read wrong does: a refit
    judged on them says how many it saved."""
    record_path = learnt_table / "table-rolls" / "adapted" / RECORD_NAME
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record["version"] == 4 and record["extra_before"] == record["extra_after"]  # none on this calm table
    record.update(extra_before=9, extra_after=1)
    record_path.write_text(json.dumps(record), encoding="utf-8")
    with settings_on(learnt_table, mock_factory) as (ui, _link):
        assert _said(ui, "Adapted on 12 rolls: held-out dice read right 88.9 % -> 100.0 %, dice seen where none lay "
                         "9 -> 1")
        assert not [text for text in ui.cut_texts() if "none lay" in text]  # the longer line is shown whole
        _shown_whole_in_german(ui, "Würfel gesehen, wo keiner lag 9 -> 1", "keiner lag")


def test_a_refit_in_use_says_how_many_values_it_stated_that_nobody_confirmed(learnt_table: Path,
                                                                             mock_factory: MockFactory) -> None:
    """Every held-out roll judges a refit by the values it states beyond those the players
    confirmed; the line of the refit in use says so where that count moved, with the readings
    where no die lay when those moved too, and is shown whole in either language."""
    record_path = learnt_table / "table-rolls" / "adapted" / RECORD_NAME
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record["version"] == 4 and (record["against_before"], record["against_after"]) == (2, 0)
    with settings_on(learnt_table, mock_factory) as (ui, _link):
        assert _said(ui, "Adapted on 12 rolls: held-out dice read right 88.9 % -> 100.0 %, values you did not "
                         "confirm 2 -> 0")
    record.update(against_before=3, against_after=1, extra_before=9, extra_after=1)
    record_path.write_text(json.dumps(record), encoding="utf-8")
    with settings_on(learnt_table, mock_factory) as (ui, _link):
        assert _said(ui, "dice seen where none lay 9 -> 1, values you did not confirm 3 -> 1")
        assert not [text for text in ui.cut_texts() if "confirm" in text]
        _shown_whole_in_german(ui, "Würfel gesehen, wo keiner lag 9 -> 1, Werte, die ihr nicht bestätigt habt 3 -> 1",
                               "bestätigt")


def _shown_whole_in_german(ui: UiHarness, line: str, part: str) -> None:
    """Settings, opened again in German, says `line`, and no text holding `part` is cut."""
    translator.set_language("de")
    ui.app.go("start")
    ui.app.go("settings")
    ui.idle()
    assert _said(ui, line)
    assert not [text for text in ui.cut_texts() if part in text]


def _game_ends(ui: UiHarness, seed: int) -> None:
    """A game of Macao is played to its end: the game screen finds it over and shows the score."""
    ui.app.session.import_document(*read_document(dump_record(random_record(seed=seed, players=2))))
    ui.app.say("")
    ui.app.go("game")
    ui.idle()
    assert ui.app.manager.current == "score"


def test_a_game_that_ends_after_a_game_of_rolls_was_kept_starts_learning_by_itself(
        tmp_path: Path, mock_factory: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader_adaptation, "LEARN_FROM_ROLLS", THROWS)  # twelve rolls are enough here
    keep_rolls(tmp_path)
    with settings_on(tmp_path, mock_factory) as (ui, link):
        translator.set_language("de")
        _game_ends(ui, 3)
        assert _learning(ui).run is not None
        assert _said(ui, "Der Würfelleser lernt aus den bisher behaltenen Würfen; in den Einstellungen steht, wie es "
                         "ausging.")
        assert not [text for text in ui.cut_texts() if "Würfelleser" in text]  # the score screen shows it whole
        translator.set_language("en")  # the notice stays in the language it was said in
        _finish(ui)
        ui.app.go("settings")
        ui.idle()
        assert _said(ui, "Dice of six colours: Adapted on 12 rolls: held-out dice read right 88.9 % -> 100.0 %")
        assert link.station.adaptation.in_use is not None
        _game_ends(ui, 4)  # no roll kept since: nothing to learn
        assert _learning(ui).run is None and not _said(ui, "The dice reader is learning")
        ui.app.go("game")  # the same game's score again is no new end
        ui.idle()
        assert _learning(ui).run is None


def test_with_learning_off_or_too_few_rolls_a_game_s_end_learns_nothing(
        tmp_path: Path, mock_factory: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    keep_rolls(tmp_path)  # twelve rolls, fewer than a run asks for by itself
    with settings_on(tmp_path, mock_factory) as (ui, _link_):
        _game_ends(ui, 3)
        assert _learning(ui).run is None
        monkeypatch.setattr(reader_adaptation, "LEARN_FROM_ROLLS", THROWS)
        ui.app.context.settings = replace(ui.app.context.settings, learn_from_rolls=False)
        _game_ends(ui, 4)
        assert _learning(ui).run is None and not (tmp_path / "table-rolls" / "adapted").exists()
