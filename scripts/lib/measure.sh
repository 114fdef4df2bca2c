# Sourced, with the caller's arguments, by the scripts that measure the release server
# (profile.sh, count-instructions.sh, count-wal-frames.sh): takes `--binary PATH` (default: this
# tree's release build, built now) and installs the benchmark's tools. Sets $binary and defines
# wrk_script.
binary=.build/release/ratings
[ "${1:-}" = "--binary" ] && binary=$2
scripts/setup.sh --bench
[ "$binary" != .build/release/ratings ] || swift build -c release --product ratings >/dev/null

# wrk_script DIR [SCRIPT]: prints wrk's `-s FILE` arguments for bench/SCRIPT between the shared choice
# of items (bench/items.lua) and report function (wrk takes one script), or nothing without a script.
wrk_script() {
    [ -n "${2:-}" ] || return 0
    cat bench/items.lua "bench/$2" bench/wrk-report.lua >"$1/s.lua"
    echo "-s $1/s.lua"
}
