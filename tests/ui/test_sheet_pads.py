"""The score pads of the sheet games, driven by taps on the offscreen window: values go in by
keypad, the pad's own limits show on it, the rules' refusals go back to the host, and the next
value to enter lights up after each one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.ui.harness import _press  # noqa: I001 - sets up the offscreen window first

from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.widget import Widget

from app.games import game, read_document
from app.games.base import RulesError
from app.ui.i18n import translator
from app.ui.guild_columns.pad import ColumnsPad
from app.ui.guild_columns.ring import RingView
from app.ui.marcopolo2.pad import MarcoPolo2Pad
from app.ui.shadows.pad import ShadowsPad
from app.ui.voyage.pad import VoyagePad
from app.ui.widgets import TextField
from tests.ui.harness import UiHarness

SHEETS = Path(__file__).resolve().parents[1] / "games"


class PadTable:
    """A pad on the window over a state the game's own rules keep, as the session would."""

    def __init__(self, game_id: str, pad_class: type, names: list[str] | None = None,
                 header: dict[str, Any] | None = None) -> None:
        self.rules = game(game_id)
        if header is None:
            header = {"format": self.rules.formats[0], "players": [{"name": n} for n in names or []]}
        self.state = self.rules.new_state(header)
        self.actions: list[dict[str, Any]] = []
        self.refusals: list[str] = []
        self.pad = pad_class(self.state, self.act)
        EventLoop.ensure_window()
        EventLoop.window.size = (800, 480)
        EventLoop.window.add_widget(self.pad)
        self.idle()

    def act(self, action: dict[str, Any]) -> bool:
        """As the app does: the rules take the action or say why not (kept in `refusals`)."""
        try:
            self.state = self.rules.apply(self.state, action)
        except RulesError as err:
            self.refusals.append(translator.message(err.message))
            return False
        self.actions.append(action)
        self.pad.update(self.state)
        return True

    def idle(self) -> None:
        Clock.tick()
        for _ in range(3):
            for widget in self.pad.walk():
                if isinstance(widget, Layout):
                    widget.do_layout()
        Clock.tick()

    def widget(self, *tag: Any) -> Widget:
        found = [w for w in self.pad.walk() if getattr(w, "tag", None) == tag]
        assert len(found) == 1, f"{len(found)} widgets tagged {tag}"
        return found[0]

    def tap(self, *tag: Any) -> None:
        _press(*self.widget(*tag).to_window(*self.widget(*tag).center))
        self.idle()

    def type_keys(self, *keys: str) -> None:
        for key in keys:
            self.tap("key", key)

    def texts(self) -> list[str]:
        return [w.text for w in self.pad.walk() if isinstance(w, Label) and w.text]

    def close(self) -> None:
        EventLoop.window.remove_widget(self.pad)


@pytest.fixture
def tables() -> Iterator[list[PadTable]]:
    translator.set_language("en")
    made: list[PadTable] = []
    yield made
    for table in made:
        table.close()


def test_columns_go_in_by_keypad(tables: list[PadTable]) -> None:
    table = PadTable("guild_columns", ColumnsPad, ["Ann", "Ben"])
    tables.append(table)
    assert table.widget("Ann:columns", "field").state == "normal" and "?" in table.texts()
    table.type_keys("3", "add", "1", "add", "4", "save")  # Ann's 3 1 4; Ben lights up next
    table.type_keys("1", "2", "add", "erase", "2", "add", "5", "save")  # 12, taken back: Ben's 2 5
    assert table.actions == [{"type": "columns", "player": "Ann", "columns": [3, 1, 4]},
                             {"type": "columns", "player": "Ben", "columns": [2, 5]}]
    assert table.rules.score_document(table.state)["winner"] == "Ben"


def test_a_column_the_game_cannot_have_is_refused_on_the_pad(tables: list[PadTable]) -> None:
    table = PadTable("guild_columns", ColumnsPad, ["Ann", "Ben"])
    tables.append(table)
    table.type_keys("0", "add")  # a column has at least one card
    assert "Only 1 to 18 can be entered here." in table.texts()
    table.type_keys("1", "9", "add")  # past 18 the keypad starts a new number: 9
    for _column in range(5):
        table.type_keys("1", "8", "add")
    table.type_keys("save")
    table.type_keys("1", "8", "save")  # 99 + 18 cards: more than the deck, refused by the rules
    assert len(table.actions) == 1 and "only 108" in table.refusals[0]
    assert table.widget("Ben:columns", "field").role == "selected"  # still Ben's turn to fix it


def test_shadows_gang_and_establishments_and_the_full_gang_reminder(tables: list[PadTable]) -> None:
    table = PadTable("shadows", ShadowsPad, ["Ann", "Ben"])
    tables.append(table)
    for _member in range(7):
        table.type_keys("2", "add")
    table.type_keys("save")
    assert any("seven members" in text for text in table.texts())
    table.type_keys("1", "0", "save")  # Ann's one establishment, worth 10
    table.type_keys("save")  # Ben's gang: nobody
    table.type_keys("9", "add", "9", "save")
    assert table.actions[-1] == {"type": "establishments", "player": "Ben", "values": [9, 9]}
    assert table.rules.score_document(table.state)["winner"] == "Ann"  # 24 to 18


def test_a_voyage_is_recorded_once_coins_and_goods_are_in(tables: list[PadTable]) -> None:
    table = PadTable("voyage", VoyagePad, ["Ann", "Ben"])
    tables.append(table)
    table.type_keys("1", "4", "save")
    assert table.actions == []  # coins alone wait on the pad
    table.type_keys("3", "save")
    assert table.actions == [{"type": "voyage", "player": "Ann", "round": 1, "coins": 14, "goods_left": 3}]
    table.type_keys("9", "save", "0", "save")  # Ann's second voyage
    table.type_keys("2", "0", "save", "0", "save", "4", "save", "2", "save")  # Ben's two voyages
    assert [a["round"] for a in table.actions] == [1, 2, 1, 2]
    assert table.rules.score_document(table.state)["winner"] is None  # 26 each


def test_marco_polo_round_dice_show_sum_and_compensation(tables: list[PadTable]) -> None:
    header = {"format": "marcopolo2-score/1",
              "players": [{"name": "Ann", "colour": "red", "rolls": []},
                          {"name": "Ben", "colour": "blue", "rolls": []}]}
    table = PadTable("marcopolo2", MarcoPolo2Pad, header=header)
    tables.append(table)
    for pips in (3, 1, 2, 6, 6):
        table.tap("pips", pips)
    table.tap("die", "Ann", 4)  # a die tapped in by mistake is picked, then taken out again
    table.tap("take_out")
    assert "sum 12, owed 3" in table.texts()
    table.tap("confirm", "Ann")
    assert table.actions == [{"type": "round_dice", "player": "Ann", "round": 1, "dice": [3, 1, 2, 6]}]
    for pips in (6, 6, 5):
        table.tap("pips", pips)
    assert "sum 17, none owed" in table.texts()
    table.tap("confirm", "Ben")
    assert table.pad.round == 2 and table.pad.lit == "Ann"


def test_marco_polo_end_scoring_pad_after_five_rounds(tables: list[PadTable]) -> None:
    _found, document = read_document((SHEETS / "marcopolo2" / "two_players.json").read_text(encoding="utf-8"))
    rolls = [a for a in document.actions if a["type"] == "round_dice"]
    table = PadTable("marcopolo2", MarcoPolo2Pad, header=document.header)
    tables.append(table)
    for action in rolls:
        table.act(action)
    assert table.pad.end_pad is not None and table.pad.end_pad.lit == ("Ann", "vp_track")
    ann, ben = (next(a for a in document.actions if a["type"] == "end" and a["player"] == p) for p in ("Ann", "Ben"))
    table.act(ann)
    table.tap("Ben:vp_track", "field")
    for key in ("vp_track", "guild_seals_vp", "shields_vp", "goods", "coins", "contracts", "camels"):
        table.type_keys(*str(ben[key]), "save")  # each save lights Ben's next value
    assert table.actions[-1] == {"type": "end", "player": "Ben", "camels": 2}
    assert table.rules.score_document(table.state)["winner"] == "Ann"


def test_a_columns_game_from_new_game_to_the_ring_on_the_final_score(ui: UiHarness) -> None:
    """The whole way through the app's own screens: which game, who plays, the pad, the result."""
    ui.app.go("new_game")
    ui.idle()
    ui.tap(ui.tagged("game", "guild_columns"))
    fields = ui.find(TextField)
    for field, name in zip(fields, ("Ann", "Ben", "Cy")):
        field.text = name
    ui.tap(ui.tagged("start", ""))
    assert ui.app.manager.current == "game"
    for keys in (("2", "add", "4", "add", "4", "add", "1", "save"), ("3", "add", "1", "save"),
                 ("5", "add", "2", "add", "2", "save")):
        for key in keys:
            ui.tap(ui.tagged("key", key))
    assert ui.app.manager.current == "score"
    assert "Ann wins." in ui.labels()
    assert len(ui.find(RingView)) == 1
    assert ui.app.session.score().winner == "Ann"  # the worked example three_players: 8, 3 and 7


def test_a_name_the_rules_refuse_is_shown_on_the_set_up_screen(ui: UiHarness) -> None:
    ui.app.go("marcopolo2_setup")
    ui.idle()
    fields = ui.find(TextField)
    fields[0].text, fields[1].text = "Ann", "ann"
    ui.tap(ui.tagged("start", ""))
    assert ui.app.manager.current == "marcopolo2_setup"
    assert any("Player 2" in text and "already" in text for text in ui.labels())
    fields = ui.find(TextField)
    fields[1].text = "Ben"
    ui.tap(ui.tagged("colour", 1))  # blue -> green
    ui.tap(ui.tagged("start", ""))
    assert ui.app.manager.current == "game"
    assert [p["colour"] for p in ui.app.session.state["players"]] == ["red", "green"]
