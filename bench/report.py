#!/usr/bin/env python3
"""Renders a benchmark result (bench/results/*.json) as Markdown: all of it for
docs/performance.md, the headline for the README (--summary). scripts/examples.py puts the newest
full result into both pages, and its check fails when they differ from it.

    python3 bench/report.py [--summary] bench/results/DATE-full.json
"""
import copy, json, sys

from benchlib import FLOORS, ceiling_runs, median_cpu_run, ratios_by_round, read_ratios, user_field, write_ratios


def rps(value):
    return f"{value:,.0f}"


def ms(value):
    return f"{value:.2f}"


def row(*cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def intro(report):
    m = report["machine"]
    return [f"Measured with `{report['command']}` at commit `{report['commit']}` on {report['date']}: "
            f"{m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB, Linux {m['kernel']}. "
            f"Server and references on core 1, `wrk -t1` on core 0, 64 keep-alive connections, "
            f"{report['seconds']} s per run, median of {report['runs']} runs.", ""]


def cpu_by_current_rule(report):
    """The result with each load's CPU figures by the current rule (all from its median run, see
    `median_cpu_run`), worked out from the runs, so an older result renders the same way."""
    report = copy.deepcopy(report)
    for load in (*report["reads"].values(), *report["writes"].values()):
        runs = load.get("runs") if isinstance(load, dict) else None
        if runs and isinstance(runs[0], dict) and "user_us" in runs[0]:
            load.update(median_cpu_run(runs))
    return report


def target_ratios(reads, writes):
    """The targets' ratios by the current rule (the median of the rounds' ratios), worked out from
    the runs, so an older result renders the same way; results without runs keep their own."""
    if "runs" not in reads["nginx"]:
        return {**reads["ratios"], **writes["ratios"]}
    return {**read_ratios(reads), **write_ratios(writes)}


def ratios(report):
    """The headline: each hot path against its reference, and the limits it is held to."""
    reads, writes = report["reads"], report["writes"]
    r = target_ratios(reads, writes)
    idle = report["idle_1000"]
    lines = [row("", "measured (median of the runs)", "reference in the same run", "ratio (median of the rounds')", "target"),
             "|---|---:|---:|---:|---:|",
             row("`GET /v1/items/{id}`, hot summary", f"{rps(reads['get_summary']['rps'])} req/s",
                 f"nginx {rps(reads['nginx']['rps'])} req/s", f"{r['get_summary_vs_nginx']:.2f}×", f"≥ {READ_TARGET}×"),
             row("… its p99", f"{ms(reads['get_summary']['p99_ms'])} ms", f"nginx {ms(reads['nginx']['p99_ms'])} ms",
                 f"{r['get_summary_p99_vs_nginx']:.2f}×", "≤ 2×"),
             row("`GET /v1/display`", f"{rps(reads['get_display']['rps'])} req/s", "nginx", f"{r['get_display_vs_nginx']:.2f}×", f"≥ {READ_TARGET}×"),
             row("`GET /v1/items?ids=`, 20 ids", f"{rps(reads['get_batch_20']['rps'])} req/s", "single GET",
                 f"{r['batch_20_vs_get_summary']:.2f}×", "≥ 0.40×"),
             row("durable `PUT`" + (", random items" if "put_rating_zipf" in writes else ""),
                 f"{rps(writes['put_rating']['rps'])} req/s, p99 {ms(writes['put_rating']['p99_ms'])} ms",
                 f"SQLite from C {rps(writes['sqlite_ceiling_rps']['median'])}/s", f"{r['put_vs_sqlite_ceiling']:.2f}×", f"≥ {WRITE_TARGET}×, p99 ≤ 20 ms")]
    if "put_rating_zipf" in writes:
        lines.append(row("… on Zipf-popular items", f"{rps(writes['put_rating_zipf']['rps'])} req/s, p99 {ms(writes['put_rating_zipf']['p99_ms'])} ms",
                         f"SQLite from C {rps(writes['sqlite_ceiling_zipf_rps']['median'])}/s",
                         f"{writes['ratios']['put_zipf_vs_sqlite_ceiling_zipf']:.2f}×", ""))
    lines.append(row("RSS, 1,000 idle connections, under load", f"{max(idle['get_summary']['rss_mib'], idle['put_rating']['rss_mib'])} MiB", "", "", "≤ 48 MiB"))
    if "soak" in report:
        lines.append(row("RSS growth over a 5-minute 90/10 soak", f"{report['soak']['growth_pct']:+.1f} %", "", "", "≤ 10 %"))
    if "reviews" in report:
        pages, review_writes = report["reviews"]["pages"]["kept"], report["reviews"]["writes"]
        for sort, label in (("newest", "newest"), ("helpful", "most helpful")):
            lines.append(row(f"reviews page of 20, {label}, item with 100,000 reviews", f"{rps(pages[f'{sort}_page_1']['rps'])} req/s",
                             f"its summary GET {rps(pages['get_summary']['rps'])} req/s",
                             f"{pages['ratios'][f'{sort}_page_1_vs_get_summary']:.2f}×", "≥ 0.25×"))
            lines.append(row(f"… page 5,000 of it", f"{rps(pages[f'{sort}_page_5000']['rps'])} req/s", "page 1",
                             f"{pages['ratios'][f'{sort}_page_5000_vs_page_1']:.2f}×", "≥ 0.8×"))
        lines.append(row("durable review `PUT`, ~400 characters, random items", f"{rps(review_writes['put_review']['rps'])} req/s",
                         f"durable rating `PUT`, random items {rps(review_writes['put_rating']['rps'])} req/s",
                         f"{review_writes['ratios']['put_review_vs_put_rating']:.2f}×", "≥ 0.5×"))
    if "large" in report:
        stored = "1,000,000 ratings and reviews" if report["large"].get("reviews") else "1,000,000 ratings"
        lines.append(row(f"start to `listening on`, {stored}", f"{report['large']['start_to_listening_ms']['median']:.0f} ms", "", "", "≤ 300 ms"))
    return lines


def scaling(report):
    if "scaling" not in report:
        return []
    lines = ["Scaling with connections (one 5 s run each):", "",
             row("connections", "GET req/s", "GET p99 ms", "PUT req/s", "PUT p99 ms"), "|---:|---:|---:|---:|---:|"]
    for connections, r in report["scaling"].items():
        lines.append(row(connections, rps(r["get"]["rps"]), ms(r["get"]["p99_ms"]), rps(r["put"]["rps"]), ms(r["put"]["p99_ms"])))
    return lines


def render_postgresql(report):
    """docs/scaling.md's part: the PostgreSQL engine beside pgbench running its statements, pool
    sizes, two replicas, the erasure stall (`scripts/bench.sh --postgresql`, or the full run's)."""
    pg, m = report.get("postgresql"), report["machine"]
    if not pg or "ratios" not in pg:
        return "(this result has no PostgreSQL rows beside pgbench)\n"
    r = pg["ratios"]
    lines = [f"Measured with `{report['command']}` at commit `{report['commit']}` on {report['date']}: {m['cores']} cores ({m['cpu']}), "
             "PostgreSQL 15 on the same machine (fsync on), the service on core 1, wrk and pgbench on core 0, "
             f"{report['seconds']} s per run, median of {report['runs']} alternating rounds.", "",
             "pgbench runs the service's own statements with the pool's 10 clients and prepared statements: the summary "
             "select, and the write as the store sent it before it went to one round trip (six statements, each a round trip). "
             "`PUT`s and pgbench's writes choose each item uniformly at random from 10,000, or by Zipf popularity (s = 1.01):", "",
             row("", "req/s", "p50 ms", "p99 ms", "errors", "vs pgbench"), "|---|---:|---:|---:|---:|---:|",
             row("pgbench, the summary select", rps(pg["pgbench_select"]["rps"]), ms(pg["pgbench_select"]["p50_ms"]),
                 ms(pg["pgbench_select"]["p99_ms"]), pg["pgbench_select"]["errors"], "reference"),
             row("`GET /v1/items/{id}`", rps(pg["get_summary"]["rps"]), ms(pg["get_summary"]["p50_ms"]), ms(pg["get_summary"]["p99_ms"]),
                 pg["get_summary"]["errors"], f"{r['get_summary_vs_pgbench_select']:.2f}×")]
    for pattern, label in (("random", "random items"), ("zipf", "Zipf items")):
        bench, put = pg[f"pgbench_write_{pattern}"], pg[f"put_{pattern}"]
        lines.append(row(f"pgbench, the six-statement write, {label}", rps(bench["rps"]), ms(bench["p50_ms"]), ms(bench["p99_ms"]),
                         bench["errors"], "reference"))
        lines.append(row(f"durable `PUT`, {label}", rps(put["rps"]), ms(put["p50_ms"]), ms(put["p99_ms"]), put["errors"],
                         f"{r[f'put_{pattern}_vs_pgbench_write']:.2f}× (p99 {r[f'put_{pattern}_p99_vs_pgbench_write']:.2f}×)"))
        if pattern == "random":
            c10 = pg["put_random_pool_clients"]
            lines.append(row("durable `PUT`, random items, 10 connections like pgbench's clients", rps(c10["rps"]), ms(c10["p50_ms"]),
                             ms(c10["p99_ms"]), c10["errors"], f"p99 {r['put_random_pool_clients_p99_vs_pgbench_write']:.2f}×"))
    # Runs before the review and vote rows were added have none.
    for name, label in (("put_review_random", "durable review `PUT` (with its rating), random items"),
                        ("put_vote_random", "durable helpfulness vote `PUT`, random items")):
        if name in pg:
            lines.append(row(label, rps(pg[name]["rps"]), ms(pg[name]["p50_ms"]), ms(pg[name]["p99_ms"]), pg[name]["errors"], ""))
    two = pg["two_replicas"]
    lines.append(row("two replicas: `GET /v1/items/{id}`", rps(two["get_summary"]["rps"]), ms(two["get_summary"]["p50_ms"]),
                     ms(two["get_summary"]["p99_ms"]), two["get_summary"]["errors"], ""))
    lines.append(row("two replicas: durable `PUT`, random items", rps(two["put_random"]["rps"]), ms(two["put_random"]["p50_ms"]),
                     ms(two["put_random"]["p99_ms"]), two["put_random"]["errors"], ""))
    lines += ["", "The summary `GET` and the durable `PUT` (random items) with each pool size, one replica, 64 connections:", "",
              row("`--database-pool`", "GET req/s", "GET p99 ms", "PUT req/s", "PUT p99 ms"), "|---:|---:|---:|---:|---:|"]
    for size, p in pg["pools"].items():
        get, put = p["get_summary"], p["put_random"]
        lines.append(row(size, rps(get["rps"]), ms(get["p99_ms"]), rps(put["rps"]), ms(put["p99_ms"])))
    e = pg["erasure"]
    lines += ["", f"Erasing 10,000 ratings of one rater on PostgreSQL took {e['erase_ms']:.0f} ms while other raters "
              f"wrote; the slowest of their writes meanwhile took {e['put_during']['max_ms']:.0f} ms."]
    return "\n".join(lines) + "\n"


def render_postgresql_summary(report):
    """The README's PostgreSQL lines: each hot path's ratio to pgbench running its statements."""
    pg = report.get("postgresql")
    if not pg or "ratios" not in pg:
        return "(this result has no PostgreSQL rows beside pgbench)\n"
    r = pg["ratios"]
    return (f"On PostgreSQL (`{report['command']}` at commit `{report['commit']}` on {report['date']}, the database on the same "
            f"machine, fsync on): the summary `GET` at **{r['get_summary_vs_pgbench_select']:.2f}×** of pgbench running its select, "
            f"the durable `PUT` at **{r['put_random_vs_pgbench_write']:.2f}×** of pgbench running the six-statement write the store "
            f"used to send (random items; with pgbench's 10 connections its p99 at "
            f"**{r['put_random_pool_clients_p99_vs_pgbench_write']:.2f}×** of pgbench's), "
            f"{r['put_zipf_vs_pgbench_write']:.2f}× on Zipf-popular items. Targets and the whole table: docs/scaling.md.\n")


def cpu_us(figures):
    """CPU time per request, user and kernel, of a run or of the runs' medians."""
    return figures["user_us"] + figures["system_us"]


# How the CPU table names each C floor.
FLOOR_LABELS = {"put_floor": "durable `PUT`, the C floor (`bench/put-floor-server.c`)",
                "put_floor_handover": "durable `PUT`, the C floor with the hand-over (`HANDOVER=1`)"}


def cpu_per_request(reads, writes):
    """Where each request's time goes: the answering process's CPU time (user space and kernel)
    over each run, per request, median of the runs. Absent from results older than the field."""
    if "user_us" not in reads["nginx"]:
        return []
    lines = ["", "CPU time per request, from `/proc/PID/stat` of the answering process over each run (the "
             "kernel's share is the sockets and loopback TCP, the same work for every server here):", "",
             row("", "user µs", "kernel µs", "total µs"), "|---|---:|---:|---:|"]
    for label, figures in (("nginx, `return 200`", reads["nginx"]), ("`GET /v1/items/{id}`, hot summary", reads["get_summary"]),
                           ("`GET /v1/display`", reads["get_display"]), ("`GET /v1/items?ids=` 20 ids", reads["get_batch_20"]),
                           ("durable `PUT`, every thread of the server", writes["put_rating"]),
                           *((FLOOR_LABELS[floor], writes[floor]) for floor in FLOORS if floor in writes),
                           ("SQLite alone from C, per rating written", writes["sqlite_ceiling_cpu_us"])):
        lines.append(row(label, f"{figures['user_us']:.1f}", f"{figures['system_us']:.1f}", f"{cpu_us(figures):.1f}"))
    return lines


def rounds(reads, writes, seconds):
    """The rounds behind the medians, in the order they ran, with each round's own ratios: on a
    shared machine one round can differ from the next by more than any change to the code."""
    if "runs" not in reads["nginx"]:
        return []
    lines = ["", "The rounds behind those medians, req/s with the p99 in ms in brackets. Within a round the runs "
             f"follow one another ({seconds} s each, nginx first; the `PUT` on a fresh database, then the C reference writing as many ratings into one of its own), so a "
             "round's ratios compare figures taken within a minute; how far the rounds differ shows how much this machine's speed moved during the run:", "",
             row("round", "nginx req/s (p99 ms)", "summary `GET`", "÷ nginx", "`/v1/display`", "÷ nginx",
                 "batch of 20", "÷ `GET`", "SQLite from C", "`PUT`", "÷ SQLite"),
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    ceilings = writes["sqlite_ceiling_rps"]["runs"]
    for index, (nginx, get, display, batch, ceiling, put) in enumerate(zip(
            reads["nginx"]["runs"], reads["get_summary"]["runs"], reads["get_display"]["runs"],
            reads["get_batch_20"]["runs"], ceilings, writes["put_rating"]["runs"]), start=1):
        lines.append(row(index, f"{rps(nginx['rps'])} ({ms(nginx['p99_ms'])})", f"{rps(get['rps'])} ({ms(get['p99_ms'])})",
                         f"{get['rps'] / nginx['rps']:.2f}×", f"{rps(display['rps'])} ({ms(display['p99_ms'])})",
                         f"{display['rps'] / nginx['rps']:.2f}×", rps(batch["rps"]), f"{batch['rps'] / get['rps']:.2f}×",
                         rps(ceiling), f"{rps(put['rps'])} ({ms(put['p99_ms'])})", f"{put['rps'] / ceiling:.2f}×"))
    return lines


def steal(reads, writes):
    """The hypervisor's steal over each run of the rounds: the share of the machine's CPU time
    given to other guests. Absent from results older than the field."""
    if "steal_pct" not in reads["nginx"]["runs"][0]:
        return []
    lines = ["", "Steal over each of those runs: the share of the machine's CPU time its hypervisor gave to other "
             "guests meanwhile (`/proc/stat`). Where it is high, that run's figures say more about the host than "
             "about the code:", "", row("round", "nginx", "summary `GET`", "`/v1/display`", "batch of 20", "`PUT`", "SQLite from C"),
             "|---:|---:|---:|---:|---:|---:|---:|"]
    for index, runs in enumerate(zip(reads["nginx"]["runs"], reads["get_summary"]["runs"], reads["get_display"]["runs"],
                                     reads["get_batch_20"]["runs"], writes["put_rating"]["runs"]), start=1):
        lines.append(row(index, *(f"{run['steal_pct']:.1f} %" for run in runs),
                         f"{writes['sqlite_ceiling_steal_pct'][index - 1]:.1f} %"))
    return lines


def steal_effect(reads, writes):
    """What steal did in this run, worked out from its runs: each side's CPU time per request and
    rate in its calmest and its most stolen run, and the summary `GET`'s ratio in the calmest and
    the most stolen round. Absent from results older than the field."""
    if "steal_pct" not in reads["nginx"]["runs"][0]:
        return []
    sides = []
    for label, runs in (("nginx", reads["nginx"]["runs"]), ("the summary `GET`", reads["get_summary"]["runs"]),
                        ("the `PUT`", writes["put_rating"]["runs"])):
        calm, stolen = min(runs, key=lambda run: run["steal_pct"]), max(runs, key=lambda run: run["steal_pct"])
        if calm is stolen:
            sides.append(f"{label}'s runs all had {calm['steal_pct']:.1f} % steal")
            continue
        sides.append(f"{label} {cpu_us(calm):.1f} → {cpu_us(stolen):.1f} µs at {rps(calm['rps'])} → {rps(stolen['rps'])} req/s "
                     f"({calm['steal_pct']:.1f} → {stolen['steal_pct']:.1f} % steal)")
    pairs = list(zip(reads["nginx"]["runs"], reads["get_summary"]["runs"]))
    def round_steal(pair):
        return pair[0]["steal_pct"] + pair[1]["steal_pct"]
    calm, stolen = min(pairs, key=round_steal), max(pairs, key=round_steal)
    def describe(pair):
        return (f"{pair[1]['rps'] / pair[0]['rps']:.2f}× (steal {pair[0]['steal_pct']:.1f} % during nginx's run, "
                f"{pair[1]['steal_pct']:.1f} % during the server's)")
    return ["", "Between each side's calmest and its most stolen run, CPU time per request (user and kernel) and "
            "rate moved as follows: " + "; ".join(sides) + ". The summary `GET` came to " + describe(stolen) +
            " in the round with the most steal and to " + describe(calm) + " in the calmest."]


def steal_range(report):
    """One sentence for the README: how much the hypervisor took during the rounds."""
    reads, writes = report["reads"], report["writes"]
    if "steal_pct" not in reads["nginx"]["runs"][0]:
        return []
    values = [run["steal_pct"] for name in ("nginx", "get_summary", "get_display", "get_batch_20") for run in reads[name]["runs"]]
    values += [run["steal_pct"] for run in writes["put_rating"]["runs"]] + writes["sqlite_ceiling_steal_pct"]
    return ["", f"The hypervisor's steal (CPU time given to other guests) ranged from {min(values):.1f} % to "
            f"{max(values):.1f} % of the machine over the rounds' runs; docs/performance.md gives it run by run."]


def round_ratio_text(runs, references, key="rps"):
    """Each round's ratio of `key`, in the order the rounds ran: "0.94×, 0.95×, 0.81×"."""
    return ", ".join(f"{ratio:.2f}×" for ratio in ratios_by_round(runs, references, key))


def round_ratios(report):
    """One sentence for the README: the rounds' ratios behind each median, so a reader sees how
    far they spread on a shared machine."""
    reads, writes = report["reads"], report["writes"]
    if "runs" not in reads["nginx"]:
        return []
    nginx, single = reads["nginx"]["runs"], reads["get_summary"]["runs"]
    return ["", "Round by round (each ratio between runs a minute apart): summary `GET` ÷ nginx "
            f"{round_ratio_text(single, nginx)}, its p99 ÷ nginx's {round_ratio_text(single, nginx, 'p99_ms')} ("
            + ", ".join(f"{run['p99_ms']:.2f} against {reference['p99_ms']:.2f} ms" for run, reference in zip(single, nginx))
            + f"); `/v1/display` ÷ nginx {round_ratio_text(reads['get_display']['runs'], nginx)}; "
            f"batch ÷ single `GET` {round_ratio_text(reads['get_batch_20']['runs'], single)}; `PUT` ÷ SQLite from C "
            f"{round_ratio_text(writes['put_rating']['runs'], ceiling_runs(writes))}."]


# Steal further apart than this between a ratio's two runs makes that round's ratio a measure of
# the host's minutes more than of the code.
UNEVEN_STEAL_POINTS = 10

# The durable write's target: this share of the SQLite reference's rate.
WRITE_TARGET = 0.6

# The hot reads' target: this share of nginx's rate.
READ_TARGET = 0.85


def uneven_rounds(report):
    """One sentence for the README: the rounds whose ratio paired runs at very different steal."""
    reads, writes = report["reads"], report["writes"]
    if "runs" not in reads["nginx"] or "steal_pct" not in reads["nginx"]["runs"][0]:
        return []
    nginx, single = reads["nginx"]["runs"], reads["get_summary"]["runs"]
    ceiling = [{"steal_pct": value} for value in writes["sqlite_ceiling_steal_pct"]]
    pairs = [("the summary `GET`", single, "nginx", nginx), ("`/v1/display`", reads["get_display"]["runs"], "nginx", nginx),
             ("the batch", reads["get_batch_20"]["runs"], "the single `GET`", single),
             ("the `PUT`", writes["put_rating"]["runs"], "SQLite from C", ceiling)]
    uneven = [f"in round {index}, {name} ran at {run['steal_pct']:.1f} % and {reference_name} at {reference['steal_pct']:.1f} %"
              for name, runs, reference_name, references in pairs
              for index, (run, reference) in enumerate(zip(runs, references), 1)
              if abs(run["steal_pct"] - reference["steal_pct"]) > UNEVEN_STEAL_POINTS]
    if not uneven:
        return ["", f"In every round, the two runs of each ratio ran within {UNEVEN_STEAL_POINTS} points of steal of each other."]
    return ["", f"Ratios whose two runs ran more than {UNEVEN_STEAL_POINTS} points of steal apart, so that they say more about "
            "the host than about the code: " + "; ".join(uneven) + "."]


def cpu_ratios(report):
    """One sentence for the README: the ratios by CPU time per request, which steal moves far
    less than the rate (what a side would reach on a core of its own)."""
    reads, writes = report["reads"], report["writes"]
    if "user_us" not in reads["nginx"]:
        return []
    nginx, single, display = cpu_us(reads["nginx"]), cpu_us(reads["get_summary"]), cpu_us(reads["get_display"])
    put, ceiling = cpu_us(writes["put_rating"]), cpu_us(writes["sqlite_ceiling_cpu_us"])
    return ["", "By CPU time per request (user and kernel, median of the runs), which steal moves far less than "
            f"the rate: nginx {nginx:.1f} µs, the summary `GET` {single:.1f} µs and the display {display:.1f} µs, so "
            f"nginx's time is {nginx / single:.2f}× and {nginx / display:.2f}× theirs (the ratio of rates one saturated core "
            f"would give); the `PUT` {put:.1f} µs against SQLite from C's {ceiling:.1f} µs per rating "
            f"({ceiling / put:.2f}×)."]


def read_budget(report):
    """One sentence: the CPU time a summary `GET` may take for the read target on one core never
    idle (nginx's time over the target), what it took, and where: user space, which is each
    program's own, and the kernel, which is the same sockets' work for both."""
    reads = report["reads"]
    if "user_us" not in reads["nginx"]:
        return []
    nginx, single = reads["nginx"], reads["get_summary"]
    budget = cpu_us(nginx) / READ_TARGET
    return ["", f"{READ_TARGET}× of nginx's rate on one core never idle leaves a summary `GET` nginx's CPU time over "
            f"{READ_TARGET}: {cpu_us(nginx):.1f} / {READ_TARGET} = {budget:.1f} µs. It took {cpu_us(single):.1f} µs: "
            f"{single['user_us']:.1f} in user space against nginx's {nginx['user_us']:.1f}, and {single['system_us']:.1f} "
            f"in the kernel against nginx's {nginx['system_us']:.1f}."]


def write_floor(report):
    """One sentence: the least a `PUT` can cost (the reference's rating plus a summary `GET`'s
    HTTP exchange), the ratio that allows with the core never idle, and how busy the `PUT` runs
    kept the core (rate times CPU per `PUT`): what separates the write ratio from its target."""
    reads, writes = report["reads"], report["writes"]
    runs = writes["put_rating"].get("runs", [])
    if "user_us" not in reads["get_summary"] or not runs or "user_us" not in runs[0]:
        return []
    single, ceiling = cpu_us(reads["get_summary"]), cpu_us(writes["sqlite_ceiling_cpu_us"])
    floor = single + ceiling
    most = 1e6 / floor
    busy = ", ".join(f"{run['rps'] * cpu_us(run) / 1e4:.0f} %" for run in runs)
    reference = writes["sqlite_ceiling_rps"]["median"]
    target = 1e6 / (WRITE_TARGET * reference)
    # Where the disk's syncs are quick, the target can ask for less than the floor: said as such,
    # with what it would leave nginx's own exchange, the cheapest this load generator sees.
    room = (f"{target - floor:.1f} µs above that floor" if target >= floor
            else f"{floor - target:.1f} µs below that floor: out of reach here unless the exchange cost no more "
                 f"than {target - ceiling:.1f} µs, where nginx's `return 200` took {cpu_us(reads['nginx']):.1f} µs")
    return ["", f"A `PUT` cannot cost less than the reference's rating plus a summary `GET`'s exchange "
            f"({ceiling:.1f} + {single:.1f} = {floor:.1f} µs), so one core takes at most {rps(most)} a second, "
            f"{most / reference:.2f}× of the reference, with nothing else to do and never idle. {WRITE_TARGET}× of the "
            f"reference allows {target:.1f} µs per `PUT` with the core never idle, {room}; the `PUT` took "
            f"{cpu_us(writes['put_rating']):.1f} µs, and its runs kept the core busy {busy} of the "
            "time (rate times CPU per `PUT`), the rest waiting for WAL syncs."]


def measured_floor(report):
    """One sentence: the C floor measured in the same rounds (a server with nothing of its own),
    against the reference and against the server's `PUT`; then the same for the floor with the
    service's hand-over. Absent from results older than the fields."""
    writes = report["writes"]
    if "put_floor" not in writes:
        return []
    ratios = target_ratios(report["reads"], writes)
    lines = ["", "Measured in the same rounds, the C floor: `bench/put-floor-server.c`, a server with nothing of its own, "
             "one C thread whose epoll loop reads every request that has come in, writes them in one transaction with the "
             "reference's statements and answers each once COMMIT has returned (no validation, JSON parser, log or metrics; "
             f"answers of the server's {writes['put_floor_answer_bytes']} bytes), "
             + floor_figures(writes, "put_floor", ratios, "that floor")]
    if "put_floor_handover" in writes:
        lines += ["", "The same floor built as the service must be (`HANDOVER=1`: the loop thread only serves the sockets, and "
                  "a writer thread takes every write waiting whenever it is free, runs them in one transaction and wakes the loop "
                  "to answer them) " + floor_figures(writes, "put_floor_handover", ratios, "it")]
    return lines


def floor_figures(writes, name, ratios, called):
    """How a C floor's sentence ends: its rate and CPU time per `PUT`, its ratio to the reference
    (and by round), and the server's `PUT`'s ratio to it (the floor `called` so in the text)."""
    floor, put = writes[name], writes["put_rating"]
    return (f"took {rps(floor['rps'])} `PUT`s a second at {cpu_us(floor):.1f} µs of CPU each: "
            f"{ratios[name + '_vs_sqlite_ceiling']:.2f}× of the reference "
            f"({round_ratio_text(floor['runs'], ceiling_runs(writes))} by round). The server's `PUT` came to "
            f"{ratios['put_vs_' + name]:.2f}× of {called} ({round_ratio_text(put['runs'], floor['runs'])}).")


def soak_rest_peak_mib(soak):
    """The soak's peak RSS after its first fifth, which its growth compares with the first fifth's
    peak; results older than the field give it back from that growth (to within rounding)."""
    if "rss_rest_peak_mib" in soak:
        return soak["rss_rest_peak_mib"]
    return soak["rss_first_fifth_mib"] * (1 + soak["growth_pct"] / 100)


def put_split(report):
    """One sentence: the `PUT`'s CPU time split between the server's event loops (HTTP, JSON,
    answers), its SQLite writer (with its WAL syncer) and its other threads, each beside what it would be compared
    with: a summary `GET`'s loop time and the reference's rating. Absent from results older than
    the loops' field; results older than the writer's thread lump the writer with the rest."""
    reads, writes = report["reads"], report["writes"]
    if "loops_us" not in writes["put_rating"] or "loops_us" not in reads["get_summary"]:
        return []
    put, loops = cpu_us(writes["put_rating"]), writes["put_rating"]["loops_us"]
    ceiling = cpu_us(writes["sqlite_ceiling_cpu_us"])
    sentence = (f"Of the `PUT`'s {put:.1f} µs, the event loops (threads `loop-N`: the request, its JSON, the answer) "
                f"took {loops:.1f} µs, where a summary `GET` took {reads['get_summary']['loops_us']:.1f} µs of them, ")
    if "syncer_us" in writes["put_rating"]:
        writer, syncer = writes["put_rating"]["writer_us"], writes["put_rating"]["syncer_us"]
        sentence += (f"the SQLite writer (thread `sqlite-writer`) {writer:.1f} µs and its WAL syncer (thread `sqlite-sync`) "
                     f"{syncer:.1f} µs, {writer + syncer:.1f} µs together where the reference took {ceiling:.1f} µs for its rating, "
                     f"and the server's other threads (the checkpointer, the access log) {put - loops - writer - syncer:.1f} µs.")
    elif "writer_us" in writes["put_rating"]:
        writer = writes["put_rating"]["writer_us"]
        sentence += (f"the SQLite writer (thread `sqlite-writer`) {writer:.1f} µs, where the reference took {ceiling:.1f} µs "
                     f"for its rating, and the server's other threads (the checkpointer, the access log) {put - loops - writer:.1f} µs.")
    else:
        sentence += (f"and the server's other threads (the SQLite writer, the checkpointer, the access log) {put - loops:.1f} µs, "
                     f"where the reference took {ceiling:.1f} µs for its rating.")
    return ["", sentence] + thread_split(writes)


def thread_split(writes):
    """One sentence: each thread's user-space and kernel time per `PUT`, the server's beside the
    hand-over floor's (the same two threads in C) and the reference's, which shows which side of
    which thread the server's extra time is on. Absent from results older than the fields."""
    put, floor = writes["put_rating"], writes.get("put_floor_handover", {})
    if "writer_user_us" not in put or "writer_user_us" not in floor:
        return []

    def split(figures, field):
        user = figures[user_field(field)]
        return f"{user:.1f} in user space and {figures[field] - user:.1f} in the kernel"

    ceiling = writes["sqlite_ceiling_cpu_us"]
    syncer = f", its WAL syncer {split(put, 'syncer_us')}" if "syncer_user_us" in put else ""
    return ["", f"By thread, in µs per `PUT`: the server's loops took {split(put, 'loops_us')}, its writer "
            f"{split(put, 'writer_us')}{syncer}; the hand-over floor's loop {split(floor, 'loops_us')}, its writer "
            f"{split(floor, 'writer_us')}; the reference, for its rating, {ceiling['user_us']:.1f} in user space and "
            f"{ceiling['system_us']:.1f} in the kernel. Both writers run the reference's statements."]


def write_stalls(report):
    """One sentence for the README: what the `PUT`'s p99 counts, and the disk's own stalls, seen in
    the C reference's commits. Absent from results older than the field."""
    writes = report["writes"]
    if "sqlite_ceiling_commit_ms" not in writes:
        return []
    commits = writes["sqlite_ceiling_commit_ms"]
    return ["", "Every p99 here is wrk's, which corrects for coordinated omission: a stall counts for each request "
            "clients arriving on their own would have sent during it, not only for the 64 that waited. For writes "
            "that matters, because the disk's syncs stall without the server too: in the C reference's runs the "
            "slowest 1 % of its commits (64 ratings and a WAL sync each) took "
            + ", ".join(f"{run['p99_ms']:.1f}" for run in commits) + " ms or more, and the slowest "
            + ", ".join(f"{run['max_ms']:.0f}" for run in commits) + " ms."]


def render_summary(report):
    """The README's part: the machine and command, and each hot path's ratio to its reference."""
    report = cpu_by_current_rule(report)
    return "\n".join(intro(report) + ratios(report)) + "\n"


def render(report):
    """docs/performance.md's part: every figure of the run."""
    report = cpu_by_current_rule(report)
    lines = intro(report)
    reads, writes = report["reads"], report["writes"]
    r = target_ratios(reads, writes)
    lines += [row("", "req/s", "p50 ms", "p99 ms", "errors", "vs reference (median of the rounds' ratios)"), "|---|---:|---:|---:|---:|---:|"]
    lines.append(row("nginx, 1 worker, `return 200` of the summary bytes, no log", rps(reads["nginx"]["rps"]),
                     ms(reads["nginx"]["p50_ms"]), ms(reads["nginx"]["p99_ms"]), reads["nginx"]["errors"], "reference"))
    lines.append(row("`GET /v1/items/{id}`, hot summary", rps(reads["get_summary"]["rps"]), ms(reads["get_summary"]["p50_ms"]),
                     ms(reads["get_summary"]["p99_ms"]), reads["get_summary"]["errors"],
                     f"{r['get_summary_vs_nginx']:.2f}× nginx (p99 {r['get_summary_p99_vs_nginx']:.2f}×)"))
    lines.append(row("`GET /v1/display`", rps(reads["get_display"]["rps"]), ms(reads["get_display"]["p50_ms"]),
                     ms(reads["get_display"]["p99_ms"]), reads["get_display"]["errors"], f"{r['get_display_vs_nginx']:.2f}× nginx"))
    lines.append(row("`GET /v1/items?ids=` 20 ids", rps(reads["get_batch_20"]["rps"]), ms(reads["get_batch_20"]["p50_ms"]),
                     ms(reads["get_batch_20"]["p99_ms"]), reads["get_batch_20"]["errors"],
                     f"{r['batch_20_vs_get_summary']:.2f}× single GET"))
    items = ", random items" if "put_rating_zipf" in writes else ""
    lines.append(row(f"SQLite alone from C, the store's statements, `synchronous=FULL`, 64 per commit{items}",
                     rps(writes["sqlite_ceiling_rps"]["median"]), "", "", "", "reference"))
    put = writes["put_rating"]
    lines.append(row(f"durable `PUT`, distinct raters{items}", rps(put["rps"]), ms(put["p50_ms"]), ms(put["p99_ms"]), put["errors"],
                     f"{r['put_vs_sqlite_ceiling']:.2f}× SQLite"))
    if "put_rating_zipf" in writes:
        zipf = writes["put_rating_zipf"]
        lines.append(row("SQLite alone from C, as above, Zipf-popular items", rps(writes["sqlite_ceiling_zipf_rps"]["median"]), "", "", "",
                         "reference"))
        lines.append(row("durable `PUT`, distinct raters, Zipf-popular items", rps(zipf["rps"]), ms(zipf["p50_ms"]), ms(zipf["p99_ms"]),
                         zipf["errors"], f"{writes['ratios']['put_zipf_vs_sqlite_ceiling_zipf']:.2f}× SQLite"))
    mixed = writes["mixed_90_10"]
    lines.append(row("90 % GET / 10 % PUT over 10,000 items", rps(mixed["rps"]), ms(mixed["p50_ms"]), ms(mixed["p99_ms"]),
                     mixed["errors"], ""))
    if "postgresql" in report and "ratios" in report["postgresql"]:
        pg = report["postgresql"]
        for label, p, ratio in (("PostgreSQL: `GET /v1/items/{id}`", pg["get_summary"], f"{pg['ratios']['get_summary_vs_pgbench_select']:.2f}× pgbench"),
                                ("PostgreSQL: durable `PUT`, random items", pg["put_random"],
                                 f"{pg['ratios']['put_random_vs_pgbench_write']:.2f}× pgbench's six-statement write")):
            lines.append(row(label, rps(p["rps"]), ms(p["p50_ms"]), ms(p["p99_ms"]), p["errors"], ratio))

    lines += [""] + ratios(report) + round_ratios(report) + steal_range(report) + uneven_rounds(report) + cpu_ratios(report)
    lines += rounds(reads, writes, report["seconds"]) + steal(reads, writes) + steal_effect(reads, writes)
    lines += cpu_per_request(reads, writes) + read_budget(report) + write_floor(report) + measured_floor(report) + put_split(report) + write_stalls(report)

    idle = report["idle_1000"]
    lines += ["", "Memory and start-up:", "", row("", "figure"), "|---|---:|",
              row("RSS with 1,000 idle keep-alive connections, under GET load", f"{idle['get_summary']['rss_mib']} MiB"),
              row("RSS with 1,000 idle keep-alive connections, under PUT load", f"{idle['put_rating']['rss_mib']} MiB")]
    if "soak" in report:
        s = report["soak"]
        lines.append(row(f"90/10 soak, {s['seconds']:.0f} s: {rps(s['rps'])} req/s, {s['errors']} errors; "
                         "peak RSS in its first fifth → in the rest (the growth the target bounds)",
                         f"{s['rss_first_fifth_mib']} → {soak_rest_peak_mib(s):.1f} MiB ({s['growth_pct']:+.1f} %)"))
    if "large" in report:
        large = report["large"]
        stored = "1,000,000 ratings and reviews" if large.get("reviews") else "1,000,000 ratings"
        lines.append(row(f"start to `listening on`, {stored} stored (median of 5)", f"{large['start_to_listening_ms']['median']:.0f} ms"))
        lines.append(row("first start after a prior or weight change: re-scoring 1,000,000 items", f"{large['rescore_all_ms']:.0f} ms"))
        lines.append(row("`GET /v1/items/{id}` with 1,000,000 ratings stored", f"{rps(large['get_summary']['rps'])} req/s"))
        lines += ["", "Ranking over 1,000,000 rated items (`GET /v1/rankings/top?limit=20`):", "",
                  row("", "req/s", "p50 ms", "p99 ms"), "|---|---:|---:|---:|"]
        for label, key in (("first page", "ranking_first_page"), ("page at position 500,000", "ranking_page_at_500000")):
            p = large[key]
            lines.append(row(label, rps(p["rps"]), ms(p["p50_ms"]), ms(p["p99_ms"])))

    if "reviews" in report:
        review_writes = report["reviews"]["writes"]
        lines += ["", "Reviews: one item with 100,000 reviews of about 400 characters in seven languages (pages of 20): as the "
                  "service runs (a page read again is answered as kept), and with no page kept (`--review-page-cache 0`: each "
                  "read from the file and rendered); then durable writes on fresh databases:", "",
                  row("", "req/s", "p50 ms", "p99 ms", "errors", "vs the summary `GET` (page 1) or page 1 (page 5,000)"),
                  "|---|---:|---:|---:|---:|---:|"]
        for mode, how in (("kept", "kept"), ("from_file", "no page kept")):
            pages = report["reviews"]["pages"][mode]
            for label, name, ratio in (("the item's summary `GET`", "get_summary", None),
                                       ("`newest`, page 1", "newest_page_1", "newest_page_1_vs_get_summary"),
                                       ("`newest`, page 5,000", "newest_page_5000", "newest_page_5000_vs_page_1"),
                                       ("`helpful`, page 1", "helpful_page_1", "helpful_page_1_vs_get_summary"),
                                       ("`helpful`, page 5,000", "helpful_page_5000", "helpful_page_5000_vs_page_1")):
                p = pages[name]
                lines.append(row(f"{label}, {how}", rps(p["rps"]), ms(p["p50_ms"]), ms(p["p99_ms"]), p["errors"],
                                 f"{pages['ratios'][ratio]:.2f}×" if ratio else ""))
        for label, p in (("durable rating `PUT`", review_writes["put_rating"]), ("durable review `PUT`", review_writes["put_review"])):
            lines.append(row(label, rps(p["rps"]), ms(p["p50_ms"]), ms(p["p99_ms"]), p["errors"],
                             f"{review_writes['ratios']['put_review_vs_put_rating']:.2f}× rating" if "review" in label else ""))

    lines += ["", "Erasing 10,000 ratings of one rater while other raters write (64 connections):", "",
              row("engine", "erasure", "other writes p99", "slowest other write", "errors"), "|---|---:|---:|---:|---:|"]
    erasures = [("SQLite", report["erasure"])]
    if "postgresql" in report:
        erasures.append(("PostgreSQL", report["postgresql"]["erasure"]))
    for engine, e in erasures:
        lines.append(row(engine, f"{e['erase_ms']:.0f} ms", f"{e['put_during']['p99_ms']:.1f} ms",
                         f"{e['put_during']['max_ms']:.1f} ms", e["put_during"]["errors"]))
    if "webhooks" in report:
        lines += [""] + render_webhooks(report).rstrip("\n").split("\n")[2:]
    scaled = scaling(report)
    return "\n".join(lines + ([""] + scaled if scaled else [])) + "\n"


def measured_on_cores(report):
    """The first sentence of a section run alone: command, commit, date, machine, pinning, runs."""
    m = report["machine"]
    return (f"Measured with `{report['command']}` at commit `{report['commit']}` on {report['date']}: "
            f"{m['cores']} cores ({m['cpu']}), the server on core 1, the load on core 0, {report['seconds']} s per run, "
            f"median of {report['runs']} runs.")


def render_webhooks(report):
    """docs/performance.md's webhooks part (`scripts/bench.sh --webhooks`, or the full run's)."""
    w = report["webhooks"]
    lines = [measured_on_cores(report), "",
             "Durable rating `PUT`s on random items on fresh databases, without webhooks, with one endpoint subscribed to every event "
             "that answers after 50 ms (its events wait in the outbox; the writes only add rows), and with one that is down "
             "(every connection refused; it rests between attempts), beside the write reference (bench/sqlite-ceiling.c, SQLite "
             "called from C with the store's statements, writing as many ratings on items drawn the same way); then one process "
             "emptying an outbox of 20,000 queued events into an endpoint that answers at once (nginx returning 204 on the other core):", "",
             row("", "req/s", "p50 ms", "p99 ms", "errors", "written per `PUT`", "vs without", "vs the reference"),
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    reference = w.get("sqlite_ceiling_rps")
    if reference:
        lines.append(row("the reference, SQLite from C", rps(reference["median"]), "", "", "", "", "", "reference"))
    for label, name in (("`PUT`, no webhooks", "put_rating"), ("`PUT`, a 50 ms endpoint subscribed to `*`", "put_rating_webhooks"),
                        ("`PUT`, an endpoint that is down subscribed to `*`", "put_rating_webhook_down")):
        if name not in w:
            continue
        p = w[name]
        ratio = w["ratios"].get(f"{name}_vs_put_rating")
        against = w["ratios"].get(f"{name}_vs_sqlite_ceiling")
        written = f"{p['written_bytes']:,.0f} B" if "written_bytes" in p else "–"
        lines.append(row(label, rps(p["rps"]), ms(p["p50_ms"]), ms(p["p99_ms"]), f"{p['errors']:g}", written, f"{ratio:.2f}×" if ratio else "reference",
                         f"{against:.2f}×" if against else "–"))
    d = w["deliveries"]
    lines += ["", f"Deliveries: {d['events']:,} events in {d['seconds']:.2f} s, **{d['per_second']:,} a second** from one process."]
    return "\n".join(lines) + "\n"


def render_copies(report):
    """docs/performance.md's part on moving data (`scripts/bench.sh --copy`)."""
    c, m = report["copy"], report["machine"]
    lines = [f"Measured with `{report['command']}` at commit `{report['commit']}` on {report['date']}: "
             f"{m['cores']} cores ({m['cpu']}), PostgreSQL 15 on the same machine (fsync on), median of {report['runs']} runs.", "",
             f"`ratings copy` of {c['ratings']:,} ratings on {c['items']:,} items with {c['reviews']:,} reviews of about 400 "
             "characters, each run into a fresh database; the rate is the ratings table's, from the copy's own progress line. "
             "Beside it, the same ratings loaded by each engine's own bulk path into a migrated database that holds the items: "
             "PostgreSQL's `COPY` through `psql \\copy`, and the `sqlite3` shell's `.import` (C, one transaction):", "",
             row("", "whole copy", "ratings a second", "the engine's own load", "ratio"), "|---|---:|---:|---:|---:|"]
    for label, name, reference in (("SQLite → PostgreSQL", "sqlite_to_postgresql", "`psql \\copy`"),
                                   ("PostgreSQL → SQLite", "postgresql_to_sqlite", "`sqlite3 .import`")):
        d = c[name]
        lines.append(row(label, f"{d['seconds']:.1f} s", f"**{d['ratings_per_second']:,.0f}**",
                         f"{d['reference_ratings_per_second']:,.0f} ({reference})", f"{d['ratio']:.2f}×"))
    return "\n".join(lines) + "\n"


def render_languages(report):
    """docs/performance.md's part on languages (`scripts/bench.sh --languages`)."""
    g = report["languages"]
    lines = [measured_on_cores(report), "",
             f"The hot summary `GET` with {g['language_files']} language files loaded, asked in several languages, "
             f"beside nginx answering the English summary's {g['summary_body_bytes']} bytes from memory:", "",
             row("`Accept-Language`", "req/s", "p50 ms", "p99 ms", "errors", "vs nginx"), "|---|---:|---:|---:|---:|---:|"]
    labels = {"nginx": "nginx, the English bytes", "en": "none (English)", "ar_SA": "`ar-SA` (a region's own digits)",
              "zh_TW": "`zh-TW, en;q=0.5` (an alias of zh-Hant)", "ru": "`ru-RU, ru;q=0.9, en;q=0.8`"}
    for name, label in labels.items():
        p = g[name]
        lines.append(row(label, rps(p["rps"]), ms(p["p50_ms"]), ms(p["p99_ms"]), p["errors"],
                         "reference" if name == "nginx" else f"{g['ratios'][name]:.2f}×"))
    s = g["start_to_listening_ms"]
    lines += ["", f"Start to `listening on` with every language file, on an empty database: **{s['median']:.0f} ms** "
              f"(median of {len(s['runs'])}: {', '.join(f'{v:.0f}' for v in s['runs'])} ms)."]
    return "\n".join(lines) + "\n"


def render_attacks(report):
    """docs/performance.md's attacks part (`scripts/bench.sh --attacks`, or the full run's)."""
    a = report["attacks"]
    lines = [measured_on_cores(report), "",
             "One JSON body of 64,000 bytes, three ways, each `PUT` 16 connections at a time and refused without a write:", "",
             row("body", "answer", "req/s", "p50 ms", "p99 ms", "vs the flat string"), "|---|---:|---:|---:|---:|---:|"]
    labels = {"flat_string": "a flat string beside `stars` out of range", "members_1024": "1,024 members with long names (the cap)",
              "members_7900": "7,900 short members (refused at the 1,025th)"}
    for name, label in labels.items():
        j = a["json"][name]
        ratio = "reference" if name == "flat_string" else f"{j['rps'] / a['json']['flat_string']['rps']:.2f}× the req/s"
        lines.append(row(label, j["status"], rps(j["rps"]), ms(j["p50_ms"]), ms(j["p99_ms"]), ratio))
    u = a["unread_answers"]
    before, during = u["probe_before"], u["probe_during"]
    lines += ["", f"{u['connections']} connections each pipelining {u['pipelined_each']:,} `GET /openapi.yaml` and reading "
              f"nothing ({u['open_connections_during']} connections open while the probe ran; {u['answered']:,} of "
              f"{u['connections'] * u['pipelined_each']:,} requests answered), while a probe of 16 connections reads the "
              "summary `GET`:", "",
              row("", "server RSS", "probe req/s", "probe p50 ms", "probe p99 ms"), "|---|---:|---:|---:|---:|",
              row("before the attack", f"{u['rss_before_mib']} MiB", rps(before["rps"]), ms(before["p50_ms"]), ms(before["p99_ms"])),
              row("during it (peak RSS)", f"{u['rss_peak_during_mib']} MiB", rps(during["rps"]), ms(during["p50_ms"]), ms(during["p99_ms"])),
              row("during ÷ before", "", f"{during['rps'] / before['rps']:.2f}×", "", f"{during['p99_ms'] / before['p99_ms']:.2f}×")]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    summary = "--summary" in sys.argv[1:]
    path = [argument for argument in sys.argv[1:] if argument != "--summary"][0]
    with open(path) as f:
        result = json.load(f)
    if "reads" not in result:
        sections = {"webhooks": render_webhooks, "copy": render_copies, "languages": render_languages, "attacks": render_attacks,
                    "postgresql": render_postgresql}
        sys.stdout.write(next(render(result) for name, render in sections.items() if name in result))
    else:
        sys.stdout.write(render_summary(result) if summary else render(result))
