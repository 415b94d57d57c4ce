"""The kiosk unit, its installer, the Pi's Kivy settings and setup.sh, checked by the real tools."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.config import load_config

ROOT = Path(__file__).resolve().parent.parent
SYSTEMD = ROOT / "systemd"
SCRIPTS = [ROOT / "setup.sh", SYSTEMD / "install.sh"]


def run(*command: str | Path, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=120,
                          **kwargs)


@pytest.fixture(scope="module")
def rendered_unit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The unit as install.sh writes it for this checkout (its paths must exist for verify)."""
    result = run("bash", SYSTEMD / "install.sh", "render", ROOT, "windrose")
    assert result.returncode == 0, result.stderr
    path = tmp_path_factory.mktemp("unit") / "windrose.service"
    path.write_text(result.stdout)
    return path


def unit_settings(path: Path) -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def needs(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        pytest.skip(f"{tool} is not installed (./setup.sh test installs it with apt)")
    return found


def test_systemd_analyze_verify_says_nothing_at_all(rendered_unit: Path) -> None:
    analyze = needs("systemd-analyze")
    result = run(analyze, "verify", rendered_unit)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_security_exposure_stays_low(rendered_unit: Path) -> None:
    analyze = needs("systemd-analyze")
    result = run(analyze, "security", "--offline=true", "--no-pager", rendered_unit)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    if found is None:
        pytest.skip(f"this systemd-analyze cannot rate unit files offline: {result.stderr.strip()[:200]}")
    assert float(found.group(1)) <= 1.5, result.stdout


def test_unit_is_a_hardened_notifying_kiosk(rendered_unit: Path) -> None:
    unit = unit_settings(rendered_unit)
    expected = {
        "Type": ["notify"], "Restart": ["on-failure"], "User": ["windrose"], "NoNewPrivileges": ["yes"],
        "ProtectSystem": ["strict"], "ReadWritePaths": ["/var/lib/windrose", "-/media -/run/media"],
        "PrivateTmp": ["yes"], "RestartPreventExitStatus": ["2"],
        "ProtectHome": ["yes"], "CapabilityBoundingSet": [""],
        "ExecStart": [f"{ROOT}/.venv/bin/python -m app"],
    }
    for key, value in expected.items():
        assert unit.get(key) == value, key
    assert int(unit["WatchdogSec"][0]) >= 10
    assert "GPIOZERO_PIN_FACTORY=lgpio" in unit["Environment"]
    assert "SDL_VIDEODRIVER=kmsdrm" in unit["Environment"]
    assert unit["RestrictAddressFamilies"] == ["AF_UNIX AF_NETLINK"]  # no network sockets at all
    allowed = {line.split()[0] for line in unit["DeviceAllow"]}
    assert allowed == {"char-drm", "char-input", "char-video4linux", "char-media", "char-dma_heap", "char-gpiochip"}


def _megabytes(text: str) -> int:
    units = {"K": 1 / 1024, "M": 1, "G": 1024}
    return int(float(text[:-1]) * units[text[-1]])


def test_unit_bounds_memory_above_the_measured_peak(rendered_unit: Path) -> None:
    unit = unit_settings(rendered_unit)
    measured_peak_mb = 270  # README: the peak while a roll is read
    high, highest = _megabytes(unit["MemoryHigh"][0]), _megabytes(unit["MemoryMax"][0])
    assert measured_peak_mb * 1.5 <= high < highest
    assert unit["MemorySwapMax"] == ["0"]


def test_under_the_unit_only_the_administrators_settings_are_read(rendered_unit: Path, tmp_path: Path) -> None:
    environment = dict(line.split("=", 1) for line in unit_settings(rendered_unit)["Environment"])
    assert environment["WINDROSE_CONFIG"] == "/etc/windrose/config.toml"
    home = tmp_path / "home"  # the app's own, writable home (HOME=/var/lib/windrose)
    (home / ".config" / "windrose").mkdir(parents=True)
    (home / ".config" / "windrose" / "config.toml").write_text('[journal]\ndb_path = "/tmp/elsewhere.db"\n')
    system = tmp_path / "etc-config.toml"
    system.write_text((SYSTEMD / "appliance-config.toml").read_text())
    config = load_config(env={"WINDROSE_CONFIG": str(system), "HOME": str(home)}, home=home)
    assert config.files[-1] == system and config["journal"]["db_path"] == ""


def test_installer_refuses_a_folder_the_service_cannot_read() -> None:
    result = run("bash", SYSTEMD / "install.sh", "install", "/home/pi/windrose")
    assert result.returncode == 2
    assert "move the checkout first" in result.stderr
    result = run("bash", SYSTEMD / "install.sh", "install", "relative/dir")
    assert result.returncode == 2 and "absolute path" in result.stderr


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shell_scripts_parse_and_pass_shellcheck(script: Path) -> None:
    assert run("bash", "-n", script).returncode == 0
    shellcheck = needs("shellcheck")
    result = run(shellcheck, "--severity=style", script)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_appliance_settings_file_loads(tmp_path: Path) -> None:
    config = load_config(SYSTEMD / "appliance-config.toml", env={}, home=tmp_path)
    assert config["ui"]["fullscreen"] is True
    assert config["camera"]["source"] == "picamera2"


KIVY_PROBE = """
import json, os
from kivy.config import Config
print(json.dumps({section: dict(Config.items(section)) for section in Config.sections()}))
"""


def kivy_config_in(home: Path) -> dict[str, dict[str, str]]:
    """Kivy's configuration as Kivy itself loads it from KIVY_HOME (in a fresh process)."""
    env = {**os.environ, "KIVY_HOME": str(home), "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1"}
    result = run(sys.executable, "-c", KIVY_PROBE, env=env)
    assert result.returncode == 0, result.stderr
    import json
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_pi_kivy_config_has_one_input_provider_and_is_complete(tmp_path: Path) -> None:
    pi_home = tmp_path / "pi"
    pi_home.mkdir()
    shutil.copy(SYSTEMD / "kivy-pi.ini", pi_home / "config.ini")
    loaded = kivy_config_in(pi_home)
    assert loaded["input"] == {"mouse": "mouse"}
    graphics = loaded["graphics"]
    assert (graphics["fullscreen"], graphics["show_cursor"], graphics["rotation"]) == ("auto", "0", "0")
    assert loaded["kivy"]["exit_on_escape"] == "0"
    defaults_home = tmp_path / "defaults"
    defaults_home.mkdir()
    defaults = kivy_config_in(defaults_home)
    for section, options in defaults.items():
        if section != "input":
            assert set(options) <= set(loaded[section]), f"[{section}] lacks {set(options) - set(loaded[section])}"
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(SYSTEMD / "kivy-pi.ini")
    assert parser["kivy"]["config_version"] == defaults["kivy"]["config_version"]


def test_service_option_refuses_a_machine_that_is_not_a_pi() -> None:
    model = Path("/proc/device-tree/model")
    if model.exists() and "Raspberry Pi" in model.read_text(errors="replace"):
        pytest.skip("this is a Raspberry Pi: --service would really install the kiosk")
    result = run("bash", ROOT / "setup.sh", "--service")
    assert result.returncode == 2
    assert "--service is for the Raspberry Pi appliance" in result.stderr


def test_a_second_windrose_is_not_restarted_again_and_again(rendered_unit: Path) -> None:
    """The exit of an app that finds the journal held (tests/test_instance_lock.py) or its config
    wrong ends the unit's restarts: restarting could only fail again, ten times in five minutes."""
    from app.ui.launch import EXIT_NOT_STARTED

    unit = unit_settings(rendered_unit)
    assert unit["Restart"] == ["on-failure"]
    assert unit["RestartPreventExitStatus"] == [str(EXIT_NOT_STARTED)]


def test_the_unit_may_write_on_usb_sticks_and_nowhere_else_new(rendered_unit: Path) -> None:
    """Exports to a stick need /media and /run/media (app.sticks.STICK_ROOTS); every other
    place stays read-only (ProtectSystem=strict) or hidden (ProtectHome)."""
    from app.sticks import STICK_ROOTS

    unit = unit_settings(rendered_unit)
    writable = [path.lstrip("-") for line in unit["ReadWritePaths"] for path in line.split()]
    assert sorted(writable) == sorted(["/var/lib/windrose", *map(str, STICK_ROOTS)])
    assert (unit["ProtectSystem"], unit["ProtectHome"], unit["PrivateMounts"]) == (["strict"], ["yes"], ["yes"])
