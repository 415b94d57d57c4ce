"""The settings loader: defaults, the override search, and a clear message for every bad value."""

from __future__ import annotations

import logging

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.config import DEFAULTS_PATH, SCHEMA, ConfigError, load_config

NO_HOME = Path("/nonexistent-home")


def load_with(tmp_path: Path, text: str | bytes, **kwargs: Any):
    path = tmp_path / "override.toml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return load_config(path, env={}, home=NO_HOME, system_path=tmp_path / "no-system.toml", **kwargs)


def error_for(tmp_path: Path, text: str | bytes) -> str:
    with pytest.raises(ConfigError) as caught:
        load_with(tmp_path, text)
    return str(caught.value)


def test_every_default_loads_and_matches_the_schema() -> None:
    config = load_config(env={}, home=NO_HOME, system_path=Path("/nonexistent/system.toml"))
    assert config.files == (DEFAULTS_PATH,)
    for table, keys in SCHEMA.items():
        assert set(config[table]) == set(keys), table
        for key, setting in keys.items():
            assert setting.accepts(config[table][key]), f"[{table}] {key}"


def test_every_default_key_is_explained_by_a_comment() -> None:
    lines = DEFAULTS_PATH.read_text().splitlines()
    for number, line in enumerate(lines):
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]* *=", line):
            continue
        above = number - 1
        while above >= 0 and lines[above].strip() and not lines[above].startswith("#"):
            above -= 1  # keys grouped under one comment share it
        assert above >= 0 and lines[above].startswith("#"), f"config.toml line {number + 1}: {line}"


def test_override_file_search_order(tmp_path: Path) -> None:
    def make(name: str, frame_rate: float) -> Path:
        path = tmp_path / name / "config.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"[camera]\nframe_rate = {frame_rate}\n")
        return path

    cli, env_file, system = make("cli", 11), make("env", 12), make("etc", 14)
    home = tmp_path / "home"
    make("home/.config/windrose", 13)
    env = {"WINDROSE_CONFIG": str(env_file)}

    def rate(**kwargs: Any) -> float:
        return load_config(system_path=system, **kwargs)["camera"]["frame_rate"]

    assert rate(cli_path=cli, env=env, home=home) == 11
    assert rate(env=env, home=home) == 12
    assert rate(env={}, home=home) == 13
    assert rate(env={}, home=tmp_path / "nobody") == 14
    assert load_config(env={}, home=NO_HOME, system_path=tmp_path / "none")["camera"]["frame_rate"] == 15


def test_a_named_file_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"missing\.toml: no such settings file \(named by the --config option\)"):
        load_config(tmp_path / "missing.toml", env={}, home=NO_HOME)
    with pytest.raises(ConfigError, match=r"named by \$WINDROSE_CONFIG"):
        load_config(env={"WINDROSE_CONFIG": str(tmp_path / "gone.toml")}, home=NO_HOME)


def test_overrides_merge_over_the_defaults(tmp_path: Path) -> None:
    config = load_with(tmp_path, '[camera]\nsource = "folder"\nframe_rate = 10\n[vision.settle]\nstill_time_s = 1\n')
    assert config["camera"]["source"] == "folder"
    assert config["camera"]["frame_rate"] == 10.0 and isinstance(config["camera"]["frame_rate"], float)
    assert config["camera"]["width"] == 2304  # untouched keys keep their defaults
    assert config["vision.settle"]["still_time_s"] == 1.0
    assert config["vision.settle"]["still_frames"] == 3
    assert config.files[-1] == tmp_path / "override.toml"


@pytest.mark.parametrize("text, message", [
    ('[camera]\nsorce = "auto"\n',
     "[camera] unknown key 'sorce' (did you mean 'source'?); valid keys: device, "),
    ("[camra]\nwidth = 100\n", "unknown table [camra] (did you mean 'camera'?); known tables: button, camera,"),
    ('[camera]\nwidth = "wide"\n', '[camera] width: expected an integer from 64 to 4608, found the string "wide"'),
    ("[camera]\nwidth = 100000\n", "[camera] width: expected an integer from 64 to 4608, found 100000"),
    ("[camera]\nwidth = 640.5\n", "[camera] width: expected an integer from 64 to 4608, found 640.5"),
    ("[button]\npin = true\n", "[button] pin: expected an integer from 0 to 27, found true"),
    ("[button]\npin = 40\n", "[button] pin: expected an integer from 0 to 27, found 40"),
    ("[button]\nhold_time_s = 0.1\n", "[button] hold_time_s: expected a number from 0.3 to 10, found 0.1"),
    ("[camera]\nframe_rate = nan\n", "[camera] frame_rate: expected a number from 1 to 60, found nan"),
    ('[camera]\nsource = "webcam"\n',
     '[camera] source: expected one of "auto", "picamera2", "opencv", "folder", "none", found the string "webcam"'),
    ("[led]\nenabled = 1\n", "[led] enabled: expected true or false, found 1"),
    ("[journal]\ndb_path = [1, 2]\n", "[journal] db_path: expected a string naming a path outside /proc and /sys, found an array"),
    ("camera = 3\n", "[camera] should be a table of keys, found 3"),
    ("[camera.lens]\nzoom = 2\n", "[camera] unknown key 'lens'"),
    ("[vision]\npip_contrastt = 3.0\n", "[vision] unknown key 'pip_contrastt' (did you mean 'pip_contrast'?)"),
    ("[vision]\nglare_level = -4\n", "[vision] glare_level: expected an integer from 0 to 5000, found -4"),
    ('[vision.settle]\nstill_time_s = "soon"\n',
     '[vision.settle] still_time_s: expected a number from 0 to 10, found the string "soon"'),
    ("[vision.settle]\nskin_cr_min = 200\n", "each skin_*_min must be below its skin_*_max"),
    ("[camera\nwidth = 3\n", "not valid TOML: Expected ']' at the end of a table declaration (at line 1"),
    (b"[camera]\ndevice = \"\xff\"\n", "not valid TOML: the file is not UTF-8 text"),
])
def test_each_kind_of_bad_value_names_file_key_expectation_and_finding(tmp_path: Path, text, message) -> None:
    found = error_for(tmp_path, text)
    assert found.startswith(f"{tmp_path / 'override.toml'}: ")
    assert message in found


def test_an_unreadable_file_is_a_clean_error(tmp_path: Path) -> None:
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(ConfigError, match="folder.toml: (cannot be read|no such settings file)"):
        load_config(folder, env={}, home=NO_HOME)


def test_defaults_missing_a_key_are_refused(tmp_path: Path) -> None:
    defaults = tmp_path / "defaults.toml"
    defaults.write_text(DEFAULTS_PATH.read_text().replace("hold_time_s = 1.5\n", ""))
    with pytest.raises(ConfigError, match=r"\[button\] has no default for hold_time_s"):
        load_config(env={}, home=NO_HOME, defaults_path=defaults, system_path=tmp_path / "none")


# ---------------------------------------------------------------- fuzzing the loader

KNOWN_TABLES = sorted(name for name in SCHEMA if "." not in name)
scalars = st.one_of(
    st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3), max_leaves=4)
key_names = st.one_of(
    st.sampled_from(sorted({key for keys in SCHEMA.values() for key in keys})),
    st.from_regex(r"[a-z_]{1,10}", fullmatch=True),
)
tables = st.dictionaries(key_names, values, max_size=5)
documents = st.dictionaries(st.one_of(st.sampled_from(KNOWN_TABLES), st.from_regex(r"[a-z]{1,8}", fullmatch=True)),
                            tables, max_size=4)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    return "[" + ", ".join(toml_value(item) for item in value) + "]"


def toml_document(document: dict[str, dict[str, Any]]) -> str:
    parts = []
    for table, keys in document.items():
        parts.append(f"[{table}]")
        parts.extend(f"{key} = {toml_value(value)}" for key, value in keys.items())
    return "\n".join(parts) + "\n"


def check_outcome(tmp_path: Path, text: str | bytes) -> None:
    try:
        config = load_with(tmp_path, text)
    except ConfigError as exc:
        assert str(exc).startswith(str(tmp_path / "override.toml"))
        return
    for table, keys in SCHEMA.items():
        for key, setting in keys.items():
            assert setting.accepts(config[table][key]), f"[{table}] {key} = {config[table][key]!r}"


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=documents)
def test_fuzzed_documents_load_cleanly_or_fail_cleanly(tmp_path: Path, document) -> None:
    check_outcome(tmp_path, toml_document(document))


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(
    st.binary(max_size=80),
    st.lists(st.sampled_from(["[camera]", "[vision.settle]", "width", "=", "\n", '"x"', "3", "1.5", "true", "[",
                              "]", "{", "}", ",", "#", "pin", "source", "'", "nan", "."]), max_size=25).map(" ".join),
))
def test_fuzzed_bytes_load_cleanly_or_fail_cleanly(tmp_path: Path, text) -> None:
    check_outcome(tmp_path, text)


def test_a_tilde_path_is_expanded_once_for_every_caller(tmp_path: Path) -> None:
    from app.cli import _db_path, build_parser

    override = tmp_path / "override.toml"
    override.write_text('[journal]\ndb_path = "~/games/x.db"\n[camera]\nfolder = "~/frames"\n', encoding="utf-8")
    config = load_config(override, env={"HOME": str(tmp_path)}, home=NO_HOME)
    home = Path.home()
    assert config["journal"]["db_path"] == str(home / "games" / "x.db")  # what the app opens
    assert config["camera"]["folder"] == str(home / "frames")
    args = build_parser().parse_args(["export", "--config", str(override)])
    assert _db_path(args) == home / "games" / "x.db"  # and what the command line opens


@pytest.mark.parametrize(("text", "message"), [
    ("[vision]\nblank_frame_std = inf\n", "[vision] blank_frame_std: expected a number from 0 to 80, found inf"),
    ("[vision]\nblank_frame_std = -inf\n", "[vision] blank_frame_std: expected a number from 0 to 80, found -inf"),
    ("[vision]\nblank_frame_std = 1e300\n", "[vision] blank_frame_std: expected a number from 0 to 80, found 1e+300"),
    ("[vision.settle]\nstill_frames = 100000\n", "[vision.settle] still_frames: expected an integer from 0 to 100,"),
    ("[ui]\ntext_scale = nan\n", "[ui] text_scale: expected a number from 0.5 to 2, found nan"),
    ('[journal]\ndb_path = "/proc/version"\n', '[journal] db_path: expected a string naming a path outside /proc and /sys, found the string'),
    ('[ui]\nexports_dir = "/sys/kernel"\n', "[ui] exports_dir: expected a string naming a path outside /proc and /sys"),
    ('[vision]\ncalibration_path = "/proc/self/../self/environ"\n', "[vision] calibration_path: expected a string naming a path outside"),
])
def test_numbers_have_ranges_and_kernel_folders_are_refused(tmp_path: Path, text: str, message: str) -> None:
    error = error_for(tmp_path, text)
    assert error.startswith(f"{tmp_path / 'override.toml'}: ") and message in error


def test_keys_an_older_windrose_wrote_are_left_out_and_said(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The still frames are averaged since 2026-12-07, no longer voted on: an override file that
    still sets the vote starts the app all the same, and the log says what was left out."""
    with caplog.at_level(logging.WARNING, logger="app.config"):
        config = load_with(tmp_path, "[vision.settle]\nmin_vote_frames = 5\nvote_agreement = 0.6\nmatch_distance = 0.4\n"
                                     "still_time_s = 1\n")
    assert config["vision.settle"]["still_frames"] == 3 and config["vision.settle"]["still_time_s"] == 1.0
    assert "min_vote_frames" not in config["vision.settle"]
    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 3 and all(str(tmp_path / "override.toml") in line for line in said)
    assert "[vision.settle] min_vote_frames is no longer used" in said[0] and "still_frames" in said[0]


def test_a_byte_order_mark_is_read_as_utf8(tmp_path: Path) -> None:
    config = load_with(tmp_path, b"\xef\xbb\xbf[ui]\nlanguage = \"de\"\n")
    assert config["ui"]["language"] == "de"
