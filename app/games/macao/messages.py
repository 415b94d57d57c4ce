"""Player-facing messages that the UI can translate.

The rules speak English by default; each message keeps its template (the
gettext msgid) and its parameters apart, so a translated UI can render the
same message in another language without the rules knowing about languages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

Translate = Callable[[str], str]


def _identity(text: str) -> str:
    return text


def cube_phrase(cubes: Mapping[str, int], translate: Translate = _identity) -> str:
    """'2 red and 1 blue' (or 'no cubes') for a colour -> count mapping."""
    parts = [f"{n} {translate(colour)}" for colour, n in cubes.items() if n > 0]
    if not parts:
        return translate("no cubes")
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " " + translate("and") + " " + parts[-1]


@dataclass(frozen=True)
class Message:
    """A sentence for players: an English str.format template and its values.

    Parameters whose name ends in `_cubes` hold colour -> count mappings and are
    spelled out as cube phrases when rendered.
    """

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    def render(self, translate: Translate = _identity) -> str:
        values: dict[str, object] = {}
        for key, value in self.params.items():
            if key.endswith("_cubes") and isinstance(value, Mapping):
                values[key] = cube_phrase(value, translate)
            else:
                values[key] = value
        return translate(self.template).format(**values)

    def __str__(self) -> str:
        return self.render()
