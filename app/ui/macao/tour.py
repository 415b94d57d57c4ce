"""Macao's part of the screenshot tour: a seeded demo game from set-up to the final score.

The game comes from the rules core's seeded random table; each action goes
through the app exactly as a tap would (WindroseApp.act), so the screens show
real states.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from app.games.macao.simulate import RandomTable

SEED = 11


class MacaoTour:
    """Plays the seeded demo game through the app, taking the tour's pictures on the way."""

    def __init__(self, tour: Any) -> None:
        self.tour = tour
        self.app = tour.app
        self.table = RandomTable(SEED, players=2, activity=0.85)

    def play_until(self, stop: Callable[[Any], bool]) -> Iterator[None]:
        """Feed the seeded table's actions to the app until `stop(state)`."""
        session = self.app.session
        while not stop(session.state):
            self.table.step()
            if not self.app.act(self.table.actions[-1]):
                raise RuntimeError(f"the app refused the demo's action: {self.app.notice.text}")
        self.app.go("game")
        yield

    def steps(self) -> Iterator[None]:
        from app.ui.i18n import translator

        app = self.app
        app.go("macao_setup")
        screen = app.manager.get_screen("macao_setup")
        screen.seated = list(self.table.wall)
        screen.names = {p["colour"]: p["name"] for p in self.table.players}
        yield
        screen.refresh()
        yield from self.tour.shot("new-game", all_sizes=True)
        app.session.new_game("macao", {"started": self.tour.started, "players": self.table.players,
                                       "wall": self.table.wall})
        app.go("game")
        panel = app.manager.get_screen("game").current_panel()
        panel.slots[0].cost[:] = ["red", "red", "blue"]
        panel.slots[0].gold = 1
        panel.slots[0].tribute_tapped = True
        panel.slots[0].name = "Harbour Master"
        panel.selected = 1
        app.refresh()
        yield from self.tour.shot("setup-cards")
        yield from self.play_until(lambda s: s.phase == "setup_pick")
        yield from self.tour.shot("setup-pick")
        yield from self.play_until(lambda s: s.phase == "setup_cubes")
        game = app.manager.get_screen("game")
        game.current_panel().one = "green"
        app.refresh()
        yield from self.tour.shot("setup-cubes")
        yield from self.play_until(lambda s: s.phase == "reveal")
        app.context.catalogue.learn(c for c in self.table.record().actions[0]["cards"])
        panel = game.current_panel()
        for slot, colours in zip(panel.slots, (["black"], ["gray", "gray"], ["violet", "red"])):
            slot.cost[:] = colours
            slot.gold, slot.prestige = 1, 1
            slot.tribute_tapped = True
        panel.selected = 3
        app.refresh()
        yield from self.tour.shot("cards-reveal", all_sizes=True)
        yield from self.play_until(lambda s: s.phase == "take_card")
        yield from self.tour.shot("cards-draft", all_sizes=True)
        yield from self.play_until(lambda s: s.phase == "roll")
        yield from self.tour.shot("dice-manual")
        self._propose_dice(game.current_panel())
        app.refresh()
        yield from self.tour.shot("dice-proposal", all_sizes=True)
        yield from self.play_until(lambda s: s.phase == "choose_dice")
        game.current_panel().first = "blue"
        app.refresh()
        yield from self.tour.shot("dice-choose", all_sizes=True)
        yield from self.play_until(lambda s: s.phase == "actions")
        yield from self.tour.shot("actions", all_sizes=True)
        panel = game.current_panel()
        options = app.session.options(app.session.state.turn)
        blocked = next((o.reason for o in (options.quarter, options.wall, options.buy_prestige, options.joker)
                        if not o.ok and o.reason is not None), None)
        if blocked is not None:
            app.say(translator.message(blocked), "error")
            app.refresh()
            yield from self.tour.shot("actions-not-allowed")
            app.say("")
        if options.wall.ok:
            panel.open("wall")
            supply = app.session.state.player(app.session.state.turn).supply
            panel.pay = [c for c, n in supply.items() for _ in range(n)][:1]
            app.refresh()
            yield from self.tour.shot("actions-wall")
            panel.close()
        sheet_of = app.session.state.turn_order()[-1]
        game.players_view.open_sheet(sheet_of)
        yield from self.tour.shot_of("player-sheet", game.players_view.sheet)
        game.players_view.sheet.dismiss(animation=False)
        app.go("history")
        yield from self.tour.shot("history", all_sizes=True)
        app.go("game")
        yield from self.play_until(lambda s: s.round == 2 and s.phase == "reveal")
        if game.summary is None:
            raise RuntimeError("round 1 ended without its summary")
        yield from self.tour.shot_of("round-summary", game.summary)  # shown as round 1's last action was made
        game.summary.dismiss(animation=False)
        yield from self.play_until(lambda s: s.round == 8 and s.phase == "choose_dice")
        yield from self.tour.shot("dice-round-8")
        yield from self.play_until(lambda s: s.round == 8 and s.phase == "actions")
        if self.tour.language == "en":  # one German page in an English tour
            translator.set_language("de")
            yield
            yield from self.tour.shot("actions-german", all_sizes=True)
            translator.set_language("en")
            yield
        yield from self.play_until(lambda s: s.phase == "final")
        yield from self.tour.shot("final-entry")
        yield from self.play_until(lambda s: s.phase == "over")
        app.go("score")
        yield from self.tour.shot("score", all_sizes=True)

    def _propose_dice(self, panel: Any) -> None:
        """Show what a camera proposal looks like: five dice read, the gray one unsure."""
        from app.dice_service import DiceStatus, RollState
        from vision.types import DiceReading, DieReading, UnsureReason

        values = {"red": 3, "blue": 5, "green": 1, "black": 6, "gray": 2, "violet": 4}
        dice = tuple(
            DieReading(40 * i, 40, 30, 30, colour, value, 0.4 if colour == "gray" else 0.95, colour == "gray",
                       UnsureReason.GLARE if colour == "gray" else None)
            for i, (colour, value) in enumerate(values.items())
        )
        panel.take_proposal(DiceStatus(RollState.PROPOSED, "Some dice are unclear: correct them, then confirm",
                                       {}, DiceReading(dice)))


def card_list_tour(section: Any, tour: Any) -> Iterator[None]:
    """The card list in Settings: just exported, then the file list to import from."""
    section.on_export()
    yield from tour.shot("settings-card-list-exported")
    section.on_choose_import()
    yield from tour.shot("settings-card-list-import")
