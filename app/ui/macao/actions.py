"""The actions phase: the acting player's supply, the standard actions in fixed cells, the
tableau's cards to activate, End of turn.

Every cell's state, cost and "why not" come from the rules core's legal_options;
a greyed cell still answers a tap with the reason. Actions that need details
(quarter cost, spaces, cubes to pay, good, joker) open a small form with Cancel;
payments go through the paying tray (app/ui/macao/paying.py); nothing here
decides whether an action is allowed.

A form sends its action by itself on the tap that completes it (the last cube
of a payment the rules core accepts, the quarter's tile after its cost, the
port's prestige, the joker's pick); Confirm, or "Confirm, end turn", stays for
the other orders, and Undo takes any of them back. A payment that can be made
only one way (the core accepts the whole supply, or only one count of a
one-colour supply) is filled in for the player to see and confirm.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from app.games.base import RecordError, RulesError, cube_phrase
from app.games.macao import CUBE_COLOURS, GOODS, apply_action
from app.games.macao.model import DOUBLE_JOKERS, NO_TABLEAU_PENALTY
from app.ui import theme
from app.ui.i18n import _, ngettext, translator
from app.ui.macao.card_tile import card_title
from app.ui.macao.paying import left_in_supply, paying_tray
from app.ui.panel import PhasePanel
from app.ui.pads import number_pad
from app.ui.widgets import (
    BigButton,
    CubeRow,
    CubeWidget,
    Panel,
    TextLabel,
    Tile,
    blocked_button,
    cube_button,
    segmented,
)

MAX_EFFECT_AMOUNT = 20
EFFECT_PAD_WIDTH = 7
TRAY_FORMS = ("quarter", "wall", "ship", "activate")  # the forms paid from the supply through the tray  # beside its label, seven buttons stay over 48 px wide


def _cubes(counts: dict[str, int]) -> str:
    return cube_phrase(counts, translator.gettext)


class ActionsPanel(PhasePanel):
    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        self.form: str | None = None  # quarter | wall | ship | deliver | joker | effect | activate
        self.reset_form()

    def reset_form(self) -> None:
        self.cost: list[str] = []
        self.pay: list[str] = []
        self.spaces = 1
        self.tile: str | None = None
        self.good: str | None = None
        self.value = 0
        self.take: list[str] = []
        self.effect_card: str | None = None
        self.gain_gold = 0
        self.gain_prestige = 0
        self.pay_gold = 0
        self.card: int | None = None  # the tableau card of unknown cost being activated
        self.effects: list[str] = []  # Abbot or Jester, said at activation for a card revealed without them

    def _activate(self, who: str, card: Any) -> None:
        """A card of known cost is paid at once; one of unknown cost asks for the cubes paid."""
        if card.cost_known:
            self.send({"type": "activate", "player": who, "card": card.index})
        else:
            self.open_card(card.index)

    def open_card(self, index: int) -> None:
        """Activating a card whose cost was not typed: the cubes paid name its cost."""
        self.open("activate", card=index)

    def open(self, form: str, card: int | None = None) -> None:
        self.reset_form()
        self.form = form
        self.card = card
        if form in ("wall", "ship"):
            self._fill_only_payment()
        if form == "deliver":
            goods = set(self.app.session.options(self.state.turn).deliver)
            self.good = goods.pop() if len(goods) == 1 else None  # nothing to choose between
        self.app.say("")
        self.redraw()

    def close(self) -> None:
        self.form = None
        self.redraw()

    def blocked(self, reason: str) -> None:
        self.app.say(reason, "error")
        self.redraw()

    def send(self, action: dict[str, Any]) -> None:
        if self.app.act(action):
            self.form = None

    def accepted(self, action: dict[str, Any]) -> bool:
        """Whether the rules core would take the action as it stands (asked, not worked out here)."""
        try:
            apply_action(self.state, action)
        except (RulesError, RecordError):
            return False
        return True

    def _payment(self) -> dict[str, Any]:
        assert self.form in ("wall", "ship")
        return {"type": self.form, "player": self.state.turn, "spaces": self.spaces, "pay": list(self.pay)}

    def _fill_only_payment(self) -> None:
        """Fill in the payment when the supply allows only one: the core takes the whole supply
        and no smaller part of it, or exactly one count of a one-colour supply."""
        who = self.state.turn
        supply = [c for c, n in self.state.player(who).supply.items() for _ in range(n)]
        self.pay = []
        if len(set(supply)) == 1:
            fits = [k for k in range(1, len(supply) + 1) if self.accepted({**self._payment(), "pay": supply[:k]})]
            if len(fits) == 1:
                self.pay = supply[:fits[0]]
            return
        if not self.accepted({**self._payment(), "pay": supply}):
            return
        for colour in set(supply):
            smaller = list(supply)
            smaller.remove(colour)
            if self.accepted({**self._payment(), "pay": smaller}):
                return
        self.pay = supply

    # -- widgets ---------------------------------------------------------------------------
    def build(self, expect: Any) -> Widget:
        who = expect.player
        player = self.state.player(who)
        options = self.app.session.options(who)
        root = BoxLayout(orientation="vertical", spacing=theme.GAP)
        roomy = self.screen.roomy()
        if self.form not in TRAY_FORMS:  # a form with the paying tray shows the supply in it
            supply = BoxLayout(size_hint_y=None, height=56 if roomy else 44, spacing=theme.GAP)
            supply.add_widget(TextLabel(_("Supply"), size=theme.FONT_SMALL, size_hint_x=None, width=80))
            supply.add_widget(CubeRow(player.supply, cube_size=52 if roomy else 40, height=supply.height))
            money = ngettext("{gold} gold, {jokers} joker", "{gold} gold, {jokers} jokers", player.jokers)
            supply.add_widget(TextLabel(money.format(gold=player.gold, jokers=player.jokers),
                                        size=theme.FONT_SMALL, size_hint_x=0.6))
            root.add_widget(supply)
        body = {
            None: self._action_buttons, "quarter": self._quarter_form, "wall": self._wall_form,
            "ship": self._ship_form, "deliver": self._deliver_form, "joker": self._joker_form,
            "effect": self._effect_form, "activate": self._activate_form,
        }[self.form](who, player, options)
        root.add_widget(body)
        return root

    def _button(self, text: str, allowed: Any, on_tap: Any, **kwargs: Any) -> BigButton:
        if allowed.ok:
            return BigButton(text, on_tap=on_tap, **kwargs)
        reason = translator.message(allowed.reason) if allowed.reason is not None else _("Not now.")
        return blocked_button(text, reason, self.blocked, **kwargs)

    def _action_buttons(self, who: str, player: Any, options: Any) -> Widget:
        """The standard actions in cells that never move (the same six in the same places for every
        player and turn, greyed with the rules core's reason when not allowed), the tableau's cards
        to activate under them, End of turn at the bottom. Everything stays on screen at once: three
        columns, two wide ones on a tall portrait window; on a tall window the cells grow."""
        roomy = self.screen.roomy()
        columns = 2 if self.screen.tall_portrait() else 3
        # Four rows of cells and End of turn fit 800x480 with four players at the least touch height.
        look: dict[str, Any] = {"size": theme.FONT_SMALL, "height": theme.TOUCH_MIN}
        if roomy:
            # The larger text only where a column is wide: three columns on a 480x800 panel
            # wrapped a long action name onto three lines, past the buttons' edges.
            wide = self.screen.tall_portrait() or not self.screen.portrait()
            look = {"size": theme.FONT_NORMAL if wide else theme.FONT_SMALL,
                    **theme.touch_row(True, theme.BUTTON_HEIGHT, tallest=120)}
        standard = GridLayout(cols=columns, spacing=theme.GAP)
        prestige = options.buy_prestige
        for text, allowed, on_tap, kind in (
            (_("City quarter"), options.quarter, lambda: self.open("quarter"), "take_quarter"),
            (_("Wall: 1, 3, 5... cubes"), options.wall, lambda: self.open("wall"), "wall"),
            (_("Ship: 1 cube a space"), options.ship, lambda: self.open("ship"), "ship"),
            (_("Deliver a good"), options.deliver_allowed, lambda: self.open("deliver"), "deliver"),
            (_("Prestige: {price} gold for {gain}").format(price=prestige.price, gain=prestige.gain), prestige,
             lambda: self.send({"type": "buy_prestige", "player": who}), "buy_prestige"),
            (_("Use a joker"), options.joker, lambda: self.open("joker"), "joker"),
        ):
            standard.add_widget(self._button(text, allowed, on_tap, **look, tag=("action", kind)))
        cards = GridLayout(cols=columns, spacing=theme.GAP)
        for card in options.activate:
            cards.add_widget(self._card_cell(who, card, roomy))
        if options.card_effects:
            usable = next((e for e in options.card_effects if e.ok), options.card_effects[0])
            cards.add_widget(self._button(_("Card effect"), usable, lambda: self.open("effect"), **look,
                                          tag=("action", "card_effect")))
        box = BoxLayout(orientation="vertical", spacing=theme.GAP)
        for grid in (standard, cards):
            rows = -(-len(grid.children) // columns)
            if roomy:  # the grid's rows at their least before End of turn grows (Kivy does not add them up)
                grid.size_hint_min_y = rows * theme.BUTTON_HEIGHT + (rows - 1) * theme.GAP
            else:
                grid.size_hint_y = None
                grid.height = rows * theme.TOUCH_MIN + max(0, rows - 1) * theme.GAP
            box.add_widget(grid)
        if not roomy:
            box.add_widget(Widget())  # End of turn stays at the bottom, whatever the cards above it
        box.add_widget(self._button(_("End of turn"), options.end_turn,
                                    lambda: self.send({"type": "end_turn", "player": who}),
                                    role="ok", size=theme.FONT_LARGE, tag=("action", "end_turn"),
                                    **theme.touch_row(roomy, theme.BUTTON_HEIGHT, tallest=96)))
        return box

    def _card_cell(self, who: str, card: Any, roomy: bool) -> Widget:
        """A tableau card to activate: its name (else the round it came from) over its cost as cube
        swatches, or a "?" swatch while the cost is unknown (the cubes paid will name it)."""
        reason = None if card.ok else (translator.message(card.reason) if card.reason is not None else _("Not now."))
        on_tap = (lambda: self._activate(who, card)) if reason is None else (lambda: self.blocked(reason))
        cell = Tile(on_tap=on_tap, tag=("activate", card.index), orientation="vertical", padding=(6, 2), spacing=0,
                    bg=list(theme.PANEL_LIGHT if reason is None else theme.DISABLED),
                    **({"size_hint_y": 1, "size_hint_min_y": theme.BUTTON_HEIGHT, "size_hint_max_y": 120} if roomy
                       else {"size_hint_y": None, "height": theme.TOUCH_MIN}))
        if reason is not None:
            cell.blocked_reason = reason
        colour = theme.TEXT if reason is None else theme.TEXT_DIM
        cell.add_widget(TextLabel(card_title(card.name), size=theme.FONT_SMALL, bold=True, color=colour,
                                  halign="center"))
        # The swatches alone, centred: a word beside four of them was drawn under 16 px in German.
        swatches = BoxLayout(spacing=3, size_hint_y=None, height=22)
        swatches.add_widget(Widget())
        if card.cost_known:
            for cube in (c for c, n in card.cost.items() for _ in range(n)):
                swatches.add_widget(CubeWidget(cube, size_hint=(None, None), size=(20, 20)))
        else:
            swatches.add_widget(TextLabel("?", size=theme.FONT_SMALL, bold=True, color=colour, size_hint_x=None,
                                          width=20, halign="center"))
        swatches.add_widget(Widget())
        cell.add_widget(swatches)
        return cell

    # -- forms -------------------------------------------------------------------------------
    def _form(self, title: str | Widget, parts: list[Widget], ready: bool, on_confirm: Any,
              compact: bool = False) -> Widget:
        """Title (or a widget in its place), the parts, Cancel and Confirm; `compact` packs a tall form.
        A portrait panel too low for keys in more rows (480x800) packs every form: its quarter form
        asked 1 px more than it had, and Kivy then pushed the title up over the prompt."""
        compact = compact or self._packed()
        gap = 3 if compact else theme.GAP
        box = Panel(orientation="vertical", spacing=gap, padding=theme.GAP)
        if isinstance(title, Widget):
            box.add_widget(title)
        else:
            box.add_widget(TextLabel(title, size=theme.FONT_NORMAL, bold=True, size_hint_y=None, height=30))
        for part in parts:
            box.add_widget(part)
        roomy = self.screen.roomy()
        box.add_widget(Widget(size_hint_y=0.3 if roomy else 1))  # in portrait the parts' keys take most of it
        buttons = ({"size_hint_y": None, "height": theme.TOUCH_MIN} if compact
                   else theme.touch_row(roomy, theme.BUTTON_HEIGHT, tallest=80))
        row = BoxLayout(spacing=theme.GAP, **buttons)
        row.add_widget(BigButton(_("Cancel"), on_tap=self.close, size_hint_y=1))
        row.add_widget(BigButton(_("Confirm"), role="ok", disabled=not ready, on_tap=on_confirm, tag=("confirm", True),
                                 size_hint_y=1))
        row.add_widget(BigButton(_("Confirm, end turn"), role="ok", disabled=not ready, size=theme.FONT_SMALL,
                                 on_tap=lambda: self._confirm_and_end(on_confirm), tag=("confirm", "end_turn"),
                                 size_hint_y=1))
        box.add_widget(row)
        return box

    def _confirm_and_end(self, on_confirm: Any) -> None:
        """The form's action and then End of turn, in one tap for the form that ends a turn."""
        who = self.state.turn
        on_confirm()
        if self.form is None:  # the rules took the form's action
            self.send({"type": "end_turn", "player": who})

    def _palette(self, on_pick: Any, chosen: list[str]) -> Widget:
        """Six cube buttons, each showing how many of its colour are chosen so far, and Clear."""
        row = BoxLayout(spacing=3, **theme.touch_row(self.screen.roomy()))
        for colour in CUBE_COLOURS:
            picked = chosen.count(colour)
            row.add_widget(cube_button(colour, partial(on_pick, colour), text=str(picked) if picked else "+",
                                       size_hint_y=1))
        row.add_widget(BigButton(_("Clear"), on_tap=lambda: on_pick(None), size_hint_x=1.5, size_hint_y=1))
        return row

    def _tray(self, player: Any, paying: list[str], on_take: Any) -> list[Widget]:
        """The supply and the paying tray for `paying` (the payment, or a quarter's cost)."""
        def put_back(index: int) -> None:
            paying.pop(index)
            self.redraw()
        return paying_tray(player.supply, paying, on_take, put_back, self.screen.roomy() and not self._packed())

    def _packed(self) -> bool:
        """A portrait panel too low for the forms' keys to grow or their captions (480x800)."""
        return self.screen.portrait() and not self.screen.tall_portrait()

    def _pick_gain(self, colour: str | None) -> None:
        if colour is None:
            self.cost.clear()
        elif len(self.cost) < MAX_EFFECT_AMOUNT:
            self.cost.append(colour)
        self.redraw()

    def _pick_cost(self, colour: str) -> None:
        """A cube of the quarter's printed cost, moved from the supply into the tray (no cap: the
        rules bound a quarter's cost by nothing but the supply that pays it)."""
        self.cost.append(colour)
        self.redraw()

    def _pick_pay(self, colour: str) -> None:
        """A cube paid; the cube that makes the payment one the core accepts sends the action."""
        self.pay.append(colour)
        action = self._payment()
        if self.accepted(action):
            self.send(action)
            return
        self.redraw()

    def _activate_form(self, who: str, player: Any, options: Any) -> Widget:
        """The cubes paid for a card of unknown cost, tapped from the supply: they become its cost.
        A card whose reveal gave no effects may be said here to be an Abbot or a Jester."""
        card = next(c for c in options.activate if c.index == self.card)
        action: dict[str, Any] = {"type": "activate", "player": who, "card": card.index, "pay": list(self.pay)}
        if self.effects:
            action["effects"] = list(self.effects)
        hint = translator.message(card.hint) if card.hint is not None else _("Tap the cubes you pay")
        parts = list(self._tray(player, self.pay, self._add_pay))
        if card.effects_open:  # above the tray: the cube that completes a payment sends it
            parts.insert(0, self._effect_toggles())
        # The hint names the card and stands in the title's place: with the tray and the toggles,
        # a title of its own pushed the form past its top with four players at 800x480.
        title = TextLabel(hint, size=theme.FONT_SMALL, size_hint_y=None, height=44)
        return self._form(title, parts, bool(self.pay) and self.accepted(action), lambda: self.send(action),
                          compact=card.effects_open)

    def _effect_toggles(self) -> Widget:
        row = BoxLayout(spacing=3, **theme.touch_row(self.screen.roomy() and not self._packed()))
        for tag, title in ((NO_TABLEAU_PENALTY, _("Abbot: no punish for cards left")),
                           (DOUBLE_JOKERS, _("Jester: jokers count double"))):
            row.add_widget(BigButton(title, role="selected" if tag in self.effects else "normal", size=theme.FONT_SMALL,
                                     size_hint_y=1, tag=("activation_effect", tag),
                                     on_tap=partial(self._toggle_effect, tag)))
        return row

    def _toggle_effect(self, tag: str) -> None:
        if tag in self.effects:
            self.effects.remove(tag)
        else:
            self.effects.append(tag)
        self.redraw()

    def _add_pay(self, colour: str) -> None:
        """A cube paid for a card of unknown cost. One cube fewer may be a cost too, so Confirm
        sends it; but a payment the supply or the card lets grow no further (four cubes, an
        office's colour run out, the supply empty) is complete, and goes at once."""
        self.pay.append(colour)
        action: dict[str, Any] = {"type": "activate", "player": self.state.turn, "card": self.card,
                                  "pay": list(self.pay)}
        if self.effects:
            action["effects"] = list(self.effects)
        left = left_in_supply(self.state.player(self.state.turn).supply, self.pay)
        if self.accepted(action) and not any(self.accepted({**action, "pay": [*self.pay, more]})
                                             for more, count in left.items() if count > 0):
            self.send(action)
            return
        self.redraw()

    def _set(self, attribute: str, value: Any) -> None:
        setattr(self, attribute, value)
        self.redraw()

    def _quarter_form(self, who: str, player: Any, options: Any) -> Widget:
        state = self.state
        tiles = [g for g in GOODS] + ["joker"]
        left = {g: state.tiles_left.get(g, 0) for g in GOODS} | {"joker": state.jokers_left}
        roomy = self.screen.roomy()
        tile_grid = GridLayout(cols=5, spacing=3,
                               **theme.touch_row(roomy, 2 * theme.TOUCH_MIN + 3, 2 * theme.TOUCH_ROOMY + 3))
        for tile in tiles:
            tile_grid.add_widget(BigButton(
                f"{translator.gettext(tile)} ({left[tile]})", role="selected" if tile == self.tile else "normal",
                disabled=left[tile] == 0, size=theme.FONT_SMALL, size_hint_y=1, tag=("tile", tile),
                on_tap=partial(self._pick_tile, who, tile)))
        parts = [*self._tray(player, self.cost, self._pick_cost), tile_grid]
        action = {"type": "take_quarter", "player": who, "cost": list(self.cost), "tile": self.tile}
        return self._form(_("City quarter: the cubes printed on it, then its tile"), parts,
                          bool(self.cost) and self.tile is not None,
                          lambda: self.send(action))

    def _pick_tile(self, who: str, tile: str) -> None:
        """The quarter's tile; tapped after its cost cubes, it sends the quarter at once."""
        self.tile = tile
        action = {"type": "take_quarter", "player": who, "cost": list(self.cost), "tile": tile}
        if self.cost and self.accepted(action):
            self.send(action)
            return
        self.redraw()

    def _spaces_and_pay(self, who: str, player: Any, kind: str, limit: int, cubes_for: Any, title: str) -> Widget:
        """Spaces and the cubes to pay. `cubes_for(spaces)` is the rules core's price when it
        offers one (the wall); otherwise the rules check the payment when it is confirmed."""
        need = cubes_for(self.spaces) if cubes_for is not None else None
        if need == 1:
            hint = _("Pay 1 cube: tap its colour ({chosen} chosen)").format(chosen=len(self.pay))
        elif need is not None:
            hint = _("Pay {n} cubes: tap the colours ({chosen} chosen)").format(n=need, chosen=len(self.pay))
        else:
            hint = _("Tap the cubes you pay ({chosen} chosen)").format(chosen=len(self.pay))
        parts = [
            TextLabel(_("Spaces"), size=theme.FONT_SMALL, size_hint_y=None, height=22),
            number_pad(self.spaces, self._set_spaces, low=1, high=max(1, limit), key="spaces",
                       roomy=self.screen.roomy()),
            TextLabel(hint, size=theme.FONT_SMALL, size_hint_y=None, height=22),
            *self._tray(player, self.pay, self._pick_pay),
        ]
        action = {"type": kind, "player": who, "spaces": self.spaces, "pay": list(self.pay)}
        ready = len(self.pay) == need if need is not None else bool(self.pay)
        return self._form(title, parts, ready, lambda: self.send(action))

    def _set_spaces(self, spaces: int) -> None:
        self.spaces = spaces
        self._fill_only_payment()
        self.redraw()

    def _wall_form(self, who: str, player: Any, options: Any) -> Widget:
        wall = options.wall
        return self._spaces_and_pay(who, player, "wall", wall.max_spaces, wall.cost, _("Move along the wall"))

    def _ship_form(self, who: str, player: Any, options: Any) -> Widget:
        return self._spaces_and_pay(who, player, "ship", options.ship.max_spaces, None, _("Sail the ship"))

    def _deliver_form(self, who: str, player: Any, options: Any) -> Widget:
        goods = sorted(set(options.deliver))
        parts = [
            segmented(goods, self.good, lambda g: self._set("good", g),
                      labels={g: translator.gettext(g) for g in goods}, group="good", size_hint_y=None,
                      height=theme.BUTTON_HEIGHT),
            TextLabel(_("Prestige printed on the port space:"), size=theme.FONT_SMALL, size_hint_y=None, height=22),
            self._value_grid(),
        ]
        action = {"type": "deliver", "player": who, "good": self.good, "prestige": self.value}
        return self._form(_("Deliver a good"), parts, self.good is not None, lambda: self.send(action))

    def _value_grid(self) -> Widget:
        """One tap for the printed value (0-19; a larger one can be added with a correction)."""
        roomy = self.screen.roomy()
        grid = GridLayout(cols=10, spacing=3,
                          **theme.touch_row(roomy, 2 * theme.TOUCH_MIN + 3, 2 * theme.TOUCH_ROOMY + 3))
        for value in range(20):
            grid.add_widget(BigButton(str(value), role="selected" if value == self.value else "normal",
                                      size_hint_y=1, tag=("value", value),
                                      on_tap=partial(self._pick_value, value)))
        return grid

    def _pick_value(self, value: int) -> None:
        """The port's printed prestige; with the good chosen it sends the delivery at once."""
        self.value = value
        if self.good is not None:
            self.send({"type": "deliver", "player": self.state.turn, "good": self.good, "prestige": value})
            return
        self.redraw()

    def _joker_form(self, who: str, player: Any, options: Any) -> Widget:
        double = options.joker.double
        row = BoxLayout(spacing=3, **theme.touch_row(self.screen.roomy(), theme.BUTTON_HEIGHT))
        for colour in CUBE_COLOURS:
            row.add_widget(cube_button(colour, partial(self._joker_pick, colour, double), size_hint_y=1))
        row.add_widget(BigButton(_("3 gold"), on_tap=lambda: self._joker_pick("gold", double), size_hint_x=1.5,
                                 size_hint_y=1, tag=("cube", "gold")))
        hint = _("Tap up to two: cubes or 3 gold each.") if double else _("Tap one: a cube or 3 gold.")
        chosen = ", ".join(translator.gettext(t) for t in self.take) or "-"
        parts = [
            TextLabel(hint, size=theme.FONT_SMALL, size_hint_y=None, height=22),
            row,
            TextLabel(_("Chosen: {what}").format(what=chosen), size=theme.FONT_NORMAL, size_hint_y=None, height=30),
        ]
        action = {"type": "joker", "player": who, "take": list(self.take)}
        return self._form(_("Use a joker"), parts, bool(self.take), lambda: self.send(action))

    def _joker_pick(self, what: str, double: bool) -> None:
        """One pick (two with the Jester) completes the joker: it is sent at once."""
        if len(self.take) >= 2 or not double:
            self.take = []
        self.take.append(what)
        if len(self.take) == (2 if double else 1):
            self.send({"type": "joker", "player": self.state.turn, "take": list(self.take)})
            return
        self.redraw()

    def _effect_form(self, who: str, player: Any, options: Any) -> Widget:
        names = [e.name for e in options.card_effects if e.ok]
        if self.effect_card not in names:
            self.effect_card = names[0] if names else None
        title: str | Widget = _("Use a card's effect")
        if len(names) > 1:  # the cards to choose from stand in the title's place
            title = segmented(names, self.effect_card, lambda n: self._set("effect_card", n), group="effect_card",
                              size_hint_y=None, height=theme.TOUCH_MIN)
        elif names:
            title = f"{title}: {names[0]}"
        parts = [
            self._labelled(_("Gain gold"), self._amount_pad("gain_gold")),
            self._labelled(_("Gain prestige"), self._amount_pad("gain_prestige")),
            self._labelled(_("Pay gold"), self._amount_pad("pay_gold")),
            self._labelled(_("Cubes gained:"), self._palette(self._pick_gain, chosen=self.cost)),
        ]
        gain: dict[str, Any] = {}
        if self.cost:
            gain["cubes"] = list(self.cost)
        if self.gain_gold:
            gain["gold"] = self.gain_gold
        if self.gain_prestige:
            gain["prestige"] = self.gain_prestige
        action: dict[str, Any] = {"type": "card_effect", "player": who, "card": self.effect_card}
        if gain:
            action["gain"] = gain
        if self.pay_gold:
            action["pay"] = {"gold": self.pay_gold}
        return self._form(title, parts, self.effect_card is not None, lambda: self.send(action), compact=True)

    def _amount_pad(self, attribute: str) -> Widget:
        return number_pad(getattr(self, attribute), lambda n: self._set(attribute, n), low=0,
                          high=MAX_EFFECT_AMOUNT, key=attribute, width=EFFECT_PAD_WIDTH)

    @staticmethod
    def _labelled(title: str, widget: Widget) -> Widget:
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.TOUCH_MIN)
        row.add_widget(TextLabel(title, size=theme.FONT_SMALL, size_hint_x=0.3))
        row.add_widget(widget)
        return row
