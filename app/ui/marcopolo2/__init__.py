"""Marco Polo II's part of the touchscreen app: its set-up with player colours, each round's
dice with the compensation owed, the end-scoring pad. The shell reaches it through `UI`
(registered in app.ui.games)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from kivy.uix.widget import Widget

from app.ui.sheet_game import SheetGameUi


# Each round's dice of the tour's demo game (Ann, Ben, Cy).
DEMO_ROLLS = (
    ([3, 1, 2, 6, 2], [4, 4, 4, 4, 4], [2, 3, 4, 5, 6]),
    ([5, 5, 4, 1, 3], [1, 2, 3, 4, 5], [6, 6, 1, 1, 1]),
    ([1, 1, 2, 3, 2], [1, 1, 1, 1, 1], [4, 4, 4, 2, 1]),
    ([6, 6, 6, 6, 6], [3, 3, 3, 3, 3], [5, 5, 5, 5, 5]),
    ([2, 2, 2, 2, 2], [6, 5, 4, 3, 2], [1, 2, 1, 2, 1]),
)


# Round 3 of the demo as the camera sees it: Ann (red), Ben (blue) and Cy (green) with their five
# dice each, the black and white dice beside them. Drawn by tools.synth.render_dice_set(4040,
# DEMO_ROLLS[2] in red, blue, green + ("black", 5), ("white", 6), SceneOptions(die_px=44,
# table="grey_card", tint="neutral", dim=False, blur_sigma=0.8, tilt_deg=0.0, cards=0,
# colour_spread=0.0)), saved as JPEG at quality 80.
DEMO_ROLL = Path(__file__).resolve().parent / "demo_roll.jpg"


class MarcoPolo2Ui(SheetGameUi):
    game = "marcopolo2"
    setup_screen = "marcopolo2_setup"
    screens = {"marcopolo2_setup": "app.ui.marcopolo2.setup:MarcoPolo2SetupScreen"}
    demo = (("Ann", "Ben", "Cy"), (
        *({"type": "round_dice", "player": name, "round": number, "dice": dice}
          for number, rolls in enumerate(DEMO_ROLLS, start=1) for name, dice in zip(("Ann", "Ben", "Cy"), rolls)),
        {"type": "end", "player": "Ann", "vp_track": 61, "guild_seals_vp": 6, "shields_vp": 10, "goods": 5,
         "coins": 23, "contracts": 4, "camels": 3},
        {"type": "end", "player": "Ben", "vp_track": 70, "guild_seals_vp": 0, "shields_vp": 5, "goods": 1,
         "coins": 9, "contracts": 6, "camels": 0},
        {"type": "end", "player": "Cy", "vp_track": 58, "guild_seals_vp": 10, "shields_vp": 6, "goods": 7,
         "coins": 40, "contracts": 4, "camels": 5},
    ))

    def tour(self, tour: Any) -> Iterator[None]:
        """Also a round half rolled, with a die tapped in for the next player, in English and German."""
        from app.ui.i18n import translator

        names, actions = self.demo
        app = tour.app
        app.go(self.setup_screen)
        setup = app.manager.get_screen(self.setup_screen)
        setup.names[:len(names)] = list(names)
        setup.refresh()
        yield from tour.shot("marcopolo2-setup")
        setup.start()
        yield from self.tour_play(tour, actions[:6])  # two rounds
        yield from self.camera_round(tour)
        yield from self.tour_play(tour, actions[6:7])  # Ann's third by hand
        pad = app.manager.get_screen("game").current_panel().pad
        for pips in (2, 1, 1):
            pad.add_die(pips)
        yield from tour.shot("marcopolo2-round", all_sizes=True)
        if tour.language == "en":  # one German page in an English tour
            translator.set_language("de")
            yield
            yield from tour.shot("marcopolo2-round-german")
            translator.set_language("en")
        yield from self.tour_play(tour, actions[7:15])
        yield from tour.shot("marcopolo2-end-scoring")
        yield from self.tour_play(tour, actions[15:])
        app.go("score")
        yield from tour.shot("marcopolo2-score", all_sizes=True)

    @staticmethod
    def camera_round(tour: Any) -> Iterator[None]:
        """Round 3 read by the camera: the drawn DEMO_ROLL through a folder camera and the real
        reader, every player's dice proposed at once (in English, then German); then dropped, as
        a table would cancel it and tap the dice in instead."""
        from app.dice_service import RollState
        from app.ui.i18n import translator

        seconds = [0.0]  # the station's clock, moved by the tour
        link = tour.folder_station(DEMO_ROLL, clock=lambda: seconds[0])
        app = tour.app
        app.context.dice = link
        app.refresh()  # the game screen tells the station the table's dice
        yield
        pad = app.manager.get_screen("game").current_panel().pad
        try:
            service = link.station.service
            service.tick(0.0)  # opens the camera
            pad.link_dice(link)
            service.roll()
            for _step in range(80):
                seconds[0] += 0.2
                service.tick(seconds[0])
                if service.state not in (RollState.WAITING_FOR_MOTION, RollState.WAITING_FOR_STILL,
                                         RollState.READING):
                    break
            for _frame in range(5):  # the station's news reaches the link through the UI clock
                yield
            if service.state is not RollState.PROPOSED or link.status is not service.status:
                raise RuntimeError(f"the demo roll was not proposed: {service.status.message}")
            pad.on_status(link.status)
            yield from tour.shot("marcopolo2-camera-round", all_sizes=True)
            if tour.language == "en":
                translator.set_language("de")
                yield
                yield from tour.shot("marcopolo2-camera-round-german")
                translator.set_language("en")
            link.cancel()
            pad.on_status(link.station.service.status)
        finally:
            pad.link_dice(None)
            app.context.dice = None
            link.close()

    def make_pad(self, state: Any, act: Callable[[dict[str, Any]], bool], portrait: bool) -> Widget:
        from app.ui.marcopolo2.pad import MarcoPolo2Pad

        return MarcoPolo2Pad(state, act, portrait)


UI = MarcoPolo2Ui()
