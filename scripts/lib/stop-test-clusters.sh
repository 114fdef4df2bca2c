#!/usr/bin/env bash
# Stops PostgreSQL clusters that test runs started under the temporary folder (ratings-pg-*) and
# removes them. The tests stop their own at exit; this catches a run that was killed.
tmp=${TMPDIR:-/tmp}
for directory in "$tmp"/ratings-pg-*; do
    [ -d "$directory/data" ] || continue
    if [ -f "$directory/data/postmaster.pid" ]; then
        if [ "$(id -u)" = 0 ]; then
            runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D "$directory/data" -m immediate -w stop >/dev/null 2>&1 || true
        else
            /usr/lib/postgresql/15/bin/pg_ctl -D "$directory/data" -m immediate -w stop >/dev/null 2>&1 || true
        fi
    fi
    rm -rf "$directory"
done
