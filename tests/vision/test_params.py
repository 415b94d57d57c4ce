"""VisionParams: every field is a key of config.toml [vision], bad tables are named."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from vision.frame import tray_region
from vision.params import DEFAULT_CONFIG_PATH, VisionParams, load_vision_params


def _table() -> dict[str, object]:
    with DEFAULT_CONFIG_PATH.open("rb") as handle:
        return tomllib.load(handle)["vision"]


def test_repository_config_loads_and_covers_every_field() -> None:
    params = load_vision_params()
    top_level = {k for k, v in _table().items() if not isinstance(v, dict)}
    assert top_level == {f.name for f in dataclasses.fields(VisionParams)}
    assert params.read_die_px > 0


def test_every_key_is_commented_in_config() -> None:
    lines = DEFAULT_CONFIG_PATH.read_text(encoding="utf-8").split("\n")
    start = lines.index("[vision]")
    for index in range(start + 1, len(lines)):
        line = lines[index]
        if line.startswith("["):
            break
        if "=" in line and not line.startswith("#"):
            above = [text for text in lines[start:index] if text.strip()]
            # A key sits under a comment (possibly shared with the key(s) just before it).
            assert any(text.startswith("#") for text in above[-4:]), line


def test_unknown_key_is_named() -> None:
    table = dict(_table()) | {"pip_contarst": 3.0}
    with pytest.raises(ValueError, match="pip_contarst"):
        VisionParams.from_table(table)


@pytest.mark.parametrize(("key", "value"), [("read_die_px", "48"), ("read_die_px", 4.5), ("pip_contrast", True),
                                            ("calibration_path", 3), ("pip_contrast", -1.0)])
def test_wrong_type_or_value_is_named(key: str, value: object) -> None:
    table = dict(_table()) | {key: value}
    with pytest.raises(ValueError, match=key):
        VisionParams.from_table(table)


def test_a_light_pip_colour_that_is_no_die_colour_is_named() -> None:
    table = dict(_table()) | {"default_light_pip_colours": "black white"}
    with pytest.raises(ValueError, match="default_light_pip_colours.*white"):
        VisionParams.from_table(table)


def test_missing_key_is_named() -> None:
    table = dict(_table())
    del table["glare_level"]
    with pytest.raises(ValueError, match="glare_level"):
        VisionParams.from_table(table)


def test_int_accepted_for_float_and_subtables_skipped() -> None:
    table = dict(_table()) | {"pip_contrast": 30, "settle": {"anything": 1}}
    assert VisionParams.from_table(table).pip_contrast == 30.0


def test_bad_config_file_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "config.toml"
    broken.write_text("[vision\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_vision_params(broken)
    broken.write_text("vision = 3\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[vision\] is not a table"):
        load_vision_params(broken)


def test_an_override_file_changes_only_the_keys_it_holds(tmp_path: Path) -> None:
    """As the app's override file: what it leaves out keeps the repository's value."""
    mine = tmp_path / "mine.toml"
    mine.write_text("[ui]\nlanguage = 'de'\n", encoding="utf-8")
    assert load_vision_params(mine) == load_vision_params()
    mine.write_text("[vision]\ntray_left = 0.25\ntray_width = 0.5\n", encoding="utf-8")
    assert load_vision_params(mine) == dataclasses.replace(load_vision_params(), tray_left=0.25, tray_width=0.5)
    mine.write_text("[vision]\ntray_left = 0.75\n", encoding="utf-8")  # with the default width of 1.0
    with pytest.raises(ValueError, match=f"{mine.name}.*'tray_left' \\+ 'tray_width'"):
        load_vision_params(mine)


@pytest.mark.parametrize(("change", "named"), [
    ({"tray_width": 1.5}, "'tray_width' is a fraction"),
    ({"tray_height": 0.0}, "'tray_height' must be above 0"),
    ({"tray_left": 0.5, "tray_width": 0.6}, "'tray_left' \\+ 'tray_width' come to 1.1"),
    ({"tray_top": -0.1}, "'tray_top' must not be negative"),
])
def test_a_tray_region_outside_the_frame_is_named(change: dict[str, float], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        VisionParams.from_table(dict(_table()) | change)


def test_the_tray_region_is_in_pixels_of_the_frame_it_is_applied_to() -> None:
    whole = load_vision_params()
    assert tray_region(whole, 1600, 900) is None
    part = dataclasses.replace(whole, tray_left=0.25, tray_top=0.1, tray_width=0.5, tray_height=0.8)
    assert tray_region(part, 1600, 900) == (400, 90, 800, 720)
    assert tray_region(part, 4056, 3040) == (1014, 304, 2028, 2432)
