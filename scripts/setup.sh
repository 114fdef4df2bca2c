#!/usr/bin/env bash
# Installs what building, running and testing the service needs on Debian with Swift 6:
#   setup.sh          the C library the build links (libsqlite3-dev)
#   setup.sh --tests  also the Python tools of the contract check, in .venv-tools/
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(libsqlite3-dev pkg-config)
missing=()
for package in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

command -v swift >/dev/null || { echo "setup: swift is not on PATH; install Swift 6 first" >&2; exit 1; }

if [ "${1:-}" = "--tests" ]; then
    # Pinned so a new release cannot change what CI checks without a commit.
    if [ ! -x .venv-tools/bin/schemathesis ] || ! .venv-tools/bin/pip freeze 2>/dev/null | grep -q "^schemathesis==4.32.5$"; then
        echo "setup: installing the contract-check tools into .venv-tools"
        python3 -m venv .venv-tools
        .venv-tools/bin/pip install -q --disable-pip-version-check \
            "schemathesis==4.32.5" "openapi-spec-validator==0.9.0"
    fi
fi
