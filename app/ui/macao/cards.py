"""Entering revealed cards: the set-up cards, or each round's two offices and four cards.

By default a card is one tap: its tribute pair (gold and prestige), which moves
on to the next card; the tap that completes the last card sends them all. The
cost stays unknown (`cost: null`) until someone activates the card and names the
cubes paid. A table may still type a card's cost cubes (and its kind) before its
tribute, or pick it from the learned catalogue, which brings its cost; with the
"check costs" setting every card needs its cost, the cards are confirmed with a
tap, and the rules check each activation. The tribute rate is asked from the
rules core as soon as every card is complete.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from app.games.base import RecordError, RulesError
from app.games.macao import CUBE_COLOURS, apply_action
from app.games.macao.model import DOUBLE_JOKERS, NO_TABLEAU_PENALTY
from app.ui import theme
from app.ui.i18n import _, translator
from app.ui.panel import PhasePanel
from app.ui.macao.card_tile import GOLD_HEX, PRESTIGE_HEX, tribute_label
from app.ui.widgets import BigButton, CubeRow, Panel, TextField, TextLabel, Tile, cube_button, fit_stack, segmented

MAX_COST = 4
TRIBUTE_VALUES = (0, 1, 2)
TRIBUTE_PAIRS = tuple((gold, prestige) for gold in TRIBUTE_VALUES for prestige in TRIBUTE_VALUES)
# The pairs the base game's cards print (gold, prestige): the pad shows these; the other four,
# which a promo or home-made card may carry, are one "Other" tap away.
USUAL_TRIBUTES = ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2))
OTHER_TRIBUTES = tuple(pair for pair in TRIBUTE_PAIRS if pair not in USUAL_TRIBUTES)


@dataclass
class CardDraft:
    """One card as typed so far."""

    kind: str
    cost: list[str] = field(default_factory=list)
    gold: int = 0
    prestige: int = 0
    name: str = ""
    effects: list[str] = field(default_factory=list)
    tribute_tapped: bool = False  # the tribute is part of what is printed: 0 and 0 is tapped too
    from_catalogue: bool = False  # filled by a known card: an edit makes it a new, unnamed card
    needs_cost: bool = True  # the "check costs" setting: without it the cost may wait for the activation

    @property
    def complete(self) -> bool:
        return self.tribute_tapped and (bool(self.cost) or not self.needs_cost)

    def matches(self, card: dict[str, Any]) -> bool:
        """Whether a known card can be the one being typed: its cost holds every cube typed so far."""
        rest = list(card["cost"])
        for colour in self.cost:
            if colour not in rest:
                return False
            rest.remove(colour)
        return True

    def to_card(self, fallback_name: str) -> dict[str, Any]:
        card: dict[str, Any] = {
            "name": self.name.strip() or fallback_name,
            "kind": self.kind,
            "cost": list(self.cost) if self.cost else None,
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
        self.check_costs = bool(self.app.context.settings.check_costs)
        if self.setup:
            self.slots = [self._draft("building") for _ in range(len(state.players) + 2)]
        else:
            self.slots = [self._draft("office"), self._draft("office")] + [self._draft("building") for _ in range(4)]
        self.selected = 0
        self.other_tributes = False  # the tribute pad shows the four pairs no base-game card prints
        self._offer_undone_cards()
        self._settle_tribute_pad()

    def _draft(self, kind: str) -> CardDraft:
        return CardDraft(kind, needs_cost=self.check_costs)

    def _offer_undone_cards(self) -> None:
        """After Undo took these cards back, show them again to correct, instead of an empty form."""
        undone = self.app.session.next_redo
        if not undone or undone.get("type") != ("setup_draw" if self.setup else "reveal"):
            return
        cards = undone["cards"] if self.setup else list(undone["office"]) + list(undone["cards"])
        if len(cards) != len(self.slots):
            return
        for index, (slot, card) in enumerate(zip(self.slots, cards)):
            slot.kind = card["kind"]
            slot.cost = list(card["cost"] or [])
            slot.gold, slot.prestige = card["tribute"]
            slot.tribute_tapped = True
            slot.effects = list(card.get("effects", []))
            if card["name"] != self._fallback_name(index):  # a name the players gave or picked
                slot.name = card["name"]
                slot.from_catalogue = True

    # -- the action ------------------------------------------------------------
    def action(self) -> dict[str, Any]:
        cards = [slot.to_card(self._fallback_name(i)) for i, slot in enumerate(self.slots)]
        if self.setup:
            return {"type": "setup_draw", "cards": cards}
        return {"type": "reveal", "office": cards[:2], "cards": cards[2:]}

    def _fallback_name(self, index: int) -> str:
        """The name a card without one gets in the record: its kind, round and place."""
        return f"{self.slots[index].kind.title()} {self.state.round}.{index + 1}"

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
        named = [slot.to_card("") for slot in self.slots if slot.name.strip() and slot.cost]
        if self.app.act(action):
            catalogue = self.app.context.catalogue
            if catalogue.learn(named):
                catalogue.save()

    # -- editing -----------------------------------------------------------------
    def select(self, index: int) -> None:
        self.selected = index
        self._settle_tribute_pad()
        self.redraw()

    def toggle_other_tributes(self) -> None:
        self.other_tributes = not self.other_tributes
        self.redraw()

    def _settle_tribute_pad(self) -> None:
        """The pad shows the usual pairs, unless the selected card already has one of the others:
        then those, so its pair is seen lit."""
        slot = self.slots[self.selected]
        self.other_tributes = slot.tribute_tapped and (slot.gold, slot.prestige) in OTHER_TRIBUTES

    def _edited(self) -> CardDraft:
        """The selected slot, about to change by hand: a card filled from the catalogue
        forgets its name, so a changed card is never remembered under a known name."""
        slot = self.slots[self.selected]
        if slot.from_catalogue:
            slot.name = ""
            slot.from_catalogue = False
        return slot

    def add_cube(self, colour: str) -> None:
        slot = self.slots[self.selected]
        if slot.from_catalogue:  # typing over a known card starts the card afresh
            slot = self.slots[self.selected] = self._draft("office" if slot.kind == "office" else "building")
        if len(slot.cost) < MAX_COST:
            slot.cost.append(colour)
        self.redraw()

    def clear_cost(self) -> None:
        if self.slots[self.selected].cost:
            self._edited().cost.clear()
        self.redraw()

    def set_kind(self, kind: str) -> None:
        if self.slots[self.selected].kind != kind:
            self._edited().kind = kind
        self.redraw()

    def set_tribute(self, gold: int, prestige: int) -> None:
        """The card's tribute pair, which completes the card (with its cost, when costs are
        checked): on to the next; without the check, the tap that completes the last card sends them."""
        slot = self.slots[self.selected]
        if (slot.gold, slot.prestige) != (gold, prestige):
            slot = self._edited()
        slot.gold, slot.prestige = gold, prestige
        was_ready = all(s.complete for s in self.slots)
        slot.tribute_tapped = True
        if slot.complete:
            self._next_open_slot()
        self._after_fill(was_ready)

    def _after_fill(self, was_ready: bool) -> None:
        """Without the cost check, the tap that completes the last card sends the cards (Undo shows
        them again to correct); otherwise the form shows the card now selected."""
        if not self.check_costs and not was_ready and all(s.complete for s in self.slots):
            self.confirm()
            return
        self._settle_tribute_pad()
        self.redraw()

    def toggle_effect(self, tag: str) -> None:
        """The two card effects the rules know: Abbot (no tableau penalty), Jester (double jokers)."""
        effects = self._edited().effects
        if tag in effects:
            effects.remove(tag)
        else:
            effects.append(tag)
        self.redraw()

    def pick_known(self, card: dict[str, Any]) -> None:
        """Fill the selected slot from the catalogue and move on to the next open slot."""
        was_ready = all(s.complete for s in self.slots)
        slot = self.slots[self.selected]
        slot.kind = card["kind"]
        slot.cost = list(card["cost"])
        slot.gold, slot.prestige = card["tribute"]
        slot.tribute_tapped = True
        slot.name = card["name"]
        slot.effects = list(card.get("effects", []))
        slot.from_catalogue = True
        self._next_open_slot()
        self._after_fill(was_ready)

    def _next_open_slot(self) -> None:
        """Select the next slot still to fill (after this one first); stay when all are filled."""
        open_slots = [i for i, s in enumerate(self.slots) if not s.complete]
        if open_slots:
            later = [i for i in open_slots if i > self.selected]
            self.selected = later[0] if later else open_slots[0]

    # -- widgets -----------------------------------------------------------------
    def build(self, expect: Any) -> Widget:
        root = BoxLayout(orientation="vertical", padding=theme.GAP, spacing=theme.GAP)
        root.add_widget(self._slot_row())
        portrait = self.screen.portrait()
        middle = BoxLayout(orientation="vertical" if portrait else "horizontal", spacing=theme.GAP)
        # On a tall window the form's rows grow taller; in portrait the known cards take the
        # whole width below the form.
        middle.add_widget(self._editor(self.screen.roomy(), portrait))
        middle.add_widget(self._known_cards(portrait))
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
                          height=(120 if portrait else 104) * rows)
        for i, slot in enumerate(self.slots):
            lit = i == self.selected
            key = (slot.kind, tuple(slot.cost), slot.gold, slot.prestige, slot.tribute_tapped, slot.name,
                   tuple(slot.effects), lit)
            grid.add_widget(self.memo(f"slot{i}", key, partial(self._slot_tile, i, slot, lit)))
        return grid

    def _slot_tile(self, i: int, slot: CardDraft, lit: bool) -> Widget:
        tile = Tile(on_tap=lambda: self.select(i), tag=("slot", i), orientation="vertical", padding=4,
                    bg=list(theme.LIT if lit else theme.PANEL_LIGHT))
        tile.add_widget(TextLabel(self._slot_title(i), size=theme.FONT_SMALL, bold=True, size_hint_y=None, height=22))
        tile.add_widget(TextLabel(slot.name or translator.gettext(slot.kind), size=theme.FONT_SMALL,
                                  size_hint_y=None, height=22, color=theme.TEXT if slot.name else theme.TEXT_DIM))
        tile.add_widget(CubeRow(slot.cost, cube_size=24))
        if slot.tribute_tapped:
            tile.add_widget(tribute_label(slot.gold, slot.prestige))
        else:
            tile.add_widget(TextLabel(_("tribute?"), size=theme.FONT_SMALL, color=theme.TEXT_DIM,
                                      size_hint_y=None, height=22))
        return tile

    def _editor(self, roomy: bool, stacked: bool) -> Widget:
        """The selected card's form; `stacked` (portrait) when the known cards are below it."""
        slot = self.slots[self.selected]
        box = Panel(orientation="vertical", padding=theme.GAP, spacing=theme.GAP)
        box.add_widget(self.memo("palette", roomy, lambda: self._palette(roomy)))
        if self.other_tributes:
            hint = _("Pairs no base-game card prints (a promo card, say)")
        elif self.check_costs:
            hint = _("Tribute last ([color={g}]gold[/color] [color={p}]prestige[/color]): "
                     "it moves on to the next card").format(g=GOLD_HEX, p=PRESTIGE_HEX)
        else:
            hint = _("One tap a card: its tribute ([color={g}]gold[/color] [color={p}]prestige[/color]); "
                     "cost cubes optional").format(g=GOLD_HEX, p=PRESTIGE_HEX)
        box.add_widget(TextLabel(hint, size=theme.FONT_SMALL, markup=True, color=theme.TEXT_DIM, size_hint_y=None,
                                 height=20))
        lit = (slot.gold, slot.prestige) if slot.tribute_tapped else None
        box.add_widget(self.memo("tribute", (lit, self.other_tributes, roomy),
                                 lambda: self._tribute_row(lit, roomy)))
        details = BoxLayout(spacing=theme.GAP, **theme.touch_row(roomy, tallest=72))
        if slot.kind != "office":
            kind = segmented(("building", "person"), slot.kind, self.set_kind,
                             labels={"building": _("Building"), "person": _("Person")}, group="kind")
            for button in kind.children:
                button.size_hint_y = 1  # as tall as the row, which grows on a tall window
            details.add_widget(kind)
            # Abbot and Jester are said when the card is activated, unless its cost is typed now
            # (then the activation is one tap, with no form to say them on).
            if self.check_costs or slot.cost or slot.effects:
                for tag, title in ((NO_TABLEAU_PENALTY, _("Abbot")), (DOUBLE_JOKERS, _("Jester"))):
                    details.add_widget(BigButton(title, role="selected" if tag in slot.effects else "normal",
                                                 size=theme.FONT_SMALL, size_hint_x=0.6, size_hint_y=1,
                                                 tag=("effect", tag), on_tap=partial(self.toggle_effect, tag)))
        if slot.kind != "office" or not stacked:  # an office has no kind to pick: portrait gives its row away
            box.add_widget(details)
        if not stacked:
            box.add_widget(Widget())  # the rows stay together at the top
        return fit_stack(box) if stacked else box

    def tribute_pad(self) -> Widget:
        """The selected card's tribute pairs, for a view shown over the panel (the round's summary)."""
        return self._tribute_row(None, roomy=False)

    def _tribute_row(self, lit: tuple[int, int] | None, roomy: bool) -> Widget:
        """The tribute pairs the base game's cards print, gold then prestige in their printed
        colours: one tap each; "Other" swaps in the four pairs only a promo card may carry."""
        row = BoxLayout(spacing=3, **theme.touch_row(roomy))
        pairs = OTHER_TRIBUTES if self.other_tributes else USUAL_TRIBUTES
        for gold, prestige in pairs:
            text = f"[color={GOLD_HEX}]{gold}[/color] [color={PRESTIGE_HEX}]{prestige}[/color]"
            row.add_widget(BigButton(text, markup=True, role="selected" if lit == (gold, prestige) else "normal",
                                     size=theme.FONT_HUGE if roomy else theme.FONT_LARGE, size_hint_y=1,
                                     tag=("tribute", gold, prestige),
                                     on_tap=partial(self.set_tribute, gold, prestige)))
        row.add_widget(BigButton(_("Usual") if self.other_tributes else _("Other"), size=theme.FONT_SMALL,
                                 size_hint_x=0.8, size_hint_y=1, tag=("tribute", "more"),
                                 on_tap=self.toggle_other_tributes))
        return row

    def _name_input(self) -> Widget:
        """The selected card's name (optional): named cards are remembered for later games."""
        slot = self.slots[self.selected]
        name = TextField(text=slot.name, hint_text=_("Name (optional)"), multiline=False, size_hint_y=None,
                         height=theme.TOUCH_MIN, font_size=theme.font(theme.FONT_NORMAL), padding=(8, 12),
                         write_tab=False)
        name.bind(text=lambda _w, text: setattr(slot, "name", text))
        return name

    def _palette(self, roomy: bool) -> Widget:
        palette = BoxLayout(spacing=3, **theme.touch_row(roomy))
        for colour in CUBE_COLOURS:
            palette.add_widget(cube_button(colour, partial(self.add_cube, colour), text="+", size_hint_y=1))
        palette.add_widget(BigButton(_("Clear"), on_tap=self.clear_cost, size_hint_x=1.6, size_hint_y=1))
        return palette

    def _known_cards(self, portrait: bool) -> Widget:
        """The name field and the known cards; in portrait: full width, bigger buttons."""
        slot = self.slots[self.selected]
        office = slot.kind == "office"
        typed = () if slot.from_catalogue else tuple(slot.cost)
        box = BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=1 if portrait else 0.6)
        box.add_widget(self._name_input())
        box.add_widget(self.memo("known", (office, typed, len(self.app.context.catalogue), portrait),
                                 lambda: self._known_list(office, list(typed), portrait)))
        return box

    def _known_list(self, office: bool, typed: list[str], portrait: bool) -> Widget:
        """Known cards of the slot's kind that the cost typed so far can still be; exact costs first."""
        kinds = ("office",) if office else ("building", "person")
        probe = CardDraft("office" if office else "building", cost=typed)
        known = [card for card in self.app.context.catalogue.cards(kinds) if probe.matches(card)]
        laid_out = self._laid_out_this_game()
        # Exact costs first, then cards not yet laid out in this game; stable: the catalogue's order after.
        known.sort(key=lambda card: (len(card["cost"]) != len(typed), (card["kind"], card["name"]) in laid_out))
        box = Panel(orientation="vertical", padding=theme.GAP, spacing=theme.GAP)
        hint = (_("Known cards: one tap fills the card") if not typed
                else _("Known cards with these cubes: {n}").format(n=len(known)))
        box.add_widget(TextLabel(hint, size=theme.FONT_SMALL, color=theme.TEXT_DIM, size_hint_y=None, height=22))
        if not known:
            empty = (_("None yet. Cards you name are remembered for the next game.") if not typed
                     else _("None: a new card. Its name (optional) keeps it for next time."))
            box.add_widget(TextLabel(empty, size=theme.FONT_SMALL, color=theme.TEXT_DIM))
            return box
        grid = GridLayout(cols=3 if portrait else 2, spacing=3, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        names = [card["name"] for card in known]
        for card in known:
            # A building and a person may share a name: then the kind tells them apart.
            label = card["name"] if names.count(card["name"]) == 1 else f"{card['name']} ({translator.gettext(card['kind'])})"
            grid.add_widget(BigButton(label, on_tap=partial(self.pick_known, card),
                                      tag=("known", card["kind"], card["name"]),
                                      size=theme.FONT_NORMAL if portrait else theme.FONT_SMALL,
                                      height=theme.BUTTON_HEIGHT + 8 if portrait else theme.TOUCH_MIN))
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(grid)
        box.add_widget(scroll)
        return box

    def _laid_out_this_game(self) -> set[tuple[str, str]]:
        """(kind, name) of the cards this game's record has already laid out: they go last in the
        known list (nothing is hidden, in case a table has two of a card)."""
        return {(card["kind"], card["name"]) for action in self.app.session.actions
                if action["type"] in ("setup_draw", "reveal")
                for card in action.get("cards", []) + action.get("office", [])}

    def _footer(self) -> Widget:
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None,
                        height=theme.BUTTON_HEIGHT + (16 if self.screen.portrait() else 0))
        tribute = self.tribute_preview()
        if self.setup:
            text = _("The cards for the first pick")
        elif tribute is None:
            text = _("Tribute: shown once every card is complete")
        else:
            text = _("Tribute: {gold} gold buys {prestige} prestige").format(gold=tribute[0], prestige=tribute[1])
        row.add_widget(TextLabel(text, size=theme.FONT_NORMAL, bold=tribute is not None))
        ready = all(slot.complete for slot in self.slots)
        missing = _("Every card needs cost and tribute") if self.check_costs else _("Every card needs its tribute")
        row.add_widget(BigButton(_("Cards are right") if ready else missing,
                                 role="ok", disabled=not ready, on_tap=self.confirm, size_hint_x=0.7, size_hint_y=1))
        return row
