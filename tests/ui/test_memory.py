"""Memory of the touchscreen app: redrawing a screen, again and again as taps do all game long,
must leave no widgets, Kivy bindings or canvas rules behind; a screen that was left lets go of
its widgets; screens are made only when first shown.

Deterministic counts (live widgets and Python objects after a full garbage collection), no RSS
thresholds: the RSS of a whole game is a figure of tests/ui/bench_ui.py.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from app.ui.app import COLLECT_EVERY
from app.ui.screens import SCREENS, screen_class
from app.ui.widgets import TextField
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness, make_context

ROOT = Path(__file__).resolve().parents[2]

# A game fast-forwarded to its first roll, the dice typed in by taps, then on to the scores;
# prints which of the camera's libraries got imported.
DICE_BY_HAND = """
import json, sys
from pathlib import Path
from app.games.macao import CUBE_COLOURS
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness, make_context

ui = UiHarness(make_context(Path(sys.argv[1])))
table = Table(ui)
table.advance(lambda s: s.phase == "roll")
for colour in CUBE_COLOURS:
    ui.tap(ui.tagged("pips", 3))
ui.tap_text("Dice are right")
assert ui.app.session.state.phase == "choose_dice", ui.app.notice.text
table.random.state = ui.app.session.state.copy()
table.random.actions.append(ui.app.session.actions[-1])
table.advance(lambda s: s.phase == "over")
ui.app.go("score")
ui.idle()
heavy = ("cv2", "numpy", "gpiozero", "hardware", "app.dice_service")
reader = [m for m in sys.modules if m.startswith("vision.") and m != "vision.atomic_file"]  # that one: os only
print(json.dumps({"screen": ui.app.manager.current,
                  "loaded": sorted(m for m in heavy if m in sys.modules) + sorted(reader)}))
"""


# Counts live widgets and objects before and after twenty redraws of a game screen in round 2.
# Run in a fresh process: earlier tests' apps and Kivy's bookkeeping of their dp-sized
# properties would otherwise sway the count, depending on which tests ran before.
REDRAWS = """
import gc, json, sys
from pathlib import Path
from kivy.uix.widget import Widget
from kivy._metrics import dispatch_pixel_scale
from tests.ui.conftest import Table
from tests.ui.harness import UiHarness, make_context

def live_counts():
    # Kivy keeps a weak entry per sp/dp-sized property of every widget made (a Label has five)
    # and drops the dead ones only now and then, or when the pixel scale is dispatched: done
    # here, so the count is exact instead of depending on where Kivy's clean-up cycle stands.
    dispatch_pixel_scale()
    gc.collect()
    objects = gc.get_objects()
    return sum(1 for o in objects if issubclass(type(o), Widget)), len(objects)

def redraw(times):
    for _ in range(times):
        ui.app.refresh()
        ui.idle()

ui = UiHarness(make_context(Path(sys.argv[1])))
table = Table(ui)
table.advance(lambda s: s.round == 2 and s.phase == "actions")
redraw(3)  # caches that fill once (fonts, the rose's number textures) are full now
before = live_counts()
redraw(20)
after = live_counts()
print(json.dumps({"widgets": [before[0], after[0]], "objects": [before[1], after[1]]}))
"""


def _run_fresh(script: str, folder: Path) -> dict[str, object]:
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_LOG_MODE="PYTHON",
               KIVY_HOME=str(folder / "kivy"), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", script, str(folder)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_redrawing_the_game_screen_leaves_nothing_behind(tmp_path: Path) -> None:
    counts = _run_fresh(REDRAWS, tmp_path)
    widgets_before, widgets_after = counts["widgets"]
    objects_before, objects_after = counts["objects"]
    assert widgets_after == widgets_before
    # Each redraw makes some 150 widgets of several hundred objects each; a leak of even one
    # widget's canvas rules per redraw would add thousands over twenty redraws.
    assert objects_after - objects_before < 200, counts


def test_the_app_collects_the_widget_trees_it_drops(ui: UiHarness, table: Table) -> None:
    """Dropped trees are garbage in reference cycles: the app collects them itself within
    COLLECT_EVERY redraws, not when Python's collector gets round to it (some 12 MB later)."""
    table.advance(lambda s: s.round == 2 and s.phase == "actions")
    gc.collect()
    gc.disable()  # only the app's own collections free cycles now
    try:
        before = [weakref.ref(w) for w in ui.walk()]
        for _ in range(COLLECT_EVERY):
            ui.app.refresh()
            ui.idle()
        shown = set(ui.walk())
        kept = [ref() for ref in before if ref() is not None]
        assert kept and all(widget in shown for widget in kept)  # reused cells, nothing dropped
    finally:
        gc.enable()


def test_after_collecting_dropped_trees_the_app_gives_the_free_heap_back(
        ui: UiHarness, table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holes the freed trees leave in glibc's heap go back to the system (app.heap)."""
    import app.ui.app as app_module

    table.advance(lambda s: s.round == 2 and s.phase == "actions")
    ui.idle()
    calls: list[bool] = []
    monkeypatch.setattr(app_module, "give_back_free_heap", lambda: calls.append(True) or True)
    for _ in range(COLLECT_EVERY):
        ui.app.refresh()
        ui.idle()
    assert len(calls) == 1  # once, right after the full pass


def test_a_screen_that_was_left_lets_go_of_its_widgets(ui: UiHarness) -> None:
    ui.app.go("settings")
    ui.idle()
    shown = weakref.ref(ui.walk().__next__())
    some_button = weakref.ref(ui.buttons()[0])
    ui.app.go("start")
    ui.idle()
    gc.collect()
    assert ui.app.manager.get_screen("settings").children == []
    assert shown() is ui.app.manager.get_screen("settings")  # the screen stays, its widgets go
    assert some_button() is None
    ui.app.go("settings")  # and it is built again when shown
    ui.idle()
    assert ui.buttons()


def test_a_screen_with_a_text_input_lets_go_of_its_widgets(ui: UiHarness) -> None:
    """Kivy's TextInput keeps its last call's arguments for the class (kivy.clock.triggered):
    the last field shown, and through its parents its whole screen, outlived the screen."""
    ui.app.go("macao_setup")
    ui.idle()
    field = ui.find(TextField)[0]
    row = weakref.ref(field.parent)
    field.text = "A name longer than the field is wide, so that the text scrolls to the cursor"
    field.cursor = (len(field.text), 0)
    ui.idle()
    assert field.scroll_x > 0  # the field still scrolls its text to show the cursor
    del field
    ui.app.go("start")
    ui.idle()
    gc.collect()
    assert row() is None


def test_the_game_screen_keeps_the_open_steps_input_when_left_and_shown_again(ui: UiHarness, table: Table) -> None:
    table.advance(lambda s: s.round == 2 and s.phase == "reveal")
    panel = ui.app.manager.get_screen("game").current_panel()
    ui.tap(ui.tagged("slot", 2))
    assert panel.selected == 2
    ui.app.go("history")
    ui.idle()
    assert ui.app.manager.get_screen("game").children == []
    ui.app.go("game")
    ui.idle()
    assert ui.app.manager.get_screen("game").current_panel() is panel
    assert panel.selected == 2
    assert ui.tagged("slot", 2) is not None


def test_screens_are_made_when_first_shown(ui: UiHarness) -> None:
    assert ui.app.manager.screen_names == ["start"]
    ui.app.go("settings")
    assert ui.app.manager.screen_names == ["start", "settings"]
    for name in SCREENS:
        assert screen_class(name).screen_name == name
        assert ui.app.manager.get_screen(name).name == name
    assert sorted(ui.app.manager.screen_names) == sorted(SCREENS)


def test_a_game_with_dice_typed_in_loads_no_camera_libraries(tmp_path: Path) -> None:
    """OpenCV and numpy (some 30 MB) come only with a dice station; in a fresh process, since
    other tests here load them."""
    report = _run_fresh(DICE_BY_HAND, tmp_path)
    assert report == {"screen": "score", "loaded": []}


def test_a_stopped_app_is_not_called_back_by_the_translator_or_the_window(tmp_path: Path) -> None:
    """The translator and Kivy's window outlive an app: a stopped app must not be redrawn by them
    (it would reach for its closed journal), nor kept alive by their lists."""
    from kivy.core.window import Window

    from app.ui.i18n import translator

    ui = UiHarness(make_context(tmp_path))
    stopped = ui.app
    calls: list[str] = []
    stopped.refresh = lambda: calls.append("refresh")  # type: ignore[method-assign]
    stopped.refresh_soon = lambda: calls.append("refresh_soon")  # type: ignore[method-assign]
    translator.set_language("de")
    assert calls == ["refresh"]  # the running app follows the language
    translator.set_language("en")
    ui.close()
    calls.clear()
    translator.set_language("de")
    translator.set_language("en")
    Window.dispatch("on_resize", *Window.size)
    assert calls == []


def test_the_measured_whole_game_process_loads_no_test_framework(tmp_path: Path) -> None:
    """tests/ui/bench_ui.py measures the memory of tests.ui.play_game's process: the harness
    that taps must not bring pytest (some 8 MB) into it, which the app itself never loads."""
    script = ("import json, sys\nimport tests.ui.play_game\n"
              "print(json.dumps({'loaded': sorted(m for m in ('pytest', '_pytest', 'unittest') if m in sys.modules)}))")
    assert _run_fresh(script, tmp_path) == {"loaded": []}
