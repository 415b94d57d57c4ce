#!/usr/bin/env bash
# Windrose set-up: installs what is missing, then runs the app or the tests.
#
#   ./setup.sh run [APP ARGS...]   install what is missing, then start the app
#   ./setup.sh test [PYTEST ARGS...] install what is missing, then run every test
#   ./setup.sh --service           (on the Pi, as root) install and enable the kiosk unit
#
# Safe to run again and again: each step checks before it changes anything.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
python_bin="${PYTHON:-python3}"

say() { printf 'windrose setup: %s\n' "$*" >&2; }

is_raspberry_pi() {
    [ -r /proc/device-tree/model ] && grep -qa "Raspberry Pi" /proc/device-tree/model && return 0
    [ -r /etc/os-release ] && grep -qE '^ID=raspbian' /etc/os-release && return 0
    return 1
}

apt_packages() {
    # Libraries Kivy needs to open a window (or render offscreen through EGL).
    local pkgs=(libgl1 libegl1 libmtdev1 python3-venv)
    if is_raspberry_pi; then
        # picamera2 and lgpio exist only as apt packages; "--no-recommends" below keeps
        # picamera2 from pulling in the desktop preview libraries.
        pkgs+=(python3-picamera2 python3-lgpio)
    fi
    if [ "${1:-}" = test ]; then
        # The tests lint the shell scripts and check the kiosk unit file.
        pkgs+=(shellcheck)
        command -v systemd-analyze >/dev/null 2>&1 || pkgs+=(systemd)
    fi
    printf '%s\n' "${pkgs[@]}"
}

missing_apt_packages() {
    command -v dpkg-query >/dev/null 2>&1 || return 0
    local pkg
    while read -r pkg; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            printf '%s\n' "$pkg"
        fi
    done < <(apt_packages "$@")
}

install_system_packages() {
    local missing
    missing="$(missing_apt_packages "$@" | tr '\n' ' ')"
    missing="${missing% }"
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "installing system packages: $missing"
        apt-get update -qq
        # shellcheck disable=SC2086  # word splitting of the package list is wanted
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
    else
        say "please install these system packages first (as root): apt-get install --no-install-recommends $missing"
    fi
}

ensure_venv() {
    if is_raspberry_pi && [ -f "$venv/pyvenv.cfg" ] && grep -q '^include-system-site-packages = false' "$venv/pyvenv.cfg"; then
        say "letting $venv see the system's picamera2 and lgpio"
        "$python_bin" -m venv --system-site-packages "$venv"
    fi
    if [ ! -x "$venv/bin/python" ]; then
        local flags=()
        # picamera2 and lgpio come from apt only; the venv must see them.
        if is_raspberry_pi; then flags+=(--system-site-packages); fi
        say "creating $venv"
        "$python_bin" -m venv "${flags[@]}" "$venv"
    fi
}

ensure_requirements() {
    local reqfile="$1" stamp hash
    stamp="$venv/.installed-$(basename "$reqfile")"
    hash="$(cat "$here/requirements.txt" "$reqfile" | sha256sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ]; then
        return 0
    fi
    say "installing Python packages from $(basename "$reqfile")"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$reqfile" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
    printf '%s\n' "$hash" > "$stamp"
}

run_app() {
    install_system_packages
    ensure_venv
    ensure_requirements "$here/requirements.txt"
    cd "$here"
    export KIVY_NO_ARGS=1
    exec "$venv/bin/python" -m app "$@"
}

run_tests() {
    install_system_packages test
    ensure_venv
    ensure_requirements "$here/requirements-test.txt"
    cd "$here"
    KIVY_TEST_HOME="$(mktemp -d)"
    trap 'rm -rf "$KIVY_TEST_HOME"' EXIT
    export KIVY_NO_ARGS=1 KIVY_HOME="$KIVY_TEST_HOME" SDL_VIDEODRIVER=offscreen KIVY_LOG_MODE=PYTHON
    export PYTHONDONTWRITEBYTECODE=1
    local status=0
    # One worker a core, at most four (each holds the app, Kivy and the reader's nets, some 500 MB);
    # "-n 0" among the arguments runs everything in this one process.
    "$venv/bin/python" -m pytest -n auto --maxprocesses 4 "$@" || status=$?
    if [ "$status" -eq 5 ]; then
        say "no tests were collected"
    fi
    return "$status"
}

install_service() {
    if ! is_raspberry_pi; then
        say "--service is for the Raspberry Pi appliance; this machine is not one"
        exit 2
    fi
    if [ "$(id -u)" -ne 0 ]; then
        say "--service needs root: sudo ./setup.sh --service"
        exit 2
    fi
    install_system_packages
    ensure_venv
    ensure_requirements "$here/requirements.txt"
    bash "$here/systemd/install.sh" install "$here"
}

case "${1:-}" in
    run) shift; run_app "$@" ;;
    test) shift; run_tests "$@" ;;
    --service) install_service ;;
    *)
        echo "usage: ./setup.sh run [app args] | ./setup.sh test [pytest args] | ./setup.sh --service" >&2
        exit 2
        ;;
esac
