#!/usr/bin/env bash
# Installs Windrose as a kiosk service on Raspberry Pi OS (called by `sudo ./setup.sh --service`).
#
#   install.sh install APP_DIR        create the user, install and enable the unit (as root)
#   install.sh render APP_DIR USER    print the unit for APP_DIR and USER (used by the tests)
set -euo pipefail

service_name="windrose.service"
unit_source="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$service_name"
default_dir="/opt/windrose"
default_user="windrose"
state_dir="/var/lib/windrose"
groups_wanted=(video render input gpio)

say() { printf 'windrose install: %s\n' "$*" >&2; }

check_app_dir() {
    local dir="$1"
    case "$dir" in
        /*) ;;
        *) say "the app folder must be an absolute path, not '$dir'"; exit 2 ;;
    esac
    if [[ ! "$dir" =~ ^/[A-Za-z0-9._/-]+$ ]]; then
        say "the app folder '$dir' has characters a unit file cannot carry; use e.g. $default_dir"
        exit 2
    fi
    case "$dir" in
        /home/*|/root/*|/tmp/*)
            say "the service cannot read '$dir' (home folders and /tmp are hidden from it);"
            say "move the checkout first: sudo mv '$dir' $default_dir"
            exit 2
            ;;
    esac
}

render_unit() {
    local dir="$1" user="$2"
    sed -e "s#$default_dir#$dir#g" \
        -e "s#^User=$default_user\$#User=$user#" \
        -e "s#^Group=$default_user\$#Group=$user#" \
        "$unit_source"
}

ensure_user() {
    local user="$1" group
    if ! id -u "$user" >/dev/null 2>&1; then
        say "creating the system user '$user'"
        useradd --system --user-group --home-dir "$state_dir" --no-create-home \
            --shell /usr/sbin/nologin "$user"
    fi
    for group in "${groups_wanted[@]}"; do
        if getent group "$group" >/dev/null; then
            usermod -a -G "$group" "$user"
        else
            say "no '$group' group on this system; skipped"
        fi
    done
}

install_service() {
    local dir="$1"
    check_app_dir "$dir"
    if [ "$(id -u)" -ne 0 ]; then
        say "needs root: sudo ./setup.sh --service"
        exit 2
    fi
    if [ ! -x "$dir/.venv/bin/python" ]; then
        say "no virtual environment in $dir/.venv; run ./setup.sh --service from the checkout"
        exit 2
    fi
    ensure_user "$default_user"
    if [ ! -e /etc/windrose/config.toml ]; then
        install -D -m 0644 "$dir/systemd/appliance-config.toml" /etc/windrose/config.toml
        say "wrote /etc/windrose/config.toml (fullscreen, Pi camera); edit it to change settings"
    fi
    # Until 2026-12-07 onnxruntime queued usage events here (never sent: the unit has no
    # network); the app now switches that off, and nothing reads what is left.
    rm -rf "$state_dir/.cache/Microsoft/DeveloperTools/.onnxruntime"
    render_unit "$dir" "$default_user" > "/etc/systemd/system/$service_name"
    chmod 0644 "/etc/systemd/system/$service_name"
    systemctl daemon-reload
    systemctl enable "$service_name"
    if [ "$(systemctl get-default)" = "graphical.target" ]; then
        # The kiosk draws straight to the display (KMS/DRM); a desktop would hold it.
        say "booting to the console from now on (was: desktop)"
        systemctl set-default multi-user.target
    fi
    say "installed; it starts at the next boot, or now with: sudo systemctl start $service_name"
}

case "${1:-}" in
    install) install_service "${2:?usage: install.sh install APP_DIR}" ;;
    render) render_unit "${2:?usage: install.sh render APP_DIR USER}" "${3:?usage: install.sh render APP_DIR USER}" ;;
    *) echo "usage: install.sh install APP_DIR | install.sh render APP_DIR USER" >&2; exit 2 ;;
esac
