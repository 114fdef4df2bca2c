#!/usr/bin/env python3
"""The ratings benchmark: the service loaded the way its users load it, beside the strongest
references on the same machine in the same run.

- Reads against nginx with one worker answering `return 200` of the same summary bytes from
  memory, no access log: the ceiling of this load generator here. nginx, the summary GET, the
  display GET and the batch GET run in alternating rounds; each figure is the median of the
  rounds, and each ratio the median of the rounds' own ratios.
- Durable writes against bench/sqlite-ceiling.c: the store's own statements for a new rating
  straight on SQLite, synchronous=FULL, 64 ratings per commit. In each round the C floor
  (bench/put-floor-server.c: those statements behind a minimal HTTP server that answers the same
  load), the same floor with the service's hand-over to a writer thread, and a server on a fresh
  database take the PUT load, then the C reference writes as many ratings as the server did into
  a fresh database of its own, so both write the same rows into the same size of database.

Server and references pinned to core 1, wrk (-t1) to core 0; keep-alive; 64 connections unless
a table says otherwise. Writes bench/results/<date>-<kind>.json (<date>-<n>-<kind>.json for the
day's nth run); bench/report.py renders it.
Run it with scripts/bench.sh.
"""
import argparse, http.client, json, os, re, statistics, subprocess, tempfile, time, urllib.parse, urllib.request

from copies import copies
from languages import languages
from postgres import postgresql
from benchlib import (BENCH, HOT, LOAD_CPU, ROOT, Nginx, PostgresCluster, PutFloor, RSSSampler, Server, SQLiteCeiling,
                      build_rated_items, build_reviewed_item, free_port, log, migrated_for_loading, median_cpu_run, median_ratio, read_ratios, remove_database, request, measure_once, seed, seed_rater, summarize, erasure_stall,
                      new_result_path, put_answer_bytes, write_ratios, wrk, wrk_command,
                      wrk_result, wrk_together)

DISPLAY = "/v1/display?value=3.3&max=5"


def reads(server, work, runs, seconds):
    body = subprocess.run(["curl", "-s", server.base + HOT], capture_output=True, check=True).stdout
    nginx = Nginx(work, body)
    rounds = {"nginx": [], "get_summary": [], "get_display": [], "get_batch_20": []}
    try:
        # Every round measures all four, so each ratio compares figures taken in the same
        # stretch of time: on a shared machine the speed drifts from minute to minute.
        for run in range(runs):
            rounds["nginx"].append(measure_once(nginx.url, nginx.rss_kib, seconds=seconds, cpu_pids=nginx.pids))
            rounds["get_summary"].append(measure_once(server.base + HOT, server.rss_kib, seconds=seconds, cpu_pids=server.pids))
            rounds["get_display"].append(measure_once(server.base + DISPLAY, server.rss_kib, seconds=seconds,
                                                      cpu_pids=server.pids))
            rounds["get_batch_20"].append(measure_once(server.base + "/v1/items", server.rss_kib, seconds=seconds,
                                                       script="get-batch.lua", cpu_pids=server.pids))
    finally:
        nginx.stop()
    result = {name: summarize(name, values) for name, values in rounds.items()}
    result["summary_body_bytes"] = len(body)
    result["ratios"] = read_ratios(result)
    return result


def writes(binary, server, work, runs, seconds):
    """The PUT rounds beside the C reference, each round on fresh databases for both and each timed
    write after a sync: a database that already holds earlier rounds' ratings is slower to write
    into (the C reference wrote about a fifth fewer ratings a second into one holding 280,000),
    and a sync that waits behind the other side's writeback measures the disk's backlog, not the
    code. Each round starts with the C floor (bench/put-floor-server.c, a server with nothing of
    its own: one C thread, the reference's statements, one transaction per turn of its loop,
    answers as long as the server's) under the same load, on a fresh database of its own, and
    then the same floor with the service's hand-over (a writer thread doing the SQL and nothing
    else, as the service's must). Every one of them writes to items drawn uniformly at random
    from the 10,000 (BENCH_ITEMS of bench/items.lua and of the C programs); then the server and the
    reference once more on Zipf-popular items, the shape of real popularity."""
    ceiling, zipf_ceiling = SQLiteCeiling(work), SQLiteCeiling(work)
    floor = PutFloor(work, put_answer_bytes(server.base))
    ceilings, puts, floors, handovers, zipf_puts, zipf_ceilings = [], [], [], [], [], []
    for run in range(runs):
        floors.append(floor.measure(seconds, f"f{run}"))
        log(f"  put_floor: {floors[-1]['rps']:.0f} req/s")
        handovers.append(floor.measure(seconds, f"h{run}", handover=True))
        log(f"  put_floor_handover: {handovers[-1]['rps']:.0f} req/s")
        for items, server_runs, reference, reference_rates in (("random", puts, ceiling, ceilings), ("zipf", zipf_puts, zipf_ceiling, zipf_ceilings)):
            database = os.path.join(work, f"writes-{run}-{items}.sqlite")
            fresh = Server(binary, database, os.path.join(work, f"writes-{run}-{items}.log"))
            try:
                seed(fresh.port) # the 10,000 items the reference seeds too (here with one rating each)
                # Each timed write starts with nothing left to write back, so neither side pays for
                # the other's (or an earlier round's) dirty pages while it syncs.
                os.sync()
                server_runs.append(measure_once(fresh.base + "/", fresh.rss_kib, seconds=seconds, script="put-ratings.lua",
                                                run=f"p{run}{items[0]}", cpu_pids=fresh.pids, env_extra={"BENCH_ITEMS": items}))
            finally:
                fresh.stop()
            remove_database(database)
            log(f"  put_rating ({items} items): {server_runs[-1]['requests']} ratings written")
            os.sync()
            # As many ratings as the server wrote; the time bound only guards against a stall.
            reference_rates.append(reference.run(seconds * 6, ratings=server_runs[-1]["requests"], run=server_runs[-1]["bench_run"], items=items))
            log(f"  sqlite_ceiling ({items} items): {reference_rates[-1]:.0f} ratings/s, steal {reference.steal_pct[-1]} %")
    result = {"sqlite_ceiling_rps": {"median": statistics.median(ceilings), "runs": ceilings},
              "sqlite_ceiling_steal_pct": ceiling.steal_pct,
              "sqlite_ceiling_commit_ms": ceiling.commit_ms,
              "sqlite_ceiling_cpu_us": median_cpu_run(ceiling.cpu_us),
              "put_rating": summarize("put_rating", puts),
              "sqlite_ceiling_zipf_rps": {"median": statistics.median(zipf_ceilings), "runs": zipf_ceilings},
              "put_rating_zipf": summarize("put_rating_zipf", zipf_puts),
              "put_floor": summarize("put_floor", floors),
              "put_floor_handover": summarize("put_floor_handover", handovers),
              "put_floor_answer_bytes": floor.answer_bytes}
    # The mixed load writes too: it starts, like the PUT rounds, with the reference's pages written back.
    os.sync()
    mixed = [measure_once(server.base + "/", server.rss_kib, seconds=seconds, script="mixed.lua", run=f"m{run}")
             for run in range(runs)]
    result["mixed_90_10"] = summarize("mixed_90_10", mixed)
    result["ratios"] = write_ratios(result)
    return result


def idle_connections(server, seconds):
    idle = subprocess.Popen(["taskset", "-c", LOAD_CPU, "python3", os.path.join(BENCH, "idle-connections.py"),
                             "127.0.0.1", str(server.port), "1000"], stdout=subprocess.PIPE, text=True)
    idle.stdout.readline()
    try:
        return {"get_summary": summarize("1,000 idle + get", [measure_once(server.base + HOT, server.rss_kib, seconds=seconds)]),
                "put_rating": summarize("1,000 idle + put", [measure_once(server.base + "/", server.rss_kib, seconds=seconds,
                                                                          script="put-ratings.lua", run="idle")])}
    finally:
        idle.kill()


def scaling(server):
    table = {}
    for connections in (1, 16, 64, 256, 1024):
        table[connections] = {
            "get": summarize(f"get c={connections}", [measure_once(server.base + HOT, connections=connections, seconds=5)]),
            "put": summarize(f"put c={connections}", [measure_once(server.base + "/", connections=connections, seconds=5,
                                                                   script="put-ratings.lua", run=f"s{connections}")]),
        }
    return table


def soak(server, seconds):
    sampler = RSSSampler(server.rss_kib)
    result = wrk(server.base + "/", 64, seconds, "mixed.lua", run="soak")
    sampler.stop()
    values = sampler.values
    fifth = max(1, len(values) // 5)
    first, rest = max(values[:fifth]), max(values[fifth:] or values)
    return {**result, "rss_first_fifth_mib": round(first / 1024, 1), "rss_end_mib": round(values[-1] / 1024, 1),
            "rss_peak_mib": round(max(values) / 1024, 1), "rss_rest_peak_mib": round(rest / 1024, 1),
            "growth_pct": round(100 * (rest - first) / first, 1)}


def json_bodies(work):
    """One 64,000-byte JSON body written three ways, each refused without a write: a flat string
    beside stars out of range (the reference), 1,024 members with long names (the most one object
    may hold, every name hashed; stars out of range again), and 7,900 short members (refused at
    the 1,025th)."""
    size = 64_000
    flat = '{"stars":99,"note":"' + "x" * (size - 22) + '"}'
    pad = (size - 20) // 1023 - 10
    wide = "{" + ",".join(f'"m{n:04d}{"y" * pad}":0' for n in range(1023)) + ',"stars":99}'
    wide = wide[:-1] + " " * (size - len(wide)) + "}"
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
    short = "{" + ",".join(f'"{alphabet[n // 1296]}{alphabet[n // 36 % 36]}{alphabet[n % 36]}":0' for n in range(7_900)) + "}"
    short = short[:-1] + " " * (size - len(short)) + "}"
    paths = {}
    for name, body in (("flat_string", flat), ("members_1024", wide), ("members_7900", short)):
        if len(body) != size:
            raise SystemExit(f"the {name} body is {len(body)} bytes, not {size}")
        paths[name] = os.path.join(work, f"{name}.json")
        with open(paths[name], "w") as f:
            f.write(body)
    return paths


def attacks(binary, work, runs, seconds):
    """What the attacks of issue 66 cost now, beside the same server's ordinary figures in the
    same run. JSON bodies of 64,000 bytes (`json_bodies`), each against the flat string. Unread
    answers: 200 connections each pipeline 5,000 `GET /openapi.yaml` and read nothing, while 16
    connections read the summary `GET`; the same probe before the attack is the reference."""
    # No write limit: the bodies go to one rater, and a 429 would be answered before the body is read.
    server = Server(binary, os.path.join(work, "attacks.sqlite"), os.path.join(work, "attacks.log"), extra=["--write-rate", "0"])
    try:
        bodies = json_bodies(work)
        result = {"json": {}}
        for name, path in bodies.items():
            status = int(subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "-H",
                                         "Content-Type: application/json", "--data-binary", "@" + path,
                                         server.base + "/v1/items/bench-json/ratings/json-body"],
                                        capture_output=True, text=True, check=True).stdout)
            runs_of_body = [wrk(server.base + "/", 16, seconds, "json-body.lua", run="j", env_extra={"BENCH_BODY": path})
                            for _ in range(runs)]
            result["json"][name] = {**summarize(f"json {name} ({status})", runs_of_body), "status": status}
        flat = result["json"]["flat_string"]["rps"]
        result["json"]["ratios"] = {name: round(result["json"][name]["rps"] / flat, 3)
                                    for name in ("members_1024", "members_7900")}
        log(f"  JSON ÷ flat string: {result['json']['ratios']}")

        before = measure_once(server.base + HOT, server.rss_kib, connections=16, seconds=seconds)
        rss_before = server.rss_kib()
        attack = subprocess.Popen(["taskset", "-c", LOAD_CPU, "python3", os.path.join(BENCH, "unread-pipelines.py"),
                                   "127.0.0.1", str(server.port), "200", "5000"], stdout=subprocess.PIPE, text=True)
        try:
            attack.stdout.readline()
            open_during = open_connections(server.base)
            during = measure_once(server.base + HOT, server.rss_kib, connections=16, seconds=seconds)
        finally:
            attack.kill()
            attack.wait()
        answered = sum(1 for line in open(server.log_path) if "/openapi.yaml" in line)
        result["unread_answers"] = {
            "connections": 200, "pipelined_each": 5_000, "open_connections_during": open_during,
            "answered": answered, "rss_before_mib": round(rss_before / 1024, 1), "rss_peak_during_mib": during["rss_mib"],
            "probe_before": summarize("probe before", [before]), "probe_during": summarize("probe during", [during]),
            "ratios": {"rps": round(during["rps"] / before["rps"], 3), "p99": round(during["p99_ms"] / before["p99_ms"], 3)}}
        log(f"  unread answers: {answered} of 1,000,000 answered, RSS {rss_before / 1024:.1f} -> peak {during['rss_mib']} MiB, "
            f"probe {during['rps'] / before['rps']:.2f}x the req/s, p99 {during['p99_ms']:.2f} ms against {before['p99_ms']:.2f}")
        return result
    finally:
        server.stop()


def open_connections(base):
    """`ratings_open_connections` as /metrics says it now."""
    metrics = subprocess.run(["curl", "-s", base + "/metrics"], capture_output=True, text=True, check=True).stdout
    return next(int(line.split()[1]) for line in metrics.splitlines() if line.startswith("ratings_open_connections "))


def review_pages(binary, work, runs, seconds):
    """An item with 100,000 reviews of about 400 characters in seven languages: a page of 20 in
    the newest and the most helpful order, at page 1 and at page 5,000 (reached by following
    cursors), in alternating rounds beside the item's summary GET on the same server: first as
    the service runs (a page read again is answered as kept, `--review-page-cache`), then with
    no page kept (`--review-page-cache 0`: every page read from the file and rendered)."""
    path = os.path.join(work, "reviews.sqlite")
    log("building an item with 100,000 reviews")
    build_reviewed_item(binary, path)
    result, paths = {}, None
    for label, extra in (("kept", []), ("from_file", ["--review-page-cache", "0"])):
        server = Server(binary, path, os.path.join(work, f"reviews-{label}.log"), extra=extra)
        try:
            if paths is None:  # cursors are sealed with the database's secret: the same for both servers
                paths = {"get_summary": "/v1/items/reviewed"}
                for sort in ("newest", "helpful"):
                    paths[f"{sort}_page_1"] = f"/v1/items/reviewed/reviews?sort={sort}&limit=20"
                    paths[f"{sort}_page_5000"] = deep_review_page(server.port, sort, 4_999 * 20)
            rounds = {name: [] for name in paths}
            for _ in range(runs):
                for name, page in paths.items():
                    rounds[name].append(measure_once(server.base + page, seconds=seconds, cpu_pids=server.pids))
        finally:
            server.stop()
        figures = {name: summarize(f"reviews ({label}) {name}", values) for name, values in rounds.items()}
        figures["ratios"] = {f"{sort}_page_1_vs_get_summary": median_ratio(rounds[f"{sort}_page_1"], rounds["get_summary"])
                             for sort in ("newest", "helpful")}
        figures["ratios"].update({f"{sort}_page_5000_vs_page_1": median_ratio(rounds[f"{sort}_page_5000"], rounds[f"{sort}_page_1"])
                                  for sort in ("newest", "helpful")})
        result[label] = figures
    return result


def deep_review_page(port, sort, position):
    """Follows nextCursor through the reviewed item's list until `position` reviews lie above;
    returns the path of the page of 20 there."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    cursor, passed = "", 0
    while passed < position:
        connection.request("GET", f"/v1/items/reviewed/reviews?sort={sort}&limit={min(100, position - passed)}{cursor}")
        page = json.loads(connection.getresponse().read())
        passed += len(page["reviews"])
        cursor = "&cursor=" + urllib.parse.quote(page["nextCursor"])
    connection.close()
    return f"/v1/items/reviewed/reviews?sort={sort}&limit=20{cursor}"


def review_writes(binary, work, runs, seconds):
    """Durable review PUTs (a new rating and about 400 characters of text each) beside durable
    rating PUTs, each round both on fresh databases seeded alike, after a sync."""
    rounds = {"put_rating": [], "put_review": []}
    for run in range(runs):
        for name, script in (("put_rating", "put-ratings.lua"), ("put_review", "put-reviews.lua")):
            database = os.path.join(work, f"{name}-{run}.sqlite")
            fresh = Server(binary, database, os.path.join(work, f"{name}-{run}.log"))
            try:
                seed(fresh.port)
                os.sync()
                rounds[name].append(measure_once(fresh.base + "/", seconds=seconds, script=script, run=f"{name[4:]}{run}",
                                                 cpu_pids=fresh.pids))
            finally:
                fresh.stop()
            remove_database(database)
            log(f"  {name}: {rounds[name][-1]['rps']:.0f} req/s")
    result = {name: summarize(name, values) for name, values in rounds.items()}
    result["ratios"] = {"put_review_vs_put_rating": median_ratio(rounds["put_review"], rounds["put_rating"])}
    return result


def webhooks(binary, work, runs, seconds):
    """Durable rating PUTs with one webhook endpoint subscribed to every event and answering after
    50 ms (bench/slow-endpoint.py), and with one that is down (refusing every connection), beside
    the same PUTs without webhooks and the write reference (bench/sqlite-ceiling.c writing as many
    ratings), each round all four on fresh databases after a sync and on random items, the three
    servers in another order each round; then how fast one process empties an outbox of queued
    events into an endpoint that answers at once (nginx returning 204 from memory on the other
    core)."""
    rounds = {"put_rating": [], "put_rating_webhooks": [], "put_rating_webhook_down": []}
    reference, reference_rates = SQLiteCeiling(work), []
    slow_port = free_port()
    slow = subprocess.Popen(["python3", os.path.join(BENCH, "slow-endpoint.py"), str(slow_port), "50"])
    hooks, down_hooks = os.path.join(work, "hooks.json"), os.path.join(work, "down-hooks.json")
    try:
        write_hooks(hooks, slow_port)
        write_hooks(down_hooks, free_port())  # nothing listens there: every attempt is refused
        setups = [("put_rating", ()), ("put_rating_webhooks", ("--webhooks", hooks)), ("put_rating_webhook_down", ("--webhooks", down_hooks))]
        for run in range(runs):
            # Each round in another order: this machine's disk slows as a section goes on, and a
            # setup always run last would pay for it.
            for name, extra in setups[run % 3:] + setups[:run % 3]:
                database = os.path.join(work, f"{name}-{run}.sqlite")
                fresh = Server(binary, database, os.path.join(work, f"{name}-{run}.log"), extra=extra)
                try:
                    seed(fresh.port)
                    os.sync()
                    rounds[name].append(measure_once(fresh.base + "/", seconds=seconds, script="put-ratings.lua", run=f"w{run}{name[-1]}",
                                                     cpu_pids=fresh.pids, env_extra={"BENCH_ITEMS": "random"}))
                finally:
                    fresh.stop()
                remove_database(database)
                log(f"  {name}: {rounds[name][-1]['rps']:.0f} req/s")
            os.sync()
            # As many ratings as the server without webhooks wrote, on items drawn the same way.
            written = rounds["put_rating"][-1]
            reference_rates.append(reference.run(seconds * 6, ratings=written["requests"], run=written["bench_run"], items="random"))
            log(f"  sqlite_ceiling: {reference_rates[-1]:.0f} ratings/s")
    finally:
        slow.kill()
    result = {name: summarize(name, values) for name, values in rounds.items()}
    result["sqlite_ceiling_rps"] = {"median": statistics.median(reference_rates), "runs": reference_rates}
    result["ratios"] = {"put_rating_webhooks_vs_put_rating": median_ratio(rounds["put_rating_webhooks"], rounds["put_rating"]),
                        "put_rating_webhook_down_vs_put_rating": median_ratio(rounds["put_rating_webhook_down"], rounds["put_rating"]),
                        **{f"{name}_vs_sqlite_ceiling": statistics.median(r["rps"] / c for r, c in zip(values, reference_rates))
                           for name, values in rounds.items()}}
    result["deliveries"] = webhook_drain(binary, work)
    return result


def write_hooks(path, port):
    with open(path, "w") as f:
        json.dump({"endpoints": [{"id": "bench", "url": f"http://127.0.0.1:{port}/hook",
                                  "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["*"]}]}, f)


def webhook_drain(binary, work, events=20_000):
    """Times one process emptying an outbox of `events` queued rating events into an endpoint that
    answers at once (nginx returning 204 on the other core): the rows are written straight into a
    fresh database, as writes with the endpoint away would have left them, and the clock runs from
    the server listening until the pending gauge reads 0."""
    database = os.path.join(work, "drain.sqlite")
    db = migrated_for_loading(binary, database)
    now = int(time.time() * 1000)
    with db:
        db.executemany("INSERT INTO webhook_outbox (event_id, endpoint_id, type, payload, created_at_ms, due_at_ms) VALUES (?, ?, ?, ?, ?, ?)",
                       ((f"msg_bench{i:019d}", "bench", "rating.created",
                         f"i\trating.created\t{now}\tbench-{i}\tseed-{i}\t4\t\t1\t5\t1\t4\t0,0,0,1,0\t0", now, now)
                        for i in range(events)))
    db.close()
    endpoint = Nginx(os.path.join(work, "drain-nginx"), b"", other_cpu=True, status=204)
    hooks = os.path.join(work, "drain-hooks.json")
    write_hooks(hooks, endpoint.port)
    try:
        server = Server(binary, database, os.path.join(work, "drain.log"), extra=("--webhooks", hooks))
        try:
            started = time.monotonic()
            while pending(server.base) > 0:
                time.sleep(0.02)
            elapsed = time.monotonic() - started
        finally:
            server.stop()
    finally:
        endpoint.stop()
        remove_database(database)
    log(f"  webhook deliveries: {events} in {elapsed:.2f} s")
    return {"events": events, "seconds": round(elapsed, 3), "per_second": round(events / elapsed)}


def pending(base):
    """The outbox's pending rows, from the metrics gauge."""
    text = urllib.request.urlopen(base + "/metrics", timeout=10).read().decode()
    return sum(int(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith("ratings_webhook_pending{"))


def large_database(binary, work, runs, seconds):
    """1,000,000 rated items (one rating and one review of about 400 characters each): the first
    start re-scores them all, later starts are timed to `listening on`; then the ranking's first
    page against a page half-way down."""
    path = os.path.join(work, "large.sqlite")
    log("building a database of 1,000,000 rated and reviewed items")
    build_rated_items(binary, path, reviewed=True)
    first = Server(binary, path, os.path.join(work, "large-first.log"))
    first.stop()
    starts = []
    for _ in range(5):
        server = Server(binary, path, os.path.join(work, "large.log"))
        starts.append(round(server.ready_ms, 1))
        server.stop()
    log(f"  first start (re-scoring 1,000,000 items) {first.ready_ms:.0f} ms; later starts {starts} ms")
    server = Server(binary, path, os.path.join(work, "large.log"))
    try:
        deep_path = deep_ranking_page(server.port, 500_000)
        first_page = "/v1/rankings/top?limit=20"
        pages = {"first": [], "deep": []}
        for _ in range(runs):
            pages["first"].append(measure_once(server.base + first_page, seconds=seconds))
            pages["deep"].append(measure_once(server.base + deep_path, seconds=seconds))
        hot = summarize("get on 1M", [measure_once(server.base + "/v1/items/item-0000037", seconds=seconds)])
    finally:
        server.stop()
    return {"reviews": 1_000_000, "rescore_all_ms": round(first.ready_ms, 1), "start_to_listening_ms": {"median": statistics.median(starts), "runs": starts},
            "ranking_first_page": summarize("ranking first page", pages["first"]),
            "ranking_page_at_500000": summarize("ranking page at 500,000", pages["deep"]), "get_summary": hot}


def deep_ranking_page(port, position):
    """Follows nextCursor from the top until `position` items lie above; returns that page's path."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    path, passed = "/v1/rankings/top?limit=100", 0
    while passed < position:
        connection.request("GET", path)
        page = json.loads(connection.getresponse().read())
        passed += len(page["items"])
        path = "/v1/rankings/top?limit=100&cursor=" + urllib.parse.quote(page["nextCursor"])
    connection.close()
    return path.replace("limit=100", "limit=20")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/ratings"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--soak-seconds", type=int, default=300, help="90/10 soak length; 0 skips it")
    parser.add_argument("--quick", action="store_true",
                        help="one round of 5 s each; no scaling, soak, 1,000,000-item database or PostgreSQL")
    parser.add_argument("--webhooks", action="store_true",
                        help="only the webhook rows: bench/results/DATE-webhooks.json")
    parser.add_argument("--languages", action="store_true",
                        help="only the summary GET in several languages beside nginx, and start-up: bench/results/DATE-languages.json")
    parser.add_argument("--copy", action="store_true",
                        help="only ratings copy, SQLite to PostgreSQL and back: bench/results/DATE-copy.json")
    parser.add_argument("--postgresql", action="store_true",
                        help="only PostgreSQL beside pgbench, pool sizes, replicas: bench/results/DATE-postgresql.json")
    parser.add_argument("--attacks", action="store_true",
                        help="only the attacks (JSON bodies, unread pipelined answers): bench/results/DATE-attacks.json")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.seconds, args.soak_seconds = 1, 5, 0
    if args.attacks:
        return section_only(args, "attacks", attacks)
    if args.webhooks:
        return section_only(args, "webhooks", webhooks)
    if args.copy:
        return section_only(args, "copy", copies)
    if args.languages:
        return section_only(args, "languages", languages)
    if args.postgresql:
        return section_only(args, "postgresql", postgresql)
    work = tempfile.mkdtemp(prefix="ratings-bench-")
    os.chmod(work, 0o755)  # the postgres user creates its cluster below it
    commit = binary_commit(args.binary)
    report = {"command": "scripts/bench.sh" + (" --quick" if args.quick else ""), "commit": commit,
              "date": time.strftime("%Y-%m-%d"), "machine": machine(), "runs": args.runs, "seconds": args.seconds}
    try:
        server = Server(args.binary, os.path.join(work, "db.sqlite"), os.path.join(work, "access.log"))
        log(f"seeding 10,000 items on {server.base}")
        seed(server.port)
        log("reads beside nginx")
        report["reads"] = reads(server, work, args.runs, args.seconds)
        log("durable writes beside the SQLite ceiling")
        report["writes"] = writes(args.binary, server, work, args.runs, args.seconds)
        log("1,000 idle keep-alive connections held open during GET and PUT load")
        report["idle_1000"] = idle_connections(server, args.seconds)
        if not args.quick:
            log("scaling with connections")
            report["scaling"] = scaling(server)
        log("attacks: JSON bodies, unread pipelined answers")
        report["attacks"] = attacks(args.binary, work, args.runs, args.seconds)
        if args.soak_seconds:
            log(f"90/10 soak for {args.soak_seconds} s")
            report["soak"] = soak(server, args.soak_seconds)
        server.stop()
        log("reviews: pages of an item with 100,000 reviews, review writes beside rating writes")
        report["reviews"] = {"pages": review_pages(args.binary, work, args.runs, args.seconds),
                             "writes": review_writes(args.binary, work, args.runs, args.seconds)}
        log("webhooks: PUTs with a slow endpoint subscribed to every event, and deliveries a second")
        report["webhooks"] = webhooks(args.binary, work, args.runs, args.seconds)
        log("erasing 10,000 ratings of one rater under write load (SQLite)")
        report["erasure"] = erasure_stall(args.binary, os.path.join(work, "erase.sqlite"), work, "sqlite")
        if not args.quick:
            report["large"] = large_database(args.binary, work, args.runs, args.seconds)
            log("PostgreSQL")
            report["postgresql"] = postgresql(args.binary, work, args.runs, args.seconds)
    finally:
        subprocess.run(["rm", "-rf", work])
    out_dir = os.path.join(BENCH, "results")
    os.makedirs(out_dir, exist_ok=True)
    out = new_result_path(out_dir, report["date"], "quick" if args.quick else "full")
    with open(out, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    subprocess.run(["python3", os.path.join(BENCH, "report.py"), out], check=True)
    print(f"\nwritten to {os.path.relpath(out, ROOT)}")


def section_only(args, name, measure):
    """One section of the benchmark alone, written to bench/results/DATE-NAME.json."""
    work = tempfile.mkdtemp(prefix="ratings-bench-")
    os.chmod(work, 0o755)  # the postgres user creates its cluster below it
    commit = binary_commit(args.binary)
    runs = f" --runs {args.runs}" if args.runs != 3 else ""
    report = {"command": f"scripts/bench.sh --{name}{runs}", "commit": commit, "date": time.strftime("%Y-%m-%d"),
              "machine": machine(), "runs": args.runs, "seconds": args.seconds}
    try:
        log(name)
        report[name] = measure(args.binary, work, args.runs, args.seconds)
    finally:
        subprocess.run(["rm", "-rf", work])
    out = new_result_path(os.path.join(BENCH, "results"), report["date"], name)
    with open(out, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    subprocess.run(["python3", os.path.join(BENCH, "report.py"), out], check=True)
    print(f"\nwritten to {os.path.relpath(out, ROOT)}")


def binary_commit(binary):
    """The commit the measured binary was built from (its `--version`), which is HEAD's unless
    --binary names another build; HEAD's when the binary does not say."""
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    match = re.search(r"commit ([0-9a-f]{7})", version)
    return match.group(1) if match else subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                                       text=True).stdout.strip()


def machine():
    with open("/proc/cpuinfo") as f:
        model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "unknown")
    with open("/proc/meminfo") as f:
        memory_gib = round(int(f.readline().split()[1]) / 1024 / 1024, 1)
    return {"cores": os.cpu_count(), "cpu": model, "memory_gib": memory_gib, "kernel": os.uname().release}


if __name__ == "__main__":
    main()
