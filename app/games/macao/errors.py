"""The two ways a game can be refused: a broken rule, or a malformed document."""

from __future__ import annotations

from .messages import Message


class RulesError(Exception):
    """An action breaks a rule; the state it was tried on is unchanged."""

    def __init__(
        self,
        message: Message,
        *,
        action_type: str | None = None,
        player: str | None = None,
        player_name: str | None = None,
        action_index: int | None = None,
    ) -> None:
        self.message = message
        self.action_type = action_type
        self.player = player
        self.player_name = player_name
        self.action_index = action_index
        super().__init__(self._describe())

    def at_index(self, index: int) -> "RulesError":
        """The same error, now naming the action's position in a record."""
        return RulesError(
            self.message,
            action_type=self.action_type,
            player=self.player,
            player_name=self.player_name,
            action_index=index,
        )

    def _describe(self) -> str:
        where = []
        if self.action_index is not None:
            where.append(f"action {self.action_index}")
        what = []
        if self.action_type:
            what.append(self.action_type)
        if self.player:
            what.append(f"{self.player_name}/{self.player}" if self.player_name else self.player)
        head = " ".join(where)
        if what:
            head = f"{head} ({', '.join(what)})" if head else f"({', '.join(what)})"
        return f"{head}: {self.message}" if head else str(self.message)

    def __str__(self) -> str:
        return self._describe()


class RecordError(ValueError):
    """A game record (or an action) does not have the documented shape.

    The text starts with where the problem is, e.g. ``actions[4].dice.red``.
    """

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}" if where else problem)
