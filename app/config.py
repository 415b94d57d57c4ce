"""Windrose settings: the defaults in config.toml, one optional override file, one schema.

The top-level config.toml holds every default. One user file may override
any of its keys; it is the first of: the path given with `--config`,
`$WINDROSE_CONFIG`, `~/.config/windrose/config.toml`, `/etc/windrose/config.toml`.
Both files are checked against the schema below, so a typo, a wrong type or
a value out of range stops start-up with a `ConfigError` that names the file,
the key, what was expected and what was found.

Each part of the app declares its keys here. The [ui] table belongs to the UI:
add its keys to `UI_KEYS` (and a commented default to config.toml's [ui]).
[vision] and [vision.settle] are derived from the reader's own parameter
dataclasses, so they never drift from what the reader accepts; each of their
numbers may range from 0 to DERIVED_CEILING times its default (a generous
ceiling that still refuses an absurd value). Every float must be finite.
Path keys have `~` expanded here, once for every caller, and may not point
into /proc or /sys. A file saved with a byte-order mark is read as UTF-8.
"""

from __future__ import annotations

import dataclasses
import difflib
import logging
import math
import os
import tomllib
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.logs import LEVELS
from vision.learned_params import LearnedParams
from vision.params import VisionParams
from vision.settle_params import SettleParams

log = logging.getLogger(__name__)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULTS_PATH = REPO_ROOT / "config.toml"
ENV_VARIABLE = "WINDROSE_CONFIG"
SYSTEM_CONFIG_PATH = Path("/etc/windrose/config.toml")
DERIVED_CEILING = 20  # a derived number may be up to this many times its default
KERNEL_FOLDERS = ("/proc", "/sys")  # what the kernel shows as files: never a place for our data


class ConfigError(Exception):
    """A settings file that cannot be used; the message says where and why."""


@dataclass(frozen=True)
class Setting:
    """What one key accepts: a TOML type and, optionally, a range or a list of choices."""

    kind: type
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    path: bool = False  # a file or folder: `~` expanded, /proc and /sys refused
    derived: bool = False  # from a parameter dataclass: its ceiling follows the shipped default

    def bounded(self, default: Any) -> Setting:
        """A derived number's setting with its ceiling: DERIVED_CEILING times the shipped default,
        and at least 1 (a fraction) or 100 (a count or pixels)."""
        if not self.derived or self.kind not in (int, float) or not isinstance(default, int | float):
            return self
        ceiling = max(float(default) * DERIVED_CEILING, 1.0 if self.kind is float else 100)
        return dataclasses.replace(self, maximum=self.kind(ceiling))

    def expected(self) -> str:
        """The accepted values in words, for error messages."""
        if self.choices:
            return "one of " + ", ".join(f'"{choice}"' for choice in self.choices)
        if self.path:
            return "a string naming a path outside " + " and ".join(KERNEL_FOLDERS)
        noun = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}[self.kind]
        if self.minimum is not None and self.maximum is not None:
            return f"{noun} from {_number(self.minimum)} to {_number(self.maximum)}"
        if self.minimum is not None:
            return f"{noun} of at least {_number(self.minimum)}"
        if self.maximum is not None:
            return f"{noun} of at most {_number(self.maximum)}"
        return noun

    def accepts(self, value: Any) -> bool:
        """True when `value` (as tomllib parsed it) is of the right type and in range."""
        if self.kind is bool:
            return isinstance(value, bool)
        if isinstance(value, bool):
            return False
        if self.kind is float:
            if not isinstance(value, int | float) or not math.isfinite(value):
                return False
        elif not isinstance(value, self.kind):
            return False
        if self.choices:
            return value in self.choices
        if self.path:
            return not _in_kernel_folder(value)
        if self.minimum is not None and value < self.minimum:
            return False
        if self.maximum is not None and value > self.maximum:
            return False
        return True


def _in_kernel_folder(text: str) -> bool:
    if not text:
        return False
    resolved = os.path.realpath(os.path.expanduser(text))
    return any(resolved == folder or resolved.startswith(folder + "/") for folder in KERNEL_FOLDERS)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _seconds(low: float, high: float) -> Setting:
    return Setting(float, low, high)


CAMERA_SOURCES = ("auto", "picamera2", "opencv", "folder", "none")

CAMERA_KEYS: dict[str, Setting] = {
    "source": Setting(str, choices=CAMERA_SOURCES),
    "device": Setting(str, path=True),
    "folder": Setting(str, path=True),
    "loop": Setting(bool),
    "width": Setting(int, 64, 4608),
    "height": Setting(int, 64, 3456),
    "motion_width": Setting(int, 32, 1280),
    "motion_height": Setting(int, 24, 960),
    "frame_rate": Setting(float, 1, 60),
    "exposure_settle_frames": Setting(int, 0, 300),
    "focus_dioptres": Setting(float, 0, 15),
    "tick_interval_s": _seconds(0.01, 1.0),
    "motion_timeout_s": _seconds(0.0, 60.0),
    "read_timeout_s": _seconds(0.2, 60.0),
    "retry_initial_s": _seconds(0.1, 60.0),
    "retry_max_s": _seconds(0.1, 600.0),
}

BUTTON_KEYS: dict[str, Setting] = {
    "enabled": Setting(bool),
    "pin": Setting(int, 0, 27),
    "pull_up": Setting(bool),
    "hold_time_s": _seconds(0.3, 10.0),
    "debounce_s": _seconds(0.0, 0.5),
    "gpio_chip": Setting(int, -1, 15),
}

LED_KEYS: dict[str, Setting] = {
    "enabled": Setting(bool),
    "pin": Setting(int, 0, 27),
    "active_high": Setting(bool),
    "blink_period_s": _seconds(0.1, 5.0),
}

JOURNAL_KEYS: dict[str, Setting] = {
    "db_path": Setting(str, path=True),
}

LOG_KEYS: dict[str, Setting] = {
    "level": Setting(str, choices=LEVELS),
}

# The UI's own keys: the UI adds them here, each with a default in config.toml [ui].
UI_KEYS: dict[str, Setting] = {
    "language": Setting(str, choices=("en", "de")),
    "text_scale": Setting(float, 0.5, 2.0),
    "window_width": Setting(int, 320, 7680),
    "window_height": Setting(int, 240, 4320),
    "fullscreen": Setting(bool),
    "camera_view": Setting(bool),
    "exports_dir": Setting(str, path=True),
}


def settings_from_dataclass(params_class: type) -> dict[str, Setting]:
    """One Setting per field of a flat parameter dataclass (int/float/bool/str).

    Numbers must not be negative (the reader's own check says the same, and
    saying it here lets the message name the file) nor above DERIVED_CEILING
    times their default; a `..._path` string is a path.
    """
    hints = typing.get_type_hints(params_class)
    settings: dict[str, Setting] = {}
    for field in dataclasses.fields(params_class):
        kind = hints[field.name]
        if kind not in (int, float, bool, str):
            raise TypeError(f"{params_class.__name__}.{field.name}: unsupported type {kind!r}")
        if kind in (int, float):
            settings[field.name] = Setting(kind, minimum=0, derived=True)
        else:
            settings[field.name] = Setting(kind, path=kind is str and field.name.endswith("_path"))
    return settings


SCHEMA: dict[str, dict[str, Setting]] = {
    "journal": JOURNAL_KEYS,
    "log": LOG_KEYS,
    "ui": UI_KEYS,
    "camera": CAMERA_KEYS,
    "button": BUTTON_KEYS,
    "led": LED_KEYS,
    "vision": settings_from_dataclass(VisionParams),
    "vision.settle": settings_from_dataclass(SettleParams),
    "vision.learned": settings_from_dataclass(LearnedParams),
}


@dataclass(frozen=True)
class Config:
    """The merged, checked settings. `config["camera"]["width"]`; sub-tables by dotted name."""

    tables: Mapping[str, Mapping[str, Any]]
    files: tuple[Path, ...]

    def __getitem__(self, table: str) -> Mapping[str, Any]:
        return self.tables[table]


def find_override_file(cli_path: str | os.PathLike[str] | None = None,
                       env: Mapping[str, str] | None = None,
                       home: Path | None = None,
                       system_path: Path = SYSTEM_CONFIG_PATH) -> Path | None:
    """The one user file to apply, by the documented order; None when there is none.

    A file named explicitly (--config or the environment) must exist; the two
    well-known places are simply skipped when absent.
    """
    env = os.environ if env is None else env
    if cli_path:
        return _must_exist(Path(cli_path), "the --config option")
    if env.get(ENV_VARIABLE):
        return _must_exist(Path(env[ENV_VARIABLE]), f"${ENV_VARIABLE}")
    home = Path(env.get("HOME") or Path.home()) if home is None else home
    for candidate in (home / ".config" / "windrose" / "config.toml", system_path):
        if candidate.is_file():
            return candidate
    return None


def _must_exist(path: Path, named_by: str) -> Path:
    if not path.is_file():
        raise ConfigError(f"{path}: no such settings file (named by {named_by})")
    return path


def load_config(cli_path: str | os.PathLike[str] | None = None,
                env: Mapping[str, str] | None = None,
                home: Path | None = None,
                defaults_path: Path = DEFAULTS_PATH,
                system_path: Path = SYSTEM_CONFIG_PATH) -> Config:
    """Read the defaults and the override file, check both, and merge them."""
    defaults = read_toml(defaults_path)
    check_tables(defaults, defaults_path, complete=True, defaults=defaults)
    override_path = find_override_file(cli_path, env, home, system_path)
    if override_path is None:
        return _checked_config(defaults, (defaults_path,))
    overrides = _without_retired_keys(read_toml(override_path), override_path)
    check_tables(overrides, override_path, complete=False, defaults=defaults)
    merged = _merge(defaults, overrides)
    return _checked_config(merged, (defaults_path, override_path))


# Keys an override file written for an older Windrose may hold: said in the log and left out,
# so that the table's settings still start the app. (table, key) -> what took its place.
RETIRED_KEYS: dict[tuple[str, str], str] = {
    ("vision.settle", "min_vote_frames"): "still_frames (the still frames are averaged, not voted on)",
    ("vision.settle", "vote_agreement"): "nothing (the still frames are averaged, not voted on)",
    ("vision.settle", "match_distance"): "nothing (the still frames are averaged, not voted on)",
}


def _without_retired_keys(overrides: dict[str, Any], path: Path) -> dict[str, Any]:
    """`overrides` without the RETIRED_KEYS, each one found said in the log."""
    for (table, key), successor in RETIRED_KEYS.items():
        holder = _lookup(overrides, table)
        if isinstance(holder, dict) and key in holder:
            del holder[key]
            log.warning("%s: [%s] %s is no longer used and was left out; in its place: %s", path, table, key, successor)
    return overrides


def _checked_config(data: Mapping[str, Any], files: tuple[Path, ...]) -> Config:
    """Let the reader's own parameter classes check ranges and cross-key rules too."""
    config = Config(tables=_flatten(data), files=files)
    try:
        VisionParams.from_table(dict(config["vision"]))
        SettleParams.from_table(config["vision.settle"])
        LearnedParams.from_table(dict(config["vision.learned"]))
    except ValueError as exc:
        raise ConfigError(f"{files[-1]}: {exc}") from exc
    return config


MAX_SETTINGS_BYTES = 1024 * 1024  # the shipped file is some 30 kB


def read_toml(path: Path) -> dict[str, Any]:
    """Parse one TOML file (a UTF-8 byte-order mark allowed); any failure becomes a ConfigError naming the file."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_SETTINGS_BYTES + 1)
        if len(data) > MAX_SETTINGS_BYTES:
            raise ConfigError(f"{path}: more than {MAX_SETTINGS_BYTES // 1024} kB, not a settings file")
        return tomllib.loads(data.decode("utf-8-sig"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: the file is not UTF-8 text ({exc.reason})") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror or exc}") from exc


def check_tables(data: Mapping[str, Any], path: Path, complete: bool,
                 defaults: Mapping[str, Any] | None = None) -> None:
    """Raise ConfigError for the first unknown table or key, wrong type or bad value.

    With `complete`, every key of the schema must be present (the defaults file).
    `defaults` (the shipped file) sets the ceilings of the derived numbers.
    """
    top_level = sorted(name for name in SCHEMA if "." not in name)
    for name, value in data.items():
        if name not in SCHEMA:
            raise ConfigError(f"{path}: unknown table [{name}]{_suggest(name, top_level)}; "
                              f"known tables: {', '.join(top_level)}")
        _check_table(name, value, path, defaults or {})
    if complete:
        for name, settings in SCHEMA.items():
            table = _lookup(data, name)
            missing = [key for key in settings if table is None or key not in table]
            if missing:
                raise ConfigError(f"{path}: [{name}] has no default for {', '.join(missing)}; "
                                  "every key needs a commented default in this file")


def _check_table(name: str, table: Any, path: Path, defaults: Mapping[str, Any]) -> None:
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [{name}] should be a table of keys, found {_describe(table)}")
    settings = SCHEMA[name]
    sub_tables = [other.rsplit(".", 1)[1] for other in SCHEMA if other.startswith(name + ".")]
    for key, value in table.items():
        if key in sub_tables:
            _check_table(f"{name}.{key}", value, path, defaults)
        elif key in settings:
            setting = settings[key].bounded((_lookup(defaults, name) or {}).get(key))
            if not setting.accepts(value):
                raise ConfigError(f"{path}: [{name}] {key}: expected {setting.expected()}, "
                                  f"found {_describe(value)}")
        else:
            valid = sorted([*settings, *sub_tables])
            listing = ", ".join(valid) if valid else "(none yet)"
            raise ConfigError(f"{path}: [{name}] unknown key '{key}'{_suggest(key, valid)}; "
                              f"valid keys: {listing}")


def _suggest(word: str, valid: list[str]) -> str:
    close = difflib.get_close_matches(word, valid, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'the string "{value}"'
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, int | float):
        return repr(value)
    return f"a {type(value).__name__} ({value})"


def _lookup(data: Mapping[str, Any], dotted: str) -> Mapping[str, Any] | None:
    node: Any = data
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node if isinstance(node, Mapping) else None


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _flatten(data: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """One flat mapping per schema table, keyed by dotted name; floats given as ints become floats."""
    tables: dict[str, Mapping[str, Any]] = {}
    for name, settings in SCHEMA.items():
        table = _lookup(data, name) or {}
        tables[name] = {key: _value(table[key], setting) for key, setting in settings.items() if key in table}
    return tables


def _value(value: Any, setting: Setting) -> Any:
    """A float given as an int becomes a float; a path gets `~` expanded (the same for every caller)."""
    if setting.kind is float:
        return float(value)
    if setting.path and value:
        return os.path.expanduser(value)
    return value
