"""Entering revealed cards: the set-up cards, or each round's two offices and four cards.

A card is entered by what is printed on it: cost cubes (tap colours), the gold
and prestige numbers, the kind, and optionally a name; or in one tap from the
learned catalogue. The tribute rate is asked from the rules core as soon as
every card has a cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from app.games.macao import CUBE_COLOURS, RecordError, RulesError, apply_action
from app.games.macao.model import DOUBLE_JOKERS, NO_TABLEAU_PENALTY
from app.ui import theme
from app.ui.i18n import _, translator
from app.ui.panels.base import PhasePanel
from app.ui.panels.card_tile import tribute_label
from app.ui.widgets import BigButton, CubeRow, Panel, TextLabel, Tile, cube_button, segmented

MAX_COST = 4
TRIBUTE_VALUES = (0, 1, 2)


@dataclass
class CardDraft:
    """One card as typed so far."""

    kind: str
    cost: list[str] = field(default_factory=list)
    gold: int = 0
    prestige: int = 0
    name: str = ""
    effects: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return bool(self.cost)

    def to_card(self, fallback_name: str) -> dict[str, Any]:
        card: dict[str, Any] = {
            "name": self.name.strip() or fallback_name,
            "kind": self.kind,
            "cost": list(self.cost),
            "tribute": [self.gold, self.prestige],
        }
        if self.effects:
            card["effects"] = list(self.effects)
        return card


class CardEntryPanel(PhasePanel):
    """The form for `setup_draw` (players + 2 cards) and `reveal` (2 offices + 4 cards)."""

    shows_players = False

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        state = self.state
        self.setup = state.phase == "setup_draw"
        if self.setup:
            self.slots = [CardDraft("building") for _ in range(len(state.players) + 2)]
        else:
            self.slots = [CardDraft("office"), CardDraft("office")] + [CardDraft("building") for _ in range(4)]
        self.selected = 0

    # -- the action ------------------------------------------------------------
    def action(self) -> dict[str, Any]:
        round_number = self.state.round
        cards = [slot.to_card(f"{slot.kind.title()} {round_number}.{i + 1}") for i, slot in enumerate(self.slots)]
        if self.setup:
            return {"type": "setup_draw", "cards": cards}
        return {"type": "reveal", "office": cards[:2], "cards": cards[2:]}

    def tribute_preview(self) -> tuple[int, int] | None:
        """The round's tribute as the rules core works it out from the cards so far."""
        if self.setup or not all(slot.complete for slot in self.slots):
            return None
        try:
            return apply_action(self.state, self.action()).tribute
        except (RulesError, RecordError):
            return None

    def confirm(self) -> None:
        action = self.action()
        named = [slot.to_card("") for slot in self.slots if slot.name.strip()]
        if self.app.act(action):
            catalogue = self.app.context.catalogue
            if catalogue.learn(named):
                catalogue.save()

    # -- editing -----------------------------------------------------------------
    def select(self, index: int) -> None:
        self.selected = index
        self.redraw()

    def add_cube(self, colour: str) -> None:
        slot = self.slots[self.selected]
        if len(slot.cost) < MAX_COST:
            slot.cost.append(colour)
        self.redraw()

    def clear_cost(self) -> None:
        self.slots[self.selected].cost.clear()
        self.redraw()

    def set_value(self, attribute: str, value: Any) -> None:
        setattr(self.slots[self.selected], attribute, value)
        self.redraw()

    def toggle_effect(self, tag: str) -> None:
        """The two card effects the rules know: Abbot (no tableau penalty), Jester (double jokers)."""
        effects = self.slots[self.selected].effects
        if tag in effects:
            effects.remove(tag)
        else:
            effects.append(tag)
        self.redraw()

    def pick_known(self, card: dict[str, Any]) -> None:
        """Fill the selected slot from the catalogue and move on to the next empty slot."""
        slot = self.slots[self.selected]
        slot.kind = card["kind"]
        slot.cost = list(card["cost"])
        slot.gold, slot.prestige = card["tribute"]
        slot.name = card["name"]
        slot.effects = list(card.get("effects", []))
        empty = [i for i, s in enumerate(self.slots) if not s.complete]
        if empty:
            later = [i for i in empty if i > self.selected]
            self.selected = later[0] if later else empty[0]
        self.redraw()

    # -- widgets -----------------------------------------------------------------
    def build(self, expect: Any) -> Widget:
        root = BoxLayout(orientation="vertical", padding=theme.GAP, spacing=theme.GAP)
        root.add_widget(self._slot_row())
        portrait = self.screen.portrait()
        middle = BoxLayout(orientation="vertical" if portrait else "horizontal", spacing=theme.GAP)
        middle.add_widget(self._editor())
        middle.add_widget(self._known_cards())
        root.add_widget(middle)
        root.add_widget(self._footer())
        return root

    def _slot_title(self, index: int) -> str:
        if self.setup:
            return _("Card {n}").format(n=index + 1)
        if index < 2:
            return _("Office {n}").format(n=index + 1)
        return _("Card {n}").format(n=index - 1)

    def _slot_row(self) -> Widget:
        columns = len(self.slots)
        portrait = self.screen.portrait()
        rows = 2 if portrait and columns > 3 else 1
        grid = GridLayout(cols=(columns + rows - 1) // rows, spacing=theme.GAP, size_hint_y=None,
                          height=104 * rows)
        for i, slot in enumerate(self.slots):
            lit = i == self.selected
            key = (slot.kind, tuple(slot.cost), slot.gold, slot.prestige, slot.name, tuple(slot.effects), lit)
            grid.add_widget(self.memo(f"slot{i}", key, lambda i=i, slot=slot, lit=lit: self._slot_tile(i, slot, lit)))
        return grid

    def _slot_tile(self, i: int, slot: CardDraft, lit: bool) -> Widget:
        tile = Tile(on_tap=lambda: self.select(i), tag=("slot", i), orientation="vertical", padding=4,
                    bg=list(theme.ACCENT if lit else theme.PANEL_LIGHT))
        tile.add_widget(TextLabel(self._slot_title(i), size=theme.FONT_SMALL, bold=True, size_hint_y=None, height=22))
        tile.add_widget(TextLabel(slot.name or translator.gettext(slot.kind), size=theme.FONT_SMALL,
                                  size_hint_y=None, height=22, color=theme.TEXT if slot.name else theme.TEXT_DIM))
        tile.add_widget(CubeRow(slot.cost, cube_size=24))
        tile.add_widget(tribute_label(slot.gold, slot.prestige))
        return tile

    def _editor(self) -> Widget:
        slot = self.slots[self.selected]
        box = Panel(orientation="vertical", padding=theme.GAP, spacing=theme.GAP)
        box.add_widget(self.memo("palette", (), self._palette))
        numbers = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
        numbers.add_widget(TextLabel(_("Gold"), size=theme.FONT_SMALL, size_hint_x=0.45, color=theme.WARN))
        numbers.add_widget(segmented(TRIBUTE_VALUES, slot.gold, lambda v: self.set_value("gold", v), group="gold"))
        numbers.add_widget(TextLabel(_("Prestige"), size=theme.FONT_SMALL, size_hint_x=0.55, color=theme.DANGER))
        numbers.add_widget(segmented(TRIBUTE_VALUES, slot.prestige, lambda v: self.set_value("prestige", v),
                                     group="prestige"))
        box.add_widget(numbers)
        details = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
        if slot.kind != "office":
            details.add_widget(segmented(("building", "person"), slot.kind, lambda v: self.set_value("kind", v),
                                         labels={"building": _("Building"), "person": _("Person")}, group="kind"))
        if slot.kind != "office":
            for tag, title in ((NO_TABLEAU_PENALTY, _("Abbot")), (DOUBLE_JOKERS, _("Jester"))):
                details.add_widget(BigButton(title, role="selected" if tag in slot.effects else "normal",
                                             size=theme.FONT_SMALL, size_hint_x=0.6, tag=("effect", tag),
                                             on_tap=lambda t=tag: self.toggle_effect(t)))
        box.add_widget(details)
        return box

    def _name_input(self) -> Widget:
        """The selected card's name (optional): named cards are remembered for later games."""
        slot = self.slots[self.selected]
        name = TextInput(text=slot.name, hint_text=_("Name (optional)"), multiline=False, size_hint_y=None,
                         height=theme.TOUCH_MIN, font_size=theme.font(theme.FONT_NORMAL), padding=(8, 12),
                         write_tab=False)
        name.bind(text=lambda _w, text: setattr(slot, "name", text))
        return name

    def _palette(self) -> Widget:
        palette = BoxLayout(spacing=3, size_hint_y=None, height=theme.BUTTON_HEIGHT)
        for colour in CUBE_COLOURS:
            palette.add_widget(cube_button(colour, lambda c=colour: self.add_cube(c), text="+"))
        palette.add_widget(BigButton(_("Clear"), on_tap=self.clear_cost, size_hint_x=1.6))
        return palette

    def _known_cards(self) -> Widget:
        slot = self.slots[self.selected]
        office = slot.kind == "office"
        box = BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=0.6)
        box.add_widget(self._name_input())
        box.add_widget(self.memo("known", (office, len(self.app.context.catalogue)), lambda: self._known_list(office)))
        return box

    def _known_list(self, office: bool) -> Widget:
        kinds = ("office",) if office else ("building", "person")
        known = self.app.context.catalogue.cards(kinds)
        box = Panel(orientation="vertical", padding=theme.GAP, spacing=theme.GAP)
        box.add_widget(TextLabel(_("Known cards: one tap fills the card"), size=theme.FONT_SMALL,
                                 color=theme.TEXT_DIM, size_hint_y=None, height=22))
        if not known:
            box.add_widget(TextLabel(_("None yet. Cards you name are remembered for the next game."),
                                     size=theme.FONT_SMALL, color=theme.TEXT_DIM))
            return box
        grid = GridLayout(cols=2, spacing=3, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        names = [card["name"] for card in known]
        for card in known:
            # A building and a person may share a name: then the kind tells them apart.
            label = card["name"] if names.count(card["name"]) == 1 else f"{card['name']} ({translator.gettext(card['kind'])})"
            grid.add_widget(BigButton(label, on_tap=lambda c=card: self.pick_known(c),
                                      tag=("known", card["kind"], card["name"]),
                                      size=theme.FONT_SMALL, height=theme.TOUCH_MIN))
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(grid)
        box.add_widget(scroll)
        return box

    def _footer(self) -> Widget:
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.BUTTON_HEIGHT)
        tribute = self.tribute_preview()
        if self.setup:
            text = _("The cards for the first pick")
        elif tribute is None:
            text = _("Tribute: shown once every card has its cost")
        else:
            text = _("Tribute: {gold} gold buys {prestige} prestige").format(gold=tribute[0], prestige=tribute[1])
        row.add_widget(TextLabel(text, size=theme.FONT_NORMAL, bold=tribute is not None))
        ready = all(slot.complete for slot in self.slots)
        row.add_widget(BigButton(_("Cards are right") if ready else _("Every card needs a cost"),
                                 role="ok", disabled=not ready, on_tap=self.confirm, size_hint_x=0.7))
        return row
